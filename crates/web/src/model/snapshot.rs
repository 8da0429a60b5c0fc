//! What a lane's snapshot shows: the shapes it puts on the time axis (windows,
//! resets, TAT, the log, the queue) and its gauge, in the words of
//! [`crate::texts::lanes`].

use ratelab_core::Snapshot;

use super::{amount_f64, ms_f64};

/// What a gauge or a shape on a lane's time axis is labelled with (the words are
/// in [`crate::texts::lanes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Label {
    Count,
    InLog,
    Estimate,
    Tokens,
    Waiting,
    Excess,
    Window,
    Opened,
    Reset,
    Prev,
    Curr,
    Tat,
    NowTau,
    NextOut,
    /// GCRA's equivalent of tokens: how many requests it would take now.
    Room,
    /// N.
    Limit,
    /// One token.
    One,
    Capacity,
    Burst,
    Delay,
}

/// A shape on a lane's time axis, from the lane's snapshot.
#[derive(Clone, Debug, PartialEq)]
pub enum Overlay {
    /// A span of time, shaded: a window.
    Band {
        /// Start, ms.
        from: f64,
        /// End, ms.
        to: f64,
        /// The stylesheet's classes for it.
        class: &'static str,
        /// What it is.
        label: Label,
    },
    /// A moment: a reset, TAT, now + τ, the next departure.
    Line {
        /// When, ms.
        at: f64,
        /// The stylesheet's classes for it.
        class: &'static str,
        /// What it is.
        label: Label,
    },
    /// A point: a log entry or a waiting request's departure.
    Dot {
        /// When, ms.
        at: f64,
        /// How many share it.
        count: u32,
        /// The stylesheet's classes for it.
        class: &'static str,
    },
}

/// A lane's state as one bar: a level against a maximum, with reference lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Gauge {
    /// What the bar measures.
    pub what: Label,
    /// The level.
    pub level: f64,
    /// The full scale.
    pub max: f64,
    /// Reference lines: `(value, label)` (N, burst, delay).
    pub lines: Vec<(f64, Label)>,
    /// The level as the engine prints it (exact: `2.4`, `0.85`).
    pub level_text: String,
    /// The full scale as text.
    pub max_text: String,
    /// For the sliding window counter: the previous window's weighted share of the
    /// level, drawn lighter.
    pub part: Option<f64>,
}

/// The shapes a lane's snapshot puts on its time axis.
pub fn overlays(snapshot: &Snapshot, now: u64) -> Vec<Overlay> {
    let now = now as f64;
    match snapshot {
        Snapshot::FixedWindow { start, end, .. } => vec![
            Overlay::Band {
                from: ms_f64(*start),
                to: ms_f64(*end),
                class: "band window",
                label: Label::Window,
            },
            Overlay::Line {
                at: ms_f64(*end),
                class: "mark-line reset",
                label: Label::Reset,
            },
        ],
        Snapshot::AnchoredWindow { window, .. } => match window {
            Some((start, end)) => vec![
                Overlay::Band {
                    from: ms_f64(*start),
                    to: ms_f64(*end),
                    class: "band window",
                    label: Label::Opened,
                },
                Overlay::Line {
                    at: ms_f64(*end),
                    class: "mark-line reset",
                    label: Label::Reset,
                },
            ],
            None => Vec::new(),
        },
        Snapshot::SlidingLog {
            entries, window, ..
        } => {
            let mut out = vec![Overlay::Band {
                from: now - ms_f64(*window),
                to: now,
                class: "band window",
                label: Label::Window,
            }];
            out.extend(entries.iter().map(|e| Overlay::Dot {
                at: ms_f64(e.at),
                count: e.count,
                class: if e.allowed {
                    "entry logged"
                } else {
                    "entry logged-denied"
                },
            }));
            out
        }
        Snapshot::SlidingWindowCounter { start, window, .. } => {
            let (s, w) = (ms_f64(*start), ms_f64(*window));
            vec![
                Overlay::Band {
                    from: s - w,
                    to: s,
                    class: "band prev",
                    label: Label::Prev,
                },
                Overlay::Band {
                    from: s,
                    to: s + w,
                    class: "band window",
                    label: Label::Curr,
                },
            ]
        }
        Snapshot::Gcra { tat, tau, .. } => vec![
            Overlay::Line {
                at: ms_f64(*tat),
                class: "mark-line tat",
                label: Label::Tat,
            },
            Overlay::Line {
                at: now + ms_f64(*tau),
                class: "mark-line tau",
                label: Label::NowTau,
            },
        ],
        Snapshot::LeakyQueue {
            departures,
            next_out,
            ..
        } => {
            let mut out: Vec<Overlay> = departures
                .iter()
                .map(|d| Overlay::Dot {
                    at: ms_f64(*d),
                    count: 1,
                    class: "entry queued",
                })
                .collect();
            if !departures.is_empty() {
                out.push(Overlay::Line {
                    at: ms_f64(*next_out),
                    class: "mark-line next-out",
                    label: Label::NextOut,
                });
            }
            out
        }
        Snapshot::TokenBucket { .. }
        | Snapshot::Nginx { .. }
        | Snapshot::FloatTokenBucket { .. } => Vec::new(),
    }
}

/// A float as the teaching bucket shows it, every digit it holds (the shortest
/// text that reads back the same): in the page JavaScript's own `toString`, as
/// Rust's float formatting would stay in the first module for this text alone;
/// natively (the tests) Rust's `{:?}`, which writes the same digits (and `.0` on
/// a whole number).
fn float_text(v: f64) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Number::from(v)
            .to_string_with_radix(10)
            .map(String::from)
            .unwrap_or_default()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        format!("{v:?}")
    }
}

/// A lane's state as a bar.
/// The level [`gauge`] shows for `snapshot`, without its texts and lines: what the
/// state-over-time strip asks at each of its moments (a thousand a strip).
pub fn level_of(snapshot: &Snapshot) -> f64 {
    match snapshot {
        Snapshot::FixedWindow { count, .. }
        | Snapshot::AnchoredWindow { count, .. }
        | Snapshot::LeakyQueue { waiting: count, .. } => *count as f64,
        Snapshot::SlidingLog { entries, .. } => {
            entries.iter().map(|e| u64::from(e.count)).sum::<u64>() as f64
        }
        Snapshot::SlidingWindowCounter { estimate, .. } => amount_f64(estimate),
        Snapshot::TokenBucket { tokens, .. } | Snapshot::Gcra { tokens, .. } => amount_f64(tokens),
        Snapshot::FloatTokenBucket { tokens, .. } => *tokens,
        Snapshot::Nginx { excess, .. } => amount_f64(excess),
    }
}

pub fn gauge(snapshot: &Snapshot) -> Gauge {
    let whole = |n: u64| n.to_string();
    match snapshot {
        Snapshot::FixedWindow { count, limit, .. }
        | Snapshot::AnchoredWindow { count, limit, .. } => Gauge {
            what: Label::Count,
            level: *count as f64,
            max: *limit as f64,
            lines: vec![(*limit as f64, Label::Limit)],
            level_text: whole(*count),
            max_text: whole(*limit),
            part: None,
        },
        Snapshot::SlidingLog { entries, limit, .. } => {
            let n: u64 = entries.iter().map(|e| u64::from(e.count)).sum();
            Gauge {
                what: Label::InLog,
                level: n as f64,
                max: *limit as f64,
                lines: vec![(*limit as f64, Label::Limit)],
                level_text: whole(n),
                max_text: whole(*limit),
                part: None,
            }
        }
        Snapshot::SlidingWindowCounter {
            curr,
            estimate,
            limit,
            ..
        } => {
            let est = amount_f64(estimate);
            Gauge {
                what: Label::Estimate,
                level: est,
                max: (*limit as f64).max(est),
                lines: vec![(*limit as f64, Label::Limit)],
                level_text: estimate.to_string(),
                max_text: whole(*limit),
                part: Some((est - *curr as f64).max(0.0)),
            }
        }
        Snapshot::TokenBucket {
            tokens, capacity, ..
        } => Gauge {
            what: Label::Tokens,
            level: amount_f64(tokens),
            max: *capacity as f64,
            lines: vec![(1.0, Label::One)],
            level_text: tokens.to_string(),
            max_text: whole(*capacity),
            part: None,
        },
        Snapshot::FloatTokenBucket { tokens, capacity } => Gauge {
            what: Label::Tokens,
            level: *tokens,
            max: *capacity as f64,
            lines: vec![(1.0, Label::One)],
            level_text: float_text(*tokens),
            max_text: whole(*capacity),
            part: None,
        },
        Snapshot::Gcra { tokens, burst, .. } => Gauge {
            // GCRA keeps no tokens (one time, TAT): this is what they would be.
            what: Label::Room,
            level: amount_f64(tokens),
            max: *burst as f64,
            lines: vec![(1.0, Label::One)],
            level_text: tokens.to_string(),
            max_text: whole(*burst),
            part: None,
        },
        Snapshot::LeakyQueue {
            waiting, capacity, ..
        } => Gauge {
            what: Label::Waiting,
            level: *waiting as f64,
            max: *capacity as f64,
            lines: vec![(*capacity as f64, Label::Capacity)],
            level_text: whole(*waiting),
            max_text: whole(*capacity),
            part: None,
        },
        Snapshot::Nginx {
            excess,
            burst,
            delay,
            ..
        } => {
            let mut lines = vec![(*burst as f64, Label::Burst)];
            if let Some(d) = delay {
                lines.push((*d as f64, Label::Delay));
            }
            Gauge {
                what: Label::Excess,
                level: amount_f64(excess),
                max: (*burst as f64).max(1.0),
                lines,
                level_text: excess.to_string(),
                max_text: whole(*burst),
                part: None,
            }
        }
    }
}

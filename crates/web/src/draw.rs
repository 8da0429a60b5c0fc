//! A lane's pictures as SVG and HTML markup, in plain Rust (tested natively).
//!
//! Why strings: a lane redraws its state every animation frame and its marks whenever
//! the clock passes a request; building a few kilobytes of markup and handing it to
//! the browser in one `innerHTML` is cheaper than thousands of reactive nodes, and
//! keeps the wasm small (every reactive attribute is generic code). Only values the
//! engine computed go in; every text is escaped.
//!
//! Three layers, stacked in one `<svg>`: *under* (the state's windows and moments,
//! the busiest window), *marks* (axis and one mark per request in the visible span;
//! redrawn when the span, the selection or the set of arrived requests changes), and
//! *over* (the clock line and the veil over the future; every frame).

use std::fmt::Write as _;

use ratelab_core::{Headers, Snapshot};
use ratelab_sim::BusiestWindow;

use crate::i18n::Words;
use crate::model::{gauge, overlays, tick_step, time_label, Column, Decision, Mark, Overlay};

/// Height of a lane's timeline, px.
pub const HEIGHT: f64 = 132.0;
const MARK_Y: f64 = 62.0;
const DEPART_Y: f64 = 90.0;
const LOG_Y: f64 = 32.0;
const AXIS_Y: f64 = 108.0;
/// Above this many marks, arrival is shown by the veil alone (marks are not redrawn
/// every time the clock passes a request).
pub const REVEAL_MARKS: usize = 400;

/// Escapes text for HTML/SVG content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Maps times to x in px for a span and a width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    /// Start of the span, ms.
    pub from: u64,
    /// End of the span, ms.
    pub to: u64,
    /// Width, px.
    pub width: f64,
}

impl Scale {
    /// x of `t` (ms), in whole px (SVG needs no more, and integers keep float
    /// formatting out of the wasm).
    pub fn x(&self, t: f64) -> i64 {
        let x =
            (t - self.from as f64) / (self.to.saturating_sub(self.from).max(1) as f64) * self.width;
        x.clamp(-1e9, 1e9).round() as i64
    }

    /// The width in whole px.
    pub fn w(&self) -> i64 {
        self.width.round() as i64
    }
}

/// The axis: a baseline and ticks with times.
pub fn axis(s: Scale) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<line class="axis" x1="0" x2="{}" y1="{AXIS_Y}" y2="{AXIS_Y}"/>"#,
        s.w()
    );
    let step = tick_step(s.to - s.from, (s.width / 70.0).max(1.0) as u64);
    let first = s.from.div_ceil(step) * step;
    for t in (0..200)
        .map(|k| first + k * step)
        .take_while(|&t| t <= s.to)
    {
        let x = s.x(t as f64);
        let _ = write!(
            out,
            r#"<g class="tick"><line x1="{x}" x2="{x}" y1="{AXIS_Y}" y2="{}"/><text x="{x}" y="{}" text-anchor="middle">{}</text></g>"#,
            AXIS_Y + 4.0,
            AXIS_Y + 16.0,
            esc(&time_label(t))
        );
    }
    out
}

/// What the marks layer needs besides the marks.
pub struct MarkContext<'a> {
    /// The span and width.
    pub scale: Scale,
    /// Requests with an index below this have arrived (`None`: do not show arrival).
    pub revealed: Option<u64>,
    /// The selected request.
    pub selected: Option<u64>,
    /// The highlighted window, and whether a mark's key is that window's key.
    pub busiest: Option<&'a BusiestWindow>,
    /// Whether key index `k` is the busiest window's key.
    pub key_matches: &'a dyn Fn(u32) -> bool,
    /// The words.
    pub words: &'static Words,
}

/// The axis and one mark per request: a circle with ✓ or ✗, and for a delayed
/// request a line to where it leaves. `data-index`, `data-t` and `data-decision`
/// (`allow`, `deny`, `delay`, or `pending` before it arrives) are for tests and
/// clicks.
pub fn marks(marks: &[Mark], c: &MarkContext<'_>) -> String {
    let mut out = axis(c.scale);
    out.reserve(marks.len() * 220);
    let w = c.words;
    // Marks closer than a dot's width to the first of their pile stack upwards, so
    // a burst stays readable at any zoom: up to 6 are 7 px apart, a bigger pile
    // squeezes into the same height (lab C's 12 at once all show). A pile is drawn
    // last request first, so that the first, at the bottom, is whole on top.
    let xs: Vec<i64> = marks.iter().map(|m| c.scale.x(m.t as f64)).collect();
    let mut order: Vec<(usize, f64)> = Vec::with_capacity(marks.len());
    let mut start = 0;
    while start < xs.len() {
        let first = xs.get(start).copied().unwrap_or(0);
        let end = (start + 1..xs.len())
            .find(|&i| xs.get(i).is_none_or(|&x| x - first >= 11))
            .unwrap_or(xs.len());
        let k = end - start;
        let step = if k <= 6 { 7.0 } else { 35.0 / (k - 1) as f64 };
        for i in (start..end).rev() {
            order.push((i, (MARK_Y - (i - start) as f64 * step).round()));
        }
        start = end;
    }
    for (i, y) in order {
        let (Some(m), Some(&x)) = (marks.get(i), xs.get(i)) else {
            continue;
        };
        let arrived = c.revealed.is_none_or(|r| m.index < r);
        let decision = if arrived {
            m.decision.attr()
        } else {
            "pending"
        };
        let mut class = String::from("mark");
        if c.selected == Some(m.index) {
            class.push_str(" selected");
        }
        if let Some(b) = c.busiest {
            if m.decision != Decision::Deny && m.t > b.from && m.t <= b.to && (c.key_matches)(m.key)
            {
                class.push_str(" in-max");
            }
        }
        let what = match m.decision {
            Decision::Allow => w.allow.to_string(),
            Decision::Deny => w.deny.to_string(),
            Decision::Delay => format!("{} {}", w.delay_for, time_label(m.departs - m.t)),
        };
        // `data-outcome` and `data-what` let the page reveal a mark when its request
        // arrives by changing two attributes (see `Parts::reveal`), not by redrawing.
        let _ = write!(
            out,
            r#"<g class="{class}" data-index="{}" data-t="{}" data-decision="{decision}" data-outcome="{}" data-what="{}"><title>#{} · {} · {}</title>"#,
            m.index,
            m.t,
            m.decision.attr(),
            esc(&what),
            m.index + 1,
            esc(&time_label(m.t)),
            esc(if arrived { &what } else { w.pending })
        );
        if m.decision == Decision::Delay {
            let xd = c.scale.x(m.departs as f64);
            let _ = write!(
                out,
                r#"<line class="wait" x1="{x}" x2="{xd}" y1="{y}" y2="{DEPART_Y}"/><circle class="departure" cx="{xd}" cy="{DEPART_Y}" r="4"/>"#
            );
        }
        // The glyph is hidden by the stylesheet while the mark is pending.
        let glyph = match m.decision {
            Decision::Deny => "✗",
            _ => "✓",
        };
        let _ = write!(
            out,
            r#"<circle class="dot" cx="{x}" cy="{y}" r="5.5"/><text class="glyph" x="{x}" y="{}" text-anchor="middle">{glyph}</text></g>"#,
            y + 3.5
        );
    }
    out
}

/// The axis and, when a span holds too many requests to draw one by one, columns
/// counting them (allowed up, denied down).
pub fn columns(cols: &[Column], scale: Scale) -> String {
    let mut out = axis(scale);
    let peak = cols
        .iter()
        .map(|c| c.allowed + c.delayed + c.denied)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let k = 40.0 / peak;
    for c in cols {
        let x = scale.x(c.t as f64);
        let ok = (f64::from(c.allowed + c.delayed) * k).round() as i64;
        let no = (f64::from(c.denied) * k).round() as i64;
        if ok > 0 {
            let _ = write!(
                out,
                r#"<rect class="col allow" x="{x}" y="{}" width="2.5" height="{ok}"/>"#,
                MARK_Y as i64 + 8 - ok
            );
        }
        if no > 0 {
            let _ = write!(
                out,
                r#"<rect class="col deny" x="{x}" y="{}" width="2.5" height="{no}"/>"#,
                MARK_Y + 10.0
            );
        }
    }
    out
}

/// The state's shapes (windows, log entries, waiting requests, TAT and now + τ) and
/// the busiest window.
pub fn under(
    snapshot: Option<&Snapshot>,
    now: u64,
    s: Scale,
    busiest: Option<&BusiestWindow>,
    w: &Words,
) -> String {
    let mut out = String::new();
    if let Some(snap) = snapshot {
        for o in overlays(snap, now) {
            match o {
                Overlay::Band {
                    from,
                    to,
                    class,
                    label,
                } => {
                    let (x0, x1) = (s.x(from).max(-2), s.x(to).min(s.w() + 2));
                    if x1 > x0 {
                        let _ = write!(
                            out,
                            r#"<g class="band {class}"><rect x="{x0}" y="16" width="{}" height="{}"/><text x="{}" y="27">{}</text></g>"#,
                            x1 - x0,
                            AXIS_Y - 16.0,
                            x0 + 4,
                            esc(w.label(label))
                        );
                    }
                }
                Overlay::Line { at, class, label } => {
                    let x = s.x(at);
                    if (-50..s.w() + 50).contains(&x) {
                        let _ = write!(
                            out,
                            r#"<g class="mark-line {class}"><line x1="{x}" x2="{x}" y1="14" y2="{AXIS_Y}"/><text x="{x}" y="11" text-anchor="middle">{}</text></g>"#,
                            esc(w.label(label))
                        );
                    }
                }
                Overlay::Dot { at, count, class } => {
                    let x = s.x(at);
                    if (-10..s.w() + 10).contains(&x) {
                        let y = if class == "queued" { DEPART_Y } else { LOG_Y };
                        let r = if count > 1 { 5 } else { 4 };
                        let _ = write!(
                            out,
                            r#"<circle class="entry {class}" cx="{x}" cy="{y}" r="{r}"/>"#
                        );
                    }
                }
            }
        }
    }
    if let Some(b) = busiest {
        let (x0, x1) = (s.x(b.from as f64), s.x(b.to as f64));
        let label = format!(
            "{}: {} / {}",
            w.busiest,
            b.count,
            time_label(b.to.saturating_sub(b.from))
        );
        // Right-aligned inside the window's end, unless that would run off the
        // left edge (a narrow screen): then left-aligned from the start.
        let width = label.chars().count() as i64 * 13 / 2;
        let (tx, anchor) = if x1 - 4 - width >= 0 {
            (x1 - 4, "end")
        } else {
            (x0.max(0) + 2, "start")
        };
        let _ = write!(
            out,
            r#"<g class="busiest" data-count="{}"><rect x="{x0}" y="14" width="{}" height="{}"/><text x="{tx}" y="{}" text-anchor="{anchor}">{}</text></g>"#,
            b.count,
            (x1 - x0).max(2),
            AXIS_Y - 14.0,
            AXIS_Y - 4.0,
            esc(&label),
        );
    }
    out
}

/// The clock's line and the veil over what has not happened yet, at `x` (see
/// [`clock_x`]); written once per lane, then moved by attribute.
pub fn over((x, future): (i64, i64)) -> String {
    format!(
        r#"<rect class="future" x="{x}" y="14" width="{future}" height="{}"/><line class="now" x1="{x}" x2="{x}" y1="12" y2="{}"/>"#,
        AXIS_Y - 14.0,
        AXIS_Y + 4.0
    )
}

/// Where the clock is on a timeline, px, and the width of the future after it.
pub fn clock_x(now: u64, s: Scale) -> (i64, i64) {
    let x = s.x(now as f64).clamp(0, s.w());
    (x, (s.w() - x).max(0))
}

/// The side panel: the state as a bar, and the response a request now would get.
pub fn side(snapshot: Option<&Snapshot>, headers: Option<&Headers>, w: &Words) -> String {
    let mut out = String::new();
    if let Some(snap) = snapshot {
        let g = gauge(snap);
        let scale = 200.0 / g.max.max(1e-9);
        let fill_f = (g.level * scale).clamp(0.0, 200.0);
        let fill = fill_f.round() as i64;
        // Red when a request now would be refused (a count at its limit, a bucket
        // without a whole token, a full queue), whatever the bar measures: a full
        // token bucket is good news, a full window is not.
        let refusing = if headers.is_some_and(|h| h.status == 429) {
            " refusing"
        } else {
            ""
        };
        out.push_str(r#"<svg class="gauge" viewBox="0 0 220 38" width="220" height="38" aria-hidden="true"><rect class="track" x="10" y="4" width="200" height="18" rx="3"/>"#);
        let _ = write!(
            out,
            r#"<rect class="fill{refusing}" x="10" y="4" width="{fill}" height="18" rx="3"/>"#
        );
        if let Some(p) = g.part {
            let _ = write!(
                out,
                r#"<rect class="part" x="10" y="4" width="{}" height="18" rx="3"/>"#,
                (p * scale).clamp(0.0, fill_f).round() as i64
            );
        }
        for &(v, label) in g.lines.iter().filter(|(v, _)| *v <= g.max) {
            let x = (10.0 + v * scale).round() as i64;
            let _ = write!(
                out,
                r#"<line class="ref" x1="{x}" x2="{x}" y1="2" y2="24"/><text x="{x}" y="34" text-anchor="{}">{}</text>"#,
                // Labels near the ends stay inside the picture.
                if x > 180 {
                    "end"
                } else if x < 30 {
                    "start"
                } else {
                    "middle"
                },
                esc(w.label(label))
            );
        }
        let _ = write!(
            out,
            r#"</svg><p class="gauge-text" data-what="{}">{} {} / {}</p>"#,
            g.what,
            esc(w.label(g.what)),
            esc(&g.level_text),
            esc(&g.max_text)
        );
    }
    if let Some(h) = headers {
        let _ = write!(
            out,
            r#"<p class="response-title">{}</p><pre class="http" data-status="{}">HTTP/1.1 {}"#,
            esc(w.response),
            h.status,
            h.status_line()
        );
        if let Some(r) = h.retry_after {
            let _ = write!(out, "\nRetry-After: {r}");
        }
        let _ = write!(
            out,
            "\nRateLimit-Policy: {}\nRateLimit: {}</pre>",
            esc(&h.policy),
            esc(&h.ratelimit)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::EN;
    use crate::model::Sim;
    use ratelab_sim::share::parse;

    fn golden() -> Sim {
        let (state, _) = parse("limiters=fixed_window,leaky_queue");
        Sim::new(&state.setup).unwrap()
    }

    #[test]
    fn marks_carry_their_decision_once_arrived() {
        let sim = golden();
        let scale = Scale {
            from: 0,
            to: sim.end(),
            width: 800.0,
        };
        let m = sim.marks(0, 0, sim.end()).unwrap();
        let c = MarkContext {
            scale,
            revealed: Some(sim.revealed(9_800)),
            selected: Some(5),
            busiest: None,
            key_matches: &|_| true,
            words: &EN,
        };
        let svg = marks(&m, &c);
        assert_eq!(svg.matches("data-decision=\"allow\"").count(), 5);
        assert_eq!(svg.matches("data-decision=\"deny\"").count(), 1);
        assert_eq!(svg.matches("data-decision=\"pending\"").count(), 6);
        assert!(svg.contains(r#"class="mark selected" data-index="5""#));
        // The queue's 9.8 s wait is a line to 21 s.
        let q = sim.marks(1, 0, sim.end()).unwrap();
        let svg = marks(
            &q,
            &MarkContext {
                revealed: None,
                ..c
            },
        );
        assert!(svg.contains("delayed 9.8 s"), "{svg}");
        assert_eq!(svg.matches(r#"class="wait""#).count(), 9);
    }

    #[test]
    fn the_busiest_window_is_drawn_with_its_count() {
        let sim = golden();
        let scale = Scale {
            from: 0,
            to: sim.end(),
            width: 800.0,
        };
        let b = sim.busiest(0, 19_500).unwrap();
        let snap = sim.snapshot(0, "", 19_500);
        let svg = under(snap.as_ref(), 19_500, scale, Some(&b), &EN);
        assert!(svg.contains(r#"data-count="9""#));
        assert!(svg.contains("busiest window: 9 / 10 s"));
        let m = sim.marks(0, 0, sim.end()).unwrap();
        let c = MarkContext {
            scale,
            revealed: None,
            selected: None,
            busiest: Some(&b),
            key_matches: &|k| k == 0,
            words: &EN,
        };
        assert_eq!(marks(&m, &c).matches("in-max").count(), 9);
    }

    #[test]
    fn the_side_panel_says_429_with_its_headers() {
        let sim = golden();
        let html = side(
            sim.snapshot(0, "", 19_500).as_ref(),
            sim.headers(0, "", 19_500).as_ref(),
            &EN,
        );
        assert!(html.contains("HTTP/1.1 429 Too Many Requests\nRetry-After: 1"));
        assert!(html.contains("RateLimit-Policy: &quot;default&quot;;q=5;w=10"));
        assert!(html.contains("count 5 / 5"));
        assert!(html.contains(r#"class="fill refusing""#));
    }

    #[test]
    fn a_full_bucket_is_not_drawn_as_refusing() {
        let (state, _) = parse("limiters=token_bucket,fixed_window,sliding_log");
        let sim = Sim::new(&state.setup).unwrap();
        let full = side(
            sim.snapshot(0, "", 0).as_ref(),
            sim.headers(0, "", 0).as_ref(),
            &EN,
        );
        assert!(
            full.contains("tokens 5 / 5") && !full.contains("refusing"),
            "{full}"
        );
        // At 10.4 s the golden stream has left it 0.7 tokens: a request is refused.
        let low = side(
            sim.snapshot(0, "", 10_400).as_ref(),
            sim.headers(0, "", 10_400).as_ref(),
            &EN,
        );
        assert!(low.contains("refusing"), "{low}");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            esc(r#"<a href="x">&'"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}

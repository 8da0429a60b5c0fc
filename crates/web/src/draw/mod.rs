//! A lane's pictures as SVG, in plain Rust (tested natively).
//!
//! Why markup and not a reactive node per shape: a lane has up to
//! [`crate::model::MAX_MARKS`] marks and its state changes every animation frame;
//! building a few kilobytes of markup and setting it once is cheaper than thousands
//! of reactive nodes, and keeps the wasm small. The markup is an [`Svg`], which only
//! [`markup::Writer`] makes, escaping every value as it is written. Only values the
//! engine computed and the page's own words go in.
//!
//! A lane's `<svg>` stacks four layers: *under* ([`under`]: the state's windows and
//! moments, the busiest window), *axis* ([`axis`]), *marks* ([`marks`] or
//! [`columns`]: one mark per request in the visible span) and *over* (the clock line
//! and the veil over the future, which the lane component moves by attribute).

pub mod chooser;
pub mod layer;
pub mod lesson;
pub mod level;
pub mod markup;
pub mod quiz;
pub mod service;

use ratelab_core::Snapshot;
use ratelab_sim::BusiestWindow;

use crate::model::{tick_step, time_label, Column, Decision, Gauge, Mark, Overlay};
use crate::texts::common::COMMON;
use crate::texts::lanes::LANES;
use crate::texts::Lang;
use markup::Writer;
pub use markup::{Html, Svg};

/// Height of a lane's timeline, px.
pub const HEIGHT: i64 = 132;
const MARK_Y: i64 = 62;
const DEPART_Y: i64 = 90;
const LOG_Y: i64 = 32;
const AXIS_Y: i64 = 108;
/// Above this many marks, arrival is shown by the veil alone (marks do not flip
/// one by one as the clock passes them).
pub const REVEAL_MARKS: usize = 400;

/// Marks are drawn one by one while there are at most one per this many px of the
/// timeline on average; denser, they would share pixels (a mark is 11 px wide), so
/// the span is drawn at the resolution it is visible: [`columns`], one per 3 px.
pub const PX_PER_MARK: f64 = 2.0;

/// Whether `count` requests in a span `width` px wide are drawn one by one (else
/// as [`columns`]; [`crate::model::MAX_MARKS`] bounds the marks whatever the width).
pub fn one_by_one(count: u64, width: f64) -> bool {
    count as f64 * PX_PER_MARK <= width
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
    /// formatting out of the markup).
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

/// The time axis: a baseline and ticks with times.
pub fn axis(s: Scale) -> Svg {
    let mut w = Writer::with_capacity(2_000);
    w.el("line")
        .attr("class", "axis")
        .attr("x1", 0)
        .attr("x2", s.w())
        .attr("y1", AXIS_Y)
        .attr("y2", AXIS_Y)
        .end();
    let step = tick_step(s.to - s.from, (s.width / 70.0).max(1.0) as u64);
    let first = s.from.div_ceil(step) * step;
    for t in (0..200)
        .map(|k| first + k * step)
        .take_while(|&t| t <= s.to)
    {
        let x = s.x(t as f64);
        // A label at either end of the axis is set inside the picture.
        let anchor = if x < 12 {
            "start"
        } else if x > s.w() - 12 {
            "end"
        } else {
            "middle"
        };
        w.el("g").attr("class", "tick").children(|w| {
            w.el("line")
                .attr("x1", x)
                .attr("x2", x)
                .attr("y1", AXIS_Y)
                .attr("y2", AXIS_Y + 4)
                .end();
            w.el("text")
                .attr("x", x)
                .attr("y", AXIS_Y + 16)
                .attr("text-anchor", anchor)
                .text(&time_label(t));
        });
    }
    w.finish()
}

/// What the marks layer needs besides the marks.
pub struct MarkContext<'a> {
    /// The span and width.
    pub scale: Scale,
    /// Requests with an index below this have arrived.
    pub revealed: u64,
    /// The selected request.
    pub selected: Option<u64>,
    /// The highlighted window.
    pub busiest: Option<&'a BusiestWindow>,
    /// Whether key index `k` is the busiest window's key.
    pub key_matches: &'a dyn Fn(u32) -> bool,
    /// The page's language.
    pub lang: Lang,
}

/// A lane's marks layer as drawn, and what it shows, so that the page can flip a
/// mark when its request arrives or is selected without drawing again.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawn {
    /// The markup.
    pub svg: Svg,
    /// The marks, in the order of the layer's children.
    pub marks: Vec<Mark>,
    /// Requests below this index are drawn as arrived; `None`: every mark is drawn
    /// with its outcome (columns, or more than [`REVEAL_MARKS`] marks).
    pub revealed: Option<u64>,
    /// The request drawn as selected.
    pub selected: Option<u64>,
    /// Columns instead of marks.
    pub dense: bool,
}

impl Drawn {
    /// The positions among the layer's children of the marks of requests
    /// `[from, to)`.
    pub fn positions(&self, from: u64, to: u64) -> impl Iterator<Item = (usize, &Mark)> {
        self.marks
            .iter()
            .enumerate()
            .filter(move |(_, m)| (from..to).contains(&m.index))
    }
}

/// A mark's tooltip: `#3 · 2.5 s · allowed` (or `not yet` before it arrives).
pub fn mark_title(m: &Mark, arrived: bool, lang: Lang) -> String {
    let c = COMMON.get(lang);
    let what = if !arrived {
        c.pending.to_string()
    } else if m.decision == Decision::Delay {
        format!("{} {}", c.delay_for, time_label(m.departs - m.t))
    } else {
        c.decision(m.decision).to_string()
    };
    format!("#{} · {} · {what}", m.index + 1, time_label(m.t))
}

/// The value of a mark's `data-decision` (what the stylesheet colours it by).
pub fn decision_attr(m: &Mark, arrived: bool) -> &'static str {
    if arrived {
        m.decision.attr()
    } else {
        "pending"
    }
}

/// One mark per request: a circle with ✓ or ✗, and for a delayed request a line to
/// where it leaves. `data-index`, `data-t` and `data-decision` (`allow`, `deny`,
/// `delay`, or `pending` before it arrives) are for the stylesheet and tests.
pub fn marks(marks: Vec<Mark>, c: &MarkContext<'_>) -> Drawn {
    let mut w = Writer::with_capacity(marks.len() * 240);
    // Marks closer than a dot's width to the first of their pile stack upwards, so
    // a burst stays readable at any zoom: up to 6 are 7 px apart, a bigger pile
    // squeezes into the same height (lab C's 12 at once all show). A pile is drawn
    // last request first, so that the first, at the bottom, is whole on top.
    let xs: Vec<i64> = marks.iter().map(|m| c.scale.x(m.t as f64)).collect();
    let mut order: Vec<(usize, i64)> = Vec::with_capacity(marks.len());
    // A pile of three or more is counted under it, in the mark of its last request
    // (drawn first, under the others): "12", and once it has arrived "= 5✓ + 7✗"
    // (`(last, first, words)`).
    let mut piles: Vec<(usize, usize, Option<PileWords>)> = Vec::new();
    // The counts set so far, as [left, right] in px: a count that would touch one
    // is said shorter ("12"), or not at all.
    let mut row: Vec<(i64, i64)> = Vec::new();
    let mut start = 0;
    while start < xs.len() {
        let first = xs.get(start).copied().unwrap_or(0);
        let end = (start + 1..xs.len())
            .find(|&i| xs.get(i).is_none_or(|&x| x - first >= 11))
            .unwrap_or(xs.len());
        let k = end - start;
        let step = if k <= 6 { 7.0 } else { 35.0 / (k - 1) as f64 };
        if let (true, Some(pile)) = (k >= 3, marks.get(start..end)) {
            piles.push((
                end - 1,
                start,
                pile_words(pile, first, c.scale.w(), &mut row),
            ));
        }
        for i in (start..end).rev() {
            order.push((
                i,
                (MARK_Y as f64 - (i - start) as f64 * step).round() as i64,
            ));
        }
        start = end;
    }
    let revealed = (marks.len() <= REVEAL_MARKS).then_some(c.revealed);
    let mut drawn_order = Vec::with_capacity(marks.len());
    for (i, y) in order {
        let (Some(m), Some(&x)) = (marks.get(i), xs.get(i)) else {
            continue;
        };
        drawn_order.push(*m);
        let arrived = revealed.is_none_or(|r| m.index < r);
        let in_max = c.busiest.is_some_and(|b| {
            m.decision != Decision::Deny && m.t > b.from && m.t <= b.to && (c.key_matches)(m.key)
        });
        let class = match (c.selected == Some(m.index), in_max) {
            (false, false) => "mark",
            (true, false) => "mark selected",
            (false, true) => "mark in-max",
            (true, true) => "mark selected in-max",
        };
        w.el("g")
            .attr("class", class)
            .attr("data-index", m.index)
            .attr("data-t", m.t)
            .attr("data-decision", decision_attr(m, arrived))
            .children(|w| {
                w.el("title").text(&mark_title(m, arrived, c.lang));
                if m.decision == Decision::Delay {
                    let xd = c.scale.x(m.departs as f64);
                    // A departure after the span: the line stops at the picture's
                    // edge (its margin), where it would cross it, and no circle
                    // says it left there (it ran over the panel beside the lane).
                    let edge = c.scale.w() + 8;
                    let (x2, y2) = if xd > edge && xd > x {
                        (edge, y + (DEPART_Y - y) * (edge - x) / (xd - x))
                    } else {
                        (xd, DEPART_Y)
                    };
                    w.el("line")
                        .attr("class", "wait")
                        .attr("x1", x)
                        .attr("x2", x2)
                        .attr("y1", y)
                        .attr("y2", y2)
                        .end();
                    if x2 == xd {
                        w.el("circle")
                            .attr("class", "departure")
                            .attr("cx", xd)
                            .attr("cy", DEPART_Y)
                            .attr("r", 4)
                            .end();
                    }
                }
                w.el("circle")
                    .attr("class", "dot")
                    .attr("cx", x)
                    .attr("cy", y)
                    .attr("r", "5.5")
                    .end();
                // Hidden by the stylesheet while the mark is pending.
                let glyph = if m.decision == Decision::Deny {
                    "✗"
                } else {
                    "✓"
                };
                w.el("text")
                    .attr("class", "glyph")
                    .attr("x", x)
                    .attr("y", markup::Halves(2 * y + 7))
                    .attr("text-anchor", "middle")
                    .text(glyph);
                if let Some((_, _, Some(words))) = piles.iter().find(|p| p.0 == i) {
                    pile_count(w, words);
                }
            });
    }
    Drawn {
        svg: w.finish(),
        marks: drawn_order,
        revealed,
        selected: c.selected,
        dense: false,
    }
}

/// A pile's count as it is set: where, and what it says.
struct PileWords {
    x: i64,
    anchor: &'static str,
    count: usize,
    /// `" = 5✓ + 7✗"`, where it fits.
    outcome: Option<String>,
}

/// How a pile of requests whose first is at `x` is counted on a timeline `width`
/// px wide, beside the counts already set (`row`): "12 = 5✓ + 7✗", or "12" where
/// that does not fit, or nothing where neither does.
fn pile_words(pile: &[Mark], x: i64, width: i64, row: &mut Vec<(i64, i64)>) -> Option<PileWords> {
    let denied = pile.iter().filter(|m| m.decision == Decision::Deny).count();
    let count = pile.len();
    let outcome = format!(" = {}✓ + {denied}✗", count - denied);
    let short = count.to_string();
    let long = short.chars().count() + outcome.chars().count();
    for (chars, outcome) in [(long, Some(outcome)), (short.len(), None)] {
        // About 6.5 px a character at 10 px, bold.
        let w = (chars as i64 * 13 + 1) / 2;
        let (left, anchor) = if x - w / 2 < 0 {
            (x - 6, "start")
        } else if x + w / 2 > width {
            (x + 6 - w, "end")
        } else {
            (x - w / 2, "middle")
        };
        if !row.iter().any(|&(l, r)| left < r + 4 && l < left + w + 4) {
            row.push((left, left + w));
            let x = match anchor {
                "start" => x - 6,
                "end" => x + 6,
                _ => x,
            };
            return Some(PileWords {
                x,
                anchor,
                count,
                outcome,
            });
        }
    }
    None
}

/// A pile's count under it; its outcome is shown once the pile's last request
/// has arrived (the stylesheet hides `.out` while it is pending).
fn pile_count(w: &mut Writer, words: &PileWords) {
    w.el("text")
        .attr("class", "pile")
        .attr("x", words.x)
        .attr("y", MARK_Y + 18)
        .attr("text-anchor", words.anchor)
        .children(|w| {
            w.text(&words.count.to_string());
            if let Some(out) = &words.outcome {
                w.el("tspan").attr("class", "out").text(out);
            }
        });
}

/// When a span holds too many requests to draw one by one: columns counting them
/// (allowed up, denied down).
pub fn columns(cols: &[Column], scale: Scale) -> Drawn {
    let mut w = Writer::with_capacity(cols.len() * 120);
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
            w.el("rect")
                .attr("class", "col allow")
                .attr("x", x)
                .attr("y", MARK_Y + 8 - ok)
                .attr("width", "2.5")
                .attr("height", ok)
                .end();
        }
        if no > 0 {
            w.el("rect")
                .attr("class", "col deny")
                .attr("x", x)
                .attr("y", MARK_Y + 10)
                .attr("width", "2.5")
                .attr("height", no)
                .end();
        }
    }
    Drawn {
        svg: w.finish(),
        dense: true,
        ..Drawn::default()
    }
}

/// The state's shapes (windows, log entries, waiting requests, TAT and now + τ) and
/// the busiest window.
pub fn under(
    snapshot: Option<&Snapshot>,
    now: u64,
    s: Scale,
    busiest: Option<&BusiestWindow>,
    lang: Lang,
) -> Svg {
    let (t, c) = (LANES.get(lang), COMMON.get(lang));
    let mut w = Writer::with_capacity(1_000);
    // The lines' labels placed so far on their row, as [left, right] in px: a label
    // that would overlap one moves beside it (GCRA's "now + τ" and "TAT").
    let mut row: Vec<(i64, i64)> = Vec::new();
    for o in snapshot
        .map(|snap| crate::model::overlays(snap, now))
        .unwrap_or_default()
    {
        match o {
            Overlay::Band {
                from,
                to,
                class,
                label,
            } => {
                let (x0, x1) = (s.x(from).max(-2), s.x(to).min(s.w() + 2));
                if x1 > x0 {
                    // Named inside the visible part of the band, if the name fits
                    // there (not cut at the picture's edge: "rrent window").
                    let words = t.label(label, c);
                    let left = x0.max(0) + 4;
                    let fits = left + text_width(words) <= x1.min(s.w());
                    w.el("g").attr("class", class).children(|w| {
                        w.el("rect")
                            .attr("x", x0)
                            .attr("y", 16)
                            .attr("width", x1 - x0)
                            .attr("height", AXIS_Y - 16)
                            .end();
                        if fits {
                            w.el("text").attr("x", left).attr("y", 27).text(words);
                        }
                    });
                }
            }
            Overlay::Line { at, class, label } => {
                let x = s.x(at);
                // The picture overflows its box by design (marks at the edges are
                // whole), so a label centred on a line at the edge, or on one past
                // it (a window's reset after the span's end), would be drawn over
                // the side panel: labels stay inside the axis, a line past an end
                // is not drawn and its label points off the edge.
                let words = t.label(label, c);
                let (tx, anchor, text) = if x > s.w() {
                    (s.w(), "end", format!("{words} →"))
                } else if x < 0 {
                    (0, "start", format!("← {words}"))
                } else {
                    let half = words.chars().count() as i64 * 3;
                    let anchor = if x + half > s.w() {
                        "end"
                    } else if x - half < 0 {
                        "start"
                    } else {
                        "middle"
                    };
                    (x, anchor, words.to_string())
                };
                let (tx, anchor) = beside(&mut row, tx, anchor, text_width(&text), s.w());
                if (-50..s.w() + 50).contains(&x) {
                    w.el("g").attr("class", class).children(|w| {
                        if (0..=s.w()).contains(&x) {
                            w.el("line")
                                .attr("x1", x)
                                .attr("x2", x)
                                .attr("y1", 14)
                                .attr("y2", AXIS_Y)
                                .end();
                        }
                        w.el("text")
                            .attr("x", tx)
                            .attr("y", 11)
                            .attr("text-anchor", anchor)
                            .text(&text);
                    });
                }
            }
            Overlay::Dot { at, count, class } => {
                let x = s.x(at);
                if (-10..s.w() + 10).contains(&x) {
                    let y = if class == "entry queued" {
                        DEPART_Y
                    } else {
                        LOG_Y
                    };
                    w.el("circle")
                        .attr("class", class)
                        .attr("cx", x)
                        .attr("cy", y)
                        .attr("r", if count > 1 { 5 } else { 4 })
                        .end();
                }
            }
        }
    }
    if let Some(b) = busiest {
        let (x0, x1) = (s.x(b.from as f64), s.x(b.to as f64));
        // "5 in 9.5 s", not "5 / 9.5 s" (which reads as a rate).
        let label = format!(
            "{}: {} {} {}",
            t.busiest,
            b.count,
            t.busiest_in,
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
        w.el("g")
            .attr("class", "busiest")
            .attr("data-count", b.count)
            .children(|w| {
                w.el("rect")
                    .attr("x", x0)
                    .attr("y", 14)
                    .attr("width", (x1 - x0).max(2))
                    .attr("height", AXIS_Y - 14)
                    .end();
                w.el("text")
                    .attr("x", tx)
                    .attr("y", AXIS_Y - 4)
                    .attr("text-anchor", anchor)
                    .text(&label);
            });
    }
    w.finish()
}

/// About how wide `words` are at the timeline's 10 px, in px.
fn text_width(words: &str) -> i64 {
    words.chars().count() as i64 * 6
}

/// Where a label `width` px wide anchored at `x` goes on a row of labels already
/// placed (`row`, each `[left, right]`) in a picture `w` px wide: where it is, or
/// just right of a label it would overlap, or just left of it when that runs off
/// the right edge. Records where it went.
fn beside(
    row: &mut Vec<(i64, i64)>,
    x: i64,
    anchor: &'static str,
    width: i64,
    w: i64,
) -> (i64, &'static str) {
    let left = match anchor {
        "end" => x - width,
        "start" => x,
        _ => x - width / 2,
    };
    let mut at = (left, left + width);
    let inside = left >= 0 && left + width <= w;
    if inside && !row.iter().any(|(l, r)| at.0 < *r + 4 && *l < at.1 + 4) {
        row.push(at);
        return (x, anchor);
    }
    for _ in 0..4 {
        let Some(&(l, r)) = row.iter().find(|(l, r)| at.0 < *r + 4 && *l < at.1 + 4) else {
            break;
        };
        at = if r + 4 + width <= w {
            (r + 4, r + 4 + width)
        } else {
            (l - 4 - width, l - 4)
        };
    }
    let left = at.0.clamp(0, (w - width).max(0));
    row.push((left, left + width));
    (left, "start")
}

/// Where the clock is on a timeline, px, and the width of the future after it.
pub fn clock_x(now: u64, s: Scale) -> (i64, i64) {
    let x = s.x(now as f64).clamp(0, s.w());
    (x, (s.w() - x).max(0))
}

/// The inside of a lane's gauge (`<svg class="gauge" viewBox="0 0 220 38">`): the
/// level as a bar and the reference lines. `refusing`: a request now would be
/// refused (the bar turns red, whatever it measures: a full token bucket is good
/// news, a full window is not).
pub fn gauge(g: &Gauge, refusing: bool, lang: Lang) -> Svg {
    let (t, c) = (LANES.get(lang), COMMON.get(lang));
    let mut w = Writer::with_capacity(600);
    let scale = 200.0 / g.max.max(1e-9);
    let fill_f = (g.level * scale).clamp(0.0, 200.0);
    w.el("rect")
        .attr("class", "track")
        .attr("x", 10)
        .attr("y", 4)
        .attr("width", 200)
        .attr("height", 18)
        .attr("rx", 3)
        .end();
    w.el("rect")
        .attr("class", if refusing { "fill refusing" } else { "fill" })
        .attr("x", 10)
        .attr("y", 4)
        .attr("width", fill_f.round() as i64)
        .attr("height", 18)
        .attr("rx", 3)
        .end();
    if let Some(p) = g.part {
        w.el("rect")
            .attr("class", "part")
            .attr("x", 10)
            .attr("y", 4)
            // Not `clamp`: its bound is computed, and clamp's check of it (with
            // its float message) would panic on a NaN and keep float formatting
            // in the first module.
            .attr("width", (p * scale).max(0.0).min(fill_f).round() as i64)
            .attr("height", 18)
            .attr("rx", 3)
            .end();
    }
    let lines = g.lines.iter().filter(|(v, _)| *v <= g.max);
    // Names of lines close together are set beside each other (nginx's "burst"
    // and "delay after").
    let mut row = Vec::new();
    for (x, label) in lines.map(|&(v, l)| ((10.0 + v * scale).round() as i64, l)) {
        w.el("line")
            .attr("class", "ref")
            .attr("x1", x)
            .attr("x2", x)
            .attr("y1", 2)
            .attr("y2", 24)
            .end();
        // Labels near the ends stay inside the picture.
        let anchor = if x > 180 {
            "end"
        } else if x < 30 {
            "start"
        } else {
            "middle"
        };
        let words = t.label(label, c);
        let (x, anchor) = beside(&mut row, x, anchor, text_width(words), 220);
        w.el("text")
            .attr("x", x)
            .attr("y", 34)
            .attr("text-anchor", anchor)
            .text(words);
    }
    w.finish()
}

#[cfg(test)]
mod tests;

//! The strip under a lane's timeline: its state over time, as a line and the area
//! under it, with the gauge's reference lines (N, burst, delay) across.

use std::fmt::Write as _;

use super::markup::Writer;
use super::{Scale, Svg};
use crate::series::Series;
use crate::texts::common::COMMON;
use crate::texts::lanes::LANES;
use crate::texts::Lang;

/// Height of the strip, px.
pub const LEVEL_HEIGHT: i64 = 46;
const TOP: i64 = 6;
const BOTTOM: i64 = 40;

/// y of level `v` on a scale of `max` (a little headroom above the maximum, for a
/// sliding window counter's estimate that passes it).
fn y(v: f64, max: f64) -> i64 {
    let top = max * 1.1;
    let f = if top > 0.0 {
        (v / top).clamp(0.0, 1.0)
    } else {
        0.0
    };
    BOTTOM - (f * (BOTTOM - TOP) as f64).round() as i64
}

/// The strip's inside for `series` over scale `s`.
pub fn level(series: &Series, s: Scale, lang: Lang) -> Svg {
    let mut w = Writer::with_capacity(64 + series.points.len() * 12);
    w.el("rect")
        .attr("class", "level-track")
        .attr("x", 0)
        .attr("y", TOP)
        .attr("width", s.w())
        .attr("height", BOTTOM - TOP)
        .end();
    for &(v, _) in &series.lines {
        let yv = y(v, series.max);
        w.el("line")
            .attr("class", "level-ref")
            .attr("x1", 0)
            .attr("x2", s.w())
            .attr("y1", yv)
            .attr("y2", yv)
            .end();
    }
    let mut line = String::with_capacity(series.points.len() * 10);
    for &(at, v) in &series.points {
        if !line.is_empty() {
            line.push(' ');
        }
        let _ = write!(line, "{},{}", s.x(at as f64), y(v, series.max));
    }
    if let (Some(&(t0, _)), Some(&(t1, _))) = (series.points.first(), series.points.last()) {
        let area = format!(
            "{},{BOTTOM} {line} {},{BOTTOM}",
            s.x(t0 as f64),
            s.x(t1 as f64)
        );
        w.el("polygon")
            .attr("class", "level-area")
            .attr("points", area.as_str())
            .end();
        w.el("polyline")
            .attr("class", "level-line")
            .attr("points", line.as_str())
            .end();
    }
    level_labels(&mut w, series, s, lang);
    w.finish()
}

/// The strip's words: what it measures, and each reference line's name at its
/// right end. Names of lines closer than a line of text are set side by side,
/// right to left (nginx's "delay after" beside its "burst").
fn level_labels(w: &mut Writer, series: &Series, s: Scale, lang: Lang) {
    let (t, c) = (LANES.get(lang), COMMON.get(lang));
    // Where each name went: its line's y and its left end.
    let mut placed: Vec<(i64, i64)> = Vec::new();
    for &(v, label) in &series.lines {
        let (yv, word) = (y(v, series.max), t.label(label, c));
        let right = placed
            .iter()
            .filter(|(py, _)| (yv - py).abs() < 10)
            .map(|&(_, left)| left - 8)
            .min()
            .unwrap_or(s.w() - 2);
        w.el("text")
            .attr("x", right)
            .attr("y", yv - 2)
            .attr("text-anchor", "end")
            .text(word);
        // About 5.5 px a character at the strip's 9 px.
        placed.push((yv, right - (word.chars().count() as i64 * 11 + 1) / 2));
    }
    w.el("text")
        .attr("class", "level-what")
        .attr("x", 2)
        .attr("y", BOTTOM + 5)
        .text(t.label(series.what, c));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Label;

    fn scale() -> Scale {
        Scale {
            from: 0,
            to: 1_000,
            width: 500.0,
        }
    }

    #[test]
    fn the_line_goes_through_every_point_and_the_references_are_drawn() {
        let s = Series {
            what: Label::Tokens,
            max: 10.0,
            lines: vec![(10.0, Label::Capacity)],
            points: vec![(0, 10.0), (499, 10.0), (500, 0.0), (1_000, 5.0)],
        };
        let svg = level(&s, scale(), Lang::En);
        let m = svg.as_str();
        // Full at 10 (of 11 with headroom): y = 40 - round(10/11 * 34) = 9; empty: 40.
        assert!(
            m.contains(r#"class="level-line" points="0,9 250,9 250,40 500,25""#),
            "{m}"
        );
        assert!(m.contains(r#"class="level-area" points="0,40 0,9 250,9 250,40 500,25 500,40""#));
        assert_eq!(m.matches(r#"class="level-ref""#).count(), 1);
        assert!(m.contains(">tokens</text>"));
    }

    #[test]
    fn names_of_close_lines_are_set_side_by_side() {
        // nginx: its burst and its delay a unit apart.
        let s = Series {
            what: Label::Excess,
            max: 10.0,
            lines: vec![(10.0, Label::Burst), (9.0, Label::Delay)],
            points: vec![],
        };
        let m = level(&s, scale(), Lang::En);
        let m = m.as_str();
        assert!(
            m.contains(r#"<text x="498" y="7" text-anchor="end">burst</text>"#),
            "{m}"
        );
        // "burst" is about 28 px wide: "delay after" ends 8 px left of it.
        assert!(
            m.contains(r#"<text x="462" y="10" text-anchor="end">delay after</text>"#),
            "{m}"
        );
    }

    #[test]
    fn an_empty_series_draws_no_line() {
        let s = Series {
            what: Label::Count,
            max: 0.0,
            lines: vec![],
            points: vec![],
        };
        let m = level(&s, scale(), Lang::En);
        assert!(!m.as_str().contains("polyline"));
        assert!(level(&s, scale(), Lang::Vi)
            .as_str()
            .contains(">bộ đếm</text>"));
    }
}

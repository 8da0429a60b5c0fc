//! The drawings checked natively: marks, piles, labels, the axis, gauges.

use super::*;
use crate::model::{Label, Sim};
use ratelab_sim::share::parse;

fn golden() -> Sim {
    let state = parse("limiters=fixed_window,leaky_queue").0.setup;
    Sim::new(&state).unwrap()
}

fn context(sim: &Sim, revealed: u64, selected: Option<u64>) -> MarkContext<'static> {
    MarkContext {
        scale: Scale {
            from: 0,
            to: sim.end(),
            width: 800.0,
        },
        revealed,
        selected,
        busiest: None,
        key_matches: &|_| true,
        lang: Lang::En,
    }
}

#[test]
fn marks_carry_their_decision_once_arrived() {
    let sim = golden();
    let m = sim.marks(0, 0, sim.end()).unwrap();
    let d = marks(m, &context(&sim, sim.revealed(9_800), Some(5)));
    let svg = d.svg.as_str();
    assert_eq!(svg.matches("data-decision=\"allow\"").count(), 5);
    assert_eq!(svg.matches("data-decision=\"deny\"").count(), 1);
    assert_eq!(svg.matches("data-decision=\"pending\"").count(), 6);
    assert!(svg.contains(r#"class="mark selected" data-index="5""#));
    assert_eq!(
        (d.revealed, d.selected, d.marks.len()),
        (Some(6), Some(5), 12)
    );
    // The children are in drawing order, which `marks` records.
    let first = svg.find("data-index=\"").map(|i| &svg[i + 12..i + 13]);
    assert_eq!(first, Some(d.marks[0].index.to_string().as_str()));
    // The queue's 9.8 s wait is a line to 21 s.
    let q = sim.marks(1, 0, sim.end()).unwrap();
    let svg = marks(q, &context(&sim, 12, None)).svg;
    assert!(svg.as_str().contains("delayed 9.8 s"), "{svg:?}");
    assert_eq!(svg.as_str().matches(r#"class="wait""#).count(), 9);
    assert_eq!(svg.as_str().matches(r#"class="departure""#).count(), 9);
    // Zoomed to the first 12 s, the waits that end after the span stop at its
    // edge, without a departure: nothing is drawn past the picture's margin.
    let mut c = context(&sim, 12, None);
    c.scale.to = 12_000;
    let q = sim.marks(1, 0, 12_000).unwrap();
    let svg = marks(q, &c).svg;
    let departures = svg.as_str().matches(r#"class="departure""#).count();
    assert!(departures < 9, "{departures}");
    for x2 in svg.as_str().split("x2=\"").skip(1) {
        let x: i64 = x2.split('"').next().unwrap().parse().unwrap();
        assert!(x <= c.scale.w() + 8, "{x}");
    }
}

#[test]
fn a_pile_of_simultaneous_requests_is_counted() {
    // Lab C sends 12 at 0 s; ten-at-once sends 10 together.
    for (q, n) in [("scenario=lab-c", 12), ("scenario=ten-at-once", 10)] {
        let sim = Sim::new(&parse(q).0.setup).unwrap();
        for j in 0..sim.lanes().len() {
            let m = sim.marks(j, 0, sim.end()).unwrap();
            let t0 = m[0].t;
            let denied = m
                .iter()
                .filter(|m| m.t == t0 && m.decision == Decision::Deny)
                .count();
            let svg = marks(m, &context(&sim, sim.len(), None)).svg;
            let want = format!(
                ">{n}<tspan class=\"out\"> = {}✓ + {denied}✗</tspan>",
                n - denied
            );
            assert!(svg.as_str().contains(&want), "{q} lane {j}: {want}");
            assert_eq!(
                svg.as_str().matches("class=\"pile\"").count(),
                1,
                "{q} lane {j}"
            );
        }
    }
    // Two apart are not a pile.
    let sim = golden();
    let svg = marks(
        sim.marks(0, 0, sim.end()).unwrap(),
        &context(&sim, 12, None),
    )
    .svg;
    assert!(!svg.as_str().contains("pile"));
}

#[test]
fn counts_of_piles_close_together_are_said_shorter_or_not_at_all() {
    // Lab C's 12 at 0 s, counted at three places along a 600 px timeline.
    let sim = Sim::new(&parse("scenario=lab-c").0.setup).unwrap();
    let m = sim.marks(0, 0, sim.end()).unwrap();
    let pile = &m[..12];
    let mut row = Vec::new();
    // "12 = 5✓ + 7✗" is about 80 px wide, centred at 100.
    let denied = pile.iter().filter(|m| m.decision == Decision::Deny).count();
    let first = pile_words(pile, 100, 600, &mut row).unwrap();
    assert_eq!((first.x, first.anchor, first.count), (100, "middle", 12));
    assert_eq!(
        first.outcome,
        Some(format!(" = {}✓ + {denied}✗", 12 - denied))
    );
    // 10 px on, neither the whole nor "12" fits.
    assert!(pile_words(pile, 110, 600, &mut row).is_none());
    // 60 px on, "12" alone.
    let third = pile_words(pile, 160, 600, &mut row).unwrap();
    assert!(third.outcome.is_none());
    // At the right end, set inside the picture.
    let last = pile_words(pile, 598, 600, &mut row).unwrap();
    assert_eq!((last.x, last.anchor), (604, "end"));
}

#[test]
fn a_marks_title_says_what_became_of_it() {
    let sim = golden();
    let m = sim.marks(1, 0, sim.end()).unwrap()[9];
    assert_eq!(
        mark_title(&m, true, Lang::En),
        "#10 · 11.2 s · delayed 9.8 s"
    );
    assert_eq!(mark_title(&m, false, Lang::En), "#10 · 11.2 s · not yet");
    assert_eq!(mark_title(&m, false, Lang::Vi), "#10 · 11.2 s · chưa đến");
}

#[test]
fn the_busiest_window_is_drawn_with_its_count() {
    let sim = golden();
    let mut c = context(&sim, 12, None);
    let b = sim.busiest(0, 19_500).unwrap();
    let snap = sim.snapshot(0, "", 19_500);
    let svg = under(snap.as_ref(), 19_500, c.scale, Some(&b), Lang::En);
    assert!(svg.as_str().contains(r#"data-count="9""#));
    assert!(svg.as_str().contains("busiest window: 9 in 10 s"));
    let m = sim.marks(0, 0, sim.end()).unwrap();
    let matches = |k: u32| k == 0;
    c.busiest = Some(&b);
    c.key_matches = &matches;
    assert_eq!(marks(m, &c).svg.as_str().matches("in-max").count(), 9);
}

#[test]
fn dense_spans_are_drawn_as_columns_at_any_width() {
    let count = |q: &str| {
        let sim = Sim::new(&parse(q).0.setup).unwrap();
        let (from, to) = sim.span(0);
        let r = sim.timeline.visible(from, to);
        r.end - r.start
    };
    // Lab E's 1 300 requests and lab B's 600 share pixels on a desktop
    // timeline; the golden dozen is drawn one by one even on a phone.
    for (q, width) in [("scenario=lab-e", 926.0), ("scenario=lab-b", 926.0)] {
        assert!(!one_by_one(count(q), width), "{q}");
    }
    assert!(one_by_one(count("scenario=golden"), 362.0));
    assert!(one_by_one(0, 0.0));
}

#[test]
fn a_lines_label_stays_inside_the_axis() {
    // The fixed window's reset at 20 s, with the span ending at 19 s: no line
    // past the axis, and its label ends at the axis's end, pointing on.
    let sim = Sim::new(&parse("limiters=fixed_window").0.setup).unwrap();
    let snap = sim.snapshot(0, "", 11_000);
    let s = Scale {
        from: 0,
        to: 19_000,
        width: 600.0,
    };
    let svg = under(snap.as_ref(), 11_000, s, None, Lang::En);
    let reset = svg.as_str().split("mark-line reset").nth(1).unwrap_or("");
    assert!(!reset.contains("<line"), "{svg:?}");
    assert!(
        reset.contains(r#"x="600" y="11" text-anchor="end""#) && reset.contains(" →"),
        "{svg:?}"
    );
    // Inside the span, the line is drawn and a label near the end ends at it.
    let s = Scale { to: 20_000, ..s };
    let svg = under(snap.as_ref(), 11_000, s, None, Lang::En);
    let reset = svg.as_str().split("mark-line reset").nth(1).unwrap_or("");
    assert!(
        reset.contains("<line") && reset.contains(r#"text-anchor="end""#),
        "{svg:?}"
    );
}

#[test]
fn labels_on_one_row_are_set_beside_each_other() {
    let mut row = Vec::new();
    // "now + τ" centred at 100, then "TAT →" at 104: moved to its right.
    assert_eq!(beside(&mut row, 100, "middle", 42, 600), (100, "middle"));
    assert_eq!(beside(&mut row, 104, "middle", 30, 600), (125, "start"));
    // At the right edge, to the left of it instead.
    let mut row = vec![(560, 600)];
    assert_eq!(beside(&mut row, 590, "end", 30, 600), (526, "start"));
    // A window's band too narrow for its name is not named.
    let sim = Sim::new(&parse("limiters=sliding_window_counter").0.setup).unwrap();
    let snap = sim.snapshot(0, "", 11_000);
    let s = Scale {
        from: 10_500,
        to: 30_000,
        width: 390.0,
    };
    let svg = under(snap.as_ref(), 11_000, s, None, Lang::En);
    // The window began before the span: named from the picture's edge.
    assert!(
        svg.as_str()
            .contains(r#"<text x="4" y="27">current window</text>"#),
        "{svg:?}"
    );
    let narrow = Scale { from: 19_800, ..s };
    let svg = under(snap.as_ref(), 11_000, narrow, None, Lang::En);
    assert!(!svg.as_str().contains("window</text>"), "{svg:?}");
}

#[test]
fn the_axis_keeps_its_end_labels_inside_the_picture() {
    // Per second's 30 s run on a desktop lane: "0 s" starts at the left end,
    // "30 s" ends at the right one, the others are centred on their ticks.
    let s = Scale {
        from: 0,
        to: 30_000,
        width: 926.0,
    };
    let svg = axis(s);
    let svg = svg.as_str();
    assert!(svg.contains(r#"text-anchor="start">0 s</text>"#), "{svg}");
    assert!(svg.contains(r#"text-anchor="end">30 s</text>"#), "{svg}");
    assert_eq!(svg.matches(r#"text-anchor="start""#).count(), 1, "{svg}");
    assert_eq!(svg.matches(r#"text-anchor="end""#).count(), 1, "{svg}");
    assert!(svg.contains(r#"text-anchor="middle""#), "{svg}");
}

#[test]
fn a_gauges_close_lines_are_named_side_by_side() {
    // nginx with burst 10 and delay after 9: the two lines are 20 px apart on
    // the 220 px gauge, closer than their names are wide.
    let g = crate::model::Gauge {
        what: Label::Excess,
        level: 3.0,
        max: 10.0,
        lines: vec![(10.0, Label::Burst), (9.0, Label::Delay)],
        level_text: "3".into(),
        max_text: "10".into(),
        part: None,
    };
    let svg = gauge(&g, false, Lang::En);
    let svg = svg.as_str();
    // "burst" ends at its line (x 210); "delay after" (66 px by the estimate)
    // ends 4 px left of "burst"'s estimated start (210 - 30).
    assert!(
        svg.contains(r#"<text x="210" y="34" text-anchor="end">burst</text>"#),
        "{svg}"
    );
    assert!(
        svg.contains(r#"<text x="110" y="34" text-anchor="start">delay after</text>"#),
        "{svg}"
    );
}

#[test]
fn a_gauge_is_red_only_when_a_request_would_be_refused() {
    let sim = golden();
    let g = crate::model::gauge(&sim.snapshot(0, "", 19_500).unwrap());
    let svg = gauge(&g, true, Lang::En);
    assert!(svg.as_str().contains(r#"class="fill refusing""#));
    assert!(!gauge(&g, false, Lang::En).as_str().contains("refusing"));
}

//! The model asked what to draw, natively.

use super::*;
use ratelab_sim::share::parse;

fn golden() -> (Setup, Sim) {
    let (link, notices) =
        parse("scenario=golden&limiters=fixed_window,sliding_log,token_bucket,leaky_queue");
    let state = link.setup;
    assert!(notices.is_empty());
    let sim = Sim::new(&state).unwrap();
    (state, sim)
}

#[test]
fn the_tagline_names_a_service_scenarios_own_limit() {
    let sim = |q: &str| {
        let setup = parse(q).0.setup;
        Sim::new(&setup).unwrap().first_limit(&setup)
    };
    let named = [
        ("scenario=golden", Some((5, 10_000))),
        ("scenario=retry-storm", Some((50, 1_000))),
        ("scenario=store-outage", Some((10, 1_000))),
        ("scenario=stacked-limits", Some((10, 1_000))),
        (
            "scenario=service&limiters=gcra&limit.0=7&period.0=2s",
            Some((7, 2_000)),
        ),
    ];
    // The same before the services are made (the first module) and after.
    for (q, want) in named {
        assert_eq!(sim(q), want, "{q}");
    }
    make_services_here();
    for (q, want) in named {
        assert_eq!(sim(q), want, "{q}");
    }
    // Every named service scenario's budget is its first limit.
    for id in ScenarioId::ALL.into_iter().filter(|&id| id.is_service()) {
        let setup = Setup::for_scenario(id);
        let services = setup.playground_config().unwrap().services.unwrap();
        let first = &services[0].limits[0].lane.params;
        let want = (first.limit, first.period_ms);
        if id != ScenarioId::Service {
            assert_eq!((id.info().limit, id.info().period_ms), want, "{id:?}");
        }
        let sim = Sim::new(&setup).unwrap();
        assert_eq!(sim.first_limit(&setup), Some(want), "{id:?}");
    }
}

#[test]
fn the_golden_marks_are_specs_table() {
    let (_, sim) = golden();
    let end = sim.end();
    assert_eq!(sim.marks_text(0, end), "✓✓✓✓✓✗✓✓✓✓✓✗");
    assert_eq!(sim.marks_text(1, end), "✓✓✓✓✓✗✗✗✗✗✓✓");
    assert_eq!(sim.marks_text(2, end), "✓✓✓✓✓✓✓✗✗✓✓✓");
    assert_eq!(sim.marks_text(3, end), "✓✓✓✓✓✓✓✓✗✓✓✓");
    // Before 9.8 s only five have arrived.
    assert_eq!(sim.marks_text(0, 9_700), "✓✓✓✓✓·······");
    let marks = sim.marks(3, 0, end).unwrap();
    let longest = marks.iter().map(|m| m.departs - m.t).max().unwrap();
    assert_eq!(longest, 9_800);
    assert_eq!(marks[9].decision, Decision::Delay);
    assert_eq!(marks[9].departs, 21_000);
}

#[test]
fn stepping_and_selection_follow_the_requests() {
    let (_, sim) = golden();
    assert_eq!(sim.next_time(0), Some(2_000));
    assert_eq!(sim.next_time(9_800), Some(10_100));
    assert_eq!(sim.prev_time(10_100), Some(9_800));
    assert_eq!(sim.prev_time(2_000), Some(0));
    assert_eq!(sim.prev_time(0), None);
    assert_eq!(sim.next_time(19_500), None);
    assert_eq!(sim.selected(0, None), None);
    assert_eq!(sim.selected(11_200, None), Some(9));
    assert_eq!(sim.selected(11_200, Some(3)), Some(3));
    // A choice that has not arrived yet gives way to the latest.
    assert_eq!(sim.selected(11_200, Some(11)), Some(9));
}

#[test]
fn overlays_and_gauges_come_from_the_snapshot() {
    let (_, sim) = golden();
    let snap = sim.snapshot(0, "", 19_500).unwrap();
    assert_eq!(
        overlays(&snap, 19_500)[0],
        Overlay::Band {
            from: 10_000.0,
            to: 20_000.0,
            class: "band window",
            label: Label::Window
        }
    );
    let g = gauge(&snap);
    assert_eq!((g.level, g.max), (5.0, 5.0));
    // The queue at 11.2 s: the 9.8 s wait ends at 21 s.
    let q = sim.snapshot(3, "", 11_200).unwrap();
    let dots: Vec<f64> = overlays(&q, 11_200)
        .into_iter()
        .filter_map(|o| match o {
            Overlay::Dot { at, .. } => Some(at),
            _ => None,
        })
        .collect();
    assert_eq!(dots.last().copied(), Some(21_000.0));
    assert_eq!(gauge(&q).level_text, "5");
    // Tokens just before the request at 10.7 s: 0.85.
    let tb = sim.snapshot(2, "", 10_700).unwrap();
    assert_eq!(gauge(&tb).level_text, "0.85");
}

#[test]
fn the_busiest_window_and_the_headers() {
    let (_, sim) = golden();
    let b = sim.busiest(0, 19_500).unwrap();
    assert_eq!((b.from, b.to, b.count), (1_200, 11_200, 9));
    let h = sim.headers(0, "", 19_500).unwrap();
    assert_eq!(h.status, 429);
    assert_eq!(h.ratelimit, "\"default\";r=0;t=1");
}

#[test]
fn manual_sends_at_the_clock_and_rewrites_a_scrubbed_future() {
    let state = parse("scenario=manual").0.setup;
    let mut sim = Sim::new(&state).unwrap();
    assert!(sim.is_empty());
    for _ in 0..6 {
        sim.send(1_000).unwrap();
    }
    sim.send(5_000).unwrap();
    assert_eq!(sim.len(), 7);
    // Back to 2 s: the request at 5 s is dropped, the new one goes in at 2 s.
    assert_eq!(sim.send(2_000), Ok(6));
    assert_eq!(
        sim.times(),
        [1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 2_000]
    );
}

#[test]
fn long_streams_show_a_moving_span_and_columns() {
    let state = parse("scenario=lab-d").0.setup;
    let sim = Sim::new(&state).unwrap();
    let (from, to) = sim.span(300_000);
    assert!(from <= 300_000 && 300_000 <= to, "{from}..{to}");
    assert_eq!(to - from, 180_000);
    // It moves a period at a time.
    assert_eq!(sim.span(300_001), (from, to));
    let cols = sim.columns(0, from, to, 100);
    let total: u32 = cols.iter().map(|c| c.allowed + c.denied + c.delayed).sum();
    assert_eq!(u64::from(total), {
        let r = sim.timeline.visible(from, to);
        r.end - r.start
    });
    let state = parse("scenario=golden").0.setup;
    let sim = Sim::new(&state).unwrap();
    assert_eq!(sim.span(5_000), (0, sim.end()));
    // Zoomed, a quarter of that, around the clock, never past the end.
    let (a, b) = sim.zoomed_span(5_000, ONE_X + 2);
    assert!(b - a == (sim.end() / 4).max(MIN_SPAN_MS) && a <= 5_000 && 5_000 <= b);
    assert!(sim.zoomed_span(sim.end(), ONE_X + 2).1 <= sim.end());
    assert_eq!(sim.zoomed_span(5_000, ONE_X), sim.span(5_000));
    // 1× is already the whole run: zooming out shows no more.
    assert_eq!(sim.zoomed_span(5_000, ONE_X - 1), (0, sim.end()));
}

#[test]
fn zooming_out_widens_the_span_up_to_the_whole_run() {
    // Lab D: ten minutes at 100 per minute. 1× shows three minutes around the
    // clock, ½× six, ¼× (more than the run) all ten.
    let sim = Sim::new(&parse("scenario=lab-d").0.setup).unwrap();
    let end = sim.end();
    assert!(end >= 600_000, "{end}");
    let at = 300_000;
    let (a, b) = sim.zoomed_span(at, ONE_X);
    assert_eq!(b - a, 180_000);
    let (c, d) = sim.zoomed_span(at, ONE_X - 1);
    assert_eq!(d - c, 360_000);
    assert!(c <= at && at <= d && d <= end, "{c}..{d}");
    assert_eq!(sim.zoomed_span(at, ONE_X - 2), (0, end));
    assert_eq!(sim.zoomed_span(at, 0), (0, end));
    for (level, label) in [
        (0, "1/4294967296×"),
        (ONE_X - 3, "1/8×"),
        (ONE_X - 2, "¼×"),
        (ONE_X - 1, "½×"),
        (ONE_X, "1×"),
        (MAX_ZOOM, "16×"),
    ] {
        assert_eq!(zoom_label(level), label);
    }
}

#[test]
fn ticks() {
    assert_eq!(tick_step(20_000, 10), 2_000);
    assert_eq!(tick_step(180_000, 6), 30_000);
    assert!(tick_step(u64::MAX / 2, 3) > 0);
}

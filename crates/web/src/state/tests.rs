//! The playground driven as a person would, natively.

use super::*;

#[test]
fn a_service_the_model_refuses_is_refused_where_typed_once_its_chunk_is_here() {
    let knob = Place::Field(Field::Knob("outage"));
    let refuse = || {
        let mut p = page("scenario=service&limiters=sliding_log&store=local");
        p.edit(Field::Knob("outage"), "20s-40s");
        p
    };
    // The first module alone leaves the services to the service view, which
    // says why it cannot run them.
    let p = refuse();
    assert_eq!(p.error(knob), None);
    let run = p.sim().run_services(p.setup()).expect("a service run");
    let e = run.expect_err("refused by the service model");
    assert!(e.contains("only a shared store can be down"), "{e}");
    // Once the view's chunk is loaded, at once, where it was typed.
    crate::model::make_services_here();
    let p = refuse();
    let e = p.error(knob).expect("refused");
    assert!(e.contains("only a shared store can be down"), "{e}");
    assert!(!p.query().contains("outage"), "{}", p.query());
}

#[test]
fn service_knobs_rerun_the_service_or_say_why() {
    let mut p = page("scenario=service&limiters=sliding_log");
    let knob = |k| Place::Field(Field::Knob(k));
    for (k, v) in [
        ("instances", "3"),
        ("store", "local"),
        ("noisy", "8"),
        ("retry", "none"),
    ] {
        p.edit(Field::Knob(k), v);
        assert_eq!(p.error(knob(k)), None, "{k}={v}");
    }
    let q = p.query();
    assert!(
        q.contains("instances=3") && q.contains("store=local"),
        "{q}"
    );
    let yardstick = |p: &Playground| {
        let run = p
            .sim()
            .run_services(p.setup())
            .expect("a service run")
            .unwrap();
        run.yardstick(0).cloned().expect("a lane")
    };
    // Three instances counting on their own let the noisy client through at
    // three times the limit.
    let y = yardstick(&p);
    assert_eq!(y.clients[0].max_in_1s, 30);
    // A refused value keeps the service and says why where it was typed.
    p.edit(Field::Knob("outage"), "40s-20s");
    assert_eq!(
        p.error(knob("outage")),
        Some("40s-20s ends before it starts")
    );
    assert_eq!(yardstick(&p), y);
    p.edit(Field::Knob("attempts"), "21");
    assert_eq!(
        p.error(knob("attempts")),
        Some("21 is too large (at most 20)")
    );
    // Another scenario has no knobs (the bare address opens a lesson).
    let mut g = page("scenario=golden");
    g.edit(Field::Knob("retry"), "fixed");
    assert_eq!(
        g.error(knob("retry")),
        Some("only scenario \"service\" takes it (not \"golden\"); ignored")
    );
}

fn page(q: &str) -> Playground {
    Playground::new(MountOptions::page(q)).unwrap()
}

#[test]
fn a_service_link_opens_folded_on_its_cards() {
    let mut p = page("scenario=store-outage");
    assert!(!p.unfolded());
    assert!(page("scenario=service").unfolded());
    // Another scenario picked in the setup: the setup as it was, unfolded.
    p.apply(Action::Scenario(ScenarioId::Golden));
    assert!(p.unfolded());
    let mut g = page("scenario=golden&t=0");
    assert!(g.unfolded());
    g.apply(Action::Scenario(ScenarioId::StoreOutage));
    assert!(g.unfolded());
}

#[test]
fn a_service_scenario_opens_in_the_page() {
    let mut p = page("scenario=golden&lang=vi&speed=2");
    p.apply(Action::Scenario(ScenarioId::RetryStorm));
    assert_eq!(p.setup().scenario, ScenarioId::RetryStorm);
    assert!(p.sim().is_service_run());
    assert_eq!(p.error(Place::Scenario), None);
    let p = page("scenario=retry-storm&lang=vi");
    assert!(p.sim().is_service_run() && p.notices.is_empty());
}

#[test]
fn a_late_stream_opens_just_before_its_first_request_zoomed_to_its_requests() {
    let p = page("scenario=edge-burst");
    let first = p.sim().next_time(0).unwrap();
    assert!(first > crate::model::LATE_MS);
    assert_eq!(p.now, first - crate::model::LEAD_MS);
    assert!(!p.playing && p.zoom > crate::model::ONE_X);
    let (from, to) = p.sim().zoomed_span(p.now, p.zoom);
    assert!(from <= first && to >= p.sim().times().into_iter().max().unwrap());
    // The link written there reopens there.
    assert_eq!(page(&p.query()).now, p.now);
    // A stream that starts early opens at 0 at 1×, as before.
    let g = page("scenario=golden");
    assert_eq!((g.now, g.zoom), (0, crate::model::ONE_X));
    assert!(!g.query().contains("t="));
}

#[test]
fn a_named_moment_wins_and_zero_is_written_for_a_late_stream() {
    for (q, now) in [("t=2s", 2_000), ("at=9.9s", 9_900), ("t=0", 0)] {
        let p = page(&format!("scenario=edge-burst&{q}"));
        assert_eq!((p.now, p.zoom), (now, crate::model::ONE_X), "{q}");
        assert!(p.notices.is_empty(), "{q}");
    }
    let p = page("scenario=edge-burst&t=0&lang=vi");
    assert!(p.query().ends_with("&lang=vi&t=0"), "{}", p.query());
    assert_eq!(page(&p.query()).now, 0);
    // A bad moment is a notice, and the stream's own opening stands.
    let p = page("scenario=edge-burst&at=soon");
    assert_eq!(p.notices.len(), 1);
    assert!(p.notices[0].starts_with("at=soon: "), "{:?}", p.notices);
    assert_eq!(p.now, p.sim().opening().0);
}

#[test]
fn autoplay_plays_from_the_opening_moment() {
    let mut options = MountOptions::page("scenario=edge-burst");
    options.autoplay = true;
    let p = Playground::new(options).unwrap();
    assert!(p.playing && p.now == p.sim().opening().0);
    let mut options = MountOptions::page("scenario=edge-burst&t=1m");
    options.autoplay = true;
    let p = Playground::new(options).unwrap();
    assert!(!p.playing && p.now == p.end());
}

fn edit(p: &mut Playground, field: Field, text: &str) {
    p.edit(field, text);
}

#[test]
fn the_bare_page_opens_the_first_lesson_playing_and_a_scenario_link_the_golden_stream() {
    let p = page("");
    assert_eq!(p.lesson, OpenLesson::first());
    assert_eq!(p.setup().scenario, ScenarioId::EdgeBurstDemo);
    assert!(p.playing && p.now == 0 && p.lesson_setup_kept());
    let p = page("scenario=golden");
    assert_eq!((p.setup().scenario, p.lesson), (ScenarioId::Golden, None));
    assert_eq!(p.sim().lanes().len(), 3);
    assert_eq!((p.now, p.revealed(), p.selected()), (0, 0, None));
}

#[test]
fn stepping_follows_the_requests() {
    let mut p = page("scenario=golden");
    p.apply(Action::Next);
    assert_eq!((p.now, p.selected()), (2_000, Some(0)));
    for _ in 0..20 {
        p.apply(Action::Next);
    }
    assert_eq!(p.sim().marks_text(0, p.now), "✓✓✓✓✓✗✓✓✓✓✓✗");
    assert_eq!(p.now, p.end());
    p.apply(Action::Prev);
    assert_eq!(p.now, 19_500);
}

#[test]
fn a_new_scenario_keeps_the_limiters_the_learner_chose() {
    let mut p = page("");
    let opening = |p: &Playground| {
        p.setup()
            .lanes
            .iter()
            .map(|l| l.algorithm)
            .collect::<Vec<_>>()
    };
    // Untouched lanes: the next scenario's own.
    p.apply(Action::Scenario(ScenarioId::LabC));
    assert_eq!(opening(&p), opening(&page("scenario=lab-c")));
    // A lane added: kept, at the next scenario's budget.
    p.add_lane(Algorithm::SlidingLog);
    let chosen = opening(&p);
    p.apply(Action::Scenario(ScenarioId::LabA));
    assert_eq!(opening(&p), chosen);
    let budget = p.setup().budget();
    assert!(p
        .setup()
        .lanes
        .iter()
        .all(|l| (l.params.limit, l.params.period_ms) == budget));
    assert_eq!(p.setup().scenario, ScenarioId::LabA);
}

#[test]
fn a_bare_number_in_a_per_w_field_is_seconds() {
    let mut p = page("");
    edit(&mut p, Field::Period, "10");
    assert_eq!(p.setup().budget().1, 10_000);
    edit(&mut p, Field::Lane(1, LaneField::Period), "2.5");
    assert_eq!(p.setup().lanes[1].params.period_ms, 2_500);
    edit(&mut p, Field::Lane(1, LaneField::Period), "250ms");
    assert_eq!(p.setup().lanes[1].params.period_ms, 250);
    edit(&mut p, Field::Period, "1.2.3");
    assert!(p.error(Place::Field(Field::Period)).is_some());
}

#[test]
fn bad_field_values_keep_the_setup_and_say_why() {
    let mut p = page("scenario=golden");
    let burst = Field::Lane(2, LaneField::Burst);
    let lane_limit = Field::Lane(0, LaneField::Limit);
    for (field, value, error) in [
        (Field::Limit, "0", "limit: must be > 0"),
        (Field::Limit, "-3", "must be a whole number, got \"-3\""),
        (Field::Limit, "NaN", "must be a whole number, got \"NaN\""),
        (Field::Limit, "", "must be a whole number, got nothing"),
        (Field::Limit, "1e20", "must be a whole number, got \"1e20\""),
        (Field::Period, "0", "period_ms: must be > 0"),
        (burst, "0", "limiters[2].burst: must be > 0"),
        (
            lane_limit,
            "100000000000000000000",
            "100000000000000000000 is too large (at most",
        ),
    ] {
        let before = p.run.clone();
        edit(&mut p, field, value);
        assert!(p.run == before, "{field:?}={value}");
        let e = p
            .error(Place::Field(field))
            .unwrap_or_else(|| panic!("no error for {field:?}={value}"));
        assert!(e.contains(error), "{field:?}={value}: {e}");
    }
    // A good value clears the error and applies to every lane.
    edit(&mut p, Field::Limit, "3");
    assert_eq!(p.error(Place::Field(Field::Limit)), None);
    assert!(p.setup().lanes.iter().all(|l| l.params.limit == 3));
}

#[test]
fn an_unchanged_value_keeps_the_same_setup() {
    let mut p = page("limit=5&period=10s");
    let before = p.run.clone();
    edit(&mut p, Field::Limit, "5");
    edit(&mut p, Field::Period, "10000ms");
    edit(&mut p, Field::Period, "10");
    edit(&mut p, Field::Lane(0, LaneField::Limit), "5");
    assert!(p.run == before);
}

#[test]
fn lanes_are_added_removed_and_tuned() {
    let mut p = page("scenario=golden");
    for a in [
        Algorithm::Nginx,
        Algorithm::TokenBucketF64,
        Algorithm::Gcra,
        Algorithm::LeakyQueue,
        Algorithm::FixedWindowAnchored,
        Algorithm::SlidingLogLogsBlocked,
    ] {
        p.add_lane(a);
    }
    assert_eq!(p.setup().lanes.len(), MAX_PLAYGROUND_LANES);
    edit(&mut p, Field::Lane(3, LaneField::Delay), "2");
    assert_eq!(p.setup().lanes[3].params.delay, Some(2));
    p.set_nodelay(3, true);
    assert!(p.setup().lanes[3].params.nodelay);
    assert_eq!(p.setup().lanes[3].params.delay, None);
    // A lane option the lane does not have is ignored.
    let before = p.run.clone();
    edit(&mut p, Field::Lane(0, LaneField::Burst), "4");
    edit(&mut p, Field::Lane(9, LaneField::Limit), "4");
    assert!(p.run == before);
    p.remove_lane(0);
    assert_eq!(p.setup().lanes[0].algorithm, Algorithm::SlidingLog);
    assert!(p
        .query()
        .contains("limiters=sliding_log,token_bucket,nginx,token_bucket_f64,gcra"));
    // Removing stops at one lane.
    for _ in 0..7 {
        p.remove_lane(0);
    }
    assert_eq!(p.setup().lanes.len(), MIN_LANES);
}

#[test]
fn the_url_round_trips_the_view() {
    let mut p =
        page("scenario=golden&limiters=fixed_window,leaky_queue&t=11.2s&hl=1&lang=vi&speed=2");
    assert_eq!(
        (p.now, p.highlight, p.lang, p.speed),
        (11_200, true, Lang::Vi, 2_000)
    );
    p.apply(Action::Select(9));
    let q = p.query();
    let again = page(&q);
    assert_eq!(again.query(), q);
    assert_eq!(again.chosen, Some(9));
}

#[test]
fn invalid_url_values_become_notices() {
    let mut p = page("limit=abc&t=soon&sel=99");
    assert_eq!(p.notices.len(), 3, "{:?}", p.notices);
    assert!(p.notices.iter().any(|n| n.contains("limit=abc")));
    p.apply(Action::Dismiss);
    assert!(p.notices.is_empty());
}

#[test]
fn manual_sends_at_the_clock() {
    let mut p = page("scenario=manual");
    assert!(p.is_manual());
    p.apply(Action::Send);
    p.now = 1_000;
    p.apply(Action::Send);
    assert_eq!(p.sim().len(), 2);
    assert_eq!(p.selected(), Some(1));
    // The link carries them.
    let again = page(&p.query());
    assert_eq!(again.sim().times(), [0, 1_000]);
    // Elsewhere there is no sending.
    let mut g = page("scenario=golden");
    g.apply(Action::Send);
    assert_eq!(g.sim().len(), 12);
}

#[test]
fn the_clock_plays_at_speed_and_stops_at_the_end() {
    let mut p = page("speed=4");
    p.apply(Action::Play);
    assert!(p.playing);
    assert!(p.advance(100.0));
    assert_eq!(p.now, 400);
    while p.advance(100.0) {}
    assert_eq!((p.now, p.playing), (p.end(), false));
    // Reduced motion: the clock shows request times only.
    let mut p = page("scenario=golden");
    p.reduced_motion = true;
    p.apply(Action::Play);
    for _ in 0..6 {
        p.advance(100.0);
    }
    assert_eq!(p.now, 0);
    for _ in 0..16 {
        p.advance(100.0);
    }
    assert_eq!(p.now, 2_000);
}

#[test]
fn json_import_and_export() {
    let mut p = page("scenario=golden");
    p.export_json(import::export(p.setup()));
    assert!(p.json.starts_with("{\"requests\":[2000,7000"));
    assert!(p.json_open);
    import_box(&mut p, r#"{"requests": [0, 0, 0], "limiters": [{"algorithm": "gcra", "limit": 1, "period_ms": 1000}]}"#.into());
    assert_eq!(p.setup().scenario, ScenarioId::Custom);
    assert_eq!(p.sim().len(), 3);
    import_box(
        &mut p,
        r#"{"requests": [0], "limiters": [{"algorithm": "gcra", "limit": 1, "period_ms": 0}]}"#
            .into(),
    );
    assert_eq!(
        p.error(Place::Json),
        Some("limiters[0].period_ms: must be > 0")
    );
    assert_eq!(p.sim().len(), 3);
}

#[test]
fn an_import_that_cannot_be_read_says_so_and_changes_nothing() {
    let mut p = Playground::new(MountOptions::page("scenario=lab-c")).unwrap();
    let before = p.query();
    p.start_reading();
    p.json_failed("could not fetch a part of the playground".into());
    assert_eq!(
        p.error(Place::Json),
        Some("could not fetch a part of the playground")
    );
    assert!(p.json_open && p.reading.is_none());
    assert_eq!(p.query(), before);
}

/// The JSON box's import of `text`, read as the box reads it.
fn import_box(p: &mut Playground, text: String) {
    let answer = Answer::new(import::read(&text));
    p.import_json(&text, &answer);
}

/// An import of `n` requests, one every 5 ms, on three lanes.
fn import_text(n: u64) -> String {
    let times: Vec<String> = (0..n).map(|i| (i * 5).to_string()).collect();
    format!(
        r#"{{"requests": [{}], "limiters": [{{"algorithm": "fixed_window", "limit": 5, "period_ms": 10000}}, {{"algorithm": "sliding_log", "limit": 5, "period_ms": 10000}}, {{"algorithm": "gcra", "limit": 5, "period_ms": 10000}}]}}"#,
        times.join(",")
    )
}

#[test]
fn a_stream_longer_than_the_custom_box_takes_is_not_written_out() {
    let mut p = page("scenario=golden");
    import_box(&mut p, import_text(20_001));
    while p.building.is_some() {
        p.build_some();
    }
    assert_eq!(p.error(Place::Json), None);
    assert_eq!(p.sim().len(), 20_001);
    assert_eq!(custom_text(&p.setup().requests), Err(20_001));
    // At the box's cap it is still written out, and reads back.
    let at_cap =
        ratelab_sim::Stream::from_times((0..share::MAX_URL_REQUESTS as u64).map(|i| i * 5));
    let text = custom_text(&at_cap).expect("at the cap");
    p.apply_requests(&text);
    assert_eq!(p.error(Place::Requests), None);
    assert_eq!(p.sim().len(), share::MAX_URL_REQUESTS as u64);
    let small = ratelab_sim::Stream::from_times([2_000, 7_000, 8_500]);
    assert_eq!(custom_text(&small), Ok("2s 7s 8.5s".to_string()));
}

#[test]
fn a_big_import_is_built_in_slices_and_a_new_change_cancels_it() {
    let n = SLICE as u64 * 2 + 7;
    let mut p = page("scenario=golden");
    let text = import_text(n);
    import_box(&mut p, text.clone());
    // Nothing in force yet: the golden stream still runs, and plays.
    assert_eq!(p.setup().scenario, ScenarioId::Golden);
    assert_eq!(p.building.as_ref().map(|b| b.progress()), Some((0, n)));
    p.apply(Action::Play);
    assert!(p.advance(100.0));
    let mut seen = Vec::new();
    while let Some(b) = &p.building {
        seen.push(b.progress().0);
        p.build_some();
    }
    assert_eq!(seen, [0, SLICE as u64, 2 * SLICE as u64]);
    assert_eq!(p.error(Place::Json), None);
    assert_eq!(
        (p.setup().scenario, p.sim().len(), p.now),
        (ScenarioId::Custom, n, 0)
    );
    // What the slices built is what one whole build makes.
    let whole = crate::model::Sim::new(p.setup()).expect("runs");
    assert_eq!(
        format!("{:?}", whole.timeline),
        format!("{:?}", p.sim().timeline)
    );
    // A change while an import is built cancels it; the change is in force.
    let mut q = page("scenario=golden");
    import_box(&mut q, text);
    q.build_some();
    q.apply(Action::Scenario(ScenarioId::LabB));
    assert!(q.building.is_none());
    q.build_some();
    assert_eq!(q.setup().scenario, ScenarioId::LabB);
}

/// The page after `text` was imported and built to the end, however it was read.
fn settle(mut p: Playground) -> Playground {
    while p.building.is_some() {
        p.build_some();
    }
    p
}

/// What the page shows of an import: setup, run, notices, errors, clock.
fn shown(p: &Playground) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {} {}",
        p.setup(),
        p.sim().timeline,
        p.notices,
        p.errors,
        p.now,
        &*p.json
    )
}

#[test]
fn an_import_read_by_a_worker_ends_as_one_read_here() {
    let n = SLICE as u64 + 3;
    let over = format!(
        r#"{{"requests": [1, 2], "limiters": [{}]}}"#,
        [r#"{"algorithm": "gcra", "limit": 1, "period_ms": 10}"#; 9].join(",")
    );
    // A big one, a small one with a notice, bad JSON, one over the key cap.
    let keys: Vec<String> = (0..2_000)
        .map(|i| format!(r#"{{"t": {i}, "key": "k{i}"}}"#))
        .collect();
    let too_many_keys = format!(
        r#"{{"requests": [{}], "limiters": [{{"algorithm": "gcra", "limit": 1, "period_ms": 10}}]}}"#,
        keys.join(",")
    );
    let mut outcomes = Vec::new();
    for text in [
        import_text(n),
        over,
        "{\"requests\": [1,".to_string(),
        too_many_keys,
    ] {
        let mut here = page("scenario=golden");
        import_box(&mut here, text.clone());
        let here = settle(here);
        outcomes.push((here.notices.len(), here.errors.len()));
        let mut there = page("scenario=golden");
        there.start_reading();
        let ticket = there.reading.expect("a ticket");
        let (head, bytes) = import::encode(&import::read_checked(&text));
        let checked = import::decode(&head, &bytes);
        let answer = Answer::new(checked.expect("decoded"));
        // An answer to another ticket changes nothing.
        there.read(ticket + 1, &answer.clone());
        assert_eq!(there.reading, Some(ticket));
        assert_eq!(there.setup().scenario, ScenarioId::Golden);
        there.read(ticket, &answer);
        assert_eq!(there.reading, None);
        // (The box keeps its text: the model's copy is the one it had.)
        there.json = here.json.clone();
        assert_eq!(
            shown(&settle(there)),
            shown(&here),
            "{}",
            &text[..40.min(text.len())]
        );
    }
    assert_eq!(outcomes, [(0, 0), (1, 0), (0, 1), (0, 1)]);
    // A change while a worker reads cancels the read: its answer is ignored.
    let mut p = page("scenario=golden");
    let text = import_text(n);
    p.start_reading();
    let ticket = p.reading.expect("a ticket");
    p.apply(Action::Scenario(ScenarioId::LabB));
    assert_eq!(p.reading, None);
    let checked = import::read_checked(&text);
    p.read(ticket, &Answer::new(checked));
    assert!(p.building.is_none());
    assert_eq!(p.setup().scenario, ScenarioId::LabB);
}

#[test]
fn the_json_text_is_compared_by_pointer_and_kept_when_unchanged() {
    // Equal texts that are not the same one differ: the page's memo never reads
    // the text to compare it.
    let a = BoxText::from("{}");
    assert_ne!(a, BoxText::from("{}"));
    assert_eq!(a, a.clone());
    let mut p = page("scenario=golden");
    let text = import_text(300);
    p.json_edited(Some(text.clone()));
    let edited = p.json.clone();
    // Importing the text the box already holds keeps it (nothing to write
    // back into the box), and so do the frames after it.
    import_box(&mut p, text.clone());
    assert_eq!(p.sim().len(), 300);
    assert!(p.json == edited);
    p.apply(Action::Play);
    p.advance(100.0);
    assert!(p.json == edited);
    p.json_edited(Some(format!("{text} ")));
    assert!(p.json != edited);
    // A big text stays in the box: the model keeps what it had, and writes
    // nothing back.
    let kept = p.json.clone();
    p.json_copied();
    p.json_edited(None);
    assert!(p.json == kept);
    assert!(!p.copied);
    // Nor is a big text imported on this thread (where no worker can read it).
    let big = import_text(200_000);
    assert!(big.len() > import::WORKER_TEXT);
    import_box(&mut p, big);
    assert!(p.json == kept);
    assert!(p.building.is_some() || p.sim().len() == 200_000);
}

#[test]
fn custom_requests_are_typed_or_refused() {
    let mut p = page("scenario=custom");
    p.apply_requests("2s 7s, 8000");
    assert_eq!(p.sim().times(), [2_000, 7_000, 8_000]);
    p.apply_requests("5s 1s");
    assert!(p.error(Place::Requests).unwrap().contains("sorted"));
    assert_eq!(p.sim().len(), 3);
}

/// A link keeps the zoom and the folds the reader left, and only those: what
/// the page opens with by itself (1×, a step's frame, a lesson's folds) is
/// left out, so a link written before these existed still opens the same.
#[test]
fn a_link_keeps_the_zoom_and_the_folds() {
    use crate::model::ONE_X;
    let mut p = page("scenario=lab-c&t=1s");
    let opened = p.query();
    assert_eq!(p.zoom, ONE_X);
    assert!(p.setup_unfolded() && p.catalog_unfolded());
    p.apply(Action::Zoom(ONE_X + 2));
    p.apply(Action::Fold(Fold::Setup, false));
    p.apply(Action::Fold(Fold::Catalog, false));
    let q = p.query();
    assert!(q.ends_with("&zoom=4&setup=folded&catalog=folded"), "{q}");
    let there = page(&q);
    assert_eq!(there.zoom, ONE_X + 2);
    assert!(!there.setup_unfolded() && !there.catalog_unfolded());
    assert_eq!(there.query(), q);
    // Back as the page opens: nothing in the link.
    p.apply(Action::Zoom(ONE_X));
    p.apply(Action::Fold(Fold::Setup, true));
    p.apply(Action::Fold(Fold::Catalog, true));
    assert_eq!(p.query(), opened);
    // A step frames the whole run (lab B's), folded: its link needs neither…
    let whole = (0..9)
        .filter_map(|i| OpenLesson::new("lab-b", i))
        .find(|o| o.def().is_some_and(|d| d.whole_run))
        .expect("a step of lab B about its whole run");
    let mut l = page(&format!("lesson=lab-b&step={}", whole.step + 1));
    while l.advance(1_000.0) {}
    let framed = l.zoom;
    assert!(framed < ONE_X);
    assert!(!l.setup_unfolded() && !l.catalog_unfolded());
    assert!(!l.query().contains("zoom=") && !l.query().contains("setup="));
    // …until the learner changes them; opening another step sets them again.
    l.apply(Action::Zoom(ONE_X));
    l.apply(Action::Fold(Fold::Setup, true));
    let q = l.query();
    assert!(q.contains("zoom=1&setup=open"), "{q}");
    let there = page(&q);
    assert_eq!(there.zoom, ONE_X);
    assert!(there.setup_unfolded());
    l.apply(Action::OpenLesson(OpenLesson::new("lab-b", 0).unwrap()));
    assert_eq!(
        (l.zoom, l.setup_unfolded()),
        (ONE_X, true),
        "replaying keeps them"
    );
    l.apply(Action::OpenLesson(OpenLesson::new("golden", 0).unwrap()));
    assert_eq!((l.zoom, l.setup_unfolded()), (ONE_X, false));
    // A zoom the page cannot show is cut to the closest it can.
    l.apply(Action::Zoom(u32::MAX));
    assert_eq!(l.zoom, crate::model::MAX_ZOOM);
}

#[test]
fn a_lesson_opens_its_setup_and_plays_to_its_moment() {
    let mut p = page("lesson=float&lang=vi");
    assert_eq!(p.setup().scenario, ScenarioId::FloatEdge);
    assert_eq!(p.lang, Lang::Vi);
    assert!(p.playing && p.now == 0);
    assert_eq!(p.stop_at, Some(11_000));
    while p.advance(100.0) {}
    assert_eq!((p.now, p.selected()), (11_000, Some(9)));
    assert!(p.lesson_setup_kept());
    assert!(p.query().ends_with("&lesson=float"), "{}", p.query());
    // The page's own link reopens the same view, not playing.
    let again = page(&p.query());
    assert_eq!(
        (again.now, again.playing, again.lesson),
        (11_000, false, p.lesson)
    );
    // Changing the setup keeps the lesson open; reopening restores its setup.
    p.add_lane(Algorithm::SlidingLog);
    assert!(p.lesson.is_some() && !p.lesson_setup_kept());
    let open = p.lesson.unwrap();
    p.apply(Action::OpenLesson(open));
    assert!(p.lesson_setup_kept());
    // With reduced motion it shows the moment at once.
    let mut r = page("lesson=golden&step=4");
    assert_eq!(r.step_lane(), Some(3));
    r.set_reduced_motion(true);
    assert_eq!((r.now, r.playing), (15_000, false));
    r.apply(Action::OpenLesson(OpenLesson::new("edge", 1).unwrap()));
    assert_eq!(
        (r.now, r.playing, r.setup().scenario),
        (11_000, false, ScenarioId::EdgeBurst)
    );
    // Pausing drops the stop; closing keeps the setup.
    r.apply(Action::CloseLesson);
    assert_eq!(
        (r.lesson, r.setup().scenario),
        (None, ScenarioId::EdgeBurst)
    );
}

#[test]
fn a_step_names_its_lane_while_that_lane_runs_its_limiter() {
    // The golden walk's step 4 is about the fourth of seven lanes.
    let mut p = page("lesson=golden&step=4");
    assert_eq!(p.step_lane(), Some(3));
    assert_eq!(
        p.setup().lanes[3].algorithm,
        Algorithm::SlidingWindowCounter
    );
    p.apply(Action::OpenLesson(OpenLesson::new("golden", 6).unwrap()));
    assert_eq!(p.step_lane(), Some(6));
    // A step about every lane names none; nor does the page with no step open.
    p.apply(Action::OpenLesson(OpenLesson::new("edge", 0).unwrap()));
    assert_eq!(p.step_lane(), None);
    p.apply(Action::OpenLesson(
        OpenLesson::new("logs-denials", 0).unwrap(),
    ));
    assert_eq!(p.step_lane(), Some(0));
    // Removing it moves another limiter into its place.
    p.remove_lane(0);
    assert_eq!(p.step_lane(), None);
    p.apply(Action::CloseLesson);
    assert_eq!(p.step_lane(), None);
}

#[test]
fn a_new_scenario_starts_over() {
    let mut p = page("scenario=golden&t=11s");
    edit(&mut p, Field::Limit, "0");
    p.apply(Action::Scenario(ScenarioId::LabC));
    assert_eq!((p.now, p.errors.len()), (0, 0));
    // Lab C's table: two token buckets, GCRA, the leaky queue and nginx.
    assert_eq!(p.sim().lanes().len(), 5);
}

/// A quiz question's "show it running": the lesson closed, the question's own
/// setup, played from 0 to its moment (or at it, with reduced motion) with its
/// request chosen, the whole run in view; the page's link is the question's.
#[test]
fn a_quiz_show_sets_up_its_run_and_plays_to_its_moment() {
    use ratelab_learn::quiz::quiz;
    for q in quiz(ratelab_learn::texts::Lang::En).unwrap() {
        for show in &q.show {
            let mut p = page("");
            assert!(p.lesson.is_some());
            p.show_run(&show.link);
            assert_eq!(p.lesson, None, "{}", show.query);
            assert_eq!(*p.setup(), show.link.setup, "{}", show.query);
            assert_eq!(p.chosen, show.link.view.selected, "{}", show.query);
            assert_eq!(p.zoom, p.sim().whole_run_zoom());
            let to = show.link.view.t_ms;
            if p.playing {
                assert_eq!((p.now, p.stop_at), (0, Some(to)), "{}", show.query);
            } else {
                assert_eq!(p.now, to, "{}", show.query);
            }
            // Played out, the clock stands at the moment the answer names.
            while p.advance(100.0) {}
            assert_eq!(p.now, to, "{}", show.query);
            let again = page(&p.query());
            assert_eq!(*again.setup(), show.link.setup);
            assert_eq!(again.now, to);
            let mut r = page("");
            r.set_reduced_motion(true);
            r.show_run(&show.link);
            assert_eq!((r.now, r.playing), (to, false), "{}", show.query);
        }
    }
}

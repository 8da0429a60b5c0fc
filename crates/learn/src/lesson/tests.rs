use super::*;
use crate::texts::slots;
use ratelab_sim::share::{parse, MAX_PLAYGROUND_LANES};

fn number(run: &StepRun, name: &str) -> u64 {
    run.fact(name)
        .and_then(FactRun::number)
        .unwrap_or_else(|| panic!("fact {name} is not a count"))
}

fn text(run: &StepRun, name: &str) -> String {
    run.fact(name)
        .map(|f| f.text.clone())
        .unwrap_or_else(|| panic!("no fact {name}"))
}

/// Every lesson but lab D (whose sweep is checked once, below): it is slow in a
/// debug build.
fn quick() -> impl Iterator<Item = &'static Lesson> {
    LESSONS.iter().filter(|l| l.id != "lab-d")
}

#[test]
fn ids_are_unique_and_steps_fit_the_playground() {
    for (i, l) in LESSONS.iter().enumerate() {
        assert!(
            LESSONS[..i].iter().all(|o| o.id != l.id),
            "duplicate lesson {}",
            l.id
        );
        assert!(!l.steps.is_empty(), "{} has no steps", l.id);
        for (j, s) in l.steps.iter().enumerate() {
            assert!(
                (2..=MAX_PLAYGROUND_LANES).contains(&s.lanes.len()),
                "{} step {j}: {} lanes",
                l.id,
                s.lanes.len()
            );
            if let Some(f) = s.focus {
                assert!(f < s.lanes.len(), "{} step {j}: focus out of range", l.id);
            }
        }
    }
}

#[test]
fn every_text_exists_in_both_languages_and_every_fact_is_used() {
    for l in LESSONS {
        for lang in Lang::ALL {
            let t = lang.texts();
            for part in ["title", "intro"] {
                assert!(
                    t.get(&l.key(part)).is_some(),
                    "{}: no {}",
                    lang.id(),
                    l.key(part)
                );
            }
            for (i, s) in l.steps.iter().enumerate() {
                let mut used = Vec::new();
                for part in ["title", "watch", "proved"] {
                    let key = l.key(&format!("{i}.{part}"));
                    let text = t
                        .get(&key)
                        .unwrap_or_else(|| panic!("{}: no {key}", lang.id()));
                    for slot in slots(text) {
                        assert!(
                            s.facts.iter().any(|f| f.name == slot),
                            "{}: {key} uses {{{slot}}}, which the step does not compute",
                            lang.id()
                        );
                        used.push(slot.to_string());
                    }
                }
                for f in s.facts {
                    assert!(
                        used.iter().any(|u| u == f.name),
                        "{}: {} step {i} computes {} but no text shows it",
                        lang.id(),
                        l.id,
                        f.name
                    );
                }
            }
        }
    }
}

#[test]
fn no_proved_text_types_a_number_in() {
    for l in LESSONS {
        for lang in Lang::ALL {
            for i in 0..l.steps.len() {
                let key = l.key(&format!("{i}.proved"));
                let text = lang.texts().get(&key).unwrap_or_default();
                let mut outside = String::new();
                let mut depth = 0;
                for c in text.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ if depth == 0 => outside.push(c),
                        _ => {}
                    }
                }
                assert!(
                    !outside.chars().any(|c| c.is_ascii_digit()),
                    "{}: {key} types a digit outside its slots: {outside}",
                    lang.id()
                );
            }
        }
    }
}

#[test]
fn every_step_opens_from_its_link_as_the_cli_runs_it() {
    for l in LESSONS {
        for (i, s) in l.steps.iter().enumerate() {
            let state = s.link();
            let query = state.to_query();
            let (back, notices) = parse(&query);
            assert!(
                notices.is_empty(),
                "{} step {i}: {query}: {notices:?}",
                l.id
            );
            assert_eq!(back, state, "{} step {i}: {query}", l.id);
            let (a, b) = (s.config().unwrap(), back.setup.to_config().unwrap());
            assert_eq!(a.stream, b.stream, "{} step {i}", l.id);
            assert_eq!(a.lanes, b.lanes, "{} step {i}", l.id);
            // `Step::config` leaves services out: no step may need them.
            assert!(b.services.is_none(), "{} step {i} runs a service", l.id);
        }
    }
}

#[test]
fn every_lesson_runs_in_both_languages() {
    for l in quick() {
        for lang in Lang::ALL {
            let r = l
                .run(lang)
                .unwrap_or_else(|e| panic!("{} ({}): {e}", l.id, lang.id()));
            for s in &r.steps {
                assert!(!s.proved.contains('['), "{}: {}", l.id, s.proved);
                assert!(!s.proved.contains('{'), "{}: {}", l.id, s.proved);
            }
        }
    }
}

#[test]
fn the_demo_articles_published_counts() {
    let edge = lesson("edge").unwrap().run(Lang::En).unwrap();
    let s = &edge.steps[0];
    assert_eq!(
        (number(s, "fw"), number(s, "sl"), number(s, "tb")),
        (10, 5, 6)
    );
    // The request at 10 s found exactly one token (the exact bucket allows it).
    assert_eq!(text(s, "tb_edge"), "1");
    // The playground's own edge burst: the bucket passes one fewer.
    let own = &edge.steps[1];
    assert_eq!(number(own, "tb"), 5);
    assert_eq!(text(own, "tb_last"), "0.9");

    let minute = lesson("minute").unwrap().run(Lang::En).unwrap();
    let s = &minute.steps[0];
    assert_eq!(
        (number(s, "fw"), number(s, "sl"), number(s, "tb")),
        (30, 30, 34)
    );
    assert_eq!(text(s, "per"), "2 s");

    let drip = lesson("drip").unwrap().run(Lang::En).unwrap();
    let s = &drip.steps[0];
    assert_eq!((number(s, "drips"), number(s, "tb_drip")), (9, 9));
    assert_eq!(number(s, "sl_refused"), 2);
    assert_eq!(text(s, "sl_first"), "12 s");
}

#[test]
fn the_golden_walk_matches_the_trace_tables() {
    let g = lesson("golden").unwrap().run(Lang::En).unwrap();
    let all = &g.steps[7];
    let passed: Vec<u64> = ["fw", "an", "sl", "swc", "tb", "lq", "gcra"]
        .iter()
        .map(|n| number(all, n))
        .collect();
    assert_eq!(passed, [10, 7, 7, 8, 10, 11, 10]);
    assert_eq!(text(all, "lq_wait"), "9.8 s");
    assert_eq!(text(&g.steps[0], "max"), "9");
    assert_eq!(text(&g.steps[3], "est"), "4.95");
    assert_eq!(number(&g.steps[3], "own"), 5);
    assert_eq!(text(&g.steps[4], "tok104"), "0.7");
    assert_eq!(text(&g.steps[4], "retry"), "0.6 s");
    assert_eq!(text(&g.steps[4], "bound"), "10");
    assert_eq!(text(&g.steps[5], "w112"), "9.8 s");
    assert_eq!(text(&g.steps[6], "ahead"), "8.6 s");
    assert_eq!(text(&g.steps[6], "tau"), "8 s");
    assert_eq!(text(&g.steps[6], "tok"), text(&g.steps[6], "tb_tok"));
    assert_eq!(text(&g.steps[6], "retry"), "0.6 s");
    // Vietnamese writes decimals with a comma.
    let vi = lesson("golden").unwrap().run(Lang::Vi).unwrap();
    assert_eq!(text(&vi.steps[3], "est"), "4,95");
    assert!(vi.steps[3].proved.contains("4,95"));
}

#[test]
fn the_traces_of_section_three() {
    let logs = lesson("logs-denials").unwrap().run(Lang::En).unwrap();
    let s = &logs.steps[0];
    // At 15 s, where the step stops: 16 requests (0 to 15 s).
    assert_eq!(number(s, "n"), 16);
    assert_eq!((number(s, "ok"), number(s, "bad")), (10, 5));
    assert_eq!(number(s, "len"), 10);

    let late = lesson("swc-late").unwrap().run(Lang::En).unwrap();
    let s = &late.steps[0];
    assert_eq!((number(s, "passed"), number(s, "max")), (9, 9));
    assert_eq!(number(s, "wrong"), 4);
    assert_eq!((text(s, "est12"), number(s, "own12")), ("4".into(), 5));
    assert_eq!((text(s, "est17"), number(s, "own17")), ("4.5".into(), 8));

    let early = lesson("swc-early").unwrap().run(Lang::En).unwrap();
    let s = &early.steps[0];
    assert_eq!(number(s, "wrong"), 2);
    assert_eq!((text(s, "est13"), number(s, "own13")), ("5.5".into(), 2));
    assert_eq!(text(s, "est16"), "4");

    let nginx = lesson("nginx").unwrap().run(Lang::En).unwrap();
    let s = &nginx.steps[0];
    assert_eq!(number(s, "passed"), 6);
    assert_eq!(text(s, "w0"), "0 100 200 300 400 500 ✗ ✗ ✗ ✗");
    assert_eq!(text(s, "w0"), text(s, "w3"));
    assert_eq!(text(s, "w1"), "0 0 0 0 0 0 ✗ ✗ ✗ ✗");
    assert_eq!(text(s, "w1"), text(s, "w4"));
    assert_eq!(text(s, "w2"), "0 0 0 0 100 200 ✗ ✗ ✗ ✗");
    assert_eq!(number(s, "free"), 4);

    let float = lesson("float").unwrap().run(Lang::En).unwrap();
    let s = &float.steps[0];
    assert_eq!(text(s, "ftok"), "0.9999999999999999");
    assert_eq!(text(s, "etok"), "1");
    assert_eq!(
        (text(s, "ahead"), text(s, "tau")),
        ("8 s".into(), "8 s".into())
    );
    assert_eq!(number(s, "e"), number(s, "f") + 1);
}

#[test]
fn the_labs_publish_the_articles_numbers() {
    let a = lesson("lab-a").unwrap().run(Lang::En).unwrap();
    let s = &a.steps[0];
    assert_eq!((number(s, "fw"), number(s, "an")), (199, 199));
    assert_eq!((number(s, "tb"), number(s, "gcra")), (104, 104));
    assert_eq!(number(s, "sl"), 100);

    let b = lesson("lab-b").unwrap().run(Lang::En).unwrap();
    let s = &b.steps[0];
    assert_eq!(text(s, "fw_h"), "34 33 33 0 0 0");
    assert_eq!(text(s, "sl_h"), "34 33 33 0 0 0");
    assert_eq!((number(s, "tb"), number(s, "gcra")), (399, 399));
    assert_eq!(number(s, "tb_first"), 199);
    assert_eq!(text(s, "bound"), "200");

    let c = lesson("lab-c").unwrap().run(Lang::En).unwrap();
    let s = &c.steps[0];
    assert_eq!((number(s, "b1_blocked"), number(s, "b20_blocked")), (11, 0));
    assert_eq!(number(s, "gcra"), 12);

    let e = lesson("lab-e").unwrap().run(Lang::En).unwrap();
    let s = &e.steps[0];
    let maxima: Vec<u64> = ["fw", "an", "sl", "swc", "tb"]
        .iter()
        .map(|n| number(s, n))
        .collect();
    assert_eq!(maxima, [200, 100, 100, 200, 199]);
    assert_eq!((number(s, "fw_1s"), number(s, "swc_1s")), (109, 102));
    assert_eq!(
        (number(s, "tb_passed"), number(s, "gcra_passed")),
        (300, 300)
    );
}

#[test]
fn lab_d_states_both_tables() {
    let d = lesson("lab-d").unwrap().run(Lang::En).unwrap();
    let s = &d.steps[0];
    let judged = s.judged.as_ref().expect("lab D judges the counter");
    let sweep = s.report.sweep.as_ref().expect("and runs the sweep");
    assert_eq!(judged.rows.len(), sweep.rows.len());
    assert_eq!(text(s, "wa0"), "0\u{a0}%");
    assert!(number(s, "worst") > 100);
    assert!(s.proved.contains(&text(s, "wa2")));
}

#[test]
fn every_step_plays_to_a_moment_inside_its_run() {
    // The page stops its clock at the run's end: a moment past it would be shown as
    // the end, and the texts (and a `Clock` fact) would name a time the learner never
    // sees. Lab D included: its timeline is its scenario's stream, not the sweep.
    let mut past = Vec::new();
    for l in LESSONS {
        for (i, s) in l.steps.iter().enumerate() {
            let config = s
                .config()
                .unwrap_or_else(|e| panic!("{} step {i}: {e}", l.id));
            let end = ratelab_sim::Timeline::from_config(&config)
                .unwrap_or_else(|e| panic!("{} step {i}: {e}", l.id))
                .end();
            let clocks = s.facts.iter().filter_map(|f| match f.query {
                Query::Clock(t) => Some((f.name, t)),
                _ => None,
            });
            for (what, t) in std::iter::once(("play_to_ms", s.play_to_ms)).chain(clocks) {
                if t > end {
                    past.push(format!("{} step {i}: {what} {t} ms > end {end} ms", l.id));
                }
            }
        }
    }
    assert!(past.is_empty(), "past their run's end: {past:#?}");
}

/// Every number a step states that the page's yardstick table ("so far") also
/// shows is the table's at the step's moment: the page builds a `Timeline` of the
/// step's setup (`Sim::new`: `playground_config`, `Timeline::from_config`) and
/// asks `yardstick_until(lane, clock)`, with the clock stopped at `play_to_ms`.
/// The facts come from another path (`run` on the requests arrived by then).
/// Lab D is left out (its sweep is slow in a debug build): it plays to its end.
#[test]
fn every_stated_number_is_what_the_yardstick_shows_at_the_moment() {
    let mut wrong = Vec::new();
    let mut checked = 0;
    for l in quick() {
        let run = l.run(Lang::En).unwrap();
        for ((i, s), r) in l.steps.iter().enumerate().zip(&run.steps) {
            let config = s.link().setup.playground_config().unwrap();
            let timeline = ratelab_sim::Timeline::from_config(&config).unwrap();
            let at = |lane| timeline.yardstick_until(lane, s.play_to_ms).unwrap();
            for (f, stated) in s.facts.iter().zip(&r.facts) {
                assert_eq!(f.name, stated.name);
                let (shown, says) = match f.query {
                    Query::BusiestEnd(j) => (at(j).max_in_window_end, stated.value.table_value()),
                    Query::PassedMinus(a, b) => (
                        Some(at(a).passed.saturating_sub(at(b).passed)),
                        stated.number(),
                    ),
                    Query::Histogram(j, from, len) => {
                        let h = at(j).histogram_10s;
                        let want: Vec<String> =
                            h.iter().skip(from).take(len).map(u64::to_string).collect();
                        checked += 1;
                        if stated.text != want.join(" ") {
                            wrong.push(format!(
                                "{} step {i} {{{}}}: says {}, the run so far {want:?}",
                                l.id, f.name, stated.text
                            ));
                        }
                        continue;
                    }
                    q => match q.on_yardstick() {
                        Some((lane, column)) => {
                            let y = at(lane);
                            if let (Query::LongestWait(_), FactValue::Duration(d)) =
                                (q, &stated.value)
                            {
                                assert_eq!(*d, y.longest_wait, "{} step {i} {}", l.id, f.name);
                            }
                            (column.of(&y), stated.value.table_value())
                        }
                        None => continue,
                    },
                };
                checked += 1;
                if shown.is_none() || shown != says {
                    wrong.push(format!(
                        "{} step {i} {{{}}}: says {}, the yardstick at {} ms shows {shown:?}",
                        l.id, f.name, stated.text, s.play_to_ms
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "stated numbers the table contradicts: {wrong:#?}"
    );
    assert!(checked > 60, "only {checked} numbers checked");
}

/// The other way round: a step that stops before its last request states no
/// whole-run total in words either (the numbers are the moment's by
/// construction; these words would still claim the run's).
#[test]
fn a_step_stopped_mid_run_does_not_speak_of_the_whole_run() {
    const WHOLE: &[(Lang, &[&str])] = &[
        (
            Lang::En,
            &[
                "whole run",
                "whole minute",
                "in all",
                "by the end",
                "over the run",
            ],
        ),
        (Lang::Vi, &["cả phút", "cả lượt", "tổng cộng", "cuối lượt"]),
    ];
    for l in LESSONS {
        for (i, s) in l.steps.iter().enumerate() {
            let config = s.config().unwrap();
            let last = config.stream.requests.last().map_or(0, |r| r.t);
            if s.play_to_ms >= last {
                continue;
            }
            for (lang, words) in WHOLE {
                let key = l.key(&format!("{i}.proved"));
                let text = lang.texts().get(&key).unwrap_or_default().to_lowercase();
                for w in *words {
                    assert!(
                        !text.contains(w),
                        "{}: {key} stops at {} ms, before its last request at {last} ms, yet says \"{w}\"",
                        lang.id(),
                        s.play_to_ms
                    );
                }
            }
        }
    }
}

/// A step whose text sends the learner to one lane marks that lane (the page
/// gives it an accent border and brings it into view): "Watch its tokens", "Watch
/// the token bucket", "Watch the wrong log".
#[test]
fn a_step_that_says_watch_one_lane_marks_it() {
    use ratelab_core::Algorithm::*;
    for (id, i, algorithm) in [
        ("edge", 1, TokenBucket),
        ("manual", 0, TokenBucket),
        ("logs-denials", 0, SlidingLogLogsBlocked),
    ] {
        let s = &lesson(id).unwrap().steps[i];
        let lane = s
            .focus
            .unwrap_or_else(|| panic!("{id} step {i} marks no lane"));
        assert_eq!(s.lanes[lane].algorithm, algorithm, "{id} step {i}");
    }
}

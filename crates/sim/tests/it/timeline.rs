//! The live timeline: scrubbing back shows what a fresh run shows, memory stays
//! bounded, and compaction keeps the totals.

use ratelab_core::{Algorithm, AnyLimiter, Keyed, Limiter};
use ratelab_sim::traffic::Poisson;
use ratelab_sim::ScenarioId;
use ratelab_sim::{
    run, run_answering, Config, LaneSpec, Request, Stream, Timeline, TimelineError, TimelineLimits,
};

/// Every algorithm, at 5 per 2 s (nginx delayed, with a burst).
fn lanes() -> Vec<LaneSpec> {
    Algorithm::ALL
        .into_iter()
        .map(|a| {
            let l = LaneSpec::simple(a, 5, 2_000);
            if a == Algorithm::Nginx {
                l.with_burst(3)
            } else {
                l
            }
        })
        .collect()
}

/// Three Poisson clients at twice the limit, plus simultaneous bursts.
fn stream(duration_ms: u64) -> Stream {
    let mut s = Poisson {
        clients: 3,
        load_permille: 2000,
        limit: 5,
        period_ms: 2_000,
        duration_ms,
        seed: 9,
    }
    .stream()
    .unwrap();
    let bursts: Vec<Request> = (0..duration_ms / 7_000)
        .flat_map(|k| (0..4).map(move |_| Request::keyed(k * 7_000 + 3, (k % 3) as u32)))
        .collect();
    s.requests.extend(bursts);
    s.requests.sort();
    s
}

fn timeline(s: &Stream, limits: TimelineLimits) -> Timeline {
    let mut t = Timeline::with_limits(lanes(), None, limits).unwrap();
    t.extend(s).unwrap();
    t
}

/// A fresh keyed limiter run over the requests at or before `t` (or before `index`).
fn fresh(spec: &LaneSpec, s: &Stream, upto: impl Fn(usize, &Request) -> bool) -> Keyed<AnyLimiter> {
    let mut k = Keyed::new(spec.build().unwrap());
    for (_, r) in s
        .requests
        .iter()
        .enumerate()
        .take_while(|(i, r)| upto(*i, r))
    {
        k.check(&s.keys[r.key as usize], r.t, r.cost).unwrap();
    }
    k
}

/// `s` in a timeline with a small checkpoint interval, so that most queries replay
/// from a checkpoint.
fn replaying(s: &Stream) -> Timeline {
    timeline(
        s,
        TimelineLimits {
            retain: 20_000,
            checkpoint_every: 400,
            max_keys: 10,
            ..TimelineLimits::DEFAULT
        },
    )
}

fn probe_times(s: &Stream) -> Vec<u64> {
    let last = s.requests.last().unwrap().t;
    // Request times, the moments just before and after them, and times in between.
    let mut ts: Vec<u64> = s
        .requests
        .iter()
        .step_by(37)
        .flat_map(|r| [r.t.saturating_sub(1), r.t, r.t + 1])
        .collect();
    ts.extend((0..50).map(|k| k * last / 50 + 13));
    ts.push(last + 5_000);
    ts
}

#[test]
fn many_snapshots_in_one_replay_are_each_snapshot_alone() {
    let s = stream(60_000);
    let tl = replaying(&s);
    let mut sorted = probe_times(&s);
    sorted.sort_unstable();
    // Out of order too: a time before the one before it starts again.
    let shuffled: Vec<u64> = probe_times(&s).into_iter().rev().step_by(3).collect();
    for lane in 0..lanes().len() {
        for key in s.keys.iter().map(String::as_str).chain(["nobody"]) {
            for times in [&sorted, &shuffled] {
                let one_by_one: Vec<_> = times
                    .iter()
                    .map(|&t| (t, tl.snapshot_at(lane, key, t).unwrap()))
                    .collect();
                assert_eq!(
                    tl.snapshots_at(lane, key, times.iter().copied()).unwrap(),
                    one_by_one,
                    "lane {lane}, {key}"
                );
            }
        }
    }
    assert!(matches!(
        tl.snapshots_at(99, "", [0]),
        Err(TimelineError::NoSuchLane { lane: 99, .. })
    ));
}

/// `"responses": true`: each request's response is the one a fresh limiter that
/// saw only the requests before it gives a request at its time (`ratelab
/// respond`'s numbers), for every algorithm and key.
#[test]
fn a_run_s_responses_are_what_each_request_was_answered() {
    let s = stream(14_000);
    let mut config = Config::new(s.clone(), lanes(), None);
    config.ask_responses().unwrap();
    let report = run_answering(&config).unwrap();
    for (spec, lane) in lanes().iter().zip(&report.results) {
        let responses = lane.responses.as_ref().expect("asked for");
        assert_eq!(responses.len(), s.len());
        assert!(responses.iter().any(|h| h.status == 429), "{}", spec.id);
        for (i, (r, h)) in s.requests.iter().zip(responses).enumerate() {
            assert_eq!(r.cost, 1);
            let k = fresh(spec, &s, |j, _| j < i);
            let key = &s.keys[r.key as usize];
            assert_eq!(
                h,
                &k.get(key).headers(r.t).unwrap(),
                "{} request {i}",
                spec.id
            );
            assert_eq!(h.status == 200, lane.allowed[i], "{} request {i}", spec.id);
        }
    }
    config.responses = false;
    assert!(run(&config)
        .unwrap()
        .results
        .iter()
        .all(|l| l.responses.is_none()));
}

#[test]
fn scrubbing_shows_what_a_fresh_run_shows() {
    let s = stream(60_000);
    let tl = replaying(&s);
    assert_eq!(tl.len() as usize, s.len());
    for (lane, spec) in lanes().iter().enumerate() {
        for t in probe_times(&s) {
            let k = fresh(spec, &s, |_, r| r.t <= t);
            for key in &s.keys {
                assert_eq!(
                    tl.snapshot_at(lane, key, t).unwrap(),
                    k.get(key).snapshot(t),
                    "{} {key} at {t}",
                    spec.id
                );
                assert_eq!(
                    tl.headers_at(lane, key, t).unwrap(),
                    k.get(key).headers(t).unwrap(),
                    "{} {key} at {t}",
                    spec.id
                );
            }
        }
        for index in (0..s.len()).step_by(29) {
            let r = s.requests[index];
            let k = fresh(spec, &s, |i, _| i < index);
            let key = &s.keys[r.key as usize];
            assert_eq!(
                tl.explain(lane, index as u64).unwrap(),
                k.get(key).explain(r.t, r.cost).unwrap(),
                "{} request {index}",
                spec.id
            );
        }
    }
}

#[test]
fn yardstick_until_is_the_run_of_the_prefix() {
    let s = stream(40_000);
    let tl = timeline(&s, TimelineLimits::DEFAULT);
    for t in probe_times(&s).into_iter().step_by(7) {
        let prefix = Stream {
            requests: s
                .requests
                .iter()
                .copied()
                .take_while(|r| r.t <= t)
                .collect(),
            keys: s.keys.clone(),
        };
        let report = run(&Config::new(prefix, lanes(), None)).unwrap();
        for (lane, expected) in report.results.iter().enumerate() {
            assert_eq!(
                tl.yardstick_until(lane, t).unwrap(),
                expected.yardstick,
                "{} until {t}",
                expected.id
            );
        }
    }
}

#[test]
fn outcomes_agree_with_the_runner_and_views_use_binary_search() {
    let s = stream(30_000);
    let tl = timeline(&s, TimelineLimits::DEFAULT);
    let report = run(&Config::new(s.clone(), lanes(), None)).unwrap();
    for (lane, r) in report.results.iter().enumerate() {
        for (i, (&allowed, wait)) in r.allowed.iter().zip(&r.waits).enumerate() {
            let o = tl.outcome(lane, i as u64).unwrap();
            assert_eq!(
                (o.allowed, o.wait_ms()),
                (allowed, wait.map(|w| w.ceil_ms()))
            );
        }
    }
    let v = tl.visible(10_000, 12_000);
    assert!(v
        .clone()
        .all(|i| (10_000..=12_000).contains(&tl.request(i).unwrap().t)));
    assert_eq!(
        v.end - v.start,
        s.requests
            .iter()
            .filter(|r| (10_000..=12_000).contains(&r.t))
            .count() as u64
    );
    assert_eq!(tl.index_at(0), 0);
    assert_eq!(tl.index_after(u64::MAX), tl.len());
    assert_eq!(tl.visible(5, 4), tl.index_at(5)..tl.index_at(5));
}

#[test]
fn a_hundred_thousand_clicks_stay_within_the_bound() {
    // Manual mode: six lanes, one key, three clicks at once every 400 ms.
    let lanes = ScenarioId::Manual.lanes(5, 10_000);
    let count = lanes.len();
    let mut tl = Timeline::new(lanes, None).unwrap();
    let limits = tl.limits();
    // The histograms grow with the clock (one bucket per 10 s, capped at 24 h), not
    // with the requests; everything else must stop growing once compaction starts.
    let histograms = |tl: &Timeline| -> usize {
        (0..count)
            .map(|l| tl.yardstick(l).unwrap().histogram_10s.len())
            .sum()
    };
    let (mut high, mut at_half) = (0, 0);
    for k in 0..100_000u64 {
        tl.push(Request::at(k / 3 * 400)).unwrap();
        high = high.max(tl.stored_items() - histograms(&tl));
        if k == 50_000 {
            at_half = high;
        }
    }
    let retained = limits.retain + limits.checkpoint_every;
    // Per retained request: the request, an outcome per lane, and at most three
    // window entries per lane; plus checkpoints of (one key's) state, at most N = 5
    // numbers each.
    let bound = retained * (1 + 4 * count) + count * (64 + 1) * (1 + 5) + count + 10;
    assert!(high <= bound, "{high} > {bound}");
    assert_eq!(
        high, at_half,
        "memory kept growing after compaction started"
    );
    assert!(histograms(&tl) <= count * ratelab_sim::HISTOGRAM_MAX_BUCKETS);
    assert!(tl.retained().end - tl.retained().start <= retained as u64);
    assert_eq!(tl.len(), 100_000);
}

#[test]
fn compaction_keeps_the_totals() {
    let s = stream(200_000);
    let limits = TimelineLimits {
        retain: 400,
        checkpoint_every: 40,
        max_keys: 10,
        ..TimelineLimits::DEFAULT
    };
    let tl = timeline(&s, limits);
    assert!(tl.retained().start > 0, "no compaction happened");
    assert!(tl.retained().end - tl.retained().start < 440);
    let report = run(&Config::new(s.clone(), lanes(), None)).unwrap();
    for (lane, r) in report.results.iter().enumerate() {
        // 400 retained requests span far more than one 2 s window, so even the window
        // maxima are exact.
        assert_eq!(tl.yardstick(lane).unwrap(), r.yardstick, "{}", r.id);
    }
    // Looking back within the retained history still matches a fresh run.
    let earliest = tl.earliest_time();
    let first = tl.request(tl.retained().start).unwrap().t;
    for t in [
        earliest,
        first,
        first + 777,
        s.requests.last().unwrap().t - 1,
    ] {
        let prefix = Stream {
            requests: s
                .requests
                .iter()
                .copied()
                .take_while(|r| r.t <= t)
                .collect(),
            keys: s.keys.clone(),
        };
        let expected = run(&Config::new(prefix, lanes(), None)).unwrap();
        for (lane, r) in expected.results.iter().enumerate() {
            assert_eq!(
                tl.yardstick_until(lane, t).unwrap(),
                r.yardstick,
                "{} until {t}",
                r.id
            );
            let k = fresh(&lanes()[lane], &s, |_, q| q.t <= t);
            assert_eq!(
                tl.snapshot_at(lane, "client-1", t).unwrap(),
                k.get("client-1").snapshot(t)
            );
        }
    }
    // Before the retained history: an error, not a wrong answer.
    assert_eq!(
        tl.snapshot_at(0, "", earliest - 1),
        Err(TimelineError::Compacted {
            t: earliest - 1,
            earliest
        })
    );
    // Many at once leave such times out and answer the rest.
    assert_eq!(
        tl.snapshots_at(0, "", [earliest - 1, earliest]).unwrap(),
        vec![(earliest, tl.snapshot_at(0, "", earliest).unwrap())]
    );
    assert!(matches!(
        tl.explain(0, 0),
        Err(TimelineError::NotRetained { index: 0, .. })
    ));
}

#[test]
fn bad_pushes_are_errors_that_change_nothing() {
    let mut tl = Timeline::new(lanes(), None).unwrap();
    tl.push(Request::at(1_000)).unwrap();
    let before = tl.yardstick(0).unwrap();
    let err = tl.push(Request::at(999)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "lane 0: time went backwards: 999 ms is earlier than the previous request at 1000 ms (streams must be sorted by time)"
    );
    // A cost one lane can never allow: no lane records it.
    let err = tl
        .push(Request {
            t: 2_000,
            key: 0,
            cost: 6,
        })
        .unwrap_err();
    assert!(matches!(err, TimelineError::Check { .. }), "{err}");
    assert_eq!(
        tl.push(Request {
            t: 2_000,
            key: 0,
            cost: 0
        })
        .unwrap_err()
        .to_string(),
        "lane 0: cost: must be > 0"
    );
    assert_eq!(
        tl.push(Request::keyed(2_000, 9)),
        Err(TimelineError::UnknownKey { key: 9 })
    );
    assert_eq!(tl.len(), 1);
    assert_eq!(tl.yardstick(0).unwrap(), before);
    assert!(matches!(
        tl.snapshot_at(99, "", 0),
        Err(TimelineError::NoSuchLane { lane: 99, .. })
    ));
    // Keys are capped.
    let mut small = Timeline::with_limits(
        lanes(),
        None,
        TimelineLimits {
            max_keys: 2,
            ..TimelineLimits::DEFAULT
        },
    )
    .unwrap();
    // Two keys besides "": exactly the cap, not one fewer.
    small.push_key(0, "a", 1).unwrap();
    small.push_key(0, "b", 1).unwrap();
    small.push_key(0, "", 1).unwrap();
    let refused = small.push_key(0, "c", 1);
    assert_eq!(
        refused,
        Err(TimelineError::TooManyKeys {
            max: 2,
            key: "c".into(),
            request: None
        })
    );
    assert_eq!(
        refused.unwrap_err().to_string(),
        "key: \"c\" is one key too many (at most 2 keys besides \"\")"
    );
    // Unknown keys read as fresh limiters.
    assert!(tl.snapshot_at(0, "nobody", 5_000).is_ok());
}

#[test]
fn limits_are_checked() {
    let bad = TimelineLimits {
        retain: 20_000,
        checkpoint_every: 100,
        max_keys: 1,
        ..TimelineLimits::DEFAULT
    };
    assert!(Timeline::with_limits(lanes(), None, bad).is_err());
    assert!(Timeline::with_limits(lanes(), Some(0), TimelineLimits::DEFAULT).is_err());
}

/// The yardstick says where its busiest window is, so the playground can highlight
/// it: on the golden stream, the fixed window's 9 in 10 s are the window ending at
/// 11.2 s, i.e. (1.2 s, 11.2 s]; the sliding log first holds 5 at 9.5 s.
#[test]
fn the_busiest_window_is_located() {
    let config = ratelab_sim::scenario(ScenarioId::Golden, &Default::default()).unwrap();
    let mut tl = Timeline::new(config.lanes.clone(), config.window_ms).unwrap();
    tl.extend(&config.stream).unwrap();
    let report = run(&config).unwrap();
    let at = |id: &str| {
        let lane = config.lanes.iter().position(|l| l.id == id).unwrap();
        let y = tl.yardstick(lane).unwrap();
        let r = &report.results[lane];
        assert_eq!(y, r.yardstick, "{id}");
        let busiest = tl.busiest_window_until(lane, u64::MAX).unwrap();
        (y.max_in_window, y.max_in_window_end, busiest)
    };
    let window = |end: u64, count: u64| {
        Some(ratelab_sim::timeline::BusiestWindow {
            from: end.saturating_sub(10_000),
            to: end,
            key: String::new(),
            count,
        })
    };
    assert_eq!(at("fixed_window"), (9, Some(11_200), window(11_200, 9)));
    assert_eq!(at("sliding_log"), (5, Some(9_500), window(9_500, 5)));
    assert_eq!(at("leaky_queue"), (9, Some(11_200), window(11_200, 9)));
    // Cut at 9.9 s, the fixed window's busiest so far is the first five.
    let fixed = tl.yardstick_until(0, 9_900).unwrap();
    assert_eq!(
        (fixed.max_in_window, fixed.max_in_window_end),
        (5, Some(9_500))
    );
    let none = tl.yardstick_until(0, 1_000).unwrap();
    assert_eq!((none.max_in_window, none.max_in_window_end), (0, None));
}

/// A build a slice at a time, `sizes` cycled (a 0 slice adds nothing), until done.
fn in_slices(mut t: Timeline, s: &Stream, sizes: &[usize]) -> Result<Timeline, TimelineError> {
    let mut at = ratelab_sim::Extending::default();
    let mut calls = 0usize;
    for &n in sizes.iter().cycle() {
        let before = at.done();
        if t.extend_some(s, &mut at, n)? {
            return Ok(t);
        }
        assert_eq!(at.done(), before + n, "a slice of {n} pushes {n}");
        calls += 1;
        assert!(
            calls <= s.requests.len() * sizes.len() + sizes.len(),
            "never done"
        );
    }
    Ok(t)
}

// proptest is a native dev-dependency only (see Cargo.toml).
#[cfg(not(target_arch = "wasm32"))]
mod sliced {
    use super::*;

    /// A keyed stream with more keys than `max_keys` allows (so the error's request
    /// index can be checked across slices).
    fn many_keys(n: u32) -> Stream {
        let mut s = Stream::new();
        s.keys.extend((0..13).map(|k| format!("k{k}")));
        for i in 0..n {
            s.requests
                .push(Request::keyed(u64::from(i) * 37, 1 + i % 13));
        }
        s
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// Slices of any size build exactly what one `extend` builds (every field of
        /// the timeline: lanes, checkpoints, compaction, keys), and fail at the same
        /// request with the same error.
        #[test]
        fn a_build_in_slices_is_the_whole_build(
            duration in 1_000u64..60_000,
            sizes in proptest::collection::vec(0usize..700, 1..5),
            keys in 1u32..400,
        ) {
            let limits = TimelineLimits {
                retain: 400,
                checkpoint_every: 40,
                max_keys: 10,
                ..TimelineLimits::DEFAULT
            };
            let sizes: Vec<usize> = if sizes.iter().all(|&n| n == 0) { vec![1] } else { sizes };
            for s in [stream(duration), many_keys(keys)] {
                let fresh = || Timeline::with_limits(lanes(), None, limits).unwrap();
                let mut whole = fresh();
                let whole_result = whole.extend(&s);
                let mut sliced = fresh();
                let mut at = ratelab_sim::Extending::default();
                let mut result = Ok(false);
                let mut k = 0;
                while let Ok(false) = result {
                    let n = sizes[k % sizes.len()];
                    k += 1;
                    result = sliced.extend_some(&s, &mut at, n);
                }
                match (&whole_result, &result) {
                    (Ok(()), Ok(true)) => {}
                    (Err(a), Err(b)) => proptest::prop_assert_eq!(a.to_string(), b.to_string()),
                    other => proptest::prop_assert!(false, "{other:?}"),
                }
                proptest::prop_assert_eq!(format!("{whole:?}"), format!("{sliced:?}"));
            }
        }
    }
}

#[test]
fn prepare_then_slices_is_from_config() {
    let config = Config::new(stream(120_000), lanes(), None);
    let whole = Timeline::from_config(&config).unwrap();
    let (t, _) = Timeline::prepare(&config).unwrap();
    let sliced = in_slices(t, &config.stream, &[1, 333, 0, 1_000]).unwrap();
    assert_eq!(format!("{whole:?}"), format!("{sliced:?}"));
    assert!(whole.len() > 1_000, "{}", whole.len());
    // Over the budget: refused by `prepare`, before any work, with the same line.
    let heavy = Config::new(Stream::from_times(0..2_000_000), lanes(), None);
    let a = Timeline::from_config(&heavy).map(|_| ()).unwrap_err();
    let b = Timeline::prepare(&heavy).map(|_| ()).unwrap_err();
    assert_eq!(a, b);
}

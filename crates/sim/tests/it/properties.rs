//! Properties over random streams and parameters.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use ratelab_core::{Algorithm, Params};
use ratelab_sim::{
    run, simulate_value, Config, LaneSpec, Request, Stream, Timeline, TimelineLimits,
};
use serde_json::{json, Value};

fn arb_stream() -> impl Strategy<Value = Stream> {
    (
        1u32..4,
        prop::collection::vec((0u64..400, 0u32..4, 1u32..3), 0..120),
    )
        .prop_map(|(keys, gaps)| {
            let mut t = 0;
            let requests = gaps
                .into_iter()
                .map(|(gap, key, cost)| {
                    // Many gaps of 0: simultaneous arrivals matter.
                    t += gap.saturating_sub(200);
                    Request {
                        t,
                        key: key % keys,
                        cost,
                    }
                })
                .collect();
            Stream {
                requests,
                keys: (0..keys).map(|k| format!("k{k}")).collect(),
            }
        })
}

fn arb_lane() -> impl Strategy<Value = LaneSpec> {
    (
        prop::sample::select(Algorithm::ALL.to_vec()),
        2u64..6,
        1u64..3_000,
        prop::option::of(2u64..6),
        prop::option::of(0u64..4),
        any::<bool>(),
    )
        .prop_map(|(algorithm, limit, period_ms, burst, delay, nodelay)| {
            let nginx = algorithm == Algorithm::Nginx;
            LaneSpec::new(
                algorithm,
                Params {
                    limit,
                    period_ms,
                    burst: if algorithm.uses_burst() { burst } else { None },
                    delay: if nginx && !nodelay { delay } else { None },
                    nodelay: nginx && nodelay,
                },
            )
        })
}

fn arb_config() -> impl Strategy<Value = (Stream, Vec<LaneSpec>, Option<u64>)> {
    (
        arb_stream(),
        prop::collection::vec(arb_lane(), 1..4),
        prop::option::of(1u64..5_000),
    )
        .prop_map(|(s, mut lanes, w)| {
            for (i, l) in lanes.iter_mut().enumerate() {
                l.id = format!("lane-{i}");
            }
            (s, lanes, w)
        })
}

/// Brute force: the most allowed units of one key in any `(t − w, t]`, by `points`.
fn brute_max(points: &[(u32, u128, u64, u32)], w: u64) -> u64 {
    // points: (key, time scaled, scale, cost); scale is common per call.
    let mut best = 0;
    for &(k, end, scale, _) in points {
        let sum: u64 = points
            .iter()
            .filter(|&&(k2, p, _, _)| k2 == k && p <= end && p + w as u128 * scale as u128 > end)
            .map(|&(_, _, _, c)| c as u64)
            .sum();
        best = best.max(sum);
    }
    best
}

proptest! {
    // Failures print their minimal input; integration tests have no source file
    // proptest could persist them next to.
    #![proptest_config(ProptestConfig {
        cases: 200,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// The runner's window maxima are the brute-force maxima, by arrival and (for
    /// the delaying limiters) by departure.
    #[test]
    fn window_maxima_match_brute_force((s, lanes, w) in arb_config()) {
        // Costs a lane cannot take are input errors; keep cost 1 here.
        let s = Stream { requests: s.requests.iter().map(|r| Request { cost: 1, ..*r }).collect(), ..s };
        let report = run(&Config::new(s.clone(), lanes.clone(), w)).unwrap();
        for (lane, r) in lanes.iter().zip(&report.results) {
            let window = lane.window_ms(w);
            let arrivals: Vec<_> = s.requests.iter().zip(&r.allowed)
                .filter(|(_, a)| **a)
                .map(|(q, _)| (q.key, q.t as u128, 1u64, q.cost))
                .collect();
            prop_assert_eq!(r.yardstick.max_in_window, brute_max(&arrivals, window));
            prop_assert_eq!(r.yardstick.max_in_1s, brute_max(&arrivals, 1000));
            if lane.algorithm.delays() {
                // Departures in units of 1/limit ms (the engine's exact scale).
                let scale = lane.params.limit;
                let departures: Vec<_> = s.requests.iter().zip(&r.waits)
                    .filter_map(|(q, w)| w.map(|w| {
                        let f = w.0;
                        let scaled = q.t as u128 * scale as u128 + f.num() * scale as u128 / f.den() as u128;
                        (q.key, scaled, scale, q.cost)
                    }))
                    .collect();
                prop_assert_eq!(r.yardstick.max_in_window_departures, Some(brute_max(&departures, window)));
            } else {
                prop_assert_eq!(r.yardstick.max_in_window_departures, None);
            }
        }
    }

    /// Departures of one key leave in arrival order (the yardstick relies on it).
    #[test]
    fn departures_are_monotone_per_key((s, lanes, _) in arb_config()) {
        let s = Stream { requests: s.requests.iter().map(|r| Request { cost: 1, ..*r }).collect(), ..s };
        let report = run(&Config::new(s.clone(), lanes.clone(), None)).unwrap();
        for r in &report.results {
            let mut last: Vec<Option<ratelab_core::Ms>> = vec![None; s.keys.len()];
            for (q, w) in s.requests.iter().zip(&r.waits) {
                if let Some(w) = w {
                    let f = w.0;
                    let dep = ratelab_core::Ms::scaled(q.t as u128 * f.den() as u128 + f.num(), f.den());
                    if let Some(prev) = last[q.key as usize] {
                        prop_assert!(dep >= prev, "{} departs {:?} before {:?}", r.id, dep, prev);
                    }
                    last[q.key as usize] = Some(dep);
                }
            }
        }
    }

    /// The timeline decides exactly as the runner does, and its yardstick agrees.
    #[test]
    fn the_timeline_agrees_with_the_runner((s, lanes, w) in arb_config()) {
        let config = Config::new(s.clone(), lanes.clone(), w);
        let Ok(report) = run(&config) else {
            // A cost some lane can never take: the timeline refuses it too.
            let mut tl = Timeline::new(lanes, w).unwrap();
            prop_assert!(tl.extend(&s).is_err());
            return Ok(());
        };
        let limits = TimelineLimits { retain: 64, checkpoint_every: 8, max_keys: 8, ..TimelineLimits::DEFAULT };
        let mut tl = Timeline::with_limits(lanes.clone(), w, limits).unwrap();
        tl.extend(&s).unwrap();
        for (j, r) in report.results.iter().enumerate() {
            let y = tl.yardstick(j).unwrap();
            prop_assert_eq!((y.passed, y.blocked, y.keys), (r.yardstick.passed, r.yardstick.blocked, r.yardstick.keys));
            prop_assert_eq!(&y.histogram_10s, &r.yardstick.histogram_10s);
            prop_assert_eq!(y.longest_wait_ms, r.yardstick.longest_wait_ms);
            for i in tl.retained() {
                let o = tl.outcome(j, i).unwrap();
                prop_assert_eq!(o.allowed, r.allowed[i as usize]);
                prop_assert_eq!(Some(o.wait).filter(|_| o.allowed), r.waits[i as usize]);
            }
        }
    }

    /// Exporting and importing a config gives the same run.
    #[test]
    fn to_json_round_trips((s, lanes, w) in arb_config()) {
        let config = Config::new(s, lanes, w);
        let back = Config::from_json(&config.to_json());
        // Key tables may be renumbered (unused keys are not written); what each
        // request says is the same.
        let named = |c: &Config| -> Vec<(u64, String, u32)> {
            c.stream.requests.iter()
                .map(|r| (r.t, c.stream.keys[r.key as usize].clone(), r.cost))
                .collect()
        };
        match config.validate() {
            Ok(()) => {
                let back = back.unwrap();
                prop_assert_eq!(named(&back), named(&config));
                prop_assert_eq!((&back.lanes, back.window_ms), (&config.lanes, config.window_ms));
            }
            Err(e) => prop_assert_eq!(back.unwrap_err(), e),
        }
    }

    /// Arbitrary JSON never panics: it runs or it is a one-line error.
    #[test]
    fn arbitrary_input_never_panics(v in arb_input()) {
        match simulate_value(&v) {
            Ok(_) => {}
            Err(e) => prop_assert!(!e.is_empty() && !e.contains('\n'), "{e}"),
        }
    }
}

fn arb_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u64..20_000).prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        prop::sample::select(vec![
            "gcra",
            "nginx",
            "token_bucket",
            "leaky_queue",
            "fixed_window",
            "golden",
            "lab-c",
            "poisson",
            "custom",
            "manual",
            "",
            "x",
        ])
        .prop_map(Value::from),
    ]
}

fn arb_value() -> impl Strategy<Value = Value> {
    let keys = prop::sample::select(vec![
        "algorithm",
        "id",
        "limit",
        "period_ms",
        "burst",
        "delay",
        "nodelay",
        "t",
        "key",
        "cost",
        "requests",
        "limiters",
        "window_ms",
        "scenario",
        "seed",
        "load",
        "clients",
        "bogus",
    ]);
    arb_leaf().prop_recursive(3, 40, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::btree_map(keys.clone(), inner, 0..6).prop_map(|m| Value::Object(
                m.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            )),
        ]
    })
}

/// Mostly well-shaped inputs with random parts, so that the parser is exercised deep.
fn arb_input() -> impl Strategy<Value = Value> {
    let limiter = (
        prop::sample::select(Algorithm::ALL.map(|a| a.id()).to_vec()),
        arb_leaf(),
        arb_leaf(),
        prop::option::of(arb_leaf()),
    )
        .prop_map(|(a, limit, period, burst)| {
            let mut m = json!({"algorithm": a, "limit": limit, "period_ms": period});
            if let (Some(b), Some(obj)) = (burst, m.as_object_mut()) {
                obj.insert("burst".into(), b);
            }
            m
        });
    prop_oneof![
        arb_value(),
        (
            prop::collection::vec(arb_leaf(), 0..10),
            prop::collection::vec(limiter, 0..3)
        )
            .prop_map(|(r, l)| json!({"requests": r, "limiters": l})),
        (
            prop::sample::select(
                ratelab_sim::SCENARIOS
                    .iter()
                    .map(|s| s.id)
                    .collect::<Vec<_>>()
            ),
            prop::option::of(arb_leaf()),
        )
            .prop_map(|(id, limit)| match limit {
                // Keep the sizes small: a valid huge scenario is slow, not wrong.
                Some(l) if l.as_u64().is_none_or(|n| n < 50) => json!({"scenario": id, "limit": l}),
                _ => json!({"scenario": id}),
            }),
    ]
}

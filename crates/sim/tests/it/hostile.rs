//! Hostile input, the proptest layer: limiter parameters and request streams, the
//! JSON format, and the URL state, each against the oracle in `support/oracle.rs`
//! (which the cargo-fuzz targets in `fuzz/` share).
//!
//! Short by default (a few seconds each in a debug build, as part of `cargo test`);
//! `PROPTEST_CASES=20000 cargo test -p ratelab-sim --test it hostile::`, or
//! `cargo xtask fuzz --proptest-only`, runs it longer.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/oracle.rs"]
mod oracle;

use proptest::prelude::*;
use ratelab_sim::ratelab_core::{Algorithm, MAX_COUNT};
use ratelab_sim::share::{
    normalise_ids, Link, Setup, View, LANGS, MAX_ZOOM_EXP, MIN_ZOOM_EXP, SPEEDS_PERMILLE,
};
use ratelab_sim::{LaneSpec, Request, ScenarioId, Stream, LIMITER_FIELDS, REQUEST_FIELDS};
use serde_json::{json, Map, Value};

/// Cases per target: `PROPTEST_CASES`, else `default`.
fn cases(default: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases: n,
        // Failures are reported with the oracle's message; no files written.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------
// JSON values: plausible shapes with hostile leaves.

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0u64..20).prop_map(Value::from),
        (0u64..100_000).prop_map(Value::from),
        Just(json!(0)),
        Just(json!(-1)),
        Just(json!(-5.5)),
        Just(json!(1.5)),
        Just(json!(2.0)),
        Just(json!(1e20)),
        Just(json!(1e300)),
        Just(json!(4_294_967_295u64)),
        Just(json!(4_294_967_296u64)),
        Just(json!(9_007_199_254_740_991u64)),
        Just(json!(9_007_199_254_740_992u64)),
        Just(json!(u64::MAX)),
        Just(json!(i64::MIN)),
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => number(),
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => "\\PC{0,8}".prop_map(Value::String),
        1 => Just(json!("")),
        1 => Just(json!("a\nb")),
        1 => Just(json!([])),
        1 => Just(json!({})),
    ]
}

fn name(known: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::sample::select(known).prop_map(str::to_string),
        1 => "[a-z_]{0,6}",
        1 => "\\PC{0,4}",
    ]
}

fn algorithm_name() -> impl Strategy<Value = Value> {
    prop_oneof![
        8 => prop::sample::select(Algorithm::ALL.to_vec()).prop_map(|a| json!(a.id())),
        1 => Just(json!("leaky_bucket")),
        1 => leaf(),
    ]
}

fn limiter() -> impl Strategy<Value = Value> {
    let field = name(LIMITER_FIELDS).prop_flat_map(|k| {
        let v = match k.as_str() {
            "algorithm" => algorithm_name().boxed(),
            "nodelay" => prop_oneof![3 => any::<bool>().prop_map(Value::Bool), 1 => leaf()].boxed(),
            "id" => prop_oneof![3 => "[a-z]{1,3}".prop_map(Value::String), 1 => leaf()].boxed(),
            _ => prop_oneof![4 => (1u64..12).prop_map(Value::from), 1 => leaf()].boxed(),
        };
        (Just(k), v)
    });
    prop_oneof![
        12 => (algorithm_name(), prop::collection::vec(field, 0..5)).prop_map(|(a, fields)| {
            let mut m = Map::new();
            m.insert("algorithm".into(), a);
            m.insert("limit".into(), json!(5));
            m.insert("period_ms".into(), json!(1000));
            m.extend(fields);
            Value::Object(m)
        }),
        1 => leaf(),
    ]
}

fn request() -> impl Strategy<Value = Value> {
    let field = name(REQUEST_FIELDS).prop_flat_map(|k| {
        let v = match k.as_str() {
            "key" => prop_oneof![3 => "[ab]{0,2}".prop_map(Value::String), 1 => leaf()].boxed(),
            "cost" => prop_oneof![4 => (1u64..4).prop_map(Value::from), 1 => leaf()].boxed(),
            _ => prop_oneof![3 => (0u64..50).prop_map(Value::from), 1 => leaf()].boxed(),
        };
        (Just(k), v)
    });
    prop_oneof![
        6 => (0u64..50).prop_map(Value::from),
        2 => prop::collection::vec(field, 0..4).prop_map(|f| Value::Object(f.into_iter().collect())),
        1 => leaf(),
    ]
}

/// Requests are made roughly sorted (times accumulate) so that most streams pass
/// the sort check and reach the limiters.
fn requests() -> impl Strategy<Value = Value> {
    prop::collection::vec(request(), 0..40).prop_map(|items| {
        let mut t = 0u64;
        Value::Array(
            items
                .into_iter()
                .map(|v| match v {
                    Value::Number(n) if n.as_u64().is_some_and(|d| d < 50) => {
                        t += n.as_u64().unwrap_or(0);
                        json!(t)
                    }
                    other => other,
                })
                .collect(),
        )
    })
}

fn scenario_name() -> impl Strategy<Value = Value> {
    prop_oneof![
        8 => prop::sample::select(ScenarioId::ALL.to_vec())
            .prop_filter("the lab-d sweep is minutes of work", |id| *id != ScenarioId::LabD)
            .prop_map(|id| json!(id.id())),
        1 => leaf(),
    ]
}

fn top_value(key: &str) -> BoxedStrategy<Value> {
    match key {
        "requests" => prop_oneof![6 => requests(), 1 => leaf()].boxed(),
        "limiters" => prop_oneof![
            6 => prop::collection::vec(limiter(), 0..5).prop_map(Value::Array),
            1 => leaf(),
        ]
        .boxed(),
        "scenario" => scenario_name().boxed(),
        "load" => prop_oneof![
            3 => prop::sample::select(vec![0.5, 1.0, 1.25, 2.0]).prop_map(|f| json!(f)),
            1 => leaf(),
        ]
        .boxed(),
        "clients" | "seed" => {
            prop_oneof![3 => (1u64..4).prop_map(Value::from), 1 => leaf()].boxed()
        }
        "duration_ms" => {
            prop_oneof![3 => (1u64..30_000).prop_map(Value::from), 1 => leaf()].boxed()
        }
        "limit" => prop_oneof![3 => (1u64..20).prop_map(Value::from), 1 => leaf()].boxed(),
        _ => prop_oneof![3 => (1u64..20_000).prop_map(Value::from), 1 => leaf()].boxed(),
    }
}

fn top_field() -> impl Strategy<Value = (String, Value)> {
    name(ratelab_sim::TOP_FIELDS).prop_flat_map(|k| {
        let v = top_value(&k);
        (Just(k), v)
    })
}

fn config_text() -> impl Strategy<Value = String> {
    let object = prop_oneof![
        // Explicit: requests and limiters, sometimes more.
        4 => (requests(), prop::collection::vec(limiter(), 0..5), prop::collection::vec(top_field(), 0..3))
            .prop_map(|(r, l, extra)| {
                let mut m = Map::new();
                m.insert("requests".into(), r);
                m.insert("limiters".into(), Value::Array(l));
                m.extend(extra);
                Value::Object(m)
            }),
        // A scenario with overrides.
        3 => (scenario_name(), prop::collection::vec(top_field(), 0..4)).prop_map(|(s, extra)| {
            let mut m = Map::new();
            m.insert("scenario".into(), s);
            m.extend(extra);
            Value::Object(m)
        }),
        1 => prop::collection::vec(top_field(), 0..5).prop_map(|f| Value::Object(f.into_iter().collect())),
        1 => leaf(),
    ];
    // Sometimes the text itself is broken.
    (object, 0u8..10, any::<prop::sample::Index>(), "\\PC{0,2}").prop_map(
        |(v, damage, at, junk)| {
            let text = v.to_string();
            let cut = at.index(text.len() + 1);
            match damage {
                0 if text.is_char_boundary(cut) => {
                    format!("{}{junk}{}", &text[..cut], &text[cut..])
                }
                1 if text.is_char_boundary(cut) => text[..cut].to_string(),
                _ => text,
            }
        },
    )
}

// ---------------------------------------------------------------------------
// URL state: query strings from plausible pieces, and states a playground builds.

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => prop::sample::select(vec![
            "scenario", "limiters", "limit", "period", "window", "requests", "seed", "load",
            "clients", "duration", "t", "speed", "lang", "sel", "hl", "limit.0", "period.1",
            "burst.2", "delay.3", "nodelay.4", "burst.8", "zzz", "limit.x", "bogus.1", "",
        ])
        .prop_map(|k| format!("{k}=")),
        6 => prop::sample::select(vec![
            "golden", "custom", "poisson", "lab-c", "edge-burst", "manual", "2x-rate",
            "fixed_window,nginx,gcra", "token_bucket,token_bucket,leaky_queue,nginx",
            "sliding_log_logs_blocked", "10s", "1.5s", "2m", "1h", "500ms", "0", "1", "16x",
            "0.25", "vi", "fr", "NaN", "Infinity", "-1", "1e20", "100000000000000000000",
            "18446744073709551615", "9007199254740992", "0s,1s:a,1s:b:2", "5,1", "0:x:0",
            "%0A", "%E2%80%A8", "%", "%zz", "+",
        ])
        .prop_map(str::to_string),
        2 => prop::sample::select(vec!["&", ",", ":", ".", "="]).prop_map(str::to_string),
        1 => "[0-9]{1,6}",
        1 => "\\PC{0,6}",
    ]
}

fn query() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..24).prop_map(|v| v.concat())
}

/// A lane as a playground's controls make one: an algorithm, maybe its own budget,
/// maybe a burst / delay / nodelay where the algorithm has them.
fn lane() -> impl Strategy<Value = LaneSpec> {
    (
        prop::sample::select(Algorithm::ALL.to_vec()),
        prop::option::of((1u64..20, 1u64..30_000)),
        prop::option::of(0u64..15),
        prop::option::of(0u64..5),
        any::<bool>(),
    )
        .prop_map(|(a, budget, burst, delay, nodelay)| {
            let (limit, period) = budget.unwrap_or((5, 10_000));
            let mut l = LaneSpec::simple(a, limit, period);
            if a.uses_burst() {
                l.params.burst = burst.map(|b| if a == Algorithm::Nginx { b } else { b + 1 });
            }
            if a == Algorithm::Nginx {
                if nodelay {
                    l.params.nodelay = true;
                } else {
                    l.params.delay = delay;
                }
            }
            l
        })
}

/// A state built the way the playground builds one: a scenario's defaults, then its
/// controls (budget, lanes, options the scenario takes, the view).
fn state() -> impl Strategy<Value = Link> {
    (
        prop::sample::select(ScenarioId::ALL.to_vec()),
        prop::option::of((1u64..50, 1u64..100_000)),
        prop::option::of(prop::collection::vec(lane(), 1..=8)),
        prop::option::of(1u64..100_000),
        (
            prop::option::of(0u64..1000),
            prop::option::of(1u32..3000),
            prop::option::of(1u32..5),
            prop::option::of(1u64..60_000),
        ),
        prop::collection::vec((0u64..3000, 0u8..3, 1u32..3), 0..12),
        (
            0u64..10_000_000,
            prop::sample::select(SPEEDS_PERMILLE.to_vec()),
            prop::sample::select(LANGS.to_vec()),
            prop::option::of(0u64..100),
            any::<bool>(),
            (
                prop::option::of(MIN_ZOOM_EXP..=MAX_ZOOM_EXP),
                prop::option::of(any::<bool>()),
                prop::option::of(any::<bool>()),
            ),
        ),
    )
        .prop_map(|(id, budget, lanes, window, seeded, reqs, view)| {
            let mut s = Setup::for_scenario(id);
            if let Some((limit, period)) = budget {
                if s.takes("limit") {
                    s.set_budget(limit, period);
                }
            }
            if let Some(mut lanes) = lanes {
                normalise_ids(&mut lanes);
                s.lanes = lanes;
            }
            s.window_ms = window;
            let (seed, load, clients, duration) = seeded;
            s.seed = seed.filter(|_| s.takes("seed"));
            s.load_permille = load.filter(|_| s.takes("load"));
            s.clients = clients.filter(|_| s.takes("clients"));
            s.duration_ms = duration.filter(|_| s.takes("duration_ms"));
            if s.takes("requests") {
                // Keys numbered in order of appearance, as every reader numbers them.
                let mut stream = Stream::new();
                let mut t = 0;
                for (dt, key, cost) in reqs {
                    t += dt;
                    let name = ["", "a", "b,c:d"][usize::from(key)];
                    let key = match stream.keys.iter().position(|k| k == name) {
                        Some(k) => k as u32,
                        None => {
                            stream.keys.push(name.to_string());
                            stream.keys.len() as u32 - 1
                        }
                    };
                    stream.requests.push(Request { t, key, cost });
                }
                s.requests = stream;
            }
            let (t_ms, speed_permille, lang, selected, highlight, folds) = view;
            let (zoom, setup_open, catalog_open) = folds;
            Link {
                setup: s,
                view: View {
                    t_ms,
                    speed_permille,
                    lang,
                    selected,
                    highlight,
                    zoom,
                    setup_open,
                    catalog_open,
                },
            }
        })
}

proptest! {
    #![proptest_config(cases(3_000))]

    /// (a) Any algorithm, parameters, times (u64::MAX, backwards) and costs (0,
    /// u32::MAX) through every `Limiter` method: no panic, and the guarantees hold.
    #[test]
    fn limiters_hold_their_promises(data in prop::collection::vec(any::<u8>(), 0..700)) {
        let case = oracle::limiter_case(&data);
        if let Err(e) = oracle::check_limiter(&case) {
            prop_assert!(false, "{}", e);
        }
    }
}

proptest! {
    #![proptest_config(cases(1_500))]

    /// (b) Any text into the JSON format: no panic, a clear one-line error or a run.
    #[test]
    fn the_json_format_never_panics_and_explains(text in config_text()) {
        if let Err(e) = oracle::check_json(&text) {
            prop_assert!(false, "{}", e);
        }
    }

    /// (c) Any link: no panic, a runnable state, a notice for what was ignored, and a
    /// faithful round trip.
    #[test]
    fn links_fall_back_with_notices_and_round_trip(q in query()) {
        if let Err(e) = oracle::check_share(&q) {
            prop_assert!(false, "{}", e);
        }
    }
}

proptest! {
    #![proptest_config(cases(500))]

    /// (c) Whatever state the playground builds, its link reads back to it.
    #[test]
    fn every_state_the_playground_builds_round_trips(s in state()) {
        // A state the engine refuses (a cost above a lane's capacity, a run over
        // the playground's budget, ...) is never shown; the link of a shown one
        // must reproduce it.
        prop_assume!(s.setup.playground_config().is_ok());
        if let Err(e) = oracle::check_round_trip(&s) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// The caps the oracle checks parameters against are the engine's.
#[test]
fn the_oracle_knows_the_caps() {
    use ratelab_sim::ratelab_core::{AnyLimiter, Params};
    for a in Algorithm::ALL {
        for (limit, period) in [
            (0, 1),
            (1, 0),
            (MAX_COUNT, 1),
            (MAX_COUNT + 1, 1),
            (1, 1 << 53),
        ] {
            let p = Params::new(limit, period);
            assert_eq!(
                AnyLimiter::new(a, &p).is_ok(),
                oracle::params_are_valid(a, &p),
                "{} {p:?}",
                a.id()
            );
        }
    }
    assert!(oracle::is_clear_json_error(
        "limiters[2].period_ms: must be > 0"
    ));
    assert!(!oracle::is_clear_json_error("must be > 0"));
    assert!(!oracle::is_clear_json_error("scenario: a\nb"));
}

/// A lane re-added with its defaults where the scenario's own lane had options (lab
/// C's nginx lane without its burst of 11) must survive the link too.
#[test]
fn a_lane_back_at_its_defaults_round_trips() {
    let mut s = Link {
        setup: Setup::for_scenario(ScenarioId::LabC),
        view: View::default(),
    };
    s.setup.lanes[3] = LaneSpec::simple(Algorithm::Nginx, 10, 1_000);
    normalise_ids(&mut s.setup.lanes);
    assert!(s.setup.to_config().is_ok());
    oracle::check_round_trip(&s).unwrap();
}

//! The share-state parser is fed whatever a link, an attribute or a JS option holds:
//! it must never panic, and whatever it returns must survive a round trip through
//! `to_query` unchanged and without a notice.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use ratelab_sim::share::{parse, parse_pairs, to_query};

/// Pieces that make plausible (and implausible) query strings.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("scenario=".to_string()),
        Just("limiters=".to_string()),
        Just("limit=".to_string()),
        Just("period=".to_string()),
        Just("burst.1=".to_string()),
        Just("delay.2=".to_string()),
        Just("nodelay.2=1".to_string()),
        Just("limit.0=".to_string()),
        Just("requests=".to_string()),
        Just("t=".to_string()),
        Just("speed=".to_string()),
        Just("seed=".to_string()),
        Just("load=".to_string()),
        Just("clients=".to_string()),
        Just("window=".to_string()),
        Just("duration=".to_string()),
        Just("service".to_string()),
        Just("noisy=".to_string()),
        Just("retry=".to_string()),
        Just("retry_after".to_string()),
        Just("backoff=".to_string()),
        Just("attempts=".to_string()),
        Just("key=global".to_string()),
        Just("instances=".to_string()),
        Just("balance=random".to_string()),
        Just("store=local".to_string()),
        Just("outage=".to_string()),
        Just("20s-40s".to_string()),
        Just("on_outage=fallback".to_string()),
        Just("fallback=".to_string()),
        Just("golden".to_string()),
        Just("custom".to_string()),
        Just("poisson".to_string()),
        Just("lab-c".to_string()),
        Just("edge-burst".to_string()),
        Just("fixed_window,nginx,gcra".to_string()),
        Just("token_bucket,token_bucket".to_string()),
        Just("sliding_log_logs_blocked".to_string()),
        Just("&".to_string()),
        Just(",".to_string()),
        Just(":".to_string()),
        Just("%".to_string()),
        Just("%2C".to_string()),
        Just("10s".to_string()),
        Just("1.5s".to_string()),
        Just("0".to_string()),
        Just("NaN".to_string()),
        Just("-1".to_string()),
        Just("1e20".to_string()),
        Just("18446744073709551616".to_string()),
        "[0-9]{1,6}",
        "\\PC{0,6}",
    ]
}

fn query() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn parsing_never_panics_and_round_trips(q in query()) {
        let (state, _) = parse(&q);
        prop_assert!((1..=ratelab_sim::share::MAX_PLAYGROUND_LANES).contains(&state.setup.lanes.len()));
        prop_assert!(state.setup.to_config().is_ok());
        let again = to_query(&state.setup, &state.view);
        let (back, notices) = parse(&again);
        prop_assert_eq!(notices, vec![], "{} → {}", q, again);
        prop_assert_eq!(back, state);
    }

    #[test]
    fn arbitrary_bytes_never_panic(q in "\\PC{0,80}") {
        let _ = parse(&q);
    }

    #[test]
    fn arbitrary_pairs_never_panic(pairs in prop::collection::vec(("\\PC{0,12}", "\\PC{0,24}"), 0..8)) {
        let _ = parse_pairs(&pairs);
    }
}

/// The `service` scenario's knobs: read from a link, run as they say, written back.
#[test]
#[cfg(feature = "services")]
fn a_service_link_runs_the_service_it_describes() {
    use ratelab_sim::run;
    let q = "scenario=service&limiters=sliding_log&noisy=8&retry=none&instances=3&store=local";
    let (link, notices) = parse(q);
    assert_eq!(notices, vec![]);
    let report = run(&link.setup.to_config().unwrap()).unwrap();
    let services = report.services.unwrap();
    // Client 0 asks for 32 per second against 10 per second; three instances that
    // count on their own let 30 of them through in a second.
    assert_eq!(services[0].yardstick.clients[0].max_in_1s, 30);
    assert_eq!(services[0].yardstick.max_in_1s_per_key, 30);
    let again = to_query(&link.setup, &link.view);
    assert_eq!(parse(&again), (link.clone(), vec![]));
    // One shared store: the limit holds.
    let (shared, _) = parse(&format!("{q}&store=shared"));
    let report = run(&shared.setup.to_config().unwrap()).unwrap();
    assert_eq!(
        report.services.unwrap()[0].yardstick.clients[0].max_in_1s,
        10
    );
}

#[test]
fn service_knobs_that_cannot_be_used_fall_back_with_a_notice() {
    let reason =
        |q: &str| -> Vec<String> { parse(q).1.into_iter().map(|n| n.to_string()).collect() };
    assert_eq!(
        reason("scenario=golden&retry=fixed"),
        vec!["retry=fixed: only scenario \"service\" takes it (not \"golden\"); ignored"]
    );
    if !cfg!(feature = "services") {
        return;
    }
    assert_eq!(
        reason("scenario=service&outage=40s-20s"),
        vec!["outage=40s-20s: 40s-20s ends before it starts; using the default"]
    );
    assert_eq!(
        reason("scenario=service&outage=10s-20s,15s-30s"),
        vec!["outage=10s-20s,15s-30s: spans must be in order and apart, 15s-30s is not after the one before; using the default"]
    );
    assert_eq!(
        reason("scenario=service&clients=5000"),
        vec!["clients=5000: 5000 is too many (a service has at most 1000 clients); using the default"]
    );
    assert_eq!(
        reason("scenario=service&retry=sometimes&attempts=21&key=ip"),
        vec![
            "retry=sometimes: must be one of none, immediately, fixed, exponential, full_jitter, retry_after; using the default",
            "attempts=21: 21 is too large (at most 20); using the default",
            "key=ip: must be one of client, global, client_route; using the default",
        ]
    );
}

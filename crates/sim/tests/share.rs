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

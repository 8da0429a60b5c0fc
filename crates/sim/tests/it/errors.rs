//! Every error message of the JSON format, exactly: one line naming the path.

use ratelab_sim::{simulate_json, MAX_REQUESTS};

const ALGORITHMS: &str = "fixed_window, fixed_window_anchored, sliding_log, sliding_window_counter, token_bucket, leaky_queue, gcra, nginx, sliding_log_logs_blocked, token_bucket_f64";

fn err(input: &str) -> String {
    match simulate_json(input) {
        Ok(out) => panic!("expected an error for {input}, got {out}"),
        Err(e) => {
            assert!(!e.contains('\n'), "not one line: {e}");
            e
        }
    }
}

/// An input with these limiters and requests.
fn with(limiters: &str, requests: &str) -> String {
    format!(r#"{{"requests": {requests}, "limiters": {limiters}}}"#)
}

const GCRA: &str = r#"{"algorithm": "gcra", "limit": 5, "period_ms": 1000}"#;

#[test]
fn zero_period() {
    let lim =
        format!(r#"[{GCRA}, {GCRA}, {{"algorithm": "token_bucket", "limit": 5, "period_ms": 0}}]"#);
    assert_eq!(
        err(&with(&lim, "[1]").replace(r#""gcra", "limit""#, r#""gcra", "id": "x", "limit""#)),
        "limiters[1].id: duplicate id \"x\""
    );
    let lim = format!(
        r#"[{GCRA}, {{"algorithm": "sliding_log", "limit": 5, "period_ms": 10}}, {{"algorithm": "token_bucket", "limit": 5, "period_ms": 0}}]"#
    );
    assert_eq!(
        err(&with(&lim, "[1]")),
        "limiters[2].period_ms: must be > 0"
    );
}

#[test]
fn unknown_field() {
    let lim = r#"[{"algorithm": "token_bucket", "limit": 5, "period_ms": 1000, "burts": 3}]"#;
    assert_eq!(
        err(&with(lim, "[1]")),
        "limiters[0].burts: unknown field (expected one of algorithm, id, limit, period_ms, burst, delay, nodelay)"
    );
    assert_eq!(
        err(r#"{"requests": [1], "limiters": [], "windw_ms": 5}"#),
        "windw_ms: unknown field (expected one of requests, limiters, window_ms, scenario, limit, period_ms, seed, load, clients, duration_ms, services, responses)"
    );
    assert_eq!(
        err(&with(&format!("[{GCRA}]"), r#"[{"t": 1, "coast": 2}]"#)),
        "requests[0].coast: unknown field (expected one of t, key, cost)"
    );
}

#[test]
fn unknown_algorithm() {
    let lim =
        format!(r#"[{GCRA}, {{"algorithm": "leaky_bucket", "limit": 5, "period_ms": 1000}}]"#);
    assert_eq!(
        err(&with(&lim, "[1]")),
        format!("limiters[1].algorithm: unknown algorithm \"leaky_bucket\" (expected one of {ALGORITHMS})")
    );
    assert_eq!(
        err(&with(r#"[{"limit": 5, "period_ms": 1000}]"#, "[1]")),
        format!("limiters[0].algorithm: required (one of {ALGORITHMS})")
    );
}

#[test]
fn negative_and_fractional_times() {
    let lim = format!("[{GCRA}]");
    assert_eq!(
        err(&with(&lim, "[0, 1, 2, -5]")),
        "requests[3]: must be an integer ≥ 0, got -5"
    );
    assert_eq!(
        err(&with(&lim, "[0, 1, 2, 1.5]")),
        "requests[3]: must be an integer number of ms, got 1.5"
    );
    assert_eq!(
        err(&with(&lim, r#"[0, 1, 2, {"t": -5}]"#)),
        "requests[3].t: must be an integer ≥ 0, got -5"
    );
    assert_eq!(
        err(&with(&lim, r#"[0, "5"]"#)),
        r#"requests[1]: must be a time in ms or an object like {"t": 1000, "key": "a", "cost": 1}, got "5""#
    );
    assert_eq!(
        err(&with(&lim, "[9007199254740992]")),
        "requests[0]: 9007199254740992 is too large (at most 9007199254740991)"
    );
    // A whole number is written as digits: `2.0` and `2e0` are refused, as written.
    assert_eq!(
        err(&with(&lim, "[0, 2.0, 2e0]")),
        "requests[1]: must be an integer number of ms written with digits only (no point or exponent), got 2.0"
    );
}

#[test]
fn numbers_too_large() {
    let lim =
        r#"[{"algorithm": "fixed_window", "limit": 100000000000000000000, "period_ms": 1000}]"#;
    assert_eq!(
        err(&with(lim, "[1]")),
        "limiters[0].limit: 100000000000000000000 is too large (at most 4294967295)"
    );
    // Within u64 but over u32: the same words, from the engine.
    let lim = r#"[{"algorithm": "fixed_window", "limit": 5000000000, "period_ms": 1000}]"#;
    assert_eq!(
        err(&with(lim, "[1]")),
        "limiters[0].limit: 5000000000 is too large (at most 4294967295)"
    );
    let lim = r#"[{"algorithm": "fixed_window", "limit": "5", "period_ms": 1000}]"#;
    assert_eq!(
        err(&with(lim, "[1]")),
        "limiters[0].limit: must be an integer, got \"5\""
    );
    let lim = r#"[{"algorithm": "fixed_window", "limit": 5}]"#;
    assert_eq!(err(&with(lim, "[1]")), "limiters[0].period_ms: required");
}

#[test]
fn unsorted_requests() {
    let lim = format!("[{GCRA}]");
    assert_eq!(
        err(&with(&lim, r#"[0, 1, 2, 3, {"t": 200}, {"t": 100}]"#)),
        "requests[5].t: 100 comes before requests[4].t = 200 (requests must be sorted by time)"
    );
    assert_eq!(
        err(&with(&lim, "[0, 1, 2, 3, 200, 100]")),
        "requests[5]: 100 comes before requests[4] = 200 (requests must be sorted by time)"
    );
}

#[test]
fn duplicate_ids() {
    let lim = r#"[
        {"algorithm": "fixed_window", "limit": 5, "period_ms": 1000},
        {"algorithm": "sliding_log", "limit": 5, "period_ms": 1000},
        {"algorithm": "gcra", "limit": 5, "period_ms": 1000},
        {"algorithm": "gcra", "id": "fixed_window", "limit": 5, "period_ms": 1000}
    ]"#;
    assert_eq!(
        err(&with(lim, "[1]")),
        "limiters[3].id: duplicate id \"fixed_window\""
    );
    // Unnamed lanes of the same algorithm are numbered instead.
    let lim = r#"[
        {"algorithm": "gcra", "limit": 5, "period_ms": 1000},
        {"algorithm": "gcra", "limit": 6, "period_ms": 1000}
    ]"#;
    let out = simulate_json(&with(lim, "[1]")).unwrap();
    assert!(
        out.contains(r#""id":"gcra","#) && out.contains(r#""id":"gcra-2","#),
        "{out}"
    );
}

#[test]
fn scenarios() {
    assert_eq!(
        err(r#"{"scenario": "golen"}"#),
        "scenario: unknown scenario \"golen\" (expected one of edge-burst-demo, edge-burst, 2x-rate, per-second, burst-then-drip, manual, golden, swc-late, swc-early, ten-at-once, float-edge, lab-a, lab-b, lab-c, lab-d, lab-e, poisson, custom, noisy-neighbour, retry-storm, instances, store-outage, page-load, stacked-limits, expensive-route, service)"
    );
    assert_eq!(
        err(r#"{"scenario": "golden", "seed": 3}"#),
        "seed: not used by scenario \"golden\" (it takes limiters, window_ms)"
    );
    assert_eq!(
        err(r#"{"scenario": 5}"#),
        "scenario: must be a string, got 5"
    );
    assert_eq!(
        err(r#"{"scenario": "poisson", "load": 0}"#),
        "load: must be a number > 0, got 0"
    );
    assert_eq!(
        err(r#"{"scenario": "poisson", "clients": 1000, "load": 100, "duration_ms": 6000000}"#),
        "scenario: this traffic would make about 1000000000 requests, more than 2000000 (lower clients, load or duration_ms)"
    );
    assert_eq!(
        err(r#"{"scenario": "edge-burst", "limit": 0}"#),
        "limit: must be > 0"
    );
    assert_eq!(
        err(r#"{"scenario": "2x-rate", "limit": 1000000}"#),
        "limit: 2x-rate would make 6000000 requests (at most 2000000)"
    );
    assert_eq!(
        err(r#"{"scenario": "custom"}"#),
        "limiters: required by scenario \"custom\" (an array of limiters)"
    );
    assert_eq!(
        err(r#"{"requests": [1], "limiters": [], "seed": 1}"#),
        "seed: only used with a \"scenario\" (see `ratelab scenarios`)"
    );
}

#[test]
fn empty_or_missing_limiters() {
    assert_eq!(
        err(r#"{"requests": [1], "limiters": []}"#),
        "limiters: must not be empty"
    );
    assert_eq!(
        err(r#"{"requests": [1]}"#),
        "limiters: required (an array of limiters), or give a \"scenario\""
    );
    assert_eq!(
        err(r#"{"limiters": []}"#),
        "requests: required (an array of times in ms), or give a \"scenario\""
    );
    assert_eq!(
        err(r#"{"requests": [1], "limiters": {}}"#),
        "limiters: must be an array, got an object"
    );
    assert_eq!(
        err(r#"{"requests": [1], "limiters": [5]}"#),
        r#"limiters[0]: must be an object like {"algorithm": "token_bucket", "limit": 5, "period_ms": 10000}, got 5"#
    );
}

#[test]
fn too_many_requests() {
    let times = vec!["0"; MAX_REQUESTS + 1].join(",");
    assert_eq!(
        err(&with(&format!("[{GCRA}]"), &format!("[{times}]"))),
        "requests: 2000001 requests is too many (at most 2000000)"
    );
}

#[test]
fn not_an_object_and_not_json() {
    assert_eq!(
        err("[1, 2]"),
        r#"the input must be a JSON object ({"requests": [...], "limiters": [...]} or {"scenario": "..."}), got an array"#
    );
    assert_eq!(
        err(""),
        "invalid JSON: EOF while parsing a value at line 1 column 0"
    );
    assert_eq!(
        err("{\"requests\": [1,\n 2,]}"),
        "invalid JSON: trailing comma at line 2 column 4"
    );
}

#[test]
fn options_an_algorithm_does_not_have() {
    let lim = r#"[{"algorithm": "fixed_window", "limit": 5, "period_ms": 1000, "burst": 3}]"#;
    assert_eq!(
        err(&with(lim, "[1]")),
        "limiters[0].burst: fixed_window takes no burst (only token_bucket, leaky_queue, gcra, nginx, token_bucket_f64)"
    );
    let lim = r#"[{"algorithm": "gcra", "limit": 5, "period_ms": 1000, "nodelay": true}]"#;
    assert_eq!(
        err(&with(lim, "[1]")),
        "limiters[0].nodelay: gcra takes no nodelay (only nginx)"
    );
    let lim = r#"[{"algorithm": "nginx", "limit": 5, "period_ms": 1000, "nodelay": 1}]"#;
    assert_eq!(
        err(&with(lim, "[1]")),
        "limiters[0].nodelay: must be true or false, got 1"
    );
    let lim = r#"[{"algorithm": "gcra", "limit": 5, "period_ms": 1000, "burst": 0}]"#;
    assert_eq!(err(&with(lim, "[1]")), "limiters[0].burst: must be > 0");
}

#[test]
fn costs() {
    let lim = format!("[{GCRA}]");
    assert_eq!(
        err(&with(&lim, r#"[{"t": 1, "cost": 0}]"#)),
        "requests[0].cost: must be > 0"
    );
    assert_eq!(
        err(&with(&lim, r#"[1, {"t": 2, "cost": 6}]"#)),
        "requests[1].cost: 6 exceeds what this limiter can ever allow at once (5), so it could never pass (limiters[0], id \"gcra\")"
    );
    assert_eq!(
        err(&with(&lim, r#"[{"t": 1, "key": 7}]"#)),
        "requests[0].key: must be a string, got 7"
    );
}

#[path = "support/bad_inputs.rs"]
mod bad_inputs;

/// SPEC's list of bad input (zero, negative, NaN, Infinity, empty strings, 10^20,
/// backwards, 10^7 requests, unknown algorithm, duplicated ids, unknown fields,
/// wrong types, huge costs, u64::MAX times), each with its exact message. The CLI
/// test runs the same table through the binary.
#[test]
fn every_kind_of_bad_input_has_its_message() {
    let mut wrong = Vec::new();
    for (what, input, message) in bad_inputs::cases() {
        let got = err(&input);
        if got != message {
            wrong.push(format!(
                "{what}:\n  input    {input}\n  expected {message}\n  got      {got}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Ten million requests written out: refused by count, after parsing, with the same
/// message as two million and one.
#[test]
fn ten_million_requests_are_refused() {
    let times = "0,".repeat(10_000_000);
    let input = with(&format!("[{GCRA}]"), &format!("[{}0]", times));
    assert_eq!(
        err(&input),
        "requests: 10000001 requests is too many (at most 2000000)"
    );
}

/// A live limiter's request (the JS API's `check(now, cost, key)`) and its lane
/// (`limiter(config)`) get the messages of a request and a lane of the format.
#[test]
fn a_live_request_is_checked_as_a_request_is() {
    use ratelab_sim::{live_request, LaneSpec};
    use serde_json::json;
    let err = |now: serde_json::Value,
               cost: Option<serde_json::Value>,
               key: Option<serde_json::Value>| {
        live_request(&now, cost.as_ref(), key.as_ref())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        live_request(&json!(5), None, None).unwrap(),
        (5, 1, String::new())
    );
    assert_eq!(
        live_request(&json!(5), Some(&json!(3)), Some(&json!("a"))).unwrap(),
        (5, 3, "a".to_string())
    );
    assert_eq!(
        err(json!(-1), None, None),
        "now: must be an integer ≥ 0, got -1"
    );
    assert_eq!(
        err(json!(1.5), None, None),
        "now: must be an integer number of ms, got 1.5"
    );
    assert_eq!(
        err(json!(1u64 << 53), None, None),
        "now: 9007199254740992 is too large (at most 9007199254740991)"
    );
    assert_eq!(err(json!(0), Some(json!(0)), None), "cost: must be > 0");
    assert_eq!(
        err(json!(0), None, Some(json!("k".repeat(65)))),
        "key: must be at most 64 characters"
    );
    assert_eq!(
        LaneSpec::from_value(&json!({"algorithm": "gcra", "limit": 0, "period_ms": 1000}))
            .unwrap_err()
            .to_string(),
        "limit: must be > 0"
    );
    let lane = LaneSpec::from_value(
        &json!({"algorithm": "gcra", "limit": 5, "period_ms": 1000, "burst": 2}),
    )
    .unwrap();
    assert_eq!(
        lane,
        LaneSpec::from_json(r#"{"algorithm": "gcra", "limit": 5, "period_ms": 1000, "burst": 2}"#)
            .unwrap()
    );
}

#[test]
fn responses_are_asked_with_a_boolean_and_not_of_a_service_run() {
    let input = |v: &str| format!(r#"{{"requests": [1], "limiters": [{GCRA}], "responses": {v}}}"#);
    assert_eq!(err(&input("1")), "responses: must be true or false, got 1");
    assert_eq!(
        err(&input(r#""yes""#)),
        "responses: must be true or false, got \"yes\""
    );
    assert!(simulate_json(&input("false"))
        .unwrap()
        .contains("\"state_numbers\""));
    assert!(!simulate_json(&input("false"))
        .unwrap()
        .contains("\"responses\""));
    // With a scenario, and not with a service run (a scenario's or one's own).
    assert!(
        simulate_json(r#"{"scenario": "golden", "responses": true}"#)
            .unwrap()
            .contains("\"responses\":[{\"status\":200")
    );
    assert_eq!(
        err(r#"{"scenario": "retry-storm", "responses": true}"#),
        "responses: not used with a service run (it has no response per request)"
    );
    assert!(err(r#"{"services": [], "responses": true}"#)
        .starts_with("responses: not used with \"services\""));
}

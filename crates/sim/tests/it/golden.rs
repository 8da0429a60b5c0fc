//! SPEC's golden table, through the JSON path the CLI and the JS API use.

use ratelab_sim::{run, scenario, simulate_json, Config, Overrides, ScenarioId};
use serde_json::Value;

/// (id, decisions, passed, max in 10 s) from SPEC.md.
const TABLE: [(&str, &str, u64, u64); 7] = [
    ("fixed_window", "✓✓✓✓✓✗✓✓✓✓✓✗", 10, 9),
    ("fixed_window_anchored", "✓✓✓✓✓✗✗✗✗✗✓✓", 7, 5),
    ("sliding_log", "✓✓✓✓✓✗✗✗✗✗✓✓", 7, 5),
    ("sliding_window_counter", "✓✓✓✓✓✗✓✗✗✗✓✓", 8, 6),
    ("token_bucket", "✓✓✓✓✓✓✓✗✗✓✓✓", 10, 8),
    ("leaky_queue", "✓✓✓✓✓✓✓✓✗✓✓✓", 11, 9),
    ("gcra", "✓✓✓✓✓✓✓✗✗✓✓✓", 10, 8),
];

/// Leaky-queue waits in ms (`null` = denied): 0 0 1.0 2.0 3.5 5.2 6.9 8.6 – 9.8 8.0 5.5 s.
const LEAKY_WAITS: &str = "[0,0,1000,2000,3500,5200,6900,8600,null,9800,8000,5500]";

fn marks(result: &Value) -> String {
    result["allowed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| if a.as_bool().unwrap() { '✓' } else { '✗' })
        .collect()
}

fn check_table(out: &str) {
    let report: Value = serde_json::from_str(out).unwrap();
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), 7);
    for (r, (id, decisions, passed, max)) in results.iter().zip(TABLE) {
        assert_eq!(r["id"], id);
        assert_eq!(marks(r), decisions, "{id}");
        assert_eq!(r["passed"], passed, "{id}");
        assert_eq!(r["blocked"], 12 - passed, "{id}");
        assert_eq!(r["max_in_window"], max, "{id}");
        assert_eq!(r["window_ms"], 10_000);
    }
    let leaky = &results[5];
    assert_eq!(leaky["wait_ms"].to_string(), LEAKY_WAITS);
    assert_eq!(leaky["longest_wait_ms"], 9800);
    assert_eq!(leaky["params"]["burst"], 5);
    // Meters never delay; their departures are their arrivals.
    assert_eq!(results[6]["longest_wait_ms"], 0);
    assert_eq!(results[6]["max_in_window_departures"], Value::Null);
}

#[test]
fn the_golden_scenario_reproduces_the_spec_table() {
    check_table(&simulate_json(r#"{"scenario": "golden"}"#).unwrap());
}

#[test]
fn explicit_requests_reproduce_the_spec_table() {
    let input = r#"{
        "requests": [2000, 7000, 8000, 9000, 9500, 9800, 10100, 10400, 10700, 11200, 15000, 19500],
        "limiters": [
            {"algorithm": "fixed_window", "limit": 5, "period_ms": 10000},
            {"algorithm": "fixed_window_anchored", "limit": 5, "period_ms": 10000},
            {"algorithm": "sliding_log", "limit": 5, "period_ms": 10000},
            {"algorithm": "sliding_window_counter", "limit": 5, "period_ms": 10000},
            {"algorithm": "token_bucket", "limit": 5, "period_ms": 10000, "burst": 5},
            {"algorithm": "leaky_queue", "limit": 5, "period_ms": 10000, "burst": 5},
            {"algorithm": "gcra", "limit": 5, "period_ms": 10000, "burst": 5}
        ],
        "window_ms": 10000
    }"#;
    check_table(&simulate_json(input).unwrap());
}

#[test]
fn object_requests_read_the_same_as_bare_times() {
    let input = r#"{
        "requests": [2000, {"t": 7000}, {"t": 8000, "key": ""}, {"t": 9000, "cost": 1},
                     9500, 9800, 10100, 10400, 10700, 11200, 15000, 19500],
        "limiters": [
            {"algorithm": "fixed_window", "limit": 5, "period_ms": 10000},
            {"algorithm": "fixed_window_anchored", "limit": 5, "period_ms": 10000},
            {"algorithm": "sliding_log", "limit": 5, "period_ms": 10000},
            {"algorithm": "sliding_window_counter", "limit": 5, "period_ms": 10000},
            {"algorithm": "token_bucket", "limit": 5, "period_ms": 10000},
            {"algorithm": "leaky_queue", "limit": 5, "period_ms": 10000},
            {"algorithm": "gcra", "limit": 5, "period_ms": 10000}
        ]
    }"#;
    check_table(&simulate_json(input).unwrap());
}

#[test]
fn the_output_fields_come_in_the_documented_order() {
    let out =
        simulate_json(r#"{"scenario": "golden", "limiters": [{"algorithm": "leaky_queue"}]}"#)
            .unwrap();
    let expected = concat!(
        r#"{"results":[{"id":"leaky_queue","algorithm":"leaky_queue","#,
        r#""params":{"limit":5,"period_ms":10000,"burst":5,"delay":null,"nodelay":false},"#,
        r#""allowed":[true,true,true,true,true,true,true,true,false,true,true,true],"#,
        r#""wait_ms":[0,0,1000,2000,3500,5200,6900,8600,null,9800,8000,5500],"#,
        r#""passed":11,"blocked":1,"max_in_window":9,"window_ms":10000,"max_in_1s":4,"#,
        r#""max_in_window_departures":5,"longest_wait_ms":9800,"histogram_10s":[6,5],"#,
        r#""keys":1,"state_numbers":1}],"scenario":"golden","request_count":12}"#
    );
    assert_eq!(out, expected);
}

#[test]
fn the_typed_path_agrees_and_exports_round_trip() {
    let config = scenario(ScenarioId::Golden, &Overrides::default()).unwrap();
    let report = run(&config).unwrap();
    for (lane, (id, decisions, passed, max)) in report.results.iter().zip(TABLE) {
        assert_eq!((lane.id.as_str(), lane.marks().as_str()), (id, decisions));
        assert_eq!(
            (lane.yardstick.passed, lane.yardstick.max_in_window),
            (passed, max)
        );
    }
    let exported = config.to_json();
    let back = Config::from_json(&exported).unwrap();
    assert_eq!((back.stream, back.lanes), (config.stream, config.lanes));
    assert_eq!(
        simulate_json(&exported).unwrap(),
        simulate_json(r#"{"scenario": "golden"}"#)
            .unwrap()
            .replace(r#""scenario":"golden""#, r#""scenario":null"#)
    );
}

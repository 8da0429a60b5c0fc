//! Every kind of bad input SPEC.md lists (and a few found by fuzzing), as JSON, with
//! the exact one-line message each must give. Shared by `tests/errors.rs` (through
//! `simulate_json`) and the CLI's `tests/hostile.rs` (through the binary: status 2,
//! `error: <message>`), so both faces are held to the same words.
//!
//! NaN and Infinity cannot be written in JSON text (they are invalid JSON, pinned
//! below); the JS API turns them away on the JS side.
#![allow(dead_code)]

/// `(what, input, message)`.
pub type Case = (&'static str, String, String);

const ALGORITHMS: &str = "fixed_window, fixed_window_anchored, sliding_log, sliding_window_counter, token_bucket, leaky_queue, gcra, nginx, sliding_log_logs_blocked, token_bucket_f64";

const TOP: &str =
    "requests, limiters, window_ms, scenario, limit, period_ms, seed, load, clients, duration_ms, services, responses";

/// One limiter (`{"algorithm": "gcra", "limit": 5, "period_ms": 1000, <extra>}`) fed
/// `requests`.
fn gcra(extra: &str, requests: &str) -> String {
    format!(
        r#"{{"requests": {requests}, "limiters": [{{"algorithm": "gcra", "limit": 5, "period_ms": 1000{extra}}}]}}"#
    )
}

/// A limiter object `limiter` fed `[1]`.
fn lim(limiter: &str) -> String {
    format!(r#"{{"requests": [1], "limiters": [{limiter}]}}"#)
}

/// One service (clients `clients`, one gcra limit, `extra` fields) as a run.
fn svc(clients: &str, extra: &str) -> String {
    format!(
        r#"{{"services": [{{"clients": {clients}, "limits": [{{"algorithm": "gcra", "limit": 5, "period_ms": 1000}}]{extra}}}]}}"#
    )
}

/// A client named `a` sending at 0 and 5 ms, with `extra` fields.
fn one(extra: &str) -> String {
    format!(r#"[{{"name": "a", "demand": {{"kind": "times", "times": [0, 5]}}{extra}}}]"#)
}

pub fn cases() -> Vec<Case> {
    let too_large_time = "is too large (at most 9007199254740991)";
    vec![
        // Zero.
        ("zero limit", lim(r#"{"algorithm": "sliding_log", "limit": 0, "period_ms": 1000}"#),
            "limiters[0].limit: must be > 0".into()),
        ("zero period", lim(r#"{"algorithm": "token_bucket", "limit": 5, "period_ms": 0}"#),
            "limiters[0].period_ms: must be > 0".into()),
        ("zero burst", gcra(r#", "burst": 0"#, "[1]"), "limiters[0].burst: must be > 0".into()),
        ("zero window", r#"{"requests": [1], "limiters": [{"algorithm": "gcra", "limit": 5, "period_ms": 1000}], "window_ms": 0}"#.into(),
            "window_ms: must be > 0".into()),
        ("zero cost", gcra("", r#"[{"t": 1, "cost": 0}]"#), "requests[0].cost: must be > 0".into()),
        ("zero clients", r#"{"scenario": "poisson", "clients": 0}"#.into(), "clients: must be > 0".into()),
        ("zero load", r#"{"scenario": "poisson", "load": 0}"#.into(), "load: must be a number > 0, got 0".into()),
        // Negative.
        ("negative limit", lim(r#"{"algorithm": "fixed_window", "limit": -5, "period_ms": 1000}"#),
            "limiters[0].limit: must be an integer ≥ 0, got -5".into()),
        ("negative time", gcra("", "[0, -1]"), "requests[1]: must be an integer ≥ 0, got -1".into()),
        ("negative cost", gcra("", r#"[{"t": 1, "cost": -2}]"#),
            "requests[0].cost: must be an integer ≥ 0, got -2".into()),
        ("negative fractional period", lim(r#"{"algorithm": "gcra", "limit": 5, "period_ms": -0.5}"#),
            "limiters[0].period_ms: must be an integer ≥ 0, got -0.5".into()),
        ("negative load", r#"{"scenario": "poisson", "load": -1.5}"#.into(), "load: must be a number > 0, got -1.5".into()),
        // NaN and Infinity are not JSON.
        ("NaN", lim(r#"{"algorithm": "gcra", "limit": NaN, "period_ms": 1000}"#),
            "invalid JSON: expected value at line 1 column 63".into()),
        ("Infinity", gcra("", "[Infinity]"), "invalid JSON: expected value at line 1 column 15".into()),
        ("a huge exponent", gcra("", "[1e400]"), "invalid JSON: number out of range at line 1 column 19".into()),
        // Empty strings.
        ("empty input", String::new(), "invalid JSON: EOF while parsing a value at line 1 column 0".into()),
        ("empty algorithm", lim(r#"{"algorithm": "", "limit": 5, "period_ms": 1000}"#),
            format!(r#"limiters[0].algorithm: unknown algorithm "" (expected one of {ALGORITHMS})"#)),
        ("empty id", gcra(r#", "id": """#, "[1]"), "limiters[0].id: must not be empty".into()),
        ("empty scenario", r#"{"scenario": ""}"#.into(),
            "scenario: unknown scenario \"\" (expected one of edge-burst-demo, edge-burst, 2x-rate, per-second, burst-then-drip, manual, golden, swc-late, swc-early, ten-at-once, float-edge, lab-a, lab-b, lab-c, lab-d, lab-e, poisson, custom, noisy-neighbour, retry-storm, instances, store-outage, page-load, stacked-limits, expensive-route, service)".into()),
        ("an empty field name", r#"{"": 1, "scenario": "golden"}"#.into(),
            format!(r#""": unknown field (expected one of {TOP})"#)),
        ("empty time", gcra("", r#"[""]"#),
            r#"requests[0]: must be a time in ms or an object like {"t": 1000, "key": "a", "cost": 1}, got """#.into()),
        // 10^20.
        ("10^20 limit", lim(r#"{"algorithm": "fixed_window", "limit": 100000000000000000000, "period_ms": 1000}"#),
            "limiters[0].limit: 100000000000000000000 is too large (at most 4294967295)".into()),
        ("10^20 period as a float", lim(r#"{"algorithm": "fixed_window", "limit": 1, "period_ms": 1e20}"#),
            "limiters[0].period_ms: 1e20 is too large (at most 9007199254740991)".into()),
        ("10^20 time", gcra("", "[100000000000000000000]"),
            format!("requests[0]: 100000000000000000000 {too_large_time}")),
        ("10^20 cost", gcra("", r#"[{"t": 0, "cost": 100000000000000000000}]"#),
            "requests[0].cost: 100000000000000000000 is too large (at most 4294967295)".into()),
        ("10^20 window", r#"{"scenario": "golden", "window_ms": 100000000000000000000}"#.into(),
            "window_ms: 100000000000000000000 is too large (at most 9007199254740991)".into()),
        ("10^20 load", r#"{"scenario": "poisson", "load": 1e20}"#.into(),
            "load: 1e20 is too large (at most 100)".into()),
        // Integers are written as digits (see `json/read.rs`): no point, no exponent,
        // no minus sign, and never a float rounded to a whole number.
        ("an exponent", lim(r#"{"algorithm": "fixed_window", "limit": 1e3, "period_ms": 1000}"#),
            "limiters[0].limit: must be an integer written with digits only (no point or exponent), got 1e3".into()),
        ("a capital exponent", gcra("", "[1E3]"),
            "requests[0]: must be an integer number of ms written with digits only (no point or exponent), got 1E3".into()),
        ("a point", gcra("", "[5.0]"),
            "requests[0]: must be an integer number of ms written with digits only (no point or exponent), got 5.0".into()),
        ("zero with a point", gcra("", "[0.0]"),
            "requests[0]: must be an integer number of ms written with digits only (no point or exponent), got 0.0".into()),
        ("minus zero", gcra("", "[-0]"),
            "requests[0]: must be an integer ≥ 0, got -0".into()),
        ("a tiny number a float rounds to 0", gcra("", "[1e-400]"),
            "requests[0]: must be an integer number of ms, got 1e-400".into()),
        // Each field once.
        ("a field given twice", lim(r#"{"algorithm": "gcra", "limit": 5, "limit": 6, "period_ms": 1000}"#),
            "limiters[0].limit: given twice (each field at most once)".into()),
        ("a top-level field given twice", r#"{"scenario": "golden", "scenario": "lab-a"}"#.into(),
            "scenario: given twice (each field at most once)".into()),
        ("a request field given twice", gcra("", r#"[0, {"t": 1, "t": 2}]"#),
            "requests[1].t: given twice (each field at most once)".into()),
        // Going backwards (also across keys).
        ("backwards", gcra("", "[0, 5, 3]"),
            "requests[2]: 3 comes before requests[1] = 5 (requests must be sorted by time)".into()),
        ("backwards across keys", gcra("", r#"[{"t": 9, "key": "a"}, {"t": 8, "key": "b"}]"#),
            "requests[1].t: 8 comes before requests[0].t = 9 (requests must be sorted by time)".into()),
        // Far too many requests (10^7), asked of a scenario.
        ("10^7 requests", r#"{"scenario": "poisson", "clients": 10000, "load": 10, "duration_ms": 60000, "limit": 100, "period_ms": 60000}"#.into(),
            "scenario: this traffic would make about 10000000 requests, more than 2000000 (lower clients, load or duration_ms)".into()),
        ("10^7 requests of a parameterised scenario", r#"{"scenario": "burst-then-drip", "limit": 3333334}"#.into(),
            "limit: burst-then-drip would make 10000002 requests (at most 2000000)".into()),
        // Unknown algorithm, duplicated ids, unknown fields.
        ("unknown algorithm", lim(r#"{"algorithm": "leaky_bucket", "limit": 5, "period_ms": 1000}"#),
            format!(r#"limiters[0].algorithm: unknown algorithm "leaky_bucket" (expected one of {ALGORITHMS})"#)),
        ("duplicated ids", r#"{"requests": [1], "limiters": [{"algorithm": "gcra", "id": "a", "limit": 5, "period_ms": 1000}, {"algorithm": "nginx", "id": "a", "limit": 5, "period_ms": 1000}]}"#.into(),
            r#"limiters[1].id: duplicate id "a""#.into()),
        ("an id taken by an unnamed lane", r#"{"requests": [1], "limiters": [{"algorithm": "gcra", "limit": 5, "period_ms": 1000}, {"algorithm": "nginx", "id": "gcra", "limit": 5, "period_ms": 1000}]}"#.into(),
            r#"limiters[1].id: duplicate id "gcra""#.into()),
        ("unknown top-level field", r#"{"scenario": "golden", "limiterz": []}"#.into(),
            format!("limiterz: unknown field (expected one of {TOP})")),
        ("unknown limiter field", gcra(r#", "brust": 3"#, "[1]"),
            "limiters[0].brust: unknown field (expected one of algorithm, id, limit, period_ms, burst, delay, nodelay)".into()),
        ("unknown request field", gcra("", r#"[{"t": 1, "weight": 2}]"#),
            "requests[0].weight: unknown field (expected one of t, key, cost)".into()),
        // Wrong types.
        ("requests as a string", r#"{"requests": "0,1", "limiters": []}"#.into(),
            r#"requests: must be an array, got "0,1""#.into()),
        ("limiters as a number", r#"{"requests": [], "limiters": 3}"#.into(),
            "limiters: must be an array, got 3".into()),
        ("limit as a string", lim(r#"{"algorithm": "gcra", "limit": "5", "period_ms": 1000}"#),
            r#"limiters[0].limit: must be an integer, got "5""#.into()),
        ("period as a bool", lim(r#"{"algorithm": "gcra", "limit": 5, "period_ms": true}"#),
            "limiters[0].period_ms: must be an integer number of ms, got true".into()),
        ("algorithm as a number", lim(r#"{"algorithm": 7, "limit": 5, "period_ms": 1000}"#),
            "limiters[0].algorithm: must be a string, got 7".into()),
        ("id as an object", gcra(r#", "id": {}"#, "[1]"), "limiters[0].id: must be a string, got an object".into()),
        ("a time as null", gcra("", "[null]"),
            r#"requests[0]: must be a time in ms or an object like {"t": 1000, "key": "a", "cost": 1}, got null"#.into()),
        ("a key as an array", gcra("", r#"[{"t": 1, "key": ["a"]}]"#), "requests[0].key: must be a string, got an array".into()),
        ("window as a string", r#"{"scenario": "golden", "window_ms": "10s"}"#.into(),
            r#"window_ms: must be an integer number of ms, got "10s""#.into()),
        ("nodelay as a string", lim(r#"{"algorithm": "nginx", "limit": 5, "period_ms": 1000, "nodelay": "yes"}"#),
            r#"limiters[0].nodelay: must be true or false, got "yes""#.into()),
        ("the input as a number", "42".into(),
            r#"the input must be a JSON object ({"requests": [...], "limiters": [...]} or {"scenario": "..."}), got 42"#.into()),
        // Huge costs.
        ("a cost over u32", gcra("", r#"[{"t": 1, "cost": 4294967296}]"#),
            "requests[0].cost: 4294967296 is too large (at most 4294967295)".into()),
        ("a cost no limiter could allow", gcra("", r#"[{"t": 1, "cost": 4294967295}]"#),
            r#"requests[0].cost: 4294967295 exceeds what this limiter can ever allow at once (5), so it could never pass (limiters[0], id "gcra")"#.into()),
        ("a cost over nginx's burst + 1", lim(r#"{"algorithm": "nginx", "limit": 5, "period_ms": 1000, "burst": 2}"#).replace("[1]", r#"[{"t": 0, "cost": 4}]"#),
            r#"requests[0].cost: 4 exceeds what this limiter can ever allow at once (3), so it could never pass (limiters[0], id "nginx")"#.into()),
        // u64::MAX times.
        ("u64::MAX time", gcra("", "[18446744073709551615]"), format!("requests[0]: 18446744073709551615 {too_large_time}")),
        ("u64::MAX time in an object", gcra("", r#"[{"t": 18446744073709551615}]"#),
            format!("requests[0].t: 18446744073709551615 {too_large_time}")),
        ("2^64 time", gcra("", "[18446744073709551616]"), format!("requests[0]: 18446744073709551616 {too_large_time}")),
        // The service model: its caps, each with its own message.
        ("a thousand and one clients", svc(r#"[{"name": "c", "count": 600, "demand": {"kind": "times", "times": [0]}}, {"name": "d", "count": 401, "demand": {"kind": "times", "times": [0]}}]"#, ""),
            "services[0].clients[1].count: makes more than 1000 clients in all".into()),
        ("65 instances", svc(&one(""), r#", "instances": 65"#), "services[0].instances: 65 is too many (at most 64)".into()),
        ("21 attempts", svc(&one(r#", "retry": {"policy": "immediately", "max_attempts": 21}"#), ""),
            "services[0].clients[0].retry.max_attempts: 21 is too many (at most 20)".into()),
        ("33 outage spans", svc(&one(""), &format!(r#", "outages": [{}]"#, (0..33).map(|i| format!(r#"{{"from_ms": {}, "to_ms": {}}}"#, 10 * i, 10 * i + 5)).collect::<Vec<_>>().join(", "))),
            "services[0].outages: 33 spans is too many (at most 32)".into()),
        ("nine stacked limits", format!(r#"{{"services": [{{"clients": {}, "limits": [{}]}}]}}"#, one(""), [r#"{"algorithm": "gcra", "limit": 5, "period_ms": 1000}"#; 9].join(", ")),
            "services[0].limits: 9 limits is too many (at most 8)".into()),
        ("nine services", format!(r#"{{"services": [{}]}}"#, vec![format!(r#"{{"clients": {}, "limits": [{{"algorithm": "gcra", "limit": 5, "period_ms": 1000}}]}}"#, one("")); 9].join(", ")),
            "services: 9 services is too many (at most 8)".into()),
        ("an outage with a local store", svc(&one(""), r#", "store": "local", "outages": [{"from_ms": 0, "to_ms": 5}]"#),
            r#"services[0].outages: only a shared store can be down (store is "local")"#.into()),
        ("an outage ending before it starts", svc(&one(""), r#", "outages": [{"from_ms": 50, "to_ms": 40}]"#),
            "services[0].outages[0].to_ms: must be after from_ms = 50".into()),
        ("an unknown retry policy", svc(&one(r#", "retry": "sometimes""#), ""),
            r#"services[0].clients[0].retry: unknown policy "sometimes" (expected one of none, immediately, fixed, exponential, full_jitter, retry_after)"#.into()),
        ("an option of another policy", svc(&one(r#", "retry": {"policy": "fixed", "jitter_ms": 5}"#), ""),
            r#"services[0].clients[0].retry.jitter_ms: "fixed" takes no jitter_ms (it takes max_attempts, delay_ms)"#.into()),
        ("attempts with no retries", svc(&one(r#", "retry": {"policy": "none", "max_attempts": 3}"#), ""),
            r#"services[0].clients[0].retry.max_attempts: "none" takes no max_attempts (it makes one attempt)"#.into()),
        ("an unknown demand", svc(r#"[{"name": "a", "demand": {"kind": "flood"}}]"#, ""),
            r#"services[0].clients[0].demand.kind: unknown kind "flood" (expected one of poisson, bursts, page_load, times)"#.into()),
        ("a demand going backwards", svc(r#"[{"name": "a", "demand": {"kind": "times", "times": [5, 3]}}]"#, ""),
            "services[0].clients[0].demand.times[1]: 3 comes before times[0] = 5 (times must be sorted)".into()),
        ("a zero rate", svc(r#"[{"name": "a", "demand": {"kind": "poisson", "rate": 0}}]"#, ""),
            "services[0].clients[0].demand.rate: must be > 0".into()),
        ("too much demand", svc(r#"[{"name": "a", "demand": {"kind": "poisson", "rate": 4000000000, "per_ms": 1}}]"#, ""),
            "services[0].clients: the demand would make about 240000000000000 requests, more than 2000000 (lower the clients, their rates or duration_ms)".into()),
        ("an unknown key", svc(&one(""), "").replace(r#""period_ms": 1000}"#, r#""period_ms": 1000, "key": "ip"}"#),
            r#"services[0].limits[0].key: unknown value "ip" (expected one of client, global, client_route)"#.into()),
        ("an unknown route", svc(&one(r#", "routes": {"write": 1}"#), ""),
            r#"services[0].clients[0].routes: unknown route "write" (the service's routes: api)"#.into()),
        ("a route too expensive for a limit", svc(&one(""), r#", "routes": [{"name": "export", "cost": 9}]"#),
            r#"services[0].routes[0].cost: 9 is more than services[0].limits[0] (id "gcra") can ever allow at once (5), so a request to "export" could never pass"#.into()),
        ("a misspelt field of a client", svc(&one(r#", "retyr": "none""#), ""),
            "services[0].clients[0].retyr: unknown field (expected one of name, count, demand, routes, retry)".into()),
        ("services with requests", r#"{"requests": [1], "services": []}"#.into(),
            r#"requests: not used with "services" (each service has its own clients and limits)"#.into()),
        ("services with a scenario", r#"{"scenario": "retry-storm", "services": []}"#.into(),
            r#"services: not used by scenario "retry-storm" (it takes seed)"#.into()),
        ("no limits", r#"{"services": [{"clients": [{"name": "a", "demand": {"kind": "times", "times": [0]}}]}]}"#.into(),
            "services[0].limits: required (an array of limits)".into()),
        // Found by fuzzing: quoted user text with a line break stays on one line.
        ("a scenario name with a line break", r#"{"scenario": "a\nb"}"#.into(),
            "scenario: unknown scenario \"a\\nb\" (expected one of edge-burst-demo, edge-burst, 2x-rate, per-second, burst-then-drip, manual, golden, swc-late, swc-early, ten-at-once, float-edge, lab-a, lab-b, lab-c, lab-d, lab-e, poisson, custom, noisy-neighbour, retry-storm, instances, store-outage, page-load, stacked-limits, expensive-route, service)".into()),
        ("a field name with a line break", r#"{"scenario": "golden", "x\ny": 1}"#.into(),
            format!("x\\ny: unknown field (expected one of {TOP})")),
        ("an id with a line break, duplicated", r#"{"requests": [1], "limiters": [{"algorithm": "gcra", "id": "a\nb", "limit": 5, "period_ms": 1000}, {"algorithm": "gcra", "id": "a\nb", "limit": 5, "period_ms": 1000}]}"#.into(),
            r#"limiters[1].id: duplicate id "a\nb""#.into()),
        ("the input as a string with a line break", r#""\n""#.into(),
            r#"the input must be a JSON object ({"requests": [...], "limiters": [...]} or {"scenario": "..."}), got "\n""#.into()),
    ]
}

//! SPEC's list of bad input, as a link would carry it: every value falls back to its
//! default with exactly this notice, and the rest of the link still opens.

use ratelab_sim::share::{parse, Link};
use ratelab_sim::ScenarioId;

const ALGORITHMS: &str = "fixed_window, fixed_window_anchored, sliding_log, sliding_window_counter, token_bucket, leaky_queue, gcra, nginx, sliding_log_logs_blocked, token_bucket_f64";

/// `(query, the one notice it must give)`.
fn cases() -> Vec<(String, String)> {
    let dur = |v: &str| {
        format!("must be a duration like 10s, 500ms, 1.5s or 2m, got \"{v}\"; using the default")
    };
    let c: Vec<(&str, String)> = vec![
        // Zero.
        ("limit=0", "limit=0: must be > 0; using the default".into()),
        ("period=0s", "period=0s: must be > 0; using the default".into()),
        ("window=0", "window=0: must be > 0; using the default".into()),
        ("burst.2=0", "burst.2=0: burst: must be > 0 for token_bucket; using the default".into()),
        ("scenario=poisson&clients=0", "clients=0: must be > 0; using the default".into()),
        ("scenario=poisson&load=0", "load=0: must be a multiple of the limit from 0.001 to 100, got \"0\"; using the default".into()),
        // Negative.
        ("limit=-5", "limit=-5: must be a whole number, got \"-5\"; using the default".into()),
        ("t=-3s", format!("t=-3s: {}", dur("-3s"))),
        ("scenario=poisson&seed=-1", "seed=-1: must be a whole number, got \"-1\"; using the default".into()),
        // NaN and Infinity.
        ("limit=NaN", "limit=NaN: must be a whole number, got \"NaN\"; using the default".into()),
        ("period=Infinity", format!("period=Infinity: {}", dur("Infinity"))),
        ("speed=NaN", "speed=NaN: must be one of 0.25, 0.5, 1, 2, 4, 8, 16, got \"NaN\"; using the default".into()),
        ("scenario=poisson&load=Infinity", "load=Infinity: must be a multiple of the limit from 0.001 to 100, got \"Infinity\"; using the default".into()),
        // Empty strings.
        ("limit=", "limit=: must be a whole number, got nothing; using the default".into()),
        ("period=", format!("period=: {}", dur(""))),
        ("scenario=", "scenario=: unknown scenario (expected one of edge-burst-demo, edge-burst, 2x-rate, per-second, burst-then-drip, manual, golden, swc-late, swc-early, ten-at-once, float-edge, lab-a, lab-b, lab-c, lab-d, lab-e, poisson, custom, noisy-neighbour, retry-storm, instances, store-outage, page-load, stacked-limits, expensive-route, service); showing \"golden\"".into()),
        ("limiters=", "limiters=: no limiters given; showing the scenario's".into()),
        ("lang=", "lang=: must be one of en, vi; using the default".into()),
        // 10^20.
        ("limit=100000000000000000000", "limit=100000000000000000000: 100000000000000000000 is too large (at most 4294967295); using the default".into()),
        ("t=100000000000000000000", "t=100000000000000000000: 100000000000000000000 is too large; using the default".into()),
        ("window=1e20", format!("window=1e20: {}", dur("1e20"))),
        ("limit.1=100000000000000000000", "limit.1=100000000000000000000: 100000000000000000000 is too large (at most 4294967295); using the default".into()),
        // A stream going backwards.
        ("scenario=custom&limiters=gcra&requests=5s,1s", "requests=5s,1s: request 1: 1s comes before the one before it (requests must be sorted by time); using the default".into()),
        // Far too many requests for a link.
        ("scenario=custom&limiters=gcra&requests=TEN_MILLION", "requests=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,…: more than 10000 requests (use the JSON import); using the default".into()),
        // Unknown algorithm, unknown parameters, lanes that do not exist.
        ("limiters=fixed_window,leaky_bucket", format!("limiters=fixed_window,leaky_bucket: unknown limiter leaky_bucket (expected {ALGORITHMS}); left out")),
        ("zzz=1", "zzz=1: unknown parameter; ignored".into()),
        ("burts.0=3", "burts.0=3: unknown parameter; ignored".into()),
        ("limit.9=1", "limit.9=1: lane numbers run from 0 to 7; ignored".into()),
        ("limit.3=1", "*.3=: there is no lane 3; ignored".into()),
        ("burst.0=2", "burst.0=2: fixed_window takes no burst (only the buckets, GCRA, the queue and nginx); ignored".into()),
        ("scenario=golden&seed=4", "seed=4: not used by scenario \"golden\"; ignored".into()),
        // Wrong types.
        ("hl=maybe", "hl=maybe: must be 1 or 0, got \"maybe\"; using the default".into()),
        ("speed=fast", "speed=fast: must be one of 0.25, 0.5, 1, 2, 4, 8, 16, got \"fast\"; using the default".into()),
        ("sel=first", "sel=first: must be a whole number, got \"first\"; using the default".into()),
        ("period=1.0005s", "period=1.0005s: must be a whole number of milliseconds, got 1.0005s; using the default".into()),
        // Huge costs.
        ("scenario=custom&limiters=gcra&requests=0::4294967296", "requests=0::4294967296: request 0: cost 4294967296 is too large (at most 4294967295); using the default".into()),
        ("scenario=custom&limiters=gcra&requests=0::0", "requests=0::0: request 0: a cost must be > 0; using the default".into()),
        ("scenario=custom&limiters=gcra&requests=0:a:99", "scenario=custom: requests[0].cost: 99 exceeds what this limiter can ever allow at once (5), so it could never pass (limiters[0], id \"gcra\"); showing the scenario's defaults".into()),
        // u64::MAX times.
        ("t=18446744073709551615", "t=18446744073709551615: 18446744073709551615 is too large; using the default".into()),
        ("scenario=custom&limiters=gcra&requests=18446744073709551615", "requests=18446744073709551615: request 0: 18446744073709551615 is too large; using the default".into()),
        // A line break in a value stays escaped on the notice's one line.
        ("lang=e%0An", "lang=e\\nn: must be one of en, vi; using the default".into()),
    ];
    c.into_iter()
        .map(|(q, n)| {
            let q = q.replace("TEN_MILLION", &"0,".repeat(10_000_000));
            (q, n)
        })
        .collect()
}

#[test]
fn every_bad_value_falls_back_with_its_notice() {
    let mut wrong = Vec::new();
    for (query, expected) in cases() {
        let (state, notices) = parse(&query);
        let got: Vec<String> = notices.iter().map(|n| n.to_string()).collect();
        if got != [expected.clone()] {
            let shown: String = query.chars().take(80).collect();
            wrong.push(format!(
                "{shown}\n  expected {expected}\n  got      {got:?}"
            ));
        }
        // The fallback is a state the playground can show, and its link is clean.
        assert!(state.setup.to_config().is_ok(), "{query}");
        assert_eq!(parse(&state.to_query()), (state.clone(), vec![]));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The rest of a link survives one bad value.
#[test]
fn one_bad_value_leaves_the_rest() {
    let (s, notices) = parse("scenario=edge-burst&limit=NaN&period=2s&limiters=gcra,nginx&t=1s");
    assert_eq!(notices.len(), 1);
    assert_eq!(s.setup.scenario, ScenarioId::EdgeBurst);
    assert_eq!(s.setup.budget(), (5, 2_000));
    assert_eq!(s.setup.lanes.len(), 2);
    assert_eq!(s.view.t_ms, 1_000);
    // Two lanes of one algorithm are numbered, not refused as duplicates.
    let (s, notices) = parse("limiters=gcra,gcra");
    assert_eq!(notices, []);
    let ids: Vec<&str> = s.setup.lanes.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["gcra", "gcra-2"]);
    assert_ne!(s, Link::default());
}

use ratelab_core::{Algorithm, Limiter};

use super::*;
use crate::texts::Lang;

fn read(text: &str) -> Translation {
    translate(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn error(text: &str) -> String {
    match translate(text) {
        Ok(t) => panic!("{text}: read as {t:?}"),
        Err(e) => e.to_string(),
    }
}

/// The decisions of a lane on a stream with bunches, gaps and simultaneous requests.
fn decisions(lane: &LaneSpec, cost: u32) -> Vec<(bool, u64)> {
    let mut l = lane.build().unwrap();
    let mut t = 0u64;
    let mut out = Vec::new();
    for i in 0..400u64 {
        // A deterministic mix: some at once, some close, some far apart.
        t += [0, 0, 7, 30, 95, 100, 333, 1000, 2500, 60_000][(i * 7 % 10) as usize];
        let d = l.check(t, cost).unwrap();
        out.push((d.allowed(), d.wait().ceil_ms()));
    }
    out
}

#[test]
fn nginx_burst_admits_one_more() {
    let zone = "limit_req_zone $binary_remote_addr zone=api:10m rate=10r/s;\n";
    let t = read(&format!("{zone}limit_req zone=api burst=5 nodelay;"));
    assert_eq!(t.tool, Tool::Nginx);
    assert_eq!(
        (
            t.lane.algorithm,
            t.lane.params.limit,
            t.lane.params.period_ms
        ),
        (Algorithm::Nginx, 10, 1000)
    );
    assert_eq!(
        t.at_once,
        AtOnce {
            accepted: 6,
            immediate: 6
        }
    );
    assert_eq!(t.notes[0].to_string(), "Admits 6 at once.");
    let t = read(&format!(
        "{zone}server {{ location / {{ limit_req zone=api burst=5; }} }}"
    ));
    assert_eq!(
        t.at_once,
        AtOnce {
            accepted: 6,
            immediate: 1
        }
    );
    assert_eq!(
        t.notes[0].to_string(),
        "Admits 6 at once: 1 go straight through and 5 are delayed."
    );
    let t = read(&format!("{zone}limit_req zone=api burst=5 delay=3;"));
    assert_eq!(
        t.at_once,
        AtOnce {
            accepted: 6,
            immediate: 4
        }
    );
    let t = read("limit_req_zone $binary_remote_addr zone=one:10m rate=100r/m;");
    assert_eq!(
        (
            t.lane.params.limit,
            t.lane.params.period_ms,
            t.lane.params.burst
        ),
        (100, 60_000, Some(0))
    );
    assert!(t.notes.iter().any(|n| n.key == "note.nginx_per_minute"));
    assert!(t.exact);
}

#[test]
fn nginx_errors_name_what_is_wrong() {
    assert_eq!(
        error("limit_req zone=api burst=5;"),
        "No limit_req_zone with a rate: nginx needs both, e.g. limit_req_zone $binary_remote_addr zone=api:10m rate=10r/s;"
    );
    assert_eq!(
        error("limit_req_zone $a zone=one:1m rate=1r/s;\nlimit_req zone=two;"),
        "limit_req uses zone \"two\", but no limit_req_zone defines it."
    );
    assert_eq!(
        error("limit_req_zone $a zone=one:1m rate=10r/h;"),
        "rate=10r/h: nginx takes requests per second (10r/s) or per minute (100r/m)."
    );
    assert_eq!(
        error("limit_req_zone $a zone=one:1m rate=1r/s; limit_req zone=one burst=x;"),
        "burst: expected a whole number, got \"x\"."
    );
    assert_eq!(
        error("limit_req_zone $a zone=one:1m rate=0r/s;"),
        "The limit cannot run: limit: must be > 0."
    );
    assert!(
        error("limit_req_zone $a zone=one:1m rate=1r/s; limit_req zone=one nodelay delay=2;")
            .contains("cannot both")
    );
}

#[test]
fn redis_cell_max_burst_is_one_less() {
    // The README's example: limit 16 (max_burst + 1) per 30 tokens / 60 s.
    let t = read("CL.THROTTLE user123 15 30 60");
    assert_eq!(t.tool, Tool::RedisCell);
    assert_eq!(
        (
            t.lane.algorithm,
            t.lane.params.limit,
            t.lane.params.period_ms,
            t.lane.params.burst
        ),
        (Algorithm::Gcra, 30, 60_000, Some(16))
    );
    assert_eq!(t.at_once.accepted, 16);
    assert!(t.exact);
    let t = read("redis-cli> cl.throttle user123 15 30 60 3");
    assert_eq!(t.cost, 3);
    assert_eq!(t.at_once.accepted, 5);
    // 3 per 10 s: T is not a whole number of ns.
    assert!(!read("CL.THROTTLE k 0 3 10").exact);
    assert_eq!(
        error("CL.THROTTLE user123 15 30"),
        "CL.THROTTLE: expected <key> <max_burst> <count per period> <period> [<quantity>], got 3 arguments"
    );
    assert!(error("CL.THROTTLE k 1 0 60").contains("zero rate"));
    assert!(error("CL.THROTTLE k 1 10 60 0").contains("quantity of 0"));
    assert!(error("CL.THROTTLE k 1 10 60 5").starts_with("Each request costs 5"));
    assert!(error("CL.THROTTLE k -1 10 60").contains("whole number"));
}

#[test]
fn governor_quotas() {
    let t = read("let q = Quota::per_second(nonzero!(10u32)).allow_burst(nonzero!(5u32));");
    assert_eq!(t.tool, Tool::Governor);
    assert_eq!(
        (
            t.lane.algorithm,
            t.lane.params.limit,
            t.lane.params.period_ms,
            t.lane.params.burst
        ),
        (Algorithm::Gcra, 10, 1000, Some(5))
    );
    assert_eq!(t.at_once.accepted, 5);
    let t = read("Quota::per_minute(NonZeroU32::new(100).unwrap())");
    assert_eq!(
        (
            t.lane.params.limit,
            t.lane.params.period_ms,
            t.lane.params.burst
        ),
        (100, 60_000, Some(100))
    );
    assert!(t.exact, "60 s / 100 is 600 000 000 ns: exact");
    let t =
        read("Quota::with_period(Duration::from_millis(100)).unwrap().allow_burst(nonzero!(3u32))");
    assert_eq!(
        (
            t.lane.params.limit,
            t.lane.params.period_ms,
            t.lane.params.burst
        ),
        (1, 100, Some(3))
    );
    let t = read("Quota::with_period(Duration::from_micros(250)).unwrap()");
    assert_eq!(
        (
            t.lane.params.limit,
            t.lane.params.period_ms,
            t.lane.params.burst
        ),
        (4, 1, Some(1))
    );
    assert!(!read("Quota::per_second(nonzero!(3u32))").exact);
    assert!(error("Quota::with_period(Duration::from_secs_f64(0.5))").contains("whole durations"));
    assert!(error("Quota::per_second(nonzero!(0u32))").contains("more than zero"));
}

#[test]
fn upstash_limiters() {
    let t = read("limiter: Ratelimit.slidingWindow(10, \"10 s\"),");
    assert_eq!(t.tool, Tool::Upstash);
    assert_eq!(
        (
            t.lane.algorithm,
            t.lane.params.limit,
            t.lane.params.period_ms
        ),
        (Algorithm::SlidingWindowCounter, 10, 10_000)
    );
    assert!(t.exact);
    let t = read("Ratelimit.fixedWindow(5, \"500ms\")");
    assert_eq!(
        (t.lane.algorithm, t.lane.params.period_ms),
        (Algorithm::FixedWindow, 500)
    );
    let t = read("Ratelimit.tokenBucket(5, \"10 s\", 10)");
    assert_eq!(
        (
            t.lane.algorithm,
            t.lane.params.limit,
            t.lane.params.period_ms,
            t.lane.params.burst
        ),
        (Algorithm::TokenBucket, 5, 10_000, Some(10))
    );
    assert!(!t.exact);
    assert_eq!(t.at_once.accepted, 10);
    assert_eq!(
        error("Ratelimit.slidingWindow(10, \"10 seconds\")"),
        "Upstash: \"10 seconds\" is not a duration like \"10 s\", \"500 ms\", \"1 m\", \"2 h\" or \"1 d\"."
    );
    assert!(error("Ratelimit.tokenBucket(5, \"10 s\")").contains("refillRate, interval, maxTokens"));
}

#[test]
fn spring_redis_rate_limiter() {
    let yaml = "filters:\n  - name: RequestRateLimiter\n    args:\n      redis-rate-limiter.replenishRate: 10\n      redis-rate-limiter.burstCapacity: 20\n      redis-rate-limiter.requestedTokens: 1\n";
    let t = read(yaml);
    assert_eq!(t.tool, Tool::Spring);
    assert_eq!(
        (
            t.lane.algorithm,
            t.lane.params.limit,
            t.lane.params.period_ms,
            t.lane.params.burst
        ),
        (Algorithm::TokenBucket, 10, 1000, Some(20))
    );
    assert_eq!(t.at_once.accepted, 20);
    // One request a minute: replenishRate 1, burstCapacity 60, requestedTokens 60.
    let t = read("spring.cloud.gateway.redis-rate-limiter.replenish-rate=1\nburst-capacity=60\nrequested-tokens=60");
    assert_eq!(
        (
            t.lane.params.limit,
            t.lane.params.period_ms,
            t.lane.params.burst
        ),
        (1, 60_000, Some(1))
    );
    let t = read(
        "@Bean RedisRateLimiter redisRateLimiter() { return new RedisRateLimiter(10, 25, 2); }",
    );
    assert_eq!(
        (
            t.lane.params.limit,
            t.lane.params.period_ms,
            t.lane.params.burst
        ),
        (10, 2000, Some(12))
    );
    assert!(t.notes.iter().any(|n| n.key == "note.spring_remainder"));
    assert!(
        error("redis-rate-limiter.replenishRate: 10\nredis-rate-limiter.burstCapacity: 0")
            .contains("refuses every request")
    );
}

#[test]
fn unknown_text_is_one_line_and_quoted() {
    assert_eq!(
        error("hello\nworld"),
        "Could not tell which tool \"hello\\nworld\" is for: expected an nginx limit_req_zone/limit_req pair, a CL.THROTTLE call, a governor Quota, an Upstash Ratelimit limiter or a Spring RedisRateLimiter."
    );
    assert!(error("   ").starts_with("Nothing to read"));
    assert!(translate("zzz")
        .unwrap_err()
        .text(Lang::Vi)
        .starts_with("Không nhận ra"));
}

#[test]
fn exact_exports_read_back_to_the_same_decisions() {
    use Algorithm::*;
    let lanes = [
        LaneSpec::simple(Gcra, 10, 1000).with_burst(5),
        LaneSpec::simple(TokenBucket, 100, 60_000),
        LaneSpec::simple(Gcra, 5, 10_000),
        LaneSpec::simple(FixedWindow, 5, 10_000),
        LaneSpec::simple(SlidingWindowCounter, 100, 60_000),
        {
            let mut l = LaneSpec::simple(Nginx, 10, 1000).with_burst(5);
            l.params.delay = Some(3);
            l
        },
        {
            let mut l = LaneSpec::simple(Nginx, 30, 60_000).with_burst(2);
            l.params.nodelay = true;
            l
        },
    ];
    for lane in &lanes {
        let exports = export(lane);
        assert_eq!(exports.len(), Tool::ALL.len());
        let exact: Vec<&Export> = exports.iter().filter(|e| e.fit == Fit::Exact).collect();
        assert!(!exact.is_empty(), "{lane:?}: no exact export");
        for e in exports.iter().filter(|e| e.fit != Fit::None) {
            let config = e.config.as_deref().unwrap();
            let back = read(config);
            assert_eq!(back.tool, e.tool, "{config}");
            if e.fit == Fit::Exact {
                assert_eq!(
                    decisions(&back.lane, back.cost),
                    decisions(lane, 1),
                    "{lane:?} → {config}"
                );
            }
        }
    }
}

#[test]
fn lanes_without_a_tool_say_so() {
    let e = export(&LaneSpec::simple(Algorithm::SlidingLog, 5, 10_000));
    assert!(e.iter().all(|e| e.fit == Fit::None && e.config.is_none()));
    assert!(e[0].note.to_string().contains("sliding log"));
}

#[test]
fn every_message_has_both_languages() {
    let sources = [
        include_str!("mod.rs"),
        include_str!("read.rs"),
        include_str!("write.rs"),
    ];
    let mut keys = Vec::new();
    for s in sources {
        for prefix in ["\"error.", "\"note.", "\"export."] {
            for part in s.split(prefix).skip(1) {
                if let Some(end) = part.find('"') {
                    keys.push(format!("translate.{}{}", &prefix[1..], &part[..end]));
                }
            }
        }
    }
    assert!(keys.len() > 40, "{keys:?}");
    for lang in Lang::ALL {
        for k in &keys {
            assert!(lang.texts().get(k).is_some(), "{}: no {k}", lang.id());
        }
    }
}

#[test]
fn hostile_text_never_panics() {
    let samples = [
        "limit_req_zone",
        "limit_req_zone rate=",
        "limit_req_zone rate=99999999999999999999999r/s;",
        "CL.THROTTLE",
        "CL.THROTTLE a b c d e f",
        "CL.THROTTLE k 4294967295 4294967295 4294967295",
        "Quota::per_second(",
        "Quota::per_second(nonzero!(4294967296u32))",
        "with_period(Duration::from_nanos(1))",
        "Ratelimit.slidingWindow(",
        "Ratelimit.tokenBucket(1, \"1 ms\", 99999999999)",
        "replenishRate: 1e9",
        "new RedisRateLimiter(1, 1, 99999999999999999999)",
        "\u{0}\u{202e}limit_req",
        "((((((((",
    ];
    for s in samples {
        match translate(s) {
            Ok(t) => assert!(t.lane.build().is_ok()),
            Err(e) => assert!(!e.to_string().contains('\n'), "{s}: {e}"),
        }
    }
}

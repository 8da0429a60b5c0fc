//! `ratelab redis ...` and `ratelab lua ...` against a redis-server of the test's own.

mod support;

use std::time::Duration;

use ratelab_redis::server::{free_port, RedisServer};
use support::ratelab;

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden.json");

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn redis_simulate_prints_the_engines_report_and_says_so() {
    let server = RedisServer::start().unwrap();
    let url = server.url();
    let through_redis = ratelab(&["redis", "simulate", GOLDEN, "--url", &url], b"");
    let engine = ratelab(&["simulate", GOLDEN], b"");
    assert_eq!(
        through_redis.status.code(),
        Some(0),
        "{}",
        text(&through_redis.stderr)
    );
    assert_eq!(
        through_redis.stdout, engine.stdout,
        "the same bytes as ratelab simulate"
    );
    let note = text(&through_redis.stderr);
    assert!(
        note.starts_with("redis: the same report as the engine ("),
        "{note}"
    );
    // Its keys are removed afterwards, so it can run again at once.
    let again = ratelab(&["redis", "simulate", GOLDEN, "--url", &url], b"");
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    // From standard input, a scenario.
    let lab_c = ratelab(
        &["redis", "simulate", "--url", &url],
        br#"{"scenario": "lab-c"}"#,
    );
    assert_eq!(lab_c.status.code(), Some(0), "{}", text(&lab_c.stderr));
    assert_eq!(
        lab_c.stdout,
        ratelab(&["simulate"], br#"{"scenario": "lab-c"}"#).stdout
    );
}

#[test]
fn a_missing_server_is_one_line_with_the_url_and_status_2() {
    let url = format!("redis://127.0.0.1:{}", free_port().unwrap());
    let out = ratelab(&["redis", "simulate", GOLDEN, "--url", &url], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert!(
        err.starts_with(&format!("error: {url}: cannot connect: ")),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn a_server_going_away_mid_run_reports_nothing_half_written() {
    let server = RedisServer::start().unwrap();
    let url = server.url();
    let input = br#"{"scenario": "poisson", "clients": 200, "duration_ms": 600000,
        "limiters": [{"algorithm": "sliding_log"}, {"algorithm": "gcra"}, {"algorithm": "nginx", "burst": 5}]}"#;
    // Stopped once the run is writing.
    let mut watch = server.connect().unwrap();
    let killer = std::thread::spawn(move || {
        let dbsize = ratelab_redis::redis::cmd("DBSIZE");
        let started = std::time::Instant::now();
        while watch.command(&dbsize).unwrap() == ratelab_redis::redis::Value::Int(0)
            && started.elapsed() < Duration::from_secs(60)
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        server.stop();
    });
    let out = ratelab(&["redis", "simulate", "--url", &url], input);
    killer.join().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "no report");
    let err = text(&out.stderr);
    assert!(err.starts_with(&format!("error: {url}: ")), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_foreign_key_under_the_prefix_stops_the_run_unless_forced() {
    let server = RedisServer::start().unwrap();
    let url = server.url();
    let mut redis = server.connect().unwrap();
    redis
        .command(
            ratelab_redis::redis::cmd("SET")
                .arg("ratelab:v1:mine")
                .arg("1"),
        )
        .unwrap();
    let out = ratelab(&["redis", "simulate", GOLDEN, "--url", &url], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("already holds 1 key(s) this run did not create"));
    let other = ratelab(
        &[
            "redis", "simulate", GOLDEN, "--url", &url, "--prefix", "lab:x",
        ],
        b"",
    );
    assert_eq!(other.status.code(), Some(0), "{}", text(&other.stderr));
    let forced = ratelab(
        &["redis", "simulate", GOLDEN, "--url", &url, "--force"],
        b"",
    );
    assert_eq!(forced.status.code(), Some(0), "{}", text(&forced.stderr));
    // A key the script cannot read is the script's error, by name.
    let input = br#"{"requests": [0, 1], "limiters": [{"algorithm": "gcra", "limit": 5, "period_ms": 1000}]}"#;
    redis
        .command(
            ratelab_redis::redis::cmd("SET")
                .arg("ratelab:v9:{gcra:}")
                .arg("not a state"),
        )
        .unwrap();
    let out = ratelab(
        &[
            "redis",
            "simulate",
            "--url",
            &url,
            "--prefix",
            "ratelab:v9",
            "--force",
        ],
        input,
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!("error: {url}: script gcra.lua failed: ERR ratelab gcra: the key holds not a state, not this limiter's state\n")
    );
}

#[test]
fn the_labs_run_on_a_server() {
    let server = RedisServer::start().unwrap();
    let url = server.url();
    let race = ratelab(
        &[
            "redis",
            "race",
            "--url",
            &url,
            "--threads",
            "8",
            "--requests",
            "400",
            "--burst",
            "50",
        ],
        b"",
    );
    assert_eq!(race.status.code(), Some(0), "{}", text(&race.stderr));
    let out = text(&race.stdout);
    assert!(
        out.contains("token_bucket.lua            admits     50"),
        "{out}"
    );
    let memory = ratelab(&["redis", "memory", "--url", &url], b"");
    assert_eq!(memory.status.code(), Some(0), "{}", text(&memory.stderr));
    assert!(text(&memory.stdout).contains("skiplist"));
}

#[test]
fn lua_prints_the_script_the_call_and_nginx_lines() {
    let out = ratelab(
        &[
            "lua", "gcra", "--limit", "5", "--period", "10s", "--burst", "5",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    assert!(s.starts_with("-- ratelab gcra"), "{s}");
    assert!(s.contains(&format!(
        "redis-cli EVALSHA {} 1 'ratelab:v1:{{gcra:client-42}}' TIME 1 0 5 10000 5",
        ratelab_scripts::script(ratelab_core::Algorithm::Gcra)
            .unwrap()
            .sha1
    )));
    let s = text(
        &ratelab(
            &[
                "lua",
                "nginx",
                "--limit",
                "10",
                "--period",
                "1s",
                "--burst",
                "5",
                "--nodelay",
            ],
            b"",
        )
        .stdout,
    );
    assert!(
        s.contains("limit_req_zone $binary_remote_addr zone=ratelab:10m rate=10r/s;"),
        "{s}"
    );
    assert!(s.contains("limit_req zone=ratelab burst=5 nodelay;"), "{s}");
    let s = text(&ratelab(&["lua", "--teaching"], b"").stdout);
    assert!(s.contains("WRONG ON PURPOSE"));
    let bad = ratelab(
        &[
            "lua",
            "token_bucket",
            "--burst",
            "4000000000",
            "--period",
            "1h",
        ],
        b"",
    );
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        text(&bad.stderr),
        "error: burst: 4000000000 is too large for this period_ms (at most 625499948, so that burst · period_ms stays below 2^51 in Redis's Lua numbers)\n"
    );
    let teaching = ratelab(&["lua", "token_bucket_f64"], b"");
    assert_eq!(teaching.status.code(), Some(2));
    assert!(text(&teaching.stderr).contains("teaching variants and has no Redis script"));
}

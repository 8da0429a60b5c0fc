//! What goes wrong around the scripts: a lost script cache, a key holding something
//! else, a server that is not there or goes away mid-run, parameters Lua cannot hold.

use crate::support;

use std::time::Duration;

use ratelab_core::{Algorithm, Params};
use ratelab_redis::replay::{replay, ReplayOptions};
use ratelab_redis::server::{free_port, RedisServer};
use ratelab_redis::{Clock, Error, Redis, RedisLimiter};
use ratelab_scripts::KeySpace;
use support::keyed_poisson;

fn gcra() -> RedisLimiter {
    RedisLimiter::new(
        "gcra",
        Algorithm::Gcra,
        &Params::new(5, 10_000),
        &KeySpace::default(),
    )
    .unwrap()
}

#[test]
fn a_flushed_script_cache_falls_back_to_eval() {
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    let mut l = gcra();
    assert!(l.check(&mut redis, "k", Clock::At(0), 1).unwrap().allowed);
    redis.command(redis::cmd("SCRIPT").arg("FLUSH")).unwrap();
    let many: Vec<(&str, Clock, u32)> = (1..=10).map(|t| ("k", Clock::At(t), 1)).collect();
    let d = l.check_many(&mut redis, &many).unwrap();
    // Five at once, then one every 2 s: the four after the first at 0 pass.
    assert_eq!(d.iter().filter(|d| d.allowed).count(), 4);
}

#[test]
fn a_key_holding_something_else_is_a_script_error_naming_the_script() {
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    let mut l = gcra();
    let key = l.keys("x").remove(0);
    redis
        .command(redis::cmd("SET").arg(&key).arg("banana"))
        .unwrap();
    let e = l.check(&mut redis, "x", Clock::At(0), 1).unwrap_err();
    assert!(
        matches!(e, Error::ScriptFailed { script: "gcra", .. }),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        format!(
            "{}: script gcra.lua failed: ERR ratelab gcra: the key holds banana, not this limiter's state",
            server.url()
        )
    );
    redis.command(redis::cmd("DEL").arg(&key)).unwrap();
    redis
        .command(redis::cmd("HSET").arg(&key).arg("a").arg("b"))
        .unwrap();
    let e = l
        .check(&mut redis, "x", Clock::At(0), 1)
        .unwrap_err()
        .to_string();
    assert!(e.contains("script gcra.lua failed: WRONGTYPE"), "{e}");
}

#[test]
fn a_server_that_is_not_there_is_one_line_naming_the_url() {
    let url = format!("redis://127.0.0.1:{}", free_port().unwrap());
    let e = Redis::connect(&url).err().expect("nobody listens there");
    let line = e.to_string();
    assert!(
        line.starts_with(&format!("{url}: cannot connect: ")),
        "{line}"
    );
    assert!(!line.contains('\n'));
}

#[test]
fn a_server_that_goes_away_mid_run_gives_no_report() {
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    let url = server.url();
    let config = keyed_poisson(100, 600_000, 3);
    // Stopped once the replay is writing.
    let mut watch = server.connect().unwrap();
    let stopper = std::thread::spawn(move || {
        let started = std::time::Instant::now();
        while watch.command(&redis::cmd("DBSIZE")).unwrap() == redis::Value::Int(0)
            && started.elapsed() < Duration::from_secs(60)
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        server.stop();
    });
    let e =
        replay(&mut redis, &config, &ReplayOptions::default()).expect_err("the server went away");
    stopper.join().unwrap();
    let line = e.to_string();
    assert!(line.starts_with(&format!("{url}: ")), "{line}");
    assert!(line.contains("lost") || line.contains("failed"), "{line}");
    assert!(!line.contains('\n'));
}

#[test]
fn parameters_and_times_beyond_lua_doubles_are_refused_before_sending() {
    let space = KeySpace::default();
    let e = RedisLimiter::new(
        "tb",
        Algorithm::TokenBucket,
        &Params {
            burst: Some(1 << 30),
            ..Params::new(1, 1 << 22)
        },
        &space,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "burst: 1073741824 is too large for this period_ms (at most 536870911, so that burst · period_ms stays below 2^51 in Redis's Lua numbers)"
    );
    let e = RedisLimiter::new(
        "fw",
        Algorithm::FixedWindow,
        &Params::new(1, 1 << 52),
        &space,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "period_ms: 4503599627370496 is too large for Redis's Lua numbers (at most 4503599627370495, where doubles still hold every whole number of ms)"
    );
    // The engine's own refusals keep the engine's words.
    let e =
        RedisLimiter::new("fw", Algorithm::FixedWindow, &Params::new(0, 10), &space).unwrap_err();
    assert_eq!(e.to_string(), "limit: must be > 0");
    // A time is checked before anything is sent: no server is needed to refuse it.
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    let mut l = gcra();
    let e = l.check(&mut redis, "k", Clock::At(1 << 52), 1).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("now: 4503599627370496 is too large"),
        "{e}"
    );
    assert!(l.check(&mut redis, "k", Clock::At(100), 1).is_ok());
    assert_eq!(
        l.check(&mut redis, "k", Clock::At(99), 1).unwrap_err().to_string(),
        "time went backwards: 99 ms is earlier than the previous request at 100 ms (streams must be sorted by time)"
    );
    assert_eq!(
        l.check(&mut redis, "k", Clock::At(100), 6)
            .unwrap_err()
            .to_string(),
        "cost: 6 exceeds what this limiter can ever allow at once (5), so it could never pass"
    );
}

#[test]
fn a_prefix_holding_keys_is_refused_unless_forced() {
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    redis
        .command(redis::cmd("SET").arg("ratelab:v2:someone-else").arg("1"))
        .unwrap();
    let config = support::scenario_config("golden", Default::default());
    let e = replay(&mut redis, &config, &ReplayOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("{}: prefix ratelab:v2 already holds 1 key(s) this run did not create (e.g. \"ratelab:v2:someone-else\"); choose another --prefix, or pass --force to write there anyway", server.url())
    );
    let other = ReplayOptions {
        space: KeySpace::new("ratelab:test").unwrap(),
        ..ReplayOptions::default()
    };
    assert!(replay(&mut redis, &config, &other).unwrap().same());
    let forced = ReplayOptions {
        force: true,
        ..ReplayOptions::default()
    };
    assert!(replay(&mut redis, &config, &forced).unwrap().same());
    // Its own keys are gone afterwards; the foreign one is untouched.
    let keys = redis.command(redis::cmd("KEYS").arg("*")).unwrap();
    assert_eq!(
        keys,
        redis::Value::Array(vec![redis::Value::BulkString(
            b"ratelab:v2:someone-else".to_vec()
        )])
    );
}

#[test]
fn the_scripts_check_their_own_arguments() {
    // For people who call the scripts by hand: every argument is checked by name.
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    let gcra = ratelab_scripts::script(Algorithm::Gcra).unwrap();
    let call = |redis: &mut Redis, args: &[&str]| {
        redis
            .command(
                redis::cmd("EVAL")
                    .arg(gcra.text())
                    .arg(1)
                    .arg("k")
                    .arg(args),
            )
            .unwrap_err()
            .to_string()
    };
    let e = call(&mut redis, &["100", "abc", "0", "5", "10000", "5"]);
    assert!(
        e.ends_with("ratelab gcra: cost: abc is not a whole number from 1 to 4294967295"),
        "{e}"
    );
    let e = call(&mut redis, &["100", "1", "0", "5", "10000", "0"]);
    assert!(
        e.ends_with("ratelab gcra: burst: 0 is not a whole number from 1 to 4294967295"),
        "{e}"
    );
    let e = call(&mut redis, &["100", "9", "0", "5", "10000", "5"]);
    assert!(e.ends_with("ratelab gcra: cost: 9 exceeds what this limiter can ever allow at once (5), so it could never pass"), "{e}");
    let e = call(&mut redis, &["1.5", "1", "0", "5", "10000", "5"]);
    assert!(
        e.ends_with("ratelab gcra: now: 1.5 is not a whole number from 0 to 4503599627370495"),
        "{e}"
    );
    let e = call(&mut redis, &["100", "1", "0", "5", "1000000000000", "5000"]);
    assert!(e.ends_with("ratelab gcra: burst: 5000 is too large for this period_ms (at most 2251, so that burst · period_ms stays below 2^51)"), "{e}");
}

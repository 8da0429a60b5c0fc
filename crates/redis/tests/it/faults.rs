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

/// Every script's reply to `args` on key `k`: its error text, or `None` for a decision.
fn eval_error(redis: &mut Redis, a: Algorithm, key: &str, args: &[String]) -> Option<String> {
    let s = ratelab_scripts::script(a).unwrap();
    let n = if a == Algorithm::SlidingLog { 2 } else { 1 };
    let mut c = redis::cmd("EVAL");
    c.arg(s.text()).arg(n).arg(key);
    if n == 2 {
        c.arg(format!("{key}:n"));
    }
    c.arg(args);
    redis.command(&c).err().map(|e| e.to_string())
}

#[test]
fn every_script_names_each_bad_argument_and_refuses_state_not_its_own() {
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    let limiters: Vec<Algorithm> = Algorithm::ALL
        .into_iter()
        .filter(|a| !a.is_teaching())
        .collect();
    assert_eq!(limiters.len(), 8);
    for &a in &limiters {
        let name = a.id();
        let lane = ratelab_scripts::LuaLane::new(a, &Params::new(5, 10_000)).unwrap();
        let mut good: Vec<String> = ["100", "1", "0"].map(String::from).to_vec();
        good.extend(lane.params_args());
        let mut fields = vec!["now", "cost", "slack_ms", "limit", "period_ms"];
        match a {
            Algorithm::TokenBucket | Algorithm::Gcra | Algorithm::LeakyQueue => {
                fields.push("burst")
            }
            Algorithm::Nginx => fields.extend(["burst", "delay"]),
            _ => {}
        }
        assert_eq!(fields.len(), good.len(), "{name}");
        assert_eq!(
            eval_error(&mut redis, a, &format!("fresh-{name}"), &good),
            None,
            "{name}"
        );
        // Each argument wrong in turn (and, for the last, missing), alone and
        // together with every later one: the first wrong one is named.
        for i in 0..good.len() {
            for bad in ["x", "1.5", "-1", "1e300"] {
                let mut args = good.clone();
                args[i] = bad.into();
                let e = eval_error(&mut redis, a, "k", &args).unwrap_or_default();
                let want = format!("ratelab {name}: {}: {bad} is not a whole number", fields[i]);
                assert!(e.contains(&want), "{name} {args:?}: {e}");
                for later in args.iter_mut().skip(i + 1) {
                    *later = "y".into();
                }
                let e2 = eval_error(&mut redis, a, "k", &args).unwrap_or_default();
                assert!(e2.contains(&want), "{name} {args:?}: {e2}");
                assert!(!e.contains('\n') && !e2.contains('\n'), "{e}");
            }
        }
        let short = &good[..good.len() - 1];
        let e = eval_error(&mut redis, a, "k", short).unwrap_or_default();
        let want = format!(
            "ratelab {name}: {}: nil is not a whole number",
            fields.last().unwrap()
        );
        assert!(e.contains(&want), "{name}: {e}");
        // The server's clock with cost 1 and slack 0, the usual call, is fine.
        let mut time = good.clone();
        time[0] = "TIME".into();
        assert_eq!(
            eval_error(&mut redis, a, &format!("time-{name}"), &time),
            None,
            "{name}"
        );
        // A cost beyond the capacity is refused by name.
        let mut big = good.clone();
        big[1] = "1000".into();
        let e = eval_error(&mut redis, a, "k", &big).unwrap_or_default();
        assert!(
            e.contains(&format!("ratelab {name}: cost: 1000 exceeds")),
            "{name}: {e}"
        );
    }
    // A key holding another limiter's state, v1's text, a value of this one's length
    // with numbers it could never write: refused by name, never decided on.
    for &a in &limiters {
        for &b in &limiters {
            if a == b || a == Algorithm::SlidingLog || b == Algorithm::SlidingLog {
                continue;
            }
            let key = format!("{}-then-{}", a.id(), b.id());
            let args = |x: Algorithm| {
                let mut v: Vec<String> = ["100", "1", "0"].map(String::from).to_vec();
                v.extend(
                    ratelab_scripts::LuaLane::new(x, &Params::new(5, 10_000))
                        .unwrap()
                        .params_args(),
                );
                v
            };
            assert_eq!(eval_error(&mut redis, a, &key, &args(a)), None);
            let e = eval_error(&mut redis, b, &key, &args(b)).unwrap_or_default();
            assert!(
                e.contains(&format!("ratelab {}: the key holds ", b.id()))
                    && e.ends_with("bytes, not this limiter's state"),
                "{key}: {e}"
            );
        }
    }
    let args: Vec<String> = ["100", "1", "0", "5", "10000", "5"]
        .map(String::from)
        .to_vec();
    redis
        .command(redis::cmd("SET").arg("v1").arg("12:3"))
        .unwrap();
    let e = eval_error(&mut redis, Algorithm::Gcra, "v1", &args).unwrap_or_default();
    assert!(
        e.ends_with("ratelab gcra: the key holds 12:3, not this limiter's state"),
        "{e}"
    );
    for (bad, what) in [
        ("0/0", "NaN"),
        ("-1", "negative"),
        ("0.5", "a fraction"),
        ("1e300", "huge"),
    ] {
        redis
            .command(
                redis::cmd("EVAL")
                    .arg(format!(
                        "redis.call('SET', KEYS[1], struct.pack('<Bdd', 103, {bad}, 5))"
                    ))
                    .arg(1)
                    .arg("forged"),
            )
            .unwrap();
        let e = eval_error(&mut redis, Algorithm::Gcra, "forged", &args).unwrap_or_default();
        assert!(
            e.ends_with("ratelab gcra: the key holds 17 bytes, not this limiter's state"),
            "{what}: {e}"
        );
    }
}

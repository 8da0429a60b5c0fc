//! The function library (`FUNCTION LOAD`, `FCALL ratelab_<limiter>`) against the
//! scripts (`EVALSHA`) and the engine: the same decisions on every comparison
//! stream, the same error texts, the same keys, and a library lost mid-run loaded
//! again.

use crate::support;

use ratelab_core::{Algorithm, AnyLimiter, Keyed, Limiter, Params};
use ratelab_redis::compare::{difference, rest_matches};
use ratelab_redis::server::RedisServer;
use ratelab_redis::{Clock, Form, Redis, RedisLimiter};
use ratelab_scripts::{library, KeySpace, LuaLane};

/// Every lane of every replay config (every scenario and the keyed Poisson stream
/// with mixed costs: over 100 000 requests) through both forms, each under its own
/// prefix: the function's decisions are the script's, number for number (the
/// time, the rest and the state kept too), and the engine's.
#[test]
fn every_function_decides_as_its_script_and_the_engine() {
    let server = RedisServer::start().expect("redis-server");
    let mut redis = server.connect().unwrap();
    let scripts = KeySpace::new("ratelab:script").unwrap();
    let functions = KeySpace::new("ratelab:function").unwrap();
    let mut requests = 0;
    let mut seen = std::collections::BTreeSet::new();
    for (name, config) in support::replay_configs() {
        let stream = &config.stream;
        let calls: Vec<(&str, Clock, u32)> = stream
            .requests
            .iter()
            .map(|r| (stream.key_name(r.key).unwrap_or(""), Clock::At(r.t), r.cost))
            .collect();
        for lane in &config.lanes {
            let id = format!("{name}/{}", lane.id);
            let by_script = RedisLimiter::new(&id, lane.algorithm, &lane.params, &scripts)
                .unwrap()
                .check_many(&mut redis, &calls)
                .unwrap();
            let mut f = RedisLimiter::new(&id, lane.algorithm, &lane.params, &functions)
                .unwrap()
                .with_form(Form::Function);
            let by_function = f.check_many(&mut redis, &calls).unwrap();
            assert_eq!(by_function.len(), calls.len());
            if let Some(i) = (0..calls.len()).find(|&i| by_function[i] != by_script[i]) {
                panic!(
                    "{id} request {i}: FCALL {:?} vs EVALSHA {:?}",
                    by_function[i], by_script[i]
                );
            }
            let mut engine = Keyed::new(lane.build().unwrap());
            for (i, (&(key, clock, cost), r)) in calls.iter().zip(&by_function).enumerate() {
                let Clock::At(t) = clock else { unreachable!() };
                let d = engine.check(key, t, cost).unwrap();
                if let Some(diff) = difference(&d, r) {
                    panic!("{id} request {i} (t {t}, key {key:?}): {diff}");
                }
                assert!(
                    rest_matches(engine.get(key), t, r.rest_ms),
                    "{id} request {i}: rest {} ms",
                    r.rest_ms
                );
            }
            seen.insert(lane.algorithm.id());
        }
        requests += calls.len();
    }
    assert!(requests >= 100_000, "only {requests} requests");
    assert_eq!(seen.len(), 8, "every limiter: {seen:?}");
}

/// One key, written in turn by the script and by the function: they keep one state,
/// and decide the golden stream as the engine does.
#[test]
fn a_key_is_shared_by_both_forms() {
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    for a in Algorithm::ALL.into_iter().filter(|a| !a.is_teaching()) {
        let p = Params::new(5, 10_000);
        let mut engine = AnyLimiter::new(a, &p).unwrap();
        let space = KeySpace::default();
        let mut script = RedisLimiter::new(a.id(), a, &p, &space).unwrap();
        let mut function = RedisLimiter::new(a.id(), a, &p, &space)
            .unwrap()
            .with_form(Form::Function);
        let times = [
            2000, 7000, 8000, 9000, 9500, 9800, 10_100, 10_400, 10_700, 11_200,
        ];
        for (i, t) in times.into_iter().enumerate() {
            let l = if i % 2 == 0 {
                &mut script
            } else {
                &mut function
            };
            let r = l.check(&mut redis, "k", Clock::At(t), 1).unwrap();
            if let Some(diff) = difference(&engine.check(t, 1).unwrap(), &r) {
                panic!("{} at {t} ({:?}): {diff}", a.id(), l.form());
            }
        }
    }
}

/// The reply of `FCALL ratelab_<a>` (`function`) or `EVAL` of the script to `args`
/// on `key`: its error text, or `None` for a decision.
fn error_of(
    redis: &mut Redis,
    a: Algorithm,
    function: bool,
    key: &str,
    args: &[String],
) -> Option<String> {
    let n = if a == Algorithm::SlidingLog { 2 } else { 1 };
    let mut c = if function {
        let mut c = redis::cmd("FCALL");
        c.arg(library::function(a).unwrap());
        c
    } else {
        let mut c = redis::cmd("EVAL");
        c.arg(ratelab_scripts::script(a).unwrap().text());
        c
    };
    c.arg(n).arg(key);
    if n == 2 {
        c.arg(format!("{key}:n"));
    }
    c.arg(args);
    redis.command(&c).err().map(|e| e.to_string())
}

/// Every bad argument (each in turn, four ways, and missing), a cost beyond the
/// capacity, a key holding another limiter's state or text: the function's error
/// is the script's, word for word, one line.
#[test]
fn the_functions_give_the_scripts_error_texts() {
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    redis.load_library().unwrap();
    let limiters: Vec<Algorithm> = Algorithm::ALL
        .into_iter()
        .filter(|a| !a.is_teaching())
        .collect();
    let good = |a: Algorithm| {
        let mut v: Vec<String> = ["100", "1", "0"].map(String::from).to_vec();
        v.extend(
            LuaLane::new(a, &Params::new(5, 10_000))
                .unwrap()
                .params_args(),
        );
        v
    };
    let mut compared = 0;
    let mut same = |redis: &mut Redis, a: Algorithm, key: &str, args: &[String]| {
        let e = error_of(redis, a, false, key, args);
        let f = error_of(redis, a, true, key, args);
        assert_eq!(f, e, "{} {key} {args:?}", a.id());
        let f = f.unwrap_or_else(|| panic!("{} {args:?}: no error", a.id()));
        assert!(
            f.contains(&format!("ratelab {}: ", a.id())) && !f.contains('\n'),
            "{f}"
        );
        compared += 1;
    };
    for &a in &limiters {
        let args = good(a);
        for i in 0..args.len() {
            for bad in ["x", "1.5", "-1", "1e300", ""] {
                let mut wrong = args.clone();
                wrong[i] = bad.into();
                same(&mut redis, a, "k", &wrong);
            }
        }
        same(&mut redis, a, "k", &args[..args.len() - 1]);
        let mut big = args.clone();
        big[1] = "1000".into();
        same(&mut redis, a, "k", &big);
        redis
            .command(redis::cmd("SET").arg("text").arg("12:3"))
            .unwrap();
        if a != Algorithm::SlidingLog {
            same(&mut redis, a, "text", &args);
        }
        // Another limiter's state.
        for &b in &limiters {
            if a == b || a == Algorithm::SlidingLog || b == Algorithm::SlidingLog {
                continue;
            }
            let key = format!("{}-then-{}", a.id(), b.id());
            assert_eq!(error_of(&mut redis, a, true, &key, &good(a)), None);
            same(&mut redis, b, &key, &good(b));
        }
    }
    assert!(compared >= 250, "{compared}");
}

/// `FUNCTION FLUSH` between two batches (a server that lost its functions): the
/// library is loaded again and the calls sent again, in order.
#[test]
fn a_flushed_library_is_loaded_again() {
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    let mut l = RedisLimiter::new(
        "gcra",
        Algorithm::Gcra,
        &Params::new(5, 10_000),
        &KeySpace::default(),
    )
    .unwrap()
    .with_form(Form::Function);
    assert!(l.check(&mut redis, "k", Clock::At(0), 1).unwrap().allowed);
    redis.command(redis::cmd("FUNCTION").arg("FLUSH")).unwrap();
    let many: Vec<(&str, Clock, u32)> = (1..=10).map(|t| ("k", Clock::At(t), 1)).collect();
    let d = l.check_many(&mut redis, &many).unwrap();
    // Five at once, then one every 2 s: the four after the first at 0 pass.
    assert_eq!(d.iter().filter(|d| d.allowed).count(), 4);
    // A key holding something else: the error names the function.
    redis
        .command(redis::cmd("SET").arg(l.keys("x").remove(0)).arg("banana"))
        .unwrap();
    assert_eq!(
        l.check(&mut redis, "x", Clock::At(20), 1)
            .unwrap_err()
            .to_string(),
        format!(
            "{}: function ratelab_gcra failed: ERR ratelab gcra: the key holds banana, not this limiter's state",
            server.url()
        )
    );
}

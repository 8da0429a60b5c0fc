//! The scripts people copy reproduce their failure on a real server.

use std::time::Duration;

use ratelab_core::{Algorithm, AnyLimiter, Limiter, Params};
use ratelab_redis::labs::race;
use ratelab_redis::server::RedisServer;
use ratelab_redis::teaching::{float_bucket, incr_then_expire, zadd_first, FloatSecondsBucket};
use ratelab_redis::{Clock, RedisLimiter};
use ratelab_scripts::KeySpace;

#[test]
fn float_seconds_deny_a_request_that_has_its_whole_token() {
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    // 10 per second, burst 1, a request every 100 ms: each finds exactly one token.
    let params = Params {
        burst: Some(1),
        ..Params::new(10, 1000)
    };
    let mut exact =
        RedisLimiter::new("tb", Algorithm::TokenBucket, &params, &KeySpace::default()).unwrap();
    let mut model = FloatSecondsBucket::new(10.0, 1);
    let mut denied = Vec::new();
    for t in (0..10).map(|i| i * 100) {
        let (allowed, tokens) = float_bucket(&mut redis, "float", t, 10.0, 1, 1).unwrap();
        // The server computes exactly what the snippet's arithmetic computes in f64.
        assert_eq!((allowed, tokens.to_bits()), {
            let (a, tk) = model.request(t, 1);
            (a, tk.to_bits())
        });
        assert!(
            exact
                .check(&mut redis, "k", Clock::At(t), 1)
                .unwrap()
                .allowed,
            "the exact bucket allows t = {t}"
        );
        if !allowed {
            denied.push(t);
        }
    }
    // 0.3 − 0.2 = 0.09999999999999998 s: 0.9999999999999998 tokens at 300 ms.
    assert_eq!(denied.first(), Some(&300), "denied: {denied:?}");
    let mut m = FloatSecondsBucket::new(10.0, 1);
    let tokens: Vec<f64> = (0..4).map(|i| m.request(i * 100, 1).1).collect();
    assert_eq!(tokens[3], 0.9999999999999998);
}

#[test]
fn incr_then_expire_leaks_a_key_that_never_expires() {
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    let key = "demo:client";
    // 3 per 200 ms. The client dies between INCR and PEXPIRE on its first request.
    assert!(incr_then_expire(&mut redis, key, 3, 200, true).unwrap());
    let pttl: i64 =
        redis::from_redis_value(redis.command(redis::cmd("PTTL").arg(key)).unwrap()).unwrap();
    assert_eq!(pttl, -1, "a counter without a TTL");
    assert!(incr_then_expire(&mut redis, key, 3, 200, false).unwrap());
    assert!(incr_then_expire(&mut redis, key, 3, 200, false).unwrap());
    assert!(!incr_then_expire(&mut redis, key, 3, 200, false).unwrap());
    std::thread::sleep(Duration::from_millis(400));
    // Two windows later it is still counting: blocked for good.
    assert!(!incr_then_expire(&mut redis, key, 3, 200, false).unwrap());
    let pttl: i64 =
        redis::from_redis_value(redis.command(redis::cmd("PTTL").arg(key)).unwrap()).unwrap();
    assert_eq!(pttl, -1);
    // The script does both in one step: no client can stop between them.
    let mut fw = RedisLimiter::new(
        "fw",
        Algorithm::FixedWindow,
        &Params::new(3, 200),
        &KeySpace::default(),
    )
    .unwrap();
    for _ in 0..3 {
        assert!(
            fw.check(&mut redis, "client", Clock::Server, 1)
                .unwrap()
                .allowed
        );
    }
    let pttl: i64 = redis::from_redis_value(
        redis
            .command(redis::cmd("PTTL").arg(&fw.keys("client")[0]))
            .unwrap(),
    )
    .unwrap();
    assert!((0..=200).contains(&pttl), "{pttl}");
    std::thread::sleep(Duration::from_millis(250));
    assert!(
        fw.check(&mut redis, "client", Clock::Server, 1)
            .unwrap()
            .allowed
    );
}

#[test]
fn adding_before_counting_blocks_a_persistent_client_forever() {
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    let params = Params::new(2, 1000);
    let mut right =
        RedisLimiter::new("log", Algorithm::SlidingLog, &params, &KeySpace::default()).unwrap();
    let mut wrong_engine = AnyLimiter::new(Algorithm::SlidingLogLogsBlocked, &params).unwrap();
    let (mut passed_right, mut passed_wrong) = (0, 0);
    // A request every 400 ms: 2.5 per second against 2 per second.
    for i in 0..50u64 {
        let t = i * 400;
        let wrong = zadd_first(&mut redis, "zadd-first", t, i, 2, 1000).unwrap();
        // Exactly the engine's own teaching variant, which logs denials too.
        assert_eq!(
            wrong,
            wrong_engine.check(t, 1).unwrap().allowed(),
            "t = {t}"
        );
        passed_wrong += wrong as u32;
        passed_right += right
            .check(&mut redis, "c", Clock::At(t), 1)
            .unwrap()
            .allowed as u32;
    }
    assert_eq!((passed_right, passed_wrong), (34, 2));
}

#[test]
fn read_compute_write_admits_more_than_the_bucket_when_clients_race() {
    let server = RedisServer::start().unwrap();
    let space = KeySpace::default();
    // One client alone: the same arithmetic admits exactly the bucket.
    let alone = race(&server.url(), &space, 1, 640, 100).unwrap();
    assert_eq!(
        (alone.engine, alone.script, alone.read_compute_write),
        (100, 100, 100)
    );
    // Sixteen clients, 40 requests each, at one instant, against a bucket of 100.
    let r = race(&server.url(), &space, 16, 40, 100).unwrap();
    eprintln!("{r:?}");
    assert_eq!(r.engine, 100);
    assert_eq!(
        r.script, r.engine,
        "the script admits exactly what the engine admits"
    );
    assert!(
        r.read_compute_write > r.engine,
        "read-compute-write admitted {} of {} with a bucket of {}",
        r.read_compute_write,
        r.requests,
        r.capacity
    );
}

//! The largest parameters and the latest times the scripts accept (through the
//! scripts and the function library), and the server's own clock: still exactly the
//! engine's decisions, and keys that vanish at rest.

use std::time::Duration;

use ratelab_core::{Algorithm, AnyLimiter, Keyed, Params};
use ratelab_redis::compare::{difference, rest_matches};
use ratelab_redis::server::RedisServer;
use ratelab_redis::{Clock, Form, RedisLimiter};
use ratelab_scripts::{KeySpace, MAX_LUA_PRODUCT, MAX_LUA_TIME_MS};

const MAX_COUNT: u64 = u32::MAX as u64;

#[test]
fn parameters_at_the_caps_and_times_near_the_end_stay_exact() {
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    let p = |limit, period_ms, burst: Option<u64>, delay: Option<u64>, nodelay| Params {
        limit,
        period_ms,
        burst,
        delay,
        nodelay,
    };
    let scaled = MAX_LUA_PRODUCT / MAX_COUNT;
    let cases = [
        (
            Algorithm::FixedWindow,
            p(MAX_COUNT, MAX_LUA_TIME_MS / 4, None, None, false),
        ),
        (
            Algorithm::FixedWindowAnchored,
            p(MAX_COUNT, MAX_LUA_TIME_MS / 4, None, None, false),
        ),
        (
            Algorithm::SlidingLog,
            p(MAX_COUNT, MAX_LUA_TIME_MS / 4, None, None, false),
        ),
        (
            Algorithm::SlidingWindowCounter,
            p(MAX_COUNT, scaled, None, None, false),
        ),
        (
            Algorithm::SlidingWindowCounter,
            p(1, MAX_LUA_PRODUCT, None, None, false),
        ),
        (
            Algorithm::TokenBucket,
            p(MAX_COUNT, scaled, Some(MAX_COUNT), None, false),
        ),
        (
            Algorithm::TokenBucket,
            p(7, MAX_LUA_PRODUCT / 3, Some(3), None, false),
        ),
        (
            Algorithm::Gcra,
            p(MAX_COUNT, scaled, Some(MAX_COUNT), None, false),
        ),
        (
            Algorithm::Gcra,
            p(3, MAX_LUA_PRODUCT / 5, Some(5), None, false),
        ),
        (
            Algorithm::LeakyQueue,
            p(MAX_COUNT, scaled, Some(MAX_COUNT), None, false),
        ),
        (
            Algorithm::LeakyQueue,
            p(3, MAX_LUA_PRODUCT / 5, Some(5), None, false),
        ),
        (
            Algorithm::Nginx,
            p(MAX_COUNT, 1, Some(MAX_COUNT), Some(MAX_COUNT - 1), false),
        ),
        (
            Algorithm::Nginx,
            p(1, 1_000_000, Some(MAX_COUNT), Some(3), false),
        ),
        (
            Algorithm::Nginx,
            p(MAX_COUNT, 7, Some(MAX_COUNT), None, true),
        ),
    ];
    // Each through its script and through the function library.
    let forms = [Form::Script, Form::Function];
    for (n, (form, (a, params))) in forms
        .iter()
        .flat_map(|f| cases.iter().map(move |c| (f, c)))
        .enumerate()
    {
        let id = format!("edge{n}");
        let mut script = RedisLimiter::new(&id, *a, params, &KeySpace::default())
            .unwrap()
            .with_form(*form);
        let mut engine = Keyed::new(AnyLimiter::new(*a, params).unwrap());
        let cap = script.lane().capacity().min(MAX_COUNT) as u32;
        let start = MAX_LUA_TIME_MS - params.period_ms.min(MAX_LUA_TIME_MS / 2) - 10;
        let steps = [
            0,
            0,
            1,
            2,
            3,
            1000,
            params.period_ms / 2,
            params.period_ms / 2,
            5,
        ];
        let costs = [cap, 1, cap / 2 + 1, 1, cap, 1, 2.min(cap), cap, 1];
        let mut t = start;
        let mut requests = Vec::new();
        for (step, cost) in steps.iter().zip(costs) {
            t = (t + step).min(MAX_LUA_TIME_MS);
            requests.push(("k", Clock::At(t), cost.max(1)));
        }
        let decided = script.check_many(&mut redis, &requests).unwrap();
        for (i, (&(_, clock, cost), r)) in requests.iter().zip(&decided).enumerate() {
            let Clock::At(t) = clock else { unreachable!() };
            let d = engine.check("k", t, cost).unwrap();
            if let Some(diff) = difference(&d, r) {
                panic!(
                    "{} {form:?} {params:?} request {i} (t {t}, cost {cost}): {diff}",
                    a.id()
                );
            }
            assert!(
                rest_matches(engine.get("k"), t, r.rest_ms),
                "{} request {i}",
                a.id()
            );
        }
    }
}

#[test]
fn on_the_servers_clock_keys_expire_when_the_limiter_is_at_rest() {
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    // 1 per 300 ms, burst 2.
    let params = Params {
        burst: Some(2),
        ..Params::new(1, 300)
    };
    for a in [
        Algorithm::Gcra,
        Algorithm::TokenBucket,
        Algorithm::FixedWindow,
    ] {
        let mut l = RedisLimiter::new(a.id(), a, &params, &KeySpace::default()).unwrap();
        let key = l.keys("k").remove(0);
        let before = server_ms(&mut redis);
        let first = l.check(&mut redis, "k", Clock::Server, 1).unwrap();
        assert!(
            first.at >= before && first.at < before + 1000,
            "{}: decided at {}",
            a.id(),
            first.at
        );
        let decided: Vec<_> = (0..3)
            .map(|_| l.check(&mut redis, "k", Clock::Server, 1).unwrap())
            .collect();
        let last = decided.last().unwrap();
        assert!(
            !last.allowed,
            "{}: a burst of four against 1 per 300 ms",
            a.id()
        );
        // The key's expiry is the moment it is at rest.
        let at: i64 =
            redis::from_redis_value(redis.command(redis::cmd("PEXPIRETIME").arg(&key)).unwrap())
                .unwrap();
        let rest_at = decided
            .iter()
            .filter(|d| d.allowed)
            .chain([&first])
            .map(|d| d.at + d.rest_ms)
            .max()
            .unwrap();
        assert_eq!(at as u64, rest_at, "{}", a.id());
        std::thread::sleep(Duration::from_millis(
            rest_at.saturating_sub(server_ms(&mut redis)) + 30,
        ));
        let exists: i64 =
            redis::from_redis_value(redis.command(redis::cmd("EXISTS").arg(&key)).unwrap())
                .unwrap();
        assert_eq!(exists, 0, "{}: the key is gone once at rest", a.id());
        assert!(l.check(&mut redis, "k", Clock::Server, 1).unwrap().allowed);
    }
}

fn server_ms(redis: &mut ratelab_redis::Redis) -> u64 {
    let (s, us): (u64, u64) =
        redis::from_redis_value(redis.command(&redis::cmd("TIME")).unwrap()).unwrap();
    s * 1000 + us / 1000
}

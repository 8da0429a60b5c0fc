//! Random parameters and random keyed streams (costs, bursts of equal times, long
//! gaps) through every script, pipelined, against the engine: every decision and
//! every time a key goes to rest identical.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use ratelab_core::{Algorithm, AnyLimiter, Keyed, Params};
use ratelab_redis::compare::{difference, rest_matches};
use ratelab_redis::server::RedisServer;
use ratelab_redis::{Clock, RedisLimiter};
use ratelab_scripts::{KeySpace, LuaLane};

fn params() -> impl Strategy<Value = (Algorithm, Params)> {
    (
        0..8usize,
        1u64..12,
        prop_oneof![
            1u64..50,
            50u64..5_000,
            Just(1000u64),
            Just(60_000u64),
            Just(3u64)
        ],
        prop::option::of(0u64..15),
        prop::option::of(0u64..6),
        any::<bool>(),
    )
        .prop_map(|(a, limit, period, burst, delay, nodelay)| {
            // The eight with a script come first in Algorithm::ALL.
            let a = Algorithm::ALL[a];
            let burst = match (a, burst) {
                (Algorithm::Nginx, b) => b,
                (_, b) => b.map(|b| b.max(1)),
            };
            let nginx = a == Algorithm::Nginx;
            (
                a,
                Params {
                    limit,
                    period_ms: period,
                    burst: burst.filter(|_| a.uses_burst()),
                    delay: delay.filter(|_| nginx),
                    nodelay: nodelay && nginx,
                },
            )
        })
}

/// Gaps (0 often: simultaneous requests), keys among three, costs up to 3.
fn stream() -> impl Strategy<Value = Vec<(u64, usize, u32)>> {
    prop::collection::vec(
        (
            prop_oneof![3 => Just(0u64), 4 => 0u64..400, 1 => 0u64..20_000],
            0usize..3,
            prop_oneof![6 => Just(1u32), 1 => 1u32..4],
        ),
        1..160,
    )
    .prop_map(|steps| {
        let mut t = 0;
        steps
            .into_iter()
            .map(|(gap, key, cost)| {
                t += gap;
                (t, key, cost)
            })
            .collect()
    })
}

#[test]
fn random_parameters_and_streams_decide_as_the_engine() {
    let server = RedisServer::start().expect("redis-server");
    // The runner takes an `Fn`: the connection and the lane counter sit in cells.
    let redis = std::cell::RefCell::new(server.connect().unwrap());
    let lane = std::cell::Cell::new(0u64);
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(48);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&(params(), stream()), |((a, p), stream)| {
            let Ok(lua) = LuaLane::new(a, &p) else {
                return Ok(());
            };
            lane.set(lane.get() + 1);
            let id = format!("p{}", lane.get());
            let mut script = RedisLimiter::new(&id, a, &p, &KeySpace::default()).unwrap();
            let mut engine = Keyed::new(AnyLimiter::new(a, &p).unwrap());
            let keys = ["a", "b", ""];
            let requests: Vec<(&str, Clock, u32)> = stream
                .iter()
                .map(|&(t, k, c)| (keys[k], Clock::At(t), c.min(lua.capacity() as u32)))
                .collect();
            let decided = script
                .check_many(&mut redis.borrow_mut(), &requests)
                .unwrap();
            for (i, (&(key, clock, cost), r)) in requests.iter().zip(&decided).enumerate() {
                let Clock::At(t) = clock else { unreachable!() };
                let d = engine.check(key, t, cost).unwrap();
                if let Some(diff) = difference(&d, r) {
                    return Err(TestCaseError::fail(format!(
                        "{} {p:?} request {i} (t {t}, key {key:?}, cost {cost}): {diff}",
                        a.id()
                    )));
                }
                prop_assert!(
                    rest_matches(engine.get(key), t, r.rest_ms),
                    "{} {p:?} request {i}: rest {} ms",
                    a.id(),
                    r.rest_ms
                );
            }
            Ok(())
        })
        .unwrap();
}

//! SPEC's golden stream through every script, against the engine, request by request.

use ratelab_core::{Algorithm, AnyLimiter, Limiter, Params};
use ratelab_redis::compare::{difference, rest_matches};
use ratelab_redis::server::RedisServer;
use ratelab_redis::{Clock, RedisLimiter};
use ratelab_scripts::KeySpace;

const GOLDEN: [u64; 12] = [
    2000, 7000, 8000, 9000, 9500, 9800, 10_100, 10_400, 10_700, 11_200, 15_000, 19_500,
];

#[test]
fn every_script_decides_the_golden_stream_as_the_engine() {
    let server = RedisServer::start().expect("redis-server");
    let mut redis = server.connect().unwrap();
    let space = KeySpace::default();
    for a in Algorithm::ALL.into_iter().filter(|a| !a.is_teaching()) {
        let params = Params {
            burst: (a == Algorithm::Nginx).then_some(3),
            delay: (a == Algorithm::Nginx).then_some(1),
            ..Params::new(5, 10_000)
        };
        let mut engine = AnyLimiter::new(a, &params).unwrap();
        let mut script = RedisLimiter::new(a.id(), a, &params, &space).unwrap();
        for t in GOLDEN.into_iter().chain([30_000, 30_000, 30_001, 45_000]) {
            let d = engine.check(t, 1).unwrap();
            let r = script.check(&mut redis, "k", Clock::At(t), 1).unwrap();
            if let Some(diff) = difference(&d, &r) {
                panic!("{} at {t}: {diff}", a.id());
            }
            // The 429's header lines themselves, as text.
            assert_eq!(
                d.headers(&engine.policy()),
                r.headers(&script.policy()),
                "{} at {t}",
                a.id()
            );
            assert!(
                rest_matches(&engine, t, r.rest_ms),
                "{} at {t}: rest {}",
                a.id(),
                r.rest_ms
            );
        }
    }
}

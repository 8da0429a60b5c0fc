//! Every scenario through the engine and through Redis: every decision, every
//! header number and every time a key goes to rest, identical.

use crate::support;

use ratelab_redis::server::RedisServer;

#[test]
fn every_scenario_decides_as_the_engine() {
    let server = RedisServer::start().expect("redis-server");
    let mut redis = server.connect().unwrap();
    let (requests, decisions) = support::replay_all(&mut redis);
    assert!(requests >= 100_000, "only {requests} requests");
    eprintln!("{requests} requests, {decisions} decisions through Redis, all identical");
}

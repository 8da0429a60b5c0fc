//! Every scenario through the engine and through Redis: every decision, every
//! header number and every time a key goes to rest, identical.

mod support;

use ratelab_redis::replay::{replay, ReplayOptions};
use ratelab_redis::server::RedisServer;
use ratelab_sim::Overrides;
use support::{keyed_poisson, scenario_config};

#[test]
fn every_scenario_decides_as_the_engine() {
    let server = RedisServer::start().expect("redis-server");
    let mut redis = server.connect().unwrap();
    let mut configs: Vec<(String, ratelab_sim::Config)> = [
        "golden",
        "edge-burst",
        "2x-rate",
        "burst-then-drip",
        "lab-a",
        "lab-b",
        "lab-c",
        "lab-d",
        "lab-e",
    ]
    .into_iter()
    .map(|id| (id.to_string(), scenario_config(id, Overrides::default())))
    .collect();
    configs.push((
        "keyed poisson, mixed costs".into(),
        keyed_poisson(100, 600_000, 7),
    ));
    let mut requests = 0;
    let mut decisions = 0;
    for (name, config) in &configs {
        let started = std::time::Instant::now();
        let r = replay(&mut redis, config, &ReplayOptions::default()).expect(name);
        assert!(
            r.same(),
            "{name}: {} of {} decisions differ: {:#?}",
            r.differing,
            r.decisions,
            r.described
        );
        requests += config.stream.requests.len();
        decisions += r.decisions;
        eprintln!(
            "{name}: {} requests × {} lanes, identical ({:?})",
            config.stream.requests.len(),
            config.lanes.len(),
            started.elapsed()
        );
    }
    assert!(requests >= 100_000, "only {requests} requests");
    eprintln!("{requests} requests, {decisions} decisions through Redis, all identical");
}

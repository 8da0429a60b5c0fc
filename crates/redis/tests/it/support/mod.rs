//! What the Redis tests share: the lanes every scenario runs through, and scenario
//! configs.
#![allow(dead_code)]

use ratelab_core::{Algorithm, Params};
use ratelab_sim::{scenario, Config, LaneSpec, Overrides, ScenarioId};

/// Every limiter that has a script, at `limit` per `period_ms`, with options that
/// exercise each one (nginx twice: delaying, and `nodelay`).
pub fn all_lanes(limit: u64, period_ms: u64) -> Vec<LaneSpec> {
    let p = |burst: Option<u64>, delay: Option<u64>, nodelay: bool| Params {
        burst,
        delay,
        nodelay,
        ..Params::new(limit, period_ms)
    };
    vec![
        LaneSpec::new(Algorithm::FixedWindow, p(None, None, false)),
        LaneSpec::new(Algorithm::FixedWindowAnchored, p(None, None, false)),
        LaneSpec::new(Algorithm::SlidingLog, p(None, None, false)),
        LaneSpec::new(Algorithm::SlidingWindowCounter, p(None, None, false)),
        LaneSpec::new(Algorithm::TokenBucket, p(None, None, false)),
        LaneSpec::new(
            Algorithm::LeakyQueue,
            p(Some(limit.div_ceil(2)), None, false),
        ),
        LaneSpec::new(Algorithm::Gcra, p(Some(limit.div_ceil(3)), None, false)),
        LaneSpec::new(Algorithm::Nginx, p(Some(5), Some(2), false)),
        LaneSpec::new(Algorithm::Nginx, p(Some(limit), None, true)).with_id("nginx-nodelay"),
    ]
}

/// Scenario `id` with its own stream and budget, run through [`all_lanes`].
pub fn scenario_config(name: &str, overrides: Overrides) -> Config {
    let id = ScenarioId::from_id(name).expect(name);
    let base = scenario(id, &overrides).expect(name);
    let (limit, period) = base
        .lanes
        .first()
        .map(|l| (l.params.limit, l.params.period_ms))
        .expect("a lane");
    scenario(
        id,
        &Overrides {
            limiters: Some(all_lanes(limit, period)),
            ..overrides
        },
    )
    .expect(name)
}

/// A keyed Poisson stream (`clients` clients × `duration_ms` at the limit of 100
/// per minute) with costs 1, 2 and 3 mixed by a fixed rule.
pub fn keyed_poisson(clients: u32, duration_ms: u64, seed: u64) -> Config {
    let mut config = scenario_config(
        "poisson",
        Overrides {
            clients: Some(clients),
            duration_ms: Some(duration_ms),
            seed: Some(seed),
            ..Overrides::default()
        },
    );
    for (i, r) in config.stream.requests.iter_mut().enumerate() {
        r.cost = [1, 1, 2, 1, 3, 1, 1, 2][(i * 7 + r.key as usize) % 8];
    }
    config
}

/// The replays of the scenario tests: every scenario, its own stream and budget,
/// through [`all_lanes`], and a keyed Poisson stream with mixed costs (together over
/// 100 000 requests).
pub fn replay_configs() -> Vec<(String, Config)> {
    let mut configs: Vec<(String, Config)> = [
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
    configs
}

/// Replays every config of [`replay_configs`] through `redis` and checks that each
/// decides exactly as the engine; returns (requests, decisions).
pub fn replay_all(redis: &mut ratelab_redis::Redis) -> (usize, usize) {
    use ratelab_redis::replay::{replay, ReplayOptions};
    let mut requests = 0;
    let mut decisions = 0;
    for (name, config) in &replay_configs() {
        let started = std::time::Instant::now();
        let r = replay(redis, config, &ReplayOptions::default()).expect(name);
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
            "{name}: {} requests × {} lanes, identical ({:.1?})",
            config.stream.requests.len(),
            config.lanes.len(),
            started.elapsed()
        );
    }
    (requests, decisions)
}

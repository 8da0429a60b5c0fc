//! What the Redis tests share: the lanes every scenario runs through, and scenario
//! configs.
#![allow(dead_code)]

use ratelab_core::{Algorithm, Params};
use ratelab_sim::{scenario, Config, LaneSpec, Overrides};

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
pub fn scenario_config(id: &str, overrides: Overrides) -> Config {
    let base = scenario(id, &overrides).expect(id);
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
    .expect(id)
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

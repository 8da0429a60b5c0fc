//! The lanes each scenario runs when none are given.

use ratelab_core::Algorithm;

use crate::lane::LaneSpec;

use super::ScenarioId;

impl ScenarioId {
    /// The lanes this scenario runs when none are given, at budget `limit` per
    /// `period_ms` (the labs and the golden stream ignore the budget: their lanes are
    /// part of the lesson). `custom` has none. (The lanes a *playground* opens it with
    /// are [`crate::share::opening_lanes`].)
    pub fn lanes(self, limit: u64, period_ms: u64) -> Vec<LaneSpec> {
        use Algorithm::*;
        let lane = |a| LaneSpec::simple(a, limit, period_ms);
        let per_minute = |a| LaneSpec::simple(a, 100, 60_000);
        match self {
            ScenarioId::EdgeBurst | ScenarioId::EdgeBurstDemo | ScenarioId::PerSecond => {
                [FixedWindow, SlidingLog, TokenBucket].map(lane).to_vec()
            }
            ScenarioId::SwcLate | ScenarioId::SwcEarly => {
                [SlidingWindowCounter, SlidingLog, FixedWindow]
                    .map(|a| LaneSpec::simple(a, 5, 10_000))
                    .to_vec()
            }
            ScenarioId::TenAtOnce => {
                let nginx = || LaneSpec::simple(Nginx, limit, period_ms).with_burst(5);
                let mut nodelay = nginx();
                nodelay.params.nodelay = true;
                let mut delay = nginx();
                delay.params.delay = Some(3);
                vec![
                    nginx(),
                    nodelay.with_id("nginx_nodelay"),
                    delay.with_id("nginx_delay3"),
                    LaneSpec::simple(LeakyQueue, limit, period_ms).with_burst(6),
                    LaneSpec::simple(Gcra, limit, period_ms).with_burst(6),
                ]
            }
            ScenarioId::FloatEdge => [TokenBucketF64, TokenBucket, Gcra]
                .map(|a| LaneSpec::simple(a, 5, 10_000))
                .to_vec(),
            ScenarioId::TwiceTheRate => [
                FixedWindow,
                SlidingLog,
                SlidingWindowCounter,
                TokenBucket,
                LeakyQueue,
            ]
            .map(lane)
            .to_vec(),
            ScenarioId::BurstThenDrip => [FixedWindow, SlidingLog, TokenBucket, LeakyQueue]
                .map(lane)
                .to_vec(),
            ScenarioId::Manual => [
                FixedWindow,
                SlidingLog,
                SlidingWindowCounter,
                TokenBucket,
                LeakyQueue,
                Gcra,
            ]
            .map(lane)
            .to_vec(),
            ScenarioId::Golden => [
                FixedWindow,
                FixedWindowAnchored,
                SlidingLog,
                SlidingWindowCounter,
                TokenBucket,
                LeakyQueue,
                Gcra,
            ]
            .map(|a| LaneSpec::simple(a, 5, 10_000))
            .to_vec(),
            // The labs run every limiter their tables in the article name.
            ScenarioId::LabA | ScenarioId::LabE => [
                FixedWindow,
                FixedWindowAnchored,
                SlidingLog,
                SlidingWindowCounter,
                TokenBucket,
                Gcra,
                LeakyQueue,
            ]
            .map(per_minute)
            .to_vec(),
            ScenarioId::LabB => [
                FixedWindow,
                SlidingLog,
                SlidingWindowCounter,
                TokenBucket,
                Gcra,
                LeakyQueue,
            ]
            .map(per_minute)
            .to_vec(),
            ScenarioId::LabC => {
                let ten = |a| LaneSpec::simple(a, 10, 1_000);
                vec![
                    ten(TokenBucket).with_burst(1).with_id("token_bucket_b1"),
                    ten(TokenBucket).with_burst(20).with_id("token_bucket_b20"),
                    ten(Gcra).with_burst(20).with_id("gcra_b20"),
                    ten(LeakyQueue).with_burst(12),
                    ten(Nginx).with_burst(11),
                ]
            }
            ScenarioId::LabD => [SlidingWindowCounter, SlidingLog].map(per_minute).to_vec(),
            ScenarioId::Poisson => [FixedWindow, SlidingLog, SlidingWindowCounter, TokenBucket]
                .map(lane)
                .to_vec(),
            ScenarioId::Service => [SlidingLog, TokenBucket, Gcra].map(lane).to_vec(),
            ScenarioId::Custom
            | ScenarioId::NoisyNeighbour
            | ScenarioId::RetryStorm
            | ScenarioId::Instances
            | ScenarioId::StoreOutage
            | ScenarioId::PageLoad
            | ScenarioId::StackedLimits
            | ScenarioId::ExpensiveRoute => Vec::new(),
        }
    }
}

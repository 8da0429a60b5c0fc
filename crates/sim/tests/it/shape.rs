//! A parameterised scenario's shape ([`ratelab_sim::shape`]) against the stream the
//! scenario makes: the count and the last time exact, every window's requests and
//! distinct times bounded, the same refusals with the same messages, and an
//! estimate from the shape never below the estimate from the stream and deciding as
//! it does where the budget bites, so that what the shape lets into the
//! playground the stream's estimate lets in too. Every scenario of the registry is
//! either shaped or makes a stream the estimate can afford to measure.

use ratelab_core::Algorithm;
use ratelab_sim::cost::{timeline_cost, timeline_cost_of, Source};
use ratelab_sim::scenario::{self, shape};
use ratelab_sim::shape::{Shape, WindowLoad};
use ratelab_sim::{
    Budget, Config, LaneSpec, Overrides, ScenarioId, Stream, TimelineLimits, MAX_REQUESTS,
};

/// The most requests and distinct times inside any window `(t − L, t]` of a one-key
/// stream, by brute force over its sorted times (two pointers).
fn measured(stream: &Stream, window_ms: u64) -> WindowLoad {
    let times: Vec<u64> = stream.times().collect();
    let mut best = WindowLoad::default();
    let (mut lo, mut distinct) = (0, 0u64);
    for (j, &t) in times.iter().enumerate() {
        if j == 0 || times[j - 1] != t {
            distinct += 1;
        }
        while times[lo] as u128 + window_ms as u128 <= t as u128 {
            if times[lo + 1] != times[lo] {
                distinct -= 1;
            }
            lo += 1;
        }
        best.requests = best.requests.max((j - lo + 1) as u64);
        best.distinct = best.distinct.max(distinct);
    }
    best
}

fn overrides(limit: u64, period_ms: u64) -> Overrides {
    // One lane that always builds: the stream is what is compared here.
    let lane = LaneSpec::simple(Algorithm::FixedWindow, 1, 1_000);
    Overrides {
        limit: Some(limit),
        period_ms: Some(period_ms),
        limiters: Some(vec![lane]),
        ..Overrides::default()
    }
}

/// The scenarios whose stream is arithmetic on the budget (and so shaped).
const SHAPED: [ScenarioId; 5] = [
    ScenarioId::EdgeBurst,
    ScenarioId::EdgeBurstDemo,
    ScenarioId::TwiceTheRate,
    ScenarioId::BurstThenDrip,
    ScenarioId::TenAtOnce,
];

/// Checks `id`'s shape at `limit` per `period_ms` against its stream: the same
/// result, exact figures, bounded windows. Returns the pair when both exist.
fn check(id: ScenarioId, limit: u64, period_ms: u64) -> Option<(Shape, Config)> {
    let made = scenario::scenario(id, &overrides(limit, period_ms));
    let shaped = shape(id, limit, period_ms);
    let what = format!("{id} at {limit} per {period_ms}");
    let (shape, config) = match (shaped, made) {
        (Ok(Some(s)), Ok(c)) => (s, c),
        (Err(a), Err(b)) => {
            assert_eq!(a.as_str(), b.as_str(), "{what}");
            return None;
        }
        (a, b) => panic!(
            "{what}: shape {a:?}, stream {:?}",
            b.map(|c| c.stream.len())
        ),
    };
    let stream = &config.stream;
    assert_eq!(shape.requests, stream.len() as u64, "{what}");
    assert_eq!(shape.last_ms, stream.times().last().unwrap_or(0), "{what}");
    let mut windows = vec![1, 1_000, period_ms, u64::MAX];
    // (Fewer windows for the longest streams: the brute force is slow unoptimised.)
    if stream.len() < 100_000 {
        windows.extend([2, 3, 999, 1_001, period_ms / 10 + 1]);
        windows.extend([period_ms.saturating_mul(2), period_ms.saturating_mul(5)]);
    }
    for w in windows.into_iter().filter(|&w| w > 0) {
        let (bound, real) = (shape.window(w), measured(stream, w));
        assert!(
            bound.requests >= real.requests && bound.distinct >= real.distinct,
            "{what}, window {w}: bound {bound:?} below the stream's {real:?}"
        );
    }
    Some((shape, config))
}

#[test]
fn shapes_match_their_streams_at_many_budgets() {
    for id in SHAPED {
        for limit in [1, 2, 3, 5, 7, 10, 99, 100, 1_000, 4_321] {
            for period in [1, 2, 3, 7, 10, 999, 1_000, 10_000, 60_000, 86_400_000] {
                check(id, limit, period);
            }
        }
    }
}

/// At the caps: two million requests (the most each scenario may make), one more
/// (refused alike), the longest periods (past 2^53 − 1 ms, refused alike), and
/// limits past 2^32.
#[test]
fn shapes_match_their_streams_at_the_caps() {
    let most = MAX_REQUESTS as u64;
    for (id, per) in [
        (ScenarioId::EdgeBurst, 2),
        (ScenarioId::EdgeBurstDemo, 2),
        (ScenarioId::TwiceTheRate, 6),
        (ScenarioId::BurstThenDrip, 3),
        (ScenarioId::TenAtOnce, 1),
    ] {
        let limit = most / per;
        for period in [1, 1_000_000, 8_000_000_000_000_000] {
            // (Refused alike when the stream would run past 2^53 − 1 ms.)
            if let Some((shape, _)) = check(id, limit, period) {
                // (burst-then-drip makes 3N − 1.)
                assert!(
                    shape.requests <= most && most - shape.requests <= per,
                    "{id}"
                );
            }
            check(id, limit + 1, period);
        }
        for period in [(1 << 53) - 1, 9_000_000_000_000_000, 5_000_000_000_000_000] {
            check(id, 1, period);
            check(id, 1_000, period);
        }
        for limit in [0, u64::from(u32::MAX), u64::from(u32::MAX) + 1, u64::MAX] {
            check(id, limit, 1_000);
        }
        check(id, 5, 0);
    }
}

/// The estimate from the shape is at least the estimate from the stream, term by
/// term, and decides the same at the sizes where the budget bites.
#[test]
fn the_shapes_estimate_bounds_the_streams() {
    let limits = TimelineLimits::DEFAULT;
    let six_logs = |limit, period| vec![LaneSpec::simple(Algorithm::SlidingLog, limit, period); 6];
    for id in SHAPED {
        for (limit, period) in [
            (5, 10_000),
            (1_000, 1_000),
            (20_000, 3_600_000),
            (100_000, 1_000_000_000),
            (300_000, 60_000),
            (333_333, 8_000_000_000_000_000),
        ] {
            let Some((shape, config)) = check(id, limit, period) else {
                continue;
            };
            // The scenario's lanes where they build at this budget.
            let own = id.lanes(limit, period);
            let mut lane_sets = vec![six_logs(limit, period)];
            if own.iter().all(|l| l.build().is_ok()) {
                lane_sets.push(own);
            }
            lane_sets.push(vec![LaneSpec::simple(
                Algorithm::SlidingLogLogsBlocked,
                limit,
                period,
            )]);
            for lanes in lane_sets {
                let mut config = config.clone();
                config.lanes = (lanes.into_iter().enumerate())
                    .map(|(i, l)| l.with_id(format!("l{i}")))
                    .collect();
                let from_stream = timeline_cost(&config, &limits);
                let from_shape = timeline_cost_of(&config, Source::Shape(&shape), &limits);
                let what = format!("{id} at {limit} per {period}, {} lanes", config.lanes.len());
                assert_eq!(from_shape.requests, from_stream.requests, "{what}");
                let numbers = |c: &ratelab_sim::Cost| c.largest_state.map_or(0, |(_, n)| n);
                assert!(numbers(&from_shape) >= numbers(&from_stream), "{what}");
                assert!(
                    from_shape.bytes >= from_stream.bytes
                        && from_shape.steps >= from_stream.steps
                        && from_shape.query_steps >= from_stream.query_steps,
                    "{what}: shape {from_shape:?} below stream {from_stream:?}"
                );
                let budget = Budget::PLAYGROUND;
                assert_eq!(
                    from_shape.check(&budget).is_ok(),
                    from_stream.check(&budget).is_ok(),
                    "{what}: shape {from_shape:?}, stream {from_stream:?}"
                );
            }
        }
    }
}

/// Every other scenario either makes no stream of its own or a small one, so
/// measuring it is cheap; the seeded ones are bounded by their expected count
/// (refused before any work past two million) and measured once made.
#[test]
fn every_scenario_is_shaped_or_cheap_to_measure() {
    for id in ScenarioId::ALL {
        let info = id.info();
        let shaped = shape(id, info.limit, info.period_ms).unwrap();
        assert_eq!(shaped.is_some(), SHAPED.contains(&id), "{id}");
        if shaped.is_some() || matches!(id, ScenarioId::Poisson | ScenarioId::LabD) {
            continue;
        }
        let mut o = Overrides::default();
        if id == ScenarioId::Custom {
            o.limiters = Some(vec![LaneSpec::simple(Algorithm::Gcra, 1, 1000)]);
        }
        // (The service scenarios are not built without their feature.)
        if let Ok(config) = scenario::scenario(id, &o) {
            assert!(
                config.stream.len() <= 2_000,
                "{id}: {}",
                config.stream.len()
            );
        }
    }
}

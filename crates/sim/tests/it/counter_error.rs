//! The sliding window counter's marks against a brute-force count: for random
//! streams (keys, costs, simultaneous arrivals), every decision's true count, its
//! estimate and its mark are recomputed from scratch from the engine's decisions.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use ratelab_core::{Algorithm, Amount};
use ratelab_sim::counter_error::{counter_marks, Mark};
use ratelab_sim::{run, Config, LaneSpec, Request, Stream};

fn arb_case() -> impl Strategy<Value = (Stream, u64, u64)> {
    (
        1u32..4,
        prop::collection::vec((0u64..3_000, 0u32..4, 1u32..3), 0..150),
        2u64..8,
        1u64..2_000,
    )
        .prop_map(|(keys, gaps, limit, period_ms)| {
            let mut t = 0;
            let requests = gaps
                .into_iter()
                .map(|(gap, key, cost)| {
                    // Many gaps of 0 (simultaneous arrivals), some longer than W.
                    t += gap.saturating_sub(1_500) / 3;
                    Request {
                        t,
                        key: key % keys,
                        cost,
                    }
                })
                .collect();
            let stream = Stream {
                requests,
                keys: (0..keys).map(|k| format!("k{k}")).collect(),
            };
            (stream, limit, period_ms)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_marks_equal_a_brute_force_count((stream, limit, w) in arb_case()) {
        let config = Config::new(
            stream.clone(),
            vec![
                LaneSpec::simple(Algorithm::SlidingLog, limit, w),
                LaneSpec::simple(Algorithm::SlidingWindowCounter, limit, w),
            ],
            None,
        );
        let marks = counter_marks(&config, 1).unwrap();
        // The decisions are the engine's, as `run` reports them.
        let allowed = run(&config).unwrap().results[1].allowed.clone();
        prop_assert_eq!(marks.len(), stream.requests.len());
        let rs = &stream.requests;
        for (i, (r, m)) in rs.iter().zip(&marks).enumerate() {
            prop_assert_eq!(m.allowed, allowed[i]);
            let earlier = || {
                rs[..i]
                    .iter()
                    .zip(&allowed)
                    .filter(|(s, &a)| a && s.key == r.key)
                    .map(|(s, _)| s)
            };
            // The true count: this key's admissions in (t − W, t], before it.
            let true_count: u64 = earlier()
                .filter(|s| s.t + w > r.t)
                .map(|s| u64::from(s.cost))
                .sum();
            prop_assert_eq!(m.true_count, true_count, "request {}", i);
            // The estimate, from its definition: the previous clock window's
            // admissions weighted by its overlap, plus the current window's.
            let window = r.t / w;
            let in_window = |k: u64| -> u64 {
                earlier()
                    .filter(|s| s.t / w == k)
                    .map(|s| u64::from(s.cost))
                    .sum()
            };
            let prev = if window == 0 { 0 } else { in_window(window - 1) };
            let curr = in_window(window);
            let scaled = prev * (w - (r.t - window * w)) + curr * w;
            prop_assert_eq!(m.estimate, Amount::new(u128::from(scaled), w), "request {}", i);
            // The counter's rule, and the mark against the exact rule.
            let cost = u64::from(r.cost);
            prop_assert_eq!(m.allowed, scaled + (cost - 1) * w < limit * w);
            let exact = true_count + cost <= limit;
            let mark = match (m.allowed, exact) {
                (true, false) => Mark::WrongAllow,
                (false, true) => Mark::WrongBlock,
                _ => Mark::Right,
            };
            prop_assert_eq!(m.mark, mark, "request {}", i);
        }
    }
}

#[test]
fn a_wrong_allow_is_what_lets_a_window_hold_more_than_n() {
    // Without a wrong allow, the counter's own admissions never exceed N in any
    // window; the golden stream's two wrong allows make its busiest window 6.
    let config = ratelab_sim::scenario(
        ratelab_sim::ScenarioId::Golden,
        &ratelab_sim::Overrides::default(),
    )
    .unwrap();
    let j = config
        .lanes
        .iter()
        .position(|l| l.algorithm == Algorithm::SlidingWindowCounter)
        .unwrap();
    let marks = counter_marks(&config, j).unwrap();
    let most = marks
        .iter()
        .filter(|m| m.allowed)
        .map(|m| m.true_count + 1)
        .max()
        .unwrap();
    let report = run(&config).unwrap();
    assert_eq!(most, report.results[j].yardstick.max_in_window);
    assert_eq!(most, 6);
    assert_eq!(
        marks.iter().filter(|m| m.mark == Mark::WrongAllow).count(),
        2
    );
}

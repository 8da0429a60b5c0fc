//! The yardstick is fair: governor's GCRA (100 per minute, burst 100, fake clock)
//! and ratelab's `gcra` make the same decision on every request of the benchmark's
//! stream, and of the same traffic at twice the rate (where many are denied). A few
//! clients only, to stay quick.
#![cfg(not(target_arch = "wasm32"))]

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::FakeRelativeClock;
use governor::{Quota, RateLimiter};
use ratelab_bench::{limiter, traffic, Workload, LIMIT};
use ratelab_core::{Algorithm, Limiter};
use ratelab_sim::traffic::Poisson;

/// Requests denied, after checking every decision against governor's.
fn denied_by_both(w: &Workload) -> u32 {
    let clock = FakeRelativeClock::default();
    let quota = Quota::per_minute(NonZeroU32::new(LIMIT as u32).unwrap());
    let theirs: Vec<_> = (0..w.clients())
        .map(|_| RateLimiter::direct_with_clock(quota, clock.clone()))
        .collect();
    let mut ours = vec![limiter(Algorithm::Gcra); w.clients()];
    let mut now = 0;
    let mut denied = 0;
    for (i, r) in w.requests().iter().enumerate() {
        clock.advance(Duration::from_millis(r.t - now));
        now = r.t;
        let a = theirs[r.key as usize].check().is_ok();
        let b = ours[r.key as usize].check(r.t, 1).unwrap().allowed();
        assert_eq!(a, b, "request {i} at {} ms from client {}", r.t, r.key);
        denied += !a as u32;
    }
    denied
}

#[test]
fn governor_decides_like_our_gcra_on_the_benchmark_stream() {
    denied_by_both(&Workload::with_clients(8));
}

#[test]
fn and_at_twice_the_rate() {
    let w = Workload::with_traffic(&Poisson {
        load_permille: 2000,
        ..traffic(4)
    });
    assert!(denied_by_both(&w) > 500);
}

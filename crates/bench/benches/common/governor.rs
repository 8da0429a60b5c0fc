//! The yardstick: the benchmark's workload through governor's GCRA, as both the
//! criterion benchmark (`check.rs`) and the profiling example (`examples/profile.rs`)
//! run it. Included by path from both (governor is a dev-dependency, so the library
//! cannot hold it).

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, FakeRelativeClock};
use governor::{Quota, RateLimiter};
use ratelab_bench::{Tally, Workload, LIMIT};

/// The same workload through governor: one direct `RateLimiter` per client on one
/// shared fake clock (clones of `FakeRelativeClock` share its time), advanced to each
/// request's time before the check. Quota: 100 per minute, burst 100, the same
/// GCRA as ratelab's `gcra` with these parameters (`tests/governor.rs` checks that
/// they decide alike).
#[inline(never)]
pub fn governor_run(workload: &Workload) -> Tally {
    let clock = FakeRelativeClock::default();
    let quota = Quota::per_minute(NonZeroU32::new(LIMIT as u32).unwrap_or(NonZeroU32::MIN));
    let limiters: Vec<_> = (0..workload.clients())
        .map(|_| RateLimiter::direct_with_clock(quota, clock.clone()))
        .collect();
    let mut now = 0;
    // Counted in locals, as `ratelab_bench::drive` counts.
    let (mut allowed, mut digest) = (0u64, 0u64);
    for r in workload.requests() {
        if r.t > now {
            clock.advance(Duration::from_millis(r.t - now));
            now = r.t;
        }
        // Consumed as drive() consumes ours: the verdict, and for a denial the
        // wait a server would put in Retry-After (governor computes it lazily).
        match limiters[r.key as usize].check() {
            Ok(()) => allowed += 1,
            Err(not_until) => {
                let wait = not_until.wait_time_from(clock.now());
                digest = digest.rotate_left(5).wrapping_add(wait.as_nanos() as u64);
            }
        }
    }
    Tally {
        decisions: workload.len() as u64,
        allowed,
        errors: 0,
        digest,
    }
}

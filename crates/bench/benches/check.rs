//! `check` per limiter on one realistic stream, and governor's GCRA on the same
//! stream in the same run (the yardstick the ratios are taken against).
//!
//! ```sh
//! cargo bench -p ratelab-bench --bench check            # what `cargo xtask bench` runs
//! ```
//!
//! Every benchmark is one whole pass over the workload (about 300 000 requests,
//! fresh limiter states per pass); criterion reports time per pass and, through the
//! throughput, per decision. `check/<id>` is ratelab's limiter, `governor/<id>`
//! governor's GCRA measured just before it. `cargo xtask bench` reads criterion's
//! estimates and divides.

// Native only: criterion and governor are not built for wasm32 (the browser side of
// the benchmark is `browser/`).
#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::hint::black_box;
    use std::num::NonZeroU32;
    use std::time::Duration;

    use criterion::{Criterion, Throughput};
    use governor::clock::{Clock, FakeRelativeClock};
    use governor::{Quota, RateLimiter};
    use ratelab_bench::{run, Tally, Workload, LIMIT};
    use ratelab_core::Algorithm;

    /// The same workload through governor: one direct `RateLimiter` per client on one
    /// shared fake clock (clones of `FakeRelativeClock` share its time), advanced to each
    /// request's time before the check. Quota: 100 per minute, burst 100, the same
    /// GCRA as ratelab's `gcra` with these parameters (`tests/governor.rs` checks that
    /// they decide alike).
    fn governor_run(workload: &Workload) -> Tally {
        let clock = FakeRelativeClock::default();
        let quota = Quota::per_minute(NonZeroU32::new(LIMIT as u32).unwrap_or(NonZeroU32::MIN));
        let limiters: Vec<_> = (0..workload.clients())
            .map(|_| RateLimiter::direct_with_clock(quota, clock.clone()))
            .collect();
        let mut now = 0;
        let mut tally = Tally::default();
        for r in workload.requests() {
            if r.t > now {
                clock.advance(Duration::from_millis(r.t - now));
                now = r.t;
            }
            // Consumed as drive() consumes ours: the verdict, and for a denial the
            // wait a server would put in Retry-After (governor computes it lazily).
            match limiters[r.key as usize].check() {
                Ok(()) => tally.allowed += 1,
                Err(not_until) => {
                    let wait = not_until.wait_time_from(clock.now());
                    tally.digest = tally
                        .digest
                        .rotate_left(5)
                        .wrapping_add(wait.as_nanos() as u64);
                }
            }
            tally.decisions += 1;
        }
        tally
    }

    fn check(c: &mut Criterion) {
        let workload = Workload::new();
        let elements = Throughput::Elements(workload.len() as u64);
        // Each limiter right after a fresh measurement of governor: on a machine
        // shared with compiles, the load changes within a run, and a ratio taken
        // between neighbours is far steadier than one against a single early
        // measurement. `cargo xtask bench` divides `check/<id>` by `governor/<id>`.
        for algorithm in Algorithm::ALL {
            for (group, governor) in [("governor", true), ("check", false)] {
                let mut g = c.benchmark_group(group);
                g.throughput(elements.clone());
                // Each pass is milliseconds long; fewer, longer samples are plenty.
                g.sample_size(30);
                g.bench_function(algorithm.id(), |b| {
                    if governor {
                        b.iter(|| governor_run(&workload))
                    } else {
                        b.iter(|| run(black_box(algorithm), &workload))
                    }
                });
                g.finish();
            }
        }

        // What each decided, once, outside the timing: the table prints it, and a
        // mismatch between governor and our GCRA would show here first.
        for algorithm in Algorithm::ALL {
            let t = run(algorithm, &workload);
            println!(
                "ratelab-bench: {} decisions={} allowed={} errors={}",
                algorithm.id(),
                t.decisions,
                t.allowed,
                t.errors
            );
        }
        let g = governor_run(&workload);
        println!(
            "ratelab-bench: governor_gcra decisions={} allowed={} errors=0",
            g.decisions, g.allowed
        );
    }

    /// What `criterion_group!` would write, public for `criterion_main!` below.
    pub fn benches() {
        let mut c = Criterion::default().configure_from_args();
        check(&mut c);
    }
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(native::benches);

#[cfg(target_arch = "wasm32")]
fn main() {}

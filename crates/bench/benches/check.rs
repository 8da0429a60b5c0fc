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
#[path = "common/governor.rs"]
mod governor;

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::hint::black_box;

    use criterion::{Criterion, Throughput};
    use ratelab_bench::{run, Workload};
    use ratelab_core::Algorithm;

    use super::governor::governor_run;

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

//! One pass of one limiter over the benchmark's stream, for a profiler: instruction
//! counts are deterministic under callgrind, unlike times on a shared machine.
//!
//! ```sh
//! cargo build --profile bench -p ratelab-bench --example profile
//! valgrind --tool=callgrind --toggle-collect='*drive*' \
//!     target/release/examples/profile nginx          # Ir / decisions = instructions per check
//! ```
//!
//! With `RATELAB_PROFILE_PASSES=N` each limiter runs N passes and the median time
//! per check is printed too: a quick A/B between two builds on a quiet machine, not
//! the benchmark (`cargo xtask bench` is).
//!
//! `governor_gcra` runs the yardstick, governor's GCRA, the same way
//! (`--toggle-collect='*governor_run*'`), for instruction counts side by side.

#[path = "../benches/common/governor.rs"]
mod governor;

use std::time::Instant;

use ratelab_bench::{run, Tally, Workload};
use ratelab_core::Algorithm;

/// Runs `pass` `passes` times; the median ns per check of those passes.
fn median_ns(passes: usize, checks: usize, mut pass: impl FnMut() -> Tally) -> f64 {
    let mut ns: Vec<f64> = (0..passes)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(pass());
            start.elapsed().as_nanos() as f64 / checks.max(1) as f64
        })
        .collect();
    ns.sort_by(f64::total_cmp);
    ns.get(ns.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() {
    let ids: Vec<String> = std::env::args().skip(1).collect();
    let passes: usize = std::env::var("RATELAB_PROFILE_PASSES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let workload = &Workload::new();
    for id in &ids {
        let pass: Box<dyn Fn() -> Tally> = if id == "governor_gcra" {
            Box::new(|| governor::governor_run(workload))
        } else {
            let Some(algorithm) = Algorithm::from_id(id) else {
                eprintln!("unknown limiter `{id}`");
                std::process::exit(2);
            };
            Box::new(move || run(algorithm, workload))
        };
        let t = pass();
        print!("{id}: {} decisions, {} allowed", t.decisions, t.allowed);
        if passes > 0 {
            print!(
                ", {:.2} ns per check",
                median_ns(passes, workload.len(), &pass)
            );
        }
        println!();
    }
}

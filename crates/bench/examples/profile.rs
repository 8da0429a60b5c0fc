//! One pass of one limiter over the benchmark's stream, for a profiler: instruction
//! counts are deterministic under callgrind, unlike times on a shared machine.
//!
//! ```sh
//! cargo build --profile bench -p ratelab-bench --example profile
//! valgrind --tool=callgrind --toggle-collect='*drive*' \
//!     target/release/examples/profile nginx          # Ir / decisions = instructions per check
//! ```
//!
//! `governor_gcra` is not here (governor is only a dev-dependency of the benchmark);
//! `cargo xtask bench` reports its time.

use ratelab_bench::{run, Workload};
use ratelab_core::Algorithm;

fn main() {
    let ids: Vec<String> = std::env::args().skip(1).collect();
    let workload = Workload::new();
    for id in &ids {
        let Some(algorithm) = Algorithm::from_id(id) else {
            eprintln!("unknown limiter `{id}`");
            std::process::exit(2);
        };
        let t = run(algorithm, &workload);
        println!("{id}: {} decisions, {} allowed", t.decisions, t.allowed);
    }
}

//! Where the playground's JSON import spends its time before the first slice is
//! built (`Playground::import_json` in crates/web/src/state.rs): the text read
//! into a [`Config`], the setup's config checked against the budget, and the
//! timeline prepared. A measurement to read, not a test:
//!
//! ```sh
//! cargo run --release -p ratelab-sim --example import_cost [requests...]
//! ```

use std::hint::black_box;
use std::time::Instant;

use ratelab_sim::share::{normalise_ids, Setup};
use ratelab_sim::{Config, ScenarioId, Timeline};

fn text(n: usize) -> String {
    // What crates/bench/browser/import.mjs writes: bare times 5 ms apart, two lanes.
    let times: Vec<String> = (0..n).map(|i| (i * 5).to_string()).collect();
    format!(
        r#"{{"requests":[{}],"limiters":[{{"algorithm":"fixed_window","limit":5,"period_ms":10000}},{{"algorithm":"token_bucket","limit":5,"period_ms":10000}}]}}"#,
        times.join(",")
    )
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![200_000, 2_000_000]
    } else {
        sizes
    };
    for n in sizes {
        let text = text(n);
        let t = Instant::now();
        let c = Config::from_json(&text).expect("valid");
        let parse = t.elapsed();
        let t = Instant::now();
        let mut next = Setup::for_scenario(ScenarioId::Custom);
        let mut lanes = c.lanes;
        normalise_ids(&mut lanes);
        next.lanes = lanes;
        next.requests = c.stream;
        next.window_ms = c.window_ms;
        let setup = t.elapsed();
        let t = Instant::now();
        let config = next.playground_config().expect("within the budget");
        let budget = t.elapsed();
        let t = Instant::now();
        let prepared = Timeline::prepare(&config).expect("within the budget");
        let prepare = t.elapsed();
        black_box(prepared);
        println!(
            "{n} requests, {} MB: from_json {parse:?}, setup {setup:?}, playground_config {budget:?}, prepare {prepare:?}",
            text.len() / 1_000_000
        );
    }
}

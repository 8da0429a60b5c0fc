//! What a timeline query costs: 20 000 requests × 6 lanes, then snapshots, headers,
//! explanations and yardsticks at random moments (the playground asks for these every
//! frame). A measurement to read, not a test:
//!
//! ```sh
//! cargo run --release -p ratelab-sim --example timeline_cost
//! ```

use std::hint::black_box;
use std::time::Instant;

use ratelab_sim::traffic::Poisson;
use ratelab_sim::ScenarioId;
use ratelab_sim::Timeline;

fn main() {
    let stream = Poisson {
        clients: 20,
        load_permille: 1500,
        limit: 100,
        period_ms: 60_000,
        duration_ms: 400_000,
        seed: 1,
    }
    .stream()
    .expect("valid traffic");
    let lanes = ScenarioId::Manual.lanes(100, 60_000);
    let started = Instant::now();
    let mut tl = Timeline::new(lanes, None).expect("valid lanes");
    tl.extend(&stream).expect("sorted stream");
    let pushed = started.elapsed();
    let n = tl.len();
    let last = tl.last_time().unwrap_or(0);
    println!(
        "pushed {n} requests × {} lanes in {:.1} ms ({:.2} µs per request); {} items stored",
        tl.lane_count(),
        pushed.as_secs_f64() * 1e3,
        pushed.as_secs_f64() * 1e6 / n as f64,
        tl.stored_items()
    );
    let queries = 2_000u64;
    // Spread the probes over the whole history (a deterministic walk).
    let times: Vec<u64> = (0..queries).map(|i| (i * 7_919) % (last + 1)).collect();
    let time = |name: &str, f: &mut dyn FnMut(u64, usize)| {
        let started = Instant::now();
        for (i, &t) in times.iter().enumerate() {
            f(t, i % tl.lane_count());
        }
        let each = started.elapsed().as_secs_f64() * 1e6 / queries as f64;
        println!("{name:<16} {each:>8.1} µs per query");
    };
    time("snapshot_at", &mut |t, lane| {
        black_box(tl.snapshot_at(lane, "client-3", t).ok());
    });
    time("headers_at", &mut |t, lane| {
        black_box(tl.headers_at(lane, "client-3", t).ok());
    });
    time("explain", &mut |t, lane| {
        black_box(tl.explain(lane, tl.index_at(t).min(n - 1)).ok());
    });
    time("yardstick_until", &mut |t, lane| {
        black_box(tl.yardstick_until(lane, t).ok());
    });
    time("visible (10 s)", &mut |t, _| {
        black_box(tl.visible(t, t + 10_000));
    });
}

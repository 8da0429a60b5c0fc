//! The tower part: requests per second through an axum handler without a limiter,
//! with ratelab-tower in memory and on Redis, and with tower-governor, every request
//! allowed (`crates/tower/examples/throughput.rs`, built with the crate's `bench`
//! feature, which CI's tests never turn on).

use super::run_tee;
use crate::util::{Ctx, Result};

/// One server's measurement over the rounds.
pub(super) struct TowerRow {
    pub id: String,
    /// Requests per second, the median over rounds.
    pub per_s: f64,
    /// The median of its per-round ratio to the bare axum handler.
    pub ratio: f64,
}

/// What the tower part measured.
pub(super) struct TowerBench {
    pub requests: u64,
    pub rounds: usize,
    pub connections: u64,
    /// The bare handler's requests per second, the median over rounds.
    pub axum_per_s: f64,
    /// Every layer, in the order printed.
    pub rows: Vec<TowerRow>,
}

pub(super) fn run(ctx: &Ctx, quick: bool) -> Result<TowerBench> {
    let mut cmd = ctx.cargo();
    cmd.args([
        "run",
        "--release",
        "-p",
        "ratelab-tower",
        "--features",
        "bench",
        "--example",
        "throughput",
    ]);
    if quick {
        cmd.args(["--", "--quick"]);
    }
    parse(&run_tee(&mut cmd)?)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Reads `connections C` and `round R ID REQUESTS SECONDS` lines.
fn parse(out: &str) -> Result<TowerBench> {
    let mut samples: Vec<(usize, String, f64)> = Vec::new();
    let mut requests = 0;
    let mut connections = 0;
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["connections", n] => connections = n.parse().unwrap_or(0),
            ["round", r, id, n, s] => {
                let bad = || format!("unexpected line from the tower benchmark: {line:?}");
                let (r, n, s): (usize, u64, f64) = (
                    r.parse().map_err(|_| bad())?,
                    n.parse().map_err(|_| bad())?,
                    s.parse().map_err(|_| bad())?,
                );
                requests = n;
                samples.push((r, id.to_string(), n as f64 / s.max(1e-9)));
            }
            _ => {}
        }
    }
    let bare = |round: usize| {
        samples
            .iter()
            .find(|(r, id, _)| *r == round && id == "axum")
            .map(|s| s.2)
    };
    let mut ids: Vec<String> = Vec::new();
    for (_, id, _) in &samples {
        if id != "axum" && !ids.contains(id) {
            ids.push(id.clone());
        }
    }
    if ids.is_empty() || bare(1).is_none() {
        return Err("the tower benchmark printed no measurements".into());
    }
    let rounds = samples.iter().map(|s| s.0).max().unwrap_or(0);
    let rows = ids
        .into_iter()
        .map(|id| {
            let mine: Vec<&(usize, String, f64)> = samples.iter().filter(|s| s.1 == id).collect();
            TowerRow {
                per_s: median(mine.iter().map(|s| s.2).collect()),
                ratio: median(
                    mine.iter()
                        .filter_map(|s| bare(s.0).map(|b| s.2 / b))
                        .collect(),
                ),
                id,
            }
        })
        .collect();
    Ok(TowerBench {
        requests,
        rounds,
        connections,
        axum_per_s: median((1..=rounds).filter_map(bare).collect()),
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rounds_and_takes_medians_of_ratios_to_the_bare_handler() {
        let out = "connections 16\nround 1 axum 1000 0.1\nround 1 ratelab_memory 1000 0.2\n\
                   round 2 axum 1000 0.1\nround 2 ratelab_memory 1000 0.4\nnoise\n";
        let b = parse(out).unwrap();
        assert_eq!((b.requests, b.rounds, b.connections), (1000, 2, 16));
        assert_eq!(b.axum_per_s, 10_000.0);
        assert_eq!(b.rows.len(), 1);
        assert_eq!(b.rows[0].per_s, 3_750.0);
        assert!((b.rows[0].ratio - 0.375).abs() < 1e-12);
        assert!(parse("nothing").is_err());
    }
}

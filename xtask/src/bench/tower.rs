//! The tower part: requests per second through an axum handler without a limiter,
//! with ratelab-tower in memory and on Redis, and with tower-governor, every request
//! allowed (`crates/tower/examples/throughput.rs`, built with the crate's `bench`
//! feature, which CI's tests never turn on).

use super::run_tee;
use crate::util::{Ctx, Result};

/// One server's measurement over the rounds (its ratio is to the bare handler's).
pub(super) type TowerRow = super::rounds::Row;

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

/// Reads `connections C` and `round R ID REQUESTS SECONDS` lines.
fn parse(out: &str) -> Result<TowerBench> {
    let connections = out
        .lines()
        .find_map(|l| l.strip_prefix("connections "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    let r = super::rounds::read(out, "tower benchmark", "axum")?;
    Ok(TowerBench {
        requests: r.n,
        rounds: r.rounds,
        connections,
        axum_per_s: r.baseline_per_s,
        rows: r.rows,
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

//! The Redis part: decisions per second through each limiter's script on a local
//! redis-server (started by `crates/redis/examples/throughput.rs`, pipelined from
//! Rust), next to plain `INCR`, two script floors and a minimal float GCRA script
//! (the yardstick) measured in the same rounds.

use super::run_tee;
use crate::util::{Ctx, Result};

/// The O(1) scripts on the server's clock aim for at least this multiple of the
/// yardstick's rate (a minimal float GCRA script, also on the server's clock).
pub(super) const TARGET_RATIO: f64 = 1.0;

/// The yardstick's id in the rounds.
pub(super) const YARDSTICK: &str = "float_gcra";

/// One script's measurement over the rounds (its ratio is to INCR's rate).
pub(super) type RedisRow = super::rounds::Row;

impl RedisRow {
    /// Whether the target applies: the O(1) limiter scripts on the server's clock
    /// (not the sliding log, whose state grows with N, nor the floors).
    pub fn targeted(&self) -> bool {
        self.id.ends_with("@TIME") && self.id != "sliding_log@TIME"
    }
}

/// What the Redis part measured.
pub(super) struct RedisBench {
    pub version: String,
    pub calls: u64,
    pub rounds: usize,
    /// Calls per pipeline.
    pub batch: u64,
    /// INCR per second, the median over rounds.
    pub incr_per_s: f64,
    /// The floors and the yardstick first, then the eight limiters (each on
    /// virtual times, then `@TIME`).
    pub rows: Vec<RedisRow>,
    /// Each row's rate over the yardstick's (median of the per-round ratios), in
    /// the order of `rows`; `None` for the yardstick itself or when it is missing.
    pub vs_yardstick: Vec<Option<f64>>,
}

pub(super) fn run(ctx: &Ctx, quick: bool) -> Result<RedisBench> {
    let mut cmd = ctx.cargo();
    cmd.args([
        "run",
        "--release",
        "-p",
        "ratelab-redis",
        "--example",
        "throughput",
    ]);
    if quick {
        cmd.args(["--", "--quick"]);
    }
    parse(&run_tee(&mut cmd)?)
}

/// Reads `redis-version V`, `batch B` and `round R ID CALLS SECONDS` lines.
fn parse(out: &str) -> Result<RedisBench> {
    let mut version = String::from("?");
    let mut batch = 0;
    for line in out.lines() {
        match line.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["redis-version", v] => version = v.to_string(),
            ["batch", n] => batch = n.parse().unwrap_or(0),
            _ => {}
        }
    }
    let r = super::rounds::read(out, "Redis benchmark", "incr")?;
    let y = super::rounds::read(out, "Redis benchmark", YARDSTICK).ok();
    let vs_yardstick = r
        .rows
        .iter()
        .map(|row| {
            let y = y.as_ref()?;
            y.rows.iter().find(|r| r.id == row.id).map(|r| r.ratio)
        })
        .collect();
    Ok(RedisBench {
        vs_yardstick,
        version,
        calls: r.n,
        rounds: r.rounds,
        batch,
        incr_per_s: r.baseline_per_s,
        rows: r.rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rounds_and_takes_medians_of_neighbour_ratios() {
        let out =
            "redis-version 7.0.15\nbatch 512\nround 1 incr 1000 0.01\nround 1 gcra 1000 0.04\n\
                   round 1 float_gcra 1000 0.05\nround 1 gcra@TIME 1000 0.04\n\
                   round 2 incr 1000 0.02\nround 2 gcra 1000 0.04\nround 2 float_gcra 1000 0.02\n\
                   round 2 gcra@TIME 1000 0.04\nnoise\n";
        let b = parse(out).unwrap();
        assert_eq!(
            (b.version.as_str(), b.calls, b.rounds, b.batch),
            ("7.0.15", 1000, 2, 512)
        );
        assert_eq!(b.rows.len(), 3);
        assert_eq!(b.rows[0].per_s, 25_000.0);
        // Ratios 0.25 and 0.5 from each round's own INCR: median 0.375.
        assert!((b.rows[0].ratio - 0.375).abs() < 1e-12);
        assert!(!b.rows[0].targeted() && b.rows[2].targeted());
        // Against the yardstick: 1.25 and 0.5 in its own rounds, median 0.875.
        assert!((b.vs_yardstick[2].unwrap() - 0.875).abs() < 1e-12);
        assert_eq!(b.vs_yardstick[1], None);
        assert!(parse("nothing").is_err());
    }
}

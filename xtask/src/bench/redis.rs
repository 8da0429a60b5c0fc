//! The Redis part: decisions per second through each limiter's script on a local
//! redis-server (started by `crates/redis/examples/throughput.rs`, pipelined from
//! Rust), next to plain `INCR` and two script floors measured in the same rounds.

use super::run_tee;
use crate::util::{Ctx, Result};

/// The O(1) scripts aim for at least this fraction of the INCR baseline's rate.
pub(super) const TARGET_RATIO: f64 = 0.5;

/// One script's measurement over the rounds.
pub(super) struct RedisRow {
    pub id: String,
    /// Calls per second, the median over rounds.
    pub per_s: f64,
    /// The median of its per-round ratio to INCR.
    pub ratio: f64,
}

impl RedisRow {
    /// Whether the target applies: the O(1) limiter scripts (not the sliding log,
    /// whose state grows with N, nor the floors).
    pub fn targeted(&self) -> bool {
        !matches!(
            self.id.as_str(),
            "sliding_log" | "eval_return_1" | "eval_get_set"
        )
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
    /// The floors first, then the eight limiters.
    pub rows: Vec<RedisRow>,
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

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Reads `redis-version V` and `round R ID CALLS SECONDS` lines.
fn parse(out: &str) -> Result<RedisBench> {
    let mut version = String::from("?");
    // (round, id, calls per second), in the order printed.
    let mut samples: Vec<(usize, String, f64)> = Vec::new();
    let mut calls = 0;
    let mut batch = 0;
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["redis-version", v] => version = v.to_string(),
            ["batch", n] => batch = n.parse().unwrap_or(0),
            ["round", r, id, n, s] => {
                let bad = || format!("unexpected line from the Redis benchmark: {line:?}");
                let (r, n, s): (usize, u64, f64) = (
                    r.parse().map_err(|_| bad())?,
                    n.parse().map_err(|_| bad())?,
                    s.parse().map_err(|_| bad())?,
                );
                calls = n;
                samples.push((r, id.to_string(), n as f64 / s.max(1e-9)));
            }
            _ => {}
        }
    }
    let incr = |round: usize| {
        samples
            .iter()
            .find(|(r, id, _)| *r == round && id == "incr")
            .map(|s| s.2)
    };
    let mut ids: Vec<String> = Vec::new();
    for (_, id, _) in &samples {
        if id != "incr" && !ids.contains(id) {
            ids.push(id.clone());
        }
    }
    if ids.is_empty() || incr(1).is_none() {
        return Err("the Redis benchmark printed no measurements".into());
    }
    let rounds = samples.iter().map(|s| s.0).max().unwrap_or(0);
    let rows = ids
        .into_iter()
        .map(|id| {
            let mine: Vec<&(usize, String, f64)> = samples.iter().filter(|s| s.1 == id).collect();
            RedisRow {
                per_s: median(mine.iter().map(|s| s.2).collect()),
                ratio: median(
                    mine.iter()
                        .filter_map(|s| incr(s.0).map(|i| s.2 / i))
                        .collect(),
                ),
                id,
            }
        })
        .collect();
    Ok(RedisBench {
        version,
        calls,
        rounds,
        batch,
        incr_per_s: median((1..=rounds).filter_map(incr).collect()),
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rounds_and_takes_medians_of_neighbour_ratios() {
        let out =
            "redis-version 7.0.15\nbatch 512\nround 1 incr 1000 0.01\nround 1 gcra 1000 0.04\n\
                   round 2 incr 1000 0.02\nround 2 gcra 1000 0.04\nnoise\n";
        let b = parse(out).unwrap();
        assert_eq!(
            (b.version.as_str(), b.calls, b.rounds, b.batch),
            ("7.0.15", 1000, 2, 512)
        );
        assert_eq!(b.rows.len(), 1);
        assert_eq!(b.rows[0].per_s, 25_000.0);
        // Ratios 0.25 and 0.5 from each round's own INCR: median 0.375.
        assert!((b.rows[0].ratio - 0.375).abs() < 1e-12);
        assert!(b.rows[0].targeted());
        assert!(parse("nothing").is_err());
    }
}

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
    /// Whether the target applies: the O(1) limiter scripts on the server's clock,
    /// by `EVALSHA` or `FCALL` (not the sliding log, whose state grows with N, nor
    /// the floors).
    pub fn targeted(&self) -> bool {
        (self.id.ends_with("@TIME") || self.id.ends_with("@FCALL"))
            && !self.id.starts_with("sliding_log@")
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
    /// virtual times, then `@TIME`, then `@FCALL`).
    pub rows: Vec<RedisRow>,
    /// Each row's rate over the yardstick's measured nearest to it (the one just
    /// before, else just after, in the same round), the median over rounds, in the
    /// order of `rows`; `None` for the yardstick itself or when it is missing.
    pub vs_yardstick: Vec<Option<f64>>,
    /// Instructions per call inside Redis (callgrind), by id, when valgrind ran.
    pub instructions: Vec<(String, u64)>,
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
    let near = neighbour_ratios(out);
    let vs_yardstick = r
        .rows
        .iter()
        .map(|row| {
            let mut v: Vec<f64> = near
                .iter()
                .filter(|(id, _)| *id == row.id)
                .map(|&(_, x)| x)
                .collect();
            if v.is_empty() {
                return None;
            }
            v.sort_by(f64::total_cmp);
            let n = v.len();
            Some(if n % 2 == 1 {
                v[n / 2]
            } else {
                (v[n / 2 - 1] + v[n / 2]) / 2.0
            })
        })
        .collect();
    let instructions = out
        .lines()
        .filter_map(
            |l| match l.split_whitespace().collect::<Vec<_>>().as_slice() {
                ["instructions", id, n] => Some((id.to_string(), n.parse().ok()?)),
                _ => None,
            },
        )
        .collect();
    Ok(RedisBench {
        instructions,
        vs_yardstick,
        version,
        calls: r.n,
        rounds: r.rounds,
        batch,
        incr_per_s: r.baseline_per_s,
        rows: r.rows,
    })
}

/// Every `round` line's rate over the yardstick's nearest to it in the same round
/// (just before it, else just after): (id, ratio), the yardstick's own left out.
fn neighbour_ratios(out: &str) -> Vec<(String, f64)> {
    let mut lines: Vec<(usize, String, f64)> = Vec::new();
    for line in out.lines() {
        if let ["round", r, id, n, s] = line.split_whitespace().collect::<Vec<_>>().as_slice() {
            if let (Ok(r), Ok(n), Ok(s)) = (r.parse::<usize>(), n.parse::<f64>(), s.parse::<f64>())
            {
                lines.push((r, id.to_string(), n / s.max(1e-9)));
            }
        }
    }
    let mut out = Vec::new();
    for (i, (r, id, rate)) in lines.iter().enumerate() {
        if id == YARDSTICK {
            continue;
        }
        let is_y = |l: &&(usize, String, f64)| l.0 == *r && l.1 == YARDSTICK;
        let before = lines[..i].iter().rev().find(is_y);
        let after = lines[i + 1..].iter().find(is_y);
        if let Some(y) = before.or(after) {
            out.push((id.clone(), rate / y.2));
        }
    }
    out
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
                   round 2 gcra@TIME 1000 0.04\nround 2 gcra@FCALL 1000 0.025\n\
                   instructions float_gcra 5000\n\
                   instructions gcra@TIME 4000\nnoise\n";
        let b = parse(out).unwrap();
        assert_eq!(
            (b.version.as_str(), b.calls, b.rounds, b.batch),
            ("7.0.15", 1000, 2, 512)
        );
        assert_eq!(b.rows.len(), 4);
        assert_eq!(b.rows[0].per_s, 25_000.0);
        // Ratios 0.25 and 0.5 from each round's own INCR: median 0.375.
        assert!((b.rows[0].ratio - 0.375).abs() < 1e-12);
        assert!(!b.rows[0].targeted() && b.rows[2].targeted() && b.rows[3].targeted());
        // FCALL after EVALSHA in round 2 only: 40 000/s over the yardstick's 50 000.
        assert!((b.vs_yardstick[3].unwrap() - 0.8).abs() < 1e-12);
        // Against the yardstick just before it: 1.25 and 0.5, median 0.875.
        assert!((b.vs_yardstick[2].unwrap() - 0.875).abs() < 1e-12);
        // A row before the first yardstick of its round is held to the next one.
        assert!((b.vs_yardstick[0].unwrap() - 0.875).abs() < 1e-12);
        assert_eq!(b.vs_yardstick[1], None);
        assert_eq!(
            b.instructions,
            [
                ("float_gcra".to_string(), 5000),
                ("gcra@TIME".to_string(), 4000)
            ]
        );
        assert!(parse("nothing").is_err());
    }
}

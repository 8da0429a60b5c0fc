//! The native part: `cargo bench -p ratelab-bench --bench check` (criterion), each
//! limiter's `check` right after governor's GCRA on the same stream; ns per decision
//! from criterion's median estimates.

use std::path::Path;

use super::run_tee;
use crate::util::{self, Ctx, Result};

/// Each O(1) limiter's check must cost at most this fraction of governor's.
pub(super) const TARGET_RATIO: f64 = 0.35;
/// What the O(1) limiters aim for, beyond the target.
pub(super) const GOAL_RATIO: f64 = 0.25;
/// The sliding logs (O(N) state, memory-bound) must cost at most this many times
/// governor's check.
pub(super) const LOG_TARGET_RATIO: f64 = 1.5;

/// One limiter's measurement.
pub(super) struct NativeRow {
    pub id: String,
    /// ratelab's check, ns per decision.
    pub ns: f64,
    /// governor's check measured just before it, ns per decision.
    pub governor_ns: f64,
    pub allowed: Option<u64>,
}

impl NativeRow {
    /// The ratio this limiter is held to: the logs keep up to N entries per key, the
    /// others a few numbers.
    pub fn target_ratio(&self) -> f64 {
        if self.id.starts_with("sliding_log") {
            LOG_TARGET_RATIO
        } else {
            TARGET_RATIO
        }
    }
}

/// What the native part measured.
pub(super) struct Native {
    pub decisions: u64,
    pub rows: Vec<NativeRow>,
    /// The median of governor's measurements.
    pub governor_ns: f64,
    pub governor_allowed: Option<u64>,
}

const GOVERNOR_ID: &str = "governor_gcra";

/// Runs the criterion benchmark (estimates under `work/criterion`) and reads it.
pub(super) fn run(ctx: &Ctx, work: &Path, quick: bool) -> Result<Native> {
    let home = work.join("criterion");
    // Stale estimates must never be read as this run's.
    for group in ["check", "governor"] {
        let dir = home.join(group);
        if dir.exists() {
            std::fs::remove_dir_all(&dir)
                .map_err(|e| format!("cannot clear {}: {e}", dir.display()))?;
        }
    }
    let mut cmd = ctx.cargo();
    cmd.args(["bench", "-p", "ratelab-bench", "--bench", "check", "--"])
        .arg("--noplot")
        .env("CRITERION_HOME", &home);
    if quick {
        cmd.args(["--warm-up-time", "0.5", "--measurement-time", "1"]);
    } else {
        cmd.args(["--warm-up-time", "1", "--measurement-time", "4"]);
    }
    let out = run_tee(&mut cmd)?;
    let allowed = parse_allowed(&out);
    let mut decisions = 0;
    let mut rows = Vec::new();
    // The engine's order (the eight exact limiters, then the teaching variants), as
    // the bench printed them.
    for (id, count) in allowed.iter().filter(|(id, _)| id != GOVERNOR_ID) {
        let (elements, ns) = criterion_ns(&home.join("check").join(id))?;
        let (_, governor_ns) = criterion_ns(&home.join("governor").join(id))?;
        decisions = elements;
        rows.push(NativeRow {
            id: id.clone(),
            ns,
            governor_ns,
            allowed: Some(*count),
        });
    }
    if rows.is_empty() {
        return Err("the benchmark printed no `ratelab-bench:` lines".into());
    }
    let mut governors: Vec<f64> = rows.iter().map(|r| r.governor_ns).collect();
    governors.sort_by(f64::total_cmp);
    let governor_ns = match governors.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => governors[n / 2],
        n => (governors[n / 2 - 1] + governors[n / 2]) / 2.0,
    };
    Ok(Native {
        decisions,
        rows,
        governor_ns,
        governor_allowed: allowed
            .iter()
            .find(|(id, _)| id == GOVERNOR_ID)
            .map(|(_, a)| *a),
    })
}

/// (elements per iteration, ns per element) from one criterion benchmark directory:
/// the median estimate divided by the throughput.
fn criterion_ns(dir: &Path) -> Result<(u64, f64)> {
    let meta = util::read(&dir.join("new/benchmark.json"))?;
    let elements = json_number(&meta, "\"Elements\"")
        .ok_or_else(|| format!("no throughput in {}", dir.display()))?;
    let estimates = util::read(&dir.join("new/estimates.json"))?;
    let median =
        median_estimate(&estimates).ok_or_else(|| format!("no median in {}", dir.display()))?;
    Ok((elements as u64, median / elements))
}

/// `ratelab-bench: <id> decisions=<n> allowed=<n> errors=<n>` lines of the bench.
fn parse_allowed(out: &str) -> Vec<(String, u64)> {
    out.lines()
        .filter_map(|l| {
            let mut words = l.strip_prefix("ratelab-bench: ")?.split_whitespace();
            let id = words.next()?.to_owned();
            let allowed = words
                .find_map(|w| w.strip_prefix("allowed="))?
                .parse()
                .ok()?;
            Some((id, allowed))
        })
        .collect()
}

/// The median's point estimate (ns per iteration) in criterion's estimates.json.
fn median_estimate(json: &str) -> Option<f64> {
    let at = json.find("\"median\":")?;
    json_number(&json[at..], "\"point_estimate\"")
}

/// The number after the first `key:` in a flat JSON text.
fn json_number(json: &str, key: &str) -> Option<f64> {
    let at = json.find(key)? + key.len();
    let rest = json[at..].trim_start().strip_prefix(':')?.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E')))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_criterion_estimates() {
        let est = r#"{"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":3.0},"point_estimate":2.5,"standard_error":0.1},"median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0},"point_estimate":1234567.5,"standard_error":0.2},"median_abs_dev":{"point_estimate":9.0}}"#;
        assert_eq!(median_estimate(est), Some(1234567.5));
        let meta = r#"{"group_id":"check","function_id":"governor_gcra","value_str":null,"throughput":{"Elements":300947},"full_id":"check/governor_gcra"}"#;
        assert_eq!(json_number(meta, "\"Elements\""), Some(300947.0));
        assert_eq!(json_number(r#"{"x": 1e-3}"#, "\"x\""), Some(0.001));
    }

    #[test]
    fn reads_what_the_bench_prints() {
        let bench = "noise\nratelab-bench: gcra decisions=10 allowed=7 errors=0\n";
        assert_eq!(parse_allowed(bench), vec![("gcra".to_owned(), 7)]);
    }
}

//! The lines a throughput example prints, `round R ID N SECONDS`: each id's rate
//! per round, against a baseline id's rate in the same round (the Redis part's
//! INCR, the tower part's bare axum handler), so that a machine getting busier
//! between rounds moves both.

use crate::util::Result;

/// One id's measurement over the rounds.
pub(super) struct Row {
    pub id: String,
    /// Per second, the median over rounds.
    pub per_s: f64,
    /// The median of its per-round ratio to the baseline.
    pub ratio: f64,
}

/// What the rounds measured.
pub(super) struct Rounds {
    /// N of the last round line (every round does the same work).
    pub n: u64,
    pub rounds: usize,
    /// The baseline's rate, the median over rounds.
    pub baseline_per_s: f64,
    /// Every other id, in the order printed.
    pub rows: Vec<Row>,
}

/// Reads the round lines of `out` (other lines are ignored); `what` names the
/// benchmark in errors.
pub(super) fn read(out: &str, what: &str, baseline: &str) -> Result<Rounds> {
    let mut samples: Vec<(usize, String, f64)> = Vec::new();
    let mut n = 0;
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        if let ["round", r, id, count, s] = w.as_slice() {
            let bad = || format!("unexpected line from the {what}: {line:?}");
            let (r, count, s): (usize, u64, f64) = (
                r.parse().map_err(|_| bad())?,
                count.parse().map_err(|_| bad())?,
                s.parse().map_err(|_| bad())?,
            );
            n = count;
            samples.push((r, id.to_string(), count as f64 / s.max(1e-9)));
        }
    }
    let base = |round: usize| {
        samples
            .iter()
            .find(|(r, id, _)| *r == round && id == baseline)
            .map(|s| s.2)
    };
    let mut ids: Vec<String> = Vec::new();
    for (_, id, _) in &samples {
        if id != baseline && !ids.contains(id) {
            ids.push(id.clone());
        }
    }
    if ids.is_empty() || base(1).is_none() {
        return Err(format!("the {what} printed no measurements"));
    }
    let rounds = samples.iter().map(|s| s.0).max().unwrap_or(0);
    let rows = ids
        .into_iter()
        .map(|id| {
            let mine: Vec<&(usize, String, f64)> = samples.iter().filter(|s| s.1 == id).collect();
            Row {
                per_s: median(mine.iter().map(|s| s.2).collect()),
                ratio: median(
                    mine.iter()
                        .filter_map(|s| base(s.0).map(|b| s.2 / b))
                        .collect(),
                ),
                id,
            }
        })
        .collect();
    Ok(Rounds {
        n,
        rounds,
        baseline_per_s: median((1..=rounds).filter_map(base).collect()),
        rows,
    })
}

/// The median (NaN for none).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

//! Lab D: how often the sliding window counter disagrees with the exact counter
//! (the sliding log), on seeded Poisson traffic at several load levels.

use crate::error::SimError;
use crate::traffic::Poisson;
use ratelab_core::{Algorithm, AnyLimiter, Limiter, Params};

/// The load levels of lab D, in thousandths of the limit: 0.5x, 0.9x, 1x, 1.25x, 2x
/// and 4x.
pub const LAB_D_LOADS: [u32; 6] = [500, 900, 1000, 1250, 2000, 4000];

/// What to sweep: per level, `clients` Poisson clients sending for `duration_ms`
/// against `limit` per `period_ms` each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepSpec {
    /// N.
    pub limit: u64,
    /// W in ms.
    pub period_ms: u64,
    /// Clients per level.
    pub clients: u32,
    /// How long each client sends.
    pub duration_ms: u64,
    /// The seed (see [`crate::traffic`] for how streams derive from it).
    pub seed: u64,
    /// The load levels, in thousandths of the limit.
    pub loads_permille: Vec<u32>,
}

impl SweepSpec {
    /// Lab D as SPEC.md states it: 300 clients × 10 min at 100 per minute, the six
    /// levels of [`LAB_D_LOADS`] (about 2.9 million requests in all).
    pub fn lab_d(seed: u64) -> SweepSpec {
        SweepSpec {
            limit: 100,
            period_ms: 60_000,
            clients: 300,
            duration_ms: 600_000,
            seed,
            loads_permille: LAB_D_LOADS.to_vec(),
        }
    }
}

impl SweepSpec {
    /// The validated traffic of one level (`load` in thousandths of the limit).
    pub fn traffic(&self, load: u32) -> Result<Poisson, SimError> {
        let traffic = Poisson {
            clients: self.clients,
            load_permille: load,
            limit: self.limit,
            period_ms: self.period_ms,
            duration_ms: self.duration_ms,
            seed: self.seed,
        };
        traffic.validate()?;
        Ok(traffic)
    }
}

/// The sweep's result (`sweep` in the JSON output of lab D).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sweep {
    /// The exact counter: `sliding_log`.
    pub baseline: &'static str,
    /// The estimate under test: `sliding_window_counter`.
    pub candidate: &'static str,
    /// N.
    pub limit: u64,
    /// W in ms.
    pub period_ms: u64,
    /// Clients per level.
    pub clients: u32,
    /// How long each client sends.
    pub duration_ms: u64,
    /// The seed.
    pub seed: u64,
    /// One row per load level.
    pub rows: Vec<SweepRow>,
}

/// One load level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepRow {
    /// The level as people write it: `"1.25x"`.
    pub load: String,
    /// The level in thousandths of the limit.
    pub load_permille: u32,
    /// Requests sent at this level (all clients).
    pub requests: u64,
    /// Allowed by the exact counter.
    pub baseline_allowed: u64,
    /// Allowed by the sliding window counter.
    pub candidate_allowed: u64,
    /// Allowed by the counter but denied by the log: over the limit.
    pub wrong_allows: u64,
    /// Denied by the counter but allowed by the log: refused for nothing.
    pub wrong_blocks: u64,
}

/// `1250` → `"1.25x"`.
pub fn load_label(permille: u32) -> String {
    let whole = permille / 1000;
    let frac = permille % 1000;
    if frac == 0 {
        format!("{whole}x")
    } else {
        let digits = format!("{frac:03}");
        format!("{whole}.{}x", digits.trim_end_matches('0'))
    }
}

/// Runs the sweep: for each level and each client, both limiters on that client's
/// arrivals, side by side. Clients are independent (each has its own limiter state),
/// so one client at a time is the same as the merged stream with a state per key,
/// and needs no sorting and no allocation per request.
pub fn sweep(spec: &SweepSpec) -> Result<Sweep, SimError> {
    let params = Params::new(spec.limit, spec.period_ms);
    let build = |a| AnyLimiter::new(a, &params).map_err(|e| SimError::param("", &e));
    let log_proto = build(Algorithm::SlidingLog)?;
    let swc_proto = build(Algorithm::SlidingWindowCounter)?;
    let mut rows = Vec::with_capacity(spec.loads_permille.len());
    let (mut log, mut swc) = (log_proto.clone(), swc_proto.clone());
    for &load in &spec.loads_permille {
        let traffic = spec.traffic(load)?;
        let mut row = SweepRow {
            load: load_label(load),
            load_permille: load,
            requests: 0,
            baseline_allowed: 0,
            candidate_allowed: 0,
            wrong_allows: 0,
            wrong_blocks: 0,
        };
        for rng in traffic.client_rngs() {
            // clone_from reuses the log's buffer from the previous client.
            log.clone_from(&log_proto);
            swc.clone_from(&swc_proto);
            for t in traffic.arrivals(rng) {
                let exact = log.check(t, 1).map_err(|e| SimError::at("sweep", e))?;
                let estimate = swc.check(t, 1).map_err(|e| SimError::at("sweep", e))?;
                row.requests += 1;
                let (exact, estimate) = (exact.allowed(), estimate.allowed());
                row.baseline_allowed += exact as u64;
                row.candidate_allowed += estimate as u64;
                row.wrong_allows += (estimate && !exact) as u64;
                row.wrong_blocks += (!estimate && exact) as u64;
            }
        }
        rows.push(row);
    }
    Ok(Sweep {
        baseline: Algorithm::SlidingLog.id(),
        candidate: Algorithm::SlidingWindowCounter.id(),
        limit: spec.limit,
        period_ms: spec.period_ms,
        clients: spec.clients,
        duration_ms: spec.duration_ms,
        seed: spec.seed,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(load_label(500), "0.5x");
        assert_eq!(load_label(1250), "1.25x");
        assert_eq!(load_label(4000), "4x");
        assert_eq!(load_label(1), "0.001x");
    }
}

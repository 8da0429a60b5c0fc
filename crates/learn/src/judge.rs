//! Lab D by the article's own method: the sliding window counter decides on its own
//! history, and each of its decisions is judged against an exact count of that
//! history.
//!
//! For every request, the judge counts exactly how many requests *this counter*
//! admitted in the sliding window `(t − W, t)` before it. The exact rule would allow
//! the request if that count is below N; the counter allows it if its estimate
//! `prev · (1 − elapsed) + curr` is below N. Where they disagree the counter was
//! wrong: a *wrong allow* (it let through a request that made more than N in the
//! last W) or a *wrong block* (it refused a request although fewer than N had
//! passed). Both limiters see the same arrivals but the exact count follows the
//! counter's own admissions, so one mistake does not change what is judged next.
//! The count and the marks are [`ratelab_sim::counter_error`]'s `CounterJudge`, the
//! same definition as `ratelab trace`'s column.
//!
//! This differs from [`ratelab_sim::sweep`], which runs an independent sliding log next to
//! the counter: there, each limiter follows its own history, so after the first
//! disagreement they judge different states. Both tables are useful; the page labels
//! them "judged on its own history" and "side by side with a sliding log".
//!
//! Everything is exact: counts are integers, the estimate is compared as
//! `prev · (W − e) + curr · W` against `N · W`, and the mean estimate error is a
//! fraction. The article does not define its "mean estimate error"; the definition
//! that reproduces its column (4.1 % at 0.5x up to 8.9 % at 4x) is the mean, over the
//! requests that found at least one admission in the window, of
//! `|estimate − exact| / exact`, both taken just before the decision. It is summed
//! exactly per exact count k (`Σ |estimate − exact|` is an integer number of 1/W) and
//! divided out in integers to millionths, so it is shown rounded down to 0.0001 %
//! and marked "≈".

use ratelab_core::{Amount, Frac, Limiter, Rate, SlidingWindowCounter, Snapshot};
use serde::Serialize;

use ratelab_sim::counter_error::{CounterJudge, Mark};
use ratelab_sim::sweep::{load_label, SweepSpec};
use ratelab_sim::SimError;

/// One load level of the judged sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JudgedRow {
    /// The level as people write it: `"1.25x"`.
    pub load: String,
    /// The level in thousandths of the limit.
    pub load_permille: u32,
    /// Requests sent at this level (all clients).
    pub requests: u64,
    /// Allowed by the sliding window counter.
    pub allowed: u64,
    /// Allowed by the counter although its own admissions in the last W were
    /// already N or more.
    pub wrong_allows: u64,
    /// Denied by the counter although its own admissions in the last W were fewer
    /// than N.
    pub wrong_blocks: u64,
    /// The mean estimate error in millionths (rounded down): the mean of
    /// `|estimate − exact| / exact` over the requests with `exact > 0`.
    pub mean_error_ppm: u64,
    /// The most requests any one client had admitted in a window `(t − W, t]`.
    pub worst_client_max: u64,
}

impl JudgedRow {
    /// Allowed, as a share of the requests.
    pub fn allowed_share(&self) -> Frac {
        Frac::new(self.allowed as u128, self.requests.max(1))
    }

    /// Wrong allows, as a share of the requests.
    pub fn wrong_allow_share(&self) -> Frac {
        Frac::new(self.wrong_allows as u128, self.requests.max(1))
    }

    /// Wrong blocks, as a share of the requests.
    pub fn wrong_block_share(&self) -> Frac {
        Frac::new(self.wrong_blocks as u128, self.requests.max(1))
    }

    /// The mean estimate error, as a fraction (millionths, rounded down).
    pub fn mean_error(&self) -> Frac {
        Frac::new(self.mean_error_ppm as u128, 1_000_000)
    }
}

/// The judged sweep: one row per load level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Judged {
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
    pub rows: Vec<JudgedRow>,
}

/// Runs the judged sweep over `spec`'s levels and clients (the same arrivals as
/// [`ratelab_sim::sweep()`]).
pub fn judge(spec: &SweepSpec) -> Result<Judged, SimError> {
    let rate = Rate::new(spec.limit, spec.period_ms).map_err(|e| SimError::param("", &e))?;
    let proto = SlidingWindowCounter::new(rate).map_err(|e| SimError::param("", &e))?;
    let mut rows = Vec::with_capacity(spec.loads_permille.len());
    for &load in &spec.loads_permille {
        let traffic = spec.traffic(load)?;
        let mut row = JudgedRow {
            load: load_label(load),
            load_permille: load,
            requests: 0,
            allowed: 0,
            wrong_allows: 0,
            wrong_blocks: 0,
            mean_error_ppm: 0,
            worst_client_max: 0,
        };
        // error_by_exact[k] = Σ |estimate − exact| · W over requests with exact = k.
        let mut error_by_exact: Vec<u128> = Vec::new();
        let mut judged: u64 = 0;
        for rng in traffic.client_rngs() {
            let mut swc = proto.clone();
            // The counter's own admissions in (t − W, t], and each decision marked
            // against them: ratelab-sim's one definition (`counter_error`).
            let mut marks = CounterJudge::new(spec.limit, spec.period_ms);
            let mut client_max = 0u64;
            for t in traffic.arrivals(rng) {
                let estimate = match swc.snapshot(t) {
                    Snapshot::SlidingWindowCounter { estimate, .. } => estimate,
                    _ => Amount::whole(0),
                };
                let d = swc.check(t, 1).map_err(|e| SimError::at("sweep", e))?;
                let m = marks.judge(0, t, 1, estimate, d.allowed());
                let exact = m.true_count;
                row.requests += 1;
                row.allowed += d.allowed() as u64;
                row.wrong_allows += (m.mark == Mark::WrongAllow) as u64;
                row.wrong_blocks += (m.mark == Mark::WrongBlock) as u64;
                if exact > 0 {
                    let k = exact as usize;
                    if error_by_exact.len() <= k {
                        error_by_exact.resize(k + 1, 0);
                    }
                    if let Some(slot) = error_by_exact.get_mut(k) {
                        *slot += abs_diff_scaled(estimate.0, exact, spec.period_ms);
                    }
                    judged += 1;
                }
                if d.allowed() {
                    client_max = client_max.max(exact + 1);
                }
            }
            row.worst_client_max = row.worst_client_max.max(client_max);
        }
        row.mean_error_ppm = mean_ppm(&error_by_exact, judged, spec.period_ms);
        rows.push(row);
    }
    Ok(Judged {
        limit: spec.limit,
        period_ms: spec.period_ms,
        clients: spec.clients,
        duration_ms: spec.duration_ms,
        seed: spec.seed,
        rows,
    })
}

/// `(1 / judged) · Σ_k error_by_exact[k] / (k · W)` in millionths, rounded down.
fn mean_ppm(error_by_exact: &[u128], judged: u64, w: u64) -> u64 {
    // Each term is floored at 10^-12 of a unit: the sum of at most a few hundred
    // such truncations stays far below the millionth shown.
    const SCALE: u128 = 1_000_000_000_000;
    let total: u128 = error_by_exact
        .iter()
        .enumerate()
        .skip(1)
        .map(|(k, &s)| s.saturating_mul(SCALE) / (k as u128 * w as u128))
        .fold(0u128, u128::saturating_add);
    let ppm = total / (judged.max(1) as u128) / (SCALE / 1_000_000);
    u64::try_from(ppm).unwrap_or(u64::MAX)
}

/// `|estimate − exact| · W`, where the estimate is a fraction whose denominator
/// divides into W (the counter's estimates have denominator W).
fn abs_diff_scaled(estimate: Frac, exact: u64, w: u64) -> u128 {
    // estimate = num / den with den = W (as the counter builds it); scale to W.
    let num = if estimate.den() == w {
        estimate.num()
    } else {
        estimate.num() * w as u128 / estimate.den() as u128
    };
    num.abs_diff(exact as u128 * w as u128)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(load: u32) -> SweepSpec {
        SweepSpec {
            limit: 100,
            period_ms: 60_000,
            clients: 20,
            duration_ms: 600_000,
            seed: 1,
            loads_permille: vec![load],
        }
    }

    #[test]
    fn far_below_the_limit_it_is_never_wrong() {
        let j = judge(&small(500)).unwrap();
        let r = &j.rows[0];
        assert_eq!((r.wrong_allows, r.wrong_blocks), (0, 0));
        assert_eq!(r.allowed, r.requests);
        assert!(r.worst_client_max <= 100);
    }

    #[test]
    fn near_the_limit_it_errs_both_ways_and_overshoots() {
        let j = judge(&small(1250)).unwrap();
        let r = &j.rows[0];
        assert!(r.wrong_allows > 0 && r.wrong_blocks > 0, "{r:?}");
        // A wrong allow is exactly what makes a client exceed N in some window.
        assert!(r.worst_client_max > 100);
        assert!(r.mean_error() > Frac::ZERO);
    }

    #[test]
    fn the_error_is_exact() {
        // 5 per 10 s, the golden stream: at 10.1 s the estimate is 4.95 with 5 in the
        // window, so the counter wrongly allows the request.
        let mut swc = SlidingWindowCounter::new(Rate::new(5, 10_000).unwrap()).unwrap();
        for t in [2000, 7000, 8000, 9000, 9500, 9800] {
            swc.check(t, 1).unwrap();
        }
        let Snapshot::SlidingWindowCounter { estimate, .. } = swc.snapshot(10_100) else {
            panic!("a sliding window counter draws as one");
        };
        assert_eq!(abs_diff_scaled(estimate.0, 5, 10_000), 500);
    }
}

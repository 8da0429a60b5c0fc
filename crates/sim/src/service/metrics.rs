//! The yardstick of a service run, computed in one pass over the attempts.
//!
//! Choices (also in the README):
//! - *demand* counts first tries, *offered* every attempt; the amplification is
//!   offered ÷ demand, rounded half up to thousandths.
//! - *goodput* sorts each request (a first try and its retries) into succeeded at
//!   the first try, after retrying, or given up (refused at its last attempt, or
//!   refused with a policy that never retries).
//! - waits are those of allowed attempts (the leaky queue and nginx delay), latency
//!   is end to end per succeeded request: from its first try to when its allowed
//!   attempt goes through (arrival + wait), retries included. Both exact, rounded up
//!   to whole ms; percentiles by nearest rank (the smallest value with at least p %
//!   of the values at or below it).
//! - windows: the most allowed in any `(t − W, t]` by arrival, over all traffic
//!   (what the service as a whole admitted: the real limit of M instances) and per
//!   client (the maximum over clients), weighted by cost; the same over 1 s.
//! - per second: demand, offered, allowed and refused attempts by arrival second,
//!   for the first [`PER_SECOND_MAX_BUCKETS`] seconds of the clock.

use std::collections::BTreeMap;

use ratelab_core::Ms;

use crate::yardstick::Slide;

use super::attempt::{Attempt, Decider};
use super::spec::ServiceSpec;

/// The per-second series cover the first 2 h 24 min (8 640 s) of the clock.
pub const PER_SECOND_MAX_BUCKETS: usize = 8_640;

/// Percentiles of a set of durations in whole ms (`null` when the set is empty).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Percentiles {
    /// How many values.
    pub count: u64,
    /// The median.
    pub p50: Option<u64>,
    /// The 95th percentile.
    pub p95: Option<u64>,
    /// The 99th percentile.
    pub p99: Option<u64>,
    /// The largest.
    pub max: Option<u64>,
    /// How many distinct values there were (what computing them held; not in the
    /// JSON output).
    pub distinct: u64,
}

impl Percentiles {
    /// Nearest rank over `values`.
    pub fn of(values: impl IntoIterator<Item = u64>) -> Percentiles {
        let mut counts = Counts::default();
        for v in values {
            counts.add(v);
        }
        counts.percentiles()
    }
}

/// How many times each whole number of ms occurred: exact percentiles in memory
/// proportional to the distinct values, not to the number of requests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    counts: BTreeMap<u64, u64>,
    total: u64,
}

impl Counts {
    pub fn add(&mut self, v: u64) {
        *self.counts.entry(v).or_insert(0) += 1;
        self.total += 1;
    }

    /// Nearest rank: the p-th percentile is the value at rank `⌈p·n/100⌉` (from 1)
    /// in sorted order.
    pub fn percentiles(&self) -> Percentiles {
        let n = self.total;
        let ranks = [50u64, 95, 99].map(|p| (p * n).div_ceil(100).max(1));
        let mut found = [None; 3];
        let mut seen = 0;
        for (&v, &c) in &self.counts {
            seen += c;
            for (rank, slot) in ranks.iter().zip(found.iter_mut()) {
                if slot.is_none() && *rank <= seen {
                    *slot = Some(v);
                }
            }
        }
        Percentiles {
            count: n,
            p50: found[0],
            p95: found[1],
            p99: found[2],
            max: self.counts.keys().next_back().copied(),
            distinct: self.counts.len() as u64,
        }
    }
}

/// Requests sorted by how they ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Goodput {
    /// Allowed at the first try.
    pub first_try: u64,
    /// Allowed after one or more retries.
    pub after_retry: u64,
    /// Refused at the last attempt the client made.
    pub gave_up: u64,
}

impl Goodput {
    fn record(&mut self, a: &Attempt, last: bool) {
        if a.allowed {
            if a.attempt == 1 {
                self.first_try += 1;
            } else {
                self.after_retry += 1;
            }
        } else if last {
            self.gave_up += 1;
        }
    }
}

/// Attempts per second of arrival time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerSecond {
    /// First tries.
    pub demand: Vec<u64>,
    /// Every attempt.
    pub offered: Vec<u64>,
    /// Allowed attempts.
    pub allowed: Vec<u64>,
    /// Refused attempts (429 and 503).
    pub refused: Vec<u64>,
}

impl PerSecond {
    fn record(&mut self, a: &Attempt) {
        let s = (a.t / 1000) as usize;
        if s >= PER_SECOND_MAX_BUCKETS {
            return;
        }
        for v in [
            &mut self.demand,
            &mut self.offered,
            &mut self.allowed,
            &mut self.refused,
        ] {
            if v.len() <= s {
                v.resize(s + 1, 0);
            }
        }
        let bump = |v: &mut Vec<u64>| {
            if let Some(x) = v.get_mut(s) {
                *x += 1;
            }
        };
        if a.attempt == 1 {
            bump(&mut self.demand);
        }
        bump(&mut self.offered);
        if a.allowed {
            bump(&mut self.allowed);
        } else {
            bump(&mut self.refused);
        }
    }

    fn stored(&self) -> usize {
        self.demand.len() + self.offered.len() + self.allowed.len() + self.refused.len()
    }
}

/// One limit's refusals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeniedBy {
    /// The limit's id.
    pub limit: String,
    /// Attempts it refused (an attempt refused by two limits counts for both).
    pub count: u64,
}

/// One client's numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientStats {
    /// Its name.
    pub name: String,
    /// First tries.
    pub demand: u64,
    /// Attempts.
    pub offered: u64,
    /// Allowed attempts.
    pub passed: u64,
    /// 429 responses.
    pub status_429: u64,
    /// 503 responses (the store failed closed).
    pub status_503: u64,
    /// Its share of everything allowed, in thousandths.
    pub share_permille: u64,
    /// Its attempts answered 429, in thousandths of its attempts.
    pub rate_429_permille: u64,
    /// How its requests ended.
    pub goodput: Goodput,
    /// The most it had allowed in any window `(t − W, t]` (weighted by cost).
    pub max_in_window: u64,
    /// The same over 1 s.
    pub max_in_1s: u64,
}

/// One route's numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteStats {
    /// Its name.
    pub name: String,
    /// What one request to it costs.
    pub cost: u32,
    /// Attempts.
    pub offered: u64,
    /// Allowed attempts.
    pub passed: u64,
    /// Refused attempts (429 and 503).
    pub refused: u64,
}

/// One instance's numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InstanceStats {
    /// Attempts the balancer sent it.
    pub offered: u64,
    /// Attempts it allowed.
    pub passed: u64,
}

/// The yardstick of a service run (`yardstick` of each service in the JSON output).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceYardstick {
    /// First tries.
    pub demand: u64,
    /// Every attempt (first tries and retries).
    pub offered: u64,
    /// offered ÷ demand, e.g. `"2.417x"`.
    pub amplification: String,
    /// The same in thousandths.
    pub amplification_permille: u64,
    /// Allowed attempts.
    pub passed: u64,
    /// 429 responses.
    pub status_429: u64,
    /// 503 responses (the store failed closed).
    pub status_503: u64,
    /// How the requests ended.
    pub goodput: Goodput,
    /// Per limit, how many attempts it refused.
    pub denied_by: Vec<DeniedBy>,
    /// Attempts let through unchecked while the store was down (fail-open).
    pub fail_open: u64,
    /// Attempts the fallback limiter allowed while the store was down.
    pub fallback_passed: u64,
    /// Attempts the fallback limiter refused.
    pub fallback_refused: u64,
    /// Waits of allowed attempts, ms.
    pub wait_ms: Percentiles,
    /// End-to-end latency of succeeded requests, retries included, ms.
    pub latency_ms: Percentiles,
    /// W of the windows below.
    pub window_ms: u64,
    /// The most the whole service allowed in any window `(t − W, t]`, by arrival.
    pub max_in_window: u64,
    /// The most one client had allowed in any such window.
    pub max_in_window_per_key: u64,
    /// The most the whole service allowed in any 1 s.
    pub max_in_1s: u64,
    /// The most one client had allowed in any 1 s.
    pub max_in_1s_per_key: u64,
    /// Attempts per second.
    pub per_second: PerSecond,
    /// Per client.
    pub clients: Vec<ClientStats>,
    /// Per route.
    pub routes: Vec<RouteStats>,
    /// Per instance.
    pub instances: Vec<InstanceStats>,
}

#[derive(Clone, Debug, Default)]
struct ClientMeter {
    demand: u64,
    offered: u64,
    passed: u64,
    status_429: u64,
    status_503: u64,
    goodput: Goodput,
    window: Slide<u64>,
    second: Slide<u64>,
    max_in_window: u64,
    max_in_1s: u64,
}

/// Computes the yardstick one attempt at a time.
#[derive(Clone, Debug)]
pub(crate) struct ServiceMeter {
    window_ms: u64,
    count: u64,
    passed: u64,
    status_429: u64,
    status_503: u64,
    goodput: Goodput,
    denied_by: Vec<u64>,
    fail_open: u64,
    fallback_passed: u64,
    fallback_refused: u64,
    waits: Counts,
    latencies: Counts,
    window: Slide<u64>,
    second: Slide<u64>,
    max_in_window: u64,
    max_in_1s: u64,
    per_second: PerSecond,
    clients: Vec<ClientMeter>,
    /// Per route: (offered, passed).
    routes: Vec<(u64, u64)>,
    instances: Vec<InstanceStats>,
}

/// `num / den` in thousandths, rounded half up (0 when `den` is 0).
fn permille(num: u64, den: u64) -> u64 {
    if den == 0 {
        return 0;
    }
    ((num as u128 * 2000 + den as u128) / (2 * den as u128)) as u64
}

impl ServiceMeter {
    pub fn new(spec: &ServiceSpec) -> ServiceMeter {
        ServiceMeter {
            window_ms: spec.window(),
            count: 0,
            passed: 0,
            status_429: 0,
            status_503: 0,
            goodput: Goodput::default(),
            denied_by: vec![0; spec.limits.len()],
            fail_open: 0,
            fallback_passed: 0,
            fallback_refused: 0,
            waits: Counts::default(),
            latencies: Counts::default(),
            window: Slide::default(),
            second: Slide::default(),
            max_in_window: 0,
            max_in_1s: 0,
            per_second: PerSecond::default(),
            clients: vec![ClientMeter::default(); spec.clients.len()],
            routes: vec![(0, 0); spec.routes.len()],
            instances: vec![InstanceStats::default(); spec.instances as usize],
        }
    }

    /// Records attempt `a` of `cost` with its exact `wait`, whose request was first
    /// tried at `first_t`; `last` when the client will not try again after it.
    pub fn record(&mut self, a: &Attempt, wait: Ms, cost: u32, first_t: u64, last: bool) {
        let index = self.count;
        self.count += 1;
        self.per_second.record(a);
        self.goodput.record(a, last);
        let status = a.status();
        match status {
            429 => self.status_429 += 1,
            503 => self.status_503 += 1,
            _ => {}
        }
        for (i, n) in self.denied_by.iter_mut().enumerate() {
            if a.denied_by & (1 << i) != 0 {
                *n += 1;
            }
        }
        match (a.decider, a.allowed) {
            (Decider::FailOpen, _) => self.fail_open += 1,
            (Decider::Fallback, true) => self.fallback_passed += 1,
            (Decider::Fallback, false) => self.fallback_refused += 1,
            _ => {}
        }
        if let Some(r) = self.routes.get_mut(a.route as usize) {
            r.0 += 1;
            r.1 += a.allowed as u64;
        }
        if let Some(i) = self.instances.get_mut(a.instance as usize) {
            i.offered += 1;
            i.passed += a.allowed as u64;
        }
        let Some(c) = self.clients.get_mut(a.client as usize) else {
            return;
        };
        c.offered += 1;
        c.demand += (a.attempt == 1) as u64;
        c.goodput.record(a, last);
        match status {
            429 => c.status_429 += 1,
            503 => c.status_503 += 1,
            _ => {}
        }
        if !a.allowed {
            return;
        }
        self.passed += 1;
        c.passed += 1;
        self.waits.add(a.wait_ms);
        let w = wait.0;
        let elapsed = a.t.saturating_sub(first_t) as u128;
        let latency = Ms::scaled(
            elapsed
                .saturating_mul(w.den() as u128)
                .saturating_add(w.num()),
            w.den(),
        );
        self.latencies.add(latency.ceil_ms());
        let win = self.window_ms;
        self.max_in_window = self
            .max_in_window
            .max(self.window.push(index, a.t, cost, win));
        self.max_in_1s = self.max_in_1s.max(self.second.push(index, a.t, cost, 1000));
        c.max_in_window = c.max_in_window.max(c.window.push(index, a.t, cost, win));
        c.max_in_1s = c.max_in_1s.max(c.second.push(index, a.t, cost, 1000));
    }

    /// Numbers held (for memory bounds): waits, latencies, window entries, series.
    #[allow(dead_code)]
    pub fn stored_items(&self) -> usize {
        self.waits.counts.len()
            + self.latencies.counts.len()
            + self.window.len()
            + self.second.len()
            + self.per_second.stored()
            + self
                .clients
                .iter()
                .map(|c| 1 + c.window.len() + c.second.len())
                .sum::<usize>()
    }

    /// The yardstick of everything recorded.
    pub fn yardstick(&self, spec: &ServiceSpec) -> ServiceYardstick {
        let demand = self.goodput_demand();
        let amp = permille(self.count, demand);
        ServiceYardstick {
            demand,
            offered: self.count,
            amplification: format!("{}.{:03}x", amp / 1000, amp % 1000),
            amplification_permille: amp,
            passed: self.passed,
            status_429: self.status_429,
            status_503: self.status_503,
            goodput: self.goodput,
            denied_by: spec
                .limits
                .iter()
                .zip(&self.denied_by)
                .map(|(l, &count)| DeniedBy {
                    limit: l.lane.id.clone(),
                    count,
                })
                .collect(),
            fail_open: self.fail_open,
            fallback_passed: self.fallback_passed,
            fallback_refused: self.fallback_refused,
            wait_ms: self.waits.percentiles(),
            latency_ms: self.latencies.percentiles(),
            window_ms: self.window_ms,
            max_in_window: self.max_in_window,
            max_in_window_per_key: self
                .clients
                .iter()
                .map(|c| c.max_in_window)
                .max()
                .unwrap_or(0),
            max_in_1s: self.max_in_1s,
            max_in_1s_per_key: self.clients.iter().map(|c| c.max_in_1s).max().unwrap_or(0),
            per_second: self.per_second.clone(),
            clients: spec
                .clients
                .iter()
                .zip(&self.clients)
                .map(|(s, c)| ClientStats {
                    name: s.name.clone(),
                    demand: c.demand,
                    offered: c.offered,
                    passed: c.passed,
                    status_429: c.status_429,
                    status_503: c.status_503,
                    share_permille: permille(c.passed, self.passed),
                    rate_429_permille: permille(c.status_429, c.offered),
                    goodput: c.goodput,
                    max_in_window: c.max_in_window,
                    max_in_1s: c.max_in_1s,
                })
                .collect(),
            routes: spec
                .routes
                .iter()
                .zip(&self.routes)
                .map(|(r, &(offered, passed))| RouteStats {
                    name: r.name.clone(),
                    cost: r.cost,
                    offered,
                    passed,
                    refused: offered - passed,
                })
                .collect(),
            instances: self.instances.clone(),
        }
    }

    fn goodput_demand(&self) -> u64 {
        self.clients.iter().map(|c| c.demand).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank() {
        let p = Percentiles::of((1..=100).rev());
        assert_eq!(
            (p.count, p.p50, p.p95, p.p99, p.max),
            (100, Some(50), Some(95), Some(99), Some(100))
        );
        let p = Percentiles::of([7]);
        assert_eq!((p.p50, p.p99), (Some(7), Some(7)));
        let p = Percentiles::of([1, 2, 3]);
        assert_eq!((p.p50, p.p95), (Some(2), Some(3)));
        assert_eq!(Percentiles::of([]).p50, None);
        let p = Percentiles::of([5, 5, 5, 5, 9]);
        assert_eq!((p.p50, p.p95, p.max), (Some(5), Some(9), Some(9)));
    }

    #[test]
    fn permille_rounds_half_up() {
        assert_eq!(permille(1, 3), 333);
        assert_eq!(permille(2, 3), 667);
        assert_eq!(permille(1, 2000), 1);
        assert_eq!(permille(5, 0), 0);
    }
}

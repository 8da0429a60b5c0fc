//! Service runs for the playground: every lane run to the end, its latest attempts
//! kept for drawing and scrubbing, and its whole-run yardstick.
//!
//! # Bounded memory
//!
//! A run may make up to [`crate::MAX_REQUESTS`] attempts per lane; a lane keeps only
//! the latest `retain` (plus up to `chunk`), dropping the oldest `chunk` at a time,
//! as [`crate::Timeline`] does with requests. The yardstick is computed over the
//! whole run while it happens, so dropping attempts changes no number. What a lane
//! holds, counted by [`ServiceTimeline::stored_items`]:
//!
//! ```text
//! attempts ≤ retain + chunk
//! yardstick = clients + routes + instances + limits + 4 · seconds + distinct waits + distinct latencies
//! ```
//!
//! with `seconds ≤` [`super::PER_SECOND_MAX_BUCKETS`] and the distinct waits and
//! latencies, counted in whole ms, at most the longest wait + 1 and the longest
//! latency + 1. None of it grows with the number of attempts beyond those.

use std::collections::VecDeque;
use std::ops::Range;

use crate::error::SimError;

use super::attempt::Attempt;
use super::engine::{run_service_into, Sink};
use super::metrics::ServiceYardstick;
use super::retry::AfterRefusal;
use super::spec::ServiceSpec;

/// What came after one attempt of a run, as the run went: the page's panel on a
/// selected attempt says this ([`ServiceTimeline::after`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterAttempt {
    /// It was allowed: its request succeeded, nothing follows.
    Done,
    /// It was refused and its client sent attempt `index` (held by the lane).
    Retried(u64),
    /// It was refused at the last attempt its client's policy allows: the request
    /// gave up.
    GaveUp,
    /// It was refused and its client's policy never retries.
    NeverRetries,
}

/// How many attempts a lane keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServiceTimelineLimits {
    /// Attempts kept for looking back (at least this many once there are more).
    pub retain: usize,
    /// Dropped at a time once `retain + chunk` are held.
    pub chunk: usize,
}

impl ServiceTimelineLimits {
    /// 20 000 attempts, dropped 625 at a time (as [`crate::TimelineLimits::DEFAULT`]).
    pub const DEFAULT: ServiceTimelineLimits = ServiceTimelineLimits {
        retain: 20_000,
        chunk: 625,
    };
}

impl Default for ServiceTimelineLimits {
    fn default() -> ServiceTimelineLimits {
        ServiceTimelineLimits::DEFAULT
    }
}

/// One lane: a service, its latest attempts and its yardstick.
#[derive(Clone, Debug)]
struct Lane {
    spec: ServiceSpec,
    kept: Kept,
    yardstick: ServiceYardstick,
}

/// The latest attempts of a run.
#[derive(Clone, Debug)]
struct Kept {
    limits: ServiceTimelineLimits,
    /// The index of the first attempt held.
    base: u64,
    attempts: VecDeque<Attempt>,
}

impl Sink for Kept {
    fn attempt(&mut self, _: u32, a: Attempt) {
        self.attempts.push_back(a);
        let chunk = self.limits.chunk.max(1);
        if self.attempts.len() >= self.limits.retain + chunk {
            self.attempts.drain(..chunk);
            self.base += chunk as u64;
        }
    }

    fn retried(&mut self, previous: u32, index: u32) {
        let Some(at) = (previous as u64).checked_sub(self.base) else {
            return;
        };
        if let Some(p) = self.attempts.get_mut(at as usize) {
            p.retry = Some(index);
        }
    }
}

/// Every lane of a service scenario, run, for the playground to draw.
#[derive(Clone, Debug)]
pub struct ServiceTimeline {
    lanes: Vec<Lane>,
}

impl ServiceTimeline {
    /// Runs every service (errors name `services[i]`) with the default limits.
    pub fn new(specs: &[ServiceSpec]) -> Result<ServiceTimeline, SimError> {
        ServiceTimeline::with_limits(specs, ServiceTimelineLimits::DEFAULT)
    }

    /// Runs every service, keeping what `limits` says.
    pub fn with_limits(
        specs: &[ServiceSpec],
        limits: ServiceTimelineLimits,
    ) -> Result<ServiceTimeline, SimError> {
        super::check_ids(specs)?;
        let mut lanes = Vec::with_capacity(specs.len());
        for (i, spec) in specs.iter().enumerate() {
            let mut kept = Kept {
                limits,
                base: 0,
                attempts: VecDeque::new(),
            };
            let yardstick = run_service_into(spec, &format!("services[{i}]"), &mut kept)?;
            lanes.push(Lane {
                spec: spec.clone(),
                kept,
                yardstick,
            });
        }
        Ok(ServiceTimeline { lanes })
    }

    /// How many lanes.
    pub fn lane_count(&self) -> usize {
        self.lanes.len()
    }

    /// Lane `lane`'s service.
    pub fn spec(&self, lane: usize) -> Option<&ServiceSpec> {
        self.lanes.get(lane).map(|l| &l.spec)
    }

    /// Lane `lane`'s yardstick over the whole run.
    pub fn yardstick(&self, lane: usize) -> Option<&ServiceYardstick> {
        self.lanes.get(lane).map(|l| &l.yardstick)
    }

    /// The indices of the attempts lane `lane` still holds.
    pub fn retained(&self, lane: usize) -> Range<u64> {
        self.lanes.get(lane).map_or(0..0, |l| {
            l.kept.base..l.kept.base + l.kept.attempts.len() as u64
        })
    }

    /// Attempt `index` of lane `lane`, if held.
    pub fn attempt(&self, lane: usize, index: u64) -> Option<&Attempt> {
        let l = self.lanes.get(lane)?;
        let at = index.checked_sub(l.kept.base)?;
        l.kept.attempts.get(at as usize)
    }

    /// What followed attempt `index` of lane `lane` (if held): the retry the engine
    /// sent after it, or why none came (the same rule the engine followed,
    /// [`super::RetryPolicy::after_refusal`]). Every attempt after a held one is
    /// held too, so a retry is always found.
    pub fn after(&self, lane: usize, index: u64) -> Option<AfterAttempt> {
        let a = self.attempt(lane, index)?;
        if a.allowed {
            return Some(AfterAttempt::Done);
        }
        if let Some(next) = a.retry {
            return Some(AfterAttempt::Retried(u64::from(next)));
        }
        let policy = self.spec(lane)?.clients.get(a.client as usize)?.retry;
        Some(match policy.after_refusal(a.attempt) {
            AfterRefusal::NeverRetries => AfterAttempt::NeverRetries,
            // A refused attempt the engine did not retry though the policy would
            // have is not a run the engine makes; say what the run shows.
            AfterRefusal::GivesUp | AfterRefusal::Retries => AfterAttempt::GaveUp,
        })
    }

    /// The held attempts of lane `lane` arriving in `[from, to]` (two binary
    /// searches: drawing costs what is visible).
    pub fn visible(&self, lane: usize, from: u64, to: u64) -> Range<u64> {
        let Some(l) = self.lanes.get(lane) else {
            return 0..0;
        };
        let a = &l.kept.attempts;
        let start = a.partition_point(|x| x.t < from);
        let end = a.partition_point(|x| x.t <= to);
        l.kept.base + start as u64..l.kept.base + end.max(start) as u64
    }

    /// The latest arrival over all lanes.
    pub fn last_time(&self) -> Option<u64> {
        self.lanes
            .iter()
            .filter_map(|l| l.kept.attempts.back().map(|a| a.t))
            .max()
    }

    /// Numbers held (see the module docs for the bound).
    pub fn stored_items(&self) -> usize {
        self.lanes
            .iter()
            .map(|l| {
                let y = &l.yardstick;
                l.kept.attempts.len()
                    + y.clients.len()
                    + y.routes.len()
                    + y.instances.len()
                    + y.denied_by.len()
                    + y.per_second.demand.len()
                    + y.per_second.offered.len()
                    + y.per_second.allowed.len()
                    + y.per_second.refused.len()
                    + y.wait_ms.distinct as usize
                    + y.latency_ms.distinct as usize
            })
            .sum()
    }
}

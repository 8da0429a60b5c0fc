//! Looking at a timeline: its requests, and any retained moment's state, headers and yardstick.

use std::ops::Range;

use ratelab_core::{AnyLimiter, Explanation, Headers, Keyed, Limiter, Snapshot};

use crate::lane::LaneSpec;
use crate::stream::Request;
use crate::yardstick::{Prefix, Yardstick, HISTOGRAM_BUCKET_MS};

use super::{BusiestWindow, Lane, Outcome, Timeline, TimelineError, TimelineLimits};

impl Timeline {
    /// The limits in force.
    pub fn limits(&self) -> TimelineLimits {
        self.limits
    }

    /// How many lanes.
    pub fn lane_count(&self) -> usize {
        self.lanes.len()
    }

    /// Lane `lane`'s spec.
    pub fn lane(&self, lane: usize) -> Option<&LaneSpec> {
        self.lanes.get(lane).map(|l| &l.spec)
    }

    /// The key table: a request's `key` indexes it.
    pub fn keys(&self) -> &[String] {
        &self.keys
    }
    /// The index of key `name`, if registered.
    pub fn find_key(&self, name: &str) -> Option<u32> {
        self.key_ids.get(name).copied()
    }

    /// Requests pushed so far (including compacted ones): the next global index.
    pub fn len(&self) -> u64 {
        self.base + self.requests.len() as u64
    }

    /// Nothing pushed yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The global indices still retained.
    pub fn retained(&self) -> Range<u64> {
        self.base..self.len()
    }

    /// The earliest time that can be looked at: 0, or after compaction the time of
    /// the last request dropped.
    pub fn earliest_time(&self) -> u64 {
        self.earliest
    }

    /// The time of the last request pushed.
    pub fn last_time(&self) -> Option<u64> {
        self.requests.back().map(|r| r.t)
    }

    /// Where the run ends, as the page's clock stops: a little after the last
    /// request and its last departure (a twentieth of the longest period, at least
    /// 500 ms), and never before one period (an empty or short stream still shows a
    /// whole window). Lessons play to a moment at or before this (a test checks).
    pub fn end(&self) -> u64 {
        let period = self
            .lanes
            .iter()
            .map(|l| l.spec.params.period_ms)
            .max()
            .unwrap_or(10_000)
            .max(1);
        let departs = (0..self.lanes.len())
            .filter_map(|j| self.yardstick(j).ok())
            .map(|y| y.longest_wait_ms)
            .max()
            .unwrap_or(0);
        self.last_time()
            .unwrap_or(0)
            .saturating_add(departs)
            .saturating_add((period / 20).max(500))
            .max(period)
    }

    /// Request `index` (global), if retained.
    pub fn request(&self, index: u64) -> Option<Request> {
        let i = index.checked_sub(self.base)?;
        self.requests.get(usize::try_from(i).ok()?).copied()
    }

    /// The retained requests, oldest first (global index = `retained().start + i`).
    pub fn requests(&self) -> impl ExactSizeIterator<Item = &Request> + '_ {
        self.requests.iter()
    }

    /// What lane `lane` decided for request `index`, if retained.
    pub fn outcome(&self, lane: usize, index: u64) -> Option<Outcome> {
        let i = usize::try_from(index.checked_sub(self.base)?).ok()?;
        Some(self.lanes.get(lane)?.entries.get(i)?.outcome)
    }

    /// The first retained index whose time is ≥ `t` ([`Timeline::len`] if none).
    pub fn index_at(&self, t: u64) -> u64 {
        self.base + self.requests.partition_point(|r| r.t < t) as u64
    }

    /// The first retained index whose time is > `t`: the requests up to and including
    /// `t` end here.
    pub fn index_after(&self, t: u64) -> u64 {
        self.base + self.requests.partition_point(|r| r.t <= t) as u64
    }

    /// The retained requests with `from ≤ t ≤ to`, as global indices: what a view of
    /// that span draws (two binary searches, so drawing costs what is visible).
    pub fn visible(&self, from: u64, to: u64) -> Range<u64> {
        let start = self.index_at(from);
        start..self.index_after(to).max(start)
    }

    fn lane_ref(&self, lane: usize) -> Result<&Lane, TimelineError> {
        self.lanes.get(lane).ok_or(TimelineError::NoSuchLane {
            lane,
            lanes: self.lanes.len(),
        })
    }

    /// Rejects times before the retained history.
    fn check_time(&self, t: u64) -> Result<(), TimelineError> {
        if self.base > 0 && t < self.earliest {
            Err(TimelineError::Compacted {
                t,
                earliest: self.earliest,
            })
        } else {
            Ok(())
        }
    }

    /// Key `name`'s limiter in `lane` after the requests before global index `end`
    /// (`base ≤ end ≤ len`): the nearest checkpoint, then a replay of the key's own
    /// requests since.
    fn state_before(&self, lane: &Lane, name: &str, end: u64) -> AnyLimiter {
        if end >= self.len() {
            return lane.live.get(name).clone();
        }
        let at = lane.checkpoints.partition_point(|c| c.0 <= end);
        let Some((start, state, _)) = lane.checkpoints.get(at.saturating_sub(1)) else {
            return lane.live.get(name).clone();
        };
        let mut limiter = state.get(name).clone();
        self.replay(&mut limiter, self.find_key(name), *start, end);
        limiter
    }

    /// Replays key `id`'s requests with global indices in `[from, to)` into
    /// `limiter` (nothing for a key that sent none).
    fn replay(&self, limiter: &mut AnyLimiter, id: Option<u32>, from: u64, to: u64) {
        let Some(id) = id else { return };
        let from = from.saturating_sub(self.base) as usize;
        let to = (to.saturating_sub(self.base) as usize).min(self.requests.len());
        for r in self.requests.range(from.min(to)..to) {
            if r.key == id {
                // Each was accepted when pushed, so replaying cannot fail.
                let _ = limiter.check(r.t, r.cost);
            }
        }
    }

    /// What lane `lane` held for key `name` at time `t` (after every request at or
    /// before `t`), projected to `t`.
    pub fn snapshot_at(&self, lane: usize, name: &str, t: u64) -> Result<Snapshot, TimelineError> {
        let l = self.lane_ref(lane)?;
        self.check_time(t)?;
        Ok(self.state_before(l, name, self.index_after(t)).snapshot(t))
    }

    /// What lane `lane` held for key `name` at each of `times`, as
    /// [`Timeline::snapshot_at`] answers one by one, with the times before the
    /// retained history left out. Times in ascending order cost one replay from one
    /// checkpoint in all (a strip of a thousand moments over a dense span would
    /// otherwise replay up to `checkpoint_every` requests for each); a time earlier
    /// than the one before it starts again from its own checkpoint.
    pub fn snapshots_at(
        &self,
        lane: usize,
        name: &str,
        times: impl IntoIterator<Item = u64>,
    ) -> Result<Vec<(u64, Snapshot)>, TimelineError> {
        let l = self.lane_ref(lane)?;
        let id = self.find_key(name);
        let mut out = Vec::new();
        // The limiter after the requests before global index `at`.
        let mut state: Option<(u64, AnyLimiter)> = None;
        for t in times {
            if self.check_time(t).is_err() {
                continue;
            }
            let end = self.index_after(t);
            match &mut state {
                Some((at, limiter)) if *at <= end => {
                    self.replay(limiter, id, *at, end);
                    *at = end;
                }
                _ => state = Some((end, self.state_before(l, name, end))),
            }
            if let Some((_, limiter)) = &state {
                out.push((t, limiter.snapshot(t)));
            }
        }
        Ok(out)
    }

    /// What a request of cost 1 from `name` arriving at `t` would be answered (status,
    /// `Retry-After`, the rate-limit headers), given every request at or before `t`.
    pub fn headers_at(&self, lane: usize, name: &str, t: u64) -> Result<Headers, TimelineError> {
        let l = self.lane_ref(lane)?;
        self.check_time(t)?;
        self.state_before(l, name, self.index_after(t))
            .headers(t)
            .map_err(|error| TimelineError::Check { lane, error })
    }

    /// The trace row of request `index` in lane `lane`: state before, updates, the
    /// comparison, verdict, state after.
    pub fn explain(&self, lane: usize, index: u64) -> Result<Explanation, TimelineError> {
        let l = self.lane_ref(lane)?;
        let r = self.request(index).ok_or(TimelineError::NotRetained {
            index,
            retained: self.retained(),
        })?;
        let name = self.keys.get(r.key as usize).map_or("", String::as_str);
        self.state_before(l, name, index)
            .explain(r.t, r.cost)
            .map_err(|error| TimelineError::Check { lane, error })
    }

    /// The yardstick of lane `lane` over everything pushed.
    pub fn yardstick(&self, lane: usize) -> Result<Yardstick, TimelineError> {
        Ok(self.lane_ref(lane)?.meter.yardstick())
    }

    /// The yardstick of lane `lane` over the requests at or before `t`: what
    /// [`crate::run`] reports for the stream cut at `t` (see the module docs for the
    /// one difference after compaction).
    pub fn yardstick_until(&self, lane: usize, t: u64) -> Result<Yardstick, TimelineError> {
        let l = self.lane_ref(lane)?;
        if self.last_time().is_none_or(|last| t >= last) {
            return Ok(l.meter.yardstick());
        }
        self.check_time(t)?;
        let end = self.index_after(t);
        let prefix_at = |j: u64| -> Prefix {
            // The running totals after the requests before global index j.
            if j <= self.base {
                l.base_prefix
            } else {
                l.entries
                    .get((j - 1 - self.base) as usize)
                    .map_or(l.base_prefix, |e| e.prefix)
            }
        };
        let prefix = prefix_at(end);
        // The histogram runs to the bucket of the last request at or before t.
        let last_t = if end > self.base {
            self.request(end - 1).map_or(self.earliest, |r| r.t)
        } else {
            self.earliest
        };
        let live = l.meter.histogram();
        let mut histogram = Vec::new();
        if end > 0 {
            let bucket = (last_t / HISTOGRAM_BUCKET_MS) as usize;
            histogram.extend_from_slice(live.get(..bucket).unwrap_or(live));
            if let Some(&whole) = live.get(bucket) {
                // Take away what was allowed in this bucket after t.
                let bucket_end = (bucket as u64 + 1) * HISTOGRAM_BUCKET_MS;
                // (When t lies in a later bucket, nothing after t is in this one.)
                let cut = self.index_after(bucket_end - 1).max(end);
                let later = prefix_at(cut).units.saturating_sub(prefix.units);
                histogram.push(whole - later.min(whole));
            }
        }
        Ok(l.meter.yardstick_of(&prefix, end, histogram))
    }

    /// Lane `lane`'s busiest window among the requests at or before `t` (`None` while
    /// it has allowed nothing): what the playground highlights for "max in any
    /// window".
    pub fn busiest_window_until(
        &self,
        lane: usize,
        t: u64,
    ) -> Result<Option<BusiestWindow>, TimelineError> {
        let l = self.lane_ref(lane)?;
        let prefix = if self.last_time().is_none_or(|last| t >= last) {
            l.meter.prefix()
        } else {
            self.check_time(t)?;
            let end = self.index_after(t);
            if end <= self.base {
                l.base_prefix
            } else {
                l.entries
                    .get((end - 1 - self.base) as usize)
                    .map_or(l.base_prefix, |e| e.prefix)
            }
        };
        let w = l.meter.window_ms();
        Ok(prefix.max_at.map(|(to, key)| BusiestWindow {
            from: to.saturating_sub(w),
            to,
            key: self.keys.get(key as usize).cloned().unwrap_or_default(),
            count: prefix.max_in_window,
        }))
    }

    /// Everything held, counted: retained requests, outcomes, the limiter state in
    /// checkpoints and live (in numbers, [`Limiter::state_numbers`] per key), the
    /// yardsticks' window entries and histograms, and the key table.
    pub fn stored_items(&self) -> usize {
        let state = |k: &Keyed<AnyLimiter>| -> usize {
            k.iter().map(|(_, l)| l.state_numbers().max(1)).sum()
        };
        self.requests.len()
            + self.keys.len()
            + self
                .lanes
                .iter()
                .map(|l| {
                    l.entries.len()
                        + state(&l.live)
                        + l.checkpoints
                            .iter()
                            .map(|(_, k, _)| 1 + state(k))
                            .sum::<usize>()
                        + l.meter.stored_items()
                })
                .sum::<usize>()
    }
}

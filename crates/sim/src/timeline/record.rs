//! Making a timeline and pushing requests into it, with compaction of the oldest.

use std::collections::{BTreeMap, VecDeque};

use ratelab_core::{AnyLimiter, CheckError, Keyed, Limiter, Ms};

use crate::config::Config;
use crate::cost::Budget;
use crate::error::SimError;
use crate::lane::LaneSpec;
use crate::stream::{Request, Stream};
use crate::yardstick::{Meter, Prefix};

use super::{Entry, Extending, Lane, Outcome, Timeline, TimelineError, TimelineLimits};

impl Timeline {
    /// Lanes with default limits; `window_ms` is the yardstick window (`None` = each
    /// lane's period). The key table starts as `[""]`.
    pub fn new(lanes: Vec<LaneSpec>, window_ms: Option<u64>) -> Result<Timeline, SimError> {
        Timeline::with_limits(lanes, window_ms, TimelineLimits::DEFAULT)
    }

    /// The playground's timeline of `config` (its lanes, window and whole stream),
    /// refused before any work if its estimate ([`crate::cost::timeline_cost`]) is
    /// over [`Budget::PLAYGROUND`]. Errors are one line (`requests[1000].key: …`).
    pub fn from_config(config: &Config) -> Result<Timeline, SimError> {
        let (mut timeline, mut building) = Timeline::prepare(config)?;
        timeline
            .extend_some(&config.stream, &mut building, usize::MAX)
            .map_err(|e| SimError::at("", e))?;
        Ok(timeline)
    }

    /// The start of [`Timeline::from_config`] a slice at a time: the budget check
    /// and the empty timeline, and where its build stands. Then
    /// [`Timeline::extend_some`] with the same stream until it says it is done.
    /// (The page builds a big import this way, a slice between frames.)
    pub fn prepare(config: &Config) -> Result<(Timeline, Extending), SimError> {
        let limits = TimelineLimits::DEFAULT;
        crate::cost::timeline_cost(config, &limits).check(&Budget::PLAYGROUND)?;
        let timeline = Timeline::with_limits(config.lanes.clone(), config.window_ms, limits)?;
        Ok((timeline, Extending::default()))
    }

    /// Lanes with explicit limits.
    pub fn with_limits(
        lanes: Vec<LaneSpec>,
        window_ms: Option<u64>,
        limits: TimelineLimits,
    ) -> Result<Timeline, SimError> {
        limits.validate()?;
        if window_ms == Some(0) {
            return Err(SimError::at("window_ms", "must be > 0"));
        }
        let mut built = Vec::with_capacity(lanes.len());
        for (j, spec) in lanes.into_iter().enumerate() {
            let proto = spec
                .build()
                .map_err(|e| SimError::param(&format!("limiters[{j}]"), &e))?;
            let live = Keyed::new(proto);
            let meter = Meter::new(spec.window_ms(window_ms), spec.algorithm.delays());
            built.push(Lane {
                spec,
                checkpoints: VecDeque::from([(0, live.clone(), 0)]),
                checkpoint_bytes: 0,
                live,
                entries: VecDeque::new(),
                meter,
                base_prefix: Prefix::ZERO,
            });
        }
        Ok(Timeline {
            lanes: built,
            requests: VecDeque::new(),
            base: 0,
            earliest: 0,
            keys: vec![String::new()],
            key_ids: BTreeMap::from([(String::new(), 0)]),
            limits,
        })
    }

    /// The index of key `name`, registering it if new.
    pub fn key_id(&mut self, name: &str) -> Result<u32, TimelineError> {
        if let Some(&id) = self.key_ids.get(name) {
            return Ok(id);
        }
        // The table always holds `""`; the cap counts the others.
        if self.keys.len() > self.limits.max_keys {
            return Err(TimelineError::TooManyKeys {
                max: self.limits.max_keys,
                key: name.to_string(),
                request: None,
            });
        }
        let id = self.keys.len() as u32;
        self.keys.push(name.to_string());
        self.key_ids.insert(name.to_string(), id);
        Ok(id)
    }

    /// Decides `r` in every lane and keeps it. Returns its global index.
    ///
    /// Checked before any lane records anything, so an error leaves the timeline as
    /// it was: time going backwards, a zero cost, an unknown key, or a cost some lane
    /// could never allow.
    pub fn push(&mut self, r: Request) -> Result<u64, TimelineError> {
        if let Some(last) = self.last_time() {
            if r.t < last {
                return Err(TimelineError::Check {
                    lane: 0,
                    error: CheckError::TimeWentBackwards {
                        previous: last,
                        now: r.t,
                    },
                });
            }
        }
        if r.cost == 0 {
            return Err(TimelineError::Check {
                lane: 0,
                error: CheckError::ZeroCost,
            });
        }
        let key = self
            .keys
            .get(r.key as usize)
            .ok_or(TimelineError::UnknownKey { key: r.key })?;
        if r.cost > 1 {
            for (j, lane) in self.lanes.iter().enumerate() {
                lane.live
                    .peek(key, r.t, r.cost)
                    .map_err(|error| TimelineError::Check { lane: j, error })?;
            }
        }
        let index = self.len();
        let every = self.limits.checkpoint_every as u64;
        for (j, lane) in self.lanes.iter_mut().enumerate() {
            if index > 0 && index % every == 0 {
                let bytes = state_bytes(&lane.live);
                if lane.checkpoint_bytes + bytes <= self.limits.checkpoint_bytes as u64 {
                    lane.checkpoints
                        .push_back((index, lane.live.clone(), bytes));
                    lane.checkpoint_bytes += bytes;
                }
            }
            // Cannot fail after the checks above; an error would still be reported.
            let d = lane
                .live
                .check(key, r.t, r.cost)
                .map_err(|error| TimelineError::Check { lane: j, error })?;
            let wait = d.allowed().then(|| d.wait());
            lane.meter
                .record(index, &r, wait, lane.live.get(key).state_numbers());
            lane.entries.push_back(Entry {
                outcome: Outcome {
                    allowed: d.allowed(),
                    wait: wait.unwrap_or(Ms::ZERO),
                },
                prefix: lane.meter.prefix(),
            });
        }
        self.requests.push_back(r);
        if self.requests.len() >= self.limits.retain + self.limits.checkpoint_every {
            self.compact();
        }
        Ok(index)
    }

    /// Pushes a request of `cost` from key `name` (registered if new) at `t`.
    pub fn push_key(&mut self, t: u64, name: &str, cost: u32) -> Result<u64, TimelineError> {
        let key = self.key_id(name)?;
        self.push(Request { t, key, cost })
    }

    /// Pushes every request of `stream` (each key registered by name when a request
    /// first uses it), in order. Stops at the first error, with the requests before
    /// it pushed; a key over [`TimelineLimits::max_keys`] names its first request.
    pub fn extend(&mut self, stream: &Stream) -> Result<(), TimelineError> {
        self.extend_some(stream, &mut Extending::default(), usize::MAX)
            .map(|_| ())
    }

    /// Pushes up to `max` more requests of `stream` from where `at` stands (as
    /// [`Timeline::extend`] does, a slice of it), and moves `at` past them; whether
    /// the whole stream is in. Slices of any size, `max` 0 included, build what one
    /// [`Timeline::extend`] builds (a property test). Give the same stream to every
    /// call of one build: `at` remembers its keys by their index in that stream.
    pub fn extend_some(
        &mut self,
        stream: &Stream,
        at: &mut Extending,
        max: usize,
    ) -> Result<bool, TimelineError> {
        if at.ids.len() < stream.keys.len() {
            at.ids.resize(stream.keys.len(), None);
        }
        let rest = stream.requests.get(at.next..).unwrap_or_default();
        for r in rest.iter().take(max) {
            let i = at.next;
            let slot = at
                .ids
                .get_mut(r.key as usize)
                .ok_or(TimelineError::UnknownKey { key: r.key })?;
            let key = match *slot {
                Some(id) => id,
                None => {
                    let name = stream.key_name(r.key).unwrap_or("");
                    let id = self.key_id(name).map_err(|e| match e {
                        TimelineError::TooManyKeys { max, key, .. } => TimelineError::TooManyKeys {
                            max,
                            key,
                            request: Some(i),
                        },
                        other => other,
                    })?;
                    *slot = Some(id);
                    id
                }
            };
            self.push(Request { key, ..*r })?;
            at.next += 1;
        }
        Ok(at.next >= stream.requests.len())
    }

    /// Drops the oldest requests down to `retain`, up to a checkpoint.
    fn compact(&mut self) {
        let every = self.limits.checkpoint_every as u64;
        let target = self.len().saturating_sub(self.limits.retain as u64);
        let new_base = target.div_ceil(every) * every;
        if new_base <= self.base {
            return;
        }
        let drop = (new_base - self.base) as usize;
        let (requests, keys, base) = (&self.requests, &self.keys, self.base);
        for lane in &mut self.lanes {
            if let Some(e) = lane.entries.get(drop - 1) {
                lane.base_prefix = e.prefix;
            }
            lane.entries.drain(..drop.min(lane.entries.len()));
            // Drop every checkpoint before the last one at or before the new base.
            while lane.checkpoints.len() > 1
                && lane.checkpoints.get(1).is_some_and(|c| c.0 <= new_base)
            {
                lane.checkpoints.pop_front();
                if let Some(c) = lane.checkpoints.front() {
                    // It becomes the base, which the budget does not count.
                    lane.checkpoint_bytes = lane.checkpoint_bytes.saturating_sub(c.2);
                }
            }
            // No checkpoint was taken at the new base (the budget was full): the base
            // moves there by replaying the requests in between.
            if let Some((at, state, bytes)) = lane.checkpoints.front_mut() {
                if *at < new_base {
                    let from = (*at - base) as usize;
                    for r in requests.range(from..drop.min(requests.len())) {
                        let name = keys.get(r.key as usize).map_or("", String::as_str);
                        // Each was accepted when pushed, so replaying cannot fail.
                        let _ = state.check(name, r.t, r.cost);
                    }
                    *at = new_base;
                    *bytes = state_bytes(state);
                }
            }
            lane.meter.forget_before(new_base);
        }
        if let Some(r) = self.requests.get(drop - 1) {
            self.earliest = r.t;
        }
        self.requests.drain(..drop.min(self.requests.len()));
        self.base = new_base;
    }
}

/// The bytes of a keyed state, as [`crate::cost`] counts them: each key's limiter
/// and name, and a sliding log's entries.
fn state_bytes(k: &Keyed<AnyLimiter>) -> u64 {
    k.iter()
        .map(|(name, l)| crate::cost::key_bytes(name.len()) + crate::cost::heap_bytes(l))
        .sum()
}

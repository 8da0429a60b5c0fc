//! A live, scrubbable timeline for the playground: lanes decide every request as it
//! is pushed, and any moment of the retained history can be looked at again.
//!
//! # How looking back works
//!
//! Each lane keeps a *checkpoint* (a copy of its keyed limiter state) every
//! `checkpoint_every` requests. The state of a key at time `t` is the nearest
//! checkpoint at or before `t`, plus a replay of that key's requests since: at most
//! `checkpoint_every` requests are scanned, and only the key's own are re-decided
//! (keys are independent). Queries never change the live state.
//!
//! # Bounded memory
//!
//! At most `retain + checkpoint_every` requests are kept. Past that, the oldest part
//! is *compacted*: dropped up to a multiple of `checkpoint_every`, where the state is
//! the checkpoint taken there or, if none was, the nearest one before it replayed
//! forward; that state becomes the base.
//!
//! Checkpoints of large states are bounded: a lane's checkpoints other than the base
//! hold at most [`TimelineLimits::checkpoint_bytes`] between them; a checkpoint that
//! would pass that is not taken, and looking at a moment after it replays from the
//! one before (at most the retained requests, instead of `checkpoint_every`). So a
//! lane holds its live state, the base, and that budget, however large a sliding log
//! grows; [`crate::cost::timeline_cost`] bounds the whole in bytes before a run. Running totals
//! (passed, maxima, histogram) survive compaction; what is lost is the ability to look
//! at moments before the base ([`TimelineError::Compacted`]) and, for sliding-window
//! maxima, the requests before the base: a window `(t − W, t]` reaching back past the
//! retained history counts only the retained part (with the default 20 000 requests
//! retained, that needs more than 20 000 requests inside one window).
//!
//! [`Timeline::stored_items`] counts what is held, so that a test can assert the bound
//! by counting. With `L` lanes and `K` keys it stays below about
//! `(retain + checkpoint_every) · (1 + 4L) + L · (checkpoints + 1) · K · s`, where `s`
//! is the state size of one key (1–3 numbers, up to N for the sliding log).

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::ops::Range;

use ratelab_core::{AnyLimiter, CheckError, Explanation, Headers, Keyed, Limiter, Ms, Snapshot};

use crate::config::{Config, LaneSpec};
use crate::cost::Budget;
use crate::error::SimError;
use crate::stream::{Request, Stream};
use crate::yardstick::{Meter, Prefix, Yardstick, HISTOGRAM_BUCKET_MS};

/// The most checkpoints a lane may keep.
pub const MAX_CHECKPOINTS: usize = 64;

/// How much a timeline keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimelineLimits {
    /// Requests kept for looking back (at least this many once there are more).
    pub retain: usize,
    /// A checkpoint every this many requests: the longest replay of a query.
    pub checkpoint_every: usize,
    /// The most distinct keys besides the anonymous key `""` (which every timeline
    /// has).
    pub max_keys: usize,
    /// The most bytes a lane's checkpoints (besides the base) hold together.
    pub checkpoint_bytes: usize,
}

impl TimelineLimits {
    /// 20 000 requests, a checkpoint every 625 (at most 34 per lane, holding at most
    /// 4 MiB besides the base), 1 000 keys (besides `""`).
    pub const DEFAULT: TimelineLimits = TimelineLimits {
        retain: 20_000,
        checkpoint_every: 625,
        max_keys: 1_000,
        checkpoint_bytes: 4 << 20,
    };

    fn validate(&self) -> Result<(), SimError> {
        if self.checkpoint_every == 0 || self.retain < self.checkpoint_every {
            return Err(SimError::at("limits", "need 1 ≤ checkpoint_every ≤ retain"));
        }
        if self.retain / self.checkpoint_every + 2 > MAX_CHECKPOINTS {
            return Err(SimError::at(
                "limits",
                format_args!(
                    "retain / checkpoint_every + 2 must be at most {MAX_CHECKPOINTS} (checkpoints per lane)"
                ),
            ));
        }
        if self.max_keys == 0 {
            return Err(SimError::at("limits", "max_keys must be > 0"));
        }
        Ok(())
    }
}

impl Default for TimelineLimits {
    fn default() -> TimelineLimits {
        TimelineLimits::DEFAULT
    }
}

/// What a lane decided for one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Allowed (possibly after `wait`)?
    pub allowed: bool,
    /// The exact wait of an allowed request (zero when denied).
    pub wait: Ms,
}

impl Outcome {
    /// The wait rounded up to whole ms, `None` when denied (as `wait_ms` in JSON).
    pub fn wait_ms(&self) -> Option<u64> {
        self.allowed.then(|| self.wait.ceil_ms())
    }
}

/// A query or push the timeline refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimelineError {
    /// There is no lane with this index.
    NoSuchLane {
        /// The index asked for.
        lane: usize,
        /// How many lanes there are.
        lanes: usize,
    },
    /// A request names a key index that was never registered.
    UnknownKey {
        /// The key index.
        key: u32,
    },
    /// Registering another key would pass [`TimelineLimits::max_keys`].
    TooManyKeys {
        /// The limit.
        max: usize,
        /// The key refused.
        key: String,
        /// Its first request in the stream being added ([`Timeline::extend`]).
        request: Option<usize>,
    },
    /// A lane refused the request (time going backwards, a zero or too large cost).
    /// Nothing was recorded in any lane.
    Check {
        /// The lane that refused (0 when every lane would).
        lane: usize,
        /// Why.
        error: CheckError,
    },
    /// The request is not (or no longer) retained.
    NotRetained {
        /// The global index asked for.
        index: u64,
        /// The retained indices.
        retained: Range<u64>,
    },
    /// The moment asked for is before the retained history.
    Compacted {
        /// The time asked for.
        t: u64,
        /// The earliest time that can be looked at.
        earliest: u64,
    },
}

impl fmt::Display for TimelineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimelineError::NoSuchLane { lane, lanes } => {
                write!(f, "lane {lane}: no such lane (there are {lanes})")
            }
            TimelineError::UnknownKey { key } => write!(f, "key {key}: not registered"),
            TimelineError::TooManyKeys { max, key, request } => {
                match request {
                    Some(i) => write!(f, "requests[{i}].key")?,
                    None => f.write_str("key")?,
                }
                write!(
                    f,
                    ": \"{}\" is one key too many (at most {max} keys besides \"\")",
                    crate::text::shorten(key, 40)
                )
            }
            TimelineError::Check { lane, error } => write!(f, "lane {lane}: {error}"),
            TimelineError::NotRetained { index, retained } => write!(
                f,
                "request {index}: not retained (requests {}..{} are)",
                retained.start, retained.end
            ),
            TimelineError::Compacted { t, earliest } => write!(
                f,
                "t = {t} ms: before the retained history (it starts at {earliest} ms)"
            ),
        }
    }
}

impl std::error::Error for TimelineError {}

/// Where a lane's busiest window `(from, to]` is: the one in which it allowed
/// [`crate::Yardstick::max_in_window`] requests, first reached at `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BusiestWindow {
    /// The window's open start, `to − W` (saturating at 0).
    pub from: u64,
    /// Its closed end: the arrival time of the request that reached the maximum.
    pub to: u64,
    /// The key whose requests fill it (windows are per key).
    pub key: String,
    /// How many allowed (weighted by cost).
    pub count: u64,
}

/// Bytes of one retained outcome in one lane (what [`crate::cost`] counts).
pub(crate) const ENTRY_BYTES: u64 = core::mem::size_of::<Entry>() as u64;

/// One request's outcome in one lane, with the running totals after it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    outcome: Outcome,
    prefix: Prefix,
}

/// One lane of the timeline.
#[derive(Clone, Debug)]
struct Lane {
    spec: LaneSpec,
    live: Keyed<AnyLimiter>,
    /// `(global index, state before that request, its bytes)`, oldest first; the
    /// first one is at the base.
    checkpoints: VecDeque<(u64, Keyed<AnyLimiter>, u64)>,
    /// Bytes of the checkpoints other than the base.
    checkpoint_bytes: u64,
    entries: VecDeque<Entry>,
    meter: Meter,
    /// The running totals just before the base.
    base_prefix: Prefix,
}

/// A growing stream decided by several lanes at once, with the history kept for
/// looking back (see the module docs).
#[derive(Clone, Debug)]
pub struct Timeline {
    lanes: Vec<Lane>,
    requests: VecDeque<Request>,
    /// Global index of `requests[0]`.
    base: u64,
    /// The time of the last compacted request (0 before any compaction).
    earliest: u64,
    keys: Vec<String>,
    key_ids: BTreeMap<String, u32>,
    limits: TimelineLimits,
}

/// Where a build of a stream a slice at a time stands ([`Timeline::extend_some`]):
/// the next request, and the timeline's id of each of the stream's keys seen so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extending {
    next: usize,
    ids: Vec<Option<u32>>,
}

impl Extending {
    /// How many requests of the stream are in.
    pub fn done(&self) -> usize {
        self.next
    }
}

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

/// The bytes of a keyed state, as [`crate::cost`] counts them: each key's limiter
/// and name, and a sliding log's entries.
fn state_bytes(k: &Keyed<AnyLimiter>) -> u64 {
    k.iter()
        .map(|(name, l)| crate::cost::key_bytes(name.len()) + crate::cost::heap_bytes(l))
        .sum()
}

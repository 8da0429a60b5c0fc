//! What a run will cost, known before it runs: an upper bound on the memory it holds
//! and the limiter steps it takes, from the config alone, and the budgets every face
//! holds runs to.
//!
//! Count caps (2 000 000 requests, 32 limiters, N up to 2^32 − 1) are not enough on
//! their own: a sliding log keeps up to N entries per key, and a run keeps a decision
//! per request and lane, so inputs inside every cap can ask for gigabytes. So each
//! face estimates first and refuses (the JSON API and the command line) or falls
//! back with a notice (a link) when the estimate is over its [`Budget`]:
//!
//! | face | budget | what is counted |
//! |---|---|---|
//! | `simulate`, `simulateJson`, `ratelab simulate` ([`crate::run`]) | [`Budget::RUN`]: 512 MiB, 100 M steps | the stream, every decision and wait, each lane's limiter state and yardstick windows, the responses if asked, the JSON written |
//! | the playground ([`crate::Timeline`]) | [`Budget::PLAYGROUND`]: 64 MiB, 20 M steps, 2 M steps a query | the retained history, each lane's outcomes and running totals, live state, checkpoints |
//! | `ratelab trace` ([`crate::trace`]) | [`Budget::TRACE`]: 64 MiB, 50 M steps | the state shown in every row (before and after) |
//!
//! A *step* is one limiter decision, one number of state copied, or one request
//! replayed; natively a step takes about 2–20 ns, in wasm about twice that, so the
//! playground's 20 M steps are well under a second and a query's 2 M a few ms.
//!
//! The bound on state comes from the stream: a sliding log of key k holds at most
//! `min(N, distinct times of k in any window)` entries (the teaching variant the
//! distinct times, denied ones included), every other limiter 1 to 3 numbers. The
//! estimate computes those maxima in one pass per distinct window, so it costs about
//! what reading the stream costs.

use core::fmt;
use core::mem::size_of;
use std::collections::{BTreeMap, VecDeque};

use ratelab_core::{Algorithm, AnyLimiter, Limiter, Ms};

use crate::config::Config;
use crate::error::SimError;
use crate::shape::{Shape, WindowLoad};
use crate::stream::{Request, Stream};
use crate::timeline::{TimelineLimits, ENTRY_BYTES};
use crate::traffic::Poisson;
use crate::yardstick::{
    ARRIVAL_POINT_BYTES, DEPARTURE_POINT_BYTES, HISTOGRAM_BUCKET_MS, HISTOGRAM_MAX_BUCKETS,
    KEY_WINDOW_BYTES,
};

/// What a face allows one run to cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The most bytes held at once.
    pub bytes: u64,
    /// The most steps to build the result.
    pub steps: u64,
    /// The most steps one look at a moment may take (the playground's per-frame
    /// queries; unlimited elsewhere).
    pub query_steps: u64,
}

impl Budget {
    /// The JSON API and `ratelab simulate`: 512 MiB, 100 million steps.
    pub const RUN: Budget = Budget {
        bytes: 512 << 20,
        steps: 100_000_000,
        query_steps: u64::MAX,
    };

    /// The playground (a link, an embed, the form, an import): 64 MiB of wasm memory
    /// for the timeline, 20 million steps to build it, 2 million per query.
    pub const PLAYGROUND: Budget = Budget {
        bytes: 64 << 20,
        steps: 20_000_000,
        query_steps: 2_000_000,
    };

    /// `ratelab trace`: 64 MiB, 50 million steps (every row shows the state before
    /// and after, so a state of s numbers costs 2s steps a row).
    pub const TRACE: Budget = Budget {
        bytes: 64 << 20,
        steps: 50_000_000,
        query_steps: u64::MAX,
    };
}

/// An estimate of what a run costs (every figure an upper bound).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Requests in the stream.
    pub requests: u64,
    /// Lanes.
    pub lanes: u64,
    /// The most bytes held at once.
    pub bytes: u64,
    /// Steps to build the result.
    pub steps: u64,
    /// Steps of the costliest look at one moment (playground queries).
    pub query_steps: u64,
    /// The largest state one lane holds at once (numbers, all keys), and which lane.
    pub largest_state: Option<(usize, u64)>,
}

impl Cost {
    /// `Ok` if within `budget`, else the one-line reason (what is too large, by how
    /// much, and what to lower).
    pub fn check(&self, budget: &Budget) -> Result<(), SimError> {
        let shape = format!(
            "{} requests × {} limiter{}",
            self.requests,
            self.lanes,
            if self.lanes == 1 { "" } else { "s" }
        );
        let state = match self.largest_state {
            Some((lane, n)) if n >= 1_000 => {
                format!("; limiters[{lane}] alone keeps up to {n} numbers of state")
            }
            _ => String::new(),
        };
        if self.bytes > budget.bytes {
            return Err(SimError::at(
                "",
                format_args!(
                    "too much for one run: about {} of memory ({shape}{state}), over the budget of {}; use fewer requests or limiters, or a smaller limit or period",
                    Bytes(self.bytes),
                    Bytes(budget.bytes)
                ),
            ));
        }
        if self.steps > budget.steps {
            return Err(SimError::at(
                "",
                format_args!(
                    "too much for one run: about {} million steps ({shape}{state}), over the budget of {} million; use fewer requests or limiters, or a smaller limit or period",
                    self.steps.div_ceil(1_000_000),
                    budget.steps / 1_000_000
                ),
            ));
        }
        if self.query_steps > budget.query_steps {
            return Err(SimError::at(
                "",
                format_args!(
                    "too much to look at: about {} million steps to show one moment ({shape}{state}), over the budget of {} million; use a smaller limit or period",
                    self.query_steps.div_ceil(1_000_000),
                    budget.query_steps / 1_000_000
                ),
            ));
        }
        Ok(())
    }
}

/// A byte count as people read it: `64 MB`, `3.1 GB` (powers of 1024), with one
/// decimal below 10 when it is not a whole number. Integer arithmetic: float
/// formatting would keep its code in the page's first module for this alone.
struct Bytes(u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
        let bytes = u128::from(self.0);
        let mut unit = 0;
        let mut size: u128 = 1024;
        while bytes >= size * 1024 && unit + 1 < UNITS.len() {
            size *= 1024;
            unit += 1;
        }
        let u = UNITS.get(unit).copied().unwrap_or("TB");
        // Tenths, rounded to the nearest.
        let tenths = (bytes * 10 + size / 2) / size;
        if tenths < 100 && tenths % 10 != 0 {
            write!(f, "{}.{} {u}", tenths / 10, tenths % 10)
        } else {
            write!(f, "{} {u}", (bytes + size / 2) / size)
        }
    }
}

/// The stream measured against a window, per key.
#[derive(Clone, Debug, Default)]
struct Load {
    keys: Vec<WindowLoad>,
    /// Σ over requests of `min(cap, distinct times of its key in the window, itself
    /// included)`: the log entries a trace shows, when asked for with a cap.
    shown: u64,
}

/// One pass over the stream: each key's window of distinct times. With `cap`, also
/// sums what a trace of a log capped at `cap` entries shows ([`Load::shown`]).
fn load(stream: &Stream, window_ms: u64, cap: Option<u64>) -> Load {
    let mut windows: BTreeMap<u32, (VecDeque<(u64, u64)>, u64)> = BTreeMap::new();
    let mut keys = vec![WindowLoad::default(); stream.keys.len()];
    let mut shown = 0u64;
    for r in &stream.requests {
        let (q, inside) = windows.entry(r.key).or_default();
        while let Some(&(t, n)) = q.front() {
            if (t as u128) + (window_ms as u128) > r.t as u128 {
                break;
            }
            *inside -= n;
            q.pop_front();
        }
        if let Some(cap) = cap {
            shown = shown.saturating_add((q.len() as u64 + 1).min(cap));
        }
        match q.back_mut() {
            Some((t, n)) if *t == r.t => *n += 1,
            _ => q.push_back((r.t, 1)),
        }
        *inside += 1;
        if let Some(k) = keys.get_mut(r.key as usize) {
            k.distinct = k.distinct.max(q.len() as u64);
            k.requests = k.requests.max(*inside);
        }
    }
    Load { keys, shown }
}

/// Bytes of one key's limiter outside its log: the limiter, its name, the map's
/// share of a node (a B-tree node holds up to 11, at least 5).
pub(crate) fn key_bytes(name_len: usize) -> u64 {
    (3 * (size_of::<String>() + size_of::<AnyLimiter>()) + name_len) as u64
}

/// A sliding log entry (time, count, flag) in core.
const LOG_ENTRY_BYTES: u64 = 16;

/// Bytes a limiter holds outside itself: a sliding log's entries.
pub(crate) fn heap_bytes(l: &AnyLimiter) -> u64 {
    match l {
        AnyLimiter::SlidingLog(_) => LOG_ENTRY_BYTES * l.state_numbers() as u64,
        _ => 0,
    }
}

/// One lane's state, bounded.
#[derive(Clone, Copy, Debug, Default)]
struct LaneState {
    /// Keys the lane will see.
    keys: u64,
    /// Bytes of those keys' limiters besides log entries.
    key_bytes: u64,
    /// Log entries at once, all keys (0 for other algorithms).
    entries: u64,
    /// The most entries of one key.
    key_entries: u64,
    /// Numbers of state at once (what [`ratelab_core::Limiter::state_numbers`] sums to).
    numbers: u64,
}

impl LaneState {
    /// Live bytes (a growing deque may hold twice its entries).
    fn live_bytes(&self) -> u64 {
        self.key_bytes + 2 * LOG_ENTRY_BYTES * self.entries
    }

    /// Bytes of one copy (a checkpoint).
    fn copy_bytes(&self) -> u64 {
        self.key_bytes + LOG_ENTRY_BYTES * self.entries
    }
}

/// Where the estimate reads its figures: the stream itself, or, for a stream not
/// made yet, its [`Shape`] (the figures bounded from the scenario's parameters; a
/// one-key stream whose key is `""`).
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// A stream at hand.
    Stream(&'a Stream),
    /// A parameterised scenario's stream, before it is made.
    Shape(&'a Shape),
}

impl Source<'_> {
    fn requests(&self) -> u64 {
        match self {
            Source::Stream(s) => s.len() as u64,
            Source::Shape(s) => s.requests,
        }
    }

    fn last_ms(&self) -> u64 {
        match self {
            Source::Stream(s) => s.requests.last().map_or(0, |r| r.t),
            Source::Shape(s) => s.last_ms,
        }
    }

    /// The key table's bytes (a shaped stream's is `[""]`).
    fn key_table_bytes(&self) -> u64 {
        let entry = |len: usize| 2 * (size_of::<String>() + len) as u64 + 16;
        match self {
            Source::Stream(s) => s.keys.iter().map(|k| entry(k.len())).sum(),
            Source::Shape(_) => entry(0),
        }
    }
}

/// The stream as the estimate needs it, measured once per distinct window.
struct Measure<'a> {
    source: Source<'a>,
    loads: BTreeMap<u64, Load>,
    key_bytes: u64,
    keys_used: u64,
}

impl<'a> Measure<'a> {
    fn new(source: Source<'a>) -> Measure<'a> {
        let stream = match source {
            Source::Stream(stream) => stream,
            Source::Shape(shape) => {
                return Measure {
                    source,
                    loads: BTreeMap::new(),
                    key_bytes: if shape.requests > 0 { key_bytes(0) } else { 0 },
                    keys_used: u64::from(shape.requests > 0),
                }
            }
        };
        let mut used = vec![false; stream.keys.len()];
        for r in &stream.requests {
            if let Some(u) = used.get_mut(r.key as usize) {
                *u = true;
            }
        }
        let key_bytes = stream
            .keys
            .iter()
            .zip(&used)
            .filter(|(_, &u)| u)
            .map(|(k, _)| key_bytes(k.len()))
            .sum();
        Measure {
            source,
            loads: BTreeMap::new(),
            key_bytes,
            keys_used: used.iter().filter(|&&u| u).count() as u64,
        }
    }

    fn load(&mut self, window_ms: u64) -> &Load {
        let source = self.source;
        self.loads.entry(window_ms).or_insert_with(|| match source {
            Source::Stream(stream) => load(stream, window_ms, None),
            Source::Shape(shape) => Load {
                keys: vec![shape.window(window_ms)],
                shown: 0,
            },
        })
    }

    /// Bytes of the points a lane's yardstick keeps in its windows at once: allowed
    /// requests inside W and inside 1 s by arrival, and for the delaying limiters by
    /// departure (where up to the queue's capacity more may wait). Each window holds
    /// at most the requests of one window, at most what the algorithm can allow in
    /// one (its guarantee, when W is its period), and at most `cap`.
    fn window_bytes(
        &mut self,
        lane: &crate::lane::LaneSpec,
        window_ms: Option<u64>,
        cap: u64,
    ) -> u64 {
        let w = lane.window_ms(window_ms);
        let keys = self.keys_used;
        let p = &lane.params;
        let burst = p.burst_for(lane.algorithm).saturating_add(1);
        // The most one key's limiter allows in a window of its period.
        let allows = match lane.algorithm {
            Algorithm::SlidingLog | Algorithm::SlidingLogLogsBlocked => p.limit,
            Algorithm::TokenBucket | Algorithm::TokenBucketF64 | Algorithm::Gcra => {
                burst.saturating_add(p.limit)
            }
            Algorithm::LeakyQueue | Algorithm::Nginx => {
                burst.saturating_add(p.limit).saturating_add(1)
            }
            _ => p.limit.saturating_mul(2),
        };
        let guaranteed = (w == p.period_ms).then(|| keys.saturating_mul(allows));
        let in_window: u64 = self.load(w).keys.iter().map(|k| k.requests).sum();
        let in_window = guaranteed.map_or(in_window, |g| in_window.min(g)).min(cap);
        let in_second: u64 = self
            .load(1_000)
            .keys
            .iter()
            .map(|k| k.requests)
            .sum::<u64>()
            .min(cap);
        let mut bytes = (in_window + in_second) * ARRIVAL_POINT_BYTES;
        if lane.algorithm.delays() {
            let waiting = keys.saturating_mul(burst);
            bytes += in_window.saturating_add(waiting).min(cap) * DEPARTURE_POINT_BYTES;
        }
        bytes
    }

    /// The state lane `algorithm` at `limit` per `period_ms` can hold at once.
    fn lane(&mut self, algorithm: Algorithm, limit: u64, period_ms: u64) -> LaneState {
        let keys = self.keys_used;
        let key_bytes = self.key_bytes;
        let cap = match algorithm {
            Algorithm::SlidingLog => Some(limit),
            Algorithm::SlidingLogLogsBlocked => Some(u64::MAX),
            _ => None,
        };
        let Some(cap) = cap else {
            return LaneState {
                keys,
                key_bytes,
                entries: 0,
                key_entries: 0,
                numbers: 3 * keys,
            };
        };
        let load = self.load(period_ms);
        let per_key = load.keys.iter().map(|k| k.distinct.min(cap));
        let entries: u64 = per_key.clone().sum();
        LaneState {
            keys,
            key_bytes,
            entries,
            key_entries: per_key.max().unwrap_or(0),
            numbers: entries,
        }
    }
}

/// What [`crate::run`] holds and does for `config` (the JSON API, `ratelab
/// simulate`).
pub fn run_cost(config: &Config) -> Cost {
    let stream = &config.stream;
    let n = stream.len() as u64;
    let mut m = Measure::new(Source::Stream(stream));
    let mut cost = base_cost(config);
    // The stream, and one lane's decisions at a time ([`crate::run_with`]).
    cost.bytes = n * (size_of::<Request>() + size_of::<crate::Decided>()) as u64
        + Source::Stream(stream).key_table_bytes();
    cost.steps = n;
    let mut largest = 0;
    for (j, lane) in config.lanes.iter().enumerate() {
        let p = &lane.params;
        let state = m.lane(lane.algorithm, p.limit, p.period_ms);
        note_largest(&mut cost, j, state.numbers);
        // A growing deque may hold twice its points.
        let windows = 2 * m.window_bytes(lane, config.window_ms, n);
        // The JSON written grows too.
        largest = largest
            .max(state.live_bytes())
            .max(windows)
            .max(n * 24 * (j as u64 + 1));
        cost.bytes += n * (1 + size_of::<Option<Ms>>() as u64)
            + state.live_bytes()
            + windows
            + m.keys_used * KEY_WINDOW_BYTES
            + histogram_bytes(Source::Stream(stream))
            // The JSON written: `true,` and a wait of up to 16 digits.
            + n * 24;
        cost.steps += 2 * n;
        if config.responses {
            // Every lane's responses are held to the end, and written: a field's
            // two texts and about 400 bytes of JSON each.
            cost.bytes += n * (size_of::<ratelab_core::Headers>() as u64 + RESPONSE_BYTES);
            cost.steps += n;
        }
    }
    if let Some(sweep) = &config.sweep {
        let requests: u64 = sweep
            .loads_permille
            .iter()
            .map(|&load| {
                Poisson {
                    clients: sweep.clients,
                    load_permille: load,
                    limit: sweep.limit,
                    period_ms: sweep.period_ms,
                    duration_ms: sweep.duration_ms,
                    seed: sweep.seed,
                }
                .expected_requests()
                .min(u64::MAX as u128) as u64
            })
            .sum();
        cost.steps += 2 * requests;
        cost.bytes += 2 * sweep.limit.min(u64::from(u32::MAX)) * LOG_ENTRY_BYTES;
    }
    cost.bytes += growing(largest);
    cost
}

/// What one response of [`Config::responses`] takes beyond its struct: its two
/// field texts and its JSON (`{"status": 429, "headers": {...}, "body": ...}`).
const RESPONSE_BYTES: u64 = 64 + 480;

/// What a [`crate::Timeline`] with `limits` holds and does for `config` (the
/// playground): see the README's "bad input" for the terms.
pub fn timeline_cost(config: &Config, limits: &TimelineLimits) -> Cost {
    timeline_cost_of(config, Source::Stream(&config.stream), limits)
}

/// [`timeline_cost`] for `config`'s lanes and window over the stream `source`
/// describes (`config.stream` is not read). With a [`Source::Shape`] every figure it
/// reads is an upper bound on the stream's and the estimate only grows with each,
/// so the cost is at least [`timeline_cost`]'s for the stream once it is made: what
/// it allows, the stream's estimate allows too.
pub fn timeline_cost_of(config: &Config, source: Source<'_>, limits: &TimelineLimits) -> Cost {
    let n = source.requests();
    let retain = (limits.retain + limits.checkpoint_every) as u64;
    let r = n.min(retain);
    let mut m = Measure::new(source);
    let mut cost = base_cost(config);
    cost.requests = n;
    cost.bytes = deque_bytes(r, size_of::<Request>() as u64) + 2 * source.key_table_bytes();
    cost.steps = n;
    let mut largest = 0;
    let every = limits.checkpoint_every.max(1) as u64;
    let compactions = n / limits.retain.max(1) as u64;
    for (j, lane) in config.lanes.iter().enumerate() {
        let p = &lane.params;
        let state = m.lane(lane.algorithm, p.limit, p.period_ms);
        note_largest(&mut cost, j, state.numbers);
        // Compaction forgets window points before the base.
        let windows = 2 * m.window_bytes(lane, config.window_ms, n.min(r));
        // The checkpoints besides the base: one every `every` requests retained, up
        // to their budget.
        let copies = (r / every + 1) * state.copy_bytes();
        largest = largest
            .max(deque_bytes(r, ENTRY_BYTES))
            .max(state.live_bytes())
            .max(windows);
        cost.bytes += deque_bytes(r, ENTRY_BYTES)
            + windows
            + m.keys_used * KEY_WINDOW_BYTES
            + histogram_bytes(source)
            // Live, the base, and one being built at compaction.
            + state.live_bytes()
            + 2 * state.copy_bytes()
            + copies.min(limits.checkpoint_bytes as u64);
        // Checkpoints copy their state (a step per 16 bytes), up to their budget
        // between two compactions.
        let taken = n / every;
        let copied = (taken.saturating_mul(state.copy_bytes()))
            .min((compactions + 2).saturating_mul(limits.checkpoint_bytes as u64))
            / LOG_ENTRY_BYTES;
        cost.steps += 2 * n + copied + compactions * (state.numbers + state.keys + retain);
        // A look at one moment: one key's state copied, then up to the retained
        // requests replayed (when large states leave few checkpoints).
        cost.query_steps = cost.query_steps.max(state.key_entries + 3 + retain);
    }
    cost.bytes += growing(largest);
    cost
}

/// While a buffer of `bytes` grows, the old one (half as large) is held until the
/// copy is done: one at a time, so the largest buffer's half bounds the extra.
fn growing(largest: u64) -> u64 {
    largest / 2
}

/// A deque of `len` items of `size` bytes: its capacity grows by doubling.
fn deque_bytes(len: u64, size: u64) -> u64 {
    len.max(1).next_power_of_two() * size
}

/// What [`crate::trace`] shows for `config`: every row prints the state before and
/// after, so a log of s entries costs 2s steps a row (the command line elides long
/// states when it prints them, but the engine still builds them).
pub fn trace_cost(config: &Config) -> Cost {
    let stream = &config.stream;
    let n = stream.len() as u64;
    let mut m = Measure::new(Source::Stream(stream));
    let mut cost = base_cost(config);
    cost.bytes = n * size_of::<Request>() as u64 + Source::Stream(stream).key_table_bytes();
    cost.steps = 0;
    for (j, lane) in config.lanes.iter().enumerate() {
        let p = &lane.params;
        let state = m.lane(lane.algorithm, p.limit, p.period_ms);
        note_largest(&mut cost, j, state.numbers);
        cost.bytes += state.live_bytes() + 3 * LOG_ENTRY_BYTES * state.key_entries.max(1);
        let cap = match lane.algorithm {
            Algorithm::SlidingLog => p.limit,
            Algorithm::SlidingLogLogsBlocked => u64::MAX,
            _ => 3,
        };
        let shown: u64 = if cap == 3 {
            3 * n
        } else {
            load(stream, p.period_ms, Some(cap)).shown
        };
        cost.steps += n + 2 * shown;
    }
    cost
}

fn base_cost(config: &Config) -> Cost {
    Cost {
        requests: config.stream.len() as u64,
        lanes: config.lanes.len() as u64,
        ..Cost::default()
    }
}

fn note_largest(cost: &mut Cost, lane: usize, numbers: u64) {
    if cost.largest_state.is_none_or(|(_, n)| numbers > n) {
        cost.largest_state = Some((lane, numbers));
    }
}

/// A lane's histogram: one bucket per 10 s up to the last request (at most 24 h).
fn histogram_bytes(source: Source<'_>) -> u64 {
    let last = source.last_ms();
    let buckets = (last / HISTOGRAM_BUCKET_MS + 1).min(HISTOGRAM_MAX_BUCKETS as u64);
    2 * buckets * 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_read_as_people_write_them() {
        assert_eq!(Bytes(64 << 20).to_string(), "64 MB");
        assert_eq!(Bytes(512 << 20).to_string(), "512 MB");
        assert_eq!(Bytes(3_300_000_000).to_string(), "3.1 GB");
        assert_eq!(Bytes(1_500).to_string(), "1.5 KB");
        assert_eq!(Bytes(1_024).to_string(), "1 KB");
        assert_eq!(Bytes(10_240 + 600).to_string(), "11 KB");
        assert_eq!(Bytes(0).to_string(), "0 KB");
        assert_eq!(Bytes(u64::MAX).to_string(), "16777216 TB");
    }

    #[test]
    fn the_load_counts_distinct_times_per_key_in_a_window() {
        // Key 0 at 0, 0, 5, 10, 20; key 1 at 1, 2, 3 (window 10: (t − 10, t]).
        let mut s = Stream::new();
        s.keys.push("b".into());
        for (t, k) in [
            (0, 0),
            (0, 0),
            (1, 1),
            (2, 1),
            (3, 1),
            (5, 0),
            (10, 0),
            (20, 0),
        ] {
            s.requests.push(Request::keyed(t, k));
        }
        let l = load(&s, 10, Some(2));
        assert_eq!((l.keys[0].distinct, l.keys[0].requests), (2, 3));
        assert_eq!((l.keys[1].distinct, l.keys[1].requests), (3, 3));
        // Shown by a log capped at 2: 1, 1, 1, 2, 2, 2, 2, 2.
        assert_eq!(l.shown, 13);
    }

    #[test]
    fn a_bigger_stream_never_costs_less() {
        let lanes = vec![crate::LaneSpec::simple(
            Algorithm::SlidingLog,
            1_000,
            60_000,
        )];
        let cost = |n: u64| {
            let c = Config::new(Stream::from_times(0..n), lanes.clone(), None);
            (
                run_cost(&c),
                timeline_cost(&c, &TimelineLimits::DEFAULT),
                trace_cost(&c),
            )
        };
        let (a, b) = (cost(1_000), cost(50_000));
        assert!(a.0.bytes < b.0.bytes && a.1.bytes < b.1.bytes && a.2.steps < b.2.steps);
        assert_eq!(b.1.largest_state, Some((0, 1_000)));
    }
}

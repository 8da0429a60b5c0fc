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
//!
//! Inside: `types.rs` (limits, outcomes, errors), `record.rs` (making a timeline and
//! pushing requests, compaction), `look.rs` (looking at any retained moment).

mod look;
mod record;
mod types;

use std::collections::{BTreeMap, VecDeque};

use ratelab_core::{AnyLimiter, Keyed};

use crate::lane::LaneSpec;
use crate::stream::Request;
use crate::yardstick::{Meter, Prefix};

pub use types::{BusiestWindow, Outcome, TimelineError, TimelineLimits, MAX_CHECKPOINTS};

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

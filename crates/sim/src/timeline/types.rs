//! The timeline's plain types: its limits, a request's outcome, its errors, the busiest window.

use std::fmt;
use std::ops::Range;

use ratelab_core::{CheckError, Ms};

use crate::error::SimError;

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

    pub(super) fn validate(&self) -> Result<(), SimError> {
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
        /// Its first request in the stream being added ([`Timeline::extend`](super::Timeline::extend)).
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

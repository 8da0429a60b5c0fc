//! The state to draw, projected to a moment without changing the limiter.

use alloc::vec::Vec;

use crate::exact::{Amount, Ms};

/// What a limiter holds at a given moment, in the terms its algorithm uses.
///
/// Taken with [`crate::Limiter::snapshot`]`(now)`: lazy updates (refills, expiries,
/// window changes) are applied to the copy as of `now`, so the picture moves with the
/// clock between requests. Times are absolute (on the stream's clock).
#[derive(Clone, Debug, PartialEq)]
pub enum Snapshot {
    /// Clock-aligned fixed window.
    FixedWindow {
        /// The window `[start, end)` containing `now`.
        start: Ms,
        /// Its end: the count resets here.
        end: Ms,
        /// Requests counted in it.
        count: u64,
        /// N.
        limit: u64,
    },
    /// Fixed window anchored at the first request.
    AnchoredWindow {
        /// The open window `[start, end)`, if one is open at `now`.
        window: Option<(Ms, Ms)>,
        /// Requests counted in it.
        count: u64,
        /// N.
        limit: u64,
    },
    /// Sliding log.
    SlidingLog {
        /// Entries inside `(now - W, now]`, oldest first.
        entries: Vec<LogEntry>,
        /// W.
        window: Ms,
        /// N.
        limit: u64,
    },
    /// Sliding window counter.
    SlidingWindowCounter {
        /// Start of the current clock-aligned window.
        start: Ms,
        /// W.
        window: Ms,
        /// Count of the previous window.
        prev: u64,
        /// Count of the current window.
        curr: u64,
        /// `prev · (1 − elapsed) + curr`, exactly.
        estimate: Amount,
        /// N.
        limit: u64,
    },
    /// Token bucket (exact).
    TokenBucket {
        /// Tokens now (refilled to `now`).
        tokens: Amount,
        /// b.
        capacity: u64,
        /// Time to earn one token (1 / r).
        per_token: Ms,
    },
    /// Leaky bucket as a queue.
    LeakyQueue {
        /// Slots still waiting at `now` (a request of cost c takes c slots).
        waiting: u64,
        /// Departure times of the first (at most 256) waiting slots, soonest first.
        departures: Vec<Ms>,
        /// When the next accepted request could leave (`next_out`).
        next_out: Ms,
        /// Time between departures.
        gap: Ms,
        /// How many may wait.
        capacity: u64,
    },
    /// GCRA.
    Gcra {
        /// Theoretical arrival time.
        tat: Ms,
        /// Emission interval T.
        emission: Ms,
        /// Tolerance τ = T · (burst − 1): a request passes if `TAT − now ≤ τ`.
        tau: Ms,
        /// The equivalent token count `min(b, (now + τ + T − TAT) / T)`.
        tokens: Amount,
        /// burst.
        burst: u64,
    },
    /// nginx `limit_req`.
    Nginx {
        /// The excess (in requests) the next request would start from: the stored
        /// excess drained to `now`.
        excess: Amount,
        /// Extra requests admitted at once (the `burst` parameter).
        burst: u64,
        /// Excess above which requests are delayed (`None` = `nodelay`).
        delay: Option<u64>,
        /// Whether the key has been seen.
        seen: bool,
    },
    /// The teaching float token bucket.
    FloatTokenBucket {
        /// Tokens as the float snippet computes them.
        tokens: f64,
        /// b.
        capacity: u64,
    },
}

/// Requests logged by a sliding log at one time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// When.
    pub at: Ms,
    /// How many (a request of cost c counts c times; equal times share an entry).
    pub count: u32,
    /// Whether they were allowed (only the teaching variant logs denied requests).
    pub allowed: bool,
}

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
        /// Entries inside `(now - W, now]`, oldest first, with whether each was
        /// allowed (only the teaching variant logs denied requests).
        entries: Vec<(Ms, bool)>,
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
        /// Departure times of the slots still waiting at `now` (each slot is one
        /// request of cost 1), soonest first.
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

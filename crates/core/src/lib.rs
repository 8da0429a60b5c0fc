//! Exact, explainable rate limiters.
//!
//! "100 requests per minute" means at least four different things. This crate
//! implements eight of them exactly (integer time, no floats in any decision), each
//! able to say why it decided what it did:
//!
//! ```
//! use ratelab_core::{Algorithm, AnyLimiter, Limiter, Params};
//!
//! // 5 requests per 10 s, the golden stream of the spec.
//! let mut fixed = AnyLimiter::new(Algorithm::FixedWindow, &Params::new(5, 10_000))?;
//! let mut log = AnyLimiter::new(Algorithm::SlidingLog, &Params::new(5, 10_000))?;
//! let stream = [2000, 7000, 8000, 9000, 9500, 9800, 10_100, 10_400, 10_700, 11_200, 15_000, 19_500];
//! let mut passed = (0, 0);
//! for t in stream {
//!     passed.0 += fixed.check(t, 1)?.allowed() as u32;
//!     passed.1 += log.check(t, 1)?.allowed() as u32;
//! }
//! assert_eq!(passed, (10, 7)); // the fixed window let 9 through within 10 s
//!
//! // Why? Ask what the next request would meet, as a trace-table row:
//! let row = fixed.explain(19_600, 1)?;
//! assert_eq!(row.to_string(), "19.6 s: count 5 ≥ 5 → deny");
//!
//! // And what a server would answer, with the IETF draft headers:
//! let h = fixed.headers(19_600)?;
//! assert_eq!((h.status, h.retry_after), (429, Some(1)));
//! assert_eq!(h.policy, "\"default\";q=5;w=10");
//! assert_eq!(h.ratelimit, "\"default\";r=0;t=1");
//! // The sliding log only holds 15.0 s and 19.5 s by then: it says yes.
//! assert_eq!(log.headers(19_600)?.status, 200);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! | limiter | promise | state per key |
//! |---|---|---|
//! | [`FixedWindow`] | ≤ N per aligned window; up to 2N in any W | 2 |
//! | [`AnchoredWindow`] | ≤ N per window opened by the first request | 2 |
//! | [`SlidingLog`] | never more than N in any window `(t − W, t]` | ≤ N |
//! | [`SlidingWindowCounter`] | about N per W (an estimate) | 3 |
//! | [`TokenBucket`] | ≤ b + r·T in any interval T | 2 |
//! | [`LeakyQueue`] | departures ≥ 1/r apart, ≤ capacity waiting | 1 |
//! | [`Gcra`] | same decisions as the token bucket | 1 |
//! | [`Nginx`] | nginx `limit_req`, its own integer arithmetic | 2 |
//!
//! Every limiter implements [`Limiter`]: `check` (decide and record), `peek`
//! (decide without recording), `explain` (the trace row), `snapshot` (the state to
//! draw), and the 429 headers via [`Decision::headers`]. A [`Decision`] is lazy:
//! `check` settles the verdict and keeps a few raw numbers, and the retry-after,
//! reset and remaining count are computed when asked for. Bad parameters are a
//! [`ParamError`] naming the field; time going backwards is a [`CheckError`]. Nothing
//! panics on any input.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(test)]
extern crate std;

mod anchored_window;
mod any;
mod decision;
mod error;
mod exact;
mod explain;
mod fixed_window;
mod float_bucket;
mod gcra;
mod keyed;
mod leaky_queue;
mod limiter;
mod log_entries;
mod nginx;
mod params;
mod sliding_log;
mod sliding_window_counter;
mod snapshot;
mod token_bucket;

pub use anchored_window::AnchoredWindow;
pub use any::{Algorithm, AnyLimiter, Params};
pub use decision::{Decision, Dialect, Headers, Policy, BODY_CONTENT_TYPE};
pub use error::{CheckError, ParamError};
pub use exact::{Amount, Frac, Ms};
pub use explain::{Comparison, Explanation, Field, Op, Step, Value, Verdict};
pub use fixed_window::FixedWindow;
pub use float_bucket::FloatTokenBucket;
pub use gcra::Gcra;
pub use keyed::Keyed;
pub use leaky_queue::LeakyQueue;
pub use limiter::Limiter;
pub use nginx::Nginx;
pub use params::{count as validate_count, Rate, MAX_COUNT, MAX_PERIOD_MS, MAX_SCALED};
pub use sliding_log::SlidingLog;
pub use sliding_window_counter::SlidingWindowCounter;
pub use snapshot::{LogEntry, Snapshot};
pub use token_bucket::TokenBucket;

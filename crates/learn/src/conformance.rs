//! Does a client that obeys `Retry-After` get through? The 429 conformance view.
//!
//! On a refusal the engine knows the exact moment the same request would pass
//! ([`ratelab_core::Decision::retry_after`], a fraction of a millisecond when the
//! rate does not divide evenly). `Retry-After` carries it in whole seconds, rounded
//! up. This module retries the same request, on a copy of the limiter, after each
//! way a server might have rounded that moment: up to the second (what ratelab
//! sends), up to the millisecond, truncated to the millisecond, and rounded down to
//! the second. Rounding up always gets through (SPEC: a client that honours
//! `Retry-After` never gets a second 429 for the same request); rounding down
//! bounces whenever the moment was not already whole.
//!
//! ```
//! use ratelab_core::{Algorithm, AnyLimiter, Limiter, Params};
//! use ratelab_learn::conformance::{retries, Rounding};
//!
//! // The golden stream's token bucket at 10.4 s: 0.7 tokens, one more in 0.6 s.
//! let mut tb = AnyLimiter::new(Algorithm::TokenBucket, &Params::new(5, 10_000))?;
//! for t in [2000, 7000, 8000, 9000, 9500, 9800, 10_100] {
//!     tb.check(t, 1)?;
//! }
//! let c = retries(&tb, 10_400, 1)?.expect("refused");
//! assert_eq!(c.retry_after_s, 1);
//! let floored = c.tries.iter().find(|t| t.rounding == Rounding::DownToSecond).unwrap();
//! assert_eq!((floored.wait_ms, floored.allowed), (0, false)); // a second 429
//! assert!(c.tries.iter().filter(|t| t.rounding.is_up()).all(|t| t.allowed));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use ratelab_core::{CheckError, Limiter, Ms};
use serde::Serialize;

/// How a server turned the exact moment into a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    /// Whole seconds, rounded up, at least 1: `Retry-After` as ratelab sends it.
    UpToSecond,
    /// Whole milliseconds, rounded up.
    UpToMs,
    /// Whole milliseconds, rounded down (a truncating cast).
    DownToMs,
    /// Whole seconds, rounded down (`Math.floor`, an integer division).
    DownToSecond,
}

impl Rounding {
    /// Every rounding, the one ratelab uses first.
    pub const ALL: [Rounding; 4] = [
        Rounding::UpToSecond,
        Rounding::UpToMs,
        Rounding::DownToMs,
        Rounding::DownToSecond,
    ];

    /// Whether it rounds up (and so must always get through).
    pub fn is_up(self) -> bool {
        matches!(self, Rounding::UpToSecond | Rounding::UpToMs)
    }

    /// The wait it gives for an exact wait of `exact`.
    pub fn wait_ms(self, exact: Ms) -> u64 {
        match self {
            Rounding::UpToSecond => exact.ceil_secs().max(1).saturating_mul(1000),
            Rounding::UpToMs => exact.ceil_ms(),
            Rounding::DownToMs => exact.floor_ms(),
            Rounding::DownToSecond => (exact.floor_ms() / 1000).saturating_mul(1000),
        }
    }
}

/// One client's retry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Try {
    /// How the wait was rounded.
    pub rounding: Rounding,
    /// How long the client waited, in ms.
    pub wait_ms: u64,
    /// Whether the retry passed.
    pub allowed: bool,
}

/// A refused request and what each rounding of its wait leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Retries {
    /// When the request was refused, in ms.
    pub at: u64,
    /// The exact wait until the same request passes.
    #[serde(skip)]
    pub exact: Ms,
    /// The exact wait as text (`0.6 s`, `≈3.333 s`).
    pub exact_text: String,
    /// `Retry-After`, in seconds.
    pub retry_after_s: u64,
    /// Each rounding's retry, in [`Rounding::ALL`]'s order.
    pub tries: Vec<Try>,
}

/// If a request of `cost` at `now` would be refused by `limiter`, the retries after
/// each rounding of its wait (each on its own copy of the limiter, nothing else
/// arriving); `None` if it would pass.
pub fn retries<L: Limiter + Clone>(
    limiter: &L,
    now: u64,
    cost: u32,
) -> Result<Option<Retries>, CheckError> {
    let d = limiter.peek(now, cost)?;
    if d.allowed() {
        return Ok(None);
    }
    let exact = d.retry_after();
    let mut tries = Vec::with_capacity(Rounding::ALL.len());
    for rounding in Rounding::ALL {
        let wait_ms = rounding.wait_ms(exact);
        let allowed = limiter.peek(now.saturating_add(wait_ms), cost)?.allowed();
        tries.push(Try {
            rounding,
            wait_ms,
            allowed,
        });
    }
    Ok(Some(Retries {
        at: now,
        exact,
        exact_text: exact.to_string(),
        retry_after_s: exact.ceil_secs().max(1),
        tries,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratelab_core::{Algorithm, AnyLimiter, Params};

    #[test]
    fn rounding_up_always_gets_through_on_the_golden_stream() {
        let stream = ratelab_sim::scenario::GOLDEN_TIMES;
        for a in Algorithm::ALL {
            let mut l = AnyLimiter::new(a, &Params::new(5, 10_000)).unwrap();
            for &t in &stream {
                if let Some(r) = retries(&l, t, 1).unwrap() {
                    for t in &r.tries {
                        if t.rounding.is_up() {
                            assert!(t.allowed, "{}: {r:?}", a.id());
                        }
                    }
                }
                l.check(t, 1).unwrap();
            }
        }
    }

    #[test]
    fn rounding_down_bounces_when_the_moment_is_not_whole() {
        // 3 per 10 s: one every 3333⅓ ms. After three at 0, the next frees at
        // 3333⅓ ms: truncating to 3333 ms is a third of a millisecond early.
        let mut g = AnyLimiter::new(Algorithm::Gcra, &Params::new(3, 10_000)).unwrap();
        for _ in 0..3 {
            g.check(0, 1).unwrap();
        }
        let r = retries(&g, 0, 1).unwrap().unwrap();
        assert_eq!(r.exact_text, "≈3.333 s");
        let by = |k| r.tries.iter().find(|t| t.rounding == k).copied().unwrap();
        assert_eq!(
            by(Rounding::UpToSecond),
            Try {
                rounding: Rounding::UpToSecond,
                wait_ms: 4000,
                allowed: true
            }
        );
        assert_eq!(
            by(Rounding::UpToMs),
            Try {
                rounding: Rounding::UpToMs,
                wait_ms: 3334,
                allowed: true
            }
        );
        assert_eq!(
            by(Rounding::DownToMs),
            Try {
                rounding: Rounding::DownToMs,
                wait_ms: 3333,
                allowed: false
            }
        );
        assert_eq!(
            by(Rounding::DownToSecond),
            Try {
                rounding: Rounding::DownToSecond,
                wait_ms: 3000,
                allowed: false
            }
        );
    }
}

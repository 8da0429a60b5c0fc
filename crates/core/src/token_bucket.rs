//! Token bucket, exact: capacity b, refill r = limit / period tokens per ms, full at
//! time 0, refilled lazily on each request.
//!
//! Tokens are kept in units of `1 / period` token, so `r · Δt` is the integer
//! `limit · Δt` and nothing is ever rounded: a request that finds exactly one token
//! passes (the float snippet it is often copied as does not, see
//! [`crate::FloatTokenBucket`]).
//!
//! Promise: never more than `b + r·T` allowed in any interval of length T. Same
//! decisions as GCRA with `burst = b` on every stream. Two numbers of state per key.

use alloc::format;
use alloc::vec;

use crate::decision::{Decision, Lazy, Raw as AnyRaw};
use crate::error::ParamError;
use crate::exact::{Amount, Ms};
use crate::explain::{Comparison, Explanation, Field, Op, Step, Value, Verdict};
use crate::limiter::Rule;
use crate::params::{scaled_count, Rate};
use crate::snapshot::Snapshot;

/// Exact token bucket. State: tokens (scaled) and the time of the last refill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenBucket {
    rate: Rate,
    capacity: u64,
    /// Tokens × period (at most `capacity · period < 2^63`).
    tokens: u64,
    last: u64,
}

impl TokenBucket {
    /// Capacity `burst`, refilling `rate.limit()` tokens per `rate.period_ms()`.
    pub fn new(rate: Rate, burst: u64) -> Result<TokenBucket, ParamError> {
        let capacity = scaled_count("burst", burst, rate.period_ms())?;
        Ok(TokenBucket {
            rate,
            capacity,
            tokens: capacity * rate.period_ms(),
            last: 0,
        })
    }

    #[inline]
    fn full(&self) -> u64 {
        self.capacity * self.rate.period_ms()
    }

    #[inline]
    fn refilled(&self, now: u64) -> u64 {
        // Saturating is exact here: the result is capped at `full` < u64::MAX.
        let earned = (now - self.last).saturating_mul(self.rate.limit());
        self.full().min(self.tokens.saturating_add(earned))
    }

    fn amount(&self, scaled: u64) -> Amount {
        Amount::new(scaled as u128, self.rate.period_ms())
    }
}

/// What a bucket's decision keeps: shared by the token bucket and GCRA, whose token
/// counts are the same numbers. Tokens are in units of `1 / period` token, and a
/// token arrives every `period / limit` ms, so `x` such units take `x / limit` ms.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Raw {
    /// Tokens after the request (× period).
    pub tokens: u64,
    /// For a denial: the tokens missing (× period).
    pub missing: u64,
    pub capacity: u64,
    pub rate: Rate,
}

impl Lazy for Raw {
    #[inline]
    fn retry_after(&self) -> Ms {
        Ms::scaled(self.missing as u128, self.rate.limit())
    }

    /// The next whole token arrives when `tokens` reaches the next multiple of
    /// period.
    #[inline]
    fn reset(&self) -> Ms {
        let period = self.rate.period_ms();
        if self.tokens >= self.capacity * period {
            Ms::ZERO
        } else {
            Ms::scaled((period - self.tokens % period) as u128, self.rate.limit())
        }
    }

    #[inline]
    fn remaining(&self) -> u64 {
        self.tokens / self.rate.period_ms()
    }
}

/// The decision of a bucket holding `tokens` (× period) after the request, `missing`
/// short of it if denied.
#[inline]
pub(crate) fn status(
    tokens: u64,
    missing: u64,
    capacity: u64,
    rate: Rate,
    allowed: bool,
) -> Decision {
    let raw = Raw {
        tokens,
        missing,
        capacity,
        rate,
    };
    Decision::new(allowed, AnyRaw::Bucket(raw))
}

impl Rule for TokenBucket {
    /// Tokens (scaled) after the request.
    type Next = u64;

    fn rate(&self) -> Rate {
        self.rate
    }

    fn last(&self) -> u64 {
        self.last
    }

    fn capacity(&self) -> u64 {
        self.capacity
    }

    #[inline]
    fn decide(&self, now: u64, cost: u32) -> (u64, Decision) {
        let have = self.refilled(now);
        let need = cost as u64 * self.rate.period_ms();
        let allowed = have >= need;
        let after = if allowed { have - need } else { have };
        (
            after,
            status(
                after,
                need.saturating_sub(have),
                self.capacity,
                self.rate,
                allowed,
            ),
        )
    }

    fn commit(&mut self, tokens: u64, now: u64) {
        self.tokens = tokens;
        self.last = now;
    }

    fn trace(&self, now: u64, cost: u32) -> Explanation {
        let (after, d) = self.decide(now, cost);
        let have = self.refilled(now);
        let state = |tokens: u64, last: u64| {
            vec![
                Field::new("tokens", Value::Amount(self.amount(tokens))),
                Field::new("last", Value::Time(Ms::from_ms(last))),
            ]
        };
        let steps = if now == self.last {
            vec![]
        } else {
            vec![Step {
                when: None,
                set: "tokens",
                formula: Some(format!(
                    "min({}, {} + {} · {}/{})",
                    self.capacity,
                    self.amount(self.tokens),
                    Ms::from_ms(now - self.last),
                    self.rate.limit(),
                    Ms::from_ms(self.rate.period_ms())
                )),
                to: Value::Amount(self.amount(have)),
            }]
        };
        Explanation {
            at: Ms::from_ms(now),
            cost,
            before: state(self.tokens, self.last),
            steps,
            test: Comparison {
                label: "tokens",
                lhs: Value::Amount(self.amount(have)),
                op: Op::Ge,
                rhs: Value::Count(cost as u64),
                holds: d.allowed(),
            },
            verdict: Verdict::of(&d),
            after: state(after, now),
        }
    }

    fn state_at(&self, now: u64) -> Snapshot {
        Snapshot::TokenBucket {
            tokens: self.amount(self.refilled(now)),
            capacity: self.capacity,
            per_token: Ms::scaled(self.rate.period_ms() as u128, self.rate.limit()),
        }
    }

    fn rests(&self, now: u64) -> bool {
        self.refilled(now) == self.full()
    }

    fn numbers(&self) -> usize {
        2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limiter;
    use alloc::string::ToString;

    #[test]
    fn exactly_one_token_passes() {
        // 0.5 tokens per second, capacity 5: the golden parameters.
        let mut b = TokenBucket::new(Rate::new(5, 10_000).unwrap(), 5).unwrap();
        for t in [2000, 7000, 8000, 9000, 9500, 9800, 10_100] {
            assert!(b.check(t, 1).unwrap().allowed());
        }
        // 10.4 s: 0.7 tokens; 10.7 s: 0.85; 11.0 s: exactly 1.
        assert!(!b.check(10_400, 1).unwrap().allowed());
        assert!(!b.check(10_700, 1).unwrap().allowed());
        let e = b.explain(11_000, 1).unwrap();
        assert_eq!(
            e.to_string(),
            "11 s: tokens := min(5, 0.85 + 0.3 s · 5/10 s) = 1; tokens 1 ≥ 1 → allow"
        );
        assert!(b.check(11_000, 1).unwrap().allowed());
    }

    #[test]
    fn retry_after_and_reset_are_exact() {
        // 3 per 10 s: one token every 3333⅓ ms.
        let mut b = TokenBucket::new(Rate::new(3, 10_000).unwrap(), 1).unwrap();
        assert!(b.check(0, 1).unwrap().allowed());
        let d = b.check(1000, 1).unwrap();
        assert!(!d.allowed());
        assert_eq!(d.retry_after(), Ms::scaled(7000, 3));
        assert_eq!(d.retry_after().ceil_ms(), 2334);
        assert_eq!(d.reset(), d.retry_after());
        assert!(!b.peek(1000 + 2333, 1).unwrap().allowed());
        assert!(b.peek(1000 + 2334, 1).unwrap().allowed());
    }
}

//! A token bucket written the way common snippets write it, with `f64` tokens.
//! **Wrong on purpose**, for teaching: it exists to show where IEEE 754 bites.
//!
//! On the golden stream plus a request at 11.0 s, the exact bucket holds exactly one
//! token (0.85 + 0.15) and allows it; this one computes `0.9999999999999999` and
//! denies it. Never use it for a real decision.

use alloc::format;
use alloc::vec;

use crate::decision::{Decision, Lazy, Raw as AnyRaw};
use crate::error::ParamError;
use crate::exact::Ms;
use crate::explain::{Comparison, Explanation, Field, Op, Step, Value, Verdict};
use crate::limiter::Rule;
use crate::params::{count, Rate};
use crate::snapshot::Snapshot;

/// What a decision keeps, as the snippet's floats.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Raw {
    /// Tokens before the request (refilled).
    have: f64,
    /// Tokens after it.
    after: f64,
    cost: u32,
    per_second: f64,
    capacity: u64,
}

/// Seconds as whole ms, rounded up. Floats are this variant's point; the conversion
/// saturates, never panics (`f64::ceil` needs std; casts saturate and map NaN to 0).
fn ms(secs: f64) -> Ms {
    let x = (secs * 1000.0).max(0.0);
    let whole = x as u64;
    Ms::from_ms(whole.saturating_add(((whole as f64) < x) as u64))
}

impl Lazy for Raw {
    #[inline]
    fn retry_after(&self) -> Ms {
        ms((self.cost as f64 - self.have) / self.per_second)
    }

    #[inline]
    fn reset(&self) -> Ms {
        if self.after >= self.capacity as f64 {
            Ms::ZERO
        } else {
            ms((1.0 - (self.after - self.after as u64 as f64)) / self.per_second)
        }
    }

    #[inline]
    fn remaining(&self) -> u64 {
        self.after.max(0.0) as u64
    }
}

/// The float token bucket of common snippets (teaching variant, wrong on purpose).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatTokenBucket {
    rate: Rate,
    capacity: u64,
    /// Tokens per second, as the snippets keep it.
    per_second: f64,
    tokens: f64,
    last: u64,
}

impl FloatTokenBucket {
    /// Same parameters as [`crate::TokenBucket::new`].
    pub fn new(rate: Rate, burst: u64) -> Result<FloatTokenBucket, ParamError> {
        let capacity = count("burst", burst)? as u64;
        Ok(FloatTokenBucket {
            rate,
            capacity,
            per_second: rate.limit() as f64 * 1000.0 / rate.period_ms() as f64,
            tokens: capacity as f64,
            last: 0,
        })
    }

    fn refilled(&self, now: u64) -> f64 {
        let elapsed = (now - self.last) as f64 / 1000.0;
        (self.tokens + elapsed * self.per_second).min(self.capacity as f64)
    }
}

impl Rule for FloatTokenBucket {
    /// Tokens after the request.
    type Next = f64;

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
    fn decide(&self, now: u64, cost: u32) -> (f64, Decision) {
        let have = self.refilled(now);
        let allowed = have >= cost as f64;
        let after = if allowed { have - cost as f64 } else { have };
        let raw = Raw {
            have,
            after,
            cost,
            per_second: self.per_second,
            capacity: self.capacity,
        };
        (after, Decision::new(allowed, AnyRaw::Float(raw)))
    }

    fn commit(&mut self, tokens: f64, now: u64) {
        self.tokens = tokens;
        self.last = now;
    }

    fn trace(&self, now: u64, cost: u32) -> Explanation {
        let (after, d) = self.decide(now, cost);
        let have = self.refilled(now);
        let state = |tokens: f64, last: u64| {
            vec![
                Field::new("tokens", Value::Float(tokens)),
                Field::new("last", Value::Time(Ms::from_ms(last))),
            ]
        };
        Explanation {
            at: Ms::from_ms(now),
            cost,
            before: state(self.tokens, self.last),
            steps: vec![Step {
                when: None,
                set: "tokens",
                formula: Some(format!(
                    "min({:?}, {:?} + {:?} · {:?})",
                    self.capacity as f64,
                    self.tokens,
                    (now - self.last) as f64 / 1000.0,
                    self.per_second
                )),
                to: Value::Float(have),
            }],
            test: Comparison {
                label: "tokens",
                lhs: Value::Float(have),
                op: Op::Ge,
                rhs: Value::Float(cost as f64),
                holds: d.allowed(),
            },
            verdict: Verdict::of(&d),
            after: state(after, now),
        }
    }

    fn state_at(&self, now: u64) -> Snapshot {
        Snapshot::FloatTokenBucket {
            tokens: self.refilled(now),
            capacity: self.capacity,
        }
    }

    fn rests(&self, now: u64) -> bool {
        self.refilled(now) >= self.capacity as f64
    }

    fn numbers(&self) -> usize {
        2
    }
}

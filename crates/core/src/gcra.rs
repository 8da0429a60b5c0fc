//! GCRA, the generic cell rate algorithm (leaky bucket as a meter): one number of
//! state, the theoretical arrival time TAT.
//!
//! `T = period / limit`, `τ = T · (burst − 1)`, TAT starts at 0. On a request at t:
//! `t' = max(TAT, t)`; deny if `t' − t > τ`; else `TAT = t' + T`.
//!
//! Time is kept in units of `1 / limit` ms, so T is the integer `period` and every
//! comparison is exact. Same decisions as the exact token bucket with `b = burst`,
//! `r = limit / period` on every stream: the bucket's tokens are
//! `min(b, (t + τ + T − TAT) / T)`, and both are the same integers here.

use alloc::format;
use alloc::vec;

use crate::decision::Decision;
use crate::error::ParamError;
use crate::exact::{Amount, Ms};
use crate::explain::{Comparison, Explanation, Field, Op, Step, Value, Verdict};
use crate::limiter::Rule;
use crate::params::{scaled_count, Rate};
use crate::snapshot::Snapshot;
use crate::token_bucket::status;

/// GCRA. State: TAT, kept as how far it runs ahead of the last request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gcra {
    rate: Rate,
    burst: u64,
    /// `max(0, TAT − last)` in units of 1/limit ms: at most `burst · period < 2^63`,
    /// so a decision needs no 128-bit arithmetic (`TAT` itself can be far larger).
    ahead: u64,
    last: u64,
}

impl Gcra {
    /// `rate.limit()` per `rate.period_ms()`, with up to `burst` at once.
    pub fn new(rate: Rate, burst: u64) -> Result<Gcra, ParamError> {
        Ok(Gcra {
            rate,
            burst: scaled_count("burst", burst, rate.period_ms())?,
            ahead: 0,
            last: 0,
        })
    }

    /// `b · T` in scaled units: `τ + T`.
    #[inline]
    fn horizon(&self) -> u64 {
        self.burst * self.rate.period_ms()
    }

    /// T in scaled units: the period.
    #[inline]
    fn emission(&self) -> u64 {
        self.rate.period_ms()
    }

    fn ms(&self, scaled: u128) -> Ms {
        Ms::scaled(scaled, self.rate.limit())
    }

    /// Scaled time of the last request.
    fn last_scaled(&self) -> u128 {
        self.last as u128 * self.rate.limit() as u128
    }

    /// `max(TAT, t) − t` at `now`: how far TAT runs ahead of `now`.
    #[inline]
    fn lead(&self, now: u64) -> u64 {
        self.ahead
            .saturating_sub((now - self.last).saturating_mul(self.rate.limit()))
    }
}

impl Rule for Gcra {
    /// The new lead of TAT over `now`.
    type Next = u64;

    fn rate(&self) -> Rate {
        self.rate
    }

    fn last(&self) -> u64 {
        self.last
    }

    fn capacity(&self) -> u64 {
        self.burst
    }

    #[inline]
    fn decide(&self, now: u64, cost: u32) -> (u64, Decision) {
        let lead = self.lead(now);
        let inc = cost as u64 * self.emission();
        // For cost 1 this is `t' − t ≤ τ`. lead, inc ≤ horizon < 2^63: no overflow.
        let allowed = lead + inc <= self.horizon();
        let ahead = if allowed { lead + inc } else { lead };
        // The bucket's tokens are `horizon − ahead`; a denial misses `lead + inc −
        // horizon` of them (the time until TAT − τ − T reaches now).
        (
            ahead,
            status(
                self.horizon() - ahead,
                (lead + inc).saturating_sub(self.horizon()),
                self.burst,
                self.rate,
                allowed,
            ),
        )
    }

    fn commit(&mut self, ahead: u64, now: u64) {
        self.ahead = ahead;
        self.last = now;
    }

    fn trace(&self, now: u64, cost: u32) -> Explanation {
        let (ahead, d) = self.decide(now, cost);
        let t = now as u128 * self.rate.limit() as u128;
        let tat = self.last_scaled() + self.ahead as u128;
        let lead = self.lead(now) as u128;
        let tau = (self.horizon() - self.emission()) as u128;
        let test = if cost == 1 {
            Comparison {
                label: "t' − t",
                lhs: Value::Duration(self.ms(lead)),
                op: Op::Le,
                rhs: Value::Duration(self.ms(tau)),
                holds: d.allowed(),
            }
        } else {
            Comparison {
                label: "t' − t + (cost − 1)·T",
                lhs: Value::Duration(self.ms(lead + (cost as u128 - 1) * self.emission() as u128)),
                op: Op::Le,
                rhs: Value::Duration(self.ms(tau)),
                holds: d.allowed(),
            }
        };
        Explanation {
            at: Ms::from_ms(now),
            cost,
            before: vec![Field::new("TAT", Value::Time(self.ms(tat)))],
            steps: vec![Step {
                when: None,
                set: "t'",
                formula: Some(format!("max({}, {})", self.ms(tat), Ms::from_ms(now))),
                to: Value::Time(self.ms(t + lead)),
            }],
            test,
            verdict: Verdict::of(&d),
            after: vec![Field::new(
                "TAT",
                Value::Time(self.ms(if d.allowed() { t + ahead as u128 } else { tat })),
            )],
        }
    }

    fn state_at(&self, now: u64) -> Snapshot {
        let emission = self.emission();
        Snapshot::Gcra {
            tat: self.ms(self.last_scaled() + self.ahead as u128),
            emission: self.ms(emission as u128),
            tau: self.ms((self.horizon() - emission) as u128),
            tokens: Amount::new((self.horizon() - self.lead(now)) as u128, emission),
            burst: self.burst,
        }
    }

    fn rests(&self, now: u64) -> bool {
        self.lead(now) == 0
    }

    fn numbers(&self) -> usize {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limiter;
    use alloc::string::ToString;

    #[test]
    fn tat_runs_ahead_of_the_clock() {
        let mut g = Gcra::new(Rate::new(5, 10_000).unwrap(), 5).unwrap();
        for t in [2000, 7000, 8000, 9000, 9500, 9800, 10_100] {
            assert!(g.check(t, 1).unwrap().allowed());
        }
        let e = g.explain(10_400, 1).unwrap();
        assert_eq!(
            e.to_string(),
            "10.4 s: t' := max(19 s, 10.4 s) = 19 s; t' − t 8.6 s > 8 s → deny"
        );
        let d = g.check(10_400, 1).unwrap();
        // (TAT − t) − τ = 8.6 − 8 = 0.6 s: the time until 0.7 tokens become 1.
        assert_eq!(d.retry_after(), Ms::from_ms(600));
    }
}

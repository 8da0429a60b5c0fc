//! nginx `limit_req`, with nginx's own integer arithmetic.
//!
//! State per key: `excess` in 1/1000 request and `last` in ms. The first request
//! passes with excess 0. Later ones: `excess = max(0, excess − rate·Δms/1000 + 1000)`
//! where `rate` is in 1/1000 request per second; if `excess > burst·1000` the request
//! is rejected and nothing changes; else the excess is stored and the request is
//! delayed `(excess − delay·1000) · 1000 / rate` ms when `excess > delay·1000`
//! (nginx computes the delay in that order). `nodelay` is a delay of infinity.
//!
//! nginx's `burst=5` admits 6 requests at once: the burst counts the requests on top
//! of the first. The millirequest rate is `limit · 1 000 000 / period_ms` rounded
//! down, as nginx rounds `100r/m` to 1666 millirequests per second; when the rate is
//! a whole number of requests per second nothing is rounded, and then `nodelay`
//! decides exactly as GCRA with `burst + 1`.

use alloc::format;
use alloc::vec;

use crate::decision::{Decision, Lazy, Raw as AnyRaw};
use crate::error::ParamError;
use crate::exact::{Amount, Divisor, Ms};
use crate::explain::{Comparison, Explanation, Field, Op, Step, Value, Verdict};
use crate::limiter::Rule;
use crate::params::{Rate, MAX_COUNT};
use crate::snapshot::Snapshot;

/// `delay` for `nodelay`: above any excess.
const NODELAY: u64 = u64::MAX;

/// nginx `limit_req` for one key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nginx {
    rate: Rate,
    /// Millirequests per second (nginx's `ctx->rate`), as a divisor: waits and
    /// retries divide by it without a division instruction.
    per_milli: Divisor,
    /// `burst · 1000`.
    burst: u64,
    /// `delay · 1000`, or [`NODELAY`] (at most 2^42 otherwise).
    delay: u64,
    excess: u64,
    /// Time of the last accepted request; `None` before the first.
    last: Option<u64>,
    seen: u64,
    /// After this many ms, any excess a request can carry (at most
    /// `2 · burst + 1000`) has drained; a longer gap may count as this long. It keeps
    /// `rate · ms` within u64, so every step of a decision is u64 arithmetic.
    drain_all_ms: u64,
}

impl Nginx {
    /// `limit_req` with `rate = limit / period`, `burst` extra requests admitted at
    /// once, and requests delayed once the excess passes `delay` (`None` = `nodelay`).
    pub fn new(rate: Rate, burst: u64, delay: Option<u64>) -> Result<Nginx, ParamError> {
        let milli = rate.limit() as u128 * 1_000_000 / rate.period_ms() as u128;
        if milli == 0 {
            return Err(ParamError::Unrepresentable {
                field: "period_ms",
                reason: "nginx needs a rate of at least 0.001 requests per second (limit · 1000000 / period_ms ≥ 1)",
            });
        }
        let check = |field, v: u64| {
            if v > MAX_COUNT {
                Err(ParamError::TooLarge {
                    field,
                    value: v,
                    max: MAX_COUNT,
                })
            } else {
                Ok(v * 1000)
            }
        };
        // Bounds that keep every decision in u64: rate ≤ 2^32 · 10^6 < 2^52, burst
        // and delay ≤ 2^32 · 1000 < 2^42, so a cost (≤ burst + 1) adds < 2^42 too.
        let milli = milli as u64;
        let burst = check("burst", burst)?;
        Ok(Nginx {
            rate,
            per_milli: Divisor::new(milli),
            burst,
            delay: delay
                .map(|d| check("delay", d))
                .transpose()?
                .unwrap_or(NODELAY),
            excess: 0,
            last: None,
            seen: 0,
            // rate · drain_all_ms < (2 · burst + 1000) · 1000 + rate < 2^64.
            drain_all_ms: ((2 * burst + 1000) * 1000).div_ceil(milli),
        })
    }

    /// What nginx drains in `ms` milliseconds, rounded down as nginx does; exact up
    /// to `drain_all_ms`, and at least any excess beyond it.
    #[inline]
    fn drained(&self, ms: u64) -> u64 {
        self.per_milli.get() * ms.min(self.drain_all_ms) / 1000
    }

    /// The excess a request of `cost` arriving at `now` would carry.
    #[inline]
    fn excess_at(&self, now: u64, cost: u32) -> u64 {
        let added = cost as u64 * 1000;
        match self.last {
            None => added - 1000,
            Some(last) => (self.excess + added).saturating_sub(self.drained(now - last)),
        }
    }

    fn requests(milli: u64) -> Value {
        Value::Amount(Amount::new(milli as u128, 1000))
    }

    fn params(&self) -> Params {
        Params {
            per_milli: self.per_milli,
            burst: self.burst,
            delay: self.delay,
        }
    }
}

/// The parameters a decision's numbers need (in nginx's units).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Params {
    /// Division by the rate in millirequests per second. Every dividend below is
    /// under 2^54: an excess is at most `burst + 1000 ≤ 2^32 · 1000 + 1000`, a need
    /// at most twice that, and `1000 · need + rate < 2^54`.
    per_milli: Divisor,
    burst: u64,
    delay: u64,
}

/// What a decision keeps, in millirequests and ms.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Raw {
    /// The excess this request carried.
    excess: u64,
    /// The excess stored after it, as of the last accepted request.
    stored: u64,
    /// The excess a request of cost 1 right after it would carry.
    next: u64,
    /// ms since the last accepted request, after this decision (0 if it was
    /// accepted). A denial always has one before it: the first request passes.
    since: u64,
    cost: u32,
    nginx: Params,
}

impl Raw {
    /// ms until a request of `cost` would be admitted (0 if it is now): the
    /// smallest elapsed e with `rate · e / 1000 ≥ need`, i.e. `rate · e ≥ 1000 ·
    /// need`, minus the time already elapsed.
    fn until_admitted(&self, cost: u64) -> u64 {
        let need = (self.stored + cost * 1000).saturating_sub(self.nginx.burst);
        self.nginx
            .per_milli
            .div_ceil(need * 1000)
            .saturating_sub(self.since)
    }
}

impl Lazy for Raw {
    /// nginx's own delay, `(excess − delay) · 1000 / rate` ms, rounded down as it
    /// does.
    #[inline]
    fn wait(&self) -> Ms {
        // Never above NODELAY: every excess is at most 2^43.
        let d = self.nginx.delay;
        if self.excess > d {
            Ms::from_ms(self.nginx.per_milli.div((self.excess - d) * 1000))
        } else {
            Ms::ZERO
        }
    }

    #[inline]
    fn retry_after(&self) -> Ms {
        Ms::from_ms(self.until_admitted(self.cost as u64))
    }

    /// One more fits when the next request's excess drops by enough.
    #[inline]
    fn reset(&self) -> Ms {
        let remaining = self.remaining();
        if remaining > self.nginx.burst / 1000 {
            Ms::ZERO
        } else {
            Ms::from_ms(self.until_admitted(remaining + 1))
        }
    }

    /// Requests admitted at once right after: `next + k·1000 ≤ burst`.
    #[inline]
    fn remaining(&self) -> u64 {
        if self.next > self.nginx.burst {
            0
        } else {
            (self.nginx.burst - self.next) / 1000 + 1
        }
    }
}

impl Rule for Nginx {
    /// The excess to store, for an accepted request (a rejection changes nothing).
    type Next = Option<u64>;

    fn rate(&self) -> Rate {
        self.rate
    }

    /// The latest request seen, accepted or not.
    fn last(&self) -> u64 {
        self.seen
    }

    fn capacity(&self) -> u64 {
        self.burst / 1000 + 1
    }

    #[inline]
    fn decide(&self, now: u64, cost: u32) -> (Option<u64>, Decision) {
        let added = cost as u64 * 1000;
        // What has drained since the last accepted request (nothing before the first).
        let (drained, since) = match self.last {
            None => (0, 0),
            Some(last) => (self.drained(now - last), now - last),
        };
        let excess = match self.last {
            None => added - 1000,
            Some(_) => (self.excess + added).saturating_sub(drained),
        };
        let allowed = excess <= self.burst;
        // The state after (a rejection changes nothing), and the excess a request of
        // cost 1 right after this one would carry.
        let raw = if allowed {
            Raw {
                excess,
                stored: excess,
                next: excess + 1000,
                since: 0,
                cost,
                nginx: self.params(),
            }
        } else {
            Raw {
                excess,
                stored: self.excess,
                next: (self.excess + 1000).saturating_sub(drained),
                since,
                cost,
                nginx: self.params(),
            }
        };
        (
            allowed.then_some(excess),
            Decision::new(allowed, AnyRaw::Nginx(raw)),
        )
    }

    fn commit(&mut self, accepted: Option<u64>, now: u64) {
        if let Some(excess) = accepted {
            self.excess = excess;
            self.last = Some(now);
        }
        self.seen = now;
    }

    fn trace(&self, now: u64, cost: u32) -> Explanation {
        let (accepted, d) = self.decide(now, cost);
        let excess = self.excess_at(now, cost);
        let state = |excess: u64, last: Option<u64>| {
            vec![
                Field::new("excess", Self::requests(excess)),
                Field::new(
                    "last",
                    last.map_or(Value::None, |l| Value::Time(Ms::from_ms(l))),
                ),
            ]
        };
        let formula = match self.last {
            None => "first request".into(),
            Some(last) => format!(
                "max(0, {} − {}/s · {} + {})",
                Amount::new(self.excess as u128, 1000),
                Amount::new(self.per_milli.get() as u128, 1000),
                Ms::from_ms(now - last),
                cost
            ),
        };
        Explanation {
            at: Ms::from_ms(now),
            cost,
            before: state(self.excess, self.last),
            steps: vec![Step {
                when: None,
                set: "excess",
                formula: Some(formula),
                to: Self::requests(excess),
            }],
            test: Comparison {
                label: "excess",
                lhs: Self::requests(excess),
                op: Op::Le,
                rhs: Value::Count(self.burst / 1000),
                holds: d.allowed(),
            },
            verdict: Verdict::of(&d),
            after: match accepted {
                Some(excess) => state(excess, Some(now)),
                None => state(self.excess, self.last),
            },
        }
    }

    fn state_at(&self, now: u64) -> Snapshot {
        let excess = match self.last {
            None => 0,
            Some(last) => self.excess.saturating_sub(self.drained(now - last)),
        };
        Snapshot::Nginx {
            excess: Amount::new(excess as u128, 1000),
            burst: self.burst / 1000,
            delay: (self.delay != NODELAY).then_some(self.delay / 1000),
            seen: self.last.is_some(),
        }
    }

    fn rests(&self, now: u64) -> bool {
        // A request now would start from excess 0, exactly like a new key.
        self.excess_at(now, 1) == 0
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

    fn ngx(limit: u64, period: u64, burst: u64, delay: Option<u64>) -> Nginx {
        Nginx::new(Rate::new(limit, period).unwrap(), burst, delay).unwrap()
    }

    #[test]
    fn burst_5_admits_6_at_once() {
        let mut n = ngx(1, 1000, 5, None);
        let passed = (0..10).filter(|_| n.check(0, 1).unwrap().allowed()).count();
        assert_eq!(passed, 6);
    }

    #[test]
    fn without_nodelay_requests_wait() {
        let mut n = ngx(2, 1000, 5, Some(0));
        let waits: alloc::vec::Vec<u64> = (0..6)
            .map(|_| n.check(0, 1).unwrap().wait().ceil_ms())
            .collect();
        assert_eq!(waits, [0, 500, 1000, 1500, 2000, 2500]);
        let e = n.explain(0, 1).unwrap();
        assert_eq!(
            e.to_string(),
            "0 s: excess := max(0, 5 − 2/s · 0 s + 1) = 6; excess 6 > 5 → deny"
        );
    }

    #[test]
    fn rounds_like_nginx() {
        // 100r/m is 1666 millirequests per second in nginx, not 1666.67.
        let n = ngx(100, 60_000, 0, None);
        assert_eq!(n.per_milli.get(), 1666);
        assert!(Nginx::new(Rate::new(1, 10_000_000).unwrap(), 0, None).is_err());
    }

    #[test]
    fn delay_lets_the_first_ones_through_at_once() {
        let mut n = ngx(1, 1000, 4, Some(2));
        let waits: alloc::vec::Vec<u64> = (0..5)
            .map(|_| n.check(0, 1).unwrap().wait().ceil_ms())
            .collect();
        assert_eq!(waits, [0, 0, 0, 1000, 2000]);
    }
}

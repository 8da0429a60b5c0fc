//! Leaky bucket as a queue (shaping): requests wait and leave evenly, one every
//! `gap = 1 / r`; a request is rejected only when `capacity` are already waiting.
//!
//! `out = max(next_out, t)`; reject if `(out − t) / gap ≥ capacity`; else
//! `next_out = out + gap` and the request waits `out − t`.
//!
//! Promise: departures at least `gap` apart, never more than `capacity` waiting. The
//! price is latency, not rejection. One number of state per key (`next_out`); the
//! waiting requests are derived from it.

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use crate::decision::{Decision, Lazy, Raw as AnyRaw};
use crate::error::ParamError;
use crate::exact::{Amount, Ms};
use crate::explain::{Comparison, Explanation, Field, Op, Step, Value, Verdict};
use crate::limiter::Rule;
use crate::params::{scaled_count, Rate};
use crate::snapshot::Snapshot;

/// At most this many departures are listed in a snapshot.
pub const MAX_DRAWN: usize = 256;

/// Leaky bucket as a queue. State: `next_out`, kept as how far it runs ahead of the
/// last request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeakyQueue {
    rate: Rate,
    capacity: u64,
    /// `max(0, next_out − last)` in units of 1/limit ms: below `(capacity + 1) ·
    /// period`, so a decision needs no 128-bit arithmetic.
    backlog: u64,
    last: u64,
}

/// What a decision keeps (scaled times: units of 1/limit ms, a gap is `period`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Raw {
    /// `out − t + (cost − 1)·gap`: what the test compared with capacity · gap.
    ahead: u64,
    /// `out − t`: how long an accepted request waits.
    occupied: u64,
    /// `next_out − t` after the request.
    after: u64,
    capacity: u64,
    rate: Rate,
}

impl Raw {
    fn full(&self) -> u64 {
        self.capacity * self.rate.period_ms()
    }
}

impl Lazy for Raw {
    #[inline]
    fn wait(&self) -> Ms {
        Ms::scaled(self.occupied as u128, self.rate.limit())
    }

    /// The first whole ms at which `ahead` drops below capacity · gap.
    #[inline]
    fn retry_after(&self) -> Ms {
        Ms::from_ms((self.ahead - self.full()) / self.rate.limit() + 1)
    }

    /// One more fits once `after` (shrinking by `limit` per ms) drops below `full −
    /// remaining · gap`: strictly after `z / limit` ms.
    #[inline]
    fn reset(&self) -> Ms {
        if self.after == 0 {
            return Ms::ZERO;
        }
        let p = self.rate.period_ms();
        let z = self.after + self.remaining() * p - self.full();
        Ms::scaled(z as u128 + 1, self.rate.limit())
    }

    /// Unit requests that would still be queued right now: the k-th (0-based) is
    /// accepted while `after + k·gap < capacity · gap`, so `ceil((full − after) /
    /// gap)`.
    #[inline]
    fn remaining(&self) -> u64 {
        self.full()
            .saturating_sub(self.after)
            .div_ceil(self.rate.period_ms())
    }
}

/// What a request meets and leaves.
pub struct Outcome {
    /// `out − t`: how long this request waits (scaled), if accepted.
    occupied: u64,
    /// `next_out − t` after the request (scaled).
    after: u64,
}

impl LeakyQueue {
    /// Releases `rate.limit()` requests per `rate.period_ms()`, evenly; holds up to
    /// `capacity` waiting.
    pub fn new(rate: Rate, capacity: u64) -> Result<LeakyQueue, ParamError> {
        Ok(LeakyQueue {
            rate,
            capacity: scaled_count("burst", capacity, rate.period_ms())?,
            backlog: 0,
            last: 0,
        })
    }

    fn ms(&self, scaled: u128) -> Ms {
        Ms::scaled(scaled, self.rate.limit())
    }

    /// The gap between departures, in scaled units (units of 1/limit ms): the
    /// period.
    #[inline]
    fn gap(&self) -> u64 {
        self.rate.period_ms()
    }

    /// `capacity · gap`, scaled (< 2^62).
    fn full(&self) -> u64 {
        self.capacity * self.gap()
    }

    /// `next_out`, absolute and scaled.
    fn next_out(&self) -> u128 {
        self.last as u128 * self.rate.limit() as u128 + self.backlog as u128
    }

    /// `max(next_out, t) − t` at `now`.
    #[inline]
    fn occupied(&self, now: u64) -> u64 {
        self.backlog
            .saturating_sub((now - self.last).saturating_mul(self.rate.limit()))
    }

    /// The exact departure time of the last accepted request's slot, for tests of
    /// the spacing guarantee: `next_out − gap`.
    pub fn last_departure(&self) -> Option<Ms> {
        self.next_out()
            .checked_sub(self.gap() as u128)
            .map(|s| self.ms(s))
    }
}

impl Rule for LeakyQueue {
    type Next = Outcome;

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
    fn decide(&self, now: u64, cost: u32) -> (Outcome, Decision) {
        let p = self.gap();
        let full = self.full();
        let occupied = self.occupied(now);
        // For cost 1 this is `(out − t) / gap < capacity`. occupied < full + p and
        // (cost − 1)·p < full, with full < 2^62: the sum fits.
        let ahead = occupied + (cost as u64 - 1) * p;
        let allowed = ahead < full;
        let after = if allowed {
            occupied + cost as u64 * p
        } else {
            occupied
        };
        let raw = Raw {
            ahead,
            occupied,
            after,
            capacity: self.capacity,
            rate: self.rate,
        };
        (
            Outcome { occupied, after },
            Decision::new(allowed, AnyRaw::Queue(raw)),
        )
    }

    fn commit(&mut self, o: Outcome, now: u64) {
        self.backlog = o.after;
        self.last = now;
    }

    fn trace(&self, now: u64, cost: u32) -> Explanation {
        let (o, d) = self.decide(now, cost);
        let t = now as u128 * self.rate.limit() as u128;
        let ahead = o.occupied as u128 + (cost as u128 - 1) * self.gap() as u128;
        let next_out = self.next_out();
        Explanation {
            at: Ms::from_ms(now),
            cost,
            before: vec![Field::new("next_out", Value::Time(self.ms(next_out)))],
            steps: vec![Step {
                when: None,
                set: "out",
                formula: Some(format!("max({}, {})", self.ms(next_out), Ms::from_ms(now))),
                to: Value::Time(self.ms(t + o.occupied as u128)),
            }],
            test: Comparison {
                label: if cost == 1 {
                    "(out − t) / gap"
                } else {
                    "(out − t) / gap + cost − 1"
                },
                lhs: Value::Amount(Amount::new(ahead, self.gap())),
                op: Op::Lt,
                rhs: Value::Count(self.capacity),
                holds: d.allowed(),
            },
            verdict: Verdict::of(&d),
            after: vec![Field::new(
                "next_out",
                Value::Time(self.ms(if d.allowed() {
                    t + o.after as u128
                } else {
                    next_out
                })),
            )],
        }
    }

    fn state_at(&self, now: u64) -> Snapshot {
        let t = now as u128 * self.rate.limit() as u128;
        let p = self.gap() as u128;
        let occupied = self.occupied(now) as u128;
        // Slots leave at next_out − k·gap (k ≥ 1); those after `now` are waiting.
        let waiting = occupied.div_ceil(p).saturating_sub(1);
        // Drawing needs the first few; a huge queue is summarised by `waiting`.
        let shown = waiting.min(MAX_DRAWN as u128);
        let first = t + occupied - waiting * p;
        let departures: Vec<Ms> = (0..shown).map(|k| self.ms(first + k * p)).collect();
        Snapshot::LeakyQueue {
            waiting: u64::try_from(waiting).unwrap_or(u64::MAX),
            departures,
            next_out: self.ms(self.next_out()),
            gap: self.ms(p),
            capacity: self.capacity,
        }
    }

    fn rests(&self, now: u64) -> bool {
        self.occupied(now) == 0
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
    fn requests_wait_their_turn() {
        let mut q = LeakyQueue::new(Rate::new(5, 10_000).unwrap(), 5).unwrap();
        let waits: Vec<Option<u64>> = [2000, 7000, 8000, 9000, 9500, 9800, 10_100, 10_400, 10_700]
            .iter()
            .map(|&t| {
                let d = q.check(t, 1).unwrap();
                d.allowed().then(|| d.wait().ceil_ms())
            })
            .collect();
        assert_eq!(
            waits,
            [
                Some(0),
                Some(0),
                Some(1000),
                Some(2000),
                Some(3500),
                Some(5200),
                Some(6900),
                Some(8600),
                None
            ]
        );
        let e = q.explain(11_200, 1).unwrap();
        assert_eq!(
            e.to_string(),
            "11.2 s: out := max(21 s, 11.2 s) = 21 s; (out − t) / gap 4.9 < 5 → allow after 9.8 s"
        );
    }

    #[test]
    fn the_snapshot_lists_waiting_slots() {
        let mut q = LeakyQueue::new(Rate::new(1, 1000).unwrap(), 3).unwrap();
        for _ in 0..3 {
            q.check(0, 1).unwrap();
        }
        match q.snapshot(500) {
            Snapshot::LeakyQueue { departures, .. } => {
                assert_eq!(departures, vec![Ms::from_ms(1000), Ms::from_ms(2000)]);
            }
            other => panic!("{other:?}"),
        }
    }
}

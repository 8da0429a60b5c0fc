//! Fixed window anchored at the first request (Laravel's style): the window opens at
//! the first request and covers `[t0, t0 + W)`; the first request at or after its end
//! opens a new window at its own time.
//!
//! Promise: never more than N in one window. Windows are not aligned, so a burst at a
//! window's end can still be followed by a full window right after it (2N in W at
//! worst), but the boundary moves with the client instead of sitting on the clock.

use alloc::vec;

use crate::decision::{Counted, Decision, Raw};
use crate::exact::{Frac, Ms};
use crate::explain::{Comparison, Explanation, Field, Op, Step, Value, Verdict};
use crate::fixed_window::fits;
use crate::limiter::Rule;
use crate::params::Rate;
use crate::snapshot::Snapshot;

/// Fixed window opened by the first request. State: the window's start and count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnchoredWindow {
    rate: Rate,
    /// Start of the open window, if any.
    start: Option<u64>,
    count: u64,
    last: u64,
}

impl AnchoredWindow {
    /// N requests per window of W = `rate.period_ms()`, opened by the first request.
    pub fn new(rate: Rate) -> AnchoredWindow {
        AnchoredWindow {
            rate,
            start: None,
            count: 0,
            last: 0,
        }
    }

    fn end_of(&self, start: u64) -> u128 {
        start as u128 + self.rate.period_ms() as u128
    }

    /// The window open at `now` (if a request at `now` would not open a new one).
    /// Time never goes backwards: `now ≥ last ≥ start`.
    #[inline]
    fn open_at(&self, now: u64) -> Option<u64> {
        self.start.filter(|&s| now - s < self.rate.period_ms())
    }
}

impl Rule for AnchoredWindow {
    /// The open window's start and count after the request.
    type Next = (u64, u64);

    fn rate(&self) -> Rate {
        self.rate
    }

    fn last(&self) -> u64 {
        self.last
    }

    fn capacity(&self) -> u64 {
        self.rate.limit()
    }

    #[inline]
    fn decide(&self, now: u64, cost: u32) -> ((u64, u64), Decision) {
        let limit = self.rate.limit();
        let (start, mut count) = match self.open_at(now) {
            Some(s) => (s, self.count),
            None => (now, 0),
        };
        let allowed = count + cost as u64 <= limit;
        if allowed {
            count += cost as u64;
        }
        // `end − now ≤ W`: it fits.
        let until_end = self.rate.period_ms() - (now - start);
        let raw = Counted {
            retry_ms: until_end,
            reset_ms: until_end,
            remaining: limit - count,
        };
        ((start, count), Decision::new(allowed, Raw::Counted(raw)))
    }

    fn commit(&mut self, (start, count): (u64, u64), now: u64) {
        self.start = Some(start);
        self.count = count;
        self.last = now;
    }

    fn trace(&self, now: u64, cost: u32) -> Explanation {
        let ((start, count), d) = self.decide(now, cost);
        let mut steps = vec![];
        let open = self.open_at(now);
        if open.is_none() {
            steps.push(Step {
                when: Some(match self.start {
                    Some(s) => Comparison {
                        label: "t",
                        lhs: Value::Time(Ms::from_ms(now)),
                        op: Op::Ge,
                        rhs: Value::Time(Ms(Frac::new(self.end_of(s), 1))),
                        holds: true,
                    },
                    None => Comparison {
                        label: "window",
                        lhs: Value::None,
                        op: Op::Eq,
                        rhs: Value::None,
                        holds: true,
                    },
                }),
                set: "start, count",
                formula: Some(alloc::format!("{}, 0", Ms::from_ms(now))),
                to: Value::Time(Ms::from_ms(now)),
            });
        }
        let used = if open.is_some() { self.count } else { 0 };
        let state = |start: Option<u64>, count: u64| {
            vec![
                Field::new(
                    "start",
                    start.map_or(Value::None, |s| Value::Time(Ms::from_ms(s))),
                ),
                Field::new("count", Value::Count(count)),
            ]
        };
        Explanation {
            at: Ms::from_ms(now),
            cost,
            before: state(self.start, self.count),
            steps,
            test: fits("count", used, cost, self.rate.limit(), d.allowed()),
            verdict: Verdict::of(&d),
            after: state(Some(start), count),
        }
    }

    fn state_at(&self, now: u64) -> Snapshot {
        let limit = self.rate.limit();
        match self.open_at(now) {
            Some(s) => Snapshot::AnchoredWindow {
                window: Some((Ms::from_ms(s), Ms(Frac::new(self.end_of(s), 1)))),
                count: self.count,
                limit,
            },
            None => Snapshot::AnchoredWindow {
                window: None,
                count: 0,
                limit,
            },
        }
    }

    fn rests(&self, now: u64) -> bool {
        self.open_at(now).is_none()
    }

    fn numbers(&self) -> usize {
        2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limiter;

    #[test]
    fn the_window_opens_at_the_first_request() {
        let mut l = AnchoredWindow::new(Rate::new(2, 1000).unwrap());
        assert!(l.check(300, 1).unwrap().allowed());
        assert!(l.check(1200, 1).unwrap().allowed());
        assert!(!l.check(1299, 1).unwrap().allowed());
        // 1300 is the end of [300, 1300): a new window opens at 1300.
        assert!(l.check(1300, 1).unwrap().allowed());
        assert_eq!(
            l.snapshot(1400),
            Snapshot::AnchoredWindow {
                window: Some((Ms::from_ms(1300), Ms::from_ms(2300))),
                count: 1,
                limit: 2
            }
        );
    }
}

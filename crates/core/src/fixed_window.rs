//! Fixed window, clock-aligned: windows `[k·W, (k+1)·W)`, a count per window.
//!
//! Promise: never more than N in one window, but up to 2N in *any* interval of length
//! W (N at the end of one window, N at the start of the next).

use alloc::vec;

use crate::decision::{Counted, Decision, Raw};
use crate::exact::{Frac, Ms};
use crate::explain::{Comparison, Explanation, Field, Op, Step, Value, Verdict};
use crate::limiter::Rule;
use crate::params::Rate;
use crate::snapshot::Snapshot;

/// Clock-aligned fixed window counter. State: the window (by its start) and its
/// count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedWindow {
    rate: Rate,
    /// `index · W`, the window's start (at most `now`, so it fits): a request in the
    /// same window, `now − start < W`, needs no division.
    start: u64,
    count: u64,
    last: u64,
}

/// The window containing `now` and the count in it.
#[derive(Clone, Copy)]
pub struct Roll {
    start: u64,
    count: u64,
}

impl FixedWindow {
    /// N requests per window of W = `rate.period_ms()`.
    pub fn new(rate: Rate) -> FixedWindow {
        FixedWindow {
            rate,
            start: 0,
            count: 0,
            last: 0,
        }
    }

    #[inline]
    fn roll(&self, now: u64) -> Roll {
        let window = self.rate.period_ms();
        // Time never goes backwards (`now ≥ last ≥ start`).
        if now - self.start < window {
            Roll {
                start: self.start,
                count: self.count,
            }
        } else {
            Roll {
                start: now - now % window,
                count: 0,
            }
        }
    }

    /// The window's index, `floor(t / W)`, for explanations.
    fn index(&self, start: u64) -> u64 {
        start / self.rate.period_ms()
    }
}

impl Rule for FixedWindow {
    type Next = Roll;

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
    fn decide(&self, now: u64, cost: u32) -> (Roll, Decision) {
        let limit = self.rate.limit();
        let mut r = self.roll(now);
        let allowed = r.count + cost as u64 <= limit;
        if allowed {
            r.count += cost as u64;
        }
        let until_end = self.rate.period_ms() - (now - r.start);
        let raw = Counted {
            retry_ms: until_end,
            reset_ms: until_end,
            remaining: limit - r.count,
        };
        (r, Decision::new(allowed, Raw::Counted(raw)))
    }

    fn commit(&mut self, r: Roll, now: u64) {
        self.start = r.start;
        self.count = r.count;
        self.last = now;
    }

    fn trace(&self, now: u64, cost: u32) -> Explanation {
        let (after, d) = self.decide(now, cost);
        let mut steps = vec![];
        let (index, after_index) = (self.index(self.start), self.index(after.start));
        if after_index != index {
            steps.push(Step {
                when: Some(Comparison {
                    label: "window",
                    lhs: Value::Window(after_index),
                    op: Op::Ne,
                    rhs: Value::Window(index),
                    holds: true,
                }),
                set: "count",
                formula: None,
                to: Value::Count(0),
            });
        }
        let used = self.roll(now).count;
        Explanation {
            at: Ms::from_ms(now),
            cost,
            before: vec![
                Field::new("window", Value::Window(index)),
                Field::new("count", Value::Count(self.count)),
            ],
            steps,
            test: fits("count", used, cost, self.rate.limit(), d.allowed()),
            verdict: Verdict::of(&d),
            after: vec![
                Field::new("window", Value::Window(after_index)),
                Field::new("count", Value::Count(after.count)),
            ],
        }
    }

    fn state_at(&self, now: u64) -> Snapshot {
        let r = self.roll(now);
        Snapshot::FixedWindow {
            start: Ms::from_ms(r.start),
            end: Ms(Frac::new(
                r.start as u128 + self.rate.period_ms() as u128,
                1,
            )),
            count: r.count,
            limit: self.rate.limit(),
        }
    }

    fn rests(&self, now: u64) -> bool {
        self.roll(now).count == 0
    }

    fn numbers(&self) -> usize {
        2
    }
}

/// The test of the counting limiters: `used < N` for one request, `used + cost ≤ N`
/// for a heavier one.
pub(crate) fn fits(
    label: &'static str,
    used: u64,
    cost: u32,
    limit: u64,
    holds: bool,
) -> Comparison {
    if cost == 1 {
        Comparison {
            label,
            lhs: Value::Count(used),
            op: Op::Lt,
            rhs: Value::Count(limit),
            holds,
        }
    } else {
        Comparison {
            label: "used + cost",
            lhs: Value::Count(used + cost as u64),
            op: Op::Le,
            rhs: Value::Count(limit),
            holds,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CheckError, Limiter};
    use alloc::string::ToString;

    fn fw(limit: u64, period: u64) -> FixedWindow {
        FixedWindow::new(Rate::new(limit, period).unwrap())
    }

    #[test]
    fn counts_per_aligned_window_and_resets() {
        let mut l = fw(2, 1000);
        assert!(l.check(0, 1).unwrap().allowed());
        assert!(l.check(999, 1).unwrap().allowed());
        let d = l.check(999, 1).unwrap();
        assert!(!d.allowed());
        assert_eq!(d.retry_after(), Ms::from_ms(1));
        assert!(l.check(1000, 1).unwrap().allowed());
    }

    #[test]
    fn explains_a_new_window_like_a_trace_row() {
        let mut l = fw(5, 10_000);
        for t in [2000, 7000, 8000, 9000, 9500, 9800] {
            l.check(t, 1).unwrap();
        }
        let e = l.explain(10_100, 1).unwrap();
        assert_eq!(
            e.to_string(),
            "10.1 s: window 1 ≠ 0 → count := 0; count 0 < 5 → allow"
        );
    }

    #[test]
    fn backwards_time_and_bad_costs_are_errors() {
        let mut l = fw(2, 1000);
        l.check(50, 1).unwrap();
        assert_eq!(
            l.check(49, 1),
            Err(CheckError::TimeWentBackwards {
                previous: 50,
                now: 49
            })
        );
        assert_eq!(l.check(60, 0), Err(CheckError::ZeroCost));
        assert_eq!(
            l.check(60, 3),
            Err(CheckError::CostExceedsCapacity {
                cost: 3,
                capacity: 2
            })
        );
    }

    #[test]
    fn far_future_times_do_not_overflow() {
        let mut l = fw(1, 7);
        assert!(l.check(u64::MAX, 1).unwrap().allowed());
        assert!(!l.check(u64::MAX, 1).unwrap().allowed());
    }
}

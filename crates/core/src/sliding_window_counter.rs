//! Sliding window counter (Cloudflare, 2017): two clock-aligned counters, and the
//! previous one weighted by how much of it still overlaps the sliding window.
//!
//! Allow if `prev · (1 − elapsed) + curr < N`, with `elapsed = (t − w·W) / W`,
//! computed exactly as `prev · (W − (t − w·W)) + curr · W < N · W`.
//!
//! Promise: an estimate. It assumes the previous window's requests were spread
//! evenly, so it can allow more than N in a sliding window (when they came late) or
//! fewer (when they came early). Three numbers of state per key.

use alloc::format;
use alloc::vec;

use crate::decision::{Decision, Lazy, Raw as AnyRaw};
use crate::error::ParamError;
use crate::exact::{Amount, Ms};
use crate::explain::{Comparison, Explanation, Field, Op, Step, Value, Verdict};
use crate::limiter::Rule;
use crate::params::{scaled_count, Rate};
use crate::snapshot::Snapshot;

/// Sliding window counter. State: the window index, `prev` and `curr`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlidingWindowCounter {
    rate: Rate,
    index: u64,
    /// `index · W`, cached so that a request in the same window needs no division.
    start: u64,
    prev: u64,
    curr: u64,
    last: u64,
}

/// The counters at a moment (after rolling into its window).
#[derive(Clone, Copy)]
pub struct Roll {
    index: u64,
    start: u64,
    prev: u64,
    curr: u64,
}

impl Roll {
    /// `t − w·W`: how far into the current window `now` is (< W).
    fn elapsed(&self, now: u64) -> u64 {
        now - self.start
    }

    /// `prev · (W − elapsed)`: the previous window's weighted share, times W
    /// (≤ N · W < 2^62).
    fn weighted_prev(&self, now: u64, window: u64) -> u64 {
        self.prev * (window - self.elapsed(now))
    }
}

impl SlidingWindowCounter {
    /// About N requests per sliding window of W = `rate.period_ms()`. `limit ·
    /// period_ms` must stay below 2^62 (so that decisions are u64 arithmetic).
    pub fn new(rate: Rate) -> Result<SlidingWindowCounter, ParamError> {
        scaled_count("limit", rate.limit(), rate.period_ms())?;
        Ok(SlidingWindowCounter {
            rate,
            index: 0,
            start: 0,
            prev: 0,
            curr: 0,
            last: 0,
        })
    }

    #[inline]
    fn roll(&self, now: u64) -> Roll {
        let window = self.rate.period_ms();
        if now - self.start < window {
            // Time never goes backwards, so `now` is still in the current window.
            Roll {
                index: self.index,
                start: self.start,
                prev: self.prev,
                curr: self.curr,
            }
        } else {
            let index = now / window;
            Roll {
                index,
                start: index * window,
                prev: if index == self.index + 1 {
                    self.curr
                } else {
                    0
                },
                curr: 0,
            }
        }
    }

    fn estimate(&self, r: &Roll, now: u64) -> Amount {
        let window = self.rate.period_ms();
        Amount::new(
            (r.weighted_prev(now, window) + r.curr * window) as u128,
            window,
        )
    }
}

/// What a decision keeps: the counters after it and how far into its window it
/// came.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Raw {
    prev: u64,
    curr: u64,
    /// `t − w·W`.
    elapsed: u64,
    cost: u32,
    rate: Rate,
}

impl Raw {
    /// The first whole millisecond at which a request of `cost` that does not pass
    /// now would pass, counted from the decision, if nothing else arrives.
    fn first_pass(&self, cost: u32) -> u64 {
        // Every product below is at most N · W < 2^62 (checked when built), and a
        // count is at most N: plain u64 arithmetic.
        let w = self.rate.period_ms();
        let n = self.rate.limit();
        let c = cost as u64 - 1;
        // Smallest elapsed e' with prev · (W − e') < X, or None if no e' < W works:
        // W − e' < X / prev ⟺ e' ≥ W + 1 − ceil(X / prev).
        let first_fit = |prev: u64, x: u64| -> Option<u64> {
            if x == 0 {
                return None;
            }
            if prev == 0 {
                return Some(0);
            }
            let e = (w + 1).saturating_sub(x.div_ceil(prev));
            (e < w).then_some(e)
        };
        let e_now = self.elapsed;
        let this_window = (self.curr + c < n)
            .then(|| first_fit(self.prev, (n - self.curr - c) * w))
            .flatten()
            .filter(|&e| e >= e_now);
        match this_window {
            Some(e) => e - e_now,
            None => {
                // The next window: prev' = curr, curr' = 0. If no elapsed time in it
                // fits, the one after it (prev'' = 0) does, at its start.
                let to_next = w - e_now;
                to_next + first_fit(self.curr, (n - c) * w).unwrap_or(w)
            }
        }
    }
}

impl Lazy for Raw {
    #[inline]
    fn retry_after(&self) -> Ms {
        Ms::from_ms(self.first_pass(self.cost))
    }

    /// When `remaining` next grows. Not the window's end: the estimate decays as
    /// the previous window slides out, and is continuous across the end (where
    /// `prev` takes `curr`'s count), so nothing happens there. `remaining` reaches
    /// `R + 1` exactly when a request of cost `R + 1` would pass (the estimate never
    /// grows while nothing arrives); on a denial of one request (`R = 0`) that is
    /// its retry-after. Zero when all N would pass.
    #[inline]
    fn reset(&self) -> Ms {
        let remaining = self.remaining();
        if remaining >= self.rate.limit() {
            return Ms::ZERO;
        }
        // remaining + 1 ≤ N ≤ u32::MAX.
        Ms::from_ms(self.first_pass(remaining as u32 + 1))
    }

    /// Unit requests that would still pass now: `ceil(slack / W)`, with `slack =
    /// N·W − prev·(W − elapsed) − curr·W`.
    #[inline]
    fn remaining(&self) -> u64 {
        let w = self.rate.period_ms();
        let used = self.prev * (w - self.elapsed) + self.curr * w;
        (self.rate.limit() * w).saturating_sub(used).div_ceil(w)
    }
}

impl Rule for SlidingWindowCounter {
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
        let w = self.rate.period_ms();
        let nw = self.rate.limit() * w;
        let mut r = self.roll(now);
        let weighted = r.weighted_prev(now, w);
        // As if `cost` unit requests came one after another: the last must still fit.
        // curr + cost − 1 < 2N and N · W < 2^62, so nothing here overflows.
        let allowed = weighted + (r.curr + cost as u64 - 1) * w < nw;
        if allowed {
            r.curr += cost as u64;
        }
        let raw = Raw {
            prev: r.prev,
            curr: r.curr,
            elapsed: r.elapsed(now),
            cost,
            rate: self.rate,
        };
        (r, Decision::new(allowed, AnyRaw::Counter(raw)))
    }

    fn commit(&mut self, r: Roll, now: u64) {
        self.index = r.index;
        self.start = r.start;
        self.prev = r.prev;
        self.curr = r.curr;
        self.last = now;
    }

    fn trace(&self, now: u64, cost: u32) -> Explanation {
        let window = self.rate.period_ms();
        let limit = self.rate.limit();
        let (after, d) = self.decide(now, cost);
        let r = self.roll(now);
        let mut steps = vec![];
        if r.index != self.index {
            let moved = Comparison {
                label: "window",
                lhs: Value::Window(r.index),
                op: Op::Ne,
                rhs: Value::Window(self.index),
                holds: true,
            };
            steps.push(Step {
                when: Some(moved),
                set: "prev",
                formula: Some(if r.index == self.index + 1 {
                    "curr".into()
                } else {
                    "0 (more than one window passed)".into()
                }),
                to: Value::Count(r.prev),
            });
            steps.push(Step {
                when: None,
                set: "curr",
                formula: None,
                to: Value::Count(0),
            });
        }
        let elapsed = Amount::new(r.elapsed(now) as u128, window);
        steps.push(Step {
            when: None,
            set: "elapsed",
            formula: Some(format!(
                "({} − {}) / {}",
                Ms::from_ms(now),
                Ms::from_ms(r.start),
                Ms::from_ms(window)
            )),
            to: Value::Amount(elapsed),
        });
        let estimate = self.estimate(&r, now);
        steps.push(Step {
            when: None,
            set: "estimate",
            formula: Some(format!("{} · (1 − {}) + {}", r.prev, elapsed, r.curr)),
            to: Value::Amount(estimate),
        });
        let test = if cost == 1 {
            Comparison {
                label: "estimate",
                lhs: Value::Amount(estimate),
                op: Op::Lt,
                rhs: Value::Count(limit),
                holds: d.allowed(),
            }
        } else {
            Comparison {
                label: "estimate + cost − 1",
                lhs: Value::Amount(Amount::new(
                    estimate.0.num() + (cost as u128 - 1) * window as u128,
                    window,
                )),
                op: Op::Lt,
                rhs: Value::Count(limit),
                holds: d.allowed(),
            }
        };
        let state = |index: u64, prev: u64, curr: u64| {
            vec![
                Field::new("window", Value::Window(index)),
                Field::new("prev", Value::Count(prev)),
                Field::new("curr", Value::Count(curr)),
            ]
        };
        Explanation {
            at: Ms::from_ms(now),
            cost,
            before: state(self.index, self.prev, self.curr),
            steps,
            test,
            verdict: Verdict::of(&d),
            after: state(after.index, after.prev, after.curr),
        }
    }

    fn state_at(&self, now: u64) -> Snapshot {
        let r = self.roll(now);
        Snapshot::SlidingWindowCounter {
            start: Ms::from_ms(r.start),
            window: Ms::from_ms(self.rate.period_ms()),
            prev: r.prev,
            curr: r.curr,
            estimate: self.estimate(&r, now),
            limit: self.rate.limit(),
        }
    }

    fn rests(&self, now: u64) -> bool {
        let r = self.roll(now);
        r.prev == 0 && r.curr == 0
    }

    fn numbers(&self) -> usize {
        3
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limiter;
    use alloc::string::ToString;

    fn swc(limit: u64, period: u64) -> SlidingWindowCounter {
        SlidingWindowCounter::new(Rate::new(limit, period).unwrap()).unwrap()
    }

    #[test]
    fn weights_the_previous_window() {
        let mut l = swc(10, 1000);
        for i in 0..10 {
            assert!(l.check(900 + i, 1).unwrap().allowed());
        }
        // At 1500, prev = 10 weighs 10 · 0.5 = 5: five more fit.
        for i in 0..5 {
            assert!(l.check(1500, 1).unwrap().allowed(), "request {i}");
        }
        let d = l.check(1500, 1).unwrap();
        assert!(!d.allowed());
        // 10 · (1000 − e)/1000 + 5 < 10 ⟺ e > 500: the first whole ms is 501.
        assert_eq!(d.retry_after(), Ms::from_ms(1));
        // RateLimit's t names the same moment, not the window's end (2000 ms).
        assert_eq!(d.reset(), Ms::from_ms(1));
        assert!(l.check(1501, 1).unwrap().allowed());
    }

    #[test]
    fn retry_after_is_the_first_ms_that_passes() {
        let mut l = swc(3, 1000);
        for t in [10, 20, 30] {
            l.check(t, 1).unwrap();
        }
        let d = l.check(40, 1).unwrap();
        assert!(!d.allowed());
        let at = 40 + d.retry_after().ceil_ms();
        // Just before fails, at passes.
        assert!(!l.peek(at - 1, 1).unwrap().allowed());
        assert!(l.peek(at, 1).unwrap().allowed());
    }

    #[test]
    fn explains_the_estimate() {
        let mut l = swc(5, 10_000);
        for t in [2000, 7000, 8000, 9000, 9500] {
            l.check(t, 1).unwrap();
        }
        let e = l.explain(10_100, 1).unwrap();
        assert_eq!(
            e.to_string(),
            "10.1 s: window 1 ≠ 0 → prev := curr = 5; curr := 0; \
             elapsed := (10.1 s − 10 s) / 10 s = 0.01; \
             estimate := 5 · (1 − 0.01) + 0 = 4.95; estimate 4.95 < 5 → allow"
        );
    }
}

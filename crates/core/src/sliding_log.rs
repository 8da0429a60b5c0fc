//! Sliding log: keep the time of every allowed request in the last W; allow if fewer
//! than N are inside `(t − W, t]`.
//!
//! Promise: never more than N allowed in any window of length W, exactly. Price: up
//! to N numbers of state per key.
//!
//! The teaching variant [`SlidingLog::logging_blocked`] also logs denied requests,
//! as some snippets do. It is wrong on purpose: a client that keeps sending at or
//! above the limit is then blocked forever, because its own denied requests keep
//! the log full. Its memory is bounded by the requests in one window, not by N.

use alloc::collections::VecDeque;
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use crate::decision::Decision;
use crate::exact::{Frac, Ms};
use crate::explain::{Explanation, Field, Step, Value, Verdict};
use crate::fixed_window::fits;
use crate::limiter::Rule;
use crate::params::Rate;
use crate::snapshot::{LogEntry, Snapshot};

/// Requests logged at one time: `n` of them (a request of cost c counts c times).
/// Equal times share an entry, so the log never holds more than N entries and a
/// huge cost is one entry, not a huge allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    t: u64,
    n: u32,
    allowed: bool,
}

/// Sliding log. State: the times of the requests inside the window (at most N).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlidingLog {
    rate: Rate,
    log_blocked: bool,
    entries: VecDeque<Entry>,
    /// Sum of `n` over `entries`.
    total: u64,
    last: u64,
}

/// What a request changes in the log.
pub struct Outcome {
    /// Entries that have expired, and how many requests they held.
    expired: (usize, u64),
    /// The entry to append (or merge into the last one), if any.
    appended: Option<Entry>,
}

impl SlidingLog {
    /// N requests in any window of W = `rate.period_ms()`.
    pub fn new(rate: Rate) -> SlidingLog {
        SlidingLog {
            rate,
            log_blocked: false,
            entries: VecDeque::new(),
            total: 0,
            last: 0,
        }
    }

    /// The teaching variant that also logs denied requests (wrong on purpose).
    pub fn logging_blocked(rate: Rate) -> SlidingLog {
        SlidingLog {
            log_blocked: true,
            ..SlidingLog::new(rate)
        }
    }

    /// Whether this is the teaching variant.
    pub fn logs_blocked(&self) -> bool {
        self.log_blocked
    }

    /// How many entries the log holds right now (for memory bounds).
    pub fn stored_entries(&self) -> usize {
        self.entries.len()
    }

    #[inline]
    fn expires_by(&self, e: &Entry, now: u64) -> bool {
        e.t as u128 + self.rate.period_ms() as u128 <= now as u128
    }

    /// Entries that have left `(now − W, now]`, counted from the oldest, and the
    /// requests they held.
    #[inline]
    fn expired(&self, now: u64) -> (usize, u64) {
        let mut k = 0;
        let mut n = 0;
        for e in self.entries.iter().take_while(|e| self.expires_by(e, now)) {
            k += 1;
            n += e.n as u64;
        }
        (k, n)
    }

    fn log(entries: impl Iterator<Item = (u64, u32)>) -> Value {
        Value::Log(entries.map(|(t, n)| (Ms::from_ms(t), n)).collect())
    }
}

impl Rule for SlidingLog {
    type Next = Outcome;

    fn rate(&self) -> Rate {
        self.rate
    }

    fn last(&self) -> u64 {
        self.last
    }

    fn capacity(&self) -> u64 {
        self.rate.limit()
    }

    fn decide(&self, now: u64, cost: u32) -> (Outcome, Decision) {
        let limit = self.rate.limit();
        let window = self.rate.period_ms();
        let expired = self.expired(now);
        let live = self.total - expired.1;
        let allowed = live + cost as u64 <= limit;
        let appended = (allowed || self.log_blocked).then_some(Entry {
            t: now,
            n: cost,
            allowed,
        });
        let after = live + appended.map_or(0, |_| cost as u64);
        // The time of the k-th oldest request after this one (0-based), appended last.
        let nth_after = |k: u64| -> u64 {
            let mut seen = 0;
            for e in self.entries.iter().skip(expired.0) {
                seen += e.n as u64;
                if k < seen {
                    return e.t;
                }
            }
            now
        };
        let until_expiry = |t: u64| Ms(Frac::new(t as u128 + window as u128 - now as u128, 1));
        let retry_after = if allowed {
            Ms::ZERO
        } else {
            // `after + cost − N` entries must expire first; the last of them decides.
            until_expiry(nth_after(after + cost as u64 - limit - 1))
        };
        let reset = if after == 0 {
            Ms::ZERO
        } else {
            until_expiry(nth_after(0))
        };
        (
            Outcome { expired, appended },
            Decision {
                allowed,
                wait: Ms::ZERO,
                retry_after,
                reset,
                remaining: Frac::whole(limit.saturating_sub(after) as u128),
            },
        )
    }

    fn commit(&mut self, o: Outcome, now: u64) {
        self.entries.drain(..o.expired.0);
        self.total -= o.expired.1;
        if let Some(e) = o.appended {
            self.total += e.n as u64;
            let merged = self.entries.back_mut().and_then(|b| {
                let n = b.n.checked_add(e.n)?;
                (b.t == e.t && b.allowed == e.allowed).then(|| b.n = n)
            });
            if merged.is_none() {
                self.entries.push_back(e);
            }
        }
        self.last = now;
    }

    fn trace(&self, now: u64, cost: u32) -> Explanation {
        let (o, d) = self.decide(now, cost);
        let live: Vec<(u64, u32)> = self
            .entries
            .iter()
            .skip(o.expired.0)
            .map(|e| (e.t, e.n))
            .collect();
        let live_count = self.total - o.expired.1;
        let mut steps = vec![];
        if o.expired.0 > 0 {
            steps.push(Step {
                when: None,
                set: "len",
                formula: Some(format!(
                    "{} − {} expired (≤ {})",
                    self.total,
                    o.expired.1,
                    Ms::from_ms(now - self.rate.period_ms())
                )),
                to: Value::Count(live_count),
            });
        }
        let mut after = live.clone();
        if let Some(e) = o.appended {
            after.push((e.t, e.n));
        }
        Explanation {
            at: Ms::from_ms(now),
            cost,
            before: vec![Field::new(
                "log",
                Self::log(self.entries.iter().map(|e| (e.t, e.n))),
            )],
            steps,
            test: fits("len", live_count, cost, self.rate.limit(), d.allowed),
            verdict: Verdict::of(&d),
            after: vec![Field::new("log", Self::log(after.into_iter()))],
        }
    }

    fn state_at(&self, now: u64) -> Snapshot {
        Snapshot::SlidingLog {
            entries: self
                .entries
                .iter()
                .filter(|e| !self.expires_by(e, now))
                .map(|e| LogEntry {
                    at: Ms::from_ms(e.t),
                    count: e.n,
                    allowed: e.allowed,
                })
                .collect(),
            window: Ms::from_ms(self.rate.period_ms()),
            limit: self.rate.limit(),
        }
    }

    fn rests(&self, now: u64) -> bool {
        self.expired(now).0 == self.entries.len()
    }

    fn numbers(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limiter;
    use alloc::string::ToString;

    #[test]
    fn the_window_is_half_open() {
        let mut l = SlidingLog::new(Rate::new(1, 1000).unwrap());
        assert!(l.check(0, 1).unwrap().allowed);
        let d = l.check(999, 1).unwrap();
        assert!(!d.allowed);
        assert_eq!(d.retry_after, Ms::from_ms(1));
        // (1000 − 1000, 1000] excludes 0.
        assert!(l.check(1000, 1).unwrap().allowed);
    }

    #[test]
    fn explains_expiry() {
        let mut l = SlidingLog::new(Rate::new(2, 1000).unwrap());
        l.check(100, 1).unwrap();
        l.check(200, 1).unwrap();
        let e = l.explain(1150, 1).unwrap();
        assert_eq!(
            e.to_string(),
            "1.15 s: len := 2 − 1 expired (≤ 0.15 s) = 1; len 1 < 2 → allow"
        );
    }

    #[test]
    fn logging_blocked_requests_blocks_a_persistent_client_forever() {
        let rate = Rate::new(2, 1000).unwrap();
        let mut right = SlidingLog::new(rate);
        let mut wrong = SlidingLog::logging_blocked(rate);
        let mut passed = (0, 0);
        // A request every 400 ms: 2.5 per second against a limit of 2 per second.
        for i in 0..50 {
            let t = i * 400;
            passed.0 += right.check(t, 1).unwrap().allowed as u32;
            passed.1 += wrong.check(t, 1).unwrap().allowed as u32;
        }
        assert_eq!(passed.0, 34, "the right log passes two of every three");
        assert_eq!(
            passed.1, 2,
            "the wrong log passes the first two, then nothing"
        );
    }
}

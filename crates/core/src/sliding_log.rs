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

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use crate::decision::{Counted, Decision, Raw};
use crate::exact::Ms;
use crate::explain::{Explanation, Field, Step, Value, Verdict};
use crate::fixed_window::fits;
use crate::limiter::Rule;
use crate::log_entries::{Entries, Entry, Expiry};
use crate::params::Rate;
use crate::snapshot::{LogEntry, Snapshot};

/// Sliding log. State: the times of the requests inside the window (at most N
/// entries, 8 bytes each for windows up to about 12 days; see `log_entries`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlidingLog {
    rate: Rate,
    log_blocked: bool,
    entries: Entries,
    /// Sum of `n` over `entries`.
    total: u64,
    last: u64,
}

/// What a request changes in the log.
pub struct Outcome {
    /// The entries that have expired.
    expired: Expiry,
    /// The entry to append (or merge into the last one), if any.
    appended: Option<Entry>,
}

impl SlidingLog {
    /// N requests in any window of W = `rate.period_ms()`.
    pub fn new(rate: Rate) -> SlidingLog {
        SlidingLog {
            rate,
            log_blocked: false,
            entries: Entries::for_window(rate.period_ms()),
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

    /// Entries that have left `(now − W, now]` (times at or before `now − W`),
    /// counted from the oldest.
    #[inline]
    fn expired(&self, now: u64) -> Expiry {
        self.entries.expired(now.checked_sub(self.rate.period_ms()))
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

    #[inline]
    fn decide(&self, now: u64, cost: u32) -> (Outcome, Decision) {
        let limit = self.rate.limit();
        let window = self.rate.period_ms();
        let expired = self.expired(now);
        let live = self.total - expired.requests;
        let allowed = live + cost as u64 <= limit;
        let logged = allowed || self.log_blocked;
        let after = live + if logged { cost as u64 } else { 0 };
        // A live entry at t expires W after it: `now − t < W`, so this fits.
        let until_expiry = |t: u64| window - (now - t);
        // The oldest request after this one: the first live entry, else this one.
        let oldest = expired.next.or(logged.then_some(now));
        let retry_ms = if allowed {
            0
        } else {
            // `after + cost − N` requests must expire first; the last of them decides.
            let k = after + cost as u64 - limit - 1;
            until_expiry(self.entries.nth_request(expired.entries, k).unwrap_or(now))
        };
        let raw = Counted {
            retry_ms,
            reset_ms: oldest.map_or(0, until_expiry),
            remaining: limit.saturating_sub(after),
        };
        (
            Outcome {
                expired,
                appended: logged.then_some(Entry {
                    t: now,
                    n: cost,
                    allowed,
                }),
            },
            Decision::new(allowed, Raw::Counted(raw)),
        )
    }

    #[inline]
    fn commit(&mut self, o: Outcome, now: u64) {
        self.entries.drop_oldest(o.expired.entries);
        self.total -= o.expired.requests;
        if let Some(e) = o.appended {
            self.total += e.n as u64;
            self.entries.push(e);
        }
        self.last = now;
    }

    fn trace(&self, now: u64, cost: u32) -> Explanation {
        let (o, d) = self.decide(now, cost);
        let live: Vec<(u64, u32)> = self
            .entries
            .iter()
            .skip(o.expired.entries)
            .map(|e| (e.t, e.n))
            .collect();
        let live_count = self.total - o.expired.requests;
        let mut steps = vec![];
        if o.expired.entries > 0 {
            steps.push(Step {
                when: None,
                set: "len",
                formula: Some(format!(
                    "{} − {} expired (≤ {})",
                    self.total,
                    o.expired.requests,
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
            test: fits("len", live_count, cost, self.rate.limit(), d.allowed()),
            verdict: Verdict::of(&d),
            after: vec![Field::new("log", Self::log(after.into_iter()))],
        }
    }

    fn state_at(&self, now: u64) -> Snapshot {
        Snapshot::SlidingLog {
            entries: self
                .entries
                .iter()
                .skip(self.expired(now).entries)
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
        self.expired(now).entries == self.entries.len()
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
        assert!(l.check(0, 1).unwrap().allowed());
        let d = l.check(999, 1).unwrap();
        assert!(!d.allowed());
        assert_eq!(d.retry_after(), Ms::from_ms(1));
        // (1000 − 1000, 1000] excludes 0.
        assert!(l.check(1000, 1).unwrap().allowed());
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
            passed.0 += right.check(t, 1).unwrap().allowed() as u32;
            passed.1 += wrong.check(t, 1).unwrap().allowed() as u32;
        }
        assert_eq!(passed.0, 34, "the right log passes two of every three");
        assert_eq!(
            passed.1, 2,
            "the wrong log passes the first two, then nothing"
        );
    }
}

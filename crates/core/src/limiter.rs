//! The [`Limiter`] trait, and the decide-then-commit skeleton every limiter shares,
//! written once.
//!
//! A limiter module writes a [`Rule`]: how to decide on a request *without changing
//! anything* (returning the state the request would leave behind), how to store
//! that state, when it is at rest, and how to explain and draw itself. Everything a
//! caller sees is derived from it here, by one blanket impl: `check` validates,
//! decides and commits; `peek` validates and decides; `explain` validates and
//! explains; `policy` comes from the validated [`Rate`]; `snapshot` and `is_at_rest`
//! never look earlier than the last request. So `check` and `peek` cannot disagree,
//! and a limiter cannot forget to reject time going backwards or a bad cost. (The
//! same shape as governor's `measure_and_replace`: compute the next state from the
//! current one, then store it.)
//!
//! [`Rule`] is sealed: it is public only so that it can bound the blanket impl; no
//! code outside this crate can name it, so [`Limiter`]'s behaviour stays the one
//! written here.

use crate::decision::{Decision, Headers, Policy};
use crate::error::CheckError;
use crate::explain::Explanation;
use crate::params::{check_cost, check_time, Rate};
use crate::snapshot::Snapshot;

pub(crate) mod sealed {
    use super::*;

    /// What a limiter module implements; see the [module docs](super).
    ///
    /// Methods taking `now` and `cost` are only called with validated input: `now`
    /// at or after [`Rule::last`], `1 ≤ cost ≤` [`Rule::capacity`].
    pub trait Rule {
        /// The state a request leaves behind (all of it, or only what changes).
        type Next;

        /// The validated rate (`limit` per `period_ms`), which is also the policy.
        fn rate(&self) -> Rate;

        /// The latest time this limiter has been asked about (0 before any request).
        fn last(&self) -> u64;

        /// The largest cost it can ever allow at once.
        fn capacity(&self) -> u64;

        /// The decision on a request, and the state it would leave.
        fn decide(&self, now: u64, cost: u32) -> (Self::Next, Decision);

        /// Stores what [`Rule::decide`] returned for a request at `now`.
        fn commit(&mut self, next: Self::Next, now: u64);

        /// Whether, at `now` (≥ last), it is indistinguishable from a new limiter for
        /// every later request.
        fn rests(&self, now: u64) -> bool;

        /// The trace row of a request ([`Limiter::explain`]).
        fn trace(&self, now: u64, cost: u32) -> Explanation;

        /// The state at `now` (≥ last) ([`Limiter::snapshot`]).
        fn state_at(&self, now: u64) -> Snapshot;

        /// How many numbers of state it keeps now ([`Limiter::state_numbers`]).
        fn numbers(&self) -> usize;
    }
}

pub(crate) use sealed::Rule;

/// A rate limiter for one key, on a virtual clock of integer milliseconds.
///
/// Implemented by every limiter of this crate and by [`crate::AnyLimiter`]; the
/// implementation is the one skeleton of this module (see its docs), so every
/// limiter validates, decides and records the same way.
pub trait Limiter {
    /// Decides on a request of `cost` at `now` and records it.
    ///
    /// Errors (nothing is recorded): `now` earlier than a previous call, a zero cost,
    /// or a cost larger than the limiter could ever allow at once.
    fn check(&mut self, now: u64, cost: u32) -> Result<Decision, CheckError>;

    /// What [`Limiter::check`] would decide, without recording anything.
    fn peek(&self, now: u64, cost: u32) -> Result<Decision, CheckError>;

    /// Why [`Limiter::check`] would decide what it would, as a trace-table row:
    /// state before, updates, the comparison with its numbers, verdict, state after.
    /// Recording nothing; call it before `check` to explain a request.
    fn explain(&self, now: u64, cost: u32) -> Result<Explanation, CheckError>;

    /// The state at `now` (lazy refills and expiries applied to the copy), for
    /// drawing. A `now` earlier than the last request shows the state as of then.
    fn snapshot(&self, now: u64) -> Snapshot;

    /// The quota advertised in `RateLimit-Policy`.
    fn policy(&self) -> Policy;

    /// Whether this limiter is indistinguishable from a new one for every request at
    /// or after `now` (so a keyed store may drop it without changing any decision).
    fn is_at_rest(&self, now: u64) -> bool;

    /// How many numbers of state it keeps now (1, 2, 3, or the log's length).
    fn state_numbers(&self) -> usize;

    /// [`Limiter::explain`] then [`Limiter::check`].
    fn check_explained(
        &mut self,
        now: u64,
        cost: u32,
    ) -> Result<(Decision, Explanation), CheckError> {
        let e = self.explain(now, cost)?;
        let d = self.check(now, cost)?;
        Ok((d, e))
    }

    /// The response a request of cost 1 arriving at `now` would get: status,
    /// `Retry-After`, `RateLimit-Policy`, `RateLimit`.
    fn headers(&self, now: u64) -> Result<Headers, CheckError> {
        Ok(self.peek(now, 1)?.headers(&self.policy()))
    }
}

/// Rejects time going backwards and costs the limiter cannot judge.
#[inline]
fn validate<R: Rule>(rule: &R, now: u64, cost: u32) -> Result<(), CheckError> {
    check_time(rule.last(), now)?;
    check_cost(cost, rule.capacity())
}

impl<R: Rule> Limiter for R {
    #[inline]
    fn check(&mut self, now: u64, cost: u32) -> Result<Decision, CheckError> {
        validate(self, now, cost)?;
        let (next, d) = self.decide(now, cost);
        self.commit(next, now);
        Ok(d)
    }

    #[inline]
    fn peek(&self, now: u64, cost: u32) -> Result<Decision, CheckError> {
        validate(self, now, cost)?;
        Ok(self.decide(now, cost).1)
    }

    fn explain(&self, now: u64, cost: u32) -> Result<Explanation, CheckError> {
        validate(self, now, cost)?;
        Ok(self.trace(now, cost))
    }

    fn snapshot(&self, now: u64) -> Snapshot {
        self.state_at(now.max(self.last()))
    }

    fn policy(&self) -> Policy {
        let rate = self.rate();
        Policy {
            limit: rate.limit(),
            window_ms: rate.period_ms(),
        }
    }

    fn is_at_rest(&self, now: u64) -> bool {
        self.rests(now.max(self.last()))
    }

    fn state_numbers(&self) -> usize {
        self.numbers()
    }
}

//! The sliding window counter's error, decision by decision: the estimate it
//! decided on beside the true count of the real sliding window, and whether the
//! decision was a wrong allow or a wrong block (the last column of the long
//! article's traces 3.3a–c, and what the page's counter lane will draw).
//!
//! Definitions (judged on the counter's own history, as lab D's judged table and the
//! article's traces do):
//!
//! - A request of cost `c` for key `k` arrives at `t`. Its **window** is `(t − W, t]`.
//! - Its **true count** is the sum of the costs of the requests of key `k` that this
//!   counter *itself allowed*, earlier in the stream, at a time `s` with
//!   `t − W < s ≤ t` (earlier requests at the same millisecond count; the request
//!   itself does not).
//! - Its **estimate** is the counter's `prev · (1 − elapsed) + curr` just before the
//!   decision, an exact fraction with denominator W ([`ratelab_core::Amount`]). The
//!   counter allows iff `estimate + c − 1 < N` (for `c = 1`: `estimate < N`).
//! - The exact rule (a sliding log on the same history) would allow iff
//!   `true count + c ≤ N`.
//! - A **wrong allow**: the counter allowed, the exact rule would not
//!   (`true count + c > N`; for `c = 1`: the window already held N or more).
//! - A **wrong block**: the counter refused, the exact rule would allow
//!   (`true count + c ≤ N`; for `c = 1`: fewer than N in the window).
//!
//! Because the true count follows the counter's own admissions, one mistake does not
//! change what is judged next (unlike lab D's second table, where an independent
//! sliding log follows its own history).
//!
//! ```
//! use ratelab_sim::counter_error::{counter_marks, Mark};
//! use ratelab_sim::{scenario, Overrides, ScenarioId};
//!
//! // The golden stream, 5 per 10 s: the counter wrongly allows 10.1 s and 15 s.
//! let config = scenario(ScenarioId::Golden, &Overrides::default())?;
//! let lane = config.lanes.iter().position(|l| l.id == "sliding_window_counter").unwrap();
//! let marks = counter_marks(&config, lane)?;
//! assert_eq!(marks[6].true_count, 5);
//! assert_eq!(marks[6].estimate.to_string(), "4.95");
//! assert_eq!(marks[6].mark, Mark::WrongAllow);
//! assert_eq!(marks[10].mark, Mark::WrongAllow);
//! assert_eq!(marks.iter().filter(|m| m.mark != Mark::Right).count(), 2);
//! # Ok::<(), ratelab_sim::SimError>(())
//! ```

use std::collections::{BTreeMap, VecDeque};

use ratelab_core::{Algorithm, Amount, Keyed, Limiter, Snapshot};

use crate::config::Config;
use crate::cost::Budget;
use crate::error::SimError;
use crate::lane::LaneSpec;

/// How a decision compares with the exact rule on the same history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// The counter decided as the exact count would.
    Right,
    /// Allowed although the window already held too many.
    WrongAllow,
    /// Refused although the window had room.
    WrongBlock,
}

impl Mark {
    /// `wrong allow`, `wrong block`, or empty when right: the trace's column.
    pub fn label(self) -> &'static str {
        match self {
            Mark::Right => "",
            Mark::WrongAllow => "wrong allow",
            Mark::WrongBlock => "wrong block",
        }
    }
}

/// One decision of a sliding window counter, beside the real window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CounterMark {
    /// The estimate it decided on (`prev · (1 − elapsed) + curr`, before the
    /// request), exactly.
    pub estimate: Amount,
    /// The costs it allowed for this key in `(t − W, t]` before this request.
    pub true_count: u64,
    /// Its decision.
    pub allowed: bool,
    /// Right, or which way it was wrong.
    pub mark: Mark,
}

/// Judges a counter's decisions one at a time, keeping per key the admissions still
/// inside the window (at most what the window can hold: memory follows the keys
/// and the limit, not the stream's length).
#[derive(Clone, Debug)]
pub struct CounterJudge {
    limit: u64,
    window_ms: u64,
    /// Per key: the admissions in the window (time, cost), oldest first, and their
    /// summed cost.
    keys: BTreeMap<u32, (VecDeque<(u64, u32)>, u64)>,
}

impl CounterJudge {
    /// A judge for a counter of `limit` per `window_ms`.
    pub fn new(limit: u64, window_ms: u64) -> CounterJudge {
        CounterJudge {
            limit,
            window_ms,
            keys: BTreeMap::new(),
        }
    }

    /// Judges the counter's decision on a request (key `key`, at `t`, of `cost`),
    /// made on `estimate`; requests must come in stream order.
    pub fn judge(
        &mut self,
        key: u32,
        t: u64,
        cost: u32,
        estimate: Amount,
        allowed: bool,
    ) -> CounterMark {
        let (admitted, sum) = self.keys.entry(key).or_default();
        // Out of the window: s ≤ t − W (written without a subtraction that could go
        // below zero).
        while let Some(&(s, c)) = admitted.front() {
            if u128::from(s) + u128::from(self.window_ms) > u128::from(t) {
                break;
            }
            admitted.pop_front();
            *sum -= u64::from(c);
        }
        let true_count = *sum;
        let exact_allows = true_count.saturating_add(u64::from(cost)) <= self.limit;
        let mark = match (allowed, exact_allows) {
            (true, false) => Mark::WrongAllow,
            (false, true) => Mark::WrongBlock,
            _ => Mark::Right,
        };
        if allowed {
            admitted.push_back((t, cost));
            *sum += u64::from(cost);
        }
        CounterMark {
            estimate,
            true_count,
            allowed,
            mark,
        }
    }
}

/// Lane `lane` of `config` (a sliding window counter) run over the stream, each
/// decision with its estimate, the true count and its mark, in stream order. The
/// decisions are the engine's (the same as [`crate::run`]'s). Refused with one line
/// if the lane is not a sliding window counter or the run is over [`Budget::RUN`].
pub fn counter_marks(config: &Config, lane: usize) -> Result<Vec<CounterMark>, SimError> {
    config.validate()?;
    let at = format!("limiters[{lane}]");
    let spec: &LaneSpec = config
        .lanes
        .get(lane)
        .ok_or_else(|| SimError::at(&at, "no such limiter"))?;
    if spec.algorithm != Algorithm::SlidingWindowCounter {
        return Err(SimError::at(
            &at,
            format_args!(
                "{} is not a sliding window counter (only its decisions rest on an estimate)",
                spec.algorithm.id()
            ),
        ));
    }
    crate::cost::run_cost(config).check(&Budget::RUN)?;
    let proto = spec.build().map_err(|e| SimError::param(&at, &e))?;
    let r = spec.resolved();
    let mut judge = CounterJudge::new(r.limit, r.period_ms);
    let mut keyed = Keyed::new(proto);
    let stream = &config.stream;
    let mut out = Vec::with_capacity(stream.requests.len());
    for (i, req) in stream.requests.iter().enumerate() {
        let key = stream.key_name(req.key).unwrap_or("");
        let estimate = match keyed.get(key).snapshot(req.t) {
            Snapshot::SlidingWindowCounter { estimate, .. } => estimate,
            _ => Amount::whole(0),
        };
        let d = keyed
            .check(key, req.t, req.cost)
            .map_err(|e| SimError::check(i, lane, &spec.id, &e))?;
        out.push(judge.judge(req.key, req.t, req.cost, estimate, d.allowed()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::Stream;

    fn counter(times: &[u64]) -> Config {
        Config::new(
            Stream::from_times(times.iter().copied()),
            vec![LaneSpec::simple(Algorithm::SlidingWindowCounter, 5, 10_000)],
            None,
        )
    }

    #[test]
    fn the_articles_traces_3_3b_and_3_3c() {
        // 3.3b: late in the previous window → the estimate is low → wrong allows at
        // 12, 14, 15 and 17 s (true counts 5, 6, 7, 8).
        let b = counter(&[
            9000, 9200, 9400, 9600, 9800, 12_000, 14_000, 15_000, 16_000, 17_000,
        ]);
        let m = counter_marks(&b, 0).unwrap();
        let wrong: Vec<(usize, u64)> = m
            .iter()
            .enumerate()
            .filter(|(_, m)| m.mark == Mark::WrongAllow)
            .map(|(i, m)| (i, m.true_count))
            .collect();
        assert_eq!(wrong, [(5, 5), (6, 6), (7, 7), (9, 8)]);
        assert_eq!(m[8].estimate, Amount::whole(5));
        assert!(!m[8].allowed && m[8].mark == Mark::Right);
        // 3.3c: early → high → wrong blocks at 13 and 14 s with 2 in the window.
        let c = counter(&[
            200, 400, 600, 800, 1000, 12_000, 12_500, 13_000, 14_000, 16_000,
        ]);
        let m = counter_marks(&c, 0).unwrap();
        let wrong: Vec<(usize, u64)> = m
            .iter()
            .enumerate()
            .filter(|(_, m)| m.mark == Mark::WrongBlock)
            .map(|(i, m)| (i, m.true_count))
            .collect();
        assert_eq!(wrong, [(7, 2), (8, 2)]);
        assert_eq!(m[7].estimate, Amount::new(55_000, 10_000));
        assert!(m.iter().all(|m| m.mark != Mark::WrongAllow));
    }

    #[test]
    fn only_a_counter_lane_and_bounded_by_the_window() {
        let mut c = counter(&[0]);
        c.lanes[0].algorithm = Algorithm::SlidingLog;
        assert_eq!(
            counter_marks(&c, 0).unwrap_err().to_string(),
            "limiters[0]: sliding_log is not a sliding window counter (only its decisions rest on an estimate)"
        );
        assert_eq!(
            counter_marks(&c, 3).unwrap_err().to_string(),
            "limiters[3]: no such limiter"
        );
        // A request exactly W after an admission no longer counts it; one before does.
        let mut j = CounterJudge::new(1, 10);
        assert_eq!(j.judge(0, 5, 1, Amount::whole(0), true).true_count, 0);
        assert_eq!(j.judge(0, 14, 1, Amount::whole(1), false).true_count, 1);
        assert_eq!(j.judge(0, 15, 1, Amount::whole(0), true).true_count, 0);
        // Another key has its own window.
        assert_eq!(j.judge(1, 15, 1, Amount::whole(0), true).true_count, 0);
        // Cost: 1 in the window, a request of cost 2 against N = 2 does not fit.
        let mut j = CounterJudge::new(2, 10);
        j.judge(0, 0, 1, Amount::whole(0), true);
        assert_eq!(
            j.judge(0, 1, 2, Amount::whole(1), true).mark,
            Mark::WrongAllow
        );
    }
}

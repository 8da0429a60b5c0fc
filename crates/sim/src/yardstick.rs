//! The shared yardstick: the numbers every face shows for a lane, computed in one
//! pass, request by request, so that the runner and the live timeline agree.

use core::mem::size_of;
use std::collections::VecDeque;

use crate::stream::Request;
use ratelab_core::Ms;

/// One request as some decider saw it: what the yardstick needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decided {
    /// Allowed (possibly after `wait`)?
    pub allowed: bool,
    /// The exact wait of an allowed request (ignored when denied).
    pub wait: Ms,
    /// How many numbers of state the request's key held after it.
    pub state_numbers: usize,
}

/// Width of a histogram bucket: allowed requests are counted per 10 s of arrival time.
pub const HISTOGRAM_BUCKET_MS: u64 = 10_000;

/// The histogram covers the first 24 h of the clock (8 640 buckets of 10 s), so that
/// a stream with a huge time in it cannot make a huge histogram. Requests after that
/// still count everywhere else.
pub const HISTOGRAM_MAX_BUCKETS: usize = 8_640;

/// The yardstick of one lane over a stream.
///
/// Counts of *allowed* traffic are weighted by cost (a request of cost 3 counts 3), so
/// that they compare directly with the limit; with cost 1 everywhere (the scenarios)
/// they are plain request counts. `passed` and `blocked` count requests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Yardstick {
    /// Requests allowed (possibly after a wait).
    pub passed: u64,
    /// Requests denied.
    pub blocked: u64,
    /// The most allowed in any window `(t − W, t]`, per key, by arrival time; the
    /// maximum over keys.
    pub max_in_window: u64,
    /// Where that busiest window is: the arrival time `t` of the allowed request at
    /// which [`Yardstick::max_in_window`] was first reached, so the window is
    /// `(t − W, t]`. `None` while nothing was allowed. (Not in the JSON output: the
    /// playground uses it to highlight the window.)
    pub max_in_window_end: Option<u64>,
    /// W of that window, in ms.
    pub window_ms: u64,
    /// The same over windows of 1 s.
    pub max_in_1s: u64,
    /// For the delaying limiters (leaky queue, nginx): the most allowed in any window
    /// `(t − W, t]` by departure time (arrival + exact wait). `None` for the others,
    /// whose departures are their arrivals.
    pub max_in_window_departures: Option<u64>,
    /// The longest wait, rounded up to whole ms (0 for limiters that never delay).
    pub longest_wait_ms: u64,
    /// Allowed per 10 s of arrival time: bucket k covers `[10k s, 10(k + 1) s)`, from
    /// 0 up to the last request's bucket (at most [`HISTOGRAM_MAX_BUCKETS`]).
    pub histogram_10s: Vec<u64>,
    /// Distinct keys that sent at least one request.
    pub keys: u64,
    /// The most numbers of state any key's limiter held after any request
    /// ([`ratelab_core::Limiter::state_numbers`]).
    pub state_numbers: u64,
    /// The longest wait, exact.
    pub longest_wait: Ms,
}

/// A point on the clock that can fall out of a window.
pub(crate) trait Point: Copy + Ord {
    /// Whether `self` is outside `(now − w, now]`, i.e. `self + w ≤ now`.
    fn expired(self, now: Self, w: u64) -> bool;
}

impl Point for u64 {
    #[inline]
    fn expired(self, now: u64, w: u64) -> bool {
        self as u128 + w as u128 <= now as u128
    }
}

impl Point for Ms {
    #[inline]
    fn expired(self, now: Ms, w: u64) -> bool {
        let f = self.0;
        let shifted = f
            .num()
            .saturating_add((w as u128).saturating_mul(f.den() as u128));
        Ms::scaled(shifted, f.den()) <= now
    }
}

/// The allowed traffic of one key inside a sliding window, and its running sum.
#[derive(Clone, Debug)]
pub(crate) struct Slide<P> {
    /// `(global request index, point, cost)`, oldest first.
    q: VecDeque<(u64, P, u32)>,
    sum: u64,
}

impl<P> Default for Slide<P> {
    fn default() -> Slide<P> {
        Slide {
            q: VecDeque::new(),
            sum: 0,
        }
    }
}

impl<P: Point> Slide<P> {
    /// Adds an allowed request at `p` and returns the sum inside `(p − w, p]`.
    #[inline]
    pub(crate) fn push(&mut self, index: u64, p: P, cost: u32, w: u64) -> u64 {
        // Points arrive in order (arrivals are sorted; departures of the leaky queue
        // and nginx are monotone per key, see the crate docs). Clamping keeps the
        // window correct-by-construction should that ever not hold.
        let p = match self.q.back() {
            Some(&(_, last, _)) if p < last => last,
            _ => p,
        };
        while let Some(&(_, front, c)) = self.q.front() {
            if !front.expired(p, w) {
                break;
            }
            self.sum -= c as u64;
            self.q.pop_front();
        }
        self.q.push_back((index, p, cost));
        self.sum += cost as u64;
        self.sum
    }

    /// How many points it holds.
    pub(crate) fn len(&self) -> usize {
        self.q.len()
    }

    /// Forgets points of requests before `index` (compaction in the timeline).
    fn forget_before(&mut self, index: u64) {
        while let Some(&(i, _, c)) = self.q.front() {
            if i >= index {
                break;
            }
            self.sum -= c as u64;
            self.q.pop_front();
        }
    }
}

/// Per-key sliding windows.
/// Bytes of one point in a window by arrival (index, time, cost): what
/// [`crate::cost`] counts per allowed request kept in a window.
pub(crate) const ARRIVAL_POINT_BYTES: u64 = size_of::<(u64, u64, u32)>() as u64;

/// The same by departure (an exact time).
pub(crate) const DEPARTURE_POINT_BYTES: u64 = size_of::<(u64, Ms, u32)>() as u64;

/// Bytes of a key's windows in a meter, besides their points.
pub(crate) const KEY_WINDOW_BYTES: u64 = size_of::<KeyWindows>() as u64;

#[derive(Clone, Debug, Default)]
struct KeyWindows {
    seen: bool,
    window: Slide<u64>,
    second: Slide<u64>,
    departures: Slide<Ms>,
}

/// The running totals at one request: what the yardstick reads for the stream cut
/// just after it. The timeline keeps one per request and lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Prefix {
    pub passed: u64,
    /// Allowed cost units so far (for partial histogram buckets).
    pub units: u64,
    pub max_in_window: u64,
    /// `(t, key)` of the request at which `max_in_window` was first reached.
    pub max_at: Option<(u64, u32)>,
    pub max_in_1s: u64,
    pub max_departures: u64,
    pub longest_wait: Ms,
    pub keys: u64,
    pub state_numbers: u64,
}

impl Prefix {
    pub const ZERO: Prefix = Prefix {
        passed: 0,
        units: 0,
        max_in_window: 0,
        max_at: None,
        max_in_1s: 0,
        max_departures: 0,
        longest_wait: Ms::ZERO,
        keys: 0,
        state_numbers: 0,
    };
}

/// Computes the yardstick incrementally, one decided request at a time.
#[derive(Clone, Debug)]
pub(crate) struct Meter {
    window_ms: u64,
    delays: bool,
    keys: Vec<KeyWindows>,
    count: u64,
    now: Prefix,
    histogram: Vec<u64>,
}

impl Meter {
    pub fn new(window_ms: u64, delays: bool) -> Meter {
        Meter {
            window_ms,
            delays,
            keys: Vec::new(),
            count: 0,
            now: Prefix::ZERO,
            histogram: Vec::new(),
        }
    }

    /// Records request number `index`: whether it was allowed, its exact wait, and
    /// how many numbers of state its key's limiter holds after it.
    #[inline]
    pub fn record(&mut self, index: u64, r: &Request, wait: Option<Ms>, state_numbers: usize) {
        let k = r.key as usize;
        if k >= self.keys.len() {
            self.keys.resize_with(k + 1, KeyWindows::default);
        }
        let Some(kw) = self.keys.get_mut(k) else {
            return;
        };
        let now = &mut self.now;
        self.count += 1;
        if !kw.seen {
            kw.seen = true;
            now.keys += 1;
        }
        now.state_numbers = now.state_numbers.max(state_numbers as u64);
        let bucket = r.t / HISTOGRAM_BUCKET_MS;
        if bucket < HISTOGRAM_MAX_BUCKETS as u64 && bucket as usize >= self.histogram.len() {
            self.histogram.resize(bucket as usize + 1, 0);
        }
        let Some(wait) = wait else {
            return;
        };
        let cost = r.cost;
        now.passed += 1;
        now.units += cost as u64;
        if let Some(h) = self.histogram.get_mut(bucket as usize) {
            *h += cost as u64;
        }
        let in_window = kw.window.push(index, r.t, cost, self.window_ms);
        if in_window > now.max_in_window {
            now.max_in_window = in_window;
            now.max_at = Some((r.t, r.key));
        }
        let in_second = kw.second.push(index, r.t, cost, 1000);
        now.max_in_1s = now.max_in_1s.max(in_second);
        if self.delays {
            let w = wait.0;
            let departure = Ms::scaled(
                (r.t as u128)
                    .saturating_mul(w.den() as u128)
                    .saturating_add(w.num()),
                w.den(),
            );
            let n = kw.departures.push(index, departure, cost, self.window_ms);
            now.max_departures = now.max_departures.max(n);
            now.longest_wait = now.longest_wait.max(wait);
        }
    }

    /// The window W of `max_in_window`.
    pub fn window_ms(&self) -> u64 {
        self.window_ms
    }

    /// The running totals now.
    pub fn prefix(&self) -> Prefix {
        self.now
    }

    /// The histogram so far.
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }

    /// The yardstick for the stream cut at `prefix` (after `count` requests) with
    /// `histogram`.
    pub fn yardstick_of(&self, prefix: &Prefix, count: u64, histogram: Vec<u64>) -> Yardstick {
        Yardstick {
            passed: prefix.passed,
            blocked: count - prefix.passed.min(count),
            max_in_window: prefix.max_in_window,
            max_in_window_end: prefix.max_at.map(|(t, _)| t),
            window_ms: self.window_ms,
            max_in_1s: prefix.max_in_1s,
            max_in_window_departures: self.delays.then_some(prefix.max_departures),
            longest_wait_ms: prefix.longest_wait.ceil_ms(),
            histogram_10s: histogram,
            keys: prefix.keys,
            state_numbers: prefix.state_numbers,
            longest_wait: prefix.longest_wait,
        }
    }

    /// The yardstick of everything recorded.
    pub fn yardstick(&self) -> Yardstick {
        self.yardstick_of(&self.now, self.count, self.histogram.clone())
    }

    /// Forgets the window contents of requests before `index`: after compaction a
    /// window reaching back past the retained history counts only what is retained.
    pub fn forget_before(&mut self, index: u64) {
        for k in &mut self.keys {
            k.window.forget_before(index);
            k.second.forget_before(index);
            k.departures.forget_before(index);
        }
    }

    /// Numbers held: window entries, histogram buckets, keys.
    pub fn stored_items(&self) -> usize {
        self.histogram.len()
            + self
                .keys
                .iter()
                .map(|k| 1 + k.window.q.len() + k.second.q.len() + k.departures.q.len())
                .sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(m: &mut Meter, times: &[(u64, Option<u64>)]) {
        for (i, &(t, wait)) in times.iter().enumerate() {
            m.record(i as u64, &Request::at(t), wait.map(Ms::from_ms), 1);
        }
    }

    #[test]
    fn windows_are_half_open() {
        let mut m = Meter::new(1000, false);
        feed(&mut m, &[(0, Some(0)), (999, Some(0)), (1000, Some(0))]);
        // (0, 1000] holds 999 and 1000 only; [0, 999] holds 2 as well.
        assert_eq!(m.prefix().max_in_window, 2);
        // First reached at 999: the window (−1, 999].
        assert_eq!(m.prefix().max_at, Some((999, 0)));
        let y = m.yardstick();
        assert_eq!((y.passed, y.blocked, y.histogram_10s), (3, 0, vec![3]));
    }

    #[test]
    fn departures_count_where_requests_leave() {
        let mut m = Meter::new(1000, true);
        // Three at once, leaving 0, 500 and 1000 ms later: at most 2 in any 1 s by
        // departure, 3 by arrival.
        feed(
            &mut m,
            &[(0, Some(0)), (0, Some(500)), (0, Some(1000)), (0, None)],
        );
        let y = m.yardstick();
        assert_eq!(y.max_in_window, 3);
        assert_eq!(y.max_in_window_departures, Some(2));
        assert_eq!((y.longest_wait_ms, y.blocked), (1000, 1));
    }

    #[test]
    fn a_huge_time_makes_no_huge_histogram() {
        let mut m = Meter::new(1000, false);
        feed(&mut m, &[(0, Some(0)), (u64::MAX / 2, Some(0))]);
        assert_eq!(m.histogram().len(), 1);
        assert_eq!(m.prefix().passed, 2);
    }
}

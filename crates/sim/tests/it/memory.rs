//! Hours of use: an hour of virtual time of each scenario's traffic style, at a high
//! rate, through a live [`Timeline`] with every algorithm as a lane, keeps memory
//! bounded. Memory is *counted*, not timed: [`Timeline::stored_items`] (requests,
//! outcomes, window entries, histogram buckets, key table, and limiter state in
//! numbers, live and in every checkpoint) and `SlidingLog::stored_entries`.
//!
//! The bound, with `R = retain + checkpoint_every` requests kept, `L` lanes, `K`
//! keys, `C` checkpoints per lane (at most `retain / checkpoint_every + 2`), `s` the
//! most numbers one key's limiter holds (3, N for the sliding log, the requests of
//! one window for the teaching log) and `H` histogram buckets per lane (one per 10 s
//! of the clock, at most 8 640):
//!
//! ```text
//! stored_items ≤ R · (1 + 4L) + L · (C + 1) · K · s + K + L · H
//! ```
//!
//! It does not grow with the number of requests: past `R` the oldest history is
//! compacted away. Each test also checks that the count stops growing: its high-water
//! mark over the second half of the hour is within 5 % of the first half's (random
//! traffic can set a slightly higher peak later; a leak would double it).
#![cfg(not(target_arch = "wasm32"))]

use ratelab_core::{Algorithm, AnyLimiter, Keyed, Limiter};
use ratelab_sim::scenario::{burst_then_drip, edge_burst, twice_the_rate};
use ratelab_sim::timeline::MAX_CHECKPOINTS;
use ratelab_sim::traffic::Poisson;
use ratelab_sim::{LaneSpec, Request, Stream, Timeline, TimelineLimits, HISTOGRAM_BUCKET_MS};

const HOUR_MS: u64 = 3_600_000;

/// Every algorithm as a lane at `limit` per `period_ms` (nginx with a burst, delayed).
fn all_lanes(limit: u64, period_ms: u64) -> Vec<LaneSpec> {
    Algorithm::ALL
        .into_iter()
        .map(|a| {
            let l = LaneSpec::simple(a, limit, period_ms);
            if a == Algorithm::Nginx {
                l.with_burst(limit)
            } else {
                l
            }
        })
        .collect()
}

/// `one` (a scenario's stream) again and again, every `every` ms, for an hour.
fn looped(one: &Stream, every: u64) -> Stream {
    let mut s = Stream::new();
    let mut offset = 0;
    while offset < HOUR_MS {
        s.requests.extend(one.requests.iter().map(|r| Request {
            t: r.t + offset,
            ..*r
        }));
        offset += every;
    }
    s
}

/// The most requests one key sends inside any window `(t − w, t]`.
fn max_per_key_in_window(s: &Stream, w: u64) -> usize {
    let mut best = 0;
    for key in 0..s.keys.len() as u32 {
        let times: Vec<u64> = s
            .requests
            .iter()
            .filter(|r| r.key == key)
            .map(|r| r.t)
            .collect();
        let mut start = 0;
        for (end, &t) in times.iter().enumerate() {
            while times[start] + w <= t {
                start += 1;
            }
            best = best.max(end + 1 - start);
        }
    }
    best
}

/// Pushes `stream` through every algorithm for its hour and checks the bound, that
/// the count stops growing, and that every sliding log holds at most N entries.
fn an_hour_of(style: &str, stream: &Stream, limit: u64, period_ms: u64) {
    let lanes = all_lanes(limit, period_ms);
    let l = lanes.len();
    let limits = TimelineLimits::DEFAULT;
    let mut tl = Timeline::with_limits(lanes.clone(), None, limits).unwrap();
    // The same lanes outside the timeline, to look inside the live sliding logs.
    let mut logs: Vec<(u64, Keyed<AnyLimiter>)> = lanes
        .iter()
        .filter(|s| {
            matches!(
                s.algorithm,
                Algorithm::SlidingLog | Algorithm::SlidingLogLogsBlocked
            )
        })
        .map(|s| (s.params.limit, Keyed::new(s.build().unwrap())))
        .collect();

    let k = stream.keys.len();
    let r = limits.retain + limits.checkpoint_every;
    let c = (limits.retain / limits.checkpoint_every + 2).min(MAX_CHECKPOINTS);
    let s = (limit as usize)
        .max(3)
        .max(max_per_key_in_window(stream, period_ms));
    let last = stream.requests.last().unwrap().t;
    let h = (last / HISTOGRAM_BUCKET_MS) as usize + 1;
    let bound = r * (1 + 4 * l) + l * (c + 1) * k * s + k + l * h;

    let n = stream.len();
    let (mut first_half, mut second_half) = (0, 0);
    let ids: Vec<u32> = stream
        .keys
        .iter()
        .map(|name| tl.key_id(name).unwrap())
        .collect();
    for (i, req) in stream.requests.iter().enumerate() {
        tl.push(Request {
            key: ids[req.key as usize],
            ..*req
        })
        .unwrap();
        let name = &stream.keys[req.key as usize];
        for (limit, log) in &mut logs {
            log.check(name, req.t, req.cost).unwrap();
            if let AnyLimiter::SlidingLog(sl) = log.get(name) {
                if !sl.logs_blocked() {
                    assert!(
                        sl.stored_entries() as u64 <= *limit,
                        "{style}: the log holds more than N"
                    );
                }
            }
        }
        // Counting costs what is stored; sample it (and at the end).
        if i % 997 == 0 || i + 1 == n {
            let items = tl.stored_items();
            assert!(
                items <= bound,
                "{style}: {items} stored items > {bound} after {i} requests"
            );
            if i < n / 2 {
                first_half = first_half.max(items);
            } else {
                second_half = second_half.max(items);
            }
        }
    }
    assert!(
        n > 2 * r,
        "{style}: {n} requests do not reach compaction twice"
    );
    assert!(
        second_half * 100 <= first_half * 105,
        "{style}: memory kept growing: {first_half} stored items in the first half hour, {second_half} in the second"
    );
    assert!(tl.retained().end - tl.retained().start <= r as u64);
    // The teaching log is bounded by the traffic of one window, not by N.
    for (_, log) in &logs {
        for (_, l) in log.iter() {
            assert!(l.state_numbers() <= s, "{style}");
        }
    }
    eprintln!(
        "{style}: {n} requests, {k} keys, {l} lanes: at most {second_half} stored items (bound {bound})"
    );
}

#[test]
fn an_hour_of_twice_the_rate_looped() {
    // 20 per second against 10 per second: 72 000 requests in the hour.
    let one = twice_the_rate(10, 1_000).unwrap();
    an_hour_of("2x-rate", &looped(&one, 3_000), 10, 1_000);
}

#[test]
fn an_hour_of_edge_bursts_looped() {
    let one = edge_burst(10, 1_000).unwrap();
    // A burst of 2N around every boundary: 72 000 requests in the hour.
    an_hour_of("edge-burst", &looped(&one, 1_000), 10, 1_000);
}

#[test]
fn an_hour_of_burst_then_drip_looped() {
    let one = burst_then_drip(10, 500).unwrap();
    an_hour_of("burst-then-drip", &looped(&one, 2_000), 10, 500);
}

#[test]
fn an_hour_of_keyed_poisson_traffic() {
    // 12 clients, each at twice 10 per 10 s: about 86 000 requests.
    let s = Poisson {
        clients: 12,
        load_permille: 2_000,
        limit: 10,
        period_ms: 10_000,
        duration_ms: HOUR_MS,
        seed: 8,
    }
    .stream()
    .unwrap();
    an_hour_of("poisson keyed", &s, 10, 10_000);
}

//! Every guarantee of SPEC.md, over random streams and parameters.
//!
//! `PROPTEST_CASES` raises the case count for a longer run (the default here is
//! what the test command can afford on two cores).

use proptest::prelude::*;
use ratelab_core::{
    Algorithm, AnyLimiter, CheckError, Decision, Gcra, Keyed, LeakyQueue, Limiter, Nginx, Params,
    Rate, SlidingLog, TokenBucket,
};

/// Sorted times (ms) with many ties: deltas of 0 are common, as with a page firing
/// several requests at once.
fn stream(max_len: usize, max_gap: u64) -> impl Strategy<Value = Vec<u64>> {
    prop::collection::vec(
        prop_oneof![3 => Just(0u64), 5 => 0..max_gap, 1 => 0..max_gap * 20],
        0..max_len,
    )
    .prop_map(|deltas| {
        let mut t = 0u64;
        deltas
            .into_iter()
            .map(|d| {
                t += d;
                t
            })
            .collect()
    })
}

fn rate() -> impl Strategy<Value = (u64, u64)> {
    // Small limits and periods make collisions and boundaries frequent.
    (1u64..12, prop_oneof![1u64..50, 50u64..5000])
}

fn allowed_times<L: Limiter>(l: &mut L, times: &[u64]) -> Vec<u64> {
    times
        .iter()
        .filter(|&&t| l.check(t, 1).unwrap().allowed())
        .copied()
        .collect()
}

/// Max count of `times` (sorted) in any half-open window `(t − w, t]`.
fn max_in_window(times: &[u64], w: u64) -> usize {
    let mut start = 0;
    let mut best = 0;
    for (end, &t) in times.iter().enumerate() {
        while times[start] as u128 + w as u128 <= t as u128 {
            start += 1;
        }
        best = best.max(end + 1 - start);
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(400)
    ))]

    /// Sliding log: never more than N allowed in any window of length W.
    #[test]
    fn sliding_log_never_exceeds_n_in_any_window((n, w) in rate(), times in stream(200, 40)) {
        let mut l = SlidingLog::new(Rate::new(n, w).unwrap());
        let allowed = allowed_times(&mut l, &times);
        prop_assert!(max_in_window(&allowed, w) as u64 <= n);
        prop_assert!(l.stored_entries() as u64 <= n);
    }

    /// Fixed window: never more than 2N in any window of length W (and N per aligned one).
    #[test]
    fn fixed_window_at_most_2n((n, w) in rate(), times in stream(200, 40)) {
        for alg in [Algorithm::FixedWindow, Algorithm::FixedWindowAnchored] {
            let mut l = AnyLimiter::new(alg, &Params::new(n, w)).unwrap();
            let allowed = allowed_times(&mut l, &times);
            prop_assert!(max_in_window(&allowed, w) as u64 <= 2 * n, "{}", alg.id());
        }
    }

    /// Token bucket and GCRA: never more than b + r·T in any interval of length T.
    #[test]
    fn buckets_allow_at_most_b_plus_rt((n, w) in rate(), b in 1u64..10, times in stream(200, 40)) {
        let r = Rate::new(n, w).unwrap();
        for allowed in [
            allowed_times(&mut TokenBucket::new(r, b).unwrap(), &times),
            allowed_times(&mut Gcra::new(r, b).unwrap(), &times),
        ] {
            // The densest interval of length T starts and ends at allowed requests:
            // count · period ≤ b · period + limit · T, exactly.
            for i in 0..allowed.len() {
                for j in i..allowed.len() {
                    let count = (j - i + 1) as u128;
                    let span = (allowed[j] - allowed[i]) as u128;
                    prop_assert!(count * w as u128 <= b as u128 * w as u128 + n as u128 * span);
                }
            }
        }
    }

    /// GCRA and the exact token bucket make identical decisions, with the same
    /// numbers, on every stream (costs included) for every parameter set.
    #[test]
    fn gcra_equals_token_bucket(
        (n, w) in rate(),
        b in 1u64..10,
        reqs in stream(200, 60).prop_flat_map(|ts| {
            let len = ts.len();
            (Just(ts), prop::collection::vec(1u32..4, len))
        }),
    ) {
        let r = Rate::new(n, w).unwrap();
        let mut tb = TokenBucket::new(r, b).unwrap();
        let mut g = Gcra::new(r, b).unwrap();
        let (times, costs) = reqs;
        for (&t, &c) in times.iter().zip(&costs) {
            let c = c.min(b as u32);
            let a: Decision = tb.check(t, c).unwrap();
            let e: Decision = g.check(t, c).unwrap();
            prop_assert_eq!(a, e, "at {} ms, cost {}", t, c);
        }
    }

    /// nginx `nodelay` equals GCRA with burst + 1 (for rates nginx represents exactly:
    /// whole requests per second).
    #[test]
    fn nginx_nodelay_equals_gcra_burst_plus_one(
        per_second in 1u64..20,
        seconds in 1u64..4,
        burst in 0u64..8,
        times in stream(200, 400),
    ) {
        let r = Rate::new(per_second * seconds, 1000 * seconds).unwrap();
        let mut ngx = Nginx::new(r, burst, None).unwrap();
        let mut g = Gcra::new(r, burst + 1).unwrap();
        for &t in &times {
            prop_assert_eq!(ngx.check(t, 1).unwrap().allowed(), g.check(t, 1).unwrap().allowed(), "at {} ms", t);
        }
    }

    /// nginx without `nodelay`, on simultaneous arrivals (batches at once, on the
    /// ticks of its rate), equals the leaky queue with capacity burst + 1: same
    /// decisions, same waits.
    #[test]
    fn nginx_delay_equals_leaky_queue_on_simultaneous_arrivals(
        per_second in prop::sample::select(vec![1u64, 2, 4, 5, 8, 10, 20, 25, 40, 50]),
        burst in 0u64..8,
        batches in prop::collection::vec((0u64..5, 1usize..12), 1..12),
    ) {
        let r = Rate::new(per_second, 1000).unwrap();
        let gap = 1000 / per_second;
        let mut ngx = Nginx::new(r, burst, Some(0)).unwrap();
        let mut q = LeakyQueue::new(r, burst + 1).unwrap();
        let mut t = 0;
        for (ticks, size) in batches {
            t += ticks * gap;
            for _ in 0..size {
                let a = ngx.check(t, 1).unwrap();
                let b = q.check(t, 1).unwrap();
                prop_assert_eq!((a.allowed(), a.wait()), (b.allowed(), b.wait()), "at {} ms", t);
            }
        }
    }

    /// Leaky queue: departures at least `gap` apart; never more than `capacity` waiting.
    #[test]
    fn leaky_queue_spaces_departures((n, w) in rate(), cap in 1u64..8, times in stream(200, 40)) {
        let mut q = LeakyQueue::new(Rate::new(n, w).unwrap(), cap).unwrap();
        let mut departures: Vec<(u128, u128)> = vec![]; // (scaled departure, scaled arrival), unit 1/n ms
        for &t in &times {
            let d = q.check(t, 1).unwrap();
            let arrival = t as u128 * n as u128;
            if d.allowed() {
                // wait = num/den ms exactly; den divides n here (den is the limit).
                let wait_scaled = d.wait().0.num() * n as u128 / d.wait().0.den() as u128;
                departures.push((arrival + wait_scaled, arrival));
            }
            let waiting = departures.iter().filter(|(dep, _)| *dep > arrival).count();
            prop_assert!(waiting as u64 <= cap, "{} waiting at {} ms", waiting, t);
        }
        for pair in departures.windows(2) {
            prop_assert!(pair[1].0 - pair[0].0 >= w as u128, "departures closer than the gap");
        }
    }

    /// `peek` tells what `check` then does, and changes nothing; `explain` agrees.
    #[test]
    fn peek_and_explain_agree_with_check(
        alg in prop::sample::select(Algorithm::ALL.to_vec()),
        (n, w) in rate(),
        times in stream(120, 40),
    ) {
        let mut l = AnyLimiter::new(alg, &Params::new(n, w)).unwrap();
        for &t in &times {
            let before = l.clone();
            let p = l.peek(t, 1).unwrap();
            let e = l.explain(t, 1).unwrap();
            prop_assert_eq!(&l, &before);
            let d = l.check(t, 1).unwrap();
            prop_assert_eq!(p, d);
            prop_assert_eq!(e.test.holds, d.allowed());
        }
    }

    /// A denied request would pass at `now + ceil(retry_after)`, and not a millisecond
    /// earlier (nothing else arriving in between).
    #[test]
    fn retry_after_is_exact(
        alg in prop::sample::select(Algorithm::ALL[..8].to_vec()),
        (n, w) in rate(),
        burst in 0u64..6,
        times in stream(120, 40),
    ) {
        let params = Params { burst: Some(if alg == Algorithm::Nginx { burst } else { burst + 1 }), ..Params::new(n, w) };
        let mut l = AnyLimiter::new(alg, &params).unwrap();
        for &t in &times {
            let d = l.check(t, 1).unwrap();
            if !d.allowed() {
                let wait = d.retry_after().ceil_ms();
                prop_assert!(wait >= 1);
                prop_assert!(l.peek(t + wait, 1).unwrap().allowed(), "{} at {} + {}", alg.id(), t, wait);
                prop_assert!(!l.peek(t + wait - 1, 1).unwrap().allowed(), "{} at {} + {} − 1", alg.id(), t, wait);
            }
        }
    }

    /// `reset` says when `remaining` grows: by `now + ceil(reset)` more requests
    /// would pass than right after this one, and a millisecond earlier no more than
    /// that (nothing else arriving).
    #[test]
    fn remaining_grows_by_reset(
        alg in prop::sample::select(Algorithm::ALL[..8].to_vec()),
        (n, w) in rate(),
        burst in 0u64..6,
        times in stream(120, 40),
    ) {
        let params = Params { burst: Some(if alg == Algorithm::Nginx { burst } else { burst + 1 }), ..Params::new(n, w) };
        let mut l = AnyLimiter::new(alg, &params).unwrap();
        for &t in &times {
            let d = l.check(t, 1).unwrap();
            if !d.reset().is_zero() {
                let later = l.peek(t + d.reset().ceil_ms(), 1).unwrap();
                let passing = later.remaining() + later.allowed() as u64;
                prop_assert!(passing > d.remaining(), "{} at {} ms: {} then {} after {}", alg.id(), t, d.remaining(), passing, d.reset());
                let before = l.peek(t + d.reset().ceil_ms() - 1, 1).unwrap();
                let passing = before.remaining() + before.allowed() as u64;
                prop_assert_eq!(passing, d.remaining(), "{} at {} ms: grew before {}", alg.id(), t, d.reset());
            }
        }
    }

    /// On a 429, `RateLimit`'s `t` and `Retry-After` name the same moment, when the
    /// same request would pass, rounded up to seconds the same way, and so do
    /// `X-RateLimit-Reset` and the JSON body; no limiter advertises a later `t`
    /// (SPEC, "Beyond one process"). Every algorithm, costs above 1 included. The
    /// headers take `t` from the retry-after on a 429; what is checked per limiter
    /// is the decision's own `reset`: on a unit request's denial it is the
    /// retry-after, to the millisecond, for every exact limiter.
    #[test]
    fn a_429_names_one_moment(
        alg in prop::sample::select(Algorithm::ALL.to_vec()),
        (n, w) in rate(),
        burst in 0u64..6,
        reqs in stream(120, 40).prop_flat_map(|ts| {
            let len = ts.len();
            (Just(ts), prop::collection::vec(1u32..4, len))
        }),
    ) {
        let params = Params { burst: Some(if alg == Algorithm::Nginx { burst } else { burst + 1 }), ..Params::new(n, w) };
        let mut l = AnyLimiter::new(alg, &params).unwrap();
        // What each can allow at once: its burst (nginx: burst + 1), else N.
        let capacity = if alg.uses_burst() { burst + 1 } else { n };
        let (times, costs) = reqs;
        for (&t, &c) in times.iter().zip(&costs) {
            let c = c.min(capacity as u32);
            let d = l.check(t, c).unwrap();
            let h = d.headers(&l.policy());
            prop_assert_eq!(h.status == 429, !d.allowed());
            let Some(retry) = h.retry_after else { continue };
            let moment = d.retry_after().ceil_ms();
            prop_assert_eq!(retry, moment.div_ceil(1000).max(1), "{} at {} ms", alg.id(), t);
            prop_assert_eq!(&h.ratelimit, &format!("\"default\";r={};t={retry}", d.remaining()));
            prop_assert_eq!(h.reset, retry);
            let body = format!("{{\"error\": \"rate_limit_exceeded\", \"retry_after_seconds\": {retry}}}");
            prop_assert_eq!(h.body(), Some(body));
            if c == 1 && !alg.is_teaching() {
                prop_assert_eq!(d.reset().ceil_ms(), moment, "{} at {} ms: reset {} vs retry {}", alg.id(), t, d.reset(), d.retry_after());
            }
            if !alg.is_teaching() {
                // The moment is right: the same request passes then, and not before.
                prop_assert!(l.peek(t + moment, c).unwrap().allowed(), "{} at {} + {}", alg.id(), t, moment);
                prop_assert!(!l.peek(t + moment - 1, c).unwrap().allowed(), "{} at {} + {} − 1", alg.id(), t, moment);
            }
        }
    }

    /// A limiter at rest behaves exactly like a new one from then on, so a keyed store
    /// that evicts keys at rest decides exactly as one that keeps everything.
    #[test]
    fn evicting_keys_at_rest_changes_no_decision(
        alg in prop::sample::select(Algorithm::ALL.to_vec()),
        (n, w) in rate(),
        reqs in stream(300, 30).prop_flat_map(|ts| {
            let len = ts.len();
            (Just(ts), prop::collection::vec(0u8..4, len))
        }),
    ) {
        let proto = AnyLimiter::new(alg, &Params::new(n, w)).unwrap();
        let mut keep = Keyed::new(proto.clone());
        let mut evict = Keyed::new(proto);
        let (times, keys) = reqs;
        for (i, (&t, k)) in times.iter().zip(keys).enumerate() {
            let key = ["a", "b", "c", "d"][k as usize];
            if i % 7 == 0 {
                evict.evict_at_rest(t);
            }
            prop_assert_eq!(keep.check(key, t, 1).unwrap(), evict.check(key, t, 1).unwrap());
        }
    }

    /// No panic for any input: extreme parameters, times and costs give values or
    /// errors, from every method.
    #[test]
    fn no_panic_on_extreme_input(
        alg in prop::sample::select(Algorithm::ALL.to_vec()),
        limit in prop_oneof![Just(0u64), Just(1), Just(u32::MAX as u64), Just(u32::MAX as u64 + 1), Just(u64::MAX), any::<u64>()],
        period in prop_oneof![Just(0u64), Just(1), Just(u32::MAX as u64), Just((1u64 << 53) - 1), Just(1u64 << 53), Just(u64::MAX), any::<u64>()],
        burst in prop::option::of(prop_oneof![Just(0u64), Just(1), Just(u32::MAX as u64), Just(u64::MAX), any::<u64>()]),
        delay in prop::option::of(prop_oneof![Just(0u64), Just(u32::MAX as u64), Just(u64::MAX)]),
        nodelay in any::<bool>(),
        reqs in prop::collection::vec(
            (prop_oneof![Just(0u64), Just(1), Just(u64::MAX - 1), Just(u64::MAX), any::<u64>()],
             prop_oneof![Just(0u32), Just(1), Just(u32::MAX), any::<u32>()]),
            0..20),
    ) {
        let params = Params { limit, period_ms: period, burst, delay, nodelay };
        let Ok(mut l) = AnyLimiter::new(alg, &params) else { return Ok(()) };
        let mut last = 0;
        for (t, cost) in reqs {
            let _ = l.peek(t, cost);
            let _ = l.explain(t, cost).map(|e| e.to_string());
            let _ = l.headers(t);
            let _ = l.snapshot(t);
            let _ = l.is_at_rest(t);
            match l.check(t, cost) {
                Ok(d) => {
                    prop_assert!(t >= last);
                    last = t;
                    let _ = (d.remaining(), d.retry_after().ceil_secs(), d.reset().ceil_secs(), d.wait().to_string());
                }
                Err(CheckError::TimeWentBackwards { previous, now }) => prop_assert!(now < previous),
                Err(_) => {}
            }
        }
    }
}

#[test]
fn max_in_window_helper_is_half_open() {
    assert_eq!(max_in_window(&[0, 999, 1000], 1000), 2);
    assert_eq!(max_in_window(&[0, 0, 0], 1), 3);
}

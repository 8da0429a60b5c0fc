//! The service model's properties (SPEC's "Beyond one process"), over random
//! clients, retry policies, limits, instances and outages.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use ratelab_core::{Algorithm, AnyLimiter, Keyed, Params};
use ratelab_sim::service::*;
use ratelab_sim::{Config, LaneSpec, ScenarioId};

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200)
}

/// Sorted times with many equal ones (a page firing several requests at once).
fn arb_times(max_len: usize) -> impl Strategy<Value = Vec<u64>> {
    prop::collection::vec(0u64..1500, 1..max_len).prop_map(|gaps| {
        let mut t = 0;
        gaps.into_iter()
            .map(|g| {
                t += g.saturating_sub(700);
                t
            })
            .collect()
    })
}

/// The eight real limiters (the teaching variants are wrong on purpose).
fn arb_real_lane() -> impl Strategy<Value = LaneSpec> {
    (
        prop::sample::select(Algorithm::ALL[..8].to_vec()),
        2u64..6,
        prop_oneof![1u64..50, 50u64..3000],
        prop::option::of(2u64..6),
        prop::option::of(0u64..4),
        any::<bool>(),
    )
        .prop_map(|(algorithm, limit, period_ms, burst, delay, nodelay)| {
            let nginx = algorithm == Algorithm::Nginx;
            LaneSpec::new(
                algorithm,
                Params {
                    limit,
                    period_ms,
                    burst: if algorithm.uses_burst() { burst } else { None },
                    delay: if nginx && !nodelay { delay } else { None },
                    nodelay: nginx && nodelay,
                },
            )
        })
}

fn arb_backoff() -> impl Strategy<Value = (Backoff, u32)> {
    prop_oneof![
        Just((Backoff::None, 1)),
        (2u32..5).prop_map(|n| (Backoff::Immediately, n)),
        (0u64..2000, 2u32..5).prop_map(|(d, n)| (Backoff::Fixed { delay_ms: d }, n)),
        (1u64..500, 2u32..6).prop_map(|(b, n)| (
            Backoff::Exponential {
                base_ms: b,
                cap_ms: b * 8
            },
            n
        )),
        (1u64..500, 2u32..6).prop_map(|(b, n)| (
            Backoff::FullJitter {
                base_ms: b,
                cap_ms: b * 8
            },
            n
        )),
        (0u64..3000, 2u32..6).prop_map(|(j, n)| (Backoff::RetryAfter { jitter_ms: j }, n)),
    ]
}

fn client(name: &str, times: Vec<u64>, (backoff, n): (Backoff, u32)) -> ClientSpec {
    ClientSpec::new(name, Demand::Times(times)).with_retry(RetryPolicy::new(backoff, n))
}

/// Labels lanes `l0`, `l1`, ... so that stacked limits have distinct ids.
fn limits(lanes: Vec<LaneSpec>, key: KeyMode) -> Vec<LimitSpec> {
    lanes
        .into_iter()
        .enumerate()
        .map(|(i, l)| LimitSpec::new(l.with_id(format!("l{i}")), key))
        .collect()
}

fn service(clients: Vec<ClientSpec>, limits: Vec<LimitSpec>) -> ServiceSpec {
    ServiceSpec::new("s", clients, limits, 60_000)
}

/// What one limiter alone promises in any window of length `w` of its own period:
/// `None` where the promise is not a count in a window (the estimate, the delaying
/// limiters).
fn bound(lane: &LaneSpec) -> Option<u64> {
    let n = lane.params.limit;
    match lane.algorithm {
        Algorithm::SlidingLog => Some(n),
        Algorithm::FixedWindow | Algorithm::FixedWindowAnchored => Some(2 * n),
        // b + r·W with W the period: b + N.
        Algorithm::TokenBucket | Algorithm::Gcra => Some(lane.params.burst_for(lane.algorithm) + n),
        _ => None,
    }
}

/// The most of `times` (sorted) in any window `(t − w, t]`.
fn max_in_window(times: &[u64], w: u64) -> u64 {
    let mut start = 0;
    let mut best = 0;
    for (end, &t) in times.iter().enumerate() {
        while times[start] + w <= t {
            start += 1;
        }
        best = best.max(end + 1 - start);
    }
    best as u64
}

fn allowed_times(r: &ServiceReport, keep: impl Fn(&Attempt) -> bool) -> Vec<u64> {
    r.attempts
        .iter()
        .filter(|a| a.allowed && keep(a))
        .map(|a| a.t)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// A lone client that honours Retry-After (with or without jitter) never gets a
    /// second refusal for the same request while nothing else arrives: whenever its
    /// retry is the very next attempt the service sees, it passes. Stacked limits,
    /// several instances sharing one store, any real limiter.
    #[test]
    fn a_lone_client_honouring_retry_after_is_never_refused_twice(
        times in arb_times(40),
        lanes in prop::collection::vec(arb_real_lane(), 1..4),
        jitter in prop_oneof![Just(0u64), 0u64..3000],
        attempts in 2u32..6,
        instances in 1u32..4,
    ) {
        let c = client("alone", times, (Backoff::RetryAfter { jitter_ms: jitter }, attempts));
        let s = ServiceSpec { instances, ..service(vec![c], limits(lanes, KeyMode::Client)) };
        let r = run_service(&s, "").unwrap();
        for (i, a) in r.attempts.iter().enumerate() {
            if let Some(j) = a.retry {
                if j as usize == i + 1 {
                    prop_assert!(r.attempts[j as usize].allowed, "attempt {} (retry of {}): {:?}", j, i, r.attempts[j as usize]);
                }
            }
        }
    }

    /// M instances with local limiters admit, per key, at most M times one limiter's
    /// bound in any window (whatever the balancing and the retries); sharing one store
    /// they admit one bound.
    #[test]
    fn local_instances_admit_at_most_m_bounds(
        lane in arb_real_lane().prop_filter("a count bound", |l| bound(l).is_some()),
        demand in prop::collection::vec((arb_times(60), arb_backoff()), 1..4),
        instances in 1u32..5,
        random in any::<bool>(),
        shared in any::<bool>(),
    ) {
        let clients = demand.into_iter().enumerate().map(|(i, (t, b))| client(&format!("c{i}"), t, b)).collect();
        let s = ServiceSpec {
            instances,
            balancing: if random { Balancing::Random } else { Balancing::RoundRobin },
            store: if shared { Store::Shared } else { Store::Local },
            ..service(clients, limits(vec![lane.clone()], KeyMode::Client))
        };
        let r = run_service(&s, "").unwrap();
        let m = if shared { 1 } else { instances as u64 };
        let one = bound(&lane).unwrap();
        let w = lane.params.period_ms;
        for c in 0..s.clients.len() as u32 {
            let allowed = allowed_times(&r, |a| a.client == c);
            prop_assert!(max_in_window(&allowed, w) <= m * one, "client {}: {} > {} × {}", c, max_in_window(&allowed, w), m, one);
            if matches!(lane.algorithm, Algorithm::TokenBucket | Algorithm::Gcra) {
                // The exact form for any interval T: count · W ≤ M · (b · W + N · T).
                let b = lane.params.burst_for(lane.algorithm) as u128;
                for i in 0..allowed.len() {
                    for j in i..allowed.len() {
                        let count = (j - i + 1) as u128;
                        let span = (allowed[j] - allowed[i]) as u128;
                        prop_assert!(count * w as u128 <= m as u128 * (b * w as u128 + lane.params.limit as u128 * span));
                    }
                }
            }
        }
    }

    /// During an outage of the shared store: fail-closed admits nothing (503s),
    /// fail-open admits everything unchecked, and the fallback admits, per instance
    /// and key, at most its own limiter's bound in any window.
    #[test]
    fn outages_follow_their_policy(
        lane in arb_real_lane(),
        fallback in arb_real_lane().prop_filter("a count bound", |l| bound(l).is_some()),
        demand in prop::collection::vec((arb_times(60), arb_backoff()), 1..4),
        spans in prop::collection::vec((0u64..3000, 1u64..3000), 1..4),
        policy in 0u8..3,
        instances in 1u32..4,
    ) {
        let clients = demand.into_iter().enumerate().map(|(i, (t, b))| client(&format!("c{i}"), t, b)).collect();
        let mut at = 0;
        let outages: Vec<Span> = spans.into_iter().map(|(gap, len)| {
            let from_ms = at + gap;
            at = from_ms + len;
            Span { from_ms, to_ms: at }
        }).collect();
        let on_outage = match policy {
            0 => OnOutage::FailOpen,
            1 => OnOutage::FailClosed,
            _ => OnOutage::Fallback(Box::new(LimitSpec::new(fallback.clone().with_id("fallback"), KeyMode::Client))),
        };
        let s = ServiceSpec {
            instances,
            outages: outages.clone(),
            on_outage: on_outage.clone(),
            ..service(clients, limits(vec![lane], KeyMode::Client))
        };
        let r = run_service(&s, "").unwrap();
        let down = |t: u64| outages.iter().any(|o| o.contains(t));
        for a in &r.attempts {
            let expected = match (&on_outage, down(a.t)) {
                (_, false) => Decider::Limits,
                (OnOutage::FailOpen, true) => Decider::FailOpen,
                (OnOutage::FailClosed, true) => Decider::FailClosed,
                (OnOutage::Fallback(_), true) => Decider::Fallback,
            };
            prop_assert_eq!(a.decider, expected, "{:?}", a);
            match a.decider {
                Decider::FailOpen => prop_assert!(a.allowed),
                Decider::FailClosed => prop_assert!(!a.allowed && a.status() == 503 && a.retry_after_s.is_none()),
                _ => {}
            }
        }
        if let OnOutage::Fallback(f) = &on_outage {
            let one = bound(&f.lane).unwrap();
            for m in 0..instances {
                for c in 0..s.clients.len() as u32 {
                    let allowed = allowed_times(&r, |a| a.decider == Decider::Fallback && a.instance == m && a.client == c);
                    prop_assert!(max_in_window(&allowed, f.lane.params.period_ms) <= one);
                }
            }
        }
    }

    /// Per-client keys: one client's decisions do not depend on anyone else's traffic.
    /// Client 0 alone, and with others of any demand and retry policy, sees the same
    /// decisions (shared store; the stores' outages fail open or closed).
    #[test]
    fn one_clients_traffic_never_changes_anothers_decisions(
        lanes in prop::collection::vec(arb_real_lane(), 1..3),
        per_route in any::<bool>(),
        mine in (arb_times(40), arb_backoff()),
        others in prop::collection::vec((arb_times(40), arb_backoff()), 1..4),
        instances in 1u32..4,
        random in any::<bool>(),
        outage in prop::option::of((0u64..3000, 1u64..3000, any::<bool>())),
    ) {
        let key = if per_route { KeyMode::ClientRoute } else { KeyMode::Client };
        let routes = vec![Route::new("a"), Route::new("b")];
        let me = client("me", mine.0, mine.1).with_routes(vec![(0, 2), (1, 1)]);
        let mut everyone = vec![me.clone()];
        everyone.extend(others.into_iter().enumerate().map(|(i, (t, b))| {
            client(&format!("other-{i}"), t, b).with_routes(vec![(1, 1)])
        }));
        let base = ServiceSpec {
            routes,
            instances,
            balancing: if random { Balancing::Random } else { Balancing::RoundRobin },
            outages: outage.iter().map(|&(from_ms, len, _)| Span { from_ms, to_ms: from_ms + len }).collect(),
            on_outage: if outage.is_some_and(|o| o.2) { OnOutage::FailClosed } else { OnOutage::FailOpen },
            ..service(vec![me], limits(lanes, key))
        };
        let crowded = ServiceSpec { clients: everyone, ..base.clone() };
        // Client 0's attempts, without the indices and instances others shift.
        let view = |r: &ServiceReport| -> Vec<Attempt> {
            r.attempts
                .iter()
                .filter(|a| a.client == 0)
                .map(|a| Attempt { original: 0, retry: None, instance: 0, ..*a })
                .collect()
        };
        let alone = run_service(&base, "").unwrap();
        let together = run_service(&crowded, "").unwrap();
        prop_assert_eq!(view(&alone), view(&together));
    }

    /// Stacked limits admit exactly the requests every limit alone would admit given
    /// the same admitted history: replaying only the admitted attempts into each
    /// limit on its own, each attempt passes the stack iff every limit that applies
    /// to its route would pass it, and the refusal names exactly those that would not.
    #[test]
    fn stacked_limits_admit_what_every_limit_alone_would(
        lanes in prop::collection::vec(arb_real_lane(), 2..5),
        filters in prop::collection::vec(prop::option::of(prop::sample::subsequence(vec![0u32, 1], 1..=2)), 4),
        demand in prop::collection::vec((arb_times(50), arb_backoff()), 1..3),
        global in any::<bool>(),
    ) {
        let key = if global { KeyMode::Global } else { KeyMode::Client };
        let mut stack = limits(lanes, key);
        for (l, f) in stack.iter_mut().zip(filters) {
            l.routes = f;
        }
        let clients = demand.into_iter().enumerate().map(|(i, (t, b))| {
            client(&format!("c{i}"), t, b).with_routes(vec![(0, 1), (1, 1)])
        }).collect();
        let s = ServiceSpec {
            routes: vec![Route::new("a"), Route::new("b")],
            ..service(clients, stack.clone())
        };
        let r = run_service(&s, "").unwrap();
        let mut alone: Vec<Keyed<AnyLimiter>> = stack.iter().map(|l| Keyed::new(l.lane.build().unwrap())).collect();
        for a in &r.attempts {
            let k = if global { String::new() } else { a.client.to_string() };
            let mut refused = 0u16;
            for (i, (l, spec)) in alone.iter().zip(&stack).enumerate() {
                if spec.applies_to(a.route) && !l.peek(&k, a.t, 1).unwrap().allowed() {
                    refused |= 1 << i;
                }
            }
            prop_assert_eq!(a.allowed, refused == 0, "{:?}", a);
            prop_assert_eq!(a.denied_by, refused);
            if a.allowed {
                for (l, spec) in alone.iter_mut().zip(&stack) {
                    if spec.applies_to(a.route) {
                        l.check(&k, a.t, 1).unwrap();
                    }
                }
            }
        }
    }

    /// Attempts link up: each retry follows its request's previous attempt, arrives
    /// no earlier, has the next attempt number, the same client and route, and the
    /// same first try; nothing goes past max_attempts.
    #[test]
    fn retries_link_to_their_original(
        lane in arb_real_lane(),
        demand in prop::collection::vec((arb_times(50), arb_backoff()), 1..4),
    ) {
        let clients: Vec<ClientSpec> = demand.into_iter().enumerate().map(|(i, (t, b))| client(&format!("c{i}"), t, b)).collect();
        let s = service(clients, limits(vec![lane], KeyMode::Global));
        let r = run_service(&s, "").unwrap();
        let y = &r.yardstick;
        prop_assert_eq!(y.offered as usize, r.attempts.len());
        prop_assert_eq!(y.goodput.first_try + y.goodput.after_retry + y.goodput.gave_up, y.demand);
        for (i, a) in r.attempts.iter().enumerate() {
            prop_assert!(a.attempt <= s.clients[a.client as usize].retry.max_attempts);
            if a.attempt == 1 {
                prop_assert_eq!(a.original as usize, i);
            }
            if let Some(j) = a.retry {
                prop_assert!(!a.allowed);
                let b = &r.attempts[j as usize];
                prop_assert!(j as usize > i && b.t >= a.t);
                prop_assert_eq!((b.attempt, b.client, b.route, b.original), (a.attempt + 1, a.client, a.route, a.original));
            }
        }
    }

    /// What the playground says follows an attempt is what the run did: done when
    /// allowed, the retry the engine sent, or (refused, no retry) gave up at its
    /// last attempt or never retried; the requests that end refused are the
    /// yardstick's "gave up". Also with a timeline that dropped its oldest attempts.
    #[test]
    fn what_follows_an_attempt_is_what_the_run_did(
        lane in arb_real_lane(),
        demand in prop::collection::vec((arb_times(50), arb_backoff()), 1..4),
        retain in 1usize..40,
    ) {
        let clients: Vec<ClientSpec> = demand.into_iter().enumerate().map(|(i, (t, b))| client(&format!("c{i}"), t, b)).collect();
        let s = service(clients, limits(vec![lane], KeyMode::Global));
        let r = run_service(&s, "").unwrap();
        let whole = ServiceTimeline::with_limits(std::slice::from_ref(&s), ServiceTimelineLimits { retain: usize::MAX / 2, chunk: 1 }).unwrap();
        let cut = ServiceTimeline::with_limits(std::slice::from_ref(&s), ServiceTimelineLimits { retain, chunk: 3 }).unwrap();
        let mut ended_refused = 0;
        for (i, a) in r.attempts.iter().enumerate() {
            let policy = s.clients[a.client as usize].retry;
            let want = match (a.allowed, a.retry) {
                (true, _) => AfterAttempt::Done,
                (false, Some(j)) => AfterAttempt::Retried(u64::from(j)),
                (false, None) if policy.backoff == Backoff::None => AfterAttempt::NeverRetries,
                (false, None) => {
                    prop_assert_eq!(a.attempt, policy.max_attempts);
                    AfterAttempt::GaveUp
                }
            };
            if matches!(want, AfterAttempt::GaveUp | AfterAttempt::NeverRetries) {
                ended_refused += 1;
            }
            prop_assert_eq!(whole.after(0, i as u64), Some(want));
            let held = cut.retained(0).contains(&(i as u64));
            prop_assert_eq!(cut.after(0, i as u64), held.then_some(want));
        }
        prop_assert_eq!(ended_refused, r.yardstick.goodput.gave_up);
        prop_assert_eq!(whole.after(0, r.attempts.len() as u64), None);
        prop_assert_eq!(whole.after(1, 0), None);
    }
}

#[test]
fn the_scenarios_show_their_lessons() {
    let run = |id: &str| {
        let id = ScenarioId::from_id(id).unwrap();
        run_services(&service_scenario(id, 1).unwrap()).unwrap()
    };

    // Three instances with local counters really allow three times the limit, in a
    // window of its period; sharing one store, the limit.
    let r = run("instances");
    let maxima: Vec<u64> = r.iter().map(|l| l.yardstick.max_in_window).collect();
    assert_eq!(maxima[0], 30, "round robin reaches M × N");
    assert!(maxima[1] <= 30);
    assert_eq!(maxima[2], 10);

    // The noisy neighbour: per-client keys leave the quiet clients alone.
    let r = run("noisy-neighbour");
    let quiet_429 =
        |l: &ServiceReport| -> u64 { l.yardstick.clients[..4].iter().map(|c| c.status_429).sum() };
    assert_eq!(quiet_429(&r[0]), 0);
    assert!(quiet_429(&r[1]) > 100);

    // The retry storm: retrying at once amplifies the most and gets nothing through.
    let r = run("retry-storm");
    let amp: Vec<u64> = r
        .iter()
        .map(|l| l.yardstick.amplification_permille)
        .collect();
    assert!(amp[0] > amp[1] && amp[1] > amp[2], "{amp:?}");
    assert_eq!(r[0].yardstick.goodput.after_retry, 0);
    assert_eq!(r[2].yardstick.goodput.gave_up, 0);

    // The outage: open lets all through, closed none, the fallback its budget.
    let r = run("store-outage");
    let during = |l: &ServiceReport| {
        l.attempts
            .iter()
            .filter(|a| (20_000..40_000).contains(&a.t) && a.allowed)
            .count()
    };
    let demand_during = r[0]
        .attempts
        .iter()
        .filter(|a| (20_000..40_000).contains(&a.t))
        .count();
    assert_eq!(during(&r[0]), demand_during);
    assert_eq!(during(&r[1]), 0);
    assert!(during(&r[2]) > 0 && during(&r[2]) < demand_during);

    // Stacked limits: the stack holds both promises, and names who refused.
    let r = run("stacked-limits");
    let s = &r[2].yardstick;
    assert!(s.max_in_1s <= 10 && s.max_in_window <= 100);
    assert!(s.denied_by.iter().all(|d| d.count > 0), "{:?}", s.denied_by);
}

#[test]
fn a_run_is_the_same_every_time_and_depends_on_the_seed() {
    let storm =
        |seed| run_services(&service_scenario(ScenarioId::RetryStorm, seed).unwrap()).unwrap();
    let (a, b, c) = (storm(1), storm(1), storm(2));
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn retries_cannot_grow_the_stream_past_the_cap() {
    // 110 000 requests at once against 1 per hour, each retried 19 times at once:
    // 2.2 million attempts. The run stops at the cap with a message.
    let c = ClientSpec::new(
        "c",
        Demand::PageLoads {
            size: 110_000,
            at_ms: vec![0],
        },
    )
    .with_retry(RetryPolicy::new(Backoff::Immediately, 20));
    let limit = LimitSpec::new(
        LaneSpec::simple(Algorithm::FixedWindow, 1, 3_600_000),
        KeyMode::Global,
    );
    let s = service(vec![c], vec![limit]);
    let e = run_service(&s, "services[0]").unwrap_err();
    assert_eq!(
        e.as_str(),
        "services[0]: the retries would make more than 2000000 requests (by t = 0 ms, from a demand of 110000); lower max_attempts, the demand or duration_ms"
    );
}

#[test]
fn bad_services_get_one_line_with_a_path() {
    let ok = || {
        service(
            vec![ClientSpec::new("c", Demand::Times(vec![0, 5]))],
            limits(
                vec![LaneSpec::simple(Algorithm::Gcra, 5, 1000)],
                KeyMode::Client,
            ),
        )
    };
    let err = |f: &dyn Fn(&mut ServiceSpec)| {
        let mut s = ok();
        f(&mut s);
        run_service(&s, "services[1]").unwrap_err().to_string()
    };
    type Case = (Box<dyn Fn(&mut ServiceSpec)>, &'static str);
    let cases: Vec<Case> = vec![
        (
            Box::new(|s| s.clients = (0..1001).map(|i| ClientSpec::new(format!("c{i}"), Demand::Times(vec![0]))).collect()),
            "services[1].clients: 1001 clients is too many (at most 1000)",
        ),
        (
            Box::new(|s| s.instances = 65),
            "services[1].instances: 65 is too many (at most 64)",
        ),
        (
            Box::new(|s| s.instances = 0),
            "services[1].instances: must be > 0",
        ),
        (
            Box::new(|s| s.clients[0].retry = RetryPolicy::new(Backoff::Immediately, 21)),
            "services[1].clients[0].retry.max_attempts: 21 is too many (at most 20)",
        ),
        (
            Box::new(|s| s.clients[0].retry = RetryPolicy::new(Backoff::None, 3)),
            "services[1].clients[0].retry.max_attempts: the policy \"none\" makes one attempt",
        ),
        (
            Box::new(|s| {
                s.outages = (0..33)
                    .map(|i| Span {
                        from_ms: 10 * i,
                        to_ms: 10 * i + 5,
                    })
                    .collect()
            }),
            "services[1].outages: 33 spans is too many (at most 32)",
        ),
        (
            Box::new(|s| {
                s.store = Store::Local;
                s.outages = vec![Span { from_ms: 0, to_ms: 5 }];
            }),
            "services[1].outages: only a shared store can be down (store is \"local\")",
        ),
        (
            Box::new(|s| s.outages = vec![Span { from_ms: 0, to_ms: 50 }, Span { from_ms: 40, to_ms: 60 }]),
            "services[1].outages[1].from_ms: 40 comes before outages[0].to_ms = 50 (spans must be sorted and apart)",
        ),
        (
            Box::new(|s| s.outages = vec![Span { from_ms: 7, to_ms: 7 }]),
            "services[1].outages[0].to_ms: must be after from_ms = 7",
        ),
        (
            Box::new(|s| s.clients[0].demand = vec![Demand::Times(vec![5, 3])]),
            "services[1].clients[0].demand[0].times[1]: 3 comes before times[0] = 5 (times must be sorted)",
        ),
        (
            Box::new(|s| {
                s.clients[0].demand = vec![Demand::Poisson {
                    rate: 1_000_000,
                    per_ms: 1,
                    from_ms: 0,
                    until_ms: None,
                }]
            }),
            "services[1].clients: the demand would make about 60000000000 requests, more than 2000000 (lower the clients, their rates or duration_ms)",
        ),
        (
            Box::new(|s| s.limits[0].lane.params.period_ms = 0),
            "services[1].limits[0].period_ms: must be > 0",
        ),
        (
            Box::new(|s| s.routes[0].cost = 9),
            "services[1].routes[0].cost: 9 is more than services[1].limits[0] (id \"l0\") can ever allow at once (5), so a request to \"api\" could never pass",
        ),
        (
            Box::new(|s| s.clients[0].routes = vec![(3, 1)]),
            "services[1].clients[0].routes[0]: route 3 is not one of the service's 1 routes",
        ),
        (
            Box::new(|s| {
                s.clients[0].retry = RetryPolicy::new(
                    Backoff::Exponential {
                        base_ms: 100,
                        cap_ms: 10,
                    },
                    3,
                )
            }),
            "services[1].clients[0].retry.cap_ms: must be at least base_ms = 100",
        ),
    ];
    for (f, expected) in cases {
        assert_eq!(err(&*f), expected);
    }
    let too_many = vec![ok(); MAX_SERVICES + 1];
    assert_eq!(
        run_services(&too_many).unwrap_err().to_string(),
        "services: 9 services is too many (at most 8)"
    );
    assert_eq!(
        run_services(&[ok(), ok()]).unwrap_err().to_string(),
        "services[1].id: duplicate id \"s\""
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// A service written in the input format reads back to the same service.
    #[test]
    fn services_round_trip_through_json(
        lanes in prop::collection::vec(arb_real_lane(), 1..3),
        demand in prop::collection::vec((arb_times(8), arb_backoff()), 1..4),
        copies in 1usize..4,
        instances in 1u32..4,
        local in any::<bool>(),
        outage in prop::option::of((0u64..3000, 1u64..3000)),
        policy in 0u8..3,
        export_cost in 1u32..3,
    ) {
        let mut clients = Vec::new();
        for (i, (t, b)) in demand.into_iter().enumerate() {
            // Runs of `g{i}-0`, `g{i}-1`, ... alike: written once with a count.
            for k in 0..copies {
                clients.push(client(&format!("g{i}-{k}"), t.clone(), b).with_routes(vec![(0, 3), (1, 1)]));
            }
        }
        clients.push(ClientSpec {
            demand: vec![
                Demand::Poisson { rate: 3, per_ms: 1000, from_ms: 5, until_ms: Some(900) },
                Demand::Bursts { size: 3, spacing_ms: 10, every_ms: Some(400), from_ms: 0, until_ms: None },
                Demand::PageLoads { size: 4, at_ms: vec![100, 700] },
            ],
            ..client("mixed-07", vec![], (Backoff::None, 1))
        });
        let mut stack = limits(lanes.clone(), KeyMode::ClientRoute);
        stack[0].routes = Some(vec![1]);
        let shared = !local || outage.is_some();
        let s = ServiceSpec {
            routes: vec![Route::new("read"), Route { name: "export".into(), cost: export_cost }],
            instances,
            store: if shared { Store::Shared } else { Store::Local },
            balancing: Balancing::Random,
            outages: outage.iter().map(|&(f, l)| Span { from_ms: f, to_ms: f + l }).collect(),
            on_outage: match policy {
                0 => OnOutage::FailOpen,
                1 => OnOutage::FailClosed,
                _ => OnOutage::Fallback(Box::new(LimitSpec::new(lanes[0].clone().with_id("fb"), KeyMode::Global))),
            },
            window_ms: Some(777),
            seed: 9,
            ..service(clients, stack)
        };
        // Only services the model accepts (route costs within every limit).
        prop_assume!(s.validate("").is_ok());
        let config = Config::services(vec![s]);
        let text = config.to_json();
        let back = Config::from_json(&text).unwrap();
        prop_assert_eq!(back.services, config.services, "{}", text);
    }
}

#[test]
fn every_service_scenario_round_trips_and_runs_through_json() {
    for id in ScenarioId::ALL.into_iter().filter(|s| s.is_service()) {
        let config = ratelab_sim::scenario(id, &Default::default()).unwrap();
        let text = config.to_json();
        let back = Config::from_json(&text).unwrap();
        assert_eq!(back.services, config.services, "{id}");
        // The scenario and its explicit form give the same services, attempt by
        // attempt.
        let by_id = ratelab_sim::simulate_json(&format!(r#"{{"scenario": "{id}"}}"#)).unwrap();
        let by_text = ratelab_sim::simulate_json(&text).unwrap();
        let services = |s: &str| -> serde_json::Value {
            serde_json::from_str::<serde_json::Value>(s).unwrap()["services"].clone()
        };
        assert_eq!(services(&by_id), services(&by_text), "{id}");
        assert!(
            text.len() < 4_000,
            "{id}: the export groups clients ({} bytes)",
            text.len()
        );
    }
}

//! An hour of a busy service, in every traffic and retry style, through the
//! playground's [`ServiceTimeline`]: what it holds stays under the bound of its
//! module docs and does not grow with the length of the run. Counted, not timed.
#![cfg(not(target_arch = "wasm32"))]

use ratelab_core::Algorithm;
use ratelab_sim::service::*;
use ratelab_sim::LaneSpec;

const HOUR_MS: u64 = 3_600_000;

/// One lane's bound, from its spec and its yardstick's longest wait and latency.
fn bound(spec: &ServiceSpec, y: &ServiceYardstick, limits: ServiceTimelineLimits) -> usize {
    let seconds = y.per_second.offered.len().min(PER_SECOND_MAX_BUCKETS);
    limits.retain
        + limits.chunk
        + spec.clients.len()
        + spec.routes.len()
        + spec.instances as usize
        + spec.limits.len()
        + 4 * seconds
        + y.wait_ms.max.map_or(0, |m| m as usize + 1)
        + y.latency_ms.max.map_or(0, |m| m as usize + 1)
}

/// Busy services, `duration_ms` long: Poisson clients retrying in each way, page
/// loads, several local instances, outages with a fallback, a queue that delays.
fn busy(duration_ms: u64) -> Vec<ServiceSpec> {
    let limit = |a, n, p| LimitSpec::new(LaneSpec::simple(a, n, p), KeyMode::Client);
    let clients = |backoff, n| -> Vec<ClientSpec> {
        (0..4)
            .map(|i| {
                ClientSpec::new(
                    format!("c{i}"),
                    Demand::Poisson {
                        rate: 15,
                        per_ms: 1000,
                        from_ms: 0,
                        until_ms: None,
                    },
                )
                .with_retry(RetryPolicy::new(backoff, n))
            })
            .collect()
    };
    let base = |id: &str, backoff, n| {
        ServiceSpec::new(
            id,
            clients(backoff, n),
            vec![limit(Algorithm::TokenBucket, 10, 1000)],
            duration_ms,
        )
    };
    let page_loads = ServiceSpec::new(
        "page loads",
        (0..5)
            .map(|i| {
                ClientSpec::new(
                    format!("u{i}"),
                    Demand::Bursts {
                        size: 12,
                        spacing_ms: 0,
                        every_ms: Some(1_500 + 100 * i),
                        from_ms: 0,
                        until_ms: None,
                    },
                )
                .with_retry(RetryPolicy::new(
                    Backoff::FullJitter {
                        base_ms: 100,
                        cap_ms: 5_000,
                    },
                    5,
                ))
            })
            .collect(),
        vec![limit(Algorithm::SlidingLog, 20, 1000)],
        duration_ms,
    );
    let outages = ServiceSpec {
        instances: 3,
        outages: (0..30)
            .map(|k| Span {
                from_ms: k * duration_ms / 30,
                to_ms: k * duration_ms / 30 + duration_ms / 180,
            })
            .collect(),
        on_outage: OnOutage::Fallback(Box::new(limit(Algorithm::FixedWindow, 5, 1000))),
        ..base("outages", Backoff::RetryAfter { jitter_ms: 500 }, 3)
    };
    vec![
        base("at once", Backoff::Immediately, 5),
        base("retry after", Backoff::RetryAfter { jitter_ms: 2_000 }, 4),
        ServiceSpec {
            instances: 4,
            store: Store::Local,
            balancing: Balancing::Random,
            ..base(
                "local",
                Backoff::Exponential {
                    base_ms: 50,
                    cap_ms: 2_000,
                },
                4,
            )
        },
        page_loads,
        outages,
        ServiceSpec {
            limits: vec![LimitSpec::new(
                LaneSpec::simple(Algorithm::LeakyQueue, 10, 1000).with_burst(20),
                KeyMode::Client,
            )],
            ..base("queue", Backoff::Fixed { delay_ms: 300 }, 3)
        },
    ]
}

#[test]
fn an_hour_of_a_busy_service_stays_under_the_bound() {
    let limits = ServiceTimelineLimits::DEFAULT;
    let half = ServiceTimeline::with_limits(&busy(HOUR_MS / 2), limits).unwrap();
    let hour = ServiceTimeline::with_limits(&busy(HOUR_MS), limits).unwrap();
    let mut total_bound = 0;
    for lane in 0..hour.lane_count() {
        let (spec, y) = (hour.spec(lane).unwrap(), hour.yardstick(lane).unwrap());
        // Far more attempts than are kept: the bound is doing work.
        assert!(
            y.offered > 5 * limits.retain as u64,
            "{}: {}",
            spec.id,
            y.offered
        );
        let kept = hour.retained(lane);
        assert!((kept.end - kept.start) as usize <= limits.retain + limits.chunk);
        assert!((kept.end - kept.start) as usize >= limits.retain);
        assert_eq!(kept.end, y.offered);
        // Half the run keeps as many attempts: nothing grows with the run's length.
        let half_kept = half.retained(lane);
        assert!(
            (half_kept.end - half_kept.start).abs_diff(kept.end - kept.start)
                <= limits.chunk as u64
        );
        total_bound += bound(spec, y, limits);
    }
    let stored = hour.stored_items();
    assert!(stored <= total_bound, "{stored} > {total_bound}");
    // The attempts dominate; the yardsticks add little (per-second series, clients).
    assert!(
        stored < hour.lane_count() * (limits.retain + limits.chunk) + 6 * 4 * 3_600 + 10_000,
        "{stored}"
    );
}

#[test]
fn retried_links_survive_inside_the_kept_history() {
    let limits = ServiceTimelineLimits {
        retain: 1_000,
        chunk: 100,
    };
    let t = ServiceTimeline::with_limits(&busy(120_000), limits).unwrap();
    for lane in 0..t.lane_count() {
        let kept = t.retained(lane);
        let full = run_service(t.spec(lane).unwrap(), "").unwrap();
        for i in kept.clone() {
            let a = t.attempt(lane, i).unwrap();
            let b = &full.attempts[i as usize];
            // The same attempt, and the same link forward (a retry is always later,
            // so it is kept whenever the attempt it follows is).
            assert_eq!(a, b);
        }
        let span = t.visible(lane, 60_000, 61_000);
        assert!(span.start >= kept.start && span.end <= kept.end);
        assert!(span
            .clone()
            .all(|i| (60_000..=61_000).contains(&t.attempt(lane, i).unwrap().t)));
    }
}

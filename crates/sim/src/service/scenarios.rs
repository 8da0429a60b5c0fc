//! The service scenarios: each a few variants of one service (its lanes), on the same
//! seeded demand, that differ in one thing.
//!
//! | id | clients and demand | lanes |
//! |---|---|---|
//! | `noisy-neighbour` | 4 clients at 2/s, one at 16/s (Poisson, 60 s) | 10/s token bucket per client; the same limit on one global key |
//! | `retry-storm` | 50 users at 0.1/s (Poisson, 60 s), each loading a page of 5 at 10 s | a global 50/s token bucket; retries at once, after `Retry-After`, after `Retry-After` plus 0–5 s, exponential with full jitter (5 attempts) |
//! | `instances` | one client at 40/s (Poisson, 30 s) | 10 per 1 s sliding log per client: 3 instances with local counters (round robin; random), one shared store |
//! | `store-outage` | 4 clients at 20/s (Poisson, 60 s) | 10/s token bucket per client in a shared store over 3 instances, down 20–40 s: fail open, fail closed, fall back to 5/s per instance |
//! | `page-load` | 5 users, each loading a page of 12 at once twice | 10/s token bucket per user, burst 1 (retrying with full jitter; after `Retry-After`) and burst 20 |
//! | `stacked-limits` | one client at 3/s (Poisson, 2 min) and a burst of 25 at 30 s | 10 per 1 s and 100 per min sliding logs, alone and stacked |
//! | `expensive-route` | 4 readers at 4/s, one client at 4/s half reads, half exports | 10/s token bucket per client: exports cost 1; exports cost 5; exports under their own 1/s limit |
//!
//! Every variant of a scenario shares its seed (1 unless given), so first tries are
//! the same in every lane; only what the service does with them differs. Their
//! titles and descriptions are in the registry ([`crate::SCENARIOS`]).

use ratelab_core::Algorithm;

use crate::lane::LaneSpec;
use crate::scenario::ScenarioId;

use super::spec::{
    Backoff, Balancing, ClientSpec, Demand, KeyMode, LimitSpec, OnOutage, RetryPolicy, Route,
    ServiceSpec, Span, Store,
};

fn poisson(rate: u64, per_ms: u64) -> Demand {
    Demand::Poisson {
        rate,
        per_ms,
        from_ms: 0,
        until_ms: None,
    }
}

fn limit(algorithm: Algorithm, n: u64, period_ms: u64, id: &str, key: KeyMode) -> LimitSpec {
    LimitSpec::new(LaneSpec::simple(algorithm, n, period_ms).with_id(id), key)
}

/// The variants (lanes) of service scenario `id` with `seed`, or `None` for a
/// scenario that is not a service one.
pub fn service_scenario(id: ScenarioId, seed: u64) -> Option<Vec<ServiceSpec>> {
    let with_seed = |mut v: Vec<ServiceSpec>| {
        for s in &mut v {
            s.seed = seed;
        }
        v
    };
    Some(with_seed(match id {
        ScenarioId::NoisyNeighbour => noisy_neighbour(),
        ScenarioId::RetryStorm => retry_storm(),
        ScenarioId::Instances => instances(),
        ScenarioId::StoreOutage => store_outage(),
        ScenarioId::PageLoad => page_load(),
        ScenarioId::StackedLimits => stacked_limits(),
        ScenarioId::ExpensiveRoute => expensive_route(),
        ScenarioId::EdgeBurstDemo
        | ScenarioId::EdgeBurst
        | ScenarioId::TwiceTheRate
        | ScenarioId::PerSecond
        | ScenarioId::BurstThenDrip
        | ScenarioId::Manual
        | ScenarioId::Golden
        | ScenarioId::SwcLate
        | ScenarioId::SwcEarly
        | ScenarioId::TenAtOnce
        | ScenarioId::FloatEdge
        | ScenarioId::LabA
        | ScenarioId::LabB
        | ScenarioId::LabC
        | ScenarioId::LabD
        | ScenarioId::LabE
        | ScenarioId::Poisson
        | ScenarioId::Custom
        | ScenarioId::Service => return None,
    }))
}

fn noisy_neighbour() -> Vec<ServiceSpec> {
    let mut clients: Vec<ClientSpec> = (0..4)
        .map(|i| ClientSpec::new(format!("quiet-{i}"), poisson(2, 1000)))
        .collect();
    clients.push(ClientSpec::new("noisy", poisson(16, 1000)));
    let service = |id: &str, key| {
        ServiceSpec::new(
            id,
            clients.clone(),
            vec![limit(Algorithm::TokenBucket, 10, 1000, "10/s", key)],
            60_000,
        )
    };
    vec![
        service("per-client key", KeyMode::Client),
        service("one global key", KeyMode::Global),
    ]
}

fn retry_storm() -> Vec<ServiceSpec> {
    let users = |retry: RetryPolicy| -> Vec<ClientSpec> {
        (0..50)
            .map(|i| ClientSpec {
                name: format!("user-{i}"),
                demand: vec![
                    poisson(1, 10_000),
                    Demand::PageLoads {
                        size: 5,
                        at_ms: vec![10_000],
                    },
                ],
                routes: vec![(0, 1)],
                retry,
            })
            .collect()
    };
    let service = |id: &str, backoff| {
        ServiceSpec::new(
            id,
            users(RetryPolicy::new(backoff, 5)),
            vec![limit(
                Algorithm::TokenBucket,
                50,
                1000,
                "50/s",
                KeyMode::Global,
            )],
            60_000,
        )
    };
    vec![
        service("retry at once", Backoff::Immediately),
        service("Retry-After", Backoff::RetryAfter { jitter_ms: 0 }),
        service(
            "Retry-After + 0–5 s",
            Backoff::RetryAfter { jitter_ms: 5_000 },
        ),
        service(
            "full jitter",
            Backoff::FullJitter {
                base_ms: 1_000,
                cap_ms: 30_000,
            },
        ),
    ]
}

fn instances() -> Vec<ServiceSpec> {
    let clients = vec![ClientSpec::new("client", poisson(40, 1000))];
    let service = |id: &str, store, balancing, instances| ServiceSpec {
        store,
        balancing,
        instances,
        ..ServiceSpec::new(
            id,
            clients.clone(),
            vec![limit(
                Algorithm::SlidingLog,
                10,
                1000,
                "10/s",
                KeyMode::Client,
            )],
            30_000,
        )
    };
    vec![
        service(
            "3 local, round robin",
            Store::Local,
            Balancing::RoundRobin,
            3,
        ),
        service("3 local, random", Store::Local, Balancing::Random, 3),
        service("3 sharing a store", Store::Shared, Balancing::RoundRobin, 3),
    ]
}

fn store_outage() -> Vec<ServiceSpec> {
    let clients: Vec<ClientSpec> = (0..4)
        .map(|i| ClientSpec::new(format!("client-{i}"), poisson(20, 1000)))
        .collect();
    let service = |id: &str, on_outage| ServiceSpec {
        instances: 3,
        outages: vec![Span {
            from_ms: 20_000,
            to_ms: 40_000,
        }],
        on_outage,
        ..ServiceSpec::new(
            id,
            clients.clone(),
            vec![limit(
                Algorithm::TokenBucket,
                10,
                1000,
                "10/s",
                KeyMode::Client,
            )],
            60_000,
        )
    };
    let fallback = limit(
        Algorithm::TokenBucket,
        5,
        1000,
        "local 5/s",
        KeyMode::Client,
    );
    vec![
        service("fail open", OnOutage::FailOpen),
        service("fail closed", OnOutage::FailClosed),
        service("local fallback", OnOutage::Fallback(Box::new(fallback))),
    ]
}

fn page_load() -> Vec<ServiceSpec> {
    let users = |retry| -> Vec<ClientSpec> {
        (0..5u64)
            .map(|i| {
                ClientSpec::new(
                    format!("user-{i}"),
                    Demand::PageLoads {
                        size: 12,
                        at_ms: vec![i * 2_000, 15_000 + i * 2_000],
                    },
                )
                .with_retry(retry)
            })
            .collect()
    };
    let bucket = |burst| {
        LimitSpec::new(
            LaneSpec::simple(Algorithm::TokenBucket, 10, 1000)
                .with_burst(burst)
                .with_id(format!("10/s, burst {burst}")),
            KeyMode::Client,
        )
    };
    let jitter = RetryPolicy::new(
        Backoff::FullJitter {
            base_ms: 200,
            cap_ms: 5_000,
        },
        5,
    );
    let after = RetryPolicy::new(Backoff::RetryAfter { jitter_ms: 0 }, 5);
    vec![
        ServiceSpec::new(
            "burst 1, full jitter",
            users(jitter),
            vec![bucket(1)],
            30_000,
        ),
        ServiceSpec::new(
            "burst 1, Retry-After",
            users(after),
            vec![bucket(1)],
            30_000,
        ),
        ServiceSpec::new(
            "burst 20, full jitter",
            users(jitter),
            vec![bucket(20)],
            30_000,
        ),
    ]
}

fn stacked_limits() -> Vec<ServiceSpec> {
    let client = ClientSpec {
        name: "client".into(),
        demand: vec![
            poisson(3, 1000),
            Demand::Bursts {
                size: 25,
                spacing_ms: 0,
                every_ms: None,
                from_ms: 30_000,
                until_ms: None,
            },
        ],
        routes: vec![(0, 1)],
        retry: RetryPolicy::NONE,
    };
    let per_second = limit(Algorithm::SlidingLog, 10, 1000, "10/s", KeyMode::Client);
    let per_minute = limit(
        Algorithm::SlidingLog,
        100,
        60_000,
        "100/min",
        KeyMode::Client,
    );
    let service = |id: &str, limits: Vec<LimitSpec>| ServiceSpec {
        window_ms: Some(60_000),
        ..ServiceSpec::new(id, vec![client.clone()], limits, 120_000)
    };
    vec![
        service("10/s alone", vec![per_second.clone()]),
        service("100/min alone", vec![per_minute.clone()]),
        service("10/s and 100/min", vec![per_second, per_minute]),
    ]
}

fn expensive_route() -> Vec<ServiceSpec> {
    let mut clients: Vec<ClientSpec> = (0..4)
        .map(|i| ClientSpec::new(format!("reader-{i}"), poisson(4, 1000)))
        .collect();
    clients.push(ClientSpec::new("exporter", poisson(4, 1000)).with_routes(vec![(0, 1), (1, 1)]));
    let routes = |export_cost| {
        vec![
            Route::new("read"),
            Route {
                name: "export".into(),
                cost: export_cost,
            },
        ]
    };
    let per_client = limit(Algorithm::TokenBucket, 10, 1000, "10/s", KeyMode::Client);
    let service = |id: &str, export_cost, limits| ServiceSpec {
        routes: routes(export_cost),
        ..ServiceSpec::new(id, clients.clone(), limits, 60_000)
    };
    let reads = LimitSpec {
        routes: Some(vec![0]),
        ..per_client.clone()
    };
    let exports = LimitSpec {
        routes: Some(vec![1]),
        ..limit(
            Algorithm::TokenBucket,
            1,
            1000,
            "exports 1/s",
            KeyMode::Client,
        )
    };
    vec![
        service("export costs 1", 1, vec![per_client.clone()]),
        service("export costs 5", 5, vec![per_client]),
        service("exports: own limit", 1, vec![reads, exports]),
    ]
}

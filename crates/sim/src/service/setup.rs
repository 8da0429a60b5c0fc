//! The `service` scenario: one service, set with a few knobs (the playground's
//! "clients and service" setup, and its link), built around each lane's limiter.
//!
//! The service scenarios of the registry compare fixed variants of one service; this
//! one lets the knobs be chosen and compares *algorithms* in the same service: lane
//! `i` runs the service with lane `i`'s limiter as its one limit (and, on a
//! fallback, the same algorithm in each instance's memory). Every client has Poisson
//! demand at `load` (thousandths of the limit per period; client 0 at `noisy` times
//! that), one route of cost 1, and the same retry policy.

use crate::error::SimError;
use crate::lane::LaneSpec;

use super::spec::{
    Backoff, Balancing, ClientSpec, Demand, KeyMode, LimitSpec, OnOutage, RetryPolicy, ServiceSpec,
    Span, Store,
};

/// The most a noisy client's demand is multiplied by.
pub const MAX_NOISY: u32 = 1_000;

/// How long the `service` scenario's demand lasts unless told (60 s).
pub const SERVICE_DURATION_MS: u64 = 60_000;

/// Clients of the `service` scenario unless told.
pub const SERVICE_CLIENTS: u32 = 5;

/// Each client's demand unless told, in thousandths of the limit (0.4).
pub const SERVICE_LOAD_PERMILLE: u32 = 400;

/// The retry styles a setup offers, by the name of the JSON format and links.
pub const RETRY_IDS: [&str; 6] = [
    "none",
    "immediately",
    "fixed",
    "exponential",
    "full_jitter",
    "retry_after",
];

/// What the instances do while the store is down, without the fallback's budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutagePolicy {
    /// Let requests through unchecked.
    FailOpen,
    /// Refuse them (503).
    FailClosed,
    /// A limiter in each instance's own memory.
    Fallback,
}

impl OutagePolicy {
    /// Every policy, in the order a setup offers them.
    pub const ALL: [OutagePolicy; 3] = [
        OutagePolicy::FailOpen,
        OutagePolicy::FailClosed,
        OutagePolicy::Fallback,
    ];

    /// The name in the JSON format and links (as [`OnOutage::id`]).
    pub fn id(self) -> &'static str {
        match self {
            OutagePolicy::FailOpen => "fail_open",
            OutagePolicy::FailClosed => "fail_closed",
            OutagePolicy::Fallback => "fallback",
        }
    }

    /// The policy named `id`.
    pub fn from_id(id: &str) -> Option<OutagePolicy> {
        OutagePolicy::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// The knobs of the `service` scenario besides those every seeded scenario has
/// (clients, load, duration, seed). The defaults: a noisy client at 4× the others,
/// retries with full jitter from 1 s (5 attempts), one key per client, one instance,
/// a shared store that never fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceSetup {
    /// Client 0's demand as a multiple of the others' (1: the same).
    pub noisy: u32,
    /// The retry style: one of [`RETRY_IDS`].
    pub retry: &'static str,
    /// The style's one duration: `fixed`'s delay, the exponential styles' first
    /// delay (their cap is 32 times it), `retry_after`'s most jitter. `None`: 1 s
    /// (`retry_after`: no jitter).
    pub backoff_ms: Option<u64>,
    /// Attempts per request, the first included. `None`: 5 (1 with `none`).
    pub attempts: Option<u32>,
    /// Whose requests the limit counts together.
    pub key: KeyMode,
    /// App instances.
    pub instances: u32,
    /// How the balancer picks one.
    pub balancing: Balancing,
    /// Where the limiter's state lives.
    pub store: Store,
    /// When the shared store is down (sorted, apart).
    pub outages: Vec<Span>,
    /// What the instances do then.
    pub on_outage: OutagePolicy,
    /// The fallback's limit per the lane's period. `None`: the lane's own limit (in
    /// each instance, so looser in all than the shared one).
    pub fallback_limit: Option<u64>,
}

impl Default for ServiceSetup {
    fn default() -> ServiceSetup {
        ServiceSetup {
            noisy: 4,
            retry: "full_jitter",
            backoff_ms: None,
            attempts: None,
            key: KeyMode::Client,
            instances: 1,
            balancing: Balancing::RoundRobin,
            store: Store::Shared,
            outages: Vec::new(),
            on_outage: OutagePolicy::FailOpen,
            fallback_limit: None,
        }
    }
}

/// The clients, load, duration and seed of a `service` run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Demands {
    /// How many clients.
    pub clients: u32,
    /// Each client's demand, in thousandths of the limit per period.
    pub load_permille: u32,
    /// How long the demand lasts.
    pub duration_ms: u64,
    /// The seed.
    pub seed: u64,
}

impl ServiceSetup {
    /// The retry policy the knobs describe (an unknown style is read as `none`; the
    /// link and JSON readers only store names of [`RETRY_IDS`]).
    pub fn retry_policy(&self) -> RetryPolicy {
        let ms = self.backoff_ms.unwrap_or(1_000);
        let exponential = (ms, ms.saturating_mul(32));
        let backoff = match self.retry {
            "immediately" => Backoff::Immediately,
            "fixed" => Backoff::Fixed { delay_ms: ms },
            "exponential" => Backoff::Exponential {
                base_ms: exponential.0,
                cap_ms: exponential.1,
            },
            "full_jitter" => Backoff::FullJitter {
                base_ms: exponential.0,
                cap_ms: exponential.1,
            },
            "retry_after" => Backoff::RetryAfter {
                jitter_ms: self.backoff_ms.unwrap_or(0),
            },
            _ => return RetryPolicy::NONE,
        };
        RetryPolicy::new(backoff, self.attempts.unwrap_or(5))
    }

    /// The services of a `service` run: one per lane, with that lane's limiter as
    /// its limit, validated (errors name `services[i]`).
    pub fn services(&self, lanes: &[LaneSpec], d: Demands) -> Result<Vec<ServiceSpec>, SimError> {
        let services: Vec<ServiceSpec> = lanes.iter().map(|lane| self.service(lane, d)).collect();
        super::validate_all(&services)?;
        Ok(services)
    }

    fn service(&self, lane: &LaneSpec, d: Demands) -> ServiceSpec {
        let retry = self.retry_policy();
        let p = lane.params;
        let clients = (0..d.clients)
            .map(|c| {
                let times = if c == 0 { u64::from(self.noisy) } else { 1 };
                let per_thousand =
                    u128::from(p.limit) * u128::from(d.load_permille) * u128::from(times);
                ClientSpec::new(
                    format!("client-{c}"),
                    poisson(per_thousand, u128::from(p.period_ms) * 1_000),
                )
                .with_retry(retry)
            })
            .collect();
        let on_outage = match self.on_outage {
            OutagePolicy::FailOpen => OnOutage::FailOpen,
            OutagePolicy::FailClosed => OnOutage::FailClosed,
            OutagePolicy::Fallback => {
                let mut local = lane.clone();
                local.params.limit = self.fallback_limit.unwrap_or(p.limit);
                local.id = format!("local {}", lane.id);
                OnOutage::Fallback(Box::new(LimitSpec::new(local, self.key)))
            }
        };
        ServiceSpec {
            instances: self.instances,
            balancing: self.balancing,
            store: self.store,
            outages: self.outages.clone(),
            on_outage,
            seed: d.seed,
            ..ServiceSpec::new(
                lane.id.clone(),
                clients,
                vec![LimitSpec::new(lane.clone(), self.key)],
                d.duration_ms,
            )
        }
    }
}

/// Poisson demand at `rate` per `per_ms`, the fraction reduced so that both fit
/// (a rate that still does not fit is refused by the service's validation).
fn poisson(rate: u128, per_ms: u128) -> Demand {
    let g = gcd(rate, per_ms).max(1);
    let fit = |n: u128| u64::try_from(n / g).unwrap_or(u64::MAX);
    Demand::Poisson {
        rate: fit(rate),
        per_ms: fit(per_ms),
        from_ms: 0,
        until_ms: None,
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use ratelab_core::Algorithm;

    use super::*;
    use crate::service::run_service;

    fn demands() -> Demands {
        Demands {
            clients: SERVICE_CLIENTS,
            load_permille: SERVICE_LOAD_PERMILLE,
            duration_ms: SERVICE_DURATION_MS,
            seed: 1,
        }
    }

    #[test]
    fn the_knobs_build_the_service_they_name() {
        let lane = LaneSpec::simple(Algorithm::SlidingLog, 10, 1000).with_id("log");
        let setup = ServiceSetup {
            noisy: 8,
            instances: 3,
            store: Store::Local,
            ..ServiceSetup::default()
        };
        let services = setup.services(&[lane], demands()).unwrap_or_default();
        let [s] = services.as_slice() else {
            panic!("one lane, one service: {services:?}")
        };
        assert_eq!(s.id, "log");
        assert_eq!(s.clients.len(), 5);
        // 10 per second at 0.4: 4 per second, the noisy one 32.
        assert_eq!(
            s.clients[0].demand,
            vec![Demand::Poisson {
                rate: 4,
                per_ms: 125,
                from_ms: 0,
                until_ms: None
            }]
        );
        assert_eq!(
            s.clients[1].demand,
            vec![Demand::Poisson {
                rate: 1,
                per_ms: 250,
                from_ms: 0,
                until_ms: None
            }]
        );
        assert_eq!(
            s.clients[1].retry,
            RetryPolicy::new(
                Backoff::FullJitter {
                    base_ms: 1000,
                    cap_ms: 32_000
                },
                5
            )
        );
        // Three instances counting on their own let the noisy client through at
        // three times the limit.
        let report = run_service(s, "services[0]");
        let max = report.map(|r| r.yardstick.clients[0].max_in_1s);
        assert_eq!(max, Ok(30));
    }

    #[test]
    fn every_retry_style_and_outage_policy_validates() {
        let lane = LaneSpec::simple(Algorithm::TokenBucket, 5, 10_000).with_id("tb");
        for retry in RETRY_IDS {
            for on_outage in OutagePolicy::ALL {
                let setup = ServiceSetup {
                    retry,
                    on_outage,
                    outages: vec![Span {
                        from_ms: 20_000,
                        to_ms: 40_000,
                    }],
                    ..ServiceSetup::default()
                };
                let policy = setup.retry_policy();
                assert_eq!(policy.backoff.id(), retry);
                assert_eq!(policy.max_attempts, if retry == "none" { 1 } else { 5 });
                let services = setup.services(std::slice::from_ref(&lane), demands());
                assert_eq!(services.map(|s| s[0].on_outage.id()), Ok(on_outage.id()));
            }
        }
    }

    #[test]
    fn bad_knobs_get_the_services_messages() {
        let lane = LaneSpec::simple(Algorithm::TokenBucket, 5, 10_000).with_id("tb");
        let setup = ServiceSetup {
            attempts: Some(21),
            ..ServiceSetup::default()
        };
        let e = setup.services(&[lane], demands()).map(|_| ());
        assert_eq!(
            e.map_err(|e| e.to_string()),
            Err("services[0].clients[0].retry.max_attempts: 21 is too many (at most 20)".into())
        );
    }
}

//! The service around the limiter: clients that retry, keys, several instances, a
//! shared store that fails, stacked limits. Plain Rust, seeded, exact integer time,
//! driving ratelab-core's limiters through [`ratelab_core::Keyed`].
//!
//! A [`ServiceSpec`] describes one service: its [routes](Route) (each with a cost),
//! its [clients](ClientSpec) (each a key with its own [demand](Demand), route mix and
//! [retry policy](RetryPolicy)), its [limits](LimitSpec) (stacked: all must pass;
//! each counts by a [key](KeyMode)), `instances` behind a [balancer](Balancing)
//! with a [local or shared store](Store), and [outages](Span) of the shared store
//! with a [policy](OnOutage). [`run_service`] runs it: every first try and every
//! retry, in time order, decided exactly; a retry is a new attempt linked to its
//! request's first try ([`Attempt::original`]) and to the attempt it follows
//! ([`Attempt::retry`]). The [`ServiceYardstick`] says what the clients asked for
//! and what the service did with it: demand against offered load, goodput,
//! per-client shares and 429 rates, waits and end-to-end latency, refusals per
//! second, and the windows' maxima per client and overall.
//!
//! ```
//! use ratelab_core::Algorithm;
//! use ratelab_sim::service::*;
//! use ratelab_sim::LaneSpec;
//!
//! // One client at 40 per second against 10 per second, on three instances that
//! // each count in their own memory: the service really allows 30 per second.
//! let limit = LimitSpec::new(LaneSpec::simple(Algorithm::SlidingLog, 10, 1000), KeyMode::Client);
//! let demand = Demand::Poisson { rate: 40, per_ms: 1000, from_ms: 0, until_ms: None };
//! let local = ServiceSpec {
//!     instances: 3,
//!     store: Store::Local,
//!     ..ServiceSpec::new("local", vec![ClientSpec::new("c", demand)], vec![limit], 30_000)
//! };
//! let report = run_service(&local, "")?;
//! assert_eq!(report.yardstick.max_in_1s, 30);
//! let shared = ServiceSpec { store: Store::Shared, ..local };
//! assert_eq!(run_service(&shared, "")?.yardstick.max_in_1s, 10);
//! # Ok::<(), ratelab_sim::SimError>(())
//! ```
//!
//! The scenarios of the registry are [`service_scenario`]'s; the `service` scenario,
//! whose knobs are chosen, is [`ServiceSetup`]'s.

mod attempt;
mod demand;
mod engine;
mod metrics;
mod retry;
mod scenarios;
mod setup;
mod spec;
mod timeline;

pub use attempt::{Attempt, Decider};
pub use engine::{run_service, ServiceReport};
pub use metrics::{
    ClientStats, DeniedBy, Goodput, InstanceStats, PerSecond, Percentiles, RouteStats,
    ServiceYardstick, PER_SECOND_MAX_BUCKETS,
};
pub use retry::AfterRefusal;
pub use scenarios::service_scenario;
pub use setup::{
    Demands, OutagePolicy, ServiceSetup, MAX_NOISY, RETRY_IDS, SERVICE_CLIENTS,
    SERVICE_DURATION_MS, SERVICE_LOAD_PERMILLE,
};
pub use spec::{
    Backoff, Balancing, ClientSpec, Demand, KeyMode, LimitSpec, OnOutage, RetryPolicy, Route,
    ServiceSpec, Span, Store, MAX_ATTEMPTS, MAX_CLIENTS, MAX_DEMAND_PARTS, MAX_INSTANCES,
    MAX_LIMITS, MAX_OUTAGES, MAX_ROUTES,
};
pub use timeline::{AfterAttempt, ServiceTimeline, ServiceTimelineLimits};

use crate::error::SimError;

/// The refusal of a build without the `services` feature, at `path`. Callers test
/// `cfg!(feature = "services")` themselves, right before what they guard: a
/// constant branch, so that without the feature nothing behind it is linked (a
/// helper returning `Result` was not folded away).
pub(crate) fn left_out(path: &str) -> SimError {
    SimError::at(
        path,
        "this build leaves the service model out (the playground's bundle, for its size budget); the command line and the native library run it",
    )
}

/// The most services (variants) one run compares.
pub const MAX_SERVICES: usize = 8;

/// Runs every service of a comparison; errors name `services[i]`.
pub fn run_services(specs: &[ServiceSpec]) -> Result<Vec<ServiceReport>, SimError> {
    check_ids(specs)?;
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| run_service(s, &format!("services[{i}]")))
        .collect()
}

/// Checks a service run: one to [`MAX_SERVICES`] services with distinct ids, each
/// valid (errors name `services[i]`).
pub fn validate_all(specs: &[ServiceSpec]) -> Result<(), SimError> {
    check_ids(specs)?;
    for (i, s) in specs.iter().enumerate() {
        s.validate(&format!("services[{i}]"))?;
    }
    Ok(())
}

/// One to [`MAX_SERVICES`] services with distinct ids.
fn check_ids(specs: &[ServiceSpec]) -> Result<(), SimError> {
    spec::how_many(specs.len(), MAX_SERVICES, "services", "services")?;
    for (i, s) in specs.iter().enumerate() {
        if specs[..i].iter().any(|o| o.id == s.id) {
            return Err(SimError::at(
                &format!("services[{i}].id"),
                format_args!("duplicate id \"{}\"", s.id),
            ));
        }
    }
    Ok(())
}

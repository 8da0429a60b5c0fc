//! A scenario and its overrides to a runnable, validated [`Config`].

use crate::config::Config;
use crate::error::SimError;
use crate::lane::LaneSpec;
use crate::service::{
    Demands, ServiceSetup, ServiceSpec, SERVICE_CLIENTS, SERVICE_DURATION_MS, SERVICE_LOAD_PERMILLE,
};
use crate::stream::{Stream, MAX_TIME_MS};
use crate::sweep::SweepSpec;
use crate::traffic::Poisson;

use super::streams::{
    burst_then_drip, edge_burst, lab_a, lab_b, lab_e, shape, too_long, twice_the_rate, GOLDEN_TIMES,
};
use super::{defaults, ScenarioId};

/// What a scenario may be given besides its id (`None` = its default). Which ones a
/// scenario accepts is [`ScenarioInfo::overrides`](super::ScenarioInfo::overrides); [`scenario`] ignores the others
/// (the JSON parser rejects them with a message).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    /// N of the budget (parameterised streams and default lanes).
    pub limit: Option<u64>,
    /// W of the budget.
    pub period_ms: Option<u64>,
    /// Lanes to run instead of the defaults.
    pub limiters: Option<Vec<LaneSpec>>,
    /// Yardstick window.
    pub window_ms: Option<u64>,
    /// `custom`: the stream.
    pub requests: Option<Stream>,
    /// Seeded scenarios: the seed.
    pub seed: Option<u64>,
    /// Seeded scenarios: each client's load, in thousandths of the limit.
    pub load_permille: Option<u32>,
    /// Seeded scenarios: how many clients.
    pub clients: Option<u32>,
    /// `poisson`, `service`: how long.
    pub duration_ms: Option<u64>,
    /// `service`: its other knobs (retries, key, instances, outages).
    pub service: Option<ServiceSetup>,
}

/// Builds scenario `id` with `overrides` into a runnable, validated [`Config`].
pub fn scenario(id: ScenarioId, overrides: &Overrides) -> Result<Config, SimError> {
    build(id, overrides, services)
}

/// [`scenario`], except that a service scenario's services are left out
/// (`services: None`, no lanes): made later by [`scenario`] where they are run.
/// The page's first module builds scenarios this way, so that it does not carry
/// the service model (made and checked by the service view's chunk).
pub fn scenario_without_services(
    id: ScenarioId,
    overrides: &Overrides,
) -> Result<Config, SimError> {
    build(id, overrides, |_, _, _, _, _| Ok(None))
}

/// The services of scenario `id` (`None` for a scenario of limiters), made and
/// checked.
fn services(
    id: ScenarioId,
    overrides: &Overrides,
    limit: u64,
    period: u64,
    seed: u64,
) -> Result<Option<Vec<ServiceSpec>>, SimError> {
    // (Constant tests, so that a build without the model links none of it.)
    let services = if !cfg!(feature = "services") {
        None
    } else if id == ScenarioId::Service {
        let lanes = (overrides.limiters.clone()).unwrap_or_else(|| id.lanes(limit, period));
        let demands = Demands {
            clients: overrides.clients.unwrap_or(SERVICE_CLIENTS),
            load_permille: overrides.load_permille.unwrap_or(SERVICE_LOAD_PERMILLE),
            duration_ms: overrides.duration_ms.unwrap_or(SERVICE_DURATION_MS),
            seed,
        };
        let setup = overrides.service.clone().unwrap_or_default();
        Some(setup.services(&lanes, demands)?)
    } else {
        crate::service::service_scenario(id, seed)
    };
    if let Some(s) = &services {
        crate::service::validate_all(s)?;
    }
    Ok(services)
}

/// [`scenario`], with `services` making a service scenario's services (checked).
fn build(
    id: ScenarioId,
    overrides: &Overrides,
    services: impl FnOnce(
        ScenarioId,
        &Overrides,
        u64,
        u64,
        u64,
    ) -> Result<Option<Vec<ServiceSpec>>, SimError>,
) -> Result<Config, SimError> {
    let info = id.info();
    let limit = overrides.limit.unwrap_or(info.limit);
    let period = overrides.period_ms.unwrap_or(info.period_ms);
    // Validate the budget once, with core's messages (`limit: must be > 0`).
    ratelab_core::Rate::new(limit, period).map_err(|e| SimError::param("", &e))?;
    // The arithmetic streams' length and last time are refused before they are made.
    shape(id, limit, period)?;
    let seed = overrides.seed.unwrap_or(defaults::SEED);
    let mut sweep = None;
    let stream = match id {
        ScenarioId::EdgeBurstDemo => crate::streams::edge_burst_demo(limit, period)?,
        ScenarioId::EdgeBurst => edge_burst(limit, period)?,
        ScenarioId::PerSecond => crate::streams::per_second(),
        ScenarioId::SwcLate => Stream::from_times(crate::streams::SWC_LATE),
        ScenarioId::SwcEarly => Stream::from_times(crate::streams::SWC_EARLY),
        ScenarioId::TenAtOnce => crate::streams::at_once(limit)?,
        ScenarioId::FloatEdge => crate::streams::float_edge(),
        ScenarioId::TwiceTheRate => twice_the_rate(limit, period)?,
        ScenarioId::BurstThenDrip => burst_then_drip(limit, period)?,
        ScenarioId::Manual => Stream::new(),
        ScenarioId::Golden => Stream::from_times(GOLDEN_TIMES),
        ScenarioId::LabA => lab_a(),
        ScenarioId::LabB => lab_b(),
        ScenarioId::LabC => Stream::from_times([0; 12]),
        ScenarioId::LabD => {
            sweep = Some(SweepSpec::lab_d(seed));
            Poisson {
                clients: overrides.clients.unwrap_or(defaults::LAB_D_CLIENTS),
                load_permille: overrides
                    .load_permille
                    .unwrap_or(defaults::LAB_D_LOAD_PERMILLE),
                limit: 100,
                period_ms: 60_000,
                duration_ms: defaults::LAB_D_DURATION_MS,
                seed,
            }
            .stream()?
        }
        ScenarioId::LabE => lab_e(),
        ScenarioId::Poisson => Poisson {
            clients: overrides.clients.unwrap_or(defaults::POISSON_CLIENTS),
            load_permille: overrides
                .load_permille
                .unwrap_or(defaults::POISSON_LOAD_PERMILLE),
            limit,
            period_ms: period,
            duration_ms: overrides
                .duration_ms
                .unwrap_or(defaults::POISSON_DURATION_MS),
            seed,
        }
        .stream()?,
        ScenarioId::Custom => overrides.requests.clone().unwrap_or_default(),
        _ => Stream::new(),
    };
    // A service scenario's lanes are the variants of its service, not limiters;
    // `service`'s are one service around each limiter.
    if id.is_service() && !cfg!(feature = "services") {
        return Err(crate::service::left_out("scenario"));
    }
    let services = services(id, overrides, limit, period, seed)?;
    // A long period stretches the parameterised streams past the last time the JSON
    // format (and JavaScript) can hold; refuse it rather than run what cannot be
    // exported.
    if let Some(last) = stream.requests.last().filter(|r| r.t > MAX_TIME_MS) {
        return Err(too_long(id, period, last.t));
    }
    let lanes = match &overrides.limiters {
        _ if id.is_service() => Vec::new(),
        Some(l) => l.clone(),
        None => id.lanes(limit, period),
    };
    let config = Config {
        scenario: Some(id),
        stream,
        lanes,
        // A service's window is its own (`ServiceSpec::window_ms`).
        window_ms: (!id.is_service())
            .then(|| overrides.window_ms.or(info.window_ms))
            .flatten(),
        sweep,
        services,
        responses: false,
    };
    // A service scenario's services were checked as they were made.
    if !id.is_service() {
        config.validate_lanes()?;
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::SCENARIOS;
    use ratelab_core::Algorithm;

    #[test]
    fn every_scenario_builds_and_validates() {
        for s in SCENARIOS {
            let mut o = Overrides::default();
            if s.id == ScenarioId::Custom {
                o.limiters = Some(vec![LaneSpec::simple(Algorithm::Gcra, 1, 1000)]);
            }
            let c = scenario(s.id, &o).unwrap_or_else(|e| panic!("{}: {e}", s.id));
            assert_eq!(c.scenario, Some(s.id));
        }
    }
}

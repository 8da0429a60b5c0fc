//! The scenario ids: [`ScenarioId`], its names and its place in the registry.

use core::fmt;

/// A scenario of the registry. Written in JSON, links and the command line as its
/// [`ScenarioId::id`] (`"edge-burst"`, `"lab-d"`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ScenarioId {
    /// `edge-burst-demo`: the demo article's edge burst (its own spacing).
    EdgeBurstDemo,
    /// `edge-burst`: a burst of 2N split around a window boundary.
    EdgeBurst,
    /// `2x-rate`: twice the allowed rate for three windows.
    TwiceTheRate,
    /// `per-second`: one request a second for a minute.
    PerSecond,
    /// `burst-then-drip`: N at once, then half the rate.
    BurstThenDrip,
    /// `manual`: no requests; the user sends them.
    Manual,
    /// `golden`: SPEC's golden stream.
    Golden,
    /// `swc-late`: the previous window bunched late (the counter underestimates).
    SwcLate,
    /// `swc-early`: the previous window bunched early (it overestimates).
    SwcEarly,
    /// `ten-at-once`: N requests at one instant (nginx's burst, nodelay, delay).
    TenAtOnce,
    /// `float-edge`: the golden stream with the float bucket's missing token.
    FloatEdge,
    /// `lab-a`: the boundary attack on 100/min.
    LabA,
    /// `lab-b`: sustained overload of 100/min.
    LabB,
    /// `lab-c`: a page load of 12 requests against 10/s.
    LabC,
    /// `lab-d`: the sliding window counter against the exact log, seeded Poisson.
    LabD,
    /// `lab-e`: the worst case for 100/min.
    LabE,
    /// `poisson`: seeded Poisson traffic.
    Poisson,
    /// `custom`: the requests and limiters given.
    Custom,
    /// `noisy-neighbour`: per-client keys against one global key.
    NoisyNeighbour,
    /// `retry-storm`: retrying at once against `Retry-After` with jitter.
    RetryStorm,
    /// `instances`: three instances with local counters against one shared store.
    Instances,
    /// `store-outage`: the shared store down for 20 s, under each failure policy.
    StoreOutage,
    /// `page-load`: a page of 12 requests against a bucket of 1 and of 20, with
    /// clients that retry.
    PageLoad,
    /// `stacked-limits`: 10 per second stacked on 100 per minute.
    StackedLimits,
    /// `expensive-route`: a route costing 5.
    ExpensiveRoute,
    /// `service`: one service whose clients, retries, key, instances and outages
    /// are chosen ([`crate::service::ServiceSetup`]), around each lane's limiter.
    Service,
}

impl ScenarioId {
    /// Every scenario, in the order the playground lists them (and [`SCENARIOS`](super::SCENARIOS)).
    pub const ALL: [ScenarioId; 26] = [
        ScenarioId::EdgeBurstDemo,
        ScenarioId::EdgeBurst,
        ScenarioId::TwiceTheRate,
        ScenarioId::PerSecond,
        ScenarioId::BurstThenDrip,
        ScenarioId::Manual,
        ScenarioId::Golden,
        ScenarioId::SwcLate,
        ScenarioId::SwcEarly,
        ScenarioId::TenAtOnce,
        ScenarioId::FloatEdge,
        ScenarioId::LabA,
        ScenarioId::LabB,
        ScenarioId::LabC,
        ScenarioId::LabD,
        ScenarioId::LabE,
        ScenarioId::Poisson,
        ScenarioId::Custom,
        ScenarioId::NoisyNeighbour,
        ScenarioId::RetryStorm,
        ScenarioId::Instances,
        ScenarioId::StoreOutage,
        ScenarioId::PageLoad,
        ScenarioId::StackedLimits,
        ScenarioId::ExpensiveRoute,
        ScenarioId::Service,
    ];

    /// The scenario a playground opens with.
    pub const DEFAULT: ScenarioId = ScenarioId::Golden;

    /// The name in JSON, links and the command line.
    pub const fn id(self) -> &'static str {
        match self {
            ScenarioId::EdgeBurstDemo => "edge-burst-demo",
            ScenarioId::EdgeBurst => "edge-burst",
            ScenarioId::TwiceTheRate => "2x-rate",
            ScenarioId::PerSecond => "per-second",
            ScenarioId::BurstThenDrip => "burst-then-drip",
            ScenarioId::Manual => "manual",
            ScenarioId::Golden => "golden",
            ScenarioId::SwcLate => "swc-late",
            ScenarioId::SwcEarly => "swc-early",
            ScenarioId::TenAtOnce => "ten-at-once",
            ScenarioId::FloatEdge => "float-edge",
            ScenarioId::LabA => "lab-a",
            ScenarioId::LabB => "lab-b",
            ScenarioId::LabC => "lab-c",
            ScenarioId::LabD => "lab-d",
            ScenarioId::LabE => "lab-e",
            ScenarioId::Poisson => "poisson",
            ScenarioId::Custom => "custom",
            ScenarioId::NoisyNeighbour => "noisy-neighbour",
            ScenarioId::RetryStorm => "retry-storm",
            ScenarioId::Instances => "instances",
            ScenarioId::StoreOutage => "store-outage",
            ScenarioId::PageLoad => "page-load",
            ScenarioId::StackedLimits => "stacked-limits",
            ScenarioId::ExpensiveRoute => "expensive-route",
            ScenarioId::Service => "service",
        }
    }

    /// Whether it runs the service model ([`crate::service`]): clients that retry,
    /// keys, instances, a store that fails, stacked limits; its lanes are variants
    /// of one service rather than limiters on one stream.
    pub const fn is_service(self) -> bool {
        (self as usize) >= ScenarioId::NoisyNeighbour as usize
    }

    /// The scenario named `id` (exactly as [`ScenarioId::id`] writes it).
    pub fn from_id(id: &str) -> Option<ScenarioId> {
        ScenarioId::ALL.into_iter().find(|s| s.id() == id)
    }
}

impl fmt::Display for ScenarioId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{scenario_ids, SCENARIOS};

    #[test]
    fn ids_round_trip_and_match_the_registry() {
        for (i, id) in ScenarioId::ALL.into_iter().enumerate() {
            assert_eq!(ScenarioId::from_id(id.id()), Some(id));
            assert_eq!(id.info().id, id);
            assert_eq!(SCENARIOS[i].id, id);
            assert_eq!(id.to_string(), id.id());
        }
        assert_eq!(ScenarioId::from_id("nope"), None);
        assert_eq!(ScenarioId::from_id(" golden"), None);
        assert_eq!(
            scenario_ids(),
            "edge-burst-demo, edge-burst, 2x-rate, per-second, burst-then-drip, manual, golden, swc-late, swc-early, ten-at-once, float-edge, lab-a, lab-b, lab-c, lab-d, lab-e, poisson, custom, noisy-neighbour, retry-storm, instances, store-outage, page-load, stacked-limits, expensive-route, service"
        );
    }
}

//! The scenario registry: named, documented, deterministic streams with default lanes.
//!
//! Every stream here is integer arithmetic on its parameters (`limit` N, `period_ms`
//! W) except the Poisson ones, which are seeded (see [`crate::traffic`]). Requests
//! have cost 1 and key `""` unless stated.
//!
//! | id | stream |
//! |---|---|
//! | `edge-burst-demo` | [`crate::streams::edge_burst_demo`]: the demo article's spacing, N in `[0.8W, W)`, N in `[W, 1.2W)` |
//! | `edge-burst` | [`edge_burst`]: N in `[0.9W, W)`, N in `[W, 1.1W)` (a burst of 2N split at the boundary) |
//! | `2x-rate` | [`twice_the_rate`]: `⌊k·W/(2N)⌋`, k in 0..6N |
//! | `per-second` | [`crate::streams::per_second`]: `1000k`, k in 0..60 |
//! | `burst-then-drip` | [`burst_then_drip`]: N at 0, then `⌊j·2W/N⌋` while `< 4W` |
//! | `manual` | empty |
//! | `golden` | [`GOLDEN_TIMES`] |
//! | `swc-late` | [`crate::streams::SWC_LATE`] |
//! | `swc-early` | [`crate::streams::SWC_EARLY`] |
//! | `ten-at-once` | [`crate::streams::at_once`]: N requests at 0 |
//! | `float-edge` | [`crate::streams::float_edge`]: the golden stream, its tenth request at 11.0 s |
//! | `lab-a` | [`lab_a`]: 0, `59000 + 10i`, `60000 + 10i`, i in 0..100 |
//! | `lab-b` | [`lab_b`]: `300k`, k in 0..600 |
//! | `lab-c` | 12 requests at 0 |
//! | `lab-d` | Poisson, 100/min, load 1.25x, clients 0..10, 10 min; plus [`crate::sweep::SweepSpec::lab_d`] |
//! | `lab-e` | [`lab_e`]: `59900 + i` (i in 0..100), `60000 + 100k` (k in 0..1200) |
//! | `poisson` | Poisson: 20 clients at 1x of 100/min for 5 min by default ([`defaults`]) |
//! | `custom` | the requests given |
//! | `noisy-neighbour`, `retry-storm`, `instances`, `store-outage`, `page-load`, `stacked-limits`, `expensive-route` | service scenarios: variants of one service on the same seeded demand ([`crate::service`]'s scenarios) |
//! | `service` | one service set by its knobs ([`crate::service::ServiceSetup`]) around each lane's limiter: 5 clients at 0.4 of the limit (one at 4×) for 60 s by default |
//!
//! Each scenario is a [`ScenarioId`]; its registry entry ([`ScenarioInfo`], from
//! [`ScenarioId::info`]) says what it is called and which overrides it accepts, and
//! [`ScenarioId::lanes`] the lanes it runs when none are given. The JSON and URL
//! spellings (`"edge-burst"`, …) are [`ScenarioId::id`] and [`ScenarioId::from_id`];
//! the registry as JSON (`ratelab scenarios --json`) is written by
//! [`crate::scenarios_json`].
//!
//! # Adding a scenario
//!
//! 1. A variant in [`ScenarioId`], with its id in [`ScenarioId::id`] and in
//!    [`ScenarioId::ALL`] (the order the playground lists them in).
//! 2. Its entry in [`SCENARIOS`] (title, description, the top-level JSON fields it
//!    takes, its default budget), at the same position as in `ALL` (a test checks).
//! 3. Its stream in [`scenario`] and its lanes in [`ScenarioId::lanes`]: both
//!    `match`es are exhaustive, so the compiler lists what is missing.
//! 4. Its Vietnamese title and description in the web crate's texts.

use core::fmt;

use ratelab_core::Algorithm;

use crate::config::{Config, LaneSpec};
use crate::error::SimError;
use crate::service::{
    Demands, ServiceSetup, ServiceSpec, SERVICE_CLIENTS, SERVICE_DURATION_MS, SERVICE_LOAD_PERMILLE,
};
use crate::shape::Shape;
use crate::stream::{Stream, MAX_REQUESTS, MAX_TIME_MS};
use crate::sweep::SweepSpec;
use crate::traffic::Poisson;

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
    /// Every scenario, in the order the playground lists them (and [`SCENARIOS`]).
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

    /// Its registry entry.
    pub const fn info(self) -> &'static ScenarioInfo {
        // In range and the right entry: checked at compile time below.
        &SCENARIOS[self as usize]
    }

    /// Whether it takes top-level JSON field `field` besides `scenario` (see
    /// [`ScenarioInfo::overrides`]).
    pub fn takes(self, field: &str) -> bool {
        self.info().overrides.contains(&field)
    }
}

impl fmt::Display for ScenarioId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A scenario's entry in the registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScenarioInfo {
    /// Which scenario (its name in JSON and URLs is `id.id()`).
    pub id: ScenarioId,
    /// A human title.
    pub title: &'static str,
    /// One line on what it shows.
    pub description: &'static str,
    /// The top-level JSON fields it accepts besides `scenario`.
    pub overrides: &'static [&'static str],
    /// Its default budget N (for the stream where parameterised, and the lanes).
    pub limit: u64,
    /// Its default budget W in ms.
    pub period_ms: u64,
    /// The default yardstick window; `None` = each lane's period.
    pub window_ms: Option<u64>,
}

const BUDGET: &[&str] = &["limiters", "window_ms", "limit", "period_ms"];
const LANES_ONLY: &[&str] = &["limiters", "window_ms"];
/// The service scenarios take their seed; their lanes are part of the lesson.
const SEED_ONLY: &[&str] = &["seed"];
/// The `service` scenario: its lanes, budget and demand (its other knobs are the
/// link's, [`Overrides::service`]).
const SERVICE: &[&str] = &[
    "limiters",
    "limit",
    "period_ms",
    "seed",
    "load",
    "clients",
    "duration_ms",
];

// `SCENARIOS[i]` is the entry of `ScenarioId::ALL[i]`, whose discriminant is `i`: a
// registry out of order does not compile.
const _: () = {
    assert!(SCENARIOS.len() == ScenarioId::ALL.len());
    let mut i = 0;
    while i < SCENARIOS.len() {
        assert!(SCENARIOS[i].id as usize == i);
        assert!(ScenarioId::ALL[i] as usize == i);
        i += 1;
    }
};

/// Every scenario, in the order the playground lists them (that of
/// [`ScenarioId::ALL`]).
pub const SCENARIOS: &[ScenarioInfo] = &[
    ScenarioInfo {
        id: ScenarioId::EdgeBurstDemo,
        title: "Edge burst (the demo article's)",
        description: "The demo article's spacing: N over 0.8W to W, N over W to 1.2W; at 5 per 10 s the fixed window passes 10, the sliding log 5, the token bucket 6.",
        overrides: BUDGET,
        limit: 5,
        period_ms: 10_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::EdgeBurst,
        title: "Edge burst",
        description: "A burst of 2N split around a window boundary: N in the last tenth of the first window, N in the first tenth of the next.",
        overrides: BUDGET,
        limit: 5,
        period_ms: 10_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::TwiceTheRate,
        title: "2x rate",
        description: "A steady stream at twice the allowed rate for three windows.",
        overrides: BUDGET,
        limit: 5,
        period_ms: 10_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::PerSecond,
        title: "One a second for a minute",
        description: "One request every second for 60 s: at 5 per 10 s the windows pass 30, the token bucket 34.",
        overrides: BUDGET,
        limit: 5,
        period_ms: 10_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::BurstThenDrip,
        title: "Burst then drip",
        description: "A full burst of N at once, then one request every 2W/N (half the rate) until 4W.",
        overrides: BUDGET,
        limit: 5,
        period_ms: 10_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::Manual,
        title: "Manual",
        description: "No requests: send them yourself, one click at a time.",
        overrides: BUDGET,
        limit: 5,
        period_ms: 10_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::Golden,
        title: "The golden stream",
        description: "SPEC's twelve requests against 5 per 10 s, with the seven limiters of its golden table.",
        overrides: LANES_ONLY,
        limit: 5,
        period_ms: 10_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::SwcLate,
        title: "Counter: previous window bunched late",
        description: "Five requests at the end of a window, then a steady trickle: the sliding window counter underestimates and lets 9 through in 10 s against 5.",
        overrides: LANES_ONLY,
        limit: 5,
        period_ms: 10_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::SwcEarly,
        title: "Counter: previous window bunched early",
        description: "Five requests at the start of a window, then a few more: the sliding window counter overestimates and refuses requests the window has room for.",
        overrides: LANES_ONLY,
        limit: 5,
        period_ms: 10_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::TenAtOnce,
        title: "N at once (nginx burst, nodelay, delay)",
        description: "N requests at the same moment (10 against 10 per second): nginx's burst=5 admits 6, delayed, at once with nodelay, or partly delayed with delay=3.",
        overrides: BUDGET,
        limit: 10,
        period_ms: 1_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::FloatEdge,
        title: "The float bucket's edge",
        description: "The golden stream with its tenth request at 11.0 s, where the bucket holds exactly one token: a float bucket refuses, the exact bucket and GCRA allow.",
        overrides: LANES_ONLY,
        limit: 5,
        period_ms: 10_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::LabA,
        title: "Lab A: boundary attack",
        description: "100 per minute: one request at 0 s, 100 just before 60 s, 100 just after; the fixed window lets 199 through in 2 s.",
        overrides: LANES_ONLY,
        limit: 100,
        period_ms: 60_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::LabB,
        title: "Lab B: sustained overload",
        description: "100 per minute, one request every 300 ms for 3 minutes: the windows pass in bursts, then go silent (34 33 33 0 0 0 per 10 s).",
        overrides: LANES_ONLY,
        limit: 100,
        period_ms: 60_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::LabC,
        title: "Lab C: page load",
        description: "12 simultaneous requests against \"10 per second\": a bucket of 1 blocks 11, a bucket of 20 none, a queue delays them.",
        overrides: LANES_ONLY,
        limit: 10,
        period_ms: 1_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::LabD,
        title: "Lab D: estimate against exact",
        description: "Seeded Poisson traffic, 300 clients x 10 min at 0.5x to 4x of 100 per minute: how often the sliding window counter wrongly allows or blocks.",
        overrides: &["limiters", "window_ms", "seed", "load", "clients"],
        limit: 100,
        period_ms: 60_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::LabE,
        title: "Lab E: worst case",
        description: "100 per minute: 100 requests in the last 0.1 s of the first minute, then 10 per second for two minutes.",
        overrides: LANES_ONLY,
        limit: 100,
        period_ms: 60_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::Poisson,
        title: "Poisson traffic",
        description: "Seeded random traffic from many clients, each at load x the limit on average.",
        overrides: &[
            "limiters",
            "window_ms",
            "limit",
            "period_ms",
            "seed",
            "load",
            "clients",
            "duration_ms",
        ],
        limit: 100,
        period_ms: 60_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::Custom,
        title: "Custom",
        description: "Your own requests (typed, pasted or imported as JSON) and limiters.",
        overrides: &["requests", "limiters", "window_ms"],
        limit: 5,
        period_ms: 10_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::NoisyNeighbour,
        title: "Noisy neighbour",
        description: "Four clients at 2 per second and one at 16: a 10 per second limit per client only slows the noisy one; the same limit on one global key refuses everyone.",
        overrides: SEED_ONLY,
        limit: 10,
        period_ms: 1_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::RetryStorm,
        title: "Retry storm",
        description: "50 users load a page of 5 at once against 50 per second: retrying at once or exactly at Retry-After makes waves of refusals; a little jitter lets them in.",
        overrides: SEED_ONLY,
        limit: 50,
        period_ms: 1_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::Instances,
        title: "Three instances",
        description: "A client at 40 per second, 10 per second allowed: three instances with their own counters really allow 30; one shared store allows 10.",
        overrides: SEED_ONLY,
        limit: 10,
        period_ms: 1_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::StoreOutage,
        title: "Store outage",
        description: "The shared store is down from 20 s to 40 s: fail open lets everything through, fail closed nothing, a local fallback its own budget.",
        overrides: SEED_ONLY,
        limit: 10,
        period_ms: 1_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::PageLoad,
        title: "Page load, with retries",
        description: "Users load a page of 12 requests at once against 10 per second: a bucket of 1 makes them retry (and wait), a bucket of 20 lets the page through.",
        overrides: SEED_ONLY,
        limit: 10,
        period_ms: 1_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::StackedLimits,
        title: "Stacked limits",
        description: "10 per second and 100 per minute, alone and together: each catches what the other lets through; the report says which one refused.",
        overrides: SEED_ONLY,
        limit: 10,
        period_ms: 1_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::ExpensiveRoute,
        title: "An expensive route",
        description: "Exports cost 5 reads: counted as 1 they pass like reads; costing 5 they use the budget they really take; their own tight limit keeps reads untouched.",
        overrides: SEED_ONLY,
        limit: 10,
        period_ms: 1_000,
        window_ms: None,
    },
    ScenarioInfo {
        id: ScenarioId::Service,
        title: "Your service",
        description: "Clients that retry, a key, instances, a store that fails: chosen in the setup, around each lane's limiter.",
        overrides: SERVICE,
        limit: 10,
        period_ms: 1_000,
        window_ms: None,
    },
];

/// Looks a scenario up by its name in JSON and links.
pub fn scenario_info(id: &str) -> Option<&'static ScenarioInfo> {
    ScenarioId::from_id(id).map(ScenarioId::info)
}

/// The scenario ids, comma-separated (for error messages).
pub fn scenario_ids() -> String {
    ScenarioId::ALL.map(ScenarioId::id).join(", ")
}

/// Defaults of the seeded scenarios.
pub mod defaults {
    /// The seed when none is given.
    pub const SEED: u64 = 1;
    /// Lab D's lanes run the 1.25x level (in thousandths).
    pub const LAB_D_LOAD_PERMILLE: u32 = 1250;
    /// Lab D's lanes run its first 10 clients (the sweep runs 300).
    pub const LAB_D_CLIENTS: u32 = 10;
    /// Lab D's duration.
    pub const LAB_D_DURATION_MS: u64 = 600_000;
    /// `poisson`: clients.
    pub const POISSON_CLIENTS: u32 = 20;
    /// `poisson`: load (at the limit).
    pub const POISSON_LOAD_PERMILLE: u32 = 1000;
    /// `poisson`: 5 minutes.
    pub const POISSON_DURATION_MS: u64 = 300_000;
    /// The most clients a Poisson scenario accepts.
    pub const MAX_CLIENTS: u32 = 10_000;
    /// The highest load accepted, in thousandths (100x).
    pub const MAX_LOAD_PERMILLE: u32 = 100_000;
}

/// What a scenario may be given besides its id (`None` = its default). Which ones a
/// scenario accepts is [`ScenarioInfo::overrides`]; [`scenario`] ignores the others
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
    };
    // A service scenario's services were checked as they were made.
    if !id.is_service() {
        config.validate_lanes()?;
    }
    Ok(config)
}

impl ScenarioId {
    /// The lanes this scenario runs when none are given, at budget `limit` per
    /// `period_ms` (the labs and the golden stream ignore the budget: their lanes are
    /// part of the lesson). `custom` has none. (The lanes a *playground* opens it with
    /// are [`crate::share::opening_lanes`].)
    pub fn lanes(self, limit: u64, period_ms: u64) -> Vec<LaneSpec> {
        use Algorithm::*;
        let lane = |a| LaneSpec::simple(a, limit, period_ms);
        let per_minute = |a| LaneSpec::simple(a, 100, 60_000);
        match self {
            ScenarioId::EdgeBurst | ScenarioId::EdgeBurstDemo | ScenarioId::PerSecond => {
                [FixedWindow, SlidingLog, TokenBucket].map(lane).to_vec()
            }
            ScenarioId::SwcLate | ScenarioId::SwcEarly => {
                [SlidingWindowCounter, SlidingLog, FixedWindow]
                    .map(|a| LaneSpec::simple(a, 5, 10_000))
                    .to_vec()
            }
            ScenarioId::TenAtOnce => {
                let nginx = || LaneSpec::simple(Nginx, limit, period_ms).with_burst(5);
                let mut nodelay = nginx();
                nodelay.params.nodelay = true;
                let mut delay = nginx();
                delay.params.delay = Some(3);
                vec![
                    nginx(),
                    nodelay.with_id("nginx_nodelay"),
                    delay.with_id("nginx_delay3"),
                    LaneSpec::simple(LeakyQueue, limit, period_ms).with_burst(6),
                    LaneSpec::simple(Gcra, limit, period_ms).with_burst(6),
                ]
            }
            ScenarioId::FloatEdge => [TokenBucketF64, TokenBucket, Gcra]
                .map(|a| LaneSpec::simple(a, 5, 10_000))
                .to_vec(),
            ScenarioId::TwiceTheRate => [
                FixedWindow,
                SlidingLog,
                SlidingWindowCounter,
                TokenBucket,
                LeakyQueue,
            ]
            .map(lane)
            .to_vec(),
            ScenarioId::BurstThenDrip => [FixedWindow, SlidingLog, TokenBucket, LeakyQueue]
                .map(lane)
                .to_vec(),
            ScenarioId::Manual => [
                FixedWindow,
                SlidingLog,
                SlidingWindowCounter,
                TokenBucket,
                LeakyQueue,
                Gcra,
            ]
            .map(lane)
            .to_vec(),
            ScenarioId::Golden => [
                FixedWindow,
                FixedWindowAnchored,
                SlidingLog,
                SlidingWindowCounter,
                TokenBucket,
                LeakyQueue,
                Gcra,
            ]
            .map(|a| LaneSpec::simple(a, 5, 10_000))
            .to_vec(),
            // The labs run every limiter their tables in the article name.
            ScenarioId::LabA | ScenarioId::LabE => [
                FixedWindow,
                FixedWindowAnchored,
                SlidingLog,
                SlidingWindowCounter,
                TokenBucket,
                Gcra,
                LeakyQueue,
            ]
            .map(per_minute)
            .to_vec(),
            ScenarioId::LabB => [
                FixedWindow,
                SlidingLog,
                SlidingWindowCounter,
                TokenBucket,
                Gcra,
                LeakyQueue,
            ]
            .map(per_minute)
            .to_vec(),
            ScenarioId::LabC => {
                let ten = |a| LaneSpec::simple(a, 10, 1_000);
                vec![
                    ten(TokenBucket).with_burst(1).with_id("token_bucket_b1"),
                    ten(TokenBucket).with_burst(20).with_id("token_bucket_b20"),
                    ten(Gcra).with_burst(20).with_id("gcra_b20"),
                    ten(LeakyQueue).with_burst(12),
                    ten(Nginx).with_burst(11),
                ]
            }
            ScenarioId::LabD => [SlidingWindowCounter, SlidingLog].map(per_minute).to_vec(),
            ScenarioId::Poisson => [FixedWindow, SlidingLog, SlidingWindowCounter, TokenBucket]
                .map(lane)
                .to_vec(),
            ScenarioId::Service => [SlidingLog, TokenBucket, Gcra].map(lane).to_vec(),
            ScenarioId::Custom
            | ScenarioId::NoisyNeighbour
            | ScenarioId::RetryStorm
            | ScenarioId::Instances
            | ScenarioId::StoreOutage
            | ScenarioId::PageLoad
            | ScenarioId::StackedLimits
            | ScenarioId::ExpensiveRoute => Vec::new(),
        }
    }
}

/// A parameterised stream that would run past [`MAX_TIME_MS`].
fn too_long(id: ScenarioId, period_ms: u64, last_ms: u64) -> SimError {
    SimError::at(
        "period_ms",
        format_args!(
            "{period_ms} is too long for {}: its requests would run to {last_ms} ms (at most {MAX_TIME_MS})",
            id.id()
        ),
    )
}

/// What scenario `id`'s stream will be at budget `limit` per `period_ms`, without
/// making it ([`crate::shape`]), for the scenarios whose stream is arithmetic on the
/// budget; `None` for the others (fixed streams of a few hundred requests, seeded
/// traffic, streams given). A stream [`scenario`] would refuse (too many requests,
/// past the last time) is refused here with the same message. The formulas are
/// those of the generators below, at their last index.
pub fn shape(id: ScenarioId, limit: u64, period_ms: u64) -> Result<Option<Shape>, SimError> {
    ratelab_core::Rate::new(limit, period_ms).map_err(|e| SimError::param("", &e))?;
    let (n, w) = (limit as u128, period_ms as u128);
    let count = |factor: u128| check_size(factor * n, id.id()).map(|c| c as u64);
    let shape = match id {
        // `⌊0.9W + k·W/(10N)⌋`, k in 0..2N: the two halves are one progression.
        ScenarioId::EdgeBurst => Shape::spread(
            count(2)?,
            ((9 * n * w + (2 * n - 1) * w) / (10 * n)) as u64,
            w,
            10 * n,
        ),
        // Two progressions 0.199W/N apart; the gap between them (0.001W + 0.199W/N)
        // is wider than their step.
        ScenarioId::EdgeBurstDemo => Shape::spread(
            count(2)?,
            ((1000 * n * w + 199 * (n - 1) * w) / (1000 * n)) as u64,
            199 * w,
            1000 * n,
        ),
        ScenarioId::TwiceTheRate => {
            Shape::spread(count(6)?, ((6 * n - 1) * w / (2 * n)) as u64, w, 2 * n)
        }
        // N at 0, then `⌊j·2W/N⌋` for j in 1..2N (`< 4W` exactly when j < 2N).
        ScenarioId::BurstThenDrip => {
            count(3)?;
            Shape {
                burst_extra: limit - 1,
                ..Shape::spread(3 * limit - 1, ((2 * n - 1) * 2 * w / n) as u64, 2 * w, n)
            }
        }
        ScenarioId::TenAtOnce => Shape {
            burst_extra: limit - 1,
            ..Shape::spread(count(1)?, 0, 0, 1)
        },
        _ => return Ok(None),
    };
    if shape.last_ms > MAX_TIME_MS {
        return Err(too_long(id, period_ms, shape.last_ms));
    }
    Ok(Some(shape))
}

/// SPEC's golden stream, in ms.
pub const GOLDEN_TIMES: [u64; 12] = [
    2_000, 7_000, 8_000, 9_000, 9_500, 9_800, 10_100, 10_400, 10_700, 11_200, 15_000, 19_500,
];

/// Refuses a parameterised stream that would be too long, before building it.
fn check_size(count: u128, what: &str) -> Result<usize, SimError> {
    if count > MAX_REQUESTS as u128 {
        return Err(SimError::at(
            "limit",
            format_args!("{what} would make {count} requests (at most {MAX_REQUESTS})"),
        ));
    }
    Ok(count as usize)
}

/// `edge-burst`: a burst of 2N split in half around the boundary at W. SPEC says
/// "half the limit just before, half just after", but a burst of only N passes every
/// limiter, so "half" is read as half of a 2N burst: N requests evenly spaced over the
/// last tenth of the first window, `t = ⌊0.9W + i·W/(10N)⌋` (in `[0.9W, W)`), then N
/// over the first tenth of the next, `t = W + ⌊i·W/(10N)⌋` (in `[W, 1.1W)`), i in 0..N.
pub fn edge_burst(limit: u64, period_ms: u64) -> Result<Stream, SimError> {
    let n = check_size(2 * limit as u128, "edge-burst")? as u64 / 2;
    let (n128, w) = (n as u128, period_ms as u128);
    let offset = |i: u64| (i as u128 * w / (10 * n128)) as u64;
    let before = (0..n).map(|i| ((9 * n128 * w + i as u128 * w) / (10 * n128)) as u64);
    let after = (0..n).map(|i| period_ms + offset(i));
    Ok(Stream::from_times(before.chain(after)))
}

/// `2x-rate`: `t = ⌊k·W/(2N)⌋` for k in 0..6N: twice the allowed rate for 3 windows.
pub fn twice_the_rate(limit: u64, period_ms: u64) -> Result<Stream, SimError> {
    let count = check_size(6 * limit as u128, "2x-rate")?;
    let (n, w) = (limit as u128, period_ms as u128);
    Ok(Stream::from_times(
        (0..count as u128).map(|k| (k * w / (2 * n)) as u64),
    ))
}

/// `burst-then-drip`: N requests at 0, then one at `t = ⌊j·2W/N⌋` for j = 1, 2, ...
/// while `t < 4W` (half the allowed rate, 2N − 1 more requests).
pub fn burst_then_drip(limit: u64, period_ms: u64) -> Result<Stream, SimError> {
    let count = check_size(3 * limit as u128, "burst-then-drip")?;
    let (n, w) = (limit as u128, period_ms as u128);
    let burst = core::iter::repeat_n(0, limit as usize);
    let drip = (1..)
        .map(move |j: u128| (j * 2 * w / n) as u64)
        .take_while(move |&t| (t as u128) < 4 * w);
    let mut s = Stream::from_times(burst.chain(drip));
    s.requests.truncate(count);
    Ok(s)
}

/// `lab-a`: one request at 0, 100 at `59000 + 10i`, 100 at `60000 + 10i` (i in 0..100).
pub fn lab_a() -> Stream {
    let before = (0..100).map(|i| 59_000 + 10 * i);
    let after = (0..100).map(|i| 60_000 + 10 * i);
    Stream::from_times(core::iter::once(0).chain(before).chain(after))
}

/// `lab-b`: one request every 300 ms for 3 minutes (`t = 300k`, k in 0..600).
pub fn lab_b() -> Stream {
    Stream::from_times((0..600).map(|k| 300 * k))
}

/// `lab-e`: 100 requests at `59900 + i` (i in 0..100), then `60000 + 100k` for k in
/// 0..1200 (10 per second for two minutes).
pub fn lab_e() -> Stream {
    let edge = (0..100).map(|i| 59_900 + i);
    let steady = (0..1200).map(|k| 60_000 + 100 * k);
    Stream::from_times(edge.chain(steady))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_burst_straddles_the_boundary() {
        let s = edge_burst(5, 10_000).unwrap();
        let times: Vec<u64> = s.times().collect();
        assert_eq!(
            times,
            [9000, 9200, 9400, 9600, 9800, 10_000, 10_200, 10_400, 10_600, 10_800]
        );
        // Uneven division stays inside the tenths.
        let s = edge_burst(3, 1000).unwrap();
        assert!(s.times().take(3).all(|t| (900..1000).contains(&t)));
        assert!(s.times().skip(3).all(|t| (1000..1100).contains(&t)));
    }

    #[test]
    fn the_rate_streams() {
        let s = twice_the_rate(5, 10_000).unwrap();
        assert_eq!(s.len(), 30);
        assert_eq!(s.requests[29].t, 29_000);
        let s = burst_then_drip(5, 10_000).unwrap();
        let times: Vec<u64> = s.times().collect();
        assert_eq!(
            times,
            [0, 0, 0, 0, 0, 4000, 8000, 12_000, 16_000, 20_000, 24_000, 28_000, 32_000, 36_000]
        );
        assert!(twice_the_rate(1 << 30, 1000).is_err());
    }

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

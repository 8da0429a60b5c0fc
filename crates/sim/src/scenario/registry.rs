//! The registry's entries: [`ScenarioInfo`] per scenario, in [`SCENARIOS`].

use super::ScenarioId;

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

impl ScenarioId {
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

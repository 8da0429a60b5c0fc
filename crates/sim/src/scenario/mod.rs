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
//!
//! Inside: `id.rs` (the ids), `registry.rs` (the entries), `build.rs` (a scenario
//! to a [`Config`](crate::Config)), `lanes.rs` (default lanes), `streams.rs` (the
//! arithmetic streams and their shapes).

mod build;
mod id;
mod lanes;
mod registry;
mod streams;

pub use build::{scenario, scenario_without_services, Overrides};
pub use id::ScenarioId;
pub use registry::{scenario_ids, scenario_info, ScenarioInfo, SCENARIOS};
pub use streams::{
    burst_then_drip, edge_burst, lab_a, lab_b, lab_e, shape, twice_the_rate, GOLDEN_TIMES,
};

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

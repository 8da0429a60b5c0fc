//! The ratelab simulator: deterministic request streams and scenarios, a runner that
//! feeds one stream to any set of limiters, the shared yardstick, one JSON format,
//! and a live timeline for the playground.
//!
//! Every face of ratelab (the playground, the embed, the JS API, the command line)
//! goes through this crate, so they all run the same scenarios, compute the same
//! yardstick and print the same error messages. It compiles to
//! `wasm32-unknown-unknown` as well as natively and gives byte-identical output on
//! both: decisions are integer (ratelab-core), and the only floats place seeded
//! Poisson arrivals on the clock with a software logarithm ([`traffic`]).
//!
//! ```
//! use ratelab_sim::simulate_json;
//!
//! // SPEC's golden stream against a fixed window and a sliding log, 5 per 10 s.
//! let out = simulate_json(r#"{
//!     "requests": [2000, 7000, 8000, 9000, 9500, 9800, 10100, 10400, 10700, 11200, 15000, 19500],
//!     "limiters": [
//!         {"algorithm": "fixed_window", "limit": 5, "period_ms": 10000},
//!         {"algorithm": "sliding_log", "limit": 5, "period_ms": 10000}
//!     ]
//! }"#)?;
//! let report: serde_json::Value = serde_json::from_str(&out).unwrap();
//! assert_eq!(report["results"][0]["passed"], 10);
//! assert_eq!(report["results"][0]["max_in_window"], 9); // 9 in one 10 s window
//! assert_eq!(report["results"][1]["max_in_window"], 5);
//!
//! // Errors are one line that names the path.
//! let err = simulate_json(r#"{"requests": [0], "limiters": [{"algorithm": "gcra", "limit": 5, "period_ms": 0}]}"#);
//! assert_eq!(err.unwrap_err(), "limiters[0].period_ms: must be > 0");
//! # Ok::<(), String>(())
//! ```
//!
//! Typed APIs underneath: [`Config::from_json`], [`scenario()`], [`run`] → [`Report`],
//! [`trace`], [`sweep()`], and [`Timeline`] for the live playground.
//!
//! # Where things live
//!
//! | module | what |
//! |---|---|
//! | `stream`, `lane`, `config` | requests, streams, one lane ([`LaneSpec`]), a runnable [`Config`] (no JSON) |
//! | [`scenario`](mod@scenario) | the registry: [`ScenarioId`], its streams and default lanes |
//! | `json` | the JSON format, reading and writing ([`Config::from_json`], [`Report::to_json`], [`simulate_json`], [`scenarios_json`]) |
//! | `run`, `yardstick` | one stream through every lane, and the shared metrics |
//! | [`sweep`](mod@sweep), [`traffic`] | lab D's sweep and seeded Poisson traffic |
//! | [`counter_error`] | the sliding window counter's estimate beside the real window's count, each wrong allow and wrong block marked |
//! | [`timeline`] | the live, scrubbable timeline of the playground |
//! | [`share`] | the playground's link: setup and view as a query string |
//!
//! # Departures are monotone per key
//!
//! The yardstick counts the delaying limiters' traffic by departure time in one pass,
//! which relies on departures of one key leaving in arrival order. For the leaky queue
//! that is its definition (`out = max(next_out, t)`). For nginx, a later request's
//! excess is at least the earlier one's, less what drained in between, plus one, so
//! its delay is at least the earlier delay minus the time between them (and an
//! undelayed request only follows once the earlier one has left). A property test
//! checks it; the window would clamp rather than miscount if it ever failed.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod config;
pub mod cost;
pub mod counter_error;
mod error;
mod json;
mod lane;
mod run;
pub mod scenario;
pub mod service;
pub mod shape;
pub mod share;
mod stream;
pub mod streams;
pub mod sweep;
pub mod text;
pub mod timeline;
pub mod traffic;
mod yardstick;

/// The engine, re-exported so that users of the simulator need one dependency.
pub use ratelab_core;

pub use config::Config;
pub use cost::{Budget, Cost};
pub use error::SimError;
pub use json::{
    live_request, scenarios_json, simulate_json, simulate_value, LimiterOut, LIMITER_FIELDS,
    MAX_LABEL_CHARS, REQUEST_FIELDS, TOP_FIELDS,
};
pub use lane::{LaneSpec, ResolvedParams, MAX_LANES};
pub use run::{
    run, run_answering, run_with, trace, trace_each, LaneReport, LaneTrace, Report, TraceRow,
};
pub use scenario::{
    scenario, scenario_info, scenario_without_services, Overrides, ScenarioId, ScenarioInfo,
    SCENARIOS,
};
pub use stream::{Request, Stream, MAX_REQUESTS, MAX_TIME_MS};
pub use sweep::{sweep, Sweep, SweepRow, SweepSpec};
pub use timeline::{BusiestWindow, Extending, Outcome, Timeline, TimelineError, TimelineLimits};
pub use yardstick::{Decided, Yardstick, HISTOGRAM_BUCKET_MS, HISTOGRAM_MAX_BUCKETS};

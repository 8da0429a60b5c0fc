//! The JSON format, reading and writing, in one place: every face (the command line,
//! the JS API, the playground's import and export) goes through here.
//!
//! - `read.rs`: text or a `serde_json::Value` → a validated [`Config`], with every
//!   error one line naming its path.
//! - `write.rs`: a [`Report`] → the output, a [`Config`] → the
//!   explicit input form ("export"), the registry → `ratelab scenarios --json`.
//! - `fields.rs`: the readers every part shares (integers, strings, labels, unknown
//!   fields, one limiter object); `limiter.rs`: one limiter written in the input form.
//! - `service/`: the `services` section (a service run), both ways.
//!
//! Dependencies point one way: this module uses [`crate::config`],
//! [`crate::scenario`] and [`crate::run`]; none of them knows about JSON.
//!
//! # Adding a top-level section
//!
//! A new input field (say `"service": {...}`) is:
//! 1. its name in [`TOP_FIELDS`] (the order in which errors are looked for);
//! 2. a reader in `read.rs` called from `explicit` and/or `with_scenario` (use
//!    `opt(obj, "service", |v, path| ...)`, and `unknown_fields` with its own field
//!    list for an object, so errors name `service.field`);
//! 3. where scenarios may take it: the field in their [`crate::ScenarioInfo::overrides`];
//! 4. a field on [`Config`] (or [`crate::Overrides`]) to carry it, and its output
//!    in `write.rs` (a field of the mirror struct, in the README's order; fields may
//!    be added, never reordered or renamed).

mod fields;
mod limiter;
mod read;
mod service;
mod tree;
mod write;

use crate::config::Config;
use crate::error::SimError;
use crate::lane::LaneSpec;
use crate::run::{run_answering, Report};

pub use fields::LIMITER_FIELDS;
pub use limiter::LimiterOut;
pub use read::{MAX_LABEL_CHARS, REQUEST_FIELDS, TOP_FIELDS};
pub use write::scenarios_json;

impl Config {
    /// Parses the JSON format (see the crate docs and the README's "JSON format").
    pub fn from_json(text: &str) -> Result<Config, SimError> {
        read::config_from_str(text)
    }

    /// Parses an already parsed JSON value (the JS API converts a JS object to one).
    pub fn from_value(value: &serde_json::Value) -> Result<Config, SimError> {
        read::config_from_value(value)
    }

    /// The config in the explicit JSON form (`requests`, `limiters`, `window_ms`):
    /// what "export" writes, and what [`Config::from_json`] reads back to an equal
    /// stream and lanes. Times from key `""` with cost 1 are written as bare numbers.
    pub fn to_json(&self) -> String {
        write::config(self)
    }
}

impl LaneSpec {
    /// Parses one limiter object of the format, as a lane of `limiters` is read
    /// (`{"algorithm": "gcra", "limit": 10, "period_ms": 1000, "burst": 20}`), with
    /// the same checks and one-line errors, their paths relative to the object
    /// (`period_ms: must be > 0`). Its `id` defaults to the algorithm's.
    pub fn from_json(text: &str) -> Result<LaneSpec, SimError> {
        read::lane_from_str(text)
    }

    /// [`LaneSpec::from_json`] from an already parsed value (the JS API's
    /// `limiter(config)`).
    pub fn from_value(value: &serde_json::Value) -> Result<LaneSpec, SimError> {
        read::lane_from_value(value)
    }
}

/// One request to a live limiter (the JS API's `check(now, cost, key)`): `(now,
/// cost, key)` checked as a request object of `requests` is, with the same
/// messages, named `now`, `cost` and `key`; `cost` defaults to 1 and `key` to `""`.
pub fn live_request(
    now: &serde_json::Value,
    cost: Option<&serde_json::Value>,
    key: Option<&serde_json::Value>,
) -> Result<(u64, u32, String), SimError> {
    read::request_from_values(now, cost, key)
}

impl Report {
    /// The report as the JSON output (`ratelab simulate`), fields in the format's
    /// order.
    pub fn to_json(&self) -> String {
        write::to_string(self)
    }
}

/// JSON text in, JSON text out: the one entry point the CLI and the JS API share, so
/// that results and error messages are identical everywhere.
pub fn simulate_json(input: &str) -> Result<String, String> {
    let config = Config::from_json(input)?;
    Ok(run_answering(&config)?.to_json())
}

/// The same from an already parsed value (the JS API converts a JS object to a
/// `serde_json::Value`). Returns the typed report, whose `Serialize` keeps the field
/// order of the format (converting it to a `serde_json::Value` would sort the keys).
pub fn simulate_value(input: &serde_json::Value) -> Result<Report, String> {
    let config = Config::from_value(input)?;
    Ok(run_answering(&config)?)
}

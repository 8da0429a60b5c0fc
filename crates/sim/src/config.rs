//! What to run: a stream, the lanes (limiters) to feed it to, and the yardstick
//! window. Built from JSON ([`Config::from_json`]), from a scenario
//! ([`crate::scenario()`]), or by hand.

use ratelab_core::Limiter;

use crate::error::SimError;
use crate::lane::{LaneSpec, MAX_LANES};
use crate::scenario::ScenarioId;
use crate::service::ServiceSpec;
use crate::stream::Stream;
use crate::sweep::SweepSpec;

/// A complete run: stream, lanes, yardstick window, and (lab D) a sweep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The scenario it came from, if any.
    pub scenario: Option<ScenarioId>,
    /// The requests.
    pub stream: Stream,
    /// The limiters, each fed the whole stream independently.
    pub lanes: Vec<LaneSpec>,
    /// The yardstick window; `None` means each lane's own period.
    pub window_ms: Option<u64>,
    /// Lab D's sweep, run alongside the lanes.
    pub sweep: Option<SweepSpec>,
    /// A service run instead ([`crate::service`]): each service is a lane, with
    /// its own clients and attempts; `stream` and `lanes` are then unused.
    pub services: Option<Vec<ServiceSpec>>,
    /// Whether [`crate::run`] also writes each request's response (status, header
    /// fields, body) per lane: asked for (`"responses": true`), as it is about
    /// ten times the report.
    pub responses: bool,
}

impl Config {
    /// A config with no scenario and no sweep.
    pub fn new(stream: Stream, lanes: Vec<LaneSpec>, window_ms: Option<u64>) -> Config {
        Config {
            scenario: None,
            stream,
            lanes,
            window_ms,
            sweep: None,
            services: None,
            responses: false,
        }
    }

    /// A service run of `services` (each one a lane), with no scenario.
    pub fn services(services: Vec<ServiceSpec>) -> Config {
        Config {
            services: Some(services),
            ..Config::new(Stream::new(), Vec::new(), None)
        }
    }

    /// Asks [`crate::run`] for every request's response ([`Config::responses`]);
    /// refused for a service run, whose report counts attempts per second.
    pub fn ask_responses(&mut self) -> Result<(), SimError> {
        if self.services.is_some() {
            return Err(SimError::at(
                "responses",
                "not used with a service run (it has no response per request)",
            ));
        }
        self.responses = true;
        Ok(())
    }

    /// Checks everything a run needs: the stream's invariants, at least one and at
    /// most [`MAX_LANES`] lanes with unique ids and valid parameters, a window ≥ 1,
    /// and no request costing more than a lane could ever allow.
    pub fn validate(&self) -> Result<(), SimError> {
        if let Some(services) = &self.services {
            if !cfg!(feature = "services") {
                return Err(crate::service::left_out("services"));
            }
            return crate::service::validate_all(services);
        }
        self.validate_lanes()
    }

    /// [`Config::validate`] for a run of limiters: everything but the services.
    pub fn validate_lanes(&self) -> Result<(), SimError> {
        self.stream.validate()?;
        if self.lanes.is_empty() {
            return Err(SimError::at("limiters", "must not be empty"));
        }
        if self.lanes.len() > MAX_LANES {
            return Err(SimError::at(
                "limiters",
                format_args!(
                    "{} limiters is too many (at most {MAX_LANES})",
                    self.lanes.len()
                ),
            ));
        }
        if self.window_ms == Some(0) {
            return Err(SimError::at("window_ms", "must be > 0"));
        }
        let mut protos = Vec::with_capacity(self.lanes.len());
        for (i, lane) in self.lanes.iter().enumerate() {
            if self.lanes[..i].iter().any(|l| l.id == lane.id) {
                return Err(SimError::at(
                    &format!("limiters[{i}].id"),
                    format_args!("duplicate id \"{}\"", lane.id),
                ));
            }
            protos.push(
                lane.build()
                    .map_err(|e| SimError::param(&format!("limiters[{i}]"), &e))?,
            );
        }
        // A cost no lane could ever allow is an error (core refuses to judge it), so
        // find it now rather than halfway through a run.
        for (i, r) in self.stream.requests.iter().enumerate() {
            if r.cost <= 1 {
                continue;
            }
            for (j, p) in protos.iter().enumerate() {
                if let Err(e) = p.peek(0, r.cost) {
                    return Err(SimError::check(i, j, &self.lanes[j].id, &e));
                }
            }
        }
        Ok(())
    }
}

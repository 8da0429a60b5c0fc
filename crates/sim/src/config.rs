//! What to run: a stream, the lanes (limiters) to feed it to, and the yardstick
//! window. Built from JSON ([`Config::from_json`]), from a scenario
//! ([`crate::scenario()`]), or by hand.

use ratelab_core::{Algorithm, AnyLimiter, Limiter, ParamError, Params};

use crate::error::SimError;
use crate::scenario::ScenarioId;
use crate::service::ServiceSpec;
use crate::stream::Stream;
use crate::sweep::SweepSpec;

/// The most lanes one run may have.
pub const MAX_LANES: usize = 32;

/// One lane: a limiter to run, with the label it is reported under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneSpec {
    /// A label unique within the run (defaults to the algorithm's id).
    pub id: String,
    /// Which limiter.
    pub algorithm: Algorithm,
    /// Its parameters (unset options take core's defaults, see [`Params::burst_for`]).
    pub params: Params,
}

impl LaneSpec {
    /// `algorithm` with `params`, labelled with the algorithm's id.
    pub fn new(algorithm: Algorithm, params: Params) -> LaneSpec {
        LaneSpec {
            id: algorithm.id().to_string(),
            algorithm,
            params,
        }
    }

    /// `algorithm` at `limit` per `period_ms`, options at their defaults.
    pub fn simple(algorithm: Algorithm, limit: u64, period_ms: u64) -> LaneSpec {
        LaneSpec::new(algorithm, Params::new(limit, period_ms))
    }

    /// The same lane with another label.
    pub fn with_id(mut self, id: impl Into<String>) -> LaneSpec {
        self.id = id.into();
        self
    }

    /// The same lane with `burst` set.
    pub fn with_burst(mut self, burst: u64) -> LaneSpec {
        self.params.burst = Some(burst);
        self
    }

    /// Builds the limiter (validating the parameters).
    pub fn build(&self) -> Result<AnyLimiter, ParamError> {
        AnyLimiter::new(self.algorithm, &self.params)
    }

    /// The parameters as the limiter will use them: burst resolved where the
    /// algorithm has one, delay resolved for nginx.
    pub fn resolved(&self) -> ResolvedParams {
        let nginx = self.algorithm == Algorithm::Nginx;
        ResolvedParams {
            limit: self.params.limit,
            period_ms: self.params.period_ms,
            burst: self
                .algorithm
                .uses_burst()
                .then(|| self.params.burst_for(self.algorithm)),
            delay: (nginx && !self.params.nodelay).then(|| self.params.delay.unwrap_or(0)),
            nodelay: nginx && self.params.nodelay,
        }
    }

    /// The yardstick window for this lane: `window_ms` if given, else its period.
    pub fn window_ms(&self, window_ms: Option<u64>) -> u64 {
        window_ms.unwrap_or(self.params.period_ms)
    }
}

/// Parameters as a limiter uses them, for reports (`params` in the JSON output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResolvedParams {
    /// N.
    pub limit: u64,
    /// W in ms.
    pub period_ms: u64,
    /// Capacity (buckets, GCRA, queue) or nginx's `burst`; `null` where the algorithm
    /// has none.
    pub burst: Option<u64>,
    /// nginx's `delay`; `null` for other algorithms and with `nodelay`.
    pub delay: Option<u64>,
    /// nginx's `nodelay`; `false` for other algorithms.
    pub nodelay: bool,
}

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
        }
    }

    /// A service run of `services` (each one a lane), with no scenario.
    pub fn services(services: Vec<ServiceSpec>) -> Config {
        Config {
            services: Some(services),
            ..Config::new(Stream::new(), Vec::new(), None)
        }
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

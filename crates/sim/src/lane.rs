//! One lane: a limiter with its label and parameters ([`LaneSpec`]), and its parameters as reports show them.

use ratelab_core::{Algorithm, AnyLimiter, ParamError, Params};

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

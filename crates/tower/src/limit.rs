//! One limit of the stack: a lane's limiter, whose requests it counts together, and
//! which requests it applies to.

use std::fmt;
use std::sync::Arc;

use http::request::Parts;
use ratelab_core::{Algorithm, Params};
use ratelab_sim::{LaneSpec, SimError};

use crate::{BuildError, Key};

/// Which requests a limit applies to.
type Applies = Arc<dyn Fn(&Parts) -> bool + Send + Sync>;

/// A limiter of the engine with its key and routes.
///
/// Built from the JSON a lane uses ([`Limit::from_json`], parsed by ratelab-sim,
/// with its one-line errors) or from an algorithm and its parameters
/// ([`Limit::new`]); either way a configuration the engine refuses is refused here.
#[derive(Clone)]
pub struct Limit {
    pub(crate) lane: LaneSpec,
    pub(crate) key: Option<Key>,
    pub(crate) applies: Option<Applies>,
}

impl Limit {
    /// A lane's limiter object, as in the JSON format's `limiters`:
    /// `{"algorithm": "gcra", "limit": 10, "period_ms": 1000, "burst": 20}`.
    pub fn from_json(text: &str) -> Result<Limit, BuildError> {
        let lane = LaneSpec::from_json(text).map_err(|e| BuildError::new(e.as_str()))?;
        Ok(Limit::lane(lane))
    }

    /// `algorithm` with `params`, checked as the engine checks them.
    pub fn new(algorithm: Algorithm, params: Params) -> Result<Limit, BuildError> {
        let lane = LaneSpec::new(algorithm, params);
        lane.build()
            .map_err(|e| BuildError::new(SimError::param("", &e).as_str()))?;
        Ok(Limit::lane(lane))
    }

    fn lane(lane: LaneSpec) -> Limit {
        Limit {
            lane,
            key: None,
            applies: None,
        }
    }

    /// Another label (the `id`: named when it refuses, and part of its Redis keys).
    pub fn id(mut self, id: &str) -> Limit {
        self.lane.id = id.to_string();
        self
    }

    /// Counts by `key` instead of the layer's key.
    pub fn key(mut self, key: Key) -> Limit {
        self.key = Some(key);
        self
    }

    /// Applies only to the requests `f` chooses (a route, a method); the others pass
    /// it without counting.
    pub fn only(mut self, f: impl Fn(&Parts) -> bool + Send + Sync + 'static) -> Limit {
        self.applies = Some(Arc::new(f));
        self
    }

    /// The lane: its id, algorithm and parameters.
    pub fn spec(&self) -> &LaneSpec {
        &self.lane
    }

    pub(crate) fn applies_to(&self, parts: &Parts) -> bool {
        self.applies.as_ref().is_none_or(|f| f(parts))
    }
}

impl fmt::Debug for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Limit")
            .field("lane", &self.lane)
            .field("key", &self.key)
            .field("only", &self.applies.is_some())
            .finish()
    }
}

//! A lane's parameters checked against what Lua's numbers hold, and its arguments.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use ratelab_core::{Algorithm, AnyLimiter, ParamError, Params};

use crate::space::{keys_of, KeySpace};
use crate::Script;

/// The latest time, and the longest period, the scripts accept: 2^52 − 1 ms (about
/// 142 000 years; Unix time in ms is about 2^41 today). Below the engine's 2^53 − 1
/// so that a time plus a period still fits in a double exactly.
pub const MAX_LUA_TIME_MS: u64 = (1 << 52) - 1;

/// The largest `count · period_ms` the scripts accept (`limit · period_ms` for the
/// sliding window counter, `burst · period_ms` for the token bucket, GCRA and the
/// leaky queue): 2^51 − 1, so that a sum of three such numbers stays below 2^53,
/// where doubles stop holding every integer. (The engine's own cap, 2^62, is for
/// u64.) At 100 per minute that still allows a burst of 37 billion.
pub const MAX_LUA_PRODUCT: u64 = (1 << 51) - 1;

/// Why a lane cannot run as a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptError {
    /// The engine refuses the parameters (the same message the engine gives).
    Param(ParamError),
    /// A value the engine accepts but Lua's doubles would not hold exactly.
    TooLarge {
        /// The parameter, as in the JSON format (`period_ms`, `now`, ...).
        field: &'static str,
        /// The value given.
        value: u64,
        /// The largest accepted.
        max: u64,
    },
    /// `field · period_ms` would pass [`MAX_LUA_PRODUCT`].
    TooLargeForPeriod {
        /// `limit` or `burst`.
        field: &'static str,
        /// The value given.
        value: u64,
        /// The largest accepted with this period.
        max: u64,
    },
    /// The engine's teaching variants have no script (their Redis counterparts are
    /// in [`crate::teaching`]).
    NoScript {
        /// The algorithm's id.
        algorithm: &'static str,
    },
    /// A key prefix that cannot be used.
    Prefix {
        /// The prefix given.
        prefix: String,
        /// What is wrong with it.
        why: &'static str,
    },
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptError::Param(e) => e.fmt(f),
            ScriptError::TooLarge { field, value, max } => write!(
                f,
                "{field}: {value} is too large for Redis's Lua numbers (at most {max}, where doubles still hold every whole number of ms)"
            ),
            ScriptError::TooLargeForPeriod { field, value, max } => write!(
                f,
                "{field}: {value} is too large for this period_ms (at most {max}, so that {field} · period_ms stays below 2^51 in Redis's Lua numbers)"
            ),
            ScriptError::NoScript { algorithm } => write!(
                f,
                "{algorithm} is one of the engine's teaching variants and has no Redis script (ratelab lua --teaching lists the wrong scripts)"
            ),
            ScriptError::Prefix { prefix, why } => {
                write!(f, "prefix: {:?} {why}", prefix)
            }
        }
    }
}

impl From<ParamError> for ScriptError {
    fn from(e: ParamError) -> ScriptError {
        ScriptError::Param(e)
    }
}

impl core::error::Error for ScriptError {}

/// A limiter's parameters, checked for its Lua script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LuaLane {
    algorithm: Algorithm,
    script: &'static Script,
    limit: u64,
    period_ms: u64,
    /// Capacity, burst or nginx's burst, for the algorithms that have one.
    burst: Option<u64>,
    /// nginx's delay; `None` for `nodelay` (and for the others).
    delay: Option<u64>,
}

impl LuaLane {
    /// Checks `params` for `algorithm` as the engine does, then against Lua's caps
    /// ([`MAX_LUA_TIME_MS`] for the period, [`MAX_LUA_PRODUCT`] for the products).
    pub fn new(algorithm: Algorithm, params: &Params) -> Result<LuaLane, ScriptError> {
        let script = crate::script(algorithm).ok_or(ScriptError::NoScript {
            algorithm: algorithm.id(),
        })?;
        AnyLimiter::new(algorithm, params)?;
        if params.period_ms > MAX_LUA_TIME_MS {
            return Err(ScriptError::TooLarge {
                field: "period_ms",
                value: params.period_ms,
                max: MAX_LUA_TIME_MS,
            });
        }
        let burst = algorithm.uses_burst().then(|| params.burst_for(algorithm));
        let product = match algorithm {
            Algorithm::SlidingWindowCounter => Some(("limit", params.limit)),
            Algorithm::TokenBucket | Algorithm::Gcra | Algorithm::LeakyQueue => {
                burst.map(|b| ("burst", b))
            }
            _ => None,
        };
        if let Some((field, value)) = product {
            let max = MAX_LUA_PRODUCT / params.period_ms;
            if value > max {
                return Err(ScriptError::TooLargeForPeriod { field, value, max });
            }
        }
        let nginx = algorithm == Algorithm::Nginx;
        Ok(LuaLane {
            algorithm,
            script,
            limit: params.limit,
            period_ms: params.period_ms,
            burst,
            delay: (nginx && !params.nodelay).then(|| params.delay.unwrap_or(0)),
        })
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// Its script.
    pub fn script(&self) -> &'static Script {
        self.script
    }

    /// The parameter arguments (`ARGV[4]` on): limit, period_ms, then burst where the
    /// algorithm has one, then nginx's delay or `nodelay`.
    pub fn params_args(&self) -> Vec<String> {
        let mut args = alloc::vec![self.limit.to_string(), self.period_ms.to_string()];
        if let Some(b) = self.burst {
            args.push(b.to_string());
        }
        if self.algorithm == Algorithm::Nginx {
            args.push(match self.delay {
                Some(d) => d.to_string(),
                None => "nodelay".into(),
            });
        }
        args
    }

    /// The Redis keys (`KEYS`) of `lane`'s limiter for `key`: one, or two for the
    /// sliding log (the log and its count).
    pub fn keys(&self, space: &KeySpace, lane: &str, key: &str) -> Vec<String> {
        keys_of(space, lane, key, self.algorithm == Algorithm::SlidingLog)
    }

    /// The largest cost a request may have: what the limiter can ever allow at once.
    pub fn capacity(&self) -> u64 {
        match (self.algorithm, self.burst) {
            (Algorithm::Nginx, Some(b)) => b + 1,
            (_, Some(b)) => b,
            (_, None) => self.limit,
        }
    }

    /// Refuses a time the scripts cannot take (beyond [`MAX_LUA_TIME_MS`]).
    pub fn check_time(now: u64) -> Result<(), ScriptError> {
        if now > MAX_LUA_TIME_MS {
            return Err(ScriptError::TooLarge {
                field: "now",
                value: now,
                max: MAX_LUA_TIME_MS,
            });
        }
        Ok(())
    }
}

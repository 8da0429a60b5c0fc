//! A limiter (lane) in the input format: what every writer of a lane shares.

use serde::Serialize;

use crate::lane::LaneSpec;

/// A limiter in the input format (also in the registry's output, and in a
/// service's limits): serialise it to write a [`LaneSpec`] as the format reads it
/// (`LimiterOut::from(&lane)`). Public for the formats that embed a lane (the
/// translator's answer in `ratelab-learn`).
#[derive(Serialize)]
pub struct LimiterOut<'a> {
    algorithm: &'static str,
    id: &'a str,
    limit: u64,
    period_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    burst: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    delay: Option<u64>,
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    nodelay: bool,
}

impl<'a> From<&'a LaneSpec> for LimiterOut<'a> {
    fn from(l: &'a LaneSpec) -> LimiterOut<'a> {
        LimiterOut {
            algorithm: l.algorithm.id(),
            id: &l.id,
            limit: l.params.limit,
            period_ms: l.params.period_ms,
            burst: l.params.burst,
            delay: l.params.delay,
            nodelay: l.params.nodelay,
        }
    }
}

//! Validated parameters shared by the limiters.

use crate::error::{CheckError, ParamError};

/// The longest period accepted, in ms: 2^53 − 1, the largest integer that JSON
/// readers and JavaScript agree on (about 285 000 years).
pub const MAX_PERIOD_MS: u64 = (1 << 53) - 1;

/// The largest limit, burst or capacity accepted.
pub const MAX_COUNT: u64 = u32::MAX as u64;

/// `limit` requests per `period_ms` milliseconds. Both are integers, so a rate such as
/// 3 per 10 s stays exact (its emission interval is 3333⅓ ms, kept as a fraction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    limit: u32,
    period_ms: u64,
}

impl Rate {
    /// Validates `limit ≥ 1`, `period_ms ≥ 1` and both within range.
    pub fn new(limit: u64, period_ms: u64) -> Result<Rate, ParamError> {
        let limit = count("limit", limit)?;
        if period_ms == 0 {
            return Err(ParamError::Zero { field: "period_ms" });
        }
        if period_ms > MAX_PERIOD_MS {
            return Err(ParamError::TooLarge {
                field: "period_ms",
                value: period_ms,
                max: MAX_PERIOD_MS,
            });
        }
        Ok(Rate { limit, period_ms })
    }

    /// Requests per period.
    pub fn limit(self) -> u64 {
        self.limit as u64
    }

    /// The period in ms.
    pub fn period_ms(self) -> u64 {
        self.period_ms
    }
}

/// Validates a count-like parameter (limit, burst, capacity): `1..=u32::MAX`.
pub fn count(field: &'static str, value: u64) -> Result<u32, ParamError> {
    if value == 0 {
        return Err(ParamError::Zero { field });
    }
    u32::try_from(value).map_err(|_| ParamError::TooLarge {
        field,
        value,
        max: MAX_COUNT,
    })
}

/// The largest `count · period_ms` accepted by the limiters that multiply a count by
/// the period (token bucket, GCRA, leaky queue, sliding window counter): below 2^62,
/// so that every decision is plain u64 arithmetic, with room to add two of them.
pub const MAX_SCALED: u64 = (1 << 62) - 1;

/// Validates a count that the limiter multiplies by `period_ms` (see [`MAX_SCALED`]).
pub fn scaled_count(field: &'static str, value: u64, period_ms: u64) -> Result<u64, ParamError> {
    let c = count(field, value)? as u64;
    let max = MAX_SCALED / period_ms.max(1);
    if c > max {
        return Err(ParamError::TooLargeForPeriod { field, value, max });
    }
    Ok(c)
}

/// Rejects time going backwards.
#[inline]
pub(crate) fn check_time(previous: u64, now: u64) -> Result<(), CheckError> {
    if now < previous {
        Err(CheckError::TimeWentBackwards { previous, now })
    } else {
        Ok(())
    }
}

/// Rejects a zero cost, or one above what the limiter can ever allow at once.
#[inline]
pub(crate) fn check_cost(cost: u32, capacity: u64) -> Result<(), CheckError> {
    // One comparison on the way through: a zero cost wraps to u64::MAX.
    if (cost as u64).wrapping_sub(1) < capacity {
        Ok(())
    } else if cost == 0 {
        Err(CheckError::ZeroCost)
    } else {
        Err(CheckError::CostExceedsCapacity { cost, capacity })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_validated_with_the_field_named() {
        assert_eq!(Rate::new(0, 1000), Err(ParamError::Zero { field: "limit" }));
        assert_eq!(
            Rate::new(5, 0),
            Err(ParamError::Zero { field: "period_ms" })
        );
        assert_eq!(
            Rate::new(1 << 40, 1000),
            Err(ParamError::TooLarge {
                field: "limit",
                value: 1 << 40,
                max: MAX_COUNT
            })
        );
        assert!(matches!(
            Rate::new(1, u64::MAX),
            Err(ParamError::TooLarge {
                field: "period_ms",
                ..
            })
        ));
        let r = Rate::new(5, 10_000).unwrap();
        assert_eq!((r.limit(), r.period_ms()), (5, 10_000));
    }
}

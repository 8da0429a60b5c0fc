//! Errors are values: each says what was wrong and with which value.

use core::fmt;

/// A parameter rejected when a limiter is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// The field must be at least 1.
    Zero {
        /// The parameter's name, as in the JSON format (`limit`, `period_ms`, `burst`, ...).
        field: &'static str,
    },
    /// The field is larger than the engine accepts.
    TooLarge {
        /// The parameter's name.
        field: &'static str,
        /// The value given.
        value: u64,
        /// The largest accepted value.
        max: u64,
    },
    /// The field times `period_ms` would leave the range of exact u64 arithmetic.
    TooLargeForPeriod {
        /// The parameter's name.
        field: &'static str,
        /// The value given.
        value: u64,
        /// The largest accepted value with this period.
        max: u64,
    },
    /// The combination of values cannot be represented exactly.
    Unrepresentable {
        /// The parameter's name.
        field: &'static str,
        /// Why, in a sentence fragment.
        reason: &'static str,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::Zero { field } => write!(f, "{field}: must be > 0"),
            ParamError::TooLarge { field, value, max } => {
                write!(f, "{field}: {value} is too large (at most {max})")
            }
            ParamError::TooLargeForPeriod { field, value, max } => write!(
                f,
                "{field}: {value} is too large for this period_ms (at most {max}, so that {field} · period_ms stays below 2^62)"
            ),
            ParamError::Unrepresentable { field, reason } => write!(f, "{field}: {reason}"),
        }
    }
}

/// A request a limiter refuses to judge (as opposed to one it denies).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// Time went backwards: streams must be sorted by time (equal times are fine).
    TimeWentBackwards {
        /// The latest time this limiter has seen, in ms.
        previous: u64,
        /// The time given, in ms.
        now: u64,
    },
    /// A request must cost at least 1.
    ZeroCost,
    /// The request costs more than the limiter could ever allow at once, so it would
    /// be denied forever. Reported as an error rather than an endless denial.
    CostExceedsCapacity {
        /// The request's cost.
        cost: u32,
        /// The most this limiter can allow at once.
        capacity: u64,
    },
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::TimeWentBackwards { previous, now } => write!(
                f,
                "time went backwards: {now} ms is earlier than the previous request at {previous} ms (streams must be sorted by time)"
            ),
            CheckError::ZeroCost => f.write_str("cost: must be > 0"),
            CheckError::CostExceedsCapacity { cost, capacity } => write!(
                f,
                "cost: {cost} exceeds what this limiter can ever allow at once ({capacity}), so it could never pass"
            ),
        }
    }
}

impl core::error::Error for ParamError {}
impl core::error::Error for CheckError {}

//! Why a layer was not built: one line.

use std::fmt;

/// A configuration refused when the layer is built, as one line (the engine's
/// message for a limiter it refuses: `period_ms: must be > 0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError(String);

impl BuildError {
    pub(crate) fn new(line: impl Into<String>) -> BuildError {
        BuildError(line.into())
    }

    /// The line.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BuildError {}

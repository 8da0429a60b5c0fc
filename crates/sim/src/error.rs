//! One error type for the whole simulator: a single line that names where the
//! problem is (`limiters[2].period_ms: must be > 0`).

use core::fmt;

use ratelab_core::CheckError;

/// Bad input or a request a limiter refuses to judge, as one line of text.
///
/// The text is the contract: the CLI prints it, the JS API throws it, the playground
/// shows it, and tests compare it exactly. It reads `path: what is wrong`, where the
/// path points into the JSON input (`requests[3].cost`, `limiters[0].burst`); errors
/// about the whole input have no path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimError {
    line: String,
}

impl SimError {
    /// `path: message` (or just `message` when `path` is empty).
    pub fn at(path: &str, message: impl fmt::Display) -> SimError {
        let line = if path.is_empty() {
            message.to_string()
        } else {
            format!("{path}: {message}")
        };
        SimError::line(line)
    }

    /// Every constructor ends here: user text quoted in a message (a scenario name,
    /// an unknown field, an id) may hold line breaks or bidi overrides, which would
    /// break the "one line" contract or reverse the rest of it, so they are written
    /// as escapes ([`crate::text::sanitize`]).
    fn line(line: String) -> SimError {
        match crate::text::sanitize(&line) {
            std::borrow::Cow::Borrowed(_) => SimError { line },
            std::borrow::Cow::Owned(line) => SimError { line },
        }
    }

    /// A parameter error under `path` (the engine's, or any message in its style):
    /// core's message already starts with the field name, so `limiters[2]` +
    /// `period_ms: must be > 0` reads `limiters[2].period_ms: must be > 0`.
    pub fn param(path: &str, error: &dyn fmt::Display) -> SimError {
        SimError::line(join_display(path, error))
    }

    /// A request refused by a limiter (cost too large, time going backwards), naming
    /// the request and the limiter.
    pub fn check(request: usize, lane: usize, lane_id: &str, error: &CheckError) -> SimError {
        let what = join_display(&format!("requests[{request}]"), error);
        SimError::line(format!("{what} (limiters[{lane}], id \"{lane_id}\")"))
    }

    /// The whole line.
    pub fn as_str(&self) -> &str {
        &self.line
    }
}

/// `path.` + a message that starts with a field name; a message that does not (time
/// going backwards) gets `path: ` instead.
fn join_display(path: &str, error: &dyn fmt::Display) -> String {
    let text = error.to_string();
    let starts_with_field = text
        .split_once(": ")
        .is_some_and(|(head, _)| !head.is_empty() && head.chars().all(is_field_char));
    match (path.is_empty(), starts_with_field) {
        (true, _) => text,
        (false, true) => format!("{path}.{text}"),
        (false, false) => format!("{path}: {text}"),
    }
}

fn is_field_char(c: char) -> bool {
    c.is_ascii_lowercase() || c == '_'
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line)
    }
}

impl std::error::Error for SimError {}

impl From<SimError> for String {
    fn from(e: SimError) -> String {
        e.line
    }
}

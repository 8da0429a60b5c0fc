//! Errors are values, each one line: what failed, and where.

use std::fmt;

use ratelab_core::CheckError;
use ratelab_scripts::ScriptError;

/// Why a call through Redis gave no decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Refused before anything was sent: parameters or a time the scripts cannot
    /// hold (the engine's style of message).
    Script(ScriptError),
    /// Refused before anything was sent, as the engine refuses it (time going
    /// backwards, a zero or impossible cost).
    Check(CheckError),
    /// Bad input to a replay, as the simulator words it (`requests[3].t: ...`).
    Input(String),
    /// Redis could not be reached, or went away, or answered something that is not a
    /// decision: the URL and what failed.
    Redis {
        /// The server (or the first cluster node) as given.
        url: String,
        /// What failed.
        what: String,
    },
    /// A script (or its function in the library) answered with an error.
    ScriptFailed {
        /// The server.
        url: String,
        /// The script's name.
        script: &'static str,
        /// Whether it was called as the library's function (`FCALL ratelab_<name>`)
        /// rather than as a script.
        function: bool,
        /// The server's message.
        message: String,
    },
    /// The key prefix already holds keys that this run did not create.
    Occupied {
        /// The server.
        url: String,
        /// The prefix.
        prefix: String,
        /// How many keys were found (at least).
        found: usize,
        /// One of them.
        example: String,
    },
    /// A replay on a virtual clock took longer, in real time, than the slack added
    /// to its TTLs, so a key may have expired while the engine still needed it.
    TooSlow {
        /// Real ms the replay took.
        elapsed_ms: u64,
        /// The slack.
        slack_ms: u64,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Script(e) => e.fmt(f),
            Error::Check(e) => e.fmt(f),
            Error::Input(line) => f.write_str(line),
            Error::Redis { url, what } => write!(f, "{url}: {what}"),
            Error::ScriptFailed {
                url,
                script,
                function: false,
                message,
            } => write!(f, "{url}: script {script}.lua failed: {message}"),
            Error::ScriptFailed {
                url,
                script,
                function: true,
                message,
            } => write!(f, "{url}: function ratelab_{script} failed: {message}"),
            Error::Occupied {
                url,
                prefix,
                found,
                example,
            } => write!(
                f,
                "{url}: prefix {prefix} already holds {found} key(s) this run did not create (e.g. {example:?}); choose another --prefix, or pass --force to write there anyway"
            ),
            Error::TooSlow {
                elapsed_ms,
                slack_ms,
            } => write!(
                f,
                "the replay took {elapsed_ms} ms of real time, more than the {slack_ms} ms added to its TTLs, so a key may have expired before its next request; rerun with a larger --slack"
            ),
        }
    }
}

impl std::error::Error for Error {}

impl From<ScriptError> for Error {
    fn from(e: ScriptError) -> Error {
        Error::Script(e)
    }
}

impl From<CheckError> for Error {
    fn from(e: CheckError) -> Error {
        Error::Check(e)
    }
}

impl From<ratelab_sim::SimError> for Error {
    fn from(e: ratelab_sim::SimError) -> Error {
        Error::Input(e.as_str().to_string())
    }
}

/// One line for a client error: redis-rs's messages may span lines.
pub(crate) fn one_line(e: &redis::RedisError) -> String {
    let text = e.to_string();
    let mut out = String::with_capacity(text.len());
    for part in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(part);
    }
    out
}

//! The Redis scripts people usually copy, which are wrong: each labelled, with what
//! goes wrong. `ratelab-redis` runs every one of them on a real server and its tests
//! reproduce the failure.

use crate::{generated, Script};

/// A teaching variant: wrong on purpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Teaching {
    /// Its id.
    pub id: &'static str,
    /// A title that says it is wrong.
    pub title: &'static str,
    /// What goes wrong, in a sentence.
    pub wrong: &'static str,
    /// The Lua script, for the two that are scripts.
    pub script: Option<&'static Script>,
}

impl Teaching {
    /// The text to show: the script, or the commands as a client sends them (a
    /// method, so that a build that never shows it carries none of the texts).
    pub fn text(&self) -> &'static str {
        generated::text_of(self.id)
    }
}

/// The four teaching variants.
pub const TEACHING: [Teaching; 4] = [
    Teaching {
        id: "token_bucket_float_seconds",
        title: "Token bucket in float seconds over HMGET/HMSET (wrong)",
        wrong: "doubles cannot hold 0.1 s: at 10 per second with burst 1, a request every 100 ms is denied at 0.3 s with 0.9999999999999998 tokens",
        script: Some(&generated::TOKEN_BUCKET_FLOAT_SECONDS),
    },
    Teaching {
        id: "incr_then_expire",
        title: "Fixed window as INCR, then EXPIRE, from the client (wrong)",
        wrong: "a client that dies between the two commands leaves a counter that never expires",
        script: None,
    },
    Teaching {
        id: "sliding_log_zadd_first",
        title: "Sliding log that adds before counting (wrong)",
        wrong: "denied requests are logged too, so a client that keeps sending is blocked forever",
        script: Some(&generated::SLIDING_LOG_ZADD_FIRST),
    },
    Teaching {
        id: "read_compute_write",
        title: "Token bucket read, computed and written from the client (wrong)",
        wrong: "instances that read the same state spend the same token: a burst from many instances gets more than the bucket through",
        script: None,
    },
];

/// The teaching variant with this id.
pub fn teaching(id: &str) -> Option<&'static Teaching> {
    TEACHING.iter().find(|t| t.id == id)
}

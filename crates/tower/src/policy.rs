//! What the layer does while its store is down, and how it says so.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::Limit;

/// The answer while the store cannot decide (down, too slow, answering errors), as
/// the service model's `on_outage`.
#[derive(Clone, Debug)]
pub enum OnStoreDown {
    /// Let every request through unchecked.
    FailOpen,
    /// Refuse every request: `503 Service Unavailable`, no `Retry-After`.
    FailClosed,
    /// Decide with this limiter in the process's memory (usually a looser one; with
    /// M instances, M times its budget gets through).
    Fallback(Box<Limit>),
}

/// What the layer tells its log: the store going down (once per outage, with the
/// first error) and coming back (once, with how many requests the policy answered),
/// and a script's error (once per distinct line: a key holding another type, Redis
/// out of memory), whose requests the policy answers too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreEvent {
    /// The first request the store could not decide since it was last up.
    Down {
        /// The error, one line.
        error: String,
    },
    /// The first decision after an outage.
    Up {
        /// Requests the outage policy answered meanwhile.
        answered_by_policy: u64,
    },
    /// A script answered an error not seen before (the first 64 kinds are told).
    ScriptFailed {
        /// The error, one line.
        error: String,
    },
}

impl std::fmt::Display for StoreEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreEvent::Down { error } => write!(
                f,
                "ratelab-tower: the rate-limit store is down ({error}); the outage policy answers until it is back"
            ),
            StoreEvent::Up { answered_by_policy } => write!(
                f,
                "ratelab-tower: the rate-limit store is back; the outage policy answered {answered_by_policy} request(s)"
            ),
            StoreEvent::ScriptFailed { error } => write!(
                f,
                "ratelab-tower: a rate-limit script failed ({error}); the outage policy answers such requests"
            ),
        }
    }
}

/// Where events go (stderr unless the builder is given another).
pub(crate) type Log = Arc<dyn Fn(&StoreEvent) + Send + Sync>;

pub(crate) fn stderr() -> Log {
    Arc::new(|e: &StoreEvent| eprintln!("{e}"))
}

/// The store's health as the requests see it: one `Down` per outage, one `Up`;
/// each kind of script error once.
#[derive(Default)]
pub(crate) struct Health {
    down: AtomicBool,
    answered: AtomicU64,
    seen: Mutex<Vec<String>>,
}

/// Script errors told, at most (a flood of distinct ones is not a log flood).
const SEEN: usize = 64;

impl Health {
    pub(crate) fn failed(&self, error: String, log: &Log) {
        self.answered.fetch_add(1, Ordering::SeqCst);
        if !self.down.swap(true, Ordering::SeqCst) {
            log(&StoreEvent::Down { error });
        }
    }

    pub(crate) fn script_failed(&self, error: String, log: &Log) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if seen.len() < SEEN && !seen.contains(&error) {
            seen.push(error.clone());
            drop(seen);
            log(&StoreEvent::ScriptFailed { error });
        }
    }

    pub(crate) fn decided(&self, log: &Log) {
        if self.down.load(Ordering::Relaxed) && self.down.swap(false, Ordering::SeqCst) {
            log(&StoreEvent::Up {
                answered_by_policy: self.answered.swap(0, Ordering::SeqCst),
            });
        }
    }
}

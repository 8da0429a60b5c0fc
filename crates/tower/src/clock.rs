//! The time the in-memory limiters decide at, in whole milliseconds.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// Where the in-memory store and the fallback limiter read the time: integer ms.
/// The Redis store decides on the server's clock (`TIME`), one clock for every
/// instance, and does not read this one.
///
/// A clock may stand still or repeat a time; the store never goes backwards (a
/// time earlier than the last one it saw is taken as that one).
pub trait Clock: Send + Sync + 'static {
    /// Now, in ms.
    fn now_ms(&self) -> u64;
}

/// The system's clock: ms since the Unix epoch, so fixed windows align with the
/// wall clock as they do on Redis.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64)
    }
}

/// A clock that only moves when told: for tests, and to replay a schedule exactly
/// as the engine would decide it. Clones share the time.
#[derive(Clone, Debug, Default)]
pub struct ManualClock(Arc<AtomicU64>);

impl ManualClock {
    /// A clock at `ms`.
    pub fn new(ms: u64) -> ManualClock {
        ManualClock(Arc::new(AtomicU64::new(ms)))
    }

    /// Sets the time.
    pub fn set(&self, ms: u64) {
        self.0.store(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

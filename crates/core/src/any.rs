//! Every limiter behind one type, chosen by name at run time (from JSON, a URL, a form).

use crate::decision::{Decision, Policy};
use crate::error::{CheckError, ParamError};
use crate::explain::Explanation;
use crate::params::Rate;
use crate::snapshot::Snapshot;
use crate::{
    AnchoredWindow, FixedWindow, FloatTokenBucket, Gcra, LeakyQueue, Limiter, Nginx, SlidingLog,
    SlidingWindowCounter, TokenBucket,
};

/// The algorithms, with their names in the JSON format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Algorithm {
    /// `fixed_window`: clock-aligned fixed window.
    FixedWindow,
    /// `fixed_window_anchored`: fixed window opened by the first request.
    FixedWindowAnchored,
    /// `sliding_log`.
    SlidingLog,
    /// `sliding_window_counter`.
    SlidingWindowCounter,
    /// `token_bucket` (exact).
    TokenBucket,
    /// `leaky_queue`: leaky bucket as a queue.
    LeakyQueue,
    /// `gcra`.
    Gcra,
    /// `nginx`: nginx `limit_req`.
    Nginx,
    /// `sliding_log_logs_blocked`: teaching variant, wrong on purpose.
    SlidingLogLogsBlocked,
    /// `token_bucket_f64`: teaching variant, wrong on purpose.
    TokenBucketF64,
}

impl Algorithm {
    /// All of them, the eight real ones first.
    pub const ALL: [Algorithm; 10] = [
        Algorithm::FixedWindow,
        Algorithm::FixedWindowAnchored,
        Algorithm::SlidingLog,
        Algorithm::SlidingWindowCounter,
        Algorithm::TokenBucket,
        Algorithm::LeakyQueue,
        Algorithm::Gcra,
        Algorithm::Nginx,
        Algorithm::SlidingLogLogsBlocked,
        Algorithm::TokenBucketF64,
    ];

    /// The name in the JSON format and URLs.
    pub fn id(self) -> &'static str {
        match self {
            Algorithm::FixedWindow => "fixed_window",
            Algorithm::FixedWindowAnchored => "fixed_window_anchored",
            Algorithm::SlidingLog => "sliding_log",
            Algorithm::SlidingWindowCounter => "sliding_window_counter",
            Algorithm::TokenBucket => "token_bucket",
            Algorithm::LeakyQueue => "leaky_queue",
            Algorithm::Gcra => "gcra",
            Algorithm::Nginx => "nginx",
            Algorithm::SlidingLogLogsBlocked => "sliding_log_logs_blocked",
            Algorithm::TokenBucketF64 => "token_bucket_f64",
        }
    }

    /// A human title.
    pub fn title(self) -> &'static str {
        match self {
            Algorithm::FixedWindow => "Fixed window (clock)",
            Algorithm::FixedWindowAnchored => "Fixed window (anchored)",
            Algorithm::SlidingLog => "Sliding log",
            Algorithm::SlidingWindowCounter => "Sliding window counter",
            Algorithm::TokenBucket => "Token bucket",
            Algorithm::LeakyQueue => "Leaky bucket (queue)",
            Algorithm::Gcra => "GCRA",
            Algorithm::Nginx => "nginx limit_req",
            Algorithm::SlidingLogLogsBlocked => "Sliding log that logs denials (wrong)",
            Algorithm::TokenBucketF64 => "Token bucket with f64 (wrong)",
        }
    }

    /// Parses a JSON/URL name.
    pub fn from_id(id: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.id() == id)
    }

    /// The teaching variants that are wrong on purpose.
    pub fn is_teaching(self) -> bool {
        matches!(
            self,
            Algorithm::SlidingLogLogsBlocked | Algorithm::TokenBucketF64
        )
    }

    /// Whether `burst` means something to it (and what it defaults to).
    pub fn uses_burst(self) -> bool {
        matches!(
            self,
            Algorithm::TokenBucket
                | Algorithm::TokenBucketF64
                | Algorithm::LeakyQueue
                | Algorithm::Gcra
                | Algorithm::Nginx
        )
    }

    /// Whether it can delay requests rather than reject them.
    pub fn delays(self) -> bool {
        matches!(self, Algorithm::LeakyQueue | Algorithm::Nginx)
    }
}

/// Parameters of any limiter: `limit` per `period_ms`, plus the optional ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Requests per period.
    pub limit: u64,
    /// The period (and window) in ms.
    pub period_ms: u64,
    /// Capacity of the buckets and GCRA, queue capacity, or nginx's `burst` (extra
    /// requests admitted at once). Defaults: `limit` for buckets, GCRA and the queue;
    /// 0 for nginx, as in nginx.
    pub burst: Option<u64>,
    /// nginx `delay=N`: requests beyond the first N excess are delayed. Default 0.
    pub delay: Option<u64>,
    /// nginx `nodelay`: never delay (overrides `delay`).
    pub nodelay: bool,
}

impl Params {
    /// `limit` per `period_ms` with every option at its default.
    pub fn new(limit: u64, period_ms: u64) -> Params {
        Params {
            limit,
            period_ms,
            burst: None,
            delay: None,
            nodelay: false,
        }
    }

    /// The burst `algorithm` will use.
    pub fn burst_for(&self, algorithm: Algorithm) -> u64 {
        match (algorithm, self.burst) {
            (_, Some(b)) => b,
            (Algorithm::Nginx, None) => 0,
            (_, None) => self.limit,
        }
    }
}

/// Any limiter. Enum dispatch: no allocation, no virtual calls.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyLimiter {
    /// See [`FixedWindow`].
    FixedWindow(FixedWindow),
    /// See [`AnchoredWindow`].
    FixedWindowAnchored(AnchoredWindow),
    /// See [`SlidingLog`] (also its teaching variant).
    SlidingLog(SlidingLog),
    /// See [`SlidingWindowCounter`].
    SlidingWindowCounter(SlidingWindowCounter),
    /// See [`TokenBucket`].
    TokenBucket(TokenBucket),
    /// See [`LeakyQueue`].
    LeakyQueue(LeakyQueue),
    /// See [`Gcra`].
    Gcra(Gcra),
    /// See [`Nginx`].
    Nginx(Nginx),
    /// See [`FloatTokenBucket`].
    TokenBucketF64(FloatTokenBucket),
}

impl AnyLimiter {
    /// Builds `algorithm` with `params`, validating them.
    pub fn new(algorithm: Algorithm, params: &Params) -> Result<AnyLimiter, ParamError> {
        let rate = Rate::new(params.limit, params.period_ms)?;
        let burst = params.burst_for(algorithm);
        Ok(match algorithm {
            Algorithm::FixedWindow => AnyLimiter::FixedWindow(FixedWindow::new(rate)),
            Algorithm::FixedWindowAnchored => {
                AnyLimiter::FixedWindowAnchored(AnchoredWindow::new(rate))
            }
            Algorithm::SlidingLog => AnyLimiter::SlidingLog(SlidingLog::new(rate)),
            Algorithm::SlidingLogLogsBlocked => {
                AnyLimiter::SlidingLog(SlidingLog::logging_blocked(rate))
            }
            Algorithm::SlidingWindowCounter => {
                AnyLimiter::SlidingWindowCounter(SlidingWindowCounter::new(rate)?)
            }
            Algorithm::TokenBucket => AnyLimiter::TokenBucket(TokenBucket::new(rate, burst)?),
            Algorithm::TokenBucketF64 => {
                AnyLimiter::TokenBucketF64(FloatTokenBucket::new(rate, burst)?)
            }
            Algorithm::LeakyQueue => AnyLimiter::LeakyQueue(LeakyQueue::new(rate, burst)?),
            Algorithm::Gcra => AnyLimiter::Gcra(Gcra::new(rate, burst)?),
            Algorithm::Nginx => AnyLimiter::Nginx(Nginx::new(
                rate,
                burst,
                if params.nodelay {
                    None
                } else {
                    Some(params.delay.unwrap_or(0))
                },
            )?),
        })
    }

    /// Which algorithm this is.
    pub fn algorithm(&self) -> Algorithm {
        match self {
            AnyLimiter::FixedWindow(_) => Algorithm::FixedWindow,
            AnyLimiter::FixedWindowAnchored(_) => Algorithm::FixedWindowAnchored,
            AnyLimiter::SlidingLog(l) if l.logs_blocked() => Algorithm::SlidingLogLogsBlocked,
            AnyLimiter::SlidingLog(_) => Algorithm::SlidingLog,
            AnyLimiter::SlidingWindowCounter(_) => Algorithm::SlidingWindowCounter,
            AnyLimiter::TokenBucket(_) => Algorithm::TokenBucket,
            AnyLimiter::LeakyQueue(_) => Algorithm::LeakyQueue,
            AnyLimiter::Gcra(_) => Algorithm::Gcra,
            AnyLimiter::Nginx(_) => Algorithm::Nginx,
            AnyLimiter::TokenBucketF64(_) => Algorithm::TokenBucketF64,
        }
    }
}

macro_rules! dispatch {
    ($self:expr, $l:ident => $e:expr) => {
        match $self {
            AnyLimiter::FixedWindow($l) => $e,
            AnyLimiter::FixedWindowAnchored($l) => $e,
            AnyLimiter::SlidingLog($l) => $e,
            AnyLimiter::SlidingWindowCounter($l) => $e,
            AnyLimiter::TokenBucket($l) => $e,
            AnyLimiter::LeakyQueue($l) => $e,
            AnyLimiter::Gcra($l) => $e,
            AnyLimiter::Nginx($l) => $e,
            AnyLimiter::TokenBucketF64($l) => $e,
        }
    };
}

impl Limiter for AnyLimiter {
    #[inline]
    fn check(&mut self, now: u64, cost: u32) -> Result<Decision, CheckError> {
        dispatch!(self, l => l.check(now, cost))
    }
    fn peek(&self, now: u64, cost: u32) -> Result<Decision, CheckError> {
        dispatch!(self, l => l.peek(now, cost))
    }
    fn explain(&self, now: u64, cost: u32) -> Result<Explanation, CheckError> {
        dispatch!(self, l => l.explain(now, cost))
    }
    fn snapshot(&self, now: u64) -> Snapshot {
        dispatch!(self, l => l.snapshot(now))
    }
    fn policy(&self) -> Policy {
        dispatch!(self, l => l.policy())
    }
    fn is_at_rest(&self, now: u64) -> bool {
        dispatch!(self, l => l.is_at_rest(now))
    }
    fn state_numbers(&self) -> usize {
        dispatch!(self, l => l.state_numbers())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for a in Algorithm::ALL {
            assert_eq!(Algorithm::from_id(a.id()), Some(a));
            let l = AnyLimiter::new(a, &Params::new(5, 10_000)).unwrap();
            assert_eq!(l.algorithm(), a);
        }
        assert_eq!(Algorithm::from_id("leaky_bucket"), None);
    }

    #[test]
    fn bad_parameters_name_the_field() {
        let p = Params {
            burst: Some(0),
            ..Params::new(5, 10_000)
        };
        assert_eq!(
            AnyLimiter::new(Algorithm::Gcra, &p),
            Err(ParamError::Zero { field: "burst" })
        );
        // nginx's burst may be 0 (its default).
        assert!(AnyLimiter::new(Algorithm::Nginx, &p).is_ok());
        assert_eq!(
            AnyLimiter::new(Algorithm::SlidingLog, &Params::new(0, 10)),
            Err(ParamError::Zero { field: "limit" })
        );
    }
}

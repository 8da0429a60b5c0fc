//! What a limiter says about one request, and the HTTP headers it would send.

use alloc::format;
use alloc::string::String;

use crate::exact::{Frac, Ms};

/// The verdict on one request, with the numbers a server would put in its headers.
///
/// All durations are exact ([`Ms`] is a fraction of a millisecond when the rate does
/// not divide evenly); round them only for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Whether the request passes (possibly after [`Decision::wait`]).
    pub allowed: bool,
    /// How long an allowed request is held before it goes through. Zero for the meters
    /// (windows, logs, buckets, GCRA); the leaky queue and nginx without `nodelay`
    /// delay requests instead of rejecting them.
    pub wait: Ms,
    /// For a denied request: how long until the same request would be allowed, if
    /// nothing else arrives. Zero for an allowed request.
    pub retry_after: Ms,
    /// How long until [`Decision::remaining`] grows: the end of the window for the
    /// fixed windows, the next token for the buckets and GCRA, the oldest entry's
    /// expiry for the sliding log, the next free slot for the queue and nginx. Zero
    /// when nothing is used. The sliding window counter reports the end of its
    /// current window (where its counters roll); its estimate decays continuously.
    pub reset: Ms,
    /// `floor` of this is the number of unit requests that would still pass right now
    /// (after this decision). Kept as a fraction so that making a decision never
    /// divides; [`Decision::remaining`] rounds.
    pub(crate) remaining: Frac,
}

impl Decision {
    /// How many requests of cost 1, sent right now after this one, would still pass.
    pub fn remaining(&self) -> u64 {
        self.remaining.floor()
    }

    /// The response a server would send for this request under `policy`.
    pub fn headers(&self, policy: &Policy) -> Headers {
        Headers::new(self, policy)
    }
}

/// The quota a limiter advertises in `RateLimit-Policy`: `limit` requests per
/// `window`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Requests per window (`q`).
    pub limit: u64,
    /// The window in milliseconds (`w` is this in whole seconds, rounded up).
    pub window_ms: u64,
}

/// The status line and rate-limit fields of a response (the IETF draft
/// `RateLimit-Policy` / `RateLimit` fields, and `Retry-After` on a 429).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Headers {
    /// 200 or 429.
    pub status: u16,
    /// `Retry-After` in whole seconds, rounded up, at least 1; only on a 429.
    pub retry_after: Option<u64>,
    /// The `RateLimit-Policy` field value, e.g. `"default";q=5;w=10`.
    pub policy: String,
    /// The `RateLimit` field value, e.g. `"default";r=0;t=8`.
    pub ratelimit: String,
}

impl Headers {
    fn new(d: &Decision, policy: &Policy) -> Headers {
        let w = policy.window_ms.div_ceil(1000);
        Headers {
            status: if d.allowed { 200 } else { 429 },
            retry_after: (!d.allowed).then(|| d.retry_after.ceil_secs().max(1)),
            policy: format!("\"default\";q={};w={}", policy.limit, w),
            ratelimit: format!("\"default\";r={};t={}", d.remaining(), d.reset.ceil_secs()),
        }
    }

    /// The status line, e.g. `429 Too Many Requests`.
    pub fn status_line(&self) -> &'static str {
        if self.status == 429 {
            "429 Too Many Requests"
        } else {
            "200 OK"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_denial_says_when_to_come_back() {
        let d = Decision {
            allowed: false,
            wait: Ms::ZERO,
            retry_after: Ms::from_ms(300),
            reset: Ms::from_ms(2500),
            remaining: Frac::new(7, 10),
        };
        let h = d.headers(&Policy {
            limit: 5,
            window_ms: 10_000,
        });
        assert_eq!(h.status, 429);
        assert_eq!(h.status_line(), "429 Too Many Requests");
        assert_eq!(h.retry_after, Some(1));
        assert_eq!(h.policy, "\"default\";q=5;w=10");
        assert_eq!(h.ratelimit, "\"default\";r=0;t=3");
    }

    #[test]
    fn an_allowed_request_has_no_retry_after() {
        let d = Decision {
            allowed: true,
            wait: Ms::ZERO,
            retry_after: Ms::ZERO,
            reset: Ms::ZERO,
            remaining: Frac::whole(4),
        };
        let h = d.headers(&Policy {
            limit: 100,
            window_ms: 60_000,
        });
        assert_eq!((h.status, h.retry_after), (200, None));
        assert_eq!(h.ratelimit, "\"default\";r=4;t=0");
    }
}

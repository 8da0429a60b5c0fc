//! What a limiter says about one request, and the HTTP headers it would send.
//!
//! A [`Decision`] is lazy. `check` settles the verdict and keeps the few raw numbers
//! it already had in hand (a window's end and count, a bucket's tokens, a queue's
//! backlog, nginx's excess); the durations and the count a server puts in its
//! headers are computed from them only when asked, as governor's `NotUntil` computes
//! its wait. A server that reads the verdict pays for nothing more; one that sends
//! headers pays the division or two they need, once. Every value is exact either
//! way, and the same as if it had been computed while deciding.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::exact::Ms;

/// The verdict on one request, and what a server would put in its headers.
///
/// [`Decision::allowed`] is settled; [`Decision::wait`], [`Decision::retry_after`],
/// [`Decision::reset`] and [`Decision::remaining`] are computed on demand from what
/// the limiter kept while deciding (see the [module docs](self)). All durations are
/// exact ([`Ms`] is a fraction of a millisecond when the rate does not divide
/// evenly); round them only for display. Two decisions are equal when all five
/// values are.
#[derive(Clone, Copy)]
pub struct Decision {
    allowed: bool,
    raw: Raw,
}

/// The numbers a limiter kept while deciding, in its own terms.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Raw {
    /// Known in whole milliseconds when deciding: the windows and the logs.
    Counted(Counted),
    /// The sliding window counter.
    Counter(crate::sliding_window_counter::Raw),
    /// The token bucket and GCRA (whose tokens are the same numbers).
    Bucket(crate::token_bucket::Raw),
    /// The leaky queue.
    Queue(crate::leaky_queue::Raw),
    /// nginx `limit_req`.
    Nginx(crate::nginx::Raw),
    /// The teaching float bucket.
    Float(crate::float_bucket::Raw),
}

/// What the counting limiters know in whole milliseconds as they decide.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Counted {
    /// For a denial: ms until the same request would pass.
    pub retry_ms: u64,
    /// ms until `remaining` grows (0 when nothing is used).
    pub reset_ms: u64,
    /// Unit requests that would still pass now.
    pub remaining: u64,
}

/// How each limiter's raw numbers become the values a server sends. Each method is
/// only called when it means something: `wait` on an allowed request, `retry_after`
/// on a denied one.
pub(crate) trait Lazy {
    /// How long an allowed request is held (zero for the meters).
    fn wait(&self) -> Ms {
        Ms::ZERO
    }
    /// How long until a denied request would pass, nothing else arriving.
    fn retry_after(&self) -> Ms;
    /// How long until [`Lazy::remaining`] grows.
    fn reset(&self) -> Ms;
    /// Unit requests that would still pass right now, after this one.
    fn remaining(&self) -> u64;
}

impl Lazy for Counted {
    #[inline]
    fn retry_after(&self) -> Ms {
        Ms::from_ms(self.retry_ms)
    }
    #[inline]
    fn reset(&self) -> Ms {
        Ms::from_ms(self.reset_ms)
    }
    #[inline]
    fn remaining(&self) -> u64 {
        self.remaining
    }
}

/// Calls `$method` on whichever limiter's raw numbers `$raw` holds.
macro_rules! lazy {
    ($raw:expr, $method:ident) => {
        match &$raw {
            Raw::Counted(r) => r.$method(),
            Raw::Counter(r) => r.$method(),
            Raw::Bucket(r) => r.$method(),
            Raw::Queue(r) => r.$method(),
            Raw::Nginx(r) => r.$method(),
            Raw::Float(r) => r.$method(),
        }
    };
}

impl Decision {
    /// A verdict with the numbers to explain it.
    #[inline]
    pub(crate) fn new(allowed: bool, raw: Raw) -> Decision {
        Decision { allowed, raw }
    }

    /// Whether the request passes (possibly after [`Decision::wait`]).
    #[inline(always)]
    pub fn allowed(&self) -> bool {
        self.allowed
    }

    /// How long an allowed request is held before it goes through. Zero for the
    /// meters (windows, logs, buckets, GCRA) and for a denied request; the leaky
    /// queue and nginx without `nodelay` delay requests instead of rejecting them.
    #[inline(always)]
    pub fn wait(&self) -> Ms {
        if self.allowed {
            lazy!(self.raw, wait)
        } else {
            Ms::ZERO
        }
    }

    /// For a denied request: how long until the same request would be allowed, if
    /// nothing else arrives (for the queue and nginx, the first whole millisecond).
    /// Zero for an allowed request.
    #[inline(always)]
    pub fn retry_after(&self) -> Ms {
        if self.allowed {
            Ms::ZERO
        } else {
            lazy!(self.raw, retry_after)
        }
    }

    /// How long until [`Decision::remaining`] grows: the end of the window for the
    /// fixed windows, the next token for the buckets and GCRA, the oldest entry's
    /// expiry for the sliding log, the next free slot for the queue and nginx, the
    /// moment the decaying estimate lets one more through for the sliding window
    /// counter. Zero when nothing is used. On a denial of a request of cost 1, the
    /// same moment as [`Decision::retry_after`].
    #[inline(always)]
    pub fn reset(&self) -> Ms {
        lazy!(self.raw, reset)
    }

    /// How many requests of cost 1, sent right now after this one, would still pass.
    #[inline(always)]
    pub fn remaining(&self) -> u64 {
        lazy!(self.raw, remaining)
    }

    /// The response a server would send for this request under `policy`.
    pub fn headers(&self, policy: &Policy) -> Headers {
        Headers::new(self, policy)
    }
}

impl PartialEq for Decision {
    /// Equal when every value a caller can read is equal (however each limiter
    /// kept its numbers).
    fn eq(&self, other: &Decision) -> bool {
        self.allowed == other.allowed
            && self.wait() == other.wait()
            && self.retry_after() == other.retry_after()
            && self.reset() == other.reset()
            && self.remaining() == other.remaining()
    }
}

impl Eq for Decision {}

impl fmt::Debug for Decision {
    /// The values, as a caller reads them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decision")
            .field("allowed", &self.allowed)
            .field("wait", &self.wait())
            .field("retry_after", &self.retry_after())
            .field("reset", &self.reset())
            .field("remaining", &self.remaining())
            .finish()
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

/// The response a server would send: the status, `Retry-After` on a 429, the rate
/// limit in two header dialects, and an optional JSON body for a 429.
///
/// Every number is the decision's, rounded the same way everywhere:
///
/// - `Retry-After`: when the same request would pass, in whole seconds rounded up,
///   at least 1. A client that waits that long is not refused again for the same
///   request (nothing else arriving).
/// - The IETF draft (`draft-ietf-httpapi-ratelimit-headers`): `RateLimit-Policy:
///   "default";q=<limit>;w=<window s>` and `RateLimit: "default";r=<remaining>;t=<s>`.
///   On a 200, `t` is when `remaining` next grows, in seconds rounded up. On a 429,
///   `t` is the moment `Retry-After` names, with the same number: a client reading
///   either waits until the request would pass, and no limiter advertises a `t` later
///   than that.
/// - The common dialect: `X-RateLimit-Limit` (the limit), `X-RateLimit-Remaining`
///   (the remaining count) and `X-RateLimit-Reset`, which ratelab sends as *seconds
///   until*, the same number as `t`. Servers disagree on `Reset`: GitHub, for one,
///   sends a Unix time in seconds. ratelab's clock is virtual and has no epoch, and a
///   number of seconds needs no clock agreement between client and server.
/// - The body of a 429: `{"error": "rate_limit_exceeded", "retry_after_seconds": N}`
///   with N the `Retry-After` value, for clients that read JSON rather than headers.
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
    /// The limit (`q`, and `X-RateLimit-Limit`).
    pub limit: u64,
    /// Requests of cost 1 that would still pass (`r`, and `X-RateLimit-Remaining`).
    pub remaining: u64,
    /// Seconds until the request would pass on a 429, until `remaining` grows on a
    /// 200 (`t`, and `X-RateLimit-Reset`).
    pub reset: u64,
}

/// The media type of a 429's body ([`Headers::body`]).
pub const BODY_CONTENT_TYPE: &str = "application/json";

/// Which header fields [`Headers::fields`] lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `RateLimit-Policy` and `RateLimit` (the IETF draft).
    Ietf,
    /// `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`.
    Common,
}

impl Headers {
    fn new(d: &Decision, policy: &Policy) -> Headers {
        Headers::from_numbers(
            d.allowed(),
            d.retry_after(),
            d.reset(),
            d.remaining(),
            policy,
        )
    }

    /// The response for a decision given by its numbers, rounded exactly as
    /// [`Decision::headers`] rounds: for a decision made elsewhere that must answer
    /// the same (ratelab-redis's scripts, whose replies carry these numbers).
    pub fn from_numbers(
        allowed: bool,
        retry_after: Ms,
        reset: Ms,
        remaining: u64,
        policy: &Policy,
    ) -> Headers {
        let w = policy.window_ms.div_ceil(1000);
        let retry_after = (!allowed).then(|| retry_after.ceil_secs().max(1));
        // On a 429, t names the moment Retry-After names (SPEC, "Beyond one process").
        let reset = retry_after.unwrap_or_else(|| reset.ceil_secs());
        Headers {
            status: if allowed { 200 } else { 429 },
            retry_after,
            policy: format!("\"default\";q={};w={}", policy.limit, w),
            ratelimit: format!("\"default\";r={remaining};t={reset}"),
            limit: policy.limit,
            remaining,
            reset,
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

    /// The header fields of `dialect`, as (name, value) in the order a server
    /// would send them, with `Retry-After` first on a 429.
    pub fn fields(&self, dialect: Dialect) -> Vec<(&'static str, String)> {
        let mut out = Vec::with_capacity(4);
        if let Some(r) = self.retry_after {
            out.push(("Retry-After", r.to_string()));
        }
        match dialect {
            Dialect::Ietf => {
                out.push(("RateLimit-Policy", self.policy.clone()));
                out.push(("RateLimit", self.ratelimit.clone()));
            }
            Dialect::Common => {
                out.push(("X-RateLimit-Limit", self.limit.to_string()));
                out.push(("X-RateLimit-Remaining", self.remaining.to_string()));
                out.push(("X-RateLimit-Reset", self.reset.to_string()));
            }
        }
        out
    }

    /// The JSON body of a 429, `{"error": "rate_limit_exceeded",
    /// "retry_after_seconds": N}` (N is `Retry-After`); `None` on a 200.
    pub fn body(&self) -> Option<String> {
        self.retry_after.map(|r| {
            format!("{{\"error\": \"rate_limit_exceeded\", \"retry_after_seconds\": {r}}}")
        })
    }

    /// The whole response as it would come over the wire, one line each, every line
    /// ending in `\n`: `HTTP/1.1` and the status line; `Retry-After` once (on a
    /// 429); the IETF draft's `RateLimit-Policy` and `RateLimit`; the common
    /// dialect's `X-RateLimit-Limit`, `-Remaining` and `-Reset`; and on a 429
    /// `Content-Type: application/json` ([`BODY_CONTENT_TYPE`]), an empty line and
    /// [`Headers::body`]. The one text `ratelab respond` prints and the page's full
    /// response shows.
    pub fn response_text(&self) -> String {
        let mut out = format!("HTTP/1.1 {}\n", self.status_line());
        for (name, value) in self.all_fields() {
            out.push_str(&format!("{name}: {value}\n"));
        }
        if let Some(body) = self.body() {
            out.push('\n');
            out.push_str(&body);
            out.push('\n');
        }
        out
    }

    /// Every header field of the response, in the order [`Headers::response_text`]
    /// writes them: `Retry-After` once (on a 429), both dialects, and on a 429
    /// `Content-Type` ([`BODY_CONTENT_TYPE`]).
    pub fn all_fields(&self) -> Vec<(&'static str, String)> {
        let mut fields = self.fields(Dialect::Ietf);
        fields.extend(
            self.fields(Dialect::Common)
                .into_iter()
                .filter(|(name, _)| *name != "Retry-After"),
        );
        if self.retry_after.is_some() {
            fields.push(("Content-Type", BODY_CONTENT_TYPE.into()));
        }
        fields
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counted(allowed: bool, retry_ms: u64, reset_ms: u64, remaining: u64) -> Decision {
        Decision::new(
            allowed,
            Raw::Counted(Counted {
                retry_ms,
                reset_ms,
                remaining,
            }),
        )
    }

    #[test]
    fn the_full_response_is_one_text() {
        let policy = Policy {
            limit: 5,
            window_ms: 10_000,
        };
        assert_eq!(
            counted(false, 1500, 2500, 0)
                .headers(&policy)
                .response_text(),
            "HTTP/1.1 429 Too Many Requests\n\
             Retry-After: 2\n\
             RateLimit-Policy: \"default\";q=5;w=10\n\
             RateLimit: \"default\";r=0;t=2\n\
             X-RateLimit-Limit: 5\n\
             X-RateLimit-Remaining: 0\n\
             X-RateLimit-Reset: 2\n\
             Content-Type: application/json\n\
             \n\
             {\"error\": \"rate_limit_exceeded\", \"retry_after_seconds\": 2}\n"
        );
        // A 200 has no Retry-After, no Content-Type and no body.
        assert_eq!(
            counted(true, 0, 3100, 2).headers(&policy).response_text(),
            "HTTP/1.1 200 OK\n\
             RateLimit-Policy: \"default\";q=5;w=10\n\
             RateLimit: \"default\";r=2;t=4\n\
             X-RateLimit-Limit: 5\n\
             X-RateLimit-Remaining: 2\n\
             X-RateLimit-Reset: 4\n"
        );
    }

    #[test]
    fn a_denial_says_when_to_come_back() {
        let d = counted(false, 300, 2500, 0);
        let h = d.headers(&Policy {
            limit: 5,
            window_ms: 10_000,
        });
        assert_eq!(h.status, 429);
        assert_eq!(h.status_line(), "429 Too Many Requests");
        assert_eq!(h.retry_after, Some(1));
        assert_eq!(h.policy, "\"default\";q=5;w=10");
        // t names the moment Retry-After names, not the later reset.
        assert_eq!(h.ratelimit, "\"default\";r=0;t=1");
        assert_eq!(
            h.fields(Dialect::Common),
            [
                ("Retry-After", "1".to_string()),
                ("X-RateLimit-Limit", "5".to_string()),
                ("X-RateLimit-Remaining", "0".to_string()),
                ("X-RateLimit-Reset", "1".to_string()),
            ]
        );
        assert_eq!(
            h.fields(Dialect::Ietf),
            [
                ("Retry-After", "1".to_string()),
                ("RateLimit-Policy", "\"default\";q=5;w=10".to_string()),
                ("RateLimit", "\"default\";r=0;t=1".to_string()),
            ]
        );
        assert_eq!(
            h.body().as_deref(),
            Some("{\"error\": \"rate_limit_exceeded\", \"retry_after_seconds\": 1}")
        );
    }

    #[test]
    fn an_allowed_request_has_no_retry_after() {
        let d = counted(true, 1234, 0, 4);
        assert_eq!(d.retry_after(), Ms::ZERO);
        let h = d.headers(&Policy {
            limit: 100,
            window_ms: 60_000,
        });
        assert_eq!((h.status, h.retry_after), (200, None));
        assert_eq!(h.ratelimit, "\"default\";r=4;t=0");
        assert_eq!(h.body(), None);
        assert_eq!(
            h.fields(Dialect::Common),
            [
                ("X-RateLimit-Limit", "100".to_string()),
                ("X-RateLimit-Remaining", "4".to_string()),
                ("X-RateLimit-Reset", "0".to_string()),
            ]
        );
    }

    #[test]
    fn decisions_compare_by_what_they_say() {
        assert_eq!(counted(true, 1, 7, 2), counted(true, 99, 7, 2));
        assert_ne!(counted(false, 1, 7, 2), counted(false, 2, 7, 2));
        let shown = alloc::format!("{:?}", counted(false, 300, 2500, 0));
        assert_eq!(
            shown,
            "Decision { allowed: false, wait: Ms(Frac { num: 0, den: 1 }), \
             retry_after: Ms(Frac { num: 300, den: 1 }), \
             reset: Ms(Frac { num: 2500, den: 1 }), remaining: 0 }"
        );
    }
}

//! One attempt as the service saw it: when, whose, where it went, who decided and what.

/// Who decided an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decider {
    /// The limits (in the instance's memory or the shared store).
    Limits,
    /// The store was down and the instance let the request through unchecked.
    FailOpen,
    /// The store was down and the instance refused (503).
    FailClosed,
    /// The store was down and the instance's local fallback limiter decided.
    Fallback,
}

/// One attempt the service saw, and what became of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// When it arrived.
    pub t: u64,
    /// Which client (index into [`ServiceSpec::clients`](super::ServiceSpec::clients)).
    pub client: u32,
    /// Which route (index into [`ServiceSpec::routes`](super::ServiceSpec::routes)).
    pub route: u32,
    /// 1 for a first try, 2 for the first retry, ...
    pub attempt: u32,
    /// The index (in the run's attempts) of this request's first try; its own index
    /// for a first try.
    pub original: u32,
    /// The index of the retry the client sent after this attempt was refused.
    pub retry: Option<u32>,
    /// Which instance the balancer sent it to.
    pub instance: u32,
    /// Allowed (possibly after `wait`)?
    pub allowed: bool,
    /// The wait of an allowed attempt (the leaky queue, nginx), exact and rounded up
    /// to whole ms; 0 when refused.
    pub wait_ms: u64,
    /// Who decided.
    pub decider: Decider,
    /// The limits that refused it (bit `i` = `limits[i]`); 0 when allowed or refused
    /// by the store or the fallback.
    pub denied_by: u16,
    /// On a refusal by the limits or the fallback: `Retry-After` in whole seconds (the
    /// exact time until it would pass, rounded up, at least 1).
    pub retry_after_s: Option<u64>,
}

impl Decider {
    /// The name in the JSON output.
    pub fn id(self) -> &'static str {
        match self {
            Decider::Limits => "limits",
            Decider::FailOpen => "fail_open",
            Decider::FailClosed => "fail_closed",
            Decider::Fallback => "fallback",
        }
    }
}

impl Attempt {
    /// The HTTP status: 200, 429, or 503 (the store failed closed).
    pub fn status(&self) -> u16 {
        match (self.allowed, self.decider) {
            (true, _) => 200,
            (false, Decider::FailClosed) => 503,
            (false, _) => 429,
        }
    }
}

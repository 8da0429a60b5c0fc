//! The engine's decision and a script's, side by side.

use ratelab_core::{Decision, Limiter, Policy};

use crate::RedisDecision;

/// Where a script's decision differs from the engine's, as one line (`None` when
/// every number is the same: the verdict, the exact wait, retry-after and reset,
/// the remaining requests, and so every header).
pub fn difference(engine: &Decision, redis: &RedisDecision) -> Option<String> {
    let mut diffs = Vec::new();
    if engine.allowed() != redis.allowed {
        diffs.push(format!("allowed {} vs {}", engine.allowed(), redis.allowed));
    }
    if engine.wait() != redis.wait {
        diffs.push(format!("wait {} vs {}", engine.wait(), redis.wait));
    }
    if engine.retry_after() != redis.retry_after {
        diffs.push(format!(
            "retry_after {} vs {}",
            engine.retry_after(),
            redis.retry_after
        ));
    }
    if engine.reset() != redis.reset {
        diffs.push(format!("reset {} vs {}", engine.reset(), redis.reset));
    }
    if engine.remaining() != redis.remaining {
        diffs.push(format!(
            "remaining {} vs {}",
            engine.remaining(),
            redis.remaining
        ));
    }
    // The header numbers: Retry-After, RateLimit's r and t (the policy is the
    // lane's, the same on both sides, and any one shows the numbers).
    let policy = Policy {
        limit: 1,
        window_ms: 1,
    };
    let (a, b) = (engine.headers(&policy), redis.headers(&policy));
    if a != b {
        diffs.push(format!(
            "header numbers (Retry-After, r, t) {:?} vs {:?}",
            (a.retry_after, a.remaining, a.reset),
            (b.retry_after, b.remaining, b.reset)
        ));
    }
    (!diffs.is_empty()).then(|| format!("engine vs redis: {}", diffs.join(", ")))
}

/// The engine's rest time for comparison: whether `limiter` is at rest exactly
/// `rest_ms` after `now` and not a millisecond earlier (for a key with state).
pub fn rest_matches(limiter: &impl Limiter, now: u64, rest_ms: u64) -> bool {
    if rest_ms == 0 {
        return limiter.is_at_rest(now);
    }
    limiter.is_at_rest(now + rest_ms) && !limiter.is_at_rest(now + rest_ms - 1)
}

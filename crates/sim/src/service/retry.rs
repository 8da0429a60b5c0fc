//! What a client does after a refusal: when it tries again, if at all.

use rand_pcg::Pcg64;

use super::demand::uniform;
use super::spec::{Backoff, RetryPolicy};

/// What a client does after one of its attempts was refused, as the engine
/// decides it ([`RetryPolicy::after_refusal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterRefusal {
    /// It sends another attempt (after [`RetryPolicy::delay_after`]).
    Retries,
    /// It has made `max_attempts` attempts and stops: the request gave up.
    GivesUp,
    /// Its policy never retries ([`Backoff::None`]).
    NeverRetries,
}

impl RetryPolicy {
    /// Whether the client retries after attempt number `attempt` (1 = the first
    /// try) was refused. The one rule [`RetryPolicy::delay_after`] follows too, so
    /// that what the page says the client does is what the run did.
    pub fn after_refusal(&self, attempt: u32) -> AfterRefusal {
        match self.backoff {
            Backoff::None => AfterRefusal::NeverRetries,
            _ if attempt >= self.max_attempts => AfterRefusal::GivesUp,
            _ => AfterRefusal::Retries,
        }
    }

    /// The delay in ms before the next attempt, after attempt number `attempt` (1 =
    /// the first try) was refused with `retry_after_s` (the `Retry-After` header in
    /// whole seconds; `None` for a response without one), or `None` when the client
    /// gives up. Jitter is drawn from `rng`, only by the policies that jitter.
    pub fn delay_after(
        &self,
        attempt: u32,
        retry_after_s: Option<u64>,
        rng: &mut Pcg64,
    ) -> Option<u64> {
        if self.after_refusal(attempt) != AfterRefusal::Retries {
            return None;
        }
        // attempt ≥ 1 here, and at most MAX_ATTEMPTS − 1: the shift cannot overflow.
        let doubled = |base: u64| base.saturating_mul(1u64 << (attempt - 1).min(63));
        Some(match self.backoff {
            // Answered by after_refusal above.
            Backoff::None => return None,
            Backoff::Immediately => 0,
            Backoff::Fixed { delay_ms } => delay_ms,
            Backoff::Exponential { base_ms, cap_ms } => doubled(base_ms).min(cap_ms),
            Backoff::FullJitter { base_ms, cap_ms } => uniform(rng, doubled(base_ms).min(cap_ms)),
            Backoff::RetryAfter { jitter_ms } => {
                let wait = retry_after_s.unwrap_or(1).saturating_mul(1000);
                let jitter = if jitter_ms == 0 {
                    0
                } else {
                    uniform(rng, jitter_ms)
                };
                wait.saturating_add(jitter)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::demand::jitter_rng;
    use super::*;

    #[test]
    fn each_policy_waits_as_documented() {
        let mut rng = jitter_rng(1, 0);
        let delays = |p: RetryPolicy, rng: &mut Pcg64| -> Vec<Option<u64>> {
            (1..=4).map(|a| p.delay_after(a, Some(3), rng)).collect()
        };
        assert_eq!(delays(RetryPolicy::NONE, &mut rng), [None; 4]);
        assert_eq!(
            RetryPolicy::NONE.after_refusal(1),
            AfterRefusal::NeverRetries
        );
        let three = RetryPolicy::new(Backoff::Immediately, 3);
        assert_eq!(three.after_refusal(2), AfterRefusal::Retries);
        assert_eq!(three.after_refusal(3), AfterRefusal::GivesUp);
        assert_eq!(
            delays(RetryPolicy::new(Backoff::Immediately, 3), &mut rng),
            [Some(0), Some(0), None, None]
        );
        assert_eq!(
            delays(
                RetryPolicy::new(Backoff::Fixed { delay_ms: 250 }, 4),
                &mut rng
            ),
            [Some(250), Some(250), Some(250), None]
        );
        let exp = Backoff::Exponential {
            base_ms: 100,
            cap_ms: 300,
        };
        assert_eq!(
            delays(RetryPolicy::new(exp, 5), &mut rng),
            [Some(100), Some(200), Some(300), Some(300)]
        );
        let ra = RetryPolicy::new(Backoff::RetryAfter { jitter_ms: 0 }, 2);
        assert_eq!(ra.delay_after(1, Some(3), &mut rng), Some(3000));
        assert_eq!(ra.delay_after(1, None, &mut rng), Some(1000));
        let jittered = RetryPolicy::new(Backoff::RetryAfter { jitter_ms: 500 }, 2);
        for _ in 0..100 {
            let d = jittered.delay_after(1, Some(2), &mut rng).unwrap();
            assert!((2000..=2500).contains(&d), "{d}");
        }
        let full = RetryPolicy::new(
            Backoff::FullJitter {
                base_ms: 100,
                cap_ms: 1000,
            },
            20,
        );
        for a in 1..20 {
            let d = full.delay_after(a, None, &mut rng).unwrap();
            assert!(d <= (100u64 << (a - 1)).min(1000), "{a}: {d}");
        }
    }
}

//! The "manual" scenario: the user sends requests one at a time at the current
//! virtual time, and may let virtual time pass. Plain Rust, so it is tested natively
//! and the components stay thin.

use ratelab_core::{Limiter, Ms, ParamError, Rate, TokenBucket};

/// What happened to one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The limiter let it through.
    Allowed,
    /// The limiter refused it (a server would answer 429).
    Denied,
    /// The engine rejected the input itself (cannot happen while time only moves
    /// forward, but an error is a value here, never a panic).
    Error,
}

impl Outcome {
    /// The word the page shows.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Allowed => "allowed",
            Outcome::Denied => "denied",
            Outcome::Error => "error",
        }
    }
}

/// One request and the engine's account of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Virtual time of the request, in milliseconds.
    pub at_ms: u64,
    /// Its fate.
    pub outcome: Outcome,
    /// The limiter's explanation, a trace-table row (or the error's message).
    pub explanation: String,
}

impl Row {
    /// The request's virtual time as the engine prints it ("9.8 s").
    pub fn time_label(&self) -> String {
        Ms::from_ms(self.at_ms).to_string()
    }
}

/// A token bucket fed by hand on a virtual clock that starts at 0.
#[derive(Clone, Debug)]
pub struct ManualDemo {
    limiter: TokenBucket,
    now_ms: u64,
    rows: Vec<Row>,
}

impl ManualDemo {
    /// Requests per period, and the bucket's capacity.
    pub const LIMIT: u64 = 5;
    /// The period, in milliseconds.
    pub const PERIOD_MS: u64 = 10_000;

    /// The spec's example: 5 requests per 10 s, capacity 5 (refills 0.5 per second).
    pub fn new() -> Result<ManualDemo, ParamError> {
        let rate = Rate::new(Self::LIMIT, Self::PERIOD_MS)?;
        Ok(ManualDemo {
            limiter: TokenBucket::new(rate, Self::LIMIT)?,
            now_ms: 0,
            rows: Vec::new(),
        })
    }

    /// Sends one request (cost 1) at the current virtual time, records it, and
    /// returns its outcome.
    pub fn send(&mut self) -> Outcome {
        let at_ms = self.now_ms;
        let row = match self.limiter.check_explained(at_ms, 1) {
            Ok((decision, explanation)) => Row {
                at_ms,
                outcome: if decision.allowed {
                    Outcome::Allowed
                } else {
                    Outcome::Denied
                },
                explanation: explanation.to_string(),
            },
            Err(e) => Row {
                at_ms,
                outcome: Outcome::Error,
                explanation: e.to_string(),
            },
        };
        let outcome = row.outcome;
        self.rows.push(row);
        outcome
    }

    /// Lets `ms` milliseconds of virtual time pass.
    pub fn wait(&mut self, ms: u64) {
        self.now_ms = self.now_ms.saturating_add(ms);
    }

    /// The current virtual time, in milliseconds.
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// The current virtual time as the engine prints it ("2.5 s").
    pub fn now_label(&self) -> String {
        Ms::from_ms(self.now_ms).to_string()
    }

    /// Every request so far, oldest first.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The latest request, if any.
    pub fn last(&self) -> Option<&Row> {
        self.rows.last()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_bucket_passes_five_then_refills_one_token_every_two_seconds() {
        let mut demo = ManualDemo::new().unwrap();
        let outcomes: Vec<Outcome> = (0..6).map(|_| demo.send()).collect();
        assert_eq!(&outcomes[..5], &[Outcome::Allowed; 5]);
        assert_eq!(outcomes[5], Outcome::Denied);

        demo.wait(1_999);
        assert_eq!(demo.send(), Outcome::Denied);
        demo.wait(1);
        assert_eq!(demo.now_label(), "2 s");
        assert_eq!(demo.send(), Outcome::Allowed);
        assert_eq!(demo.rows().len(), 8);
    }

    #[test]
    fn every_row_carries_the_engines_explanation() {
        let mut demo = ManualDemo::new().unwrap();
        assert_eq!(demo.last(), None);
        demo.send();
        let row = demo.last().unwrap();
        assert_eq!(row.at_ms, 0);
        assert!(row.explanation.ends_with("allow"), "{}", row.explanation);
    }
}

//! Seeded Poisson traffic: many clients, each sending at random with a given mean
//! rate, reproducible bit for bit from a seed on every target.
//!
//! How a stream is made, exactly (so that it can be re-made anywhere):
//!
//! 1. One generator per load level: `Pcg64::new(seed | load_permille << 64,
//!    LEVEL_STREAM)` (rand_pcg's PCG XSL-RR 128/64, a published algorithm whose output
//!    rand_pcg keeps value-stable).
//! 2. Client `c` (0, 1, 2, ...) gets its own generator from the level's next two
//!    outputs `a`, `b`: `Pcg64::new(a << 64 | b, CLIENT_STREAM)`. So client `c`'s
//!    requests depend only on the seed, the load and `c`: the first ten clients of
//!    a 300-client run are exactly a 10-client run.
//! 3. Inter-arrival gaps are exponential with mean `period_ms · 1000 / (limit ·
//!    load_permille)` ms: `gap = −ln(1 − u) · mean` with `u = (x >> 11) · 2⁻⁵³` for
//!    each 64-bit output `x`. `ln` is `libm::log`, a software implementation, so the
//!    float bits are the same natively and in wasm; only `+`, `·` and `ln` are used.
//! 4. The running sum of gaps starts at 0; each arrival is at `floor(sum)` ms, until
//!    the sum reaches `duration_ms`.
//!
//! Floats only place arrivals on the clock; every decision about them is integer.

use rand_core::Rng;
use rand_pcg::Pcg64;

use crate::error::SimError;
use crate::stream::{Request, Stream, MAX_REQUESTS};

/// The PCG stream selector of the per-level generator (an arbitrary odd constant).
const LEVEL_STREAM: u128 = 0x5261_7465_4c61_6220_4c65_7665_6c21;
/// The PCG stream selector of each client's generator.
const CLIENT_STREAM: u128 = 0x5261_7465_4c61_6220_436c_6965_6e74;

/// Poisson traffic: `clients` independent clients, each sending on average
/// `load × limit` requests per `period_ms`, for `duration_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Poisson {
    /// How many clients (keys `client-0`, `client-1`, ...).
    pub clients: u32,
    /// Each client's mean rate as a multiple of the limit, in thousandths (1250 =
    /// 1.25x the limit). Kept as an integer so that a level is exact and hashable.
    pub load_permille: u32,
    /// N of the budget the load refers to.
    pub limit: u64,
    /// W of the budget the load refers to.
    pub period_ms: u64,
    /// How long the clients send: arrivals fall in `[0, duration_ms)`.
    pub duration_ms: u64,
    /// The seed.
    pub seed: u64,
}

impl Poisson {
    /// One generator per client, in client order (see the module docs).
    pub fn client_rngs(&self) -> impl Iterator<Item = Pcg64> {
        let mut level = Pcg64::new(
            self.seed as u128 | (self.load_permille as u128) << 64,
            LEVEL_STREAM,
        );
        (0..self.clients).map(move |_| {
            let a = level.next_u64() as u128;
            let b = level.next_u64() as u128;
            Pcg64::new(a << 64 | b, CLIENT_STREAM)
        })
    }

    /// The mean gap between two requests of one client, in ms.
    pub fn mean_gap_ms(&self) -> f64 {
        (self.period_ms as f64 * 1000.0) / (self.limit as f64 * self.load_permille as f64)
    }

    /// The arrival times of the client whose generator is `rng`.
    pub fn arrivals(&self, rng: Pcg64) -> Arrivals {
        Arrivals {
            rng,
            mean: self.mean_gap_ms(),
            sum: 0.0,
            end: self.duration_ms as f64,
        }
    }

    /// About how many requests the whole traffic has (the mean), rounded down.
    pub fn expected_requests(&self) -> u128 {
        self.clients as u128
            * self.load_permille as u128
            * self.limit as u128
            * self.duration_ms as u128
            / (1000 * self.period_ms.max(1) as u128)
    }

    /// Checks the parameters: every one at least 1.
    pub fn validate(&self) -> Result<(), SimError> {
        for (field, v) in [
            ("clients", self.clients as u64),
            ("load", self.load_permille as u64),
            ("limit", self.limit),
            ("period_ms", self.period_ms),
            ("duration_ms", self.duration_ms),
        ] {
            if v == 0 {
                return Err(SimError::at(field, "must be > 0"));
            }
        }
        Ok(())
    }

    /// The merged stream of all clients, sorted by time (then by client), with key
    /// table `client-0`, `client-1`, ...
    ///
    /// Errors if it would hold more than [`MAX_REQUESTS`] requests; the check comes
    /// before any work when the expected count is already too large.
    pub fn stream(&self) -> Result<Stream, SimError> {
        self.validate()?;
        let too_many = || {
            SimError::at(
                "scenario",
                format_args!(
                    "this traffic would make about {} requests, more than {MAX_REQUESTS} (lower clients, load or duration_ms)",
                    self.expected_requests()
                ),
            )
        };
        if self.expected_requests() > MAX_REQUESTS as u128 {
            return Err(too_many());
        }
        let mut requests = Vec::with_capacity(self.expected_requests() as usize + 16);
        for (client, rng) in (0u32..).zip(self.client_rngs()) {
            for t in self.arrivals(rng) {
                if requests.len() >= MAX_REQUESTS {
                    return Err(too_many());
                }
                requests.push(Request::keyed(t, client));
            }
        }
        // Equal (t, key) pairs are identical requests, so an unstable sort is exact.
        requests.sort_unstable();
        Ok(Stream {
            requests,
            keys: (0..self.clients).map(|c| format!("client-{c}")).collect(),
        })
    }
}

/// One client's arrival times (an iterator; no allocation).
#[derive(Clone, Debug)]
pub struct Arrivals {
    rng: Pcg64,
    mean: f64,
    sum: f64,
    end: f64,
}

impl Iterator for Arrivals {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        let u = (self.rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        // 1 − u is in (0, 1], so the logarithm is finite and ≤ 0.
        self.sum += -libm::log(1.0 - u) * self.mean;
        // Also stops on a non-finite sum (a zero load would give an infinite mean).
        if self.sum < self.end {
            Some(self.sum as u64)
        } else {
            self.end = f64::NEG_INFINITY;
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(clients: u32, load: u32) -> Poisson {
        Poisson {
            clients,
            load_permille: load,
            limit: 100,
            period_ms: 60_000,
            duration_ms: 600_000,
            seed: 7,
        }
    }

    #[test]
    fn the_mean_rate_is_about_right() {
        let s = p(50, 1000).stream().unwrap();
        // 50 clients × 1000 requests expected; Poisson noise is about ±0.5 %.
        assert!((48_500..51_500).contains(&s.len()), "{}", s.len());
        s.validate().unwrap();
    }

    #[test]
    fn a_prefix_of_the_clients_is_the_same_traffic() {
        let big = p(30, 1250).stream().unwrap();
        let small = p(10, 1250).stream().unwrap();
        let firsts: Vec<Request> = big
            .requests
            .iter()
            .filter(|r| r.key < 10)
            .copied()
            .collect();
        assert_eq!(firsts, small.requests);
    }

    #[test]
    fn the_same_seed_gives_the_same_stream_and_another_seed_another() {
        let a = p(5, 2000).stream().unwrap();
        assert_eq!(a, p(5, 2000).stream().unwrap());
        let b = Poisson {
            seed: 8,
            ..p(5, 2000)
        }
        .stream()
        .unwrap();
        assert_ne!(a, b);
    }

    #[test]
    fn the_first_arrivals_are_pinned() {
        // If this changes, every seeded stream changed: that is a breaking change of
        // the JSON format's meaning (seeds must keep giving the same traffic).
        let first: Vec<u64> = {
            let q = p(1, 1000);
            let rng = q.client_rngs().next().unwrap();
            q.arrivals(rng).take(8).collect()
        };
        assert_eq!(first, PINNED);
    }

    const PINNED: [u64; 8] = [254, 1228, 1501, 3607, 4179, 4348, 4586, 6531];

    #[test]
    fn too_much_traffic_is_refused_up_front() {
        let e = Poisson {
            clients: 10_000,
            ..p(1, 4000)
        }
        .stream()
        .unwrap_err();
        assert!(
            e.as_str()
                .starts_with("scenario: this traffic would make about 40000000 requests"),
            "{e}"
        );
    }
}

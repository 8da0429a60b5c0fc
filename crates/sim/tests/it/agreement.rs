//! Native and wasm agree, decision by decision: a million seeded requests (keyed
//! Poisson traffic, mixed costs) through every limiter give one digest of every
//! decision (allowed, the exact wait, remaining, retry-after and reset), pinned
//! below. Natively this is a plain test; for `wasm32-unknown-unknown` it runs in a
//! headless browser (`cargo xtask test` runs it in Chromium and Firefox):
//!
//! ```sh
//! cargo test -p ratelab-sim --target wasm32-unknown-unknown --test it agreement::
//! ```
//!
//! If the digest changes, some decision changed: find out which before re-pinning.

use ratelab_core::{Algorithm, AnyLimiter, Decision, Frac, Limiter, Params};
use ratelab_sim::traffic::Poisson;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// The digest of [`run`]'s million decisions.
const DIGEST: u64 = 7_471_342_669_676_173_410;
/// How many requests the traffic has (a check that the stream itself agrees).
const REQUESTS: usize = 1_000_127;

/// FNV-1a, 64 bits, over little-endian bytes: simple, stable, and the same on every
/// target.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    fn u128(&mut self, v: u128) {
        self.bytes(&v.to_le_bytes());
    }

    /// An exact value, reduced, so that equal values hash equally however stored.
    fn frac(&mut self, f: Frac) {
        let (mut a, mut b) = (f.num(), u128::from(f.den()));
        while b != 0 {
            (a, b) = (b, a % b);
        }
        let g = a.max(1);
        self.u128(f.num() / g);
        self.u128(u128::from(f.den()) / g);
    }

    fn decision(&mut self, d: &Decision) {
        self.bytes(&[u8::from(d.allowed())]);
        self.frac(d.wait().0);
        self.u64(d.remaining());
        self.frac(d.retry_after().0);
        self.frac(d.reset().0);
    }
}

/// Every algorithm at 100 per minute, bursts of 20 (nginx: 10, delayed after 4).
fn limiters() -> Vec<AnyLimiter> {
    Algorithm::ALL
        .into_iter()
        .map(|a| {
            let mut p = Params::new(100, 60_000);
            if a.uses_burst() {
                p.burst = Some(if a == Algorithm::Nginx { 10 } else { 20 });
            }
            if a == Algorithm::Nginx {
                p.delay = Some(4);
            }
            AnyLimiter::new(a, &p).unwrap()
        })
        .collect()
}

/// 100 clients at 2x the limit for 50 minutes (about a million requests), costs 1
/// to 3 from a fixed mixing of the request's index; every request through every
/// limiter of its key. Returns (requests, digest).
fn run() -> (usize, u64) {
    let stream = Poisson {
        clients: 100,
        load_permille: 2_000,
        limit: 100,
        period_ms: 60_000,
        duration_ms: 3_000_000,
        seed: 2024,
    }
    .stream()
    .unwrap();
    let protos = limiters();
    // One limiter per (key, algorithm); keys are indices, so no map is needed.
    let mut keyed: Vec<Vec<AnyLimiter>> = vec![protos; stream.keys.len()];
    let mut h = Fnv::new();
    for (i, r) in stream.requests.iter().enumerate() {
        let cost = 1 + ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 62) as u32 % 3;
        h.u64(r.t);
        h.u64(u64::from(r.key));
        for l in &mut keyed[r.key as usize] {
            let d = l.check(r.t, cost).unwrap();
            h.decision(&d);
        }
    }
    (stream.len(), h.0)
}

#[test]
fn a_million_decisions_agree_on_every_target() {
    let (requests, digest) = run();
    assert_eq!((requests, digest), (REQUESTS, DIGEST));
}

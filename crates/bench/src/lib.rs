//! The workload of ratelab's benchmarks, shared by the native benchmark (criterion,
//! `benches/check.rs`) and the browser benchmark (this crate compiled to wasm, see
//! [`wasm`] and `browser/`). `cargo xtask bench` runs both and writes the table.
//!
//! One realistic stream: 300 clients × 10 min of seeded Poisson traffic, each client
//! sending at the limit on average (100 per minute), about 300 000 requests in time
//! order, interleaved across clients. Every limiter sees the same stream with one
//! state per client (a `Vec` indexed by client id, fresh for every run), and every
//! decision is consumed as a server consumes it (see [`drive`]): the verdict, how
//! long an allowed request is held, and when a denied one may retry, not only a
//! boolean.
//!
//! ```
//! use ratelab_bench::{run, Workload};
//! use ratelab_core::Algorithm;
//!
//! let w = Workload::with_clients(3);
//! let tally = run(Algorithm::SlidingLog, &w);
//! assert_eq!(tally.decisions, w.len() as u64);
//! assert!(tally.allowed <= tally.decisions);
//! ```

use ratelab_core::{Algorithm, AnyLimiter, Limiter, Ms, Params};
use ratelab_sim::sweep::{sweep, SweepSpec};
use ratelab_sim::traffic::Poisson;
use ratelab_sim::Request;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

/// N: requests per period, for every limiter.
pub const LIMIT: u64 = 100;
/// W: the period, one minute.
pub const PERIOD_MS: u64 = 60_000;
/// Clients (keys) in the stream.
pub const CLIENTS: u32 = 300;
/// How long they send: ten minutes.
pub const DURATION_MS: u64 = 600_000;
/// Each client's mean rate in thousandths of the limit: 1000 = at the limit.
pub const LOAD_PERMILLE: u32 = 1000;
/// The seed of the traffic (lab D's default seed).
pub const SEED: u64 = 1;

/// The limiters' parameters: 100 per minute, every option at its default (burst 100
/// for the buckets, GCRA and the queue; nginx `burst=0`, `delay=0`, as nginx).
pub fn params() -> Params {
    Params::new(LIMIT, PERIOD_MS)
}

/// The traffic with `clients` clients (the first k clients of a bigger run are
/// exactly a k-client run).
pub fn traffic(clients: u32) -> Poisson {
    Poisson {
        clients,
        load_permille: LOAD_PERMILLE,
        limit: LIMIT,
        period_ms: PERIOD_MS,
        duration_ms: DURATION_MS,
        seed: SEED,
    }
}

/// The stream every benchmark runs: requests in time order, `key` = client id.
#[derive(Clone, Debug)]
pub struct Workload {
    requests: Vec<Request>,
    clients: usize,
}

impl Default for Workload {
    fn default() -> Workload {
        Workload::new()
    }
}

impl Workload {
    /// The benchmark's stream: [`CLIENTS`] clients (about 300 000 requests).
    pub fn new() -> Workload {
        Workload::with_clients(CLIENTS)
    }

    /// The same traffic with fewer (or more) clients, for tests.
    pub fn with_clients(clients: u32) -> Workload {
        Workload::with_traffic(&traffic(clients))
    }

    /// Any seeded Poisson traffic (for tests at other loads). Panics on traffic
    /// that [`Poisson::stream`] refuses: the benchmarks only use valid constants.
    pub fn with_traffic(traffic: &Poisson) -> Workload {
        let stream = match traffic.stream() {
            Ok(s) => s,
            Err(e) => panic!("the benchmark's traffic is invalid: {e}"),
        };
        Workload {
            requests: stream.requests,
            clients: traffic.clients as usize,
        }
    }

    /// The requests, in time order.
    pub fn requests(&self) -> &[Request] {
        &self.requests
    }

    /// How many clients (one limiter state each).
    pub fn clients(&self) -> usize {
        self.clients
    }

    /// How many requests.
    pub fn len(&self) -> usize {
        self.requests.len()
    }

    /// No requests at all.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
    }
}

/// What one run decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Requests decided.
    pub decisions: u64,
    /// Requests allowed (possibly after a wait).
    pub allowed: u64,
    /// Requests the limiter refused as bad input (none on this stream; counted so
    /// that a broken stream shows up instead of being timed).
    pub errors: u64,
    /// A checksum of every allowed request's wait and every denied one's
    /// retry-after, so that neither can be optimised away (see [`drive`]).
    pub digest: u64,
}

/// A limiter with the benchmark's [`params`].
pub fn limiter(algorithm: Algorithm) -> AnyLimiter {
    match AnyLimiter::new(algorithm, &params()) {
        Ok(l) => l,
        Err(e) => panic!("the benchmark's parameters are invalid for {algorithm:?}: {e}"),
    }
}

/// Runs `algorithm` over the workload with fresh states, one per client.
///
/// The concrete limiter type is chosen once, outside the loop, so each algorithm is
/// measured as its own monomorphic loop (what a server that uses one limiter runs),
/// not through [`AnyLimiter`]'s per-call `match`.
pub fn run(algorithm: Algorithm, workload: &Workload) -> Tally {
    match limiter(algorithm) {
        AnyLimiter::FixedWindow(l) => drive(&l, workload),
        AnyLimiter::FixedWindowAnchored(l) => drive(&l, workload),
        AnyLimiter::SlidingLog(l) => drive(&l, workload),
        AnyLimiter::SlidingWindowCounter(l) => drive(&l, workload),
        AnyLimiter::TokenBucket(l) => drive(&l, workload),
        AnyLimiter::LeakyQueue(l) => drive(&l, workload),
        AnyLimiter::Gcra(l) => drive(&l, workload),
        AnyLimiter::Nginx(l) => drive(&l, workload),
        AnyLimiter::TokenBucketF64(l) => drive(&l, workload),
    }
}

/// The loop every benchmark times: a fresh copy of `proto` per client, then every
/// request of the stream through its client's limiter.
///
/// Each decision is consumed as a server consumes it: the verdict is counted, and
/// the exact wait of an allowed request (nonzero for the queue and nginx, which
/// delay) or the retry-after of a denied one is folded into [`Tally::digest`], so
/// the compiler must compute what a server acts on. That is what governor's
/// consumer in `benches/check.rs` reads from governor too (the verdict, and the wait
/// of a denial). `remaining` and `reset`, which only go into headers, are computed
/// when asked for ([`ratelab_core::Decision`] is lazy) and are not asked for here.
/// (Not `black_box(&decision)`: that forces a store and a wider reload of the
/// verdict byte, and the failed store forwarding made the loop up to 2.5× slower
/// than the engine is.)
#[inline(never)]
pub fn drive<L: Limiter + Clone>(proto: &L, workload: &Workload) -> Tally {
    let mut states = vec![proto.clone(); workload.clients];
    // Counted in locals, not in the returned `Tally`: stores to the return slot on
    // every request would be the harness's cost, not the limiter's.
    let (mut allowed, mut errors, mut digest) = (0u64, 0u64, 0u64);
    for r in &workload.requests {
        let Some(state) = states.get_mut(r.key as usize) else {
            errors += 1;
            continue;
        };
        match state.check(r.t, r.cost) {
            Ok(d) => {
                let acted_on = if d.allowed() {
                    allowed += 1;
                    d.wait()
                } else {
                    d.retry_after()
                };
                let fold = |ms: Ms| ms.0.num() as u64 ^ ms.0.den().rotate_left(32);
                digest = digest.rotate_left(5).wrapping_add(fold(acted_on));
            }
            Err(_) => errors += 1,
        }
    }
    Tally {
        decisions: workload.requests.len() as u64,
        allowed,
        errors,
        digest,
    }
}

/// Lab D's sweep as the playground runs it (300 clients × 10 min at six load
/// levels, about 2.9 million requests through the sliding log and the sliding window
/// counter, traffic generated on the fly). Returns (requests, wrong allows, wrong
/// blocks) summed over the levels, so callers can check it did the work.
pub fn lab_d_sweep() -> (u64, u64, u64) {
    match sweep(&SweepSpec::lab_d(SEED)) {
        Ok(s) => s.rows.iter().fold((0, 0, 0), |acc, r| {
            (
                acc.0 + r.requests,
                acc.1 + r.wrong_allows,
                acc.2 + r.wrong_blocks,
            )
        }),
        Err(e) => panic!("lab D's sweep failed: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratelab_sim::sweep::SweepSpec;

    #[test]
    fn every_algorithm_decides_every_request_without_errors() {
        let w = Workload::with_clients(4);
        assert!(w.len() > 3_000, "{}", w.len());
        for a in Algorithm::ALL {
            let t = run(a, &w);
            assert_eq!((t.decisions, t.errors), (w.len() as u64, 0), "{a:?}");
            assert!(t.allowed > 0 && t.allowed <= t.decisions, "{a:?}");
        }
    }

    #[test]
    fn gcra_and_the_exact_token_bucket_agree_here_too() {
        let w = Workload::with_clients(4);
        assert_eq!(
            run(Algorithm::Gcra, &w).allowed,
            run(Algorithm::TokenBucket, &w).allowed
        );
    }

    #[test]
    fn the_stream_is_lab_d_at_1x() {
        // Lab D's 1x level is the same traffic: its baseline (the sliding log, one
        // state per client) must allow exactly what our sliding log run allows.
        let w = Workload::with_clients(6);
        let s = sweep(&SweepSpec {
            clients: 6,
            loads_permille: vec![LOAD_PERMILLE],
            ..SweepSpec::lab_d(SEED)
        })
        .unwrap();
        assert_eq!(s.rows[0].requests, w.len() as u64);
        assert_eq!(
            s.rows[0].baseline_allowed,
            run(Algorithm::SlidingLog, &w).allowed
        );
    }
}

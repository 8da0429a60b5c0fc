//! A client that obeys Retry-After never gets a second 429 for the same request
//! (SPEC, "Beyond one process"), and neither does one that waits the exact wait
//! rounded up to the millisecond: on random streams, for every limiter (the float
//! teaching bucket aside: its own arithmetic can miss the moment by a hair, which is
//! what it is there to show).
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use ratelab_core::{Algorithm, AnyLimiter, Limiter, Params};
use ratelab_learn::conformance::retries;

proptest! {
    #[test]
    fn rounding_up_never_bounces(
        algorithm in prop::sample::select(
            Algorithm::ALL.into_iter().filter(|a| *a != Algorithm::TokenBucketF64).collect::<Vec<_>>()
        ),
        limit in 1u64..8,
        period in prop::sample::select(vec![1u64, 7, 1000, 3333, 10_000, 60_000]),
        burst in prop::option::of(1u64..10),
        gaps in prop::collection::vec(0u64..3000, 1..80),
        cost in 1u32..3,
    ) {
        let params = Params { burst, ..Params::new(limit, period) };
        let Ok(mut l) = AnyLimiter::new(algorithm, &params) else { return Ok(()) };
        let mut t = 0u64;
        for g in gaps {
            t += g.saturating_sub(1500);
            let Ok(Some(r)) = retries(&l, t, cost) else {
                let _ = l.check(t, cost);
                continue;
            };
            for tr in r.tries.iter().filter(|tr| tr.rounding.is_up()) {
                prop_assert!(tr.allowed, "{}: {r:?}", algorithm.id());
            }
            let _ = l.check(t, cost);
        }
    }
}

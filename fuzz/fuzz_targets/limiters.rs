//! Any algorithm, any parameters, any times and costs through every `Limiter`
//! method of `AnyLimiter`: no panic, and SPEC's guarantees hold (the oracle is shared
//! with the proptest target `crates/sim/tests/it/hostile.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/sim/tests/it/support/oracle.rs"]
mod oracle;

fuzz_target!(|data: &[u8]| {
    let case = oracle::limiter_case(data);
    if let Err(e) = oracle::check_limiter(&case) {
        panic!("{e}");
    }
});

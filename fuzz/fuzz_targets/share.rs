//! Any text as the playground's URL state (`ratelab_sim::share`): no panic, a
//! runnable state, a notice for every unknown parameter or unusable value, and what
//! `to_query` writes parses back to the same state.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/sim/tests/it/support/oracle.rs"]
mod oracle;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = oracle::check_share(&text) {
        panic!("{e}");
    }
});

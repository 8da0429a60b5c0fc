//! Byte-identical output natively and in wasm (as `ratelab-sim`'s `portable` test):
//! lab D judged by the article's method gives the same digest on every target.
//! Runs as a normal test natively and under `wasm-bindgen-test-runner`:
//!
//! ```sh
//! cargo test -p ratelab-learn --target wasm32-unknown-unknown --test portable
//! ```

use ratelab_learn::judge::judge;
use ratelab_sim::sweep::SweepSpec;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// FNV-1a, 64 bits: a digest to compare outputs across targets without pinning
/// kilobytes of text.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[test]
fn the_same_bytes_on_every_target() {
    // Lab D judged on the counter's own history (its mean error is integer
    // arithmetic too).
    let j = judge(&SweepSpec {
        clients: 4,
        ..SweepSpec::lab_d(3)
    })
    .unwrap();
    let text = serde_json::to_string(&j).unwrap();
    assert_eq!((text.len(), fnv(&text)), (984, 3017496237095378729));
}

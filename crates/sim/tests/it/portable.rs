//! Byte-identical output natively and in wasm: the same inputs must give outputs with
//! the same digests on every target. Runs as a normal test natively and under
//! `wasm-bindgen-test-runner` for `wasm32-unknown-unknown`:
//!
//! ```sh
//! cargo test -p ratelab-sim --target wasm32-unknown-unknown --test it portable::
//! ```

use ratelab_sim::sweep::{sweep, SweepSpec};
use ratelab_sim::{scenarios_json, simulate_json};

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// FNV-1a, 64 bits: a digest to compare outputs across targets without pinning
/// megabytes of text.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn digest(input: &str) -> (usize, u64) {
    let out = simulate_json(input).unwrap_or_else(|e| e);
    (out.len(), fnv(&out))
}

#[test]
fn the_same_bytes_on_every_target() {
    let cases: [(&str, (usize, u64)); 6] = [
        (r#"{"scenario": "golden"}"#, (3060, 1512909509061445791)),
        (r#"{"scenario": "lab-c"}"#, (2172, 14718716119413009128)),
        (
            r#"{"scenario": "poisson", "clients": 5, "load": 1.5, "seed": 99}"#,
            (122700, 16368695610105894744),
        ),
        (
            r#"{"scenario": "lab-b", "limiters": [{"algorithm": "token_bucket_f64"}, {"algorithm": "nginx", "burst": 20, "delay": 5}]}"#,
            (12062, 14102986454216349949),
        ),
        (
            r#"{"requests": [3, 1], "limiters": [{"algorithm": "gcra", "limit": 1, "period_ms": 3}]}"#,
            (77, 15822826985390075577),
        ),
        (
            r#"{"requests": [1], "limiters": [{"algorithm": "fixed_window", "limit": 1e20, "period_ms": 3}]}"#,
            // `limiters[0].limit: 1e20 is too large (at most 4294967295)`: numbers are
            // quoted as written.
            (57, 5509917350489480528),
        ),
    ];
    let got: Vec<(usize, u64)> = cases.iter().map(|(i, _)| digest(i)).collect();
    let expected: Vec<(usize, u64)> = cases.iter().map(|(_, d)| *d).collect();
    assert_eq!(got, expected);
    // The service model: seeded demand, jitter and random balancing, exact decisions.
    let services: Vec<(usize, u64)> = [
        r#"{"scenario": "retry-storm"}"#,
        r#"{"scenario": "instances", "seed": 7}"#,
        r#"{"scenario": "store-outage"}"#,
        r#"{"scenario": "page-load", "seed": 3}"#,
        r#"{"scenario": "expensive-route"}"#,
    ]
    .iter()
    .map(|i| digest(i))
    .collect();
    assert_eq!(
        services,
        [
            (246145, 2111261994986476420),
            (172898, 10794687474245031909),
            (720305, 18060534419444288542),
            (55025, 17478933353118668314),
            (173836, 5847400701058050998),
        ]
    );
    let s = sweep(&SweepSpec {
        clients: 4,
        ..SweepSpec::lab_d(3)
    })
    .unwrap();
    let text = serde_json::to_string(&s).unwrap();
    assert_eq!((text.len(), fnv(&text)), (976, 9399028839678069654));
    let registry = scenarios_json();
    assert_eq!(
        (registry.len(), fnv(&registry)),
        (23244, 423800201084082405)
    );
}

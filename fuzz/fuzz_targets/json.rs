//! Any text into the JSON format (`Config::from_json`, `simulate_json`): no panic,
//! every rejection one clear line that starts with a path, every accepted config
//! runs and exports back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/sim/tests/it/support/oracle.rs"]
mod oracle;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = oracle::check_json(&text) {
        panic!("{e}");
    }
});

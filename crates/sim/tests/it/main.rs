//! ratelab-sim's integration tests, as one binary (one link instead of fifteen;
//! `budget.rs` stays a binary of its own: it counts allocations with its own global
//! allocator). Run one module with `cargo test -p ratelab-sim --test it MODULE::`.
//! Under wasm the modules that hold browser tests (`agreement`, `portable`) run in
//! headless browsers; the native-only ones are `#![cfg]`'d out.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod agreement;
mod counter_error;
mod errors;
mod golden;
mod hostile;
mod labs;
mod memory;
mod portable;
mod properties;
mod service;
mod service_memory;
mod shape;
mod share;
mod share_bad_values;
mod timeline;

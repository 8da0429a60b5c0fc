//! The browser benchmark's side in wasm: the workload lives in wasm memory, and
//! each run crosses the JS–wasm boundary once (the page times the call with
//! `performance.now()`), as the playground runs whole streams inside wasm.
//!
//! The page (`browser/bench.html`, driven by `browser/run.mjs`) hands the same
//! stream to the plain JavaScript limiters of `browser/reference.mjs` and times
//! both in the same page.

use ratelab_core::Algorithm;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::{lab_d_sweep, run, Workload};

/// The benchmark's stream, generated once in wasm.
#[wasm_bindgen]
pub struct BenchWorkload {
    inner: Workload,
}

#[wasm_bindgen]
impl BenchWorkload {
    /// 300 clients × 10 min at 100 per minute (about 300 000 requests).
    #[wasm_bindgen(constructor)]
    pub fn new() -> BenchWorkload {
        BenchWorkload {
            inner: Workload::new(),
        }
    }

    /// How many requests.
    pub fn requests(&self) -> usize {
        self.inner.len()
    }

    /// How many clients.
    pub fn clients(&self) -> usize {
        self.inner.clients()
    }

    /// Arrival times in ms (a `Float64Array`, for the JavaScript limiters).
    pub fn times(&self) -> Vec<f64> {
        self.inner.requests().iter().map(|r| r.t as f64).collect()
    }

    /// Client ids (a `Uint32Array`), aligned with [`BenchWorkload::times`].
    pub fn keys(&self) -> Vec<u32> {
        self.inner.requests().iter().map(|r| r.key).collect()
    }

    /// Runs one limiter (by its JSON id) over the whole stream with fresh states and
    /// returns how many requests it allowed, or −1 for an unknown id or any error.
    pub fn run(&self, id: &str) -> f64 {
        match Algorithm::from_id(id) {
            Some(a) => {
                let t = run(a, &self.inner);
                if t.errors == 0 {
                    t.allowed as f64
                } else {
                    -1.0
                }
            }
            None => -1.0,
        }
    }
}

impl Default for BenchWorkload {
    fn default() -> BenchWorkload {
        BenchWorkload::new()
    }
}

/// The limiters' JSON ids, the eight exact ones first, then the two teaching ones.
#[wasm_bindgen]
pub fn algorithms() -> Vec<String> {
    Algorithm::ALL.iter().map(|a| a.id().to_owned()).collect()
}

/// Lab D's whole sweep; returns `[requests, wrong allows, wrong blocks]`.
#[wasm_bindgen]
pub fn sweep_lab_d() -> Vec<f64> {
    let (requests, wrong_allows, wrong_blocks) = lab_d_sweep();
    vec![requests as f64, wrong_allows as f64, wrong_blocks as f64]
}

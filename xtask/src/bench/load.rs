//! The load part: navigation → first lane drawn, for the size part's release build,
//! at normal speed and with the CPU throttled 4× (`crates/bench/browser/first.mjs`,
//! headless Chromium, a fresh context per round).

use std::path::Path;

use super::{page_harness, run_tee, NO_BUILD};
use crate::util::{Ctx, Result};

/// Navigation → first lane drawn, in ms, at normal speed (issue 15's target).
pub(super) const TARGET_MS: f64 = 300.0;
/// The same with the CPU throttled 4×.
pub(super) const TARGET_THROTTLED_MS: f64 = 1000.0;

/// One CPU rate's medians, ms from the navigation's start.
pub(super) struct LoadRow {
    /// CPU slow-down factor (1 = none).
    pub rate: u32,
    pub rounds: u32,
    /// First contentful paint: index.html's own frame.
    pub fcp_ms: f64,
    pub wasm_start_ms: f64,
    pub wasm_end_ms: f64,
    /// The first lane added to the document.
    pub lane_ms: f64,
    /// The frame after it: the lane is on screen.
    pub drawn_ms: f64,
    pub drawn_worst_ms: f64,
    /// Requests for the .wasm in one round (1: the preload was used).
    pub wasm_fetches: u32,
}

impl LoadRow {
    pub fn target_ms(&self) -> f64 {
        if self.rate >= 4 {
            TARGET_THROTTLED_MS
        } else {
            TARGET_MS
        }
    }
}

/// What the load part measured, or why it could not.
pub(super) enum Load {
    Measured(Vec<LoadRow>),
    Pending(String),
}

/// Loads the page `rounds` times per CPU rate and reads the harness's lines.
pub(super) fn run(ctx: &Ctx, work: &Path, chromium: &Path, quick: bool) -> Result<Load> {
    let Some(mut cmd) = page_harness(ctx, work, chromium, "first.mjs") else {
        return Ok(Load::Pending(NO_BUILD.into()));
    };
    cmd.env("RATELAB_LOAD_ROUNDS", if quick { "3" } else { "9" });
    Ok(parse_load(&run_tee(&mut cmd)?))
}

fn parse_load(out: &str) -> Load {
    let mut rows = Vec::new();
    for line in out.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["bench", "load", "pending", why] => return Load::Pending(why.to_string()),
            ["bench", "load", rate, rounds, rest @ ..] if rest.len() == 7 => {
                let n: Vec<f64> = rest.iter().filter_map(|s| s.parse().ok()).collect();
                let (Ok(rate), Ok(rounds)) = (rate.parse(), rounds.parse()) else {
                    continue;
                };
                if let [fcp_ms, wasm_start_ms, wasm_end_ms, lane_ms, drawn_ms, drawn_worst_ms, fetches] =
                    n[..]
                {
                    rows.push(LoadRow {
                        rate,
                        rounds,
                        fcp_ms,
                        wasm_start_ms,
                        wasm_end_ms,
                        lane_ms,
                        drawn_ms,
                        drawn_worst_ms,
                        wasm_fetches: fetches as u32,
                    });
                }
            }
            _ => {}
        }
    }
    if rows.is_empty() {
        Load::Pending("the load harness printed no result".into())
    } else {
        Load::Measured(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_harness_prints() {
        match parse_load("bench\tload\tpending\tno dist\n") {
            Load::Pending(why) => assert_eq!(why, "no dist"),
            Load::Measured(_) => panic!("pending expected"),
        }
        let out = "noise\nbench\tload\t1\t5\t459.6\t232.7\t418.4\t858.0\t1110.9\t1490.1\t1\n\
                   bench\tload\t4\t5\t1265.6\t482.7\t678.7\t2513.0\t3574.2\t3854.4\t1\n";
        match parse_load(out) {
            Load::Measured(rows) => {
                assert_eq!(rows.len(), 2);
                assert_eq!((rows[0].rate, rows[0].drawn_ms), (1, 1110.9));
                assert_eq!(
                    (rows[1].target_ms(), rows[1].wasm_start_ms),
                    (1000.0, 482.7)
                );
            }
            Load::Pending(why) => panic!("{why}"),
        }
    }
}

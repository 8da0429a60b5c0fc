//! The browser part: crates/bench compiled to wasm exactly as Trunk ships the
//! playground (`--release`, wasm-bindgen, `wasm-opt -Oz`) and the plain JavaScript
//! limiters of `crates/bench/browser/reference.mjs`, timed side by side in one
//! headless Chromium page (`browser/run.mjs`); then lab D's sweep in the same page.

use std::path::Path;

use super::run_tee;
use crate::test::CHROMIUM_FLAGS;
use crate::util::{self, Ctx, Result};

/// wasm must be at least this many times faster than the JavaScript closures.
pub(super) const TARGET_SPEEDUP: f64 = 2.0;
/// Lab D's sweep must finish within this, in ms.
pub(super) const SWEEP_TARGET_MS: f64 = 1000.0;

/// One limiter: the median pass in each language and what each allowed.
pub(super) struct BrowserRow {
    pub id: String,
    pub wasm_ms: f64,
    pub js_ms: f64,
    pub wasm_allowed: String,
    pub js_allowed: String,
}

/// What the browser part measured.
pub(super) struct Browser {
    pub version: String,
    /// Cross-origin isolated, so `performance.now()` has 5 µs resolution.
    pub isolated: bool,
    pub decisions: u64,
    pub rounds: u64,
    pub rows: Vec<BrowserRow>,
    pub sweep: Option<Sweep>,
}

/// Lab D's sweep, timed in the page.
pub(super) struct Sweep {
    pub median_ms: f64,
    pub first_ms: f64,
    pub runs: u64,
    pub requests: u64,
}

/// Builds the wasm, checks the JavaScript twins, runs the page, reads its lines.
pub(super) fn run(
    ctx: &Ctx,
    target: &Path,
    work: &Path,
    out_dir: &Path,
    chromium: &Path,
    quick: bool,
) -> Result<Browser> {
    let dir = ctx.root.join("crates/bench/browser");
    // The yardstick is only worth timing if it implements the same algorithms.
    util::run(
        ctx.cmd("node")
            .arg("--test")
            .arg(dir.join("reference.test.mjs")),
    )?;
    // Built as the playground ships: the release profile, wasm-bindgen, wasm-opt -Oz
    // (index.html's data-wasm-opt="z").
    util::run(ctx.cargo().args([
        "build",
        "-p",
        "ratelab-bench",
        "--lib",
        "--target",
        "wasm32-unknown-unknown",
        "--release",
    ]))?;
    let wasm = target.join("wasm32-unknown-unknown/release/ratelab_bench.wasm");
    let pkg = work.join("pkg");
    util::run(
        ctx.cmd("wasm-bindgen")
            .args(["--target", "web", "--out-dir"])
            .arg(&pkg)
            .arg(&wasm),
    )?;
    let bg = pkg.join("ratelab_bench_bg.wasm");
    util::run(ctx.cmd("wasm-opt").arg("-Oz").arg(&bg).arg("-o").arg(&bg))?;
    let mut cmd = ctx.cmd("node");
    cmd.arg(dir.join("run.mjs"))
        .env("RATELAB_BENCH_PKG", &pkg)
        .env("RATELAB_BENCH_OUT", out_dir.join("browser.json"))
        .env("RATELAB_CHROMIUM", chromium)
        .env("RATELAB_CHROMIUM_FLAGS", CHROMIUM_FLAGS.join(" "));
    if quick {
        cmd.env("RATELAB_BENCH_ROUNDS", "3")
            .env("RATELAB_BENCH_SWEEPS", "2");
    }
    parse_browser(&run_tee(&mut cmd)?)
}

fn parse_browser(out: &str) -> Result<Browser> {
    let mut b = Browser {
        version: "?".into(),
        isolated: false,
        decisions: 0,
        rounds: 0,
        rows: Vec::new(),
        sweep: None,
    };
    let num = |s: Option<&&str>| -> Result<f64> {
        s.and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("a malformed line from run.mjs: {s:?}"))
    };
    for line in out.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["bench", "browser", version, isolation] => {
                b.version = version.to_string();
                b.isolated = *isolation == "isolated";
            }
            ["bench", "workload", ..] => {
                b.decisions = num(f.get(2))? as u64;
                b.rounds = num(f.get(4))? as u64;
            }
            ["bench", "limiter", id, ..] => b.rows.push(BrowserRow {
                id: id.to_string(),
                wasm_ms: num(f.get(3))?,
                js_ms: num(f.get(4))?,
                wasm_allowed: f.get(5).unwrap_or(&"?").to_string(),
                js_allowed: f.get(6).unwrap_or(&"?").to_string(),
            }),
            ["bench", "sweep", ..] => {
                b.sweep = Some(Sweep {
                    median_ms: num(f.get(2))?,
                    first_ms: num(f.get(3))?,
                    runs: num(f.get(4))? as u64,
                    requests: num(f.get(5))? as u64,
                })
            }
            _ => {}
        }
    }
    if b.rows.is_empty() {
        return Err("the browser benchmark printed no results".into());
    }
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_page_prints() {
        let out = "bench\tbrowser\t156.0\tisolated\nbench\tworkload\t300\t3\t9\n\
                   bench\tlimiter\tgcra\t1.5000\t3.0000\t7\t7\n\
                   bench\tsweep\t500.00\t600.00\t5\t2893334\t1\t2\n";
        let b = parse_browser(out).unwrap();
        assert_eq!((b.decisions, b.rounds, b.rows.len()), (300, 9, 1));
        assert!(b.isolated);
        assert_eq!(b.rows[0].js_ms / b.rows[0].wasm_ms, 2.0);
        assert_eq!(b.sweep.as_ref().map(|s| s.requests), Some(2_893_334));
        assert!(parse_browser("nothing").is_err());
    }
}

//! `cargo xtask fuzz`: the long mode of the hostile-input tests. Not part of `test`
//! (CI's stable toolchain has no cargo-fuzz); run it by hand or nightly.
//!
//! 1. The proptest targets with many cases: `crates/sim/tests/it/hostile.rs`
//!    (limiters, JSON, links) and `crates/core/tests/properties.rs` (SPEC's
//!    guarantees), with `PROPTEST_CASES` (a debug build: the release profile's LTO
//!    would cost more to build than it saves; proptest itself is optimised).
//! 2. The coverage-guided cargo-fuzz targets in `fuzz/` (limiters, json, share), each
//!    for `--minutes`, with a corpus kept in `fuzz/corpus/<target>` (seeded from
//!    `fuzz/seeds/<target>`), a log in `target/fuzz-logs/<target>.log`, and a table
//!    of runs, execs and corpus sizes at the end. cargo-fuzz needs a nightly
//!    compiler: it uses `+nightly` when rustup has one, else tries the stable one with
//!    `RUSTC_BOOTSTRAP=1`, else says what to install. cargo-fuzz itself is installed
//!    from crates.io if missing.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::util::{self, run, Ctx, Result};

pub const USAGE: &str = "\
fuzz options (cargo xtask fuzz):
  --minutes N           cargo-fuzz time per target (default 10)
  --target NAME         only this cargo-fuzz target (repeatable): limiters, json, share
  --cases N             proptest cases per property (default 20000)
  --proptest-only       only the proptest targets (no nightly needed)
  --cargo-fuzz-only     only the cargo-fuzz targets
";

/// The cargo-fuzz targets, as in `fuzz/Cargo.toml`.
pub const TARGETS: &[&str] = &["limiters", "json", "share"];

pub struct Options {
    minutes: u64,
    targets: Vec<String>,
    cases: u64,
    proptest: bool,
    cargo_fuzz: bool,
}

pub fn parse_options(rest: &[String]) -> Result<Options> {
    let mut o = Options {
        minutes: 10,
        targets: Vec::new(),
        cases: 20_000,
        proptest: true,
        cargo_fuzz: true,
    };
    let mut it = rest.iter();
    let number = |v: Option<&String>, flag: &str| -> Result<u64> {
        v.and_then(|s| s.parse().ok())
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("{flag} needs a whole number > 0\n\n{USAGE}"))
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--minutes" => o.minutes = number(it.next(), "--minutes")?,
            "--cases" => o.cases = number(it.next(), "--cases")?,
            "--target" => {
                let t = it.next().ok_or("--target needs a name")?;
                if !TARGETS.contains(&t.as_str()) {
                    return Err(format!(
                        "unknown fuzz target `{t}`; targets are: {}",
                        TARGETS.join(", ")
                    ));
                }
                o.targets.push(t.clone());
            }
            "--proptest-only" => o.cargo_fuzz = false,
            "--cargo-fuzz-only" => o.proptest = false,
            a => return Err(format!("unexpected argument `{a}`\n\n{USAGE}")),
        }
    }
    if !o.proptest && !o.cargo_fuzz {
        return Err("--proptest-only and --cargo-fuzz-only leave nothing to run".into());
    }
    if o.targets.is_empty() {
        o.targets = TARGETS.iter().map(|t| t.to_string()).collect();
    }
    Ok(o)
}

pub fn fuzz(ctx: &Ctx, o: &Options) -> Result {
    if o.proptest {
        util::heading(&format!("proptest targets, {} cases each", o.cases));
        // A test binary and the tests in it to run (sim's are modules of one binary).
        for (krate, test, filter) in [
            ("ratelab-sim", "it", "hostile::"),
            ("ratelab-core", "properties", ""),
        ] {
            run(ctx
                .cargo()
                .args(["test", "-p", krate, "--test", test, filter])
                .env("PROPTEST_CASES", o.cases.to_string()))?;
        }
    }
    if o.cargo_fuzz {
        cargo_fuzz(ctx, o)?;
    }
    Ok(())
}

/// How cargo-fuzz gets its nightly features.
enum Toolchain {
    /// `cargo +nightly fuzz`.
    Nightly,
    /// `RUSTC_BOOTSTRAP=1 cargo fuzz` on the stable compiler, without a sanitizer.
    Bootstrap,
}

impl Toolchain {
    fn cargo_fuzz(&self, ctx: &Ctx, nice: bool) -> Command {
        let mut c = if nice {
            let mut c = ctx.cmd("nice");
            c.args(["-n", "10", "cargo"]);
            c
        } else {
            ctx.cmd("cargo")
        };
        // `cargo xtask` runs under a rustup toolchain of its own: let `+nightly` (or
        // the default) decide instead.
        c.env_remove("RUSTUP_TOOLCHAIN").env_remove("CARGO");
        match self {
            Toolchain::Nightly => {
                c.args(["+nightly", "fuzz"]);
            }
            Toolchain::Bootstrap => {
                c.arg("fuzz").env("RUSTC_BOOTSTRAP", "1");
            }
        }
        c
    }

    /// Build/run flags: optimised, debug assertions (overflow checks) on.
    fn flags(&self) -> &'static [&'static str] {
        match self {
            Toolchain::Nightly => &["-O", "--debug-assertions"],
            Toolchain::Bootstrap => &["-O", "--debug-assertions", "--sanitizer", "none"],
        }
    }
}

fn cargo_fuzz(ctx: &Ctx, o: &Options) -> Result {
    util::heading("cargo-fuzz: toolchain and tool");
    if ctx.first_line("cargo", &["fuzz", "--version"]).is_none() {
        println!("cargo-fuzz is missing: installing it from crates.io");
        run(ctx.cmd("cargo").env_remove("RUSTUP_TOOLCHAIN").args([
            "install",
            "cargo-fuzz",
            "--locked",
        ]))?;
    }
    let nice = ctx.which("nice").is_some();
    let has_nightly = ctx
        .first_line("rustup", &["run", "nightly", "rustc", "--version"])
        .is_some();
    let mut candidates = Vec::new();
    if has_nightly {
        candidates.push(Toolchain::Nightly);
    }
    candidates.push(Toolchain::Bootstrap);
    let mut chosen = None;
    for t in candidates {
        let mut build = t.cargo_fuzz(ctx, nice);
        build.arg("build").args(t.flags());
        if run(&mut build).is_ok() {
            chosen = Some(t);
            break;
        }
    }
    let toolchain = chosen.ok_or(
        "cargo-fuzz needs a nightly compiler and none worked: install one with \
         `rustup toolchain install nightly` (the stable one refused RUSTC_BOOTSTRAP=1 too)",
    )?;

    let logs = ctx.root.join("target").join("fuzz-logs");
    fs::create_dir_all(&logs).map_err(|e| format!("cannot create {}: {e}", logs.display()))?;
    let mut table = String::new();
    for target in &o.targets {
        let corpus = ctx.root.join("fuzz").join("corpus").join(target);
        fs::create_dir_all(&corpus)
            .map_err(|e| format!("cannot create {}: {e}", corpus.display()))?;
        let seeds = ctx.root.join("fuzz").join("seeds").join(target);
        let dict = ctx
            .root
            .join("fuzz")
            .join("dict")
            .join(format!("{target}.dict"));
        let log_path = logs.join(format!("{target}.log"));
        let log = fs::File::create(&log_path)
            .map_err(|e| format!("cannot create {}: {e}", log_path.display()))?;
        let mut cmd = toolchain.cargo_fuzz(ctx, nice);
        cmd.arg("run")
            .args(toolchain.flags())
            .arg(target)
            .arg(&corpus);
        if seeds.is_dir() {
            cmd.arg(&seeds);
        }
        cmd.arg("--")
            .arg(format!("-max_total_time={}", o.minutes * 60))
            .arg("-max_len=4096")
            .arg("-print_final_stats=1");
        if dict.is_file() {
            cmd.arg(format!("-dict={}", dict.display()));
        }
        util::heading(&format!(
            "cargo-fuzz {target}: {} min (log: {})",
            o.minutes,
            log_path.display()
        ));
        println!("{}", util::paint("1", &format!("$ {}", util::show(&cmd))));
        let started = Instant::now();
        let err = log
            .try_clone()
            .map_err(|e| format!("cannot write {}: {e}", log_path.display()))?;
        let status = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::from(log))
            .stderr(Stdio::from(err))
            .status()
            .map_err(|e| format!("could not start cargo fuzz: {e}"))?;
        let took = started.elapsed().as_secs();
        let text = fs::read_to_string(&log_path).unwrap_or_default();
        let execs = stat(&text, "stat::number_of_executed_units:").unwrap_or(0);
        let (files, bytes) = corpus_size(&corpus);
        let _ = writeln!(
            table,
            "  {target:<10} {:>6} s {execs:>12} {:>10} {files:>8} {:>9.1} KB",
            took,
            execs / took.max(1),
            bytes as f64 / 1000.0
        );
        if !status.success() {
            let tail: Vec<&str> = text.lines().rev().take(40).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            println!("{}", tail.join("\n"));
            return Err(format!(
                "cargo-fuzz {target} found a failing input ({status}): see {} and fuzz/artifacts/{target}/",
                log_path.display()
            ));
        }
    }
    util::heading("cargo-fuzz summary: no findings");
    println!(
        "  {:<10} {:>8} {:>12} {:>10} {:>8} {:>12}",
        "target", "time", "execs", "execs/s", "corpus", "corpus size"
    );
    print!("{table}");
    Ok(())
}

/// The number after `key` in libFuzzer's final stats.
fn stat(text: &str, key: &str) -> Option<u64> {
    text.lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix(key))
        .and_then(|v| v.trim().parse().ok())
}

/// Files and bytes in a corpus directory.
fn corpus_size(dir: &Path) -> (u64, u64) {
    fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.metadata().ok())
                .filter(|m| m.is_file())
                .fold((0, 0), |(n, b), m| (n + 1, b + m.len()))
        })
        .unwrap_or((0, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_and_stats() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let o = parse_options(&args("--minutes 2 --target json")).unwrap();
        assert_eq!(
            (o.minutes, o.targets.clone()),
            (2, vec!["json".to_string()])
        );
        assert!(parse_options(&args("--target nope")).is_err());
        assert!(parse_options(&args("--proptest-only --cargo-fuzz-only")).is_err());
        assert_eq!(parse_options(&args("")).unwrap().targets.len(), 3);
        let log = "#1 INITED\nstat::number_of_executed_units: 123456\nstat::peak_rss_mb: 40\n";
        assert_eq!(stat(log, "stat::number_of_executed_units:"), Some(123_456));
    }

    #[test]
    fn the_targets_are_the_fuzz_crates() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let manifest = util::read(&root.join("fuzz/Cargo.toml")).unwrap();
        for t in TARGETS {
            assert!(manifest.contains(&format!("name = \"{t}\"")), "{t}");
            assert!(root.join(format!("fuzz/fuzz_targets/{t}.rs")).is_file());
        }
    }
}

//! `cargo xtask bench`: every benchmark in one run, written up as one Markdown table.
//!
//! Parts, in order (each can be skipped, none asserts a time):
//! - **native**: `cargo bench -p ratelab-bench --bench check` (criterion): `check`
//!   per limiter on 300 clients × 10 min of seeded Poisson traffic, and governor's
//!   GCRA on the same stream in the same run; ns per decision from criterion's
//!   median estimate, ratio to governor.
//! - **browser**: crates/bench compiled to wasm exactly as Trunk ships the
//!   playground (`--release`, wasm-bindgen, `wasm-opt -Oz`), and the plain
//!   JavaScript limiters of `crates/bench/browser/reference.mjs`, timed side by
//!   side in one headless Chromium page; then lab D's sweep.
//! - **size**: `trunk build --release` into a private dist, sized by the same code
//!   as `cargo xtask test`'s budget step.
//! - **load**: navigation → first lane drawn of that build, in a fresh browser
//!   context per round, at normal speed and with the CPU throttled 4× (CDP
//!   `Emulation.setCPUThrottlingRate`), with when the wasm's download started and
//!   ended.
//! - **frames**: time per animation frame of that build while it plays: six lanes
//!   of the 2x-rate scenario at 16x, the same with the CPU throttled 4×, labs E
//!   and B at 16x (each view reported as pending when the UI cannot do it).
//! - **switch**: the longest main-thread task of that build when the scenario
//!   picker is set to lab B and to lab E, as a person does (a Chromium trace per
//!   round).
//! - **redis**: decisions per second through each limiter's Lua script on a local
//!   redis-server of its own, pipelined from Rust, next to plain `INCR` (and two
//!   script floors) in the same rounds; the ratio to INCR per script.
//! - **tower**: requests per second through an axum handler with ratelab-tower in
//!   memory and on Redis, and with tower-governor, against the bare handler
//!   (`crates/tower/examples/throughput.rs`).
//!
//! The table goes to `bench-results/latest.md` (and the browser's raw samples to
//! `bench-results/browser.json`); `--docs` also replaces the block between the
//! `<!-- bench:begin -->` and `<!-- bench:end -->` markers in docs/benchmarks.md.
//!
//! One module per part, each running its part and parsing what it printed into a
//! plain struct: [`machine`] (what the numbers were measured on), [`native`],
//! [`browser`], [`size`], [`load`], [`frames`], [`switch`], [`redis`], [`tower`]; [`report`] turns those structs into
//! the table.
//! A new part is a module with a `run` function and a struct, a field in
//! [`Results`], an arm in [`bench`] and a section in [`report`].

mod browser;
mod frames;
mod import;
mod load;
mod machine;
mod native;
mod redis;
mod report;
mod rounds;
mod size;
mod switch;
mod tower;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::setup::{self, Browsers};
use crate::test::BundleFile;
use crate::util::{self, Ctx, Result};

/// The parts of a run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Part {
    Native,
    Browser,
    Size,
    Load,
    Frames,
    Switch,
    Import,
    Redis,
    Tower,
}

impl Part {
    pub const ALL: [Part; 9] = [
        Part::Native,
        Part::Browser,
        Part::Size,
        Part::Load,
        Part::Frames,
        Part::Switch,
        Part::Import,
        Part::Redis,
        Part::Tower,
    ];

    fn name(self) -> &'static str {
        match self {
            Part::Native => "native",
            Part::Browser => "browser",
            Part::Size => "size",
            Part::Load => "load",
            Part::Frames => "frames",
            Part::Switch => "switch",
            Part::Import => "import",
            Part::Redis => "redis",
            Part::Tower => "tower",
        }
    }

    pub fn parse(s: &str) -> Result<Part> {
        Part::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown part `{s}`; parts are: {}",
                    Part::ALL.map(Part::name).join(", ")
                )
            })
    }
}

pub struct Options {
    pub parts: Vec<Part>,
    /// Shorter criterion runs and fewer browser rounds, for trying the pipeline.
    pub quick: bool,
    /// Replace the generated block of docs/benchmarks.md with the table.
    pub docs: bool,
    /// One query string for the frame-cost part instead of its views (frames.mjs).
    pub frame_query: Option<String>,
}

pub const USAGE: &str = "\
bench options:
  --only PART[,PART]    run only these parts: native, browser, size, load,
                        frames, switch, import, redis, tower
  --skip PART[,PART]    run all parts but these
  --quick               shorter runs (to try the pipeline; numbers are noisier)
  --docs                also paste the table into docs/benchmarks.md (between
                        its bench markers; --readme is the old name)
  --frame-query QUERY   one view for the frame-cost part instead of its four
                        (six lanes at 16x, also 4x throttled; labs E and B)
";

pub fn parse_options(rest: &[String]) -> Result<Options> {
    let mut opts = Options {
        parts: Part::ALL.to_vec(),
        quick: false,
        docs: false,
        frame_query: None,
    };
    let list = |v: Option<&String>, flag: &str| -> Result<Vec<Part>> {
        let v = v.ok_or_else(|| format!("{flag} needs a list of parts"))?;
        v.split(',').map(|s| Part::parse(s.trim())).collect()
    };
    let mut it = rest.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--only" => {
                let only = list(it.next(), "--only")?;
                opts.parts.retain(|p| only.contains(p));
            }
            "--skip" => {
                let skip = list(it.next(), "--skip")?;
                opts.parts.retain(|p| !skip.contains(p));
            }
            "--quick" => opts.quick = true,
            "--docs" | "--readme" => opts.docs = true,
            "--frame-query" => {
                let q = it.next().ok_or("--frame-query needs a query string")?;
                opts.frame_query = Some(q.clone());
            }
            a => return Err(format!("unexpected argument `{a}`\n\n{USAGE}")),
        }
    }
    if opts.parts.is_empty() {
        return Err("no parts left to run".into());
    }
    Ok(opts)
}

/// Everything one run measured; `None` where a part was skipped.
#[derive(Default)]
struct Results {
    machine: machine::Machine,
    native: Option<native::Native>,
    browser: Option<browser::Browser>,
    size: Option<std::result::Result<Vec<BundleFile>, String>>,
    load: Option<load::Load>,
    frames: Option<frames::Frames>,
    switch: Option<switch::Switch>,
    import: Option<import::Import>,
    redis: Option<redis::RedisBench>,
    tower: Option<tower::TowerBench>,
    load_before: String,
    load_after: String,
    quick: bool,
}

pub fn bench(ctx: &Ctx, opts: &Options) -> Result {
    let needs_browser = opts.parts.iter().any(|p| {
        matches!(
            p,
            Part::Browser | Part::Load | Part::Frames | Part::Switch | Part::Import
        )
    });
    let tools = setup::setup(
        ctx,
        if needs_browser {
            Browsers::Required
        } else {
            Browsers::Optional
        },
    )?;
    let chromium = tools.chromium.clone();
    let target = target_dir(ctx);
    let work = target.join("ratelab-bench");
    std::fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let out_dir = ctx.root.join("bench-results");
    std::fs::create_dir_all(&out_dir)
        .map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;

    let started = Instant::now();
    let mut r = Results {
        machine: machine::Machine::detect(ctx, chromium.as_deref()),
        load_before: machine::load_average(),
        quick: opts.quick,
        ..Results::default()
    };
    for &part in &opts.parts {
        util::heading(&format!("bench: {}", part.name()));
        match part {
            Part::Native => r.native = Some(native::run(ctx, &work, opts.quick)?),
            Part::Browser => {
                let chromium = chromium
                    .as_deref()
                    .ok_or("no chromium (cargo xtask setup)")?;
                r.browser = Some(browser::run(
                    ctx, &target, &work, &out_dir, chromium, opts.quick,
                )?);
            }
            Part::Size => r.size = Some(size::run(ctx, &work)),
            Part::Load => {
                let chromium = chromium
                    .as_deref()
                    .ok_or("no chromium (cargo xtask setup)")?;
                r.load = Some(load::run(ctx, &work, chromium, opts.quick)?);
            }
            Part::Frames => {
                let chromium = chromium
                    .as_deref()
                    .ok_or("no chromium (cargo xtask setup)")?;
                r.frames = Some(frames::run(
                    ctx,
                    &work,
                    chromium,
                    opts.frame_query.as_deref(),
                )?);
            }
            Part::Switch => {
                let chromium = chromium
                    .as_deref()
                    .ok_or("no chromium (cargo xtask setup)")?;
                r.switch = Some(switch::run(ctx, &work, chromium, opts.quick)?);
            }
            Part::Import => {
                let chromium = chromium
                    .as_deref()
                    .ok_or("no chromium (cargo xtask setup)")?;
                r.import = Some(import::run(ctx, &work, chromium, opts.quick)?);
            }
            Part::Redis => r.redis = Some(redis::run(ctx, opts.quick)?),
            Part::Tower => r.tower = Some(tower::run(ctx, opts.quick)?),
        }
    }
    r.load_after = machine::load_average();

    let table = report::markdown(&r);
    let latest = out_dir.join("latest.md");
    std::fs::write(&latest, &table)
        .map_err(|e| format!("cannot write {}: {e}", latest.display()))?;
    util::heading(&format!(
        "bench: done in {:.0} s, written to {}",
        started.elapsed().as_secs_f64(),
        latest.display()
    ));
    println!("{table}");
    if opts.docs {
        let doc = ctx.root.join(report::BENCH_DOC);
        report::paste_between_markers(&doc, &table)?;
        println!("{}: the generated block is updated", report::BENCH_DOC);
    }
    Ok(())
}

/// Where cargo puts its output: `$CARGO_TARGET_DIR`, else `target/`.
fn target_dir(ctx: &Ctx) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) if Path::new(&d).is_absolute() => PathBuf::from(d),
        Some(d) => ctx.root.join(d),
        None => ctx.root.join("target"),
    }
}

/// Why a page part did not run: the size part left no release build to measure.
const NO_BUILD: &str = "no release build of the page (run the size part first)";

/// `node crates/bench/browser/<script>` on the size part's release build, with
/// Chromium's path and flags in the environment the harnesses read; `None` when
/// there is no build ([`NO_BUILD`]).
fn page_harness(ctx: &Ctx, work: &Path, chromium: &Path, script: &str) -> Option<Command> {
    let dist = work.join("dist");
    if !dist.join("index.html").exists() {
        return None;
    }
    let mut cmd = ctx.cmd("node");
    cmd.arg(ctx.root.join("crates/bench/browser").join(script))
        .env("RATELAB_DIST", &dist)
        .env("RATELAB_CHROMIUM", chromium)
        .env(
            "RATELAB_CHROMIUM_FLAGS",
            crate::test::CHROMIUM_FLAGS.join(" "),
        );
    Some(cmd)
}

/// Runs `cmd`, echoing its standard output as it comes, and returns that output.
fn run_tee(cmd: &mut Command) -> Result<String> {
    let shown = util::show(cmd);
    println!("{}", util::paint("1", &format!("$ {shown}")));
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("could not start `{shown}`: {e}"))?;
    let mut captured = String::new();
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines() {
            let line = line.map_err(|e| format!("reading from `{shown}`: {e}"))?;
            println!("{line}");
            captured.push_str(&line);
            captured.push('\n');
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("waiting for `{shown}`: {e}"))?;
    if status.success() {
        Ok(captured)
    } else {
        Err(format!("`{shown}` failed ({status})"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        let o = parse_options(&["--only".into(), "native,size".into(), "--quick".into()]).unwrap();
        assert_eq!(o.parts, vec![Part::Native, Part::Size]);
        assert!(o.quick && !o.docs);
        assert!(parse_options(&["--docs".into()]).unwrap().docs);
        assert!(parse_options(&["--readme".into()]).unwrap().docs);
        assert!(parse_options(&["--only".into(), "gpu".into()]).is_err());
        assert!(parse_options(&[
            "--skip".into(),
            "native,browser,size,load,frames,switch,import,redis,tower".into()
        ])
        .is_err());
    }
}

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
//! - **frames**: time per animation frame of that build with six lanes playing the
//!   2x-rate scenario at 16x (reported as pending when the UI cannot do that yet).
//!
//! The table goes to `bench-results/latest.md` (and the browser's raw samples to
//! `bench-results/browser.json`); `--readme` also replaces the block between the
//! `<!-- bench:begin -->` and `<!-- bench:end -->` markers in README.md.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::setup::{self, Browsers};
use crate::test::{self, BundleFile, CHROMIUM_FLAGS};
use crate::util::{self, run, Ctx, Result};

/// Each limiter's check must cost at most this fraction of governor's.
const NATIVE_TARGET_RATIO: f64 = 0.25;
/// wasm must be at least this many times faster than the JavaScript closures.
const BROWSER_TARGET_SPEEDUP: f64 = 3.0;
/// Lab D's sweep must finish within this, in ms.
const SWEEP_TARGET_MS: f64 = 1000.0;
/// The 95th percentile frame must fit in this, in ms.
const FRAME_TARGET_P95_MS: f64 = 16.0;

const README_BEGIN: &str = "<!-- bench:begin -->";
const README_END: &str = "<!-- bench:end -->";

/// The parts of a run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Part {
    Native,
    Browser,
    Size,
    Frames,
}

impl Part {
    pub const ALL: [Part; 4] = [Part::Native, Part::Browser, Part::Size, Part::Frames];

    fn name(self) -> &'static str {
        match self {
            Part::Native => "native",
            Part::Browser => "browser",
            Part::Size => "size",
            Part::Frames => "frames",
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
    /// Replace the Benchmarks block of README.md with the table.
    pub readme: bool,
    /// The query string that sets up the frame-cost view (default in frames.mjs).
    pub frame_query: Option<String>,
}

pub const USAGE: &str = "\
bench options:
  --only PART[,PART]    run only these parts: native, browser, size, frames
  --skip PART[,PART]    run all parts but these
  --quick               shorter runs (to try the pipeline; numbers are noisier)
  --readme              also paste the table into README.md's Benchmarks section
  --frame-query QUERY   the playground query for the frame-cost part
                        (default ?scenario=2x-rate&limiters=<six>&speed=16)
";

pub fn parse_options(rest: &[String]) -> Result<Options> {
    let mut opts = Options {
        parts: Part::ALL.to_vec(),
        quick: false,
        readme: false,
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
            "--readme" => opts.readme = true,
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
    machine: Machine,
    native: Option<Native>,
    browser: Option<Browser>,
    size: Option<std::result::Result<Vec<BundleFile>, String>>,
    frames: Option<Frames>,
    load_before: String,
    load_after: String,
    quick: bool,
}

pub fn bench(ctx: &Ctx, opts: &Options) -> Result {
    let needs_browser = opts
        .parts
        .iter()
        .any(|p| matches!(p, Part::Browser | Part::Frames));
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
        machine: Machine::detect(ctx, chromium.as_deref()),
        load_before: load_average(),
        quick: opts.quick,
        ..Results::default()
    };
    for &part in &opts.parts {
        util::heading(&format!("bench: {}", part.name()));
        match part {
            Part::Native => r.native = Some(native(ctx, &work, opts.quick)?),
            Part::Browser => {
                let chromium = chromium
                    .as_deref()
                    .ok_or("no chromium (cargo xtask setup)")?;
                r.browser = Some(browser(
                    ctx, &target, &work, &out_dir, chromium, opts.quick,
                )?);
            }
            Part::Size => r.size = Some(size(ctx, &work)),
            Part::Frames => {
                let chromium = chromium
                    .as_deref()
                    .ok_or("no chromium (cargo xtask setup)")?;
                r.frames = Some(frames(ctx, &work, chromium, opts.frame_query.as_deref())?);
            }
        }
    }
    r.load_after = load_average();

    let table = markdown(&r);
    let latest = out_dir.join("latest.md");
    std::fs::write(&latest, &table)
        .map_err(|e| format!("cannot write {}: {e}", latest.display()))?;
    util::heading(&format!(
        "bench: done in {:.0} s, written to {}",
        started.elapsed().as_secs_f64(),
        latest.display()
    ));
    println!("{table}");
    if opts.readme {
        paste_into_readme(&ctx.root.join("README.md"), &table)?;
        println!("README.md: the Benchmarks block is updated");
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

// ---------------------------------------------------------------------------------
// The machine

#[derive(Default)]
struct Machine {
    /// The commit measured, and whether the work tree had changes on top.
    commit: String,
    cpu: String,
    cores: String,
    rustc: String,
    chromium: String,
    node: String,
}

impl Machine {
    fn detect(ctx: &Ctx, chromium: Option<&Path>) -> Machine {
        let lscpu = Command::new("lscpu")
            .env("LC_ALL", "C")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        let field = |name: &str| {
            lscpu
                .lines()
                .find_map(|l| l.strip_prefix(name)?.strip_prefix(':').map(str::trim))
                .unwrap_or("?")
                .to_owned()
        };
        let hypervisor = field("Hypervisor vendor");
        let mut cpu = field("Model name");
        if hypervisor != "?" {
            cpu.push_str(&format!(" ({hypervisor} guest)"));
        }
        let unknown = || "?".to_owned();
        let dirty = ctx
            .cmd("git")
            .args(["status", "--porcelain", "--untracked-files=no"])
            .output()
            .map(|o| !o.stdout.is_empty())
            .unwrap_or(false);
        let commit = ctx
            .first_line("git", &["rev-parse", "--short", "HEAD"])
            .unwrap_or_else(unknown);
        Machine {
            commit: if dirty {
                format!("{commit} with uncommitted changes")
            } else {
                commit
            },
            cpu,
            cores: field("CPU(s)"),
            rustc: ctx
                .first_line("rustc", &["--version"])
                .unwrap_or_else(unknown),
            chromium: chromium
                .and_then(|c| ctx.first_line(&c.to_string_lossy(), &["--version"]))
                .unwrap_or_else(unknown),
            node: ctx
                .first_line("node", &["--version"])
                .unwrap_or_else(unknown),
        }
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}

// ---------------------------------------------------------------------------------
// Native: criterion

struct NativeRow {
    id: String,
    /// ratelab's check, ns per decision.
    ns: f64,
    /// governor's check measured just before it, ns per decision.
    governor_ns: f64,
    allowed: Option<u64>,
}

struct Native {
    decisions: u64,
    rows: Vec<NativeRow>,
    /// The median of governor's measurements.
    governor_ns: f64,
    governor_allowed: Option<u64>,
}

const GOVERNOR_ID: &str = "governor_gcra";

fn native(ctx: &Ctx, work: &Path, quick: bool) -> Result<Native> {
    let home = work.join("criterion");
    // Stale estimates must never be read as this run's.
    for group in ["check", "governor"] {
        let dir = home.join(group);
        if dir.exists() {
            std::fs::remove_dir_all(&dir)
                .map_err(|e| format!("cannot clear {}: {e}", dir.display()))?;
        }
    }
    let mut cmd = ctx.cargo();
    cmd.args(["bench", "-p", "ratelab-bench", "--bench", "check", "--"])
        .arg("--noplot")
        .env("CRITERION_HOME", &home);
    if quick {
        cmd.args(["--warm-up-time", "0.5", "--measurement-time", "1"]);
    } else {
        cmd.args(["--warm-up-time", "1", "--measurement-time", "4"]);
    }
    let out = run_tee(&mut cmd)?;
    let allowed = parse_allowed(&out);
    let mut decisions = 0;
    let mut rows = Vec::new();
    // The engine's order (the eight exact limiters, then the teaching variants), as
    // the bench printed them.
    for (id, count) in allowed.iter().filter(|(id, _)| id != GOVERNOR_ID) {
        let (elements, ns) = criterion_ns(&home.join("check").join(id))?;
        let (_, governor_ns) = criterion_ns(&home.join("governor").join(id))?;
        decisions = elements;
        rows.push(NativeRow {
            id: id.clone(),
            ns,
            governor_ns,
            allowed: Some(*count),
        });
    }
    if rows.is_empty() {
        return Err("the benchmark printed no `ratelab-bench:` lines".into());
    }
    let mut governors: Vec<f64> = rows.iter().map(|r| r.governor_ns).collect();
    governors.sort_by(f64::total_cmp);
    let governor_ns = match governors.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => governors[n / 2],
        n => (governors[n / 2 - 1] + governors[n / 2]) / 2.0,
    };
    Ok(Native {
        decisions,
        rows,
        governor_ns,
        governor_allowed: allowed
            .iter()
            .find(|(id, _)| id == GOVERNOR_ID)
            .map(|(_, a)| *a),
    })
}

/// (elements per iteration, ns per element) from one criterion benchmark directory:
/// the median estimate divided by the throughput.
fn criterion_ns(dir: &Path) -> Result<(u64, f64)> {
    let meta = util::read(&dir.join("new/benchmark.json"))?;
    let elements = json_number(&meta, "\"Elements\"")
        .ok_or_else(|| format!("no throughput in {}", dir.display()))?;
    let estimates = util::read(&dir.join("new/estimates.json"))?;
    let median =
        median_estimate(&estimates).ok_or_else(|| format!("no median in {}", dir.display()))?;
    Ok((elements as u64, median / elements))
}

/// `ratelab-bench: <id> decisions=<n> allowed=<n> errors=<n>` lines of the bench.
fn parse_allowed(out: &str) -> Vec<(String, u64)> {
    out.lines()
        .filter_map(|l| {
            let mut words = l.strip_prefix("ratelab-bench: ")?.split_whitespace();
            let id = words.next()?.to_owned();
            let allowed = words
                .find_map(|w| w.strip_prefix("allowed="))?
                .parse()
                .ok()?;
            Some((id, allowed))
        })
        .collect()
}

/// The median's point estimate (ns per iteration) in criterion's estimates.json.
fn median_estimate(json: &str) -> Option<f64> {
    let at = json.find("\"median\":")?;
    json_number(&json[at..], "\"point_estimate\"")
}

/// The number after the first `key:` in a flat JSON text.
fn json_number(json: &str, key: &str) -> Option<f64> {
    let at = json.find(key)? + key.len();
    let rest = json[at..].trim_start().strip_prefix(':')?.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E')))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

// ---------------------------------------------------------------------------------
// Browser: wasm against JavaScript

struct BrowserRow {
    id: String,
    wasm_ms: f64,
    js_ms: f64,
    wasm_allowed: String,
    js_allowed: String,
}

struct Browser {
    version: String,
    isolated: bool,
    decisions: u64,
    rounds: u64,
    rows: Vec<BrowserRow>,
    sweep: Option<Sweep>,
}

struct Sweep {
    median_ms: f64,
    first_ms: f64,
    runs: u64,
    requests: u64,
}

fn browser(
    ctx: &Ctx,
    target: &Path,
    work: &Path,
    out_dir: &Path,
    chromium: &Path,
    quick: bool,
) -> Result<Browser> {
    let dir = ctx.root.join("crates/bench/browser");
    // The yardstick is only worth timing if it implements the same algorithms.
    run(ctx
        .cmd("node")
        .arg("--test")
        .arg(dir.join("reference.test.mjs")))?;
    // Built as the playground ships: the release profile, wasm-bindgen, wasm-opt -Oz
    // (index.html's data-wasm-opt="z").
    run(ctx.cargo().args([
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
    run(ctx
        .cmd("wasm-bindgen")
        .args(["--target", "web", "--out-dir"])
        .arg(&pkg)
        .arg(&wasm))?;
    let bg = pkg.join("ratelab_bench_bg.wasm");
    run(ctx.cmd("wasm-opt").arg("-Oz").arg(&bg).arg("-o").arg(&bg))?;
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

// ---------------------------------------------------------------------------------
// Bundle size and frames: the playground as Trunk builds it

/// `trunk build --release` into a dist of our own, so that a `trunk serve` running
/// in the repository is not disturbed; then the sizes `cargo xtask test` checks.
fn size(ctx: &Ctx, work: &Path) -> std::result::Result<Vec<BundleFile>, String> {
    let dist = work.join("dist");
    run(ctx
        .cmd("trunk")
        .args(["build", "--release", "--dist"])
        .arg(&dist))
    .map_err(|e| format!("the release build failed: {e}"))?;
    test::bundle_files(&dist)
}

enum Frames {
    Measured {
        /// Main-thread work per frame (scripts, style, layout, paint), ms.
        work_median_ms: f64,
        work_p95_ms: f64,
        frames: u64,
        long_tasks: u64,
        longest_ms: f64,
        /// requestAnimationFrame deltas, ms (quantised to the display's refresh).
        delta_median_ms: f64,
        delta_p95_ms: f64,
        dropped: u64,
        clock: String,
        url: String,
    },
    Pending(String),
}

fn frames(ctx: &Ctx, work: &Path, chromium: &Path, query: Option<&str>) -> Result<Frames> {
    let dist = work.join("dist");
    if !dist.join("index.html").exists() {
        return Ok(Frames::Pending(
            "no release build of the page (run the size part first)".into(),
        ));
    }
    let mut cmd = ctx.cmd("node");
    cmd.arg(ctx.root.join("crates/bench/browser/frames.mjs"))
        .env("RATELAB_DIST", &dist)
        .env("RATELAB_CHROMIUM", chromium)
        .env("RATELAB_CHROMIUM_FLAGS", CHROMIUM_FLAGS.join(" "))
        .env("RATELAB_FRAME_SHOT", work.join("frames.png"));
    if let Some(q) = query {
        cmd.env("RATELAB_FRAME_QUERY", q);
    }
    Ok(parse_frames(&run_tee(&mut cmd)?))
}

fn parse_frames(out: &str) -> Frames {
    for line in out.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["bench", "frames", "pending", why] => return Frames::Pending(why.to_string()),
            ["bench", "frames", numbers @ .., clock, url] if numbers.len() == 8 => {
                let n: Vec<f64> = numbers.iter().filter_map(|s| s.parse().ok()).collect();
                if let [work_median_ms, work_p95_ms, frames, long, longest_ms, delta_median_ms, delta_p95_ms, dropped] =
                    n[..]
                {
                    return Frames::Measured {
                        work_median_ms,
                        work_p95_ms,
                        frames: frames as u64,
                        long_tasks: long as u64,
                        longest_ms,
                        delta_median_ms,
                        delta_p95_ms,
                        dropped: dropped as u64,
                        clock: clock.to_string(),
                        url: url.to_string(),
                    };
                }
            }
            _ => {}
        }
    }
    Frames::Pending("the frame harness printed no result".into())
}

// ---------------------------------------------------------------------------------
// The table

fn mark(ok: bool) -> &'static str {
    if ok {
        "✅ met"
    } else {
        "❌ missed"
    }
}

/// `1234567` → `1 234 567` (the README's style).
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

fn count(s: &str) -> String {
    s.parse::<u64>()
        .map(thousands)
        .unwrap_or_else(|_| s.to_owned())
}

fn markdown(r: &Results) -> String {
    let m = &r.machine;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "Measured by `cargo xtask bench`{} at commit {} on {}, {} cores; {}; Chromium {}; Node.js {}.",
        if r.quick {
            " --quick (short runs: rough numbers)"
        } else {
            ""
        },
        m.commit,
        m.cpu,
        m.cores,
        m.rustc,
        m.chromium
            .trim_start_matches("Chromium ")
            .split(' ')
            .next()
            .unwrap_or("?"),
        m.node
    );
    let _ = writeln!(
        t,
        "The machine is shared: other engineers compile on the same 2 cores (load average \
         {} at the start, {} at the end), so absolute times move between runs by 10–30 %; \
         every number is a median, and each ratio compares two medians from the same run.",
        r.load_before, r.load_after
    );
    if let Some(n) = &r.native {
        let _ = writeln!(
            t,
            "\n**`check` per limiter, native** (criterion, `--profile bench`: opt-level 3, LTO). \
            One pass = {} requests: 300 clients × 10 min of seeded Poisson traffic at 100/min, \
            one fresh limiter per client, the whole `Decision` kept. Yardstick: governor 0.10's \
            GCRA, 100/min burst 100, one limiter per client on a fake clock advanced to each \
            request (same decisions as ours, tested), measured again just before each limiter; \
            the ratio is to that neighbour. Target: ≤ ¼ of governor's time per check.\n",
            thousands(n.decisions)
        );
        let _ = writeln!(t, "| limiter | ns / check | governor ns / check (neighbour) | × governor | target ≤ 0.25× | allowed |");
        let _ = writeln!(t, "|---|---:|---:|---:|---|---:|");
        for row in &n.rows {
            let ratio = row.ns / row.governor_ns;
            let _ = writeln!(
                t,
                "| {} | {:.1} | {:.1} | {:.2}× | {} | {} |",
                row.id,
                row.ns,
                row.governor_ns,
                ratio,
                mark(ratio <= NATIVE_TARGET_RATIO),
                row.allowed.map_or("?".into(), thousands)
            );
        }
        let _ = writeln!(
            t,
            "| *governor GCRA* (median of its {} runs) | | {:.1} | 1× | | {} |",
            n.rows.len(),
            n.governor_ns,
            n.governor_allowed.map_or("?".into(), thousands)
        );
    }
    if let Some(b) = &r.browser {
        let per = |ms: f64| ms * 1e6 / b.decisions.max(1) as f64;
        let _ = writeln!(
            t,
            "\n**wasm against plain JavaScript, headless Chromium {}** (one page; \
            the same {} requests through the engine compiled as the playground ships it \
            — release profile, opt-level \"z\", `wasm-opt -Oz` — and through the JavaScript \
            closures of `crates/bench/browser/reference.mjs`; median of {} alternating rounds \
            after a warm-up round; `performance.now()`{}). Target: wasm ≥ 3× faster.\n",
            b.version,
            thousands(b.decisions),
            b.rounds,
            if b.isolated {
                " at 5 µs resolution (cross-origin isolated)"
            } else {
                " at 100 µs resolution"
            }
        );
        let _ = writeln!(t, "| limiter | wasm ms | JS ms | wasm ns / check | JS ns / check | JS ÷ wasm | target ≥ 3× | allowed wasm / JS |");
        let _ = writeln!(t, "|---|---:|---:|---:|---:|---:|---|---|");
        for row in &b.rows {
            let speedup = row.js_ms / row.wasm_ms;
            let _ = writeln!(
                t,
                "| {} | {:.2} | {:.2} | {:.1} | {:.1} | {:.2}× | {} | {} / {} |",
                row.id,
                row.wasm_ms,
                row.js_ms,
                per(row.wasm_ms),
                per(row.js_ms),
                speedup,
                mark(speedup >= BROWSER_TARGET_SPEEDUP),
                count(&row.wasm_allowed),
                count(&row.js_allowed)
            );
        }
        if let Some(s) = &b.sweep {
            let _ = writeln!(t, "\n**Lab D's sweep in the browser** (six load levels, 300 clients × 10 min each, \
                traffic generated in wasm, sliding log and sliding window counter per client; same wasm build).\n");
            let _ = writeln!(
                t,
                "| requests | median of {} | first run | target < 1 s |",
                s.runs
            );
            let _ = writeln!(t, "|---:|---:|---:|---|");
            let _ = writeln!(
                t,
                "| {} | {:.0} ms | {:.0} ms | {} |",
                thousands(s.requests),
                s.median_ms,
                s.first_ms,
                mark(s.median_ms < SWEEP_TARGET_MS && s.first_ms < SWEEP_TARGET_MS)
            );
        }
    }
    if let Some(size) = &r.size {
        let _ = writeln!(t, "\n**Bundle** (`trunk build --release`, wasm + JS + CSS, `gzip -9`; the budget `cargo xtask test` enforces).\n");
        match size {
            Ok(files) => {
                let _ = writeln!(t, "| file | raw | gzip |");
                let _ = writeln!(t, "|---|---:|---:|");
                let (mut raw, mut gz) = (0, 0);
                for f in files {
                    raw += f.raw;
                    gz += f.gzip;
                    let _ = writeln!(
                        t,
                        "| {} | {} | {} |",
                        f.name,
                        test::kb(f.raw),
                        test::kb(f.gzip)
                    );
                }
                let _ = writeln!(
                    t,
                    "| **total** (target {} gzipped: {}; enforced budget {}: {}) | {} | {} |",
                    test::kb(test::BUNDLE_TARGET_GZIP),
                    mark(gz <= test::BUNDLE_TARGET_GZIP),
                    test::kb(test::BUNDLE_BUDGET_GZIP),
                    mark(gz <= test::BUNDLE_BUDGET_GZIP),
                    test::kb(raw),
                    test::kb(gz)
                );
            }
            Err(e) => {
                let _ = writeln!(t, "Not measured: {e}");
            }
        }
    }
    if let Some(f) = &r.frames {
        let _ = writeln!(t, "\n**Frame cost** (the release build above; six lanes, 2x-rate scenario, speed 16x, \
            headless Chromium without GPU; after pressing play, every frame while the virtual clock moves: \
            main-thread work per frame = from the frame's start to a message posted from \
            `requestAnimationFrame`, which runs after its scripts, style, layout and paint). \
            Target: p95 < 16 ms.\n");
        let _ = writeln!(t, "| view | work median | work p95 | target p95 < 16 ms | frames (clock) | rAF delta median / p95 | dropped | long tasks (longest) |");
        let _ = writeln!(t, "|---|---:|---:|---|---|---:|---:|---:|");
        match f {
            Frames::Measured {
                work_median_ms,
                work_p95_ms,
                frames,
                long_tasks,
                longest_ms,
                delta_median_ms,
                delta_p95_ms,
                dropped,
                clock,
                url,
            } => {
                let _ = writeln!(
                    t,
                    "| `{url}` | {work_median_ms:.1} ms | {work_p95_ms:.1} ms | {} | {frames} ({clock}) | {delta_median_ms:.1} / {delta_p95_ms:.1} ms | {dropped} | {long_tasks} ({longest_ms:.0} ms) |",
                    mark(*work_p95_ms < FRAME_TARGET_P95_MS)
                );
            }
            Frames::Pending(why) => {
                let _ = writeln!(
                    t,
                    "| six lanes, 2x-rate, 16x | – | – | ⏳ pending: {why} | – | – | – | – |"
                );
            }
        }
    }
    t
}

/// Replaces what lies between the README's bench markers with `table`.
fn paste_into_readme(readme: &Path, table: &str) -> Result {
    let text = util::read(readme)?;
    let (Some(begin), Some(end)) = (text.find(README_BEGIN), text.find(README_END)) else {
        return Err(format!(
            "README.md has no `{README_BEGIN}` … `{README_END}` block to replace"
        ));
    };
    if end < begin {
        return Err("README.md's bench markers are in the wrong order".into());
    }
    let mut out = String::with_capacity(text.len() + table.len());
    out.push_str(&text[..begin + README_BEGIN.len()]);
    out.push('\n');
    out.push_str(table.trim_end());
    out.push('\n');
    out.push_str(&text[end..]);
    std::fs::write(readme, out).map_err(|e| format!("cannot write {}: {e}", readme.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_criterion_estimates() {
        let est = r#"{"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":3.0},"point_estimate":2.5,"standard_error":0.1},"median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0},"point_estimate":1234567.5,"standard_error":0.2},"median_abs_dev":{"point_estimate":9.0}}"#;
        assert_eq!(median_estimate(est), Some(1234567.5));
        let meta = r#"{"group_id":"check","function_id":"governor_gcra","value_str":null,"throughput":{"Elements":300947},"full_id":"check/governor_gcra"}"#;
        assert_eq!(json_number(meta, "\"Elements\""), Some(300947.0));
        assert_eq!(json_number(r#"{"x": 1e-3}"#, "\"x\""), Some(0.001));
    }

    #[test]
    fn reads_what_the_scripts_print() {
        let bench = "noise\nratelab-bench: gcra decisions=10 allowed=7 errors=0\n";
        assert_eq!(parse_allowed(bench), vec![("gcra".to_owned(), 7)]);
        let out = "bench\tbrowser\t156.0\tisolated\nbench\tworkload\t300\t3\t9\n\
                   bench\tlimiter\tgcra\t1.5000\t3.0000\t7\t7\n\
                   bench\tsweep\t500.00\t600.00\t5\t2893334\t1\t2\n";
        let b = parse_browser(out).unwrap();
        assert_eq!((b.decisions, b.rounds, b.rows.len()), (300, 9, 1));
        assert!(b.isolated);
        assert_eq!(b.rows[0].js_ms / b.rows[0].wasm_ms, 2.0);
        assert_eq!(b.sweep.as_ref().map(|s| s.requests), Some(2_893_334));
        assert!(parse_browser("nothing").is_err());
        match parse_frames("bench\tframes\tpending\tno lanes\n") {
            Frames::Pending(why) => assert_eq!(why, "no lanes"),
            Frames::Measured { .. } => panic!("pending expected"),
        }
        let line = "bench\tframes\t7.5\t15.1\t145\t0\t0.0\t16.66\t16.67\t0\t0.1 s → 38.5 s\tdist/index.html?x\n";
        match parse_frames(line) {
            Frames::Measured {
                work_p95_ms,
                frames,
                clock,
                ..
            } => assert_eq!(
                (work_p95_ms, frames, clock.as_str()),
                (15.1, 145, "0.1 s → 38.5 s")
            ),
            Frames::Pending(why) => panic!("{why}"),
        }
    }

    #[test]
    fn the_table_marks_pending_steps_instead_of_inventing_numbers() {
        let r = Results {
            frames: Some(Frames::Pending("the UI has no lanes yet".into())),
            ..Results::default()
        };
        let t = markdown(&r);
        assert!(t.contains("⏳ pending: the UI has no lanes yet"), "{t}");
        assert_eq!(thousands(2_893_334), "2 893 334");
        assert_eq!(thousands(300), "300");
    }

    #[test]
    fn options() {
        let o = parse_options(&["--only".into(), "native,size".into(), "--quick".into()]).unwrap();
        assert_eq!(o.parts, vec![Part::Native, Part::Size]);
        assert!(o.quick && !o.readme);
        assert!(parse_options(&["--only".into(), "gpu".into()]).is_err());
        assert!(parse_options(&["--skip".into(), "native,browser,size,frames".into()]).is_err());
    }

    #[test]
    fn the_readme_block_is_replaced_and_nothing_else() {
        let dir = std::env::temp_dir().join(format!("xtask-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let readme = dir.join("README.md");
        std::fs::write(
            &readme,
            format!("# x\n{README_BEGIN}\nold\n{README_END}\ntail\n"),
        )
        .unwrap();
        paste_into_readme(&readme, "| new |\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(&readme).unwrap(),
            format!("# x\n{README_BEGIN}\n| new |\n{README_END}\ntail\n")
        );
        std::fs::write(&readme, "no markers").unwrap();
        assert!(paste_into_readme(&readme, "x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

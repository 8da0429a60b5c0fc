//! `cargo xtask test`: every check CI runs, in order, stopping at the first failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::setup::{self, Browsers, Tools};
use crate::util::{self, run, Ctx, Result};

/// Crates with wasm-bindgen tests, run in headless Chromium and Firefox. The one
/// place to add a crate that declares browser tests; clippy also checks these for
/// the wasm target. `ratelab-sim`: its `agreement` test (a million decisions, the
/// same digest as natively) and `portable` test (output bytes).
pub const WASM_TEST_CRATES: &[&str] = &["ratelab-web", "ratelab-sim", "ratelab-learn"];

/// The features clippy also checks the wasm build of a crate with: the web crate
/// with its split points (`split`, on only in the page's build: xtask/src/wasm.rs).
pub const WASM_CLIPPY_FEATURES: &[(&str, &str)] = &[("ratelab-web", "split")];

/// The product's target for the first load (what the bare page and the element
/// fetch before their first lane), gzipped, in bytes: 150 KB. Missed (see
/// docs/benchmarks.md): `cargo xtask bench` reports against it.
pub const BUNDLE_TARGET_GZIP: u64 = 150_000;

/// The files the bare page and the element fetch before their first lane (the
/// first module, its glue and its chunks' loader, the shared loader, the page's
/// and the element's start, the stylesheet). `tests/e2e/load.test.mjs` checks in
/// a browser that they fetch nothing else before it.
pub const FIRST_LOAD: &[&str] = &[
    "ratelab-web_bg.wasm",
    "ratelab-web.js",
    "__wasm_split.js",
    "ratelab.js",
    "page.js",
    "rate-limit-playground.js",
    "style.css",
];

/// The gzipped size the test command enforces for [`FIRST_LOAD`], in bytes: the
/// first load as it is plus a little room, so that it cannot grow unnoticed. It
/// only goes down: a feature that does not fit is a chunk fetched on demand
/// (`crates/web/src/view/chunks.rs`). History: 480 KB for the one module every
/// visitor downloaded (476 KB, issue 27); 440 KB when the lessons, the trace,
/// lab D's sweep and the service view became chunks (435.2 KB, the service view
/// now in the same page); 410 KB when the JS API's runs became a chunk (405 KB);
/// 320 KB when the setup form and the JSON reader and writer did (318.8 KB);
/// 302 KB when the lanes' production boxes did (301.3 KB); 300 KB with their
/// "about" boxes and the shipped stylesheet and element script minified (299.8 KB);
/// 299.5 KB with the about boxes' paragraphs fetched as text (`web/about/`), which
/// made room for links that keep the zoom, the folds and the part in view (298.5 KB);
/// 300 KB again (299.7 KB) once the live limiter's class and the service view's
/// fold rule came to the first module in the same session: the first load ended
/// where it began, with three features more; 291.5 KB when the service model
/// (making and checking a service scenario's services) left it for the chunks
/// that run services (290.8 KB), and 292 KB once the service model's two demand
/// messages were said in the page's words (291.4 KB); 290.5 KB when a panel's own
/// actions (the form's edits, the JSON box's import, a big import's build) became
/// methods its chunk calls instead of arms of `Playground::apply` (-3.9 KB), with
/// the lanes' pile counts and label rows and the compact layout added (289.8 KB);
/// 279.5 KB once no float is formatted in the first module (278.7 KB): mount's
/// options read without serde, numbers written by JavaScript or as integers, and a
/// gauge's `clamp` with a computed bound (its NaN check's message formatted floats)
/// replaced: Rust's float formatting (about 9 KB gzipped with what it pulled in)
/// now comes with the chunks that need it.
pub const BUNDLE_BUDGET_GZIP: u64 = 279_500;

/// Each panel fetched on demand and its gzipped budget, in bytes: what a visitor
/// has fetched in all once the panel is open, the first load and what opening it
/// fetches (its split point's chunk, `split_NAME.wasm`, named by
/// `#[wasm_split(NAME)]` in `crates/web/src/view/chunks.rs`, and every chunk of
/// code it shares with other panels, `chunk_N.wasm`, which `wasm-split-cli` makes
/// for code two split points reach). Counted with the first load so that moving
/// code out of the first load into the panels that use it (what this project
/// does to make the first load lighter) lowers these too; a panel that grows by
/// itself does not fit. A split point without a budget here fails the size step.
/// They go down, and up only when a feature lands in that panel's own chunk (the
/// place a feature that does not fit the first load goes), by what it measured,
/// named here. History: until the JS API's chunk, the shared chunks had one budget
/// of their own (12, then 30 KB). Issue 30 and 32 (session 13): api 401.5 -> 406
/// KB (405.8: the live `limiter(config).check()`, its idle-key sweep); service
/// 381.5 -> 388 KB (387.5: a sentence per scenario on what to compare, the
/// variants', limits' and clients' names in en and vi, the charts' time axis and
/// the store's outage); production 328 -> 328 (327.8: its Rust and JS lines);
/// lessons 364.5 -> 366 (365.5: the catalog's fold kept by links, the panel's words
/// read from its fetched texts); chooser 320.5 -> 321 (320.8: what it shares with
/// the lessons); new: about (its texts fetched) and place (the part a link names).
/// Session 14: the service model left the first load (-9.1 KB) for a chunk shared
/// by the three panels that make services: every other panel down by 8-9 KB;
/// api 406 -> 410 (409.6), import 368 -> 372 (371.3), service 388 -> 392
/// (391.4), with the demand messages in en and vi: the model costs about 12 KB as a chunk where it cost 9 in the first
/// module (calls across modules, a file of its own to compress).
/// Session 15: a panel's own actions left the first load (-3.9 KB) for the chunks
/// that call them; every budget lowered to what it measured plus a little, but
/// setup 339 -> 339.5 (339.3): its chunk took the form's actions from the first
/// load (+4.5 KB of chunk for -3.9 of first load), with the budget's hint.
/// Session 16: the JS API's `simulate` parses the report's JSON text rather than
/// writing it to JS values a second way: api 408.5 -> 403.5 (403.0), with
/// `responses` on request. Then every other panel 2-11 KB lower with the first
/// load's float formatting gone (what each measured plus about half a KB).
/// Issue 28's quiz: new, quiz 349 (348.6: its chunk runs the four questions and
/// fetches the lessons' texts); the first load +0.7 KB (279.4 of its unchanged
/// 279.5: the fold's title, the split point's loader, the quiz's styles) raises
/// every panel by as much, and the code the quiz shares with the other panels is
/// cut into more, smaller shared chunks (+0.3 to +1.6 KB of chunk files besides,
/// most for the lessons and the chooser): every other budget what it measured
/// plus about half a KB.
/// Lessons back to 362.5 (362.4): the quiz's merge had raised it above the
/// session's start, and budgets only go down.
pub const PANEL_BUDGETS: &[(&str, u64)] = &[
    ("about", 291_000),
    ("api", 405_000),
    ("chooser", 312_500),
    ("import", 372_000),
    ("lessons", 362_500),
    ("place", 282_000),
    ("production", 308_500),
    ("quiz", 349_000),
    ("service", 382_500),
    ("setup", 330_000),
    ("sweep", 299_000),
    ("trace", 312_500),
];

/// Chromium as root, with no network to talk to.
pub const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
];

/// The steps, in the order they run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Step {
    Fmt,
    Types,
    Clippy,
    Native,
    Wasm,
    Build,
    Size,
    E2e,
}

impl Step {
    pub const ALL: [Step; 8] = [
        Step::Fmt,
        Step::Types,
        Step::Clippy,
        Step::Native,
        Step::Wasm,
        Step::Build,
        Step::Size,
        Step::E2e,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Step::Fmt => "fmt",
            Step::Types => "types",
            Step::Clippy => "clippy",
            Step::Native => "native",
            Step::Wasm => "wasm",
            Step::Build => "build",
            Step::Size => "size",
            Step::E2e => "e2e",
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Step::Fmt => "cargo fmt --check",
            Step::Types => "tsc --strict on the public .d.ts (tests/types)",
            Step::Clippy => {
                "clippy, native and wasm32, -D warnings; ratelab-core built without std"
            }
            Step::Native => "native tests (cargo test --workspace)",
            Step::Wasm => "wasm-bindgen tests in headless browsers",
            Step::Build => {
                "trunk build --release: the page, its wasm split into a first module and chunks"
            }
            Step::Size => "size budgets: the first load, and each chunk",
            Step::E2e => "end-to-end tests (node + playwright-core, headless Chromium)",
        }
    }

    pub fn parse(s: &str) -> Result<Step> {
        Step::ALL
            .into_iter()
            .find(|st| st.name() == s)
            .ok_or_else(|| format!("unknown step `{s}`; steps are: {}", step_names()))
    }
}

pub fn step_names() -> String {
    Step::ALL.map(Step::name).join(", ")
}

/// Which browsers the wasm tests run in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Browser {
    Chromium,
    Firefox,
}

pub struct Options {
    pub steps: Vec<Step>,
    pub browsers: Vec<Browser>,
}

pub fn test(ctx: &Ctx, opts: &Options) -> Result {
    let needs_browsers = opts
        .steps
        .iter()
        .any(|s| matches!(s, Step::Wasm | Step::E2e));
    let (tools, took) = util::timed(|| {
        setup::setup(
            ctx,
            if needs_browsers {
                Browsers::Required
            } else {
                Browsers::Optional
            },
        )
    });
    let tools = tools?;
    let mut done: Vec<(String, Duration, bool)> = vec![("setup".into(), took, true)];

    for &step in &opts.steps {
        util::heading(&format!("{}: {}", step.name(), step.describe()));
        let (result, took) = util::timed(|| run_step(ctx, &tools, opts, step));
        done.push((step.name().into(), took, result.is_ok()));
        if let Err(e) = result {
            summary(&done);
            return Err(format!("step `{}` failed: {e}", step.name()));
        }
    }
    summary(&done);
    let passed = format!("xtask: all {} steps passed", opts.steps.len());
    println!("{}", util::paint("1;32", &passed));
    Ok(())
}

fn summary(done: &[(String, Duration, bool)]) {
    util::heading("summary");
    let mut total = Duration::ZERO;
    for (name, took, ok) in done {
        total += *took;
        let mark = if *ok { "ok  " } else { "FAIL" };
        println!("  {mark}  {name:<8} {:>7.1} s", took.as_secs_f64());
    }
    println!("        {:<8} {:>7.1} s", "total", total.as_secs_f64());
}

fn run_step(ctx: &Ctx, tools: &Tools, opts: &Options, step: Step) -> Result {
    match step {
        Step::Fmt => run(ctx.cargo().args(["fmt", "--all", "--check"])),
        Step::Clippy => {
            run(ctx.cargo().args([
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ]))?;
            let plain = WASM_TEST_CRATES.iter().map(|&k| (k, ""));
            for (krate, features) in plain.chain(WASM_CLIPPY_FEATURES.iter().copied()) {
                let mut cmd = ctx.cargo();
                cmd.args(["clippy", "-p", krate, "--target", "wasm32-unknown-unknown"]);
                if !features.is_empty() {
                    cmd.args(["--features", features]);
                }
                run(cmd.args(["--all-targets", "--", "-D", "warnings"]))?;
            }
            // The core promises `no_std` + `alloc`: build it for a target that has
            // no std at all, so a stray `std::` cannot slip in unnoticed.
            run(ctx.cargo().args([
                "build",
                "-p",
                "ratelab-core",
                "--target",
                setup::NO_STD_TARGET,
            ]))
        }
        Step::Types => types(ctx),
        Step::Native => run(ctx.cargo().args(["test", "--workspace"])),
        Step::Wasm => wasm_tests(ctx, tools, &opts.browsers),
        // One build: the page, its chunks (the service view among them) and the
        // other pages' files, through Trunk's hook `cargo xtask wasm`.
        Step::Build => run(ctx.cmd("trunk").args(["build", "--release"])),
        Step::Size => bundle_size(&ctx.root.join("dist")),
        Step::E2e => e2e(ctx, tools),
    }
}

/// The public declarations (`web/ratelab.d.ts`, `web/rate-limit-playground.d.ts`)
/// under `tsc --strict`, with typescript from package-lock.json: the docs' uses
/// compile (`tests/types/uses.ts`), and a misspelled mount option does not
/// (`tests/types/misspelled.ts` must fail, naming the option).
fn types(ctx: &Ctx) -> Result {
    let dir = ctx.root.join("tests/types");
    let tsc = ctx.root.join("node_modules/typescript/bin/tsc");
    run(ctx
        .cmd("node")
        .arg(&tsc)
        .arg("-p")
        .arg(dir.join("tsconfig.json")))?;
    let out = ctx
        .cmd("node")
        .arg(&tsc)
        .arg("-p")
        .arg(dir.join("tsconfig.misspelled.json"))
        .output()
        .map_err(|e| format!("cannot run tsc: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if out.status.success() || !text.contains("'scenaro' does not exist in type 'MountOptions'") {
        return Err(format!(
            "tests/types/misspelled.ts must fail with a misspelled option; tsc said:\n{text}"
        ));
    }
    Ok(())
}

fn wasm_tests(ctx: &Ctx, tools: &Tools, browsers: &[Browser]) -> Result {
    // One file of capabilities for both browsers; each driver reads its own section.
    let webdriver_json = ctx.root.join("crates/web/webdriver.json");
    for &krate in WASM_TEST_CRATES {
        for &browser in browsers {
            let mut cmd = ctx.cargo();
            // --tests: doctests are compiled and run natively by the `native` step.
            cmd.args([
                "test",
                "--target",
                "wasm32-unknown-unknown",
                "-p",
                krate,
                "--tests",
            ]);
            cmd.env("WASM_BINDGEN_TEST_WEBDRIVER_JSON", &webdriver_json)
                // Slow first starts on a busy 2-core machine.
                .env("WASM_BINDGEN_TEST_DRIVER_TIMEOUT", "60")
                .env("WASM_BINDGEN_TEST_TIMEOUT", "120");
            // The runner takes the first driver it finds (geckodriver before
            // chromedriver): name exactly one and hide the others.
            for var in [
                "GECKODRIVER",
                "CHROMEDRIVER",
                "SAFARIDRIVER",
                "MSEDGEDRIVER",
                "GECKODRIVER_REMOTE",
                "CHROMEDRIVER_REMOTE",
                "SAFARIDRIVER_REMOTE",
                "MSEDGEDRIVER_REMOTE",
                "NO_HEADLESS",
            ] {
                if std::env::var_os(var).is_some() {
                    cmd.env_remove(var);
                }
            }
            let driver = match browser {
                Browser::Chromium => ("CHROMEDRIVER", &tools.chromedriver, "chromium-driver"),
                Browser::Firefox => ("GECKODRIVER", &tools.geckodriver, "geckodriver"),
            };
            let path = driver
                .1
                .as_ref()
                .ok_or_else(|| format!("no {} found (cargo xtask setup)", driver.2))?;
            cmd.env(driver.0, path);
            println!("--- {krate} in {browser:?}");
            run(&mut cmd)?;
        }
    }
    Ok(())
}

/// One file of the page, as the budget counts it.
pub struct BundleFile {
    pub name: String,
    pub raw: u64,
    pub gzip: u64,
}

/// wasm + JS + CSS in dist/, raw and gzipped (`gzip -9`), sorted by name. Also what
/// `cargo xtask bench` reports.
pub fn bundle_files(dist: &Path) -> Result<Vec<BundleFile>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dist)
        .map_err(|e| format!("cannot read {}: {e} (did the build run?)", dist.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .is_some_and(|x| x == "wasm" || x == "js" || x == "css")
        })
        .collect();
    files.sort();
    if !files
        .iter()
        .any(|p| p.extension().is_some_and(|x| x == "wasm"))
    {
        return Err(format!("no .wasm file in {}", dist.display()));
    }
    files
        .iter()
        .map(|f| {
            Ok(BundleFile {
                name: f
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                raw: f.metadata().map_err(|e| e.to_string())?.len(),
                gzip: gzip_len(f)?,
            })
        })
        .collect()
}

/// The first load against its budget, then every piece fetched on demand against
/// its own; a piece with no budget fails.
fn bundle_size(dist: &Path) -> Result {
    let files = bundle_files(dist)?;
    let size = |name: &str| files.iter().find(|f| f.name == name);
    let row = |f: &BundleFile| format!("  {:<40} {:>9} {:>9}", f.name, kb(f.raw), kb(f.gzip));
    println!(
        "  the first load (the bare page and the element, before the first lane): {}",
        dist.display()
    );
    println!("  {:<40} {:>9} {:>9}", "file", "raw", "gzip");
    let mut gz_total = 0;
    for name in FIRST_LOAD {
        let f = size(name).ok_or_else(|| format!("{name} is not in {}", dist.display()))?;
        println!("{}", row(f));
        gz_total += f.gzip;
    }
    println!(
        "  {:<40} {:>9} {:>9}  budget {} ({:.0}% used), target {}",
        "total",
        "",
        kb(gz_total),
        kb(BUNDLE_BUDGET_GZIP),
        gz_total as f64 * 100.0 / BUNDLE_BUDGET_GZIP as f64,
        kb(BUNDLE_TARGET_GZIP)
    );
    let mut over = Vec::new();
    if gz_total > BUNDLE_BUDGET_GZIP {
        over.push(format!(
            "the first load is {} gzipped, over its {} budget",
            kb(gz_total),
            kb(BUNDLE_BUDGET_GZIP)
        ));
    }
    println!(
        "\n  fetched on demand, each panel the first time it is opened (its split_NAME.wasm and the chunk_N.wasm it shares),\n  and in all with the first load (against the budget):"
    );
    let loader = dist
        .parent()
        .unwrap_or(dist)
        .join("target/wasm-split/release")
        .join(crate::wasm::LOADER);
    for (panel, gz, files) in panel_sizes(&files, &util::read(&loader)?)? {
        let budget = PANEL_BUDGETS
            .iter()
            .find(|(n, _)| *n == panel)
            .map(|&(_, b)| b);
        let with_first = gz + gz_total;
        println!(
            "  {panel:<31} {:>9} {:>9}  budget {}  ({})",
            kb(gz),
            kb(with_first),
            budget.map(kb).unwrap_or_else(|| "none".into()),
            files.join(" ")
        );
        match budget {
            None => over.push(format!(
                "the panel {panel} has no budget: add one to PANEL_BUDGETS (xtask/src/test.rs)"
            )),
            Some(b) if with_first > b => over.push(format!(
                "opening {panel} makes {} gzipped in all with the first load, over its {} budget",
                kb(with_first),
                kb(b)
            )),
            Some(_) => {}
        }
    }
    let everything: u64 = files
        .iter()
        .filter(|f| f.name.ends_with(".wasm") || FIRST_LOAD.contains(&f.name.as_str()))
        .map(|f| f.gzip)
        .sum();
    println!(
        "  {:<31} {:>9} {:>9}",
        "every panel opened",
        "",
        kb(everything)
    );
    if over.is_empty() {
        Ok(())
    } else {
        Err(over.join("; "))
    }
}

/// Each panel fetched on demand: its name, the gzipped bytes opening it fetches
/// first, and those files (`split_NAME.wasm`, then the `chunk_N.wasm` it imports),
/// sorted by name. Which panels share a chunk is read from `loader`, the
/// unminified `__wasm_split.js` of the same build (`wasm-split-cli` writes the
/// panels above each chunk's loader: `/* api, lessons */`); a chunk in `files`
/// that the loader does not name, or the other way round, is an error (the two
/// come from different builds).
pub fn panel_sizes(files: &[BundleFile], loader: &str) -> Result<Vec<(String, u64, Vec<String>)>> {
    let users = chunk_users(loader)?;
    let gz = |name: &str| files.iter().find(|f| f.name == name).map(|f| f.gzip);
    let on_disk: Vec<&str> = files
        .iter()
        .map(|f| f.name.as_str())
        .filter(|n| n.starts_with("chunk_") && n.ends_with(".wasm"))
        .collect();
    let named: Vec<&str> = users.iter().map(|(c, _)| c.as_str()).collect();
    if on_disk.iter().any(|c| !named.contains(c)) || named.iter().any(|c| !on_disk.contains(c)) {
        return Err(format!(
            "the shared chunks on disk ({}) are not the ones {} names ({}): build again",
            on_disk.join(" "),
            crate::wasm::LOADER,
            named.join(" ")
        ));
    }
    let mut out = Vec::new();
    for f in files {
        let Some(panel) = f
            .name
            .strip_prefix("split_")
            .and_then(|n| n.strip_suffix(".wasm"))
        else {
            continue;
        };
        let mut fetched = vec![f.name.clone()];
        let mut total = f.gzip;
        for (chunk, panels) in &users {
            if panels.iter().any(|p| p == panel) {
                total += gz(chunk).unwrap_or(0);
                fetched.push(chunk.clone());
            }
        }
        out.push((panel.to_owned(), total, fetched));
    }
    Ok(out)
}

/// `(chunk_N.wasm, the panels that import it)` from the unminified loader: the
/// comment `/* a, b */` on the line before `const __chunk_N = `.
fn chunk_users(loader: &str) -> Result<Vec<(String, Vec<String>)>> {
    let mut out = Vec::new();
    let mut last_comment: Option<&str> = None;
    for line in loader.lines() {
        let line = line.trim();
        if let Some(c) = line.strip_prefix("/*").and_then(|c| c.strip_suffix("*/")) {
            last_comment = Some(c);
            continue;
        }
        if let Some(rest) = line.strip_prefix("const __chunk_") {
            let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let panels = last_comment.ok_or_else(|| {
                format!(
                    "{}: no `/* panels */` above __chunk_{n}",
                    crate::wasm::LOADER
                )
            })?;
            out.push((
                format!("chunk_{n}.wasm"),
                panels.split(',').map(|p| p.trim().to_owned()).collect(),
            ));
        }
        last_comment = None;
    }
    Ok(out)
}

pub fn kb(bytes: u64) -> String {
    format!("{:.1} KB", bytes as f64 / 1000.0)
}

fn gzip_len(path: &Path) -> Result<u64> {
    let out = Command::new("gzip")
        .args(["-9", "-n", "-c"])
        .arg(path)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run gzip: {e}"))?;
    if !out.status.success() {
        return Err(format!("gzip {} failed", path.display()));
    }
    Ok(out.stdout.len() as u64)
}

fn e2e(ctx: &Ctx, tools: &Tools) -> Result {
    let dir = ctx.root.join("tests/e2e");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".test.mjs"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no *.test.mjs files in {}", dir.display()));
    }
    let chromium = tools
        .chromium
        .as_ref()
        .ok_or("no chromium found (cargo xtask setup)")?;
    // The lessons test compares the page with `ratelab lessons --json`: the debug
    // build, which the native step has usually built already.
    run(ctx
        .cargo()
        .args(["build", "-p", "ratelab-cli", "--bin", "ratelab"]))?;
    let mut cmd = ctx.cmd("node");
    cmd.arg("--test")
        .args(&files)
        .env("RATELAB_CLI", ctx.root.join("target/debug/ratelab"))
        .env("RATELAB_DIST", ctx.root.join("dist"))
        .env("RATELAB_CHROMIUM", chromium)
        .env("RATELAB_CHROMIUM_FLAGS", CHROMIUM_FLAGS.join(" "))
        .env("RATELAB_E2E_ARTIFACTS", ctx.root.join("target/e2e"));
    run(&mut cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panel_counts_its_chunk_and_the_chunks_it_shares() {
        let loader = "function makeLoad() {}\n/* api, lessons */\nconst __chunk_6 = makeLoad(() => {\n}, []);\n/* lessons */\n/* lessons, trace */\nconst __chunk_12 = makeLoad(() => {\n}, []);\n";
        let file = |name: &str, gzip| BundleFile {
            name: name.into(),
            raw: 0,
            gzip,
        };
        let files = [
            file("chunk_12.wasm", 20),
            file("chunk_6.wasm", 10),
            file("split_api.wasm", 100),
            file("split_lessons.wasm", 200),
            file("split_trace.wasm", 300),
        ];
        let sizes = panel_sizes(&files, loader).unwrap();
        let got: Vec<(&str, u64)> = sizes.iter().map(|(p, g, _)| (p.as_str(), *g)).collect();
        assert_eq!(got, [("api", 110), ("lessons", 230), ("trace", 320)]);
        assert_eq!(
            sizes[1].2,
            ["split_lessons.wasm", "chunk_6.wasm", "chunk_12.wasm"]
        );
        // A chunk on disk that the loader does not name: the two are from different builds.
        let mut more: Vec<BundleFile> = files.into_iter().collect();
        more.push(file("chunk_7.wasm", 1));
        assert!(panel_sizes(&more, loader).is_err());
        let files = &more[..5];
        assert!(panel_sizes(&files[1..], loader).is_err());
        assert!(panel_sizes(files, "const __chunk_6 = x;").is_err());
    }

    #[test]
    fn webdriver_json_passes_the_same_chromium_flags() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let json = util::read(&root.join("crates/web/webdriver.json")).unwrap();
        for flag in CHROMIUM_FLAGS {
            assert!(
                json.contains(&format!("\"{flag}\"")),
                "webdriver.json lacks {flag}"
            );
        }
    }

    #[test]
    fn step_names_round_trip() {
        for step in Step::ALL {
            assert_eq!(Step::parse(step.name()), Ok(step));
        }
        assert!(Step::parse("lint").is_err());
    }
}

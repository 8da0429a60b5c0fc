//! `cargo xtask setup`: finds every tool the project needs, installs only what is
//! missing or at the wrong version, and says what it found. Running it twice
//! installs nothing the second time.
//!
//! Debian's redis-server, redis-tools (redis-cli) and nginx come from apt like the
//! browsers, for the production face's tests (which start their own servers).
//!
//! Versions live in one place each: wasm-bindgen in `Cargo.lock` (Trunk.toml must
//! agree, and is checked), wasm-opt and playwright-core in `package.json` /
//! `package-lock.json`, Trunk and geckodriver below.

use std::path::{Path, PathBuf};

use crate::util::{self, run, Ctx, Result};

/// Trunk 0.22 needs a newer rustc than the toolchain this project builds with.
const TRUNK_VERSION: &str = "0.21.14";
/// mdBook, for the end-to-end test that embeds the playground in a real book
/// (`tests/e2e/mdbook.test.mjs`). Built without its default features (serve,
/// watch, search): the test only runs `mdbook build`.
const MDBOOK_VERSION: &str = "0.5.4";
/// Installed only when no geckodriver is found; any working geckodriver will do.
const GECKODRIVER_VERSION: &str = "0.37.1";
/// `wasm-split-cli` (crate `wasm_split_cli_support`), which cuts the page's wasm
/// into its first module and chunks (xtask/src/wasm.rs). Its loader is checked
/// by `wasm::loader` when it changes.
pub const WASM_SPLIT_VERSION: &str = "0.2.3";
const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// A target without `std` (Cortex-M4F): the test command builds `ratelab-core` for
/// it, which proves the core is `no_std` (wasm32-unknown-unknown has a std).
pub const NO_STD_TARGET: &str = "thumbv7em-none-eabihf";
/// Debian's package names for what the browser tests drive.
const APT_BROWSERS: [&str; 3] = ["chromium", "chromium-driver", "firefox-esr"];
/// Debian's packages for the production face's tests: each program and its package.
/// The tests start their own servers on loopback ports; setup never starts one.
const APT_SERVERS: [(&str, &str); 3] = [
    ("redis-server", "redis-server"),
    ("redis-cli", "redis-tools"),
    ("nginx", "nginx"),
];

/// Whether the browsers are needed for the command at hand.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Browsers {
    /// Fail if they are missing and cannot be installed.
    Required,
    /// Say so and carry on (serving the page needs no browser here).
    Optional,
}

/// What setup found, for the commands that run tests.
pub struct Tools {
    pub chromium: Option<PathBuf>,
    pub chromedriver: Option<PathBuf>,
    pub firefox: Option<PathBuf>,
    pub geckodriver: Option<PathBuf>,
}

pub fn setup(ctx: &Ctx, browsers: Browsers) -> Result<Tools> {
    util::heading("setup: checking tools (installing only what is missing)");
    rust_target(ctx)?;
    let bindgen = wasm_bindgen_version(&ctx.root)?;
    let trunk_toml = TrunkToml::read(&ctx.root)?;
    if trunk_toml.wasm_bindgen != bindgen {
        return Err(format!(
            "Trunk.toml pins wasm_bindgen = \"{}\" but Cargo.lock has wasm-bindgen {bindgen}. \
             They must be equal: edit [tools] wasm_bindgen in Trunk.toml to \"{bindgen}\".",
            trunk_toml.wasm_bindgen
        ));
    }
    found(
        "Trunk.toml",
        &format!("wasm_bindgen pin {bindgen} matches Cargo.lock"),
    );
    crates(ctx)?;
    trunk(ctx)?;
    mdbook(ctx)?;
    wasm_bindgen_cli(ctx, &bindgen)?;
    wasm_split_cli(ctx)?;
    npm_tools(ctx, &trunk_toml.wasm_opt)?;
    apt_packages(ctx)?;
    let tools = browser_tools(ctx, browsers)?;
    servers(ctx, browsers)?;
    Ok(tools)
}

/// As root, every missing Debian package (browsers and servers) in one `apt-get
/// update` and one install, which on a fresh machine is most of setup's time; the
/// checks after it then find them. Without root, nothing: those checks say what to
/// run.
fn apt_packages(ctx: &Ctx) -> Result {
    let browsers = APT_BROWSERS
        .iter()
        .zip([
            &["chromium"][..],
            &["chromedriver"],
            &["firefox-esr", "firefox"],
        ])
        .filter(|(_, programs)| programs.iter().all(|p| ctx.which(p).is_none()))
        .map(|(package, _)| *package);
    let servers = APT_SERVERS
        .iter()
        .filter(|(program, _)| server_program(ctx, program).is_none())
        .map(|(_, package)| *package);
    let missing: Vec<&str> = browsers.chain(servers).collect();
    if missing.is_empty() || !is_root(ctx) {
        return Ok(());
    }
    apt_install(ctx, "Debian packages (apt)", &missing)
}

/// Where `program` is: on PATH, or in /usr/sbin (nginx), which a non-root PATH
/// often lacks.
fn server_program(ctx: &Ctx, program: &str) -> Option<PathBuf> {
    ctx.which(program).or_else(|| {
        ["/usr/sbin", "/usr/bin"]
            .iter()
            .map(|d| Path::new(d).join(program))
            .find(|p| p.is_file())
    })
}

fn found(what: &str, detail: &str) {
    println!("  {}    {what:<26} {detail}", util::paint("32", "found"));
}

fn installing(what: &str, why: &str) {
    println!("  {}  {what:<26} {why}", util::paint("33", "install"));
}

fn rust_target(ctx: &Ctx) -> Result {
    let out = ctx
        .cmd("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map_err(|e| format!("cannot run rustup: {e}"))?;
    let installed = String::from_utf8_lossy(&out.stdout);
    for target in [WASM_TARGET, NO_STD_TARGET] {
        if installed.lines().any(|l| l.trim() == target) {
            found("rust target", target);
        } else {
            installing("rust target", target);
            run(ctx.cmd("rustup").args(["target", "add", target]))?;
        }
    }
    Ok(())
}

/// Trunk runs cargo with `--offline` (Trunk.toml's `offline = true`), so every crate
/// in Cargo.lock, for every target, must already be downloaded. Quick when it is.
fn crates(ctx: &Ctx) -> Result {
    let out = ctx
        .cargo()
        .arg("fetch")
        .output()
        .map_err(|e| format!("cannot run cargo fetch: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "`cargo fetch` failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let log = String::from_utf8_lossy(&out.stderr);
    let fetched = log
        .lines()
        // One "Downloaded NAME vX" line per crate; skip the closing total.
        .filter(|l| l.trim_start().starts_with("Downloaded ") && !l.contains(" crate"))
        .count();
    if fetched == 0 {
        found("crates", "Cargo.lock's crates are all downloaded");
    } else {
        installing(
            "crates",
            &format!("cargo fetch downloaded {fetched} crates"),
        );
    }
    Ok(())
}

/// The one wasm-bindgen version in Cargo.lock. The CLI must match it exactly.
pub fn wasm_bindgen_version(root: &Path) -> Result<String> {
    let lock = util::read(&root.join("Cargo.lock"))?;
    let versions = lock_versions(&lock, "wasm-bindgen");
    match versions.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err("Cargo.lock has no wasm-bindgen package (crates/web depends on it)".into()),
        many => Err(format!(
            "Cargo.lock has several wasm-bindgen versions ({}); keep exactly one",
            many.join(", ")
        )),
    }
}

/// Versions of package `name` in a Cargo.lock (version 3 or 4 format).
fn lock_versions(lock: &str, name: &str) -> Vec<String> {
    let mut versions = Vec::new();
    let mut current: Option<&str> = None;
    for line in lock.lines().map(str::trim) {
        if line == "[[package]]" {
            current = None;
        } else if let Some(v) = toml_string(line, "name") {
            current = Some(v);
        } else if let (Some(n), Some(v)) = (current, toml_string(line, "version")) {
            if n == name {
                versions.push(v.to_owned());
            }
        }
    }
    versions
}

/// The value of `key = "value"` on one line, if that is what the line says.
fn toml_string<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line
        .strip_prefix(key)?
        .trim_start()
        .strip_prefix('=')?
        .trim();
    rest.strip_prefix('"')?.split('"').next()
}

/// The `[tools]` pins of Trunk.toml.
struct TrunkToml {
    wasm_bindgen: String,
    wasm_opt: String,
}

impl TrunkToml {
    fn read(root: &Path) -> Result<TrunkToml> {
        let text = util::read(&root.join("Trunk.toml"))?;
        let mut section = "";
        let (mut wasm_bindgen, mut wasm_opt) = (None, None);
        for line in text.lines().map(str::trim) {
            if line.starts_with('[') {
                section = line;
            } else if section == "[tools]" {
                wasm_bindgen = wasm_bindgen.or(toml_string(line, "wasm_bindgen"));
                wasm_opt = wasm_opt.or(toml_string(line, "wasm_opt"));
            }
        }
        let missing = |k: &str| format!("Trunk.toml: [tools] {k} = \"...\" is missing");
        Ok(TrunkToml {
            wasm_bindgen: wasm_bindgen
                .ok_or_else(|| missing("wasm_bindgen"))?
                .to_owned(),
            wasm_opt: wasm_opt.ok_or_else(|| missing("wasm_opt"))?.to_owned(),
        })
    }
}

/// The second word of a `tool --version` line ("trunk 0.21.14" → "0.21.14").
fn version_word(ctx: &Ctx, program: &str) -> Option<String> {
    let line = ctx.first_line(program, &["--version"])?;
    line.split_whitespace().nth(1).map(str::to_owned)
}

fn trunk(ctx: &Ctx) -> Result {
    match version_word(ctx, "trunk") {
        Some(v) if v == TRUNK_VERSION => {
            found("trunk", &format!("{v} ({})", shown_path(ctx, "trunk")));
            return Ok(());
        }
        Some(v) => installing("trunk", &format!("{TRUNK_VERSION} (found {v})")),
        None => installing("trunk", &format!("{TRUNK_VERSION} (not found)")),
    }
    run(ctx.cargo().args([
        "install",
        "trunk",
        "--version",
        TRUNK_VERSION,
        "--locked",
        "--force",
    ]))?;
    expect_version(ctx, "trunk", TRUNK_VERSION)
}

fn mdbook(ctx: &Ctx) -> Result {
    // `mdbook --version` says "mdbook v0.5.4".
    let found_version = version_word(ctx, "mdbook").map(|v| v.trim_start_matches('v').to_owned());
    match found_version {
        Some(v) if v == MDBOOK_VERSION => {
            found("mdbook", &format!("{v} ({})", shown_path(ctx, "mdbook")));
            return Ok(());
        }
        Some(v) => installing("mdbook", &format!("{MDBOOK_VERSION} (found {v})")),
        None => installing("mdbook", &format!("{MDBOOK_VERSION} (not found)")),
    }
    run(ctx.cargo().args([
        "install",
        "mdbook",
        "--version",
        MDBOOK_VERSION,
        "--locked",
        "--no-default-features",
        "--force",
    ]))?;
    match version_word(ctx, "mdbook") {
        Some(v) if v.trim_start_matches('v') == MDBOOK_VERSION => Ok(()),
        other => Err(format!(
            "mdbook {MDBOOK_VERSION} was installed, but `mdbook --version` says {other:?}"
        )),
    }
}

fn wasm_bindgen_cli(ctx: &Ctx, version: &str) -> Result {
    let bindgen = version_word(ctx, "wasm-bindgen");
    let runner = version_word(ctx, "wasm-bindgen-test-runner");
    if bindgen.as_deref() == Some(version) && runner.as_deref() == Some(version) {
        found(
            "wasm-bindgen-cli",
            &format!(
                "{version} = Cargo.lock ({})",
                shown_path(ctx, "wasm-bindgen")
            ),
        );
        return Ok(());
    }
    let had = bindgen.unwrap_or_else(|| "none".into());
    installing(
        "wasm-bindgen-cli",
        &format!("{version} from Cargo.lock (found {had})"),
    );
    // Not --locked: the CLI's own lockfile names a crate version crates.io lacks.
    run(ctx.cargo().args([
        "install",
        "wasm-bindgen-cli",
        "--version",
        &format!("={version}"),
        "--force",
    ]))?;
    expect_version(ctx, "wasm-bindgen", version)?;
    expect_version(ctx, "wasm-bindgen-test-runner", version)
}

/// `wasm-split-cli` prints no version: the version cargo recorded installing it.
fn wasm_split_installed(ctx: &Ctx) -> Option<String> {
    let out = ctx.cargo().args(["install", "--list"]).output().ok()?;
    let list = String::from_utf8_lossy(&out.stdout);
    let line = list
        .lines()
        .find(|l| l.starts_with("wasm_split_cli_support "))?;
    let v = line.split_whitespace().nth(1)?;
    Some(v.trim_start_matches('v').trim_end_matches(':').to_owned())
}

fn wasm_split_cli(ctx: &Ctx) -> Result {
    match wasm_split_installed(ctx) {
        Some(v) if v == WASM_SPLIT_VERSION && ctx.which("wasm-split-cli").is_some() => {
            found(
                "wasm-split-cli",
                &format!("{v} ({})", shown_path(ctx, "wasm-split-cli")),
            );
            return Ok(());
        }
        Some(v) => installing(
            "wasm-split-cli",
            &format!("{WASM_SPLIT_VERSION} (found {v})"),
        ),
        None => installing(
            "wasm-split-cli",
            &format!("{WASM_SPLIT_VERSION} (not found)"),
        ),
    }
    run(ctx.cargo().args([
        "install",
        "wasm_split_cli_support",
        "--version",
        WASM_SPLIT_VERSION,
        "--features",
        "build-binary",
        "--locked",
        "--force",
    ]))?;
    match wasm_split_installed(ctx) {
        Some(v) if v == WASM_SPLIT_VERSION => Ok(()),
        other => Err(format!(
            "wasm_split_cli_support {WASM_SPLIT_VERSION} was installed, but cargo lists {other:?}"
        )),
    }
}

fn expect_version(ctx: &Ctx, program: &str, want: &str) -> Result {
    match version_word(ctx, program) {
        Some(v) if v == want => {
            found(program, &format!("{v} ({})", shown_path(ctx, program)));
            Ok(())
        }
        other => Err(format!(
            "after installing, `{program} --version` says {other:?}, expected {want}; \
             is cargo's bin directory on PATH?"
        )),
    }
}

fn shown_path(ctx: &Ctx, program: &str) -> String {
    ctx.which(program)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "not on PATH".into())
}

/// `npm ci` unless node_modules already holds exactly what package-lock.json says.
fn npm_tools(ctx: &Ctx, wasm_opt_pin: &str) -> Result {
    for tool in ["node", "npm"] {
        if ctx.which(tool).is_none() {
            return Err(format!(
                "`{tool}` not found; install Node.js 18+ and npm (Debian: apt-get install -y nodejs npm)"
            ));
        }
    }
    let lock = util::read(&ctx.root.join("package-lock.json"))?;
    let stamp = ctx.root.join("node_modules").join(".ratelab-package-lock");
    let bins = ["wasm-opt"].map(|b| ctx.root.join("node_modules/.bin").join(b));
    let up_to_date = std::fs::read_to_string(&stamp).is_ok_and(|s| s == lock)
        && bins.iter().all(|b| b.exists())
        && ctx
            .root
            .join("node_modules/playwright-core/package.json")
            .exists();
    if up_to_date {
        found("npm packages", "node_modules matches package-lock.json");
    } else {
        installing(
            "npm packages",
            "npm ci (binaryen's wasm-opt, playwright-core)",
        );
        run(ctx.cmd("npm").args(["ci", "--no-audit", "--no-fund"]))?;
        std::fs::write(&stamp, &lock)
            .map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    }
    // Checked the way Trunk checks it: "wasm-opt version 132 (...)" → "version_132".
    let line = ctx
        .first_line("wasm-opt", &["--version"])
        .unwrap_or_default();
    let seen = line.split(' ').nth(2).map(|v| format!("version_{v}"));
    let path = shown_path(ctx, "wasm-opt");
    if seen.as_deref() != Some(wasm_opt_pin) {
        return Err(format!(
            "wasm-opt at {path} reports {line:?}, but Trunk.toml pins {wasm_opt_pin}; \
             package.json's binaryen version and Trunk.toml's wasm_opt must agree"
        ));
    }
    found("wasm-opt", &format!("{line} ({path})"));
    Ok(())
}

fn browser_tools(ctx: &Ctx, need: Browsers) -> Result<Tools> {
    let look = |names: &[&str]| names.iter().find_map(|n| ctx.which(n));
    let mut tools = Tools {
        chromium: look(&["chromium"]),
        chromedriver: look(&["chromedriver"]),
        firefox: look(&["firefox-esr", "firefox"]),
        geckodriver: look(&["geckodriver"]),
    };
    let missing_apt: Vec<&str> = APT_BROWSERS
        .iter()
        .zip([&tools.chromium, &tools.chromedriver, &tools.firefox])
        .filter(|(_, p)| p.is_none())
        .map(|(pkg, _)| *pkg)
        .collect();
    if !missing_apt.is_empty() {
        let command = format!(
            "apt-get update && apt-get install -y {}",
            missing_apt.join(" ")
        );
        if is_root(ctx) {
            apt_install(ctx, "browsers (apt)", &missing_apt)?;
            tools.chromium = look(&["chromium"]);
            tools.chromedriver = look(&["chromedriver"]);
            tools.firefox = look(&["firefox-esr", "firefox"]);
        } else if need == Browsers::Required {
            return Err(format!(
                "missing {}; the browser tests need them. Run as root:\n    sudo sh -c '{command}'",
                missing_apt.join(", ")
            ));
        } else {
            println!(
                "  {}  browsers (not needed to serve); to add them: sudo sh -c '{command}'",
                util::paint("33", "missing")
            );
        }
    }
    for (name, path) in [
        ("chromium", &tools.chromium),
        ("chromedriver", &tools.chromedriver),
        ("firefox", &tools.firefox),
    ] {
        if let Some(p) = path {
            let v = ctx
                .first_line(&p.to_string_lossy(), &["--version"])
                .unwrap_or_else(|| "version unknown".into());
            found(name, &format!("{v} ({})", p.display()));
        }
    }
    if tools.geckodriver.is_none() {
        installing("geckodriver", &format!("{GECKODRIVER_VERSION} (not found)"));
        let locked = run(ctx.cargo().args([
            "install",
            "geckodriver",
            "--version",
            GECKODRIVER_VERSION,
            "--locked",
        ]));
        if let Err(e) = locked {
            println!("  {e}; retrying without --locked");
            run(ctx
                .cargo()
                .args(["install", "geckodriver", "--version", GECKODRIVER_VERSION]))?;
        }
        tools.geckodriver = look(&["geckodriver"]);
    }
    match &tools.geckodriver {
        Some(p) => {
            let v = version_word(ctx, &p.to_string_lossy()).unwrap_or_else(|| "?".into());
            found("geckodriver", &format!("{v} ({})", p.display()));
        }
        None if need == Browsers::Required => {
            return Err("geckodriver is still not on PATH after installing it".into())
        }
        None => {}
    }
    Ok(tools)
}

/// redis-server, redis-cli and nginx, from Debian, as the browsers are (see
/// [`apt_install`]: no service is started; the tests start their own).
fn servers(ctx: &Ctx, need: Browsers) -> Result {
    let look = |program: &str| server_program(ctx, program);
    let missing: Vec<&str> = APT_SERVERS
        .iter()
        .filter(|(program, _)| look(program).is_none())
        .map(|(_, package)| *package)
        .collect();
    if !missing.is_empty() {
        let command = format!("apt-get update && apt-get install -y {}", missing.join(" "));
        if is_root(ctx) {
            apt_install(ctx, "servers (apt)", &missing)?;
        } else if need == Browsers::Required {
            return Err(format!(
                "missing {}; the Redis and nginx tests need them. Run as root:\n    sudo sh -c '{command}'",
                missing.join(", ")
            ));
        } else {
            println!(
                "  {}  redis/nginx (not needed to serve); to add them: sudo sh -c '{command}'",
                util::paint("33", "missing")
            );
            return Ok(());
        }
    }
    for (program, flag) in [
        ("redis-server", "--version"),
        ("redis-cli", "--version"),
        ("nginx", "-v"),
    ] {
        match look(program) {
            Some(p) => {
                let path = p.to_string_lossy().into_owned();
                // nginx -v writes to stderr.
                let v = std::process::Command::new(&p)
                    .arg(flag)
                    .output()
                    .ok()
                    .map(|o| {
                        let text = if o.stdout.is_empty() {
                            o.stderr
                        } else {
                            o.stdout
                        };
                        String::from_utf8_lossy(&text)
                            .lines()
                            .next()
                            .unwrap_or("")
                            .trim()
                            .to_string()
                    })
                    .unwrap_or_else(|| "version unknown".into());
                found(program, &format!("{v} ({path})"));
            }
            None if need == Browsers::Required => {
                return Err(format!("{program} is still missing after installing it"))
            }
            None => {}
        }
    }
    Ok(())
}

/// `apt-get update`, then installs `packages`. A Debian server package normally
/// starts its service; a `policy-rc.d` that says no is put in place for the install
/// (when there is none already), so that no system Redis or nginx is left running.
fn apt_install(ctx: &Ctx, what: &str, packages: &[&str]) -> Result {
    installing(what, &packages.join(" "));
    let policy = Path::new("/usr/sbin/policy-rc.d");
    let ours = !policy.exists();
    if ours {
        write_policy(policy)?;
    }
    let installed = run(ctx.cmd("apt-get").arg("update")).and_then(|()| {
        run(ctx
            .cmd("apt-get")
            .args(["install", "-y"])
            .args(packages)
            .env("DEBIAN_FRONTEND", "noninteractive"))
    });
    if ours {
        let _ = std::fs::remove_file(policy);
    }
    installed
}

/// A `policy-rc.d` that forbids starting services (exit 101), executable.
fn write_policy(path: &Path) -> Result {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(
        path,
        "#!/bin/sh\n# ratelab setup: installing packages must not start services\nexit 101\n",
    )
    .and_then(|()| std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)))
    .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn is_root(ctx: &Ctx) -> bool {
    ctx.first_line("id", &["-u"]).as_deref() == Some("0")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_package_versions_from_a_lockfile() {
        let lock = r#"
version = 4

[[package]]
name = "wasm-bindgen"
version = "0.2.130"
dependencies = [
 "cfg-if",
]

[[package]]
name = "wasm-bindgen-macro"
version = "0.2.130"
"#;
        assert_eq!(lock_versions(lock, "wasm-bindgen"), ["0.2.130"]);
        assert!(lock_versions(lock, "leptos").is_empty());
    }

    #[test]
    fn the_repositorys_pins_agree() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let trunk = TrunkToml::read(root).unwrap();
        assert_eq!(trunk.wasm_bindgen, wasm_bindgen_version(root).unwrap());
        let package_json = util::read(&root.join("package.json")).unwrap();
        let binaryen = trunk.wasm_opt.strip_prefix("version_").unwrap();
        assert!(
            package_json.contains(&format!("\"binaryen\": \"{binaryen}.")),
            "package.json's binaryen must be version {binaryen} to match Trunk.toml"
        );
    }
}

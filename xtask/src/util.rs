//! Running commands: the PATH children see, printing what runs, clear failures.

use std::env;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Errors are messages for a person; every one says what to do or what failed.
pub type Result<T = ()> = std::result::Result<T, String>;

/// Where the repository is and what PATH child processes get.
pub struct Ctx {
    /// The repository root (the workspace).
    pub root: PathBuf,
    /// `node_modules/.bin` (wasm-opt, pinned by package-lock.json) first, then cargo's
    /// bin directory (tools `cargo install`ed by setup), then the caller's PATH.
    path: OsString,
}

impl Ctx {
    pub fn new() -> Result<Ctx> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .ok_or("xtask has no parent directory")?
            .to_path_buf();
        let mut dirs = vec![
            root.join("node_modules").join(".bin"),
            cargo_home().join("bin"),
        ];
        dirs.extend(env::split_paths(&env::var_os("PATH").unwrap_or_default()));
        let path = env::join_paths(dirs).map_err(|e| format!("cannot build PATH: {e}"))?;
        Ok(Ctx { root, path })
    }

    /// The first executable called `name` on our PATH.
    pub fn which(&self, name: &str) -> Option<PathBuf> {
        if name.contains('/') {
            let p = PathBuf::from(name);
            return is_executable(&p).then_some(p);
        }
        env::split_paths(&self.path)
            .map(|dir| dir.join(name))
            .find(|p| is_executable(p))
    }

    /// A command run from the repository root with our PATH.
    pub fn cmd(&self, program: &str) -> Command {
        let resolved = self
            .which(program)
            .unwrap_or_else(|| PathBuf::from(program));
        let mut c = Command::new(resolved);
        c.current_dir(&self.root).env("PATH", &self.path);
        c
    }

    /// `cargo`, the one that runs us when there is one.
    pub fn cargo(&self) -> Command {
        let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        self.cmd(&cargo)
    }

    /// The first line a tool prints for `args` (e.g. `--version`), if it runs at all.
    pub fn first_line(&self, program: &str, args: &[&str]) -> Option<String> {
        let out = self
            .cmd(program)
            .args(args)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        if !out.status.success() {
            return None;
        }
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .map(str::to_owned)
    }
}

fn cargo_home() -> PathBuf {
    match env::var_os("CARGO_HOME") {
        Some(h) => PathBuf::from(h),
        None => PathBuf::from(env::var_os("HOME").unwrap_or_default()).join(".cargo"),
    }
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// Prints the command, runs it with inherited stdio, fails unless it exits 0.
pub fn run(cmd: &mut Command) -> Result {
    let shown = show(cmd);
    println!("{}", paint("1", &format!("$ {shown}")));
    let status = cmd
        .stdin(Stdio::null())
        .status()
        .map_err(|e| format!("could not start `{shown}`: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{shown}` failed ({status})"))
    }
}

/// The command as a person would type it, with the environment we set on it.
pub fn show(cmd: &Command) -> String {
    let mut parts: Vec<String> = cmd
        .get_envs()
        .filter(|(k, _)| *k != OsStr::new("PATH"))
        .map(|(k, v)| match v {
            Some(v) => format!("{}={}", k.to_string_lossy(), quote(&v.to_string_lossy())),
            None => format!("-u {}", k.to_string_lossy()),
        })
        .collect();
    let program = Path::new(cmd.get_program());
    let name = program.file_name().unwrap_or(program.as_os_str());
    parts.push(name.to_string_lossy().into_owned());
    parts.extend(cmd.get_args().map(|a| quote(&a.to_string_lossy())));
    parts.join(" ")
}

fn quote(s: &str) -> String {
    if s.is_empty() || s.contains([' ', '"', '\'', '$', '*']) {
        format!("'{}'", s.replace('\'', r"'\''"))
    } else {
        s.to_owned()
    }
}

/// Runs `f`, returning its result and how long it took.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

/// A section heading in the output, easy to find in a long CI log.
pub fn heading(text: &str) {
    println!("\n{}", paint("1;36", &format!("==> {text}")));
}

/// `text` in an ANSI style when stdout is a terminal (and NO_COLOR is unset).
pub fn paint(style: &str, text: &str) -> String {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() && env::var_os("NO_COLOR").is_none() {
        format!("\x1b[{style}m{text}\x1b[0m")
    } else {
        text.to_owned()
    }
}

/// Reads a file, naming it in the error.
pub fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

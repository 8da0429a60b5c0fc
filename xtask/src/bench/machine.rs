//! What a run was measured on: the commit, the CPU, the tool versions, the load.
//! The table's first lines say it, because every absolute number depends on it.

use std::path::Path;
use std::process::Command;

use crate::util::Ctx;

/// The commit and the machine a run measured.
#[derive(Default)]
pub(super) struct Machine {
    /// The commit measured, and whether the work tree had changes on top.
    pub commit: String,
    pub cpu: String,
    pub cores: String,
    pub rustc: String,
    pub chromium: String,
    pub node: String,
}

impl Machine {
    /// Asks `lscpu`, git and each tool for its version; `?` for whatever is missing.
    pub fn detect(ctx: &Ctx, chromium: Option<&Path>) -> Machine {
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

/// The one-minute load average (the machine is shared; the table says how busy).
pub(super) fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}

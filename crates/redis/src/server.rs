//! Throwaway servers for tests, labs and benchmarks: each on a free loopback port,
//! in a temporary directory of its own, without persistence, and stopped (killed,
//! waited for, its directory removed) when its guard is dropped, whatever happened.
//! Nothing here ever talks to a server it did not start.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use crate::{Error, Redis};

/// A directory under the system's temporary directory, removed on drop.
#[derive(Debug)]
pub struct TempDir(PathBuf);

impl TempDir {
    /// A new empty directory named after `tag`, this process and a counter.
    pub fn new(tag: &str) -> Result<TempDir, String> {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("ratelab-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        Ok(TempDir(dir))
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A loopback port nobody listens on right now, and never handed out before by
/// this process. (The kernel can give the same free port to two servers started
/// side by side before either binds it; then the second one's readiness check
/// answered from the first server, and its requests were reset when the first
/// stopped: the nginx test failed so under load, session 9.)
pub fn free_port() -> Result<u16, String> {
    static GIVEN: std::sync::Mutex<Vec<u16>> = std::sync::Mutex::new(Vec::new());
    for _ in 0..100 {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .map_err(|e| format!("no free loopback port: {e}"))?;
        let mut given = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
        if !given.contains(&port) {
            given.push(port);
            return Ok(port);
        }
    }
    Err("no free loopback port not given before".into())
}

/// A child process killed and waited for on drop.
#[derive(Debug)]
pub(crate) struct Guard(pub(crate) Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The first of `names` found on `PATH` (or in /usr/sbin, /usr/bin).
pub fn find_binary(name: &str) -> Result<PathBuf, String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/usr/bin")])
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| format!("{name} not found (cargo xtask setup installs Debian's package)"))
}

/// Starts a server on a free loopback port in a temporary directory of its own:
/// `spawn(port, dir)` starts it, `ready(port, dir)` says whether it answers yet. Tried up
/// to five times, since a free port can be taken before the server binds it. A
/// server that exits first is reported with the last line of its `log` file.
pub(crate) fn start_on_free_port(
    tag: &str,
    log: &str,
    spawn: impl Fn(u16, &Path) -> Result<Child, String>,
    ready: impl Fn(u16, &Path) -> bool,
) -> Result<(Guard, u16, TempDir), String> {
    let mut last_error = String::new();
    for _ in 0..5 {
        let port = free_port()?;
        let dir = TempDir::new(tag)?;
        let mut guard = Guard(spawn(port, dir.path())?);
        let started = Instant::now();
        last_error = loop {
            if let Ok(Some(status)) = guard.0.try_wait() {
                let text = std::fs::read_to_string(dir.path().join(log)).unwrap_or_default();
                break format!(
                    "{tag} on port {port} exited ({status}): {}",
                    text.lines().last().unwrap_or("")
                );
            }
            if ready(port, dir.path()) {
                return Ok((guard, port, dir));
            }
            if started.elapsed() > Duration::from_secs(10) {
                break format!("{tag} on port {port} did not answer within 10 s");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
    }
    Err(last_error)
}

/// A `redis-server` of our own.
#[derive(Debug)]
pub struct RedisServer {
    // Held for their drops, in this order: the server is stopped before its
    // directory goes.
    _guard: Guard,
    port: u16,
    _dir: TempDir,
    /// Its extra options, to start it again alike.
    extra: Vec<String>,
}

fn spawn_redis(binary: &Path, port: u16, dir: &Path, extra: &[String]) -> Result<Child, String> {
    Command::new(binary)
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
        .arg("--dir")
        .arg(dir)
        .arg("--logfile")
        .arg(dir.join("redis.log"))
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))
}

fn redis_ready(port: u16) -> bool {
    Redis::connect(&format!("redis://127.0.0.1:{port}"))
        .is_ok_and(|mut r| r.command(&redis::cmd("PING")).is_ok())
}

impl RedisServer {
    /// Starts a server on a free loopback port: no RDB, no AOF, in a temporary
    /// directory, ready when this returns.
    pub fn start() -> Result<RedisServer, String> {
        RedisServer::start_with(&[])
    }

    /// The same with extra `redis-server` options (e.g. `--cluster-enabled yes`).
    pub fn start_with(extra: &[&str]) -> Result<RedisServer, String> {
        let binary = find_binary("redis-server")?;
        let extra: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
        let (guard, port, dir) = start_on_free_port(
            "redis",
            "redis.log",
            |port, dir| spawn_redis(&binary, port, dir, &extra),
            |port, _| redis_ready(port),
        )?;
        Ok(RedisServer {
            _guard: guard,
            port,
            _dir: dir,
            extra,
        })
    }

    /// Kills the server (as a crash would), keeping its port and directory for
    /// [`RedisServer::start_again`]: a store that goes away under its clients.
    pub fn kill(&mut self) {
        let _ = self._guard.0.kill();
        let _ = self._guard.0.wait();
    }

    /// Starts it again on the same port, in the same directory, with the same
    /// options (with `--appendonly yes` it reloads what it had), ready when this
    /// returns.
    pub fn start_again(&mut self) -> Result<(), String> {
        let binary = find_binary("redis-server")?;
        let started = Instant::now();
        // The port was ours a moment ago; a few tries cover a slow release.
        loop {
            self._guard = Guard(spawn_redis(
                &binary,
                self.port,
                self._dir.path(),
                &self.extra,
            )?);
            let up = Instant::now();
            while up.elapsed() < Duration::from_secs(5) {
                if redis_ready(self.port) {
                    return Ok(());
                }
                if let Ok(Some(_)) = self._guard.0.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            if started.elapsed() > Duration::from_secs(15) {
                return Err(format!(
                    "redis-server did not come back on port {} within 15 s",
                    self.port
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// `redis://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A new connection to it.
    pub fn connect(&self) -> Result<Redis, Error> {
        Redis::connect(&self.url())
    }

    /// Stops it now (as dropping it would), e.g. to see what a client does when
    /// the server goes away.
    pub fn stop(self) {}

    /// The version `redis-server --version` reports, e.g. `7.0.15`.
    pub fn version() -> Result<String, String> {
        let out = Command::new(find_binary("redis-server")?)
            .arg("--version")
            .output()
            .map_err(|e| format!("cannot run redis-server --version: {e}"))?;
        let text = String::from_utf8_lossy(&out.stdout);
        text.split_whitespace()
            .find_map(|w| w.strip_prefix("v="))
            .map(str::to_string)
            .ok_or_else(|| format!("cannot read a version from {text:?}"))
    }
}

/// A Redis Cluster of our own: `n` masters, no replicas, joined with
/// `redis-cli --cluster create`.
#[derive(Debug)]
pub struct RedisCluster {
    nodes: Vec<RedisServer>,
}

impl RedisCluster {
    /// Starts `n` (≥ 3) cluster-enabled servers and joins them; ready (every slot
    /// served, every node agreeing) when this returns.
    pub fn start(n: usize) -> Result<RedisCluster, String> {
        let mut nodes = Vec::with_capacity(n);
        for _ in 0..n {
            nodes.push(RedisServer::start_with(&[
                "--cluster-enabled",
                "yes",
                "--cluster-node-timeout",
                "5000",
            ])?);
        }
        let cli = find_binary("redis-cli")?;
        let out = Command::new(&cli)
            .args(["--cluster", "create"])
            .args(nodes.iter().map(|s| format!("127.0.0.1:{}", s.port)))
            .args(["--cluster-replicas", "0", "--cluster-yes"])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run redis-cli --cluster create: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "redis-cli --cluster create failed: {}",
                String::from_utf8_lossy(&out.stdout)
                    .lines()
                    .last()
                    .unwrap_or("")
            ));
        }
        let cluster = RedisCluster { nodes };
        let started = Instant::now();
        while !cluster.is_ready() {
            if started.elapsed() > Duration::from_secs(20) {
                return Err("the cluster did not become ready within 20 s".into());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Ok(cluster)
    }

    fn is_ready(&self) -> bool {
        self.nodes.iter().all(|node| {
            let Ok(mut r) = node.connect() else {
                return false;
            };
            let mut cmd = redis::cmd("CLUSTER");
            cmd.arg("INFO");
            match r.command(&cmd) {
                Ok(redis::Value::BulkString(b)) => {
                    let info = String::from_utf8_lossy(&b);
                    info.contains("cluster_state:ok")
                        && info.contains("cluster_slots_assigned:16384")
                }
                Ok(redis::Value::VerbatimString { text, .. }) => text.contains("cluster_state:ok"),
                _ => false,
            }
        })
    }

    /// Every node's URL.
    pub fn urls(&self) -> Vec<String> {
        self.nodes.iter().map(RedisServer::url).collect()
    }

    /// The nodes.
    pub fn nodes(&self) -> &[RedisServer] {
        &self.nodes
    }

    /// A cluster connection.
    pub fn connect(&self) -> Result<Redis, Error> {
        Redis::connect_cluster(&self.urls())
    }
}

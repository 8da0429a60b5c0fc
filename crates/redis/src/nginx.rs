//! A throwaway nginx of our own: a generated configuration that serves one static
//! file behind the `limit_req` lines under test (nginx runs `return` before
//! `limit_req`, so a limit must guard real content), in a temporary directory, on a
//! free loopback port, one process, stopped when dropped. Its access log records
//! nginx's own clock for each request (`$msec` and `$request_time`).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::server::{find_binary, free_port, Guard, TempDir};

/// A running nginx.
#[derive(Debug)]
pub struct Nginx {
    guard: Guard,
    port: u16,
    dir: TempDir,
}

/// One line of the access log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Logged {
    /// When nginx started the request, in ms of its clock (`$msec − $request_time`).
    pub start_ms: u64,
    /// How long nginx held it, in ms (`$request_time`), delays included.
    pub held_ms: u64,
    /// The status sent.
    pub status: u16,
    /// The request's URI.
    pub uri: String,
}

impl Nginx {
    /// Starts nginx with `zone` (a `limit_req_zone` line, in `http { }`) and
    /// `limit` (the `limit_req` lines, in the location that serves the file).
    pub fn start(zone: &str, limit: &str) -> Result<Nginx, String> {
        let binary = find_binary("nginx")?;
        let mut last_error = String::new();
        for _ in 0..5 {
            let port = free_port()?;
            let dir = TempDir::new("nginx")?;
            let d = dir.path().display();
            std::fs::create_dir_all(dir.path().join("html")).map_err(|e| e.to_string())?;
            std::fs::write(dir.path().join("html/index.html"), "ok\n")
                .map_err(|e| e.to_string())?;
            let conf = format!(
                "daemon off;\nmaster_process off;\nworker_processes 1;\npid {d}/nginx.pid;\n\
                 error_log {d}/error.log warn;\nevents {{ worker_connections 512; }}\n\
                 http {{\n  log_format ratelab '$msec $request_time $status $request_uri';\n\
                 access_log {d}/access.log ratelab;\n\
                 client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n\
                 fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n\
                 {zone}\n\
                 server {{\n    listen 127.0.0.1:{port};\n    location / {{\n      root {d}/html;\n\
                 {limit}\n    }}\n  }}\n}}\n"
            );
            std::fs::write(dir.path().join("nginx.conf"), conf).map_err(|e| e.to_string())?;
            let child = Command::new(&binary)
                .arg("-p")
                .arg(dir.path())
                .arg("-c")
                .arg(dir.path().join("nginx.conf"))
                .arg("-e")
                .arg(dir.path().join("error.log"))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
            let mut n = Nginx {
                guard: Guard(child),
                port,
                dir,
            };
            match n.wait_ready() {
                Ok(()) => return Ok(n),
                Err(e) => last_error = e,
            }
        }
        Err(last_error)
    }

    fn wait_ready(&mut self) -> Result<(), String> {
        let started = Instant::now();
        loop {
            if let Ok(Some(status)) = self.guard.0.try_wait() {
                let log =
                    std::fs::read_to_string(self.dir.path().join("error.log")).unwrap_or_default();
                return Err(format!(
                    "nginx exited ({status}): {}",
                    log.lines().last().unwrap_or("")
                ));
            }
            if TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return Ok(());
            }
            if started.elapsed() > Duration::from_secs(10) {
                return Err(format!(
                    "nginx on port {} did not listen within 10 s",
                    self.port
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Opens a connection (to send on later with [`send`]).
    pub fn open(&self) -> Result<TcpStream, String> {
        let s = TcpStream::connect(("127.0.0.1", self.port))
            .map_err(|e| format!("cannot connect to nginx: {e}"))?;
        s.set_read_timeout(Some(Duration::from_secs(30)))
            .map_err(|e| e.to_string())?;
        s.set_nodelay(true).map_err(|e| e.to_string())?;
        Ok(s)
    }

    /// The access log so far, in the order nginx wrote it.
    pub fn log(&self) -> Result<Vec<Logged>, String> {
        let text = std::fs::read_to_string(self.dir.path().join("access.log"))
            .map_err(|e| format!("cannot read nginx's access log: {e}"))?;
        text.lines().map(parse_line).collect()
    }
}

/// Sends `GET uri` on `stream` (one request, then the connection closes) and
/// returns the status.
pub fn send(mut stream: TcpStream, uri: &str) -> Result<u16, String> {
    stream
        .write_all(
            format!("GET {uri} HTTP/1.1\r\nHost: ratelab\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .map_err(|e| format!("cannot send to nginx: {e}"))?;
    let mut reply = String::new();
    stream
        .read_to_string(&mut reply)
        .map_err(|e| format!("no reply from nginx: {e}"))?;
    reply
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("not an HTTP reply: {:?}", reply.lines().next()))
}

/// `1733000000.123 0.105 200 /x` → start 1733000000018 ms, held 105 ms.
fn parse_line(line: &str) -> Result<Logged, String> {
    let bad = || format!("unexpected access log line {line:?}");
    let mut f = line.split(' ');
    let ms = |s: Option<&str>| -> Option<u64> {
        let (whole, frac) = s?.split_once('.')?;
        (frac.len() == 3).then_some(())?;
        Some(whole.parse::<u64>().ok()? * 1000 + frac.parse::<u64>().ok()?)
    };
    let end = ms(f.next()).ok_or_else(bad)?;
    let held = ms(f.next()).ok_or_else(bad)?;
    let status = f.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?;
    let uri = f.next().ok_or_else(bad)?.to_string();
    Ok(Logged {
        start_ms: end.checked_sub(held).ok_or_else(bad)?,
        held_ms: held,
        status,
        uri,
    })
}

/// The version `nginx -v` reports, e.g. `1.22.1`.
pub fn version() -> Result<String, String> {
    let out = Command::new(find_binary("nginx")?)
        .arg("-v")
        .output()
        .map_err(|e| format!("cannot run nginx -v: {e}"))?;
    let text = String::from_utf8_lossy(&out.stderr);
    text.split_whitespace()
        .find_map(|w| w.strip_prefix("nginx/"))
        .map(str::to_string)
        .ok_or_else(|| format!("cannot read a version from {text:?}"))
}

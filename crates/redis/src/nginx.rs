//! A throwaway nginx of our own: a generated configuration that serves one static
//! file behind the `limit_req` lines under test (nginx runs `return` before
//! `limit_req`, so a limit must guard real content), in a temporary directory, on a
//! free loopback port, one process, stopped when dropped. Its access log records
//! nginx's own clock for each request (`$msec` and `$request_time`).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::server::{find_binary, start_on_free_port, Guard, TempDir};

/// A running nginx.
#[derive(Debug)]
pub struct Nginx {
    // Held for its drop (stopping nginx), before the directory goes.
    _guard: Guard,
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
        let (guard, port, dir) = start_on_free_port(
            "nginx",
            "error.log",
            |port, dir| {
                write_config(dir, port, zone, limit)?;
                Command::new(&binary)
                    .arg("-p")
                    .arg(dir)
                    .arg("-c")
                    .arg(dir.join("nginx.conf"))
                    .arg("-e")
                    .arg(dir.join("error.log"))
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .map_err(|e| format!("cannot start {}: {e}", binary.display()))
            },
            // Ours: nginx writes its pid file once it has bound the port (an nginx
            // that could not bind it exits first).
            |port, dir| {
                dir.join("nginx.pid").is_file() && TcpStream::connect(("127.0.0.1", port)).is_ok()
            },
        )?;
        Ok(Nginx {
            _guard: guard,
            port,
            dir,
        })
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

/// One process (`master_process off`), in the foreground, everything in `dir`: the
/// page, the logs, the temporary paths (Debian's defaults are under /var).
fn write_config(dir: &Path, port: u16, zone: &str, limit: &str) -> Result<(), String> {
    let d = dir.display();
    std::fs::create_dir_all(dir.join("html")).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("html/index.html"), "ok\n").map_err(|e| e.to_string())?;
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
    std::fs::write(dir.join("nginx.conf"), conf).map_err(|e| e.to_string())
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

//! `ratelab redis ...` and `ratelab lua ...` against a redis-server of the test's own.

use crate::support;

use std::time::Duration;

use ratelab_redis::server::{free_port, RedisServer};
use support::ratelab;

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden.json");

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn redis_simulate_prints_the_engines_report_and_says_so() {
    let server = RedisServer::start().unwrap();
    let url = server.url();
    let through_redis = ratelab(&["redis", "simulate", GOLDEN, "--url", &url], b"");
    let engine = ratelab(&["simulate", GOLDEN], b"");
    assert_eq!(
        through_redis.status.code(),
        Some(0),
        "{}",
        text(&through_redis.stderr)
    );
    assert_eq!(
        through_redis.stdout, engine.stdout,
        "the same bytes as ratelab simulate"
    );
    let note = text(&through_redis.stderr);
    assert!(
        note.starts_with("redis: the same report as the engine ("),
        "{note}"
    );
    // Its keys are removed afterwards, so it can run again at once.
    let again = ratelab(&["redis", "simulate", GOLDEN, "--url", &url], b"");
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    // Through the function library: the same report.
    let fcall = ratelab(
        &["redis", "simulate", GOLDEN, "--url", &url, "--fcall"],
        b"",
    );
    assert_eq!(fcall.status.code(), Some(0), "{}", text(&fcall.stderr));
    assert_eq!(fcall.stdout, engine.stdout, "--fcall: the same bytes");
    // From standard input, a scenario.
    let lab_c = ratelab(
        &["redis", "simulate", "--url", &url],
        br#"{"scenario": "lab-c"}"#,
    );
    assert_eq!(lab_c.status.code(), Some(0), "{}", text(&lab_c.stderr));
    assert_eq!(
        lab_c.stdout,
        ratelab(&["simulate"], br#"{"scenario": "lab-c"}"#).stdout
    );
}

#[test]
fn a_missing_server_is_one_line_with_the_url_and_status_2() {
    let url = format!("redis://127.0.0.1:{}", free_port().unwrap());
    let out = ratelab(&["redis", "simulate", GOLDEN, "--url", &url], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert!(
        err.starts_with(&format!("error: {url}: cannot connect: ")),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn a_server_going_away_mid_run_reports_nothing_half_written() {
    let server = RedisServer::start().unwrap();
    let url = server.url();
    let input = br#"{"scenario": "poisson", "clients": 200, "duration_ms": 600000,
        "limiters": [{"algorithm": "sliding_log"}, {"algorithm": "gcra"}, {"algorithm": "nginx", "burst": 5}]}"#;
    // Stopped once the run is writing.
    let mut watch = server.connect().unwrap();
    let killer = std::thread::spawn(move || {
        let dbsize = ratelab_redis::redis::cmd("DBSIZE");
        let started = std::time::Instant::now();
        while watch.command(&dbsize).unwrap() == ratelab_redis::redis::Value::Int(0)
            && started.elapsed() < Duration::from_secs(60)
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        server.stop();
    });
    let out = ratelab(&["redis", "simulate", "--url", &url], input);
    killer.join().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "no report");
    let err = text(&out.stderr);
    assert!(err.starts_with(&format!("error: {url}: ")), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_foreign_key_under_the_prefix_stops_the_run_unless_forced() {
    let server = RedisServer::start().unwrap();
    let url = server.url();
    let mut redis = server.connect().unwrap();
    redis
        .command(
            ratelab_redis::redis::cmd("SET")
                .arg("ratelab:v2:mine")
                .arg("1"),
        )
        .unwrap();
    let out = ratelab(&["redis", "simulate", GOLDEN, "--url", &url], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("already holds 1 key(s) this run did not create"));
    let other = ratelab(
        &[
            "redis", "simulate", GOLDEN, "--url", &url, "--prefix", "lab:x",
        ],
        b"",
    );
    assert_eq!(other.status.code(), Some(0), "{}", text(&other.stderr));
    let forced = ratelab(
        &["redis", "simulate", GOLDEN, "--url", &url, "--force"],
        b"",
    );
    assert_eq!(forced.status.code(), Some(0), "{}", text(&forced.stderr));
    // A key the script cannot read is the script's error, by name.
    let input = br#"{"requests": [0, 1], "limiters": [{"algorithm": "gcra", "limit": 5, "period_ms": 1000}]}"#;
    redis
        .command(
            ratelab_redis::redis::cmd("SET")
                .arg("ratelab:v9:{gcra:}")
                .arg("not a state"),
        )
        .unwrap();
    let out = ratelab(
        &[
            "redis",
            "simulate",
            "--url",
            &url,
            "--prefix",
            "ratelab:v9",
            "--force",
        ],
        input,
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!("error: {url}: script gcra.lua failed: ERR ratelab gcra: the key holds not a state, not this limiter's state\n")
    );
}

#[test]
fn the_labs_run_on_a_server() {
    let server = RedisServer::start().unwrap();
    let url = server.url();
    let race = ratelab(
        &[
            "redis",
            "race",
            "--url",
            &url,
            "--threads",
            "8",
            "--requests",
            "400",
            "--burst",
            "50",
        ],
        b"",
    );
    assert_eq!(race.status.code(), Some(0), "{}", text(&race.stderr));
    let out = text(&race.stdout);
    assert!(
        out.contains("token_bucket.lua            admits     50"),
        "{out}"
    );
    let memory = ratelab(&["redis", "memory", "--url", &url], b"");
    assert_eq!(memory.status.code(), Some(0), "{}", text(&memory.stderr));
    assert!(text(&memory.stdout).contains("skiplist"));
    // --keys with --url: the sum at what this server measured (the committed numbers
    // were measured on the same version, so the same totals).
    let memory = ratelab(&["redis", "memory", "--url", &url, "--keys", "1000"], b"");
    assert_eq!(memory.status.code(), Some(0), "{}", text(&memory.stderr));
    let out = text(&memory.stdout);
    assert!(
        out.contains("1000 keys at the bytes per key measured on redis://"),
        "{out}"
    );
    assert!(
        out.contains(
            "\ngcra                                  104  104\u{a0}000 bytes ≈ 101.5 KiB\n"
        ),
        "{out}"
    );
}

#[test]
fn lua_prints_the_script_the_call_and_nginx_lines() {
    let out = ratelab(
        &[
            "lua", "gcra", "--limit", "5", "--period", "10s", "--burst", "5",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    assert!(s.starts_with("-- ratelab gcra"), "{s}");
    assert!(!s.contains("redis-cli"), "the script alone: {s}");
    let notes = text(&out.stderr);
    assert!(notes.starts_with("# The script alone is on standard output; to save it:\nratelab lua gcra --limit 5 --period 10s --burst 5 > gcra.lua\n"), "{notes}");
    assert!(notes.contains(&format!(
        "redis-cli EVALSHA {} 1 'ratelab:v2:{{gcra:client-42}}' TIME 1 0 5 10000 5",
        ratelab_scripts::script(ratelab_core::Algorithm::Gcra)
            .unwrap()
            .sha1
    )));
    let s = text(
        &ratelab(
            &[
                "lua",
                "nginx",
                "--limit",
                "10",
                "--period",
                "1s",
                "--burst",
                "5",
                "--nodelay",
            ],
            b"",
        )
        .stderr,
    );
    assert!(
        s.contains("limit_req_zone $binary_remote_addr zone=ratelab:10m rate=10r/s;"),
        "{s}"
    );
    assert!(s.contains("limit_req zone=ratelab burst=5 nodelay;"), "{s}");
    // The same lane's Rust and JS lines, from the lane's limiter object.
    let json =
        r#"{"algorithm": "nginx", "limit": 10, "period_ms": 1000, "burst": 5, "nodelay": true}"#;
    assert!(
        s.contains(&format!(
            "# The same lane in Rust (ratelab-tower; in memory, .redis(url) to share it):\n\
             let layer = ratelab_tower::RateLimitLayer::builder()\n    \
             .limit(ratelab_tower::Limit::from_json(r#\"{json}\"#)?)\n    \
             .build()?; // then Router::layer(layer), or any tower service\n"
        )),
        "{s}"
    );
    assert!(
        s.contains(&format!(
            "# And in JavaScript (ratelab.js in a page; Node and Workers load ratelab-files.js):\n\
             import {{ load }} from './ratelab.js';\n\
             const limit = (await load()).limiter({json});\n\
             const {{ status, headers, body }} = limit.check(Math.floor(performance.now()), 1, \"client-42\");"
        )),
        "{s}"
    );
    let s = text(&ratelab(&["lua", "--teaching"], b"").stdout);
    assert!(s.contains("WRONG ON PURPOSE"));
    let bad = ratelab(
        &[
            "lua",
            "token_bucket",
            "--burst",
            "4000000000",
            "--period",
            "1h",
        ],
        b"",
    );
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        text(&bad.stderr),
        "error: burst: 4000000000 is too large for this period_ms (at most 625499948, so that burst · period_ms stays below 2^51 in Redis's Lua numbers)\n"
    );
    let teaching = ratelab(&["lua", "token_bucket_f64"], b"");
    assert_eq!(teaching.status.code(), Some(2));
    assert!(text(&teaching.stderr).contains("teaching variants and has no Redis script"));
}

/// The printed instructions, followed to the letter in a shell: `ratelab lua`'s
/// notes say how to save the script, load it and call it; each of those lines runs
/// as printed (`sh -c`, in a directory of its own, with `redis-cli` and `ratelab` on
/// the PATH; `redis-cli` is a two-line wrapper giving the port of this test's server,
/// which is the one thing a person's default differs in). The file holds exactly
/// the script, SCRIPT LOAD answers the SHA1 printed, EVALSHA by that name decides as
/// the engine does, and so does `--eval`, for every limiter.
#[test]
fn every_script_works_as_printed_in_a_shell() {
    use ratelab_core::{Algorithm, AnyLimiter, Limiter, Params};

    let server = RedisServer::start().unwrap();
    let (dir, path) = shell_dir(&server, "lua-as-printed");
    let sh = |line: &str| sh(&dir, &path, line);

    let mut n = 0;
    for algorithm in Algorithm::ALL {
        let Some(script) = ratelab_scripts::script(algorithm) else {
            continue;
        };
        let id = algorithm.id();
        let args = ["lua", id, "--limit", "3", "--period", "10m"];
        let printed = ratelab(&args, b"");
        assert_eq!(printed.status.code(), Some(0), "{}", text(&printed.stderr));
        assert_eq!(
            text(&printed.stdout),
            script.text(),
            "{id}: the script alone"
        );
        let notes = text(&printed.stderr);
        let commands: Vec<&str> = notes
            .lines()
            .filter(|l| l.starts_with("ratelab ") || l.starts_with("redis-cli "))
            .collect();
        let [save, load, evalsha, eval] = commands[..] else {
            panic!("{id}: four command lines expected:\n{notes}");
        };
        let file = dir.path().join(format!("{id}.lua"));
        let _ = std::fs::remove_file(&file);
        sh(save);
        assert_eq!(
            std::fs::read(&file).unwrap(),
            script.text().as_bytes(),
            "{id}: `{save}` writes the script, byte for byte"
        );
        assert_eq!(
            sh(load).trim_end(),
            script.sha1,
            "{id}: `{load}` answers the SHA1 printed"
        );
        assert!(
            notes.contains(&format!("(prints {}, ", script.sha1)),
            "{notes}"
        );
        assert!(evalsha.contains(script.sha1), "{evalsha}");
        // Three per 10 minutes: four requests by name, a fifth through `--eval`, each
        // decided by the engine too at the server time the reply says it used.
        let mut engine = AnyLimiter::new(algorithm, &Params::new(3, 600_000)).unwrap();
        for (i, line) in [evalsha, evalsha, evalsha, evalsha, eval]
            .iter()
            .enumerate()
        {
            let reply = sh(line);
            let fields: Vec<&str> = reply.lines().collect();
            assert_eq!(fields.len(), 11, "{id}: `{line}` answered {reply:?}");
            let d = engine.check(fields[9].parse().unwrap(), 1).unwrap();
            assert_eq!(
                (fields[0], fields[7]),
                (
                    if d.allowed() { "1" } else { "0" },
                    d.remaining().to_string().as_str()
                ),
                "{id}: request {} through `{line}`: {reply:?}",
                i + 1
            );
        }
        n += 1;
    }
    assert_eq!(n, 8);
}

/// A directory of its own for following printed lines, with `redis-cli` (a
/// two-line wrapper giving `server`'s port) and `ratelab` first on the PATH: the
/// directory and that PATH.
fn shell_dir(server: &RedisServer, tag: &str) -> (ratelab_redis::server::TempDir, String) {
    use ratelab_redis::server::{find_binary, TempDir};
    use std::os::unix::fs::PermissionsExt;

    let dir = TempDir::new(tag).unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let wrapper = bin.join("redis-cli");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nexec '{}' -p {} \"$@\"\n",
            find_binary("redis-cli").unwrap().display(),
            server.port()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_ratelab"), bin.join("ratelab")).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (dir, path)
}

/// Runs `line` with `sh -c` in `dir` with `path`; its standard output, and it must
/// succeed.
fn sh(dir: &ratelab_redis::server::TempDir, path: &str, line: &str) -> String {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(dir.path())
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{line}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// `ratelab lua --library`'s printed lines followed to the letter in a shell, as
/// for the scripts above: the file holds exactly the library, `FUNCTION LOAD`
/// answers its name, and each limiter's `FCALL` line, sent four times, decides as
/// the engine does; `--help` says so, and one ALGORITHM gives its line alone.
#[test]
fn the_function_library_works_as_printed_in_a_shell() {
    use ratelab_core::{Algorithm, AnyLimiter, Limiter, Params};
    use ratelab_scripts::library;

    let server = RedisServer::start().unwrap();
    let (dir, path) = shell_dir(&server, "library-as-printed");
    let sh = |line: &str| sh(&dir, &path, line);

    let printed = ratelab(
        &["lua", "--library", "--limit", "3", "--period", "10m"],
        b"",
    );
    assert_eq!(printed.status.code(), Some(0), "{}", text(&printed.stderr));
    assert_eq!(text(&printed.stdout), library::text(), "the library alone");
    let notes = text(&printed.stderr);
    let commands: Vec<&str> = notes
        .lines()
        .filter(|l| l.starts_with("ratelab ") || l.starts_with("redis-cli "))
        .collect();
    let [save, load, calls @ ..] = &commands[..] else {
        panic!("command lines expected:\n{notes}");
    };
    assert_eq!(calls.len(), 8, "{notes}");
    sh(save);
    assert_eq!(
        std::fs::read(dir.path().join("ratelab.lua")).unwrap(),
        library::text().as_bytes(),
        "`{save}` writes the library, byte for byte"
    );
    assert_eq!(sh(load).trim_end(), library::NAME, "`{load}`");
    // Loading it again (a deploy of the same version) replaces it.
    assert_eq!(sh(load).trim_end(), library::NAME, "`{load}` again");
    let mut n = 0;
    for algorithm in Algorithm::ALL {
        let Some(function) = library::function(algorithm) else {
            continue;
        };
        let line = calls
            .iter()
            .find(|l| l.starts_with(&format!("redis-cli FCALL {function} ")))
            .unwrap_or_else(|| panic!("{function}: no line in\n{notes}"));
        // Three per 10 minutes: four requests, each decided by the engine too at the
        // server time the reply says it used.
        let mut engine = AnyLimiter::new(algorithm, &Params::new(3, 600_000)).unwrap();
        for i in 0..4 {
            let reply = sh(line);
            let fields: Vec<&str> = reply.lines().collect();
            assert_eq!(fields.len(), 11, "`{line}` answered {reply:?}");
            let d = engine.check(fields[9].parse().unwrap(), 1).unwrap();
            assert_eq!(
                (fields[0], fields[7]),
                (
                    if d.allowed() { "1" } else { "0" },
                    d.remaining().to_string().as_str()
                ),
                "request {} through `{line}`: {reply:?}",
                i + 1
            );
        }
        n += 1;
    }
    assert_eq!(n, 8);
    let one = text(&ratelab(&["lua", "gcra", "--library", "--burst", "20"], b"").stderr);
    let lines: Vec<&str> = one.lines().filter(|l| l.contains(" FCALL ")).collect();
    assert_eq!(
        lines,
        ["redis-cli FCALL ratelab_gcra 1 'ratelab:v2:{gcra:client-42}' TIME 1 0 100 60000 20"]
    );
    let help = text(&ratelab(&["lua", "--help"], b"").stdout);
    assert!(
        help.contains("ratelab lua --library > ratelab.lua\n"),
        "{help}"
    );
    assert!(
        help.contains("redis-cli -x FUNCTION LOAD REPLACE < ratelab.lua\n"),
        "{help}"
    );
    let bad = ratelab(&["lua", "--library", "--limit", "0"], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        !text(&bad.stderr).trim_end().contains('\n'),
        "{}",
        text(&bad.stderr)
    );
}

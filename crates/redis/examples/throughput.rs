//! Decisions per second through each script on a local redis-server of its own,
//! pipelined from Rust, next to plain `INCR`, two floors (`EVALSHA` of `return 1`,
//! the least a script call costs; and a script that only GETs and SETs its key, the
//! least a read-modify-write script costs) and a yardstick, a minimal GCRA written
//! the way the common open-source scripts are ([`FLOAT_GCRA`]), measured in the same
//! rounds. Each limiter runs three times: through `RedisLimiter` on lab D's virtual
//! times (`<id>`), as a bare script on the server's clock (`<id>@TIME`), sent
//! exactly as the yardstick is and right after it, with the same key for each call,
//! and then the same calls as `FCALL` of its function in the library (`<id>@FCALL`,
//! on keys of its own).
//! `cargo xtask bench` runs it; it prints one line per measurement for xtask to read:
//!
//! ```text
//! redis-version 7.0.15
//! batch <calls per pipeline>
//! round <r> <id> <calls> <seconds>
//! instructions <id> <per call>
//! ```
//!
//! The `instructions` lines, when valgrind is installed: each script's instructions
//! per call inside Redis's `EVALSHA` (callgrind, `--toggle-collect=evalShaCommand`;
//! for `<id>@FCALL`, inside `FCALL`: `fcallCommand`),
//! on a redis-server of its own started under valgrind for that script alone, after
//! [`IR_CALLS`] calls on the server's clock over [`IR_KEYS`] keys (about half of
//! them allowed). Unlike the rounds' times these do not move with the machine's
//! load: they are the profile to optimise against.
//!
//! `--quick` for fewer calls and one round; `--instructions [ID...]` for only the
//! instruction counts (of those ids, e.g. `gcra float_gcra`), in seconds. Nothing
//! here asserts a time.

use std::time::Instant;

use ratelab_core::Algorithm;
use ratelab_redis::redis::{self, Value};
use ratelab_redis::server::RedisServer;
use ratelab_redis::{Clock, Redis, RedisLimiter, BATCH};
use ratelab_scripts::{library, KeySpace};
use ratelab_sim::sweep::SweepSpec;
use ratelab_sim::traffic::Poisson;

/// What any script call costs, measured with the same arguments as a limiter's: the
/// call itself, and a read and a write (the least a read-modify-write script does).
const FLOORS: [(&str, &str); 2] = [
    ("eval_return_1", "return 1"),
    (
        "eval_get_set",
        "local v = redis.call('GET', KEYS[1]) redis.call('SET', KEYS[1], '1:2', 'PX', '60000') return 1",
    ),
];

/// The yardstick: GCRA as the widely copied scripts write it (written here from that
/// description): the server's TIME in float seconds, the theoretical arrival time
/// stored as a float, float arithmetic, SET EX; ARGV burst, rate, period in s, cost.
/// Its decisions are not exact (ratelab's are); it is only timed.
const FLOAT_GCRA: &str = r#"local burst, rate, period, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local interval = period / rate
local t = redis.call('TIME')
local now = (t[1] - 1600000000) + t[2] / 1000000
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then tat = now end
local new_tat = tat + cost * interval
local diff = now - (new_tat - burst * interval)
local remaining = math.floor(diff / interval)
if remaining < 0 then
  return {0, 0, tostring(-diff), tostring(tat - now)}
end
local reset = new_tat - now
redis.call('SET', KEYS[1], new_tat, 'EX', math.ceil(reset))
return {cost, remaining, '-1', tostring(reset)}
"#;

/// Calls per script for the instruction counts, and the keys they cycle over.
const IR_CALLS: usize = 6_000;
const IR_KEYS: usize = 30;

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    // `--instructions [ID...]`: only the instruction counts, of these ids (`gcra`,
    // `float_gcra`, ...; all when none), without the timed rounds.
    let only: Option<Vec<&str>> = args.iter().position(|a| a == "--instructions").map(|i| {
        args[i + 1..]
            .iter()
            .map(String::as_str)
            .filter(|a| !a.starts_with("--"))
            .collect()
    });
    let (calls, rounds) = match (quick, &only) {
        (_, Some(_)) => (0, 0),
        (true, None) => (20_000, 1),
        (false, None) => (100_000, 5),
    };
    let server = RedisServer::start()?;
    let mut redis = server.connect().map_err(|e| e.to_string())?;
    println!("redis-version {}", RedisServer::version()?);
    println!("batch {BATCH}");
    // Lab D's 1x traffic: 300 clients at 100 per minute, the first `calls` requests.
    let spec = SweepSpec::lab_d(1);
    let stream = Poisson {
        clients: spec.clients,
        load_permille: 1000,
        limit: spec.limit,
        period_ms: spec.period_ms,
        duration_ms: spec.duration_ms,
        seed: spec.seed,
    }
    .stream()
    .map_err(|e| e.to_string())?;
    let requests: Vec<(&str, Clock, u32)> = stream
        .requests
        .iter()
        .take(calls)
        .map(|r| (stream.key_name(r.key).unwrap_or(""), Clock::At(r.t), 1))
        .collect();
    let keys: Vec<String> = (0..spec.clients)
        .map(|c| format!("ratelab:bench:{{c{c}}}"))
        .collect();
    let float_keys: Vec<String> = (0..spec.clients)
        .map(|c| format!("ratelab:bench:{{float:c{c}}}"))
        .collect();
    let float_sha = load(&mut redis, FLOAT_GCRA)?;
    redis.load_library().map_err(|e| e.to_string())?;
    let period_s = (spec.period_ms / 1000).to_string();
    let space = KeySpace::new("ratelab:bench").map_err(|e| e.to_string())?;
    let limiters: Vec<Algorithm> = Algorithm::ALL
        .into_iter()
        .filter(|a| !a.is_teaching())
        .collect();
    for round in 1..=rounds {
        let (n, s) = timed(requests.len(), |i0, i1| {
            pipeline(
                &mut redis,
                (i0..i1).map(|i| {
                    let mut c = redis::cmd("INCR");
                    c.arg(&keys[i % keys.len()]);
                    c
                }),
            )
        })?;
        println!("round {round} incr {n} {s:.6}");
        for (id, text) in FLOORS {
            let sha = load(&mut redis, text)?;
            let (n, s) = timed(requests.len(), |i0, i1| {
                pipeline(
                    &mut redis,
                    (i0..i1).map(|i| {
                        let mut c = redis::cmd("EVALSHA");
                        c.arg(&sha)
                            .arg(1)
                            .arg(&keys[i % keys.len()])
                            .arg(i)
                            .arg(1)
                            .arg(0)
                            .arg(100)
                            .arg(60000);
                        c
                    }),
                )
            })?;
            println!("round {round} {id} {n} {s:.6}");
        }
        // The yardstick, burst = limit as the limiters below have it, right before
        // each limiter on the server's clock: each is compared with its neighbour,
        // so a machine getting busier within a round moves both. Its keys start
        // afresh each time, as the limiter's do.
        let yardstick = |redis: &mut Redis, round: usize| -> Result<(), String> {
            redis
                .command(redis::cmd("DEL").arg(&float_keys))
                .map_err(|e| e.to_string())?;
            let (n, s) = timed(requests.len(), |i0, i1| {
                pipeline(
                    redis,
                    (i0..i1).map(|i| {
                        let mut c = redis::cmd("EVALSHA");
                        c.arg(&float_sha)
                            .arg(1)
                            .arg(&float_keys[i % float_keys.len()])
                            .arg(spec.limit)
                            .arg(spec.limit)
                            .arg(&period_s)
                            .arg(1);
                        c
                    }),
                )
            })?;
            println!("round {round} float_gcra {n} {s:.6}");
            Ok(())
        };
        let params = ratelab_core::Params::new(spec.limit, spec.period_ms);
        for &a in &limiters {
            // Through ratelab-redis, as a Rust service calls it: the requests checked,
            // the replies read into decisions.
            let mut l = RedisLimiter::new(&format!("{}-{round}", a.id()), a, &params, &space)
                .map_err(|e| e.to_string())?;
            let started = Instant::now();
            l.check_many(&mut redis, &requests)
                .map_err(|e| e.to_string())?;
            println!(
                "round {round} {} {} {:.6}",
                a.id(),
                requests.len(),
                started.elapsed().as_secs_f64()
            );
            // The bare script on the server's clock, sent exactly as the yardstick
            // is (EVALSHA in a pipeline, the replies left unread), right after it.
            yardstick(&mut redis, round)?;
            let l = RedisLimiter::new(&format!("{}@TIME-{round}", a.id()), a, &params, &space)
                .map_err(|e| e.to_string())?;
            let sha = load(&mut redis, l.lane().script().text())?;
            let names: Vec<Vec<String>> = (0..float_keys.len())
                .map(|c| l.keys(&format!("c{c}")))
                .collect();
            let mut args = vec!["TIME".to_string(), "1".into(), "0".into()];
            args.extend(l.lane().params_args());
            let (n, s) = timed(requests.len(), |i0, i1| {
                pipeline(
                    &mut redis,
                    (i0..i1).map(|i| {
                        let keys = &names[i % names.len()];
                        let mut c = redis::cmd("EVALSHA");
                        c.arg(&sha).arg(keys.len()).arg(keys).arg(&args);
                        c
                    }),
                )
            })?;
            println!("round {round} {}@TIME {n} {s:.6}", a.id());
            // The same calls through the function library, on keys of their own.
            let function = library::function(a).ok_or("no function")?;
            let names: Vec<Vec<String>> = (0..float_keys.len())
                .map(|c| l.keys(&format!("f{c}")))
                .collect();
            let (n, s) = timed(requests.len(), |i0, i1| {
                pipeline(
                    &mut redis,
                    (i0..i1).map(|i| {
                        let keys = &names[i % names.len()];
                        let mut c = redis::cmd("FCALL");
                        c.arg(function).arg(keys.len()).arg(keys).arg(&args);
                        c
                    }),
                )
            })?;
            println!("round {round} {}@FCALL {n} {s:.6}", a.id());
        }
        redis
            .command(&redis::cmd("FLUSHALL"))
            .map_err(|e| e.to_string())?;
    }
    if std::process::Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        let params = ratelab_core::Params::new(spec.limit, spec.period_ms);
        let burst = spec.limit.to_string();
        let float_args = vec![burst.clone(), burst, period_s.clone(), "1".into()];
        // (id, script text or None for the library, its function, keys, arguments)
        type Run = (String, String, Option<&'static str>, usize, Vec<String>);
        let mut runs: Vec<Run> = FLOORS
            .iter()
            .map(|(id, text)| {
                let args = ["TIME", "1", "0", "100", "60000"]
                    .map(String::from)
                    .to_vec();
                (id.to_string(), text.to_string(), None, 1, args)
            })
            .collect();
        runs.push(("float_gcra".into(), FLOAT_GCRA.into(), None, 1, float_args));
        for &a in &limiters {
            let l = RedisLimiter::new("ir", a, &params, &space).map_err(|e| e.to_string())?;
            let mut args = vec!["TIME".to_string(), "1".into(), "0".into()];
            args.extend(l.lane().params_args());
            let n = l.keys("c").len();
            runs.push((
                format!("{}@TIME", a.id()),
                l.lane().script().text().into(),
                None,
                n,
                args.clone(),
            ));
            runs.push((
                format!("{}@FCALL", a.id()),
                library::text().into(),
                library::function(a),
                n,
                args,
            ));
        }
        // `gcra` asks for gcra@TIME, `gcra@FCALL` for the function alone.
        runs.retain(|(id, ..)| {
            only.as_ref().is_none_or(|o| {
                o.is_empty()
                    || o.iter()
                        .any(|w| id == w || id.strip_suffix("@TIME") == Some(w))
            })
        });
        for (id, text, function, nkeys, args) in runs {
            println!(
                "instructions {id} {}",
                instructions(&text, function, nkeys, &args)?
            );
        }
    } else if only.is_some() {
        return Err("--instructions needs valgrind".into());
    }
    Ok(())
}

/// A redis-server under callgrind, ended (and its directory removed) when dropped.
struct Valgrind {
    child: std::process::Child,
    dir: std::path::PathBuf,
}

impl Drop for Valgrind {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Instructions per call inside `EVALSHA` of `text` with `args` (or, with a
/// `function`, inside `FCALL` of it, `text` the library), its keys `<nkeys names>`
/// cycling over [`IR_KEYS`] clients (see the module's docs).
fn instructions(
    text: &str,
    function: Option<&str>,
    nkeys: usize,
    args: &[String],
) -> Result<u64, String> {
    let port = ratelab_redis::server::free_port()?;
    let dir = std::env::temp_dir().join(format!("ratelab-ir-{}-{port}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let out = dir.join("callgrind.out");
    let child = std::process::Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(match function {
            Some(_) => "--toggle-collect=fcallCommand",
            None => "--toggle-collect=evalShaCommand",
        })
        .arg(ratelab_redis::server::find_binary("redis-server")?)
        .args([
            "--port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
        ])
        .args(["--appendonly", "no", "--dir"])
        .arg(&dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("valgrind: {e}"))?;
    let mut vg = Valgrind { child, dir };
    let url = format!("redis://127.0.0.1:{port}");
    let mut redis = None;
    for _ in 0..300 {
        if let Ok(r) = Redis::connect(&url) {
            redis = Some(r);
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let mut redis = redis.ok_or("redis-server under valgrind did not answer in 30 s")?;
    let sha = match function {
        Some(f) => {
            match redis.command(redis::cmd("FUNCTION").arg("LOAD").arg(text)) {
                Ok(Value::BulkString(_)) => {}
                other => return Err(format!("FUNCTION LOAD answered {other:?}")),
            }
            f.to_string()
        }
        None => load(&mut redis, text)?,
    };
    let keys: Vec<Vec<String>> = (0..IR_KEYS)
        .map(|c| {
            (0..nkeys)
                .map(|k| format!("ratelab:ir:{{c{c}}}:{k}"))
                .collect()
        })
        .collect();
    timed(IR_CALLS, |i0, i1| {
        pipeline(
            &mut redis,
            (i0..i1).map(|i| {
                let mut c = redis::cmd(if function.is_some() {
                    "FCALL"
                } else {
                    "EVALSHA"
                });
                c.arg(&sha).arg(nkeys).arg(&keys[i % IR_KEYS]).arg(args);
                c
            }),
        )
    })?;
    let _ = redis.command(redis::cmd("SHUTDOWN").arg("NOSAVE"));
    let status = vg.child.wait().map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(&out)
        .map_err(|e| format!("valgrind ({status}) left no {}: {e}", out.display()))?;
    let total: u64 = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("totals: ")
                .or_else(|| l.strip_prefix("summary: "))
        })
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .ok_or_else(|| format!("{}: no totals line", out.display()))?;
    Ok(total / IR_CALLS as u64)
}

/// `SCRIPT LOAD`s `text`; its SHA1.
fn load(redis: &mut Redis, text: &str) -> Result<String, String> {
    match redis.command(redis::cmd("SCRIPT").arg("LOAD").arg(text)) {
        Ok(Value::BulkString(b)) => Ok(String::from_utf8_lossy(&b).into_owned()),
        other => Err(format!("SCRIPT LOAD answered {other:?}")),
    }
}

/// Runs `send(from, to)` over `n` calls in batches of [`BATCH`], timed.
fn timed(
    n: usize,
    mut send: impl FnMut(usize, usize) -> Result<(), String>,
) -> Result<(usize, f64), String> {
    let started = Instant::now();
    let mut i = 0;
    while i < n {
        let j = (i + BATCH).min(n);
        send(i, j)?;
        i = j;
    }
    Ok((n, started.elapsed().as_secs_f64()))
}

fn pipeline(redis: &mut Redis, cmds: impl Iterator<Item = redis::Cmd>) -> Result<(), String> {
    let mut p = redis::pipe();
    for c in cmds {
        p.add_command(c);
    }
    let replies: Vec<Value> = p.query(redis.connection()).map_err(|e| e.to_string())?;
    match replies.iter().find(|v| matches!(v, Value::ServerError(_))) {
        Some(e) => Err(format!("{e:?}")),
        None => Ok(()),
    }
}

//! `ratelab redis ...` (the JSON format, the race lab and the memory lab on a Redis
//! server) and `ratelab lua ...` (the scripts and nginx lines as text).

use ratelab_core::{Algorithm, Params};
use ratelab_redis::labs::{memory, race};
use ratelab_redis::replay::{replay, ReplayOptions};
use ratelab_redis::{Form, Redis};
use ratelab_scripts::nginx::config as nginx_config;
use ratelab_scripts::teaching::TEACHING;
use ratelab_scripts::{
    memory as lab_memory, shell_quote, KeySpace, LuaLane, LOG_MEMORY, REDIS_VERSION,
};
use ratelab_sim::share::{parse_count, parse_duration};
use ratelab_sim::Config;

use crate::table::{render as table, Align};
use crate::{read_input, split_file, Failure, Output};

/// The server when no `--url` is given.
pub const DEFAULT_URL: &str = "redis://127.0.0.1:6379";

/// Options shared by the `redis` commands.
struct Flags {
    url: String,
    prefix: String,
    force: bool,
    keep: bool,
    fcall: bool,
    slack_ms: u64,
    threads: usize,
    requests: usize,
    burst: u64,
    /// `memory --keys N`: the learner's key count.
    keys: Option<u64>,
    /// Whether `--url` was given (`memory --keys N` without it needs no server).
    url_given: bool,
    lang: ratelab_learn::lesson::Lang,
}

fn flags(list: &[String]) -> Result<Flags, Failure> {
    let mut f = Flags {
        url: DEFAULT_URL.into(),
        prefix: ratelab_scripts::DEFAULT_PREFIX.into(),
        force: false,
        keep: false,
        fcall: false,
        slack_ms: ratelab_redis::DEFAULT_SLACK_MS,
        threads: 16,
        requests: 640,
        burst: 100,
        keys: None,
        url_given: false,
        lang: ratelab_learn::lesson::Lang::En,
    };
    let mut it = list.iter();
    while let Some(flag) = it.next() {
        let mut value = || value_of(flag, &mut it);
        match flag.as_str() {
            "--url" => {
                f.url = value()?;
                f.url_given = true;
            }
            "--keys" => {
                let text = value()?;
                f.keys = Some(
                    parse_count(&text, MAX_KEYS).map_err(|e| Failure(format!("--keys: {e}")))?,
                );
            }
            "--lang" => {
                let v = value()?;
                f.lang = ratelab_learn::lesson::Lang::from_id(&v).ok_or_else(|| {
                    Failure(format!(
                        "--lang: unknown language \"{v}\" (expected en or vi)"
                    ))
                })?;
            }
            "--prefix" => f.prefix = value()?,
            "--force" => f.force = true,
            "--keep" => f.keep = true,
            "--fcall" => f.fcall = true,
            "--slack" => {
                f.slack_ms =
                    parse_duration(&value()?).map_err(|e| Failure(format!("--slack: {e}")))?
            }
            "--threads" => f.threads = count("--threads", &value()?)? as usize,
            "--requests" => f.requests = count("--requests", &value()?)? as usize,
            "--burst" => f.burst = count("--burst", &value()?)?,
            other => return Err(Failure(format!("redis: unknown option {other}"))),
        }
    }
    Ok(f)
}

/// The most keys `redis memory --keys` sums (a trillion: far beyond one server).
const MAX_KEYS: u64 = 1_000_000_000_000;

/// The argument after `flag`.
fn value_of<'a>(flag: &str, it: &mut impl Iterator<Item = &'a String>) -> Result<String, Failure> {
    it.next()
        .cloned()
        .ok_or_else(|| Failure(format!("{flag}: needs a value")))
}

fn count(flag: &str, text: &str) -> Result<u64, Failure> {
    parse_count(text, u32::MAX as u64).map_err(|e| Failure(format!("{flag}: {e}")))
}

/// `ratelab redis <simulate|race|memory> ...`.
pub fn command(args: &[String]) -> Result<Output, Failure> {
    let (sub, rest) = match args.split_first() {
        Some((sub, rest)) => (sub.as_str(), rest),
        None => {
            return Err(Failure(
                "redis: which command? (simulate, race or memory)".into(),
            ))
        }
    };
    match sub {
        "simulate" => {
            let (file, list) = split_file(rest, &["--url", "--prefix", "--slack"])?;
            let f = flags(&list)?;
            let config = Config::from_json(&read_input(file)?)?;
            simulate(&config, &f)
        }
        "race" => {
            let f = flags(rest)?;
            let per_thread = f.requests.div_ceil(f.threads.max(1));
            let space = KeySpace::new(&f.prefix)?;
            let r = race(&f.url, &space, f.threads, per_thread, f.burst)?;
            Ok(Output::text(format!(
                "{} client threads, {} requests at one instant, one token bucket key of {} on {}\n\
                 engine                      admits {:>6}\n\
                 token_bucket.lua            admits {:>6}  (one script: read and write in one step)\n\
                 read-compute-write client   admits {:>6}  (HMGET, compute, HSET: wrong on purpose)\n",
                r.threads, r.requests, r.capacity, f.url, r.engine, r.script, r.read_compute_write
            )))
        }
        "memory" => {
            let f = flags(rest)?;
            if let (Some(keys), false) = (f.keys, f.url_given) {
                return Ok(Output::text(memory_explained(keys, f.lang)));
            }
            let space = KeySpace::new(&f.prefix)?;
            let mut redis = Redis::connect(&f.url)?;
            if !f.force {
                if let Some((found, example)) = ratelab_redis::replay::occupied(&mut redis, &space)?
                {
                    return Err(ratelab_redis::Error::Occupied {
                        url: f.url.clone(),
                        prefix: f.prefix.clone(),
                        found,
                        example,
                    }
                    .into());
                }
            }
            let m = memory(&mut redis, &space)?;
            let rows: Vec<Vec<String>> = m
                .rows
                .iter()
                .map(|r| {
                    vec![
                        r.algorithm.to_string(),
                        r.keys.to_string(),
                        r.bytes.to_string(),
                        r.encoding.clone(),
                    ]
                })
                .collect();
            let mut out = format!(
                "MEMORY USAGE on {} ({}):\n",
                f.url,
                m.rows.first().map_or("", |r| r.state.as_str())
            );
            out.push_str(&table(
                &["algorithm", "keys", "bytes", "encoding"],
                &[Align::Left, Align::Right, Align::Right, Align::Left],
                &rows,
            ));
            let rows: Vec<Vec<String>> = m
                .log
                .iter()
                .map(|r| {
                    vec![
                        r.entries.to_string(),
                        r.bytes.to_string(),
                        r.encoding.clone(),
                    ]
                })
                .collect();
            out.push_str("\nThe sliding log's sorted set:\n");
            out.push_str(&table(
                &["entries", "bytes", "encoding"],
                &[Align::Right, Align::Right, Align::Left],
                &rows,
            ));
            if !out.ends_with('\n') {
                out.push('\n');
            }
            if let Some(keys) = f.keys {
                let measured: Vec<(String, u64)> = m
                    .rows
                    .iter()
                    .map(|r| {
                        let what = if r.keys > 1 {
                            format!("{} ({} keys)", r.algorithm, r.keys)
                        } else {
                            r.algorithm.to_string()
                        };
                        (what, r.bytes)
                    })
                    .chain(
                        m.log
                            .iter()
                            .map(|l| (format!("sliding_log, {} entries", l.entries), l.bytes)),
                    )
                    .collect();
                out.push_str(&format!(
                    "\n{} keys at the bytes per key measured on {} just now:\n",
                    ratelab_learn::lesson::FactValue::Count(keys).text(f.lang),
                    f.url
                ));
                out.push_str(&capacity_table(keys, &measured, f.lang));
            } else {
                out.push_str("\n(--keys N: what N keys of each take; without --url, with the committed numbers and why they differ from the article's)\n");
            }
            Ok(Output::text(out))
        }
        other => Err(Failure(format!(
            "redis: unknown command \"{other}\" (expected simulate, race or memory)"
        ))),
    }
}

/// The report through Redis on stdout (the same bytes `ratelab simulate` prints
/// when they agree); whether it equals the engine's on stderr, and exit status 1
/// when it does not.
fn simulate(config: &Config, f: &Flags) -> Result<Output, Failure> {
    let options = ReplayOptions {
        space: KeySpace::new(&f.prefix)?,
        slack_ms: f.slack_ms,
        force: f.force,
        keep: f.keep,
        form: if f.fcall {
            Form::Function
        } else {
            Form::Script
        },
    };
    let mut redis = Redis::connect(&f.url)?;
    let r = replay(&mut redis, config, &options)?;
    let json = serde_json::to_string(&r.report).map_err(|e| Failure(e.to_string()))? + "\n";
    let mut note = if r.same() {
        format!(
            "redis: the same report as the engine ({} decisions through {} in {:.1} s, every number identical)",
            r.decisions,
            f.url,
            r.elapsed.as_secs_f64()
        )
    } else {
        let mut n = format!(
            "redis: DIFFERS from the engine in {} of {} decisions",
            r.differing, r.decisions
        );
        for d in &r.described {
            n.push_str("\n  ");
            n.push_str(d);
        }
        n
    };
    if config.sweep.is_some() {
        note.push_str("\nredis: lab D's sweep runs in the engine only (ratelab simulate); the report carries the lanes");
    }
    Ok(Output {
        stdout: json,
        stderr: Some(note),
        failed: !r.same(),
    })
}

/// `ratelab lua --help`.
pub const LUA_HELP: &str = "\
usage: ratelab lua ALGORITHM [--limit 100] [--period 1m] [--burst B] [--delay D] [--nodelay]
                             [--key client-42] [--prefix ratelab:v2]
       ratelab lua --library [ALGORITHM] [the same options]
       ratelab lua --teaching

Writes the limiter's Redis Lua script, and only the script, to standard output:
  ratelab lua gcra --limit 100 --period 1m --burst 20 > gcra.lua
How to load and call it goes to standard error (a terminal shows both): the SHA1 it
prints is that of the file's exact bytes, which is what
  redis-cli -x SCRIPT LOAD < gcra.lua
loads (not \"$(cat gcra.lua)\": the shell drops the last newline, and the SHA1
changes). Then, per request, with the lane's key and parameters:
  redis-cli EVALSHA <sha1> 1 'ratelab:v2:{gcra:client-42}' TIME 1 0 100 60000 20
or in one step: redis-cli --eval gcra.lua 'ratelab:v2:{gcra:client-42}' , TIME 1 0 100 60000 20
For nginx, standard error also has the limit_req lines of the same lane; for every
limiter, the same lane as Rust (a ratelab-tower layer) and JavaScript (ratelab.js's
limiter(config).check(...)) lines.

ALGORITHM: fixed_window, fixed_window_anchored, sliding_log, sliding_window_counter,
token_bucket, leaky_queue, gcra, nginx. --period takes ms or a duration (10s, 1m).
--key and --prefix only change the key in the example call.
--library writes instead the eight limiters as one Redis 7 function library, each
function its limiter's script (the same state, reply and errors), and on standard
error how to load it and call each limiter (or ALGORITHM's) by name:
  ratelab lua --library > ratelab.lua
  redis-cli -x FUNCTION LOAD REPLACE < ratelab.lua
  redis-cli FCALL ratelab_gcra 1 'ratelab:v2:{gcra:client-42}' TIME 1 0 100 60000 20
--teaching prints the wrong scripts people copy, labelled (to read, not to load).
";

/// `ratelab lua ALGORITHM [--limit N] [--period W] [--burst B] [--delay D]
/// [--nodelay] [--key K] [--prefix P]`, or `ratelab lua --teaching`.
pub fn lua(args: &[String]) -> Result<Output, Failure> {
    let Some((first, rest)) = args.split_first() else {
        return Err(Failure(
            "lua: which algorithm? (fixed_window, fixed_window_anchored, sliding_log, sliding_window_counter, token_bucket, leaky_queue, gcra, nginx; or --teaching)".into(),
        ));
    };
    if first == "--help" || first == "-h" {
        return Ok(Output::text(LUA_HELP.into()));
    }
    if first == "--teaching" {
        let mut out = String::new();
        for t in TEACHING {
            out.push_str(&format!(
                "== {} — {}\n-- {}\n{}\n",
                t.id,
                t.title,
                t.wrong,
                t.text()
            ));
        }
        return Ok(Output::text(out));
    }
    if args.iter().any(|a| a == "--library") {
        return library(args);
    }
    let algorithm = algorithm_of(first)?;
    let (params, key, prefix) = lane_options(rest)?;
    let lane = LuaLane::new(algorithm, &params)?;
    let space = KeySpace::new(&prefix)?;
    let name = lane.script().name;
    // Standard output is the script alone, byte for byte what SCRIPT LOAD hashes;
    // how to save, load and call it goes to standard error (a terminal shows both).
    let this = command_line(args);
    let mut notes =
        format!("# The script alone is on standard output; to save it:\n{this} > {name}.lua\n");
    notes.push_str(&lane.example_call(&space, algorithm.id(), &key));
    if let Some(m) = lab_memory(algorithm) {
        notes.push_str(&format!(
            "# Memory per key on Redis {REDIS_VERSION}: {} bytes in {} key(s) ({}; {}).\n",
            m.bytes, m.keys, m.encoding, m.state
        ));
    }
    if algorithm == Algorithm::SlidingLog {
        let sizes: Vec<String> = LOG_MEMORY
            .iter()
            .map(|r| format!("{} entries {} bytes ({})", r.entries, r.bytes, r.encoding))
            .collect();
        notes.push_str(&format!("# The log grows with N: {}.\n", sizes.join(", ")));
    }
    if algorithm == Algorithm::Nginx {
        let c = nginx_config(&params, "ratelab")?;
        notes.push_str("\n# The same lane in nginx itself:\n");
        notes.push_str(&c.text(&params));
    }
    if let Some(code) = ratelab_scripts::code::code_lines(algorithm, &params) {
        notes.push_str(
            "\n# The same lane in Rust (ratelab-tower; in memory, .redis(url) to share it):\n",
        );
        notes.push_str(&code.rust);
        notes.push_str("\n# And in JavaScript (ratelab.js in a page; Node and Workers load ratelab-files.js):\n");
        notes.push_str(&code.js);
    }
    Ok(Output {
        stdout: lane.script().text().to_string(),
        stderr: Some(notes.trim_end().to_string()),
        failed: false,
    })
}

fn algorithm_of(id: &str) -> Result<Algorithm, Failure> {
    Algorithm::from_id(id).ok_or_else(|| {
        Failure(format!(
            "lua: unknown algorithm \"{id}\" (see ratelab lua with no arguments)"
        ))
    })
}

/// A lane's options (`--limit`, `--period`, `--burst`, `--delay`, `--nodelay`) and
/// the example call's `--key` and `--prefix`.
fn lane_options(rest: &[String]) -> Result<(Params, String, String), Failure> {
    let mut params = Params::new(100, 60_000);
    let mut key = "client-42".to_string();
    let mut prefix = ratelab_scripts::DEFAULT_PREFIX.to_string();
    let mut it = rest.iter();
    while let Some(flag) = it.next() {
        let mut value = || value_of(flag, &mut it);
        match flag.as_str() {
            "--limit" => params.limit = count("--limit", &value()?)?,
            "--period" => {
                params.period_ms =
                    parse_duration(&value()?).map_err(|e| Failure(format!("--period: {e}")))?
            }
            "--burst" => params.burst = Some(count("--burst", &value()?)?),
            "--delay" => params.delay = Some(count("--delay", &value()?)?),
            "--nodelay" => params.nodelay = true,
            "--key" => key = value()?,
            "--prefix" => prefix = value()?,
            other => return Err(Failure(format!("lua: unknown option {other}"))),
        }
    }
    Ok((params, key, prefix))
}

/// `ratelab lua ARGS...` as a shell reads it back.
fn command_line(args: &[String]) -> String {
    let mut this = String::from("ratelab lua");
    for a in args {
        this.push(' ');
        this.push_str(&if is_plain(a) {
            a.clone()
        } else {
            shell_quote(a)
        });
    }
    this
}

/// `ratelab lua --library [ALGORITHM] [options]`: the function library alone on
/// standard output; on standard error how to save and load it, and the `FCALL` of
/// each limiter (or of ALGORITHM alone) with the options' parameters.
fn library(args: &[String]) -> Result<Output, Failure> {
    let rest: Vec<String> = args.iter().filter(|a| *a != "--library").cloned().collect();
    let (only, rest) = match rest.split_first() {
        Some((first, rest)) if !first.starts_with('-') => (Some(algorithm_of(first)?), rest),
        _ => (None, &rest[..]),
    };
    let (params, key, prefix) = lane_options(rest)?;
    let space = KeySpace::new(&prefix)?;
    let mut calls = String::new();
    for a in Algorithm::ALL {
        if ratelab_scripts::script(a).is_none() || only.is_some_and(|o| o != a) {
            continue;
        }
        let lane = LuaLane::new(a, &params)?;
        calls.push_str(&lane.example_fcall(&space, a.id(), &key));
        calls.push('\n');
    }
    let notes = format!(
        "# The function library alone is on standard output (Redis 7 or later); to save it:\n\
         {this} > ratelab.lua\n\
         # Load it once per server (answers {name}, its name; REPLACE puts this one in place of an older one):\n\
         redis-cli -x FUNCTION LOAD REPLACE < ratelab.lua\n\
         # Per request, each limiter by its function: its key(s), server clock (TIME), cost 1, slack 0, its parameters:\n\
         {calls}\
         # Reply and errors as the limiter's script (ratelab lua ALGORITHM): allowed (1/0); wait, retry-after,\n\
         # reset (numerator, denominator: ms); remaining; ms to rest (TTL); time used; state numbers kept.",
        this = command_line(args),
        name = ratelab_scripts::library::NAME,
    );
    Ok(Output {
        stdout: ratelab_scripts::library::text().to_string(),
        stderr: Some(notes),
        failed: false,
    })
}

/// Whether `a` reads the same to a shell unquoted (`--limit`, `10s`, `client-42`).
fn is_plain(a: &str) -> bool {
    !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.:/=,+@%".contains(c))
}

/// `ratelab redis memory --keys N` without a server: why Redis's bytes per key differ
/// from the article's (ratelab-learn's `memory`), then N keys of each limiter at the
/// bytes the memory lab measured (the committed `data/checked.json`).
fn memory_explained(keys: u64, lang: ratelab_learn::lesson::Lang) -> String {
    let parts = ratelab_learn::memory::explain(lang);
    let mut out = String::new();
    for p in &parts {
        out.push_str(p);
        out.push_str("\n\n");
    }
    out.push_str(&ratelab_learn::memory::sum_heading(keys, lang));
    out.push('\n');
    let measured: Vec<(String, u64)> = ratelab_learn::memory::committed_capacity(keys)
        .into_iter()
        .map(|r| (r.what, r.bytes_per_key))
        .collect();
    out.push_str(&capacity_table(keys, &measured, lang));
    out
}

/// `keys` × each row's bytes per key, as a table.
fn capacity_table(keys: u64, rows: &[(String, u64)], lang: ratelab_learn::lesson::Lang) -> String {
    use ratelab_learn::memory::{capacity, size_text};
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|(what, bytes)| {
            vec![
                what.clone(),
                bytes.to_string(),
                size_text(capacity(keys, *bytes), lang),
            ]
        })
        .collect();
    let mut out = table(
        &["stored", "bytes per key", "total"],
        &[Align::Left, Align::Right, Align::Left],
        &rows,
    );
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

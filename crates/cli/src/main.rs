//! `ratelab`: the command line over ratelab-sim's JSON format.
//!
//! ```text
//! ratelab simulate [FILE|-] [--table] [--responses]  JSON in, JSON out (or a text table)
//! ratelab trace [FILE|-] [--limiter ID]...  a trace table per limiter
//! ratelab respond [FILE|-] --at T [--key K] [--limiter ID]...
//!                                           each limiter's response at T
//! ratelab scenarios [--json]                the scenario registry
//! ratelab lab <a|b|c|d|e>                   a lab's result table
//! ratelab redis simulate [FILE|-] [--url U]  the same JSON through a Redis server
//! ratelab redis race|memory [--url U]        the race and memory labs on a server
//! ratelab lua ALGORITHM [params]             a limiter's Lua script and how to call it
//! ratelab lessons [--lang vi]               the guided path
//! ratelab lesson ID [--json] [--lang vi]    one lesson, with the engine's numbers
//! ratelab translate [FILE|-] [--json]       a tool's rate limit as a lane, and back
//! ratelab quiz [--json] [--lang vi]         the check questions, answered by the engine
//! ratelab choose [--answers a,b] [--matrix] which limiter: the flowchart, the matrix
//! ```
//!
//! Bad input exits with status 2 and one line on stderr: the same message the
//! playground and the JS API show, because they all call ratelab-sim. Input is read
//! in chunks and refused as soon as it passes [`MAX_INPUT_BYTES`]; runs are held to
//! ratelab-sim's budgets ([`ratelab_sim::Budget`]); everything echoed from the input
//! (ids, keys, messages) is sanitised ([`ratelab_sim::text::sanitize`]).

mod choose;
mod lab_d;
mod labs;
mod lessons;
mod redis;
mod respond;
mod service;
mod table;
mod trace;

use std::io::{Read, Write};

use ratelab_sim::text::sanitize;
use std::process::ExitCode;

use ratelab_sim::{run, simulate_json, Config};

const USAGE: &str = "\
ratelab: rate limiters on a virtual clock

usage:
  ratelab simulate [FILE|-] [--table] [--responses]
                                            run a JSON config, print the JSON report
                                            (--table: the yardstick as a text table;
                                            --responses: each request's response per
                                            limiter too: status, headers, body)
  ratelab trace [FILE|-] [--limiter ID]...  print each limiter's decisions as a trace table
  ratelab respond [FILE|-] --at T [--key K] [--limiter ID]... [--lang en|vi]
                                            print the response each limiter would send a
                                            request at T (after the stream's requests up
                                            to T): status, headers in both dialects, and
                                            a 429's Content-Type and JSON body; after a
                                            429, why 429 and not 503
  ratelab scenarios [--json]                list the scenarios
  ratelab lab <a|b|c|d|e>                   print a lab's results
  ratelab redis simulate [FILE|-] [--url URL] [--prefix P] [--force] [--keep] [--slack 10m]
                         [--fcall]
                                            run the JSON through a Redis server's scripts
                                            (--fcall: its function library, ratelab lua
                                            --library), print the report; say if it
                                            equals the engine's
  ratelab redis race [--url URL] [--threads 16] [--requests 640] [--burst 100]
  ratelab redis memory [--url URL] [--prefix P] [--keys N] [--lang en|vi]
                                            the race and memory labs on a Redis server;
                                            memory --keys N: what N keys of each limiter
                                            take (with no --url: no server, the committed
                                            numbers, and why they differ from the article's)
  ratelab lua ALGORITHM [--limit 100] [--period 1m] [--burst B] [--delay D] [--nodelay]
                                            print the limiter's Lua script alone (to save:
                                            > gcra.lua), and on stderr how to load and
                                            call it, and for nginx its limit_req lines
  ratelab lua --library [ALGORITHM] [...]   all eight as one Redis 7 function library
                                            (FUNCTION LOAD, then FCALL ratelab_gcra ...)
  ratelab lua --teaching                    the wrong scripts people copy, labelled
  ratelab lessons [--json] [--lang en|vi]   list the lessons (--json: every step's numbers)
  ratelab lesson ID [--json] [--lang en|vi] [--base URL]
                                            run a lesson, print its texts with the engine's
                                            numbers; each step's link is the page's address
                                            (--base, where the playground is served) + ?...
  ratelab translate [FILE|-] [--json]       read an nginx, redis-cell, governor, Upstash or Spring
                                            rate limit into a lane, and write it for each tool
  ratelab quiz [--answers] [--json] [--lang en|vi]
                                            the demo article's check questions: asks each
                                            (answer a, b, c… on standard input), then says
                                            if it was right, with the engine's numbers;
                                            --answers prints them all answered
  ratelab choose [--answers a,b,...] [--matrix] [--json] [--lang en|vi] [--base URL]
                                            which limiter? asks the flowchart's questions
                                            (answer a, b… on standard input) and ends on a
                                            limiter, its parameters and the lesson step
                                            that shows it (?lesson=ID&step=N after --base);
                                            --answers walks it without asking; --matrix
                                            prints the decision matrix and the goal and
                                            situation tables; --json: the walk, or the
                                            whole chooser as data
  ratelab --help | --version

FILE defaults to standard input (also written -), at most 64 MiB. T is a time in ms
or a duration (10400, 10.4s, 2m). The JSON format is described in
docs/json-format.md; `{\"scenario\": \"golden\"}` is a complete input.
Bad input, or a Redis server that cannot be reached or goes away, exits with
status 2 and a one-line error. `redis simulate` exits with status 1 when Redis
decided differently from the engine. The default URL is redis://127.0.0.1:6379.
";

/// The most bytes of input read (a file or standard input): enough for the
/// 2 000 000-request cap written as bare times, and a bound on what parsing holds.
pub const MAX_INPUT_BYTES: usize = 64 << 20;

/// Why the command failed: everything is reported as one line and status 2.
struct Failure(String);

/// What a command printed: standard output, a note for standard error, and whether
/// it found a difference (status 1).
struct Output {
    stdout: String,
    stderr: Option<String>,
    failed: bool,
}

impl Output {
    fn text(stdout: String) -> Output {
        Output {
            stdout,
            stderr: None,
            failed: false,
        }
    }
}

impl<T: std::fmt::Display> From<T> for Failure {
    fn from(e: T) -> Failure {
        Failure(e.to_string())
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let asks_help = args.iter().skip(1).any(|a| a == "--help" || a == "-h");
    let result = match args.first().map(String::as_str) {
        Some(name) if asks_help => help(name).map(Output::text),
        Some("redis") => redis::command(&args[1..]),
        Some("lua") => redis::lua(&args[1..]),
        _ => command(&args).map(Output::text),
    };
    match result {
        Ok(out) => {
            // A closed pipe (`ratelab lab d | head`) is not an error worth a panic.
            let mut stdout = std::io::stdout().lock();
            let _ = stdout.write_all(out.stdout.as_bytes());
            let _ = stdout.flush();
            if let Some(note) = out.stderr {
                eprintln!("{note}");
            }
            if out.failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(Failure(message)) => {
            eprintln!("error: {}", sanitize(&message));
            ExitCode::from(2)
        }
    }
}

fn command(args: &[String]) -> Result<String, Failure> {
    let (name, rest) = match args.split_first() {
        None => return Ok(USAGE.to_string()),
        Some((name, rest)) => (name.as_str(), rest),
    };
    match name {
        "-h" | "--help" | "help" => Ok(USAGE.to_string()),
        "-V" | "--version" => Ok(format!("ratelab {}\n", env!("CARGO_PKG_VERSION"))),
        "simulate" => {
            let (file, flags) = split_file(rest, &[])?;
            let (mut as_table, mut responses) = (false, false);
            for flag in &flags {
                match flag.as_str() {
                    "--table" | "-t" => as_table = true,
                    "--responses" => responses = true,
                    other => return Err(Failure(format!("simulate: unknown option {other}"))),
                }
            }
            if as_table && responses {
                return Err(Failure(
                    "simulate: --responses is JSON output; give it without --table".into(),
                ));
            }
            let input = read_input(file)?;
            if responses {
                // As `"responses": true` in the input, with its checks.
                let mut config = Config::from_json(&input)?;
                config.ask_responses()?;
                return Ok(ratelab_sim::run_answering(&config)?.to_json() + "\n");
            }
            if !as_table {
                return Ok(simulate_json(&input)? + "\n");
            }
            let report = run(&Config::from_json(&input)?)?;
            Ok(match &report.services {
                Some(services) => service::render(services),
                None => labs::summary(&report, None),
            })
        }
        "trace" => {
            let (file, flags) = split_file(rest, &["--limiter", "-l"])?;
            let mut only = Vec::new();
            let mut flags = flags.iter();
            while let Some(flag) = flags.next() {
                match flag.as_str() {
                    "--limiter" | "-l" => match flags.next() {
                        Some(id) => only.push(id.clone()),
                        None => return Err(Failure("--limiter: needs an id".into())),
                    },
                    other => return Err(Failure(format!("trace: unknown option {other}"))),
                }
            }
            let config = Config::from_json(&read_input(file)?)?;
            // Written lane by lane as each is traced: memory holds one lane's rows.
            let mut stdout = std::io::stdout().lock();
            trace::render(&config, &only, &mut stdout)?;
            Ok(String::new())
        }
        "respond" => {
            let (lang, rest) = take_lang(rest)?;
            let (file, flags) = split_file(&rest, &["--limiter", "-l", "--at", "--key", "-k"])?;
            let (mut only, mut at, mut key) = (Vec::new(), None, String::new());
            let mut flags = flags.iter();
            while let Some(flag) = flags.next() {
                let mut value = |what: &str| {
                    flags
                        .next()
                        .cloned()
                        .ok_or_else(|| Failure(format!("{flag}: needs {what}")))
                };
                match flag.as_str() {
                    "--limiter" | "-l" => only.push(value("an id")?),
                    "--key" | "-k" => key = value("a key")?,
                    "--at" => {
                        let text = value("a time")?;
                        let ms = ratelab_sim::share::parse_duration(&text)
                            .map_err(|why| Failure(format!("--at: {why}")))?;
                        at = Some(ms);
                    }
                    other => return Err(Failure(format!("respond: unknown option {other}"))),
                }
            }
            let at = at.ok_or_else(|| Failure("respond: needs --at T (e.g. --at 10.4s)".into()))?;
            let config = Config::from_json(&read_input(file)?)?;
            respond::render(&config, &only, at, &key, lang)
        }
        "scenarios" => match rest {
            [] => Ok(labs::scenario_list()),
            [flag] if flag == "--json" => Ok(ratelab_sim::scenarios_json() + "\n"),
            [other, ..] => Err(Failure(format!("scenarios: unknown option {other}"))),
        },
        "lab" => match rest {
            [which] => labs::render(which),
            [] => Err(Failure("lab: which one? (a, b, c, d or e)".into())),
            [_, extra, ..] => Err(Failure(format!("lab: unexpected argument {extra}"))),
        },
        "lessons" => {
            let (lang, rest) = take_lang(rest)?;
            match rest.first().map(String::as_str) {
                None => Ok(lessons::list(lang)),
                Some("--json") if rest.len() == 1 => {
                    Ok(ratelab_learn::lesson::summary_json(lang)? + "\n")
                }
                Some(other) => Err(Failure(format!("lessons: unexpected argument {other}"))),
            }
        }
        "lesson" => {
            let (lang, rest) = take_lang(rest)?;
            let mut json = false;
            let mut id = None;
            let mut base = None;
            let mut it = rest.iter();
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--json" => json = true,
                    "--base" => {
                        base = Some(it.next().cloned().ok_or_else(|| {
                            Failure(
                            "--base: needs the playground's address (e.g. http://127.0.0.1:8080/)"
                                .into(),
                        )
                        })?)
                    }
                    flag if flag.starts_with('-') => {
                        return Err(Failure(format!("lesson: unknown option {flag}")))
                    }
                    _ if id.is_some() => {
                        return Err(Failure(format!("lesson: unexpected argument {a}")))
                    }
                    _ => id = Some(a.as_str()),
                }
            }
            match id {
                Some(id) => lessons::show(id, json, lang, base.as_deref()),
                None => Err(Failure(format!(
                    "lesson: which one? ({})",
                    ratelab_learn::lesson::lesson_ids()
                ))),
            }
        }
        "translate" => {
            let (lang, rest) = take_lang(rest)?;
            let (file, flags) = split_file(&rest, &[])?;
            let mut json = false;
            for f in &flags {
                match f.as_str() {
                    "--json" => json = true,
                    other => return Err(Failure(format!("translate: unknown option {other}"))),
                }
            }
            let text = read_input(file)?;
            let t =
                ratelab_learn::translate::translate(&text).map_err(|e| Failure(e.text(lang)))?;
            Ok(if json {
                t.to_json(lang) + "\n"
            } else {
                lessons::translation(&t, lang)
            })
        }
        "quiz" => {
            let (lang, rest) = take_lang(rest)?;
            let (mut json, mut answers) = (false, false);
            for a in &rest {
                match a.as_str() {
                    "--json" => json = true,
                    "--answers" => answers = true,
                    other => return Err(Failure(format!("quiz: unexpected argument {other}"))),
                }
            }
            let q = ratelab_learn::quiz::quiz(lang)?;
            if json {
                return Ok(ratelab_learn::quiz::to_json(&q) + "\n");
            }
            if answers {
                return Ok(lessons::quiz(&q));
            }
            // Asked one by one: each answer read before the next question is shown.
            let stdin = std::io::stdin();
            let terminal = std::io::IsTerminal::is_terminal(&stdin);
            lessons::ask(
                &q,
                &mut stdin.lock(),
                &mut std::io::stdout().lock(),
                terminal,
                lang,
            )
            .map_err(|e| Failure(format!("quiz: {e}")))?;
            Ok(String::new())
        }
        "choose" => choose(rest),
        other => Err(Failure(format!(
            "unknown command \"{other}\" (expected {COMMANDS}; see ratelab --help)"
        ))),
    }
}

/// The commands, for the message on an unknown one.
const COMMANDS: &str =
    "simulate, trace, respond, scenarios, lab, redis, lua, lessons, lesson, translate, quiz or choose";

/// `ratelab choose [--answers a,b,...] [--matrix] [--json] [--lang en|vi] [--base URL]`.
fn choose(args: &[String]) -> Result<String, Failure> {
    let (lang, rest) = take_lang(args)?;
    let (mut json, mut matrix, mut answers, mut base) = (false, false, None, None);
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--matrix" => matrix = true,
            "--answers" => {
                let list = it
                    .next()
                    .ok_or_else(|| Failure("--answers: needs a list like a,b,a".into()))?;
                answers = Some(list.split(',').map(str::to_string).collect::<Vec<_>>());
            }
            "--base" => {
                base = Some(it.next().cloned().ok_or_else(|| {
                    Failure(
                        "--base: needs the playground's address (e.g. http://127.0.0.1:8080/)"
                            .into(),
                    )
                })?)
            }
            other => return Err(Failure(format!("choose: unexpected argument {other}"))),
        }
    }
    let base = base.as_deref();
    if matrix && answers.is_some() {
        return Err(Failure(
            "choose: --matrix prints the tables, --answers walks the flowchart; give one".into(),
        ));
    }
    if let Some(answers) = answers {
        let walk = ratelab_learn::chooser::walk(&answers)
            .map_err(|e| Failure(format!("choose --answers: {}", e.text())))?;
        return Ok(if json {
            ratelab_learn::chooser::walk_json(&walk, lang) + "\n"
        } else {
            choose::walk_text(&walk, lang, base)
        });
    }
    if json {
        return Ok(ratelab_learn::chooser::to_json(lang) + "\n");
    }
    if matrix {
        return Ok(choose::matrix(lang, base));
    }
    let stdin = std::io::stdin();
    let terminal = std::io::IsTerminal::is_terminal(&stdin);
    choose::ask(
        &mut stdin.lock(),
        &mut std::io::stdout().lock(),
        terminal,
        lang,
        base,
    )
    .map_err(|e| Failure(format!("choose: {e}")))?;
    Ok(String::new())
}

/// `ratelab NAME --help`: NAME's lines of [`USAGE`] (each `ratelab NAME ...` and
/// the lines under it) and the notes after them; `lua`'s own, longer help.
fn help(name: &str) -> Result<String, Failure> {
    if name == "lua" {
        return Ok(redis::LUA_HELP.to_string());
    }
    let list = USAGE.split_once("usage:\n").map_or(USAGE, |(_, l)| l);
    let (commands, notes) = list.split_once("\n\n").unwrap_or((list, ""));
    let prefix = format!("  ratelab {name} ");
    let mut out = String::from("usage:\n");
    let mut inside = false;
    for line in commands.lines() {
        if line.starts_with("  ratelab ") {
            inside = line.starts_with(&prefix) || line == prefix.trim_end();
        } else if !line.starts_with("      ") {
            inside = false;
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    if out == "usage:\n" || name.starts_with('-') {
        return Err(Failure(format!(
            "unknown command \"{name}\" (expected {COMMANDS}; see ratelab --help)"
        )));
    }
    out.push('\n');
    out.push_str(notes);
    Ok(out)
}

/// Takes `--lang en|vi` out of `args` (English by default).
fn take_lang(args: &[String]) -> Result<(ratelab_learn::lesson::Lang, Vec<String>), Failure> {
    let mut lang = ratelab_learn::lesson::Lang::En;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--lang" {
            let v = it
                .next()
                .ok_or_else(|| Failure("--lang: needs en or vi".into()))?;
            lang = ratelab_learn::lesson::Lang::from_id(v).ok_or_else(|| {
                Failure(format!(
                    "--lang: unknown language \"{v}\" (expected en or vi)"
                ))
            })?;
        } else {
            rest.push(a.clone());
        }
    }
    Ok((lang, rest))
}

/// The optional FILE (first argument not starting with `--`, or `-`) and the flags;
/// the flags in `valued` carry the argument after them along.
fn split_file<'a>(
    args: &'a [String],
    valued: &[&str],
) -> Result<(Option<&'a str>, Vec<String>), Failure> {
    let mut file = None;
    let mut flags = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a.starts_with('-') && a != "-" {
            flags.push(a.clone());
            // Options that take a value carry it along.
            if valued.contains(&a.as_str()) {
                if let Some(v) = it.next() {
                    flags.push(v.clone());
                }
            }
        } else if file.is_none() {
            file = Some(a.as_str());
        } else {
            return Err(Failure(format!(
                "unexpected argument {a} (one input file at most)"
            )));
        }
    }
    Ok((file, flags))
}

/// Reads FILE (or standard input) in chunks, refusing it as soon as it passes
/// [`MAX_INPUT_BYTES`] (`ratelab simulate /dev/zero` stops at once).
fn read_input(file: Option<&str>) -> Result<String, Failure> {
    match file {
        None | Some("-") => read_capped(&mut std::io::stdin().lock(), "standard input"),
        Some(path) => {
            let mut f = std::fs::File::open(path)
                .map_err(|e| Failure(format!("cannot read {path}: {e}")))?;
            read_capped(&mut f, path)
        }
    }
}

fn read_capped(input: &mut dyn Read, name: &str) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure(format!("cannot read {name}: {e}"))),
        };
        if bytes.len() + n > MAX_INPUT_BYTES {
            return Err(Failure(format!(
                "{name}: more than {MAX_INPUT_BYTES} bytes of input (at most 64 MiB)"
            )));
        }
        bytes.extend_from_slice(chunk.get(..n).unwrap_or_default());
    }
    String::from_utf8(bytes).map_err(|e| {
        Failure(format!(
            "{name}: not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

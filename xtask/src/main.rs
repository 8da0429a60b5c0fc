//! Project automation, in Rust instead of shell scripts (std only, so it builds in
//! seconds). Run through the alias in `.cargo/config.toml`:
//!
//! ```text
//! cargo xtask setup    install what is missing (idempotent)
//! cargo xtask serve    setup, then serve the playground at http://127.0.0.1:8080/
//! cargo xtask test     setup, then every check CI runs
//! cargo xtask bench    setup, then every benchmark, as a Markdown table
//! cargo xtask fuzz     the long hostile-input run: proptest cases, cargo-fuzz
//! ```

mod bench;
mod fuzz;
mod setup;
mod test;
mod util;
mod wasm;

use std::process::ExitCode;

use setup::Browsers;
use test::{Browser, Options, Step};
use util::{run, Ctx, Result};

const USAGE: &str = "\
usage: cargo xtask <command> [options]

commands:
  setup                 install the tools that are missing or at the wrong version
  serve [--port N]      setup, then `trunk serve` on 127.0.0.1 (default port 8080)
  test [options]        setup, then every check, in order, stopping at the first failure:
                        fmt, clippy, native, wasm, build, size, e2e
  bench [options]       setup, then the benchmarks (native, browser, size, frames);
                        writes bench-results/latest.md
  wasm [--release] [--out DIR]
                        the page's wasm: built, split into its first module and
                        chunks, bound, optimised (Trunk's pre_build hook)
  fuzz [options]        proptest targets with many cases, then each cargo-fuzz
                        target for 10 minutes (needs nightly; not part of test)

test options:
  --only STEP[,STEP]    run only these steps (in the usual order)
  --skip STEP[,STEP]    run all steps but these
  --no-firefox          wasm tests in Chromium only
  --no-chromium         wasm tests in Firefox only
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("\nxtask: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch(args: &[String]) -> Result {
    let (command, rest) = match args.split_first() {
        Some((c, rest)) => (c.as_str(), rest),
        None => {
            print!("{USAGE}");
            return Ok(());
        }
    };
    let ctx = Ctx::new()?;
    match command {
        "setup" => {
            no_options(rest)?;
            setup::setup(&ctx, Browsers::Required).map(|_| ())
        }
        "serve" => serve(&ctx, rest),
        "test" => test::test(&ctx, &test_options(rest)?),
        "bench" => bench::bench(&ctx, &bench::parse_options(rest)?),
        "fuzz" => fuzz::fuzz(&ctx, &fuzz::parse_options(rest)?),
        "wasm" => wasm::wasm_command(&ctx, rest),
        "help" | "-h" | "--help" => {
            print!("{USAGE}\n{}\n{}", bench::USAGE, fuzz::USAGE);
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    }
}

fn no_options(rest: &[String]) -> Result {
    match rest.first() {
        Some(a) => Err(format!("unexpected argument `{a}`\n\n{USAGE}")),
        None => Ok(()),
    }
}

fn serve(ctx: &Ctx, rest: &[String]) -> Result {
    let mut port = "8080".to_owned();
    let mut it = rest.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--port" => {
                port = it.next().ok_or("--port needs a number")?.clone();
                port.parse::<u16>()
                    .map_err(|_| format!("--port: `{port}` is not a port number"))?;
            }
            a => return Err(format!("unexpected argument `{a}`\n\n{USAGE}")),
        }
    }
    setup::setup(ctx, Browsers::Optional)?;
    util::heading(&format!(
        "serving the playground at  http://127.0.0.1:{port}/  (first build takes a while; Ctrl-C stops)"
    ));
    run(ctx
        .cmd("trunk")
        .args(["serve", "--address", "127.0.0.1", "--port", &port]))
}

fn test_options(rest: &[String]) -> Result<Options> {
    let mut steps = Step::ALL.to_vec();
    let mut browsers = vec![Browser::Chromium, Browser::Firefox];
    let list = |v: Option<&String>, flag: &str| -> Result<Vec<Step>> {
        let v = v.ok_or_else(|| format!("{flag} needs a step list: {}", test::step_names()))?;
        v.split(',').map(|s| Step::parse(s.trim())).collect()
    };
    let mut it = rest.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--only" => {
                let only = list(it.next(), "--only")?;
                steps.retain(|s| only.contains(s));
            }
            "--skip" => {
                let skip = list(it.next(), "--skip")?;
                steps.retain(|s| !skip.contains(s));
            }
            "--no-firefox" => browsers.retain(|b| *b != Browser::Firefox),
            "--no-chromium" => browsers.retain(|b| *b != Browser::Chromium),
            a => return Err(format!("unexpected argument `{a}`\n\n{USAGE}")),
        }
    }
    if steps.is_empty() {
        return Err("no steps left to run".into());
    }
    if steps.contains(&Step::Wasm) && browsers.is_empty() {
        return Err("the wasm step needs at least one browser".into());
    }
    Ok(Options { steps, browsers })
}

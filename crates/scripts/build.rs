//! Assembles the Lua scripts (the shared prelude spliced into each body at its
//! `--@prelude` line), hashes them as Redis will (SHA1 of the exact text, the name
//! EVALSHA calls them by), and turns the lab's committed data file into constants.
//! The page then carries finished texts and numbers, and computes none of this.

use std::fmt::Write as _;
use std::path::Path;

const SCRIPTS: [&str; 8] = [
    "fixed_window",
    "fixed_window_anchored",
    "sliding_log",
    "sliding_window_counter",
    "token_bucket",
    "leaky_queue",
    "gcra",
    "nginx",
];

const TEACHING: [&str; 2] = ["token_bucket_float_seconds", "sliding_log_zadd_first"];

fn read(path: &str) -> String {
    println!("cargo::rerun-if-changed={path}");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn sha1(text: &str) -> String {
    sha1_smol::Sha1::from(text).digest().to_string()
}

fn main() {
    let prelude = read("lua/prelude.lua");
    let mut out = String::new();
    // Each text is reached only through `text_of`, never from a `Script` itself,
    // so a build that never asks for a text (the playground, which fetches them
    // when a box is opened) links none of them.
    let mut texts = String::from(
        "/// The text of the script or teaching text named `name`.\npub(crate) fn text_of(name: &str) -> &'static str {\n    match name {\n",
    );
    let mut library = read("lua/library.lua");
    for name in SCRIPTS {
        let body = read(&format!("lua/{name}.lua"));
        assert!(
            body.lines().any(|l| l == "--@prelude"),
            "lua/{name}.lua has no --@prelude line"
        );
        let text = splice(&body, &prelude);
        library.push_str(&function(name, &text));
        writeln!(
            out,
            "/// `{name}.lua`\npub const {}: Script = Script {{ name: {name:?}, file: \"lua/{name}.lua\", sha1: {:?} }};",
            name.to_uppercase(),
            sha1(&text)
        )
        .unwrap();
        writeln!(texts, "        {name:?} => {text:?},").unwrap();
    }
    for name in TEACHING {
        let text = read(&format!("teaching/{name}.lua"));
        writeln!(
            out,
            "/// `teaching/{name}.lua`\npub const {}: Script = Script {{ name: {name:?}, file: \"teaching/{name}.lua\", sha1: {:?} }};",
            name.to_uppercase(),
            sha1(&text)
        )
        .unwrap();
        writeln!(texts, "        {name:?} => {text:?},").unwrap();
    }
    for name in ["incr_then_expire", "read_compute_write"] {
        let text = read(&format!("teaching/{name}.txt"));
        writeln!(texts, "        {name:?} => {text:?},").unwrap();
    }
    texts.push_str("        _ => \"\",\n    }\n}\n");
    out.push_str(&texts);
    writeln!(
        out,
        "/// The function library's text.\npub(crate) fn library_text() -> &'static str {{\n    {library:?}\n}}"
    )
    .unwrap();
    out.push_str(&checked(&read("data/checked.json")));
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("generated.rs");
    std::fs::write(&dest, out).unwrap();
}

/// `body` with each `--@part` line replaced by `lua/<part>.lua` (the prelude, or a
/// piece two scripts share, such as `ahead_state`).
fn splice(body: &str, prelude: &str) -> String {
    let mut text = String::with_capacity(body.len() + prelude.len());
    for line in body.lines() {
        match line.strip_prefix("--@") {
            Some("prelude") => text.push_str(prelude),
            Some(part) => text.push_str(&read(&format!("lua/{part}.lua"))),
            None => {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    text
}

/// The script `name` (its whole spliced `text`) as a function of the library: the
/// same statements, byte for byte, with `KEYS` and `ARGV` the function's parameters
/// (how `FCALL` hands them over), so the library decides, stores and answers as the
/// scripts do.
fn function(name: &str, text: &str) -> String {
    format!("\nredis.register_function('ratelab_{name}', function(KEYS, ARGV)\n{text}end)\n")
}

/// The versions the tests checked and the memory lab's rows, as constants.
fn checked(json: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(json).expect("data/checked.json is not JSON");
    let text = |v: &serde_json::Value, k: &str| -> String {
        v[k].as_str()
            .unwrap_or_else(|| panic!("data/checked.json: {k} must be a string"))
            .to_string()
    };
    let num = |v: &serde_json::Value, k: &str| -> u64 {
        v[k].as_u64()
            .unwrap_or_else(|| panic!("data/checked.json: {k} must be a whole number"))
    };
    let mut out = String::new();
    writeln!(
        out,
        "/// The `redis-server` version the tests ran the scripts on.\npub const REDIS_VERSION: &str = {:?};",
        text(&v, "redis_version")
    )
    .unwrap();
    writeln!(
        out,
        "/// The nginx version the tests checked the nginx lane against.\npub const NGINX_VERSION: &str = {:?};",
        text(&v, "nginx_version")
    )
    .unwrap();
    out.push_str("/// `MEMORY USAGE` of one limiter key, per algorithm (the memory lab).\npub const MEMORY: &[Memory] = &[\n");
    for row in v["memory"]
        .as_array()
        .expect("data/checked.json: memory must be a list")
    {
        writeln!(
            out,
            "    Memory {{ algorithm: {:?}, state: {:?}, keys: {}, bytes: {}, encoding: {:?} }},",
            text(row, "algorithm"),
            text(row, "state"),
            num(row, "keys"),
            num(row, "bytes"),
            text(row, "encoding"),
        )
        .unwrap();
    }
    out.push_str("];\n/// The sliding log's sorted set at N entries (the memory lab).\npub const LOG_MEMORY: &[LogMemory] = &[\n");
    for row in v["sliding_log"]
        .as_array()
        .expect("data/checked.json: sliding_log must be a list")
    {
        writeln!(
            out,
            "    LogMemory {{ entries: {}, bytes: {}, encoding: {:?} }},",
            num(row, "entries"),
            num(row, "bytes"),
            text(row, "encoding"),
        )
        .unwrap();
    }
    out.push_str("];\n");
    out
}

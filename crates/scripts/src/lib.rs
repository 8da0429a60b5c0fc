//! The production face's texts: every ratelab limiter as a Lua script for Redis,
//! the nginx `limit_req` lines for the nginx lane, the caps Lua's numbers put on
//! the parameters, and the key layout. Plain Rust without I/O: the command line
//! prints these texts, the playground shows them, and `ratelab-redis` (native)
//! runs them on a real server, where its tests check every decision against the
//! engine.
//!
//! ```
//! use ratelab_core::{Algorithm, Params};
//! use ratelab_scripts::{KeySpace, LuaLane};
//!
//! // GCRA, 5 per 10 s with a burst of 5, as a Redis script.
//! let lane = LuaLane::new(Algorithm::Gcra, &Params { burst: Some(5), ..Params::new(5, 10_000) })?;
//! assert_eq!(lane.script().name, "gcra");
//! assert!(lane.script().text().contains("t' = max(TAT, t)"));
//! assert_eq!(lane.params_args(), ["5", "10000", "5"]);
//! let keys = lane.keys(&KeySpace::default(), "gcra", "alice");
//! assert_eq!(keys, ["ratelab:v2:{gcra:alice}"]);
//! // How to call it: EVALSHA <sha1> 1 <key> <now|TIME> <cost> <slack_ms> <params...>
//! assert!(lane.example_call(&KeySpace::default(), "gcra", "alice").contains("EVALSHA"));
//!
//! // Lua numbers are doubles: products that would pass 2^51 are refused.
//! let huge = Params { burst: Some(4_000_000_000), ..Params::new(1, 1 << 30) };
//! let e = LuaLane::new(Algorithm::TokenBucket, &huge).unwrap_err();
//! assert!(e.to_string().starts_with("burst: 4000000000 is too large for this period_ms"));
//! # Ok::<(), ratelab_scripts::ScriptError>(())
//! ```
//!
//! # The scripts
//!
//! One script per limiter, each a Lua file in `lua/` with the shared prelude
//! (`lua/prelude.lua`: the clock, the arguments and their check, the reply) spliced
//! in at its `--@prelude` line, `lua/ahead_state.lua` at `--@ahead_state` in the two
//! that keep a time running ahead of the last request (GCRA and the leaky queue), and
//! the steps every script shares as parts rather than functions (Redis would build
//! each function anew on every call): `--@explain` (which argument is wrong),
//! `--@foreign` (a key holding something else) and `--@store` (the write and its TTL).
//! The state is a tag letter and little-endian doubles (`struct.pack`), not text.
//! Each keeps what the engine keeps, in whole numbers below 2^53 (Lua 5.1's numbers
//! are doubles), and returns the engine's decision exactly: allowed, the wait, the
//! retry-after and the reset as fractions of a millisecond, the requests remaining.
//! The time is an argument: virtual milliseconds (a replay, deterministic) or
//! `TIME`, the server's clock (a deployment: one clock for every instance).
//!
//! The same eight scripts also ship as one Redis 7 function library
//! ([`library`]: `FUNCTION LOAD` once, then `FCALL ratelab_gcra ...`), each function
//! the script's very text.
//!
//! The scripts people usually copy, which are wrong, are here too, labelled:
//! [`teaching`].
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

mod call;
pub mod code;
mod lane;
pub mod library;
pub mod nginx;
pub mod production;
mod space;
pub mod teaching;

pub use call::shell_quote;
pub use lane::{LuaLane, ScriptError, MAX_LUA_PRODUCT, MAX_LUA_TIME_MS};
pub use space::{KeySpace, DEFAULT_PREFIX};

use alloc::string::String;

use ratelab_core::Algorithm;

/// A Lua script as Redis runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Script {
    /// Its name (the file's, without `.lua`), used in error messages.
    pub name: &'static str,
    /// Its file in this crate (`lua/gcra.lua`, `teaching/…`), before the shared
    /// parts are spliced in ([`splice`]); the playground fetches it from there.
    pub file: &'static str,
    /// The SHA1 of the text in hex: what `EVALSHA` calls it by.
    pub sha1: &'static str,
}

impl Script {
    /// The exact text (what `SCRIPT LOAD` takes). A method, not a field, so that a
    /// build that never calls it (the playground's) carries none of the texts.
    pub fn text(&self) -> &'static str {
        generated::text_of(self.name)
    }
}

/// The shared parts `body` (a script's [`Script::file`]) splices in, in order: the
/// names after its `--@` lines (`prelude`, `ahead_state`, `explain`, ...), each
/// `lua/<name>.lua`.
pub fn parts(body: &str) -> impl Iterator<Item = &str> {
    body.lines().filter_map(|l| l.strip_prefix("--@"))
}

/// `body` with each `--@part` line replaced by the text `part` gives for it (the
/// file `lua/<part>.lua`): the script's text as [`Script::text`] has it, assembled
/// the way the build assembles it. `None` if `part` has no text for one of them.
pub fn splice<'a>(body: &str, mut part: impl FnMut(&str) -> Option<&'a str>) -> Option<String> {
    let mut text = String::with_capacity(body.len());
    for line in body.lines() {
        match line.strip_prefix("--@") {
            Some(name) => text.push_str(part(name)?),
            None => {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    Some(text)
}

/// The generated constants: the scripts, the teaching texts, the lab's numbers.
mod generated {
    use super::{LogMemory, Memory, Script};
    include!(concat!(env!("OUT_DIR"), "/generated.rs"));
}

pub use generated::{LOG_MEMORY, MEMORY, NGINX_VERSION, REDIS_VERSION};

/// The eight limiter scripts, in [`Algorithm::ALL`]'s order.
pub const SCRIPTS: [&Script; 8] = [
    &generated::FIXED_WINDOW,
    &generated::FIXED_WINDOW_ANCHORED,
    &generated::SLIDING_LOG,
    &generated::SLIDING_WINDOW_COUNTER,
    &generated::TOKEN_BUCKET,
    &generated::LEAKY_QUEUE,
    &generated::GCRA,
    &generated::NGINX,
];

/// The script of `algorithm`; `None` for the engine's two teaching variants (their
/// Redis counterparts are in [`teaching`]).
pub fn script(algorithm: Algorithm) -> Option<&'static Script> {
    Some(match algorithm {
        Algorithm::FixedWindow => &generated::FIXED_WINDOW,
        Algorithm::FixedWindowAnchored => &generated::FIXED_WINDOW_ANCHORED,
        Algorithm::SlidingLog => &generated::SLIDING_LOG,
        Algorithm::SlidingWindowCounter => &generated::SLIDING_WINDOW_COUNTER,
        Algorithm::TokenBucket => &generated::TOKEN_BUCKET,
        Algorithm::LeakyQueue => &generated::LEAKY_QUEUE,
        Algorithm::Gcra => &generated::GCRA,
        Algorithm::Nginx => &generated::NGINX,
        Algorithm::SlidingLogLogsBlocked | Algorithm::TokenBucketF64 => return None,
    })
}

/// What one limiter key costs in Redis, as `MEMORY USAGE` measured it on
/// [`REDIS_VERSION`] (the memory lab in `ratelab-redis`, committed in
/// `data/checked.json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Memory {
    /// The algorithm's id.
    pub algorithm: &'static str,
    /// The state measured (parameters and requests), in words.
    pub state: &'static str,
    /// Redis keys per limiter key.
    pub keys: u64,
    /// Bytes, all its keys together.
    pub bytes: u64,
    /// Redis's encoding of the main key (`OBJECT ENCODING`).
    pub encoding: &'static str,
}

/// The sliding log's sorted set holding `entries` members.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogMemory {
    /// Members.
    pub entries: u64,
    /// `MEMORY USAGE` of the sorted set, in bytes.
    pub bytes: u64,
    /// `listpack` while small, `skiplist` beyond `zset-max-listpack-entries` (128).
    pub encoding: &'static str,
}

/// The memory lab's row for `algorithm`, if it was measured.
pub fn memory(algorithm: Algorithm) -> Option<&'static Memory> {
    MEMORY.iter().find(|m| m.algorithm == algorithm.id())
}

//! The config translator: paste a rate limit as a tool writes it and get the lane
//! that decides the same way, or go back from a lane to each tool's config.
//!
//! ```
//! use ratelab_learn::translate::{translate, Tool};
//!
//! let t = translate("limit_req_zone $binary_remote_addr zone=api:10m rate=10r/s;\n\
//!                    limit_req zone=api burst=5 nodelay;").unwrap();
//! assert_eq!(t.tool, Tool::Nginx);
//! assert_eq!(t.at_once.accepted, 6); // nginx's burst=5 admits 6 at once
//! assert!(t.exact);
//!
//! let e = translate("CL.THROTTLE user123 15 30").unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "CL.THROTTLE: expected <key> <max_burst> <count per period> <period> [<quantity>], got 3 arguments"
//! );
//! ```
//!
//! Five tools are read, each by its documented semantics (and, where the docs are
//! vague, by its source):
//!
//! | tool | reads | lane | exact? |
//! |---|---|---|---|
//! | nginx | `limit_req_zone … rate=Nr/s` or `r/m` and `limit_req zone=… [burst=B] [nodelay \| delay=D]` | `nginx`, same parameters | yes: the engine runs nginx's own millirequest arithmetic |
//! | redis-cell | `CL.THROTTLE key max_burst count period [quantity]` | `gcra`, burst = max_burst + 1, period in s | yes when period·10⁹ / count is whole ns (redis-cell truncates T to ns) |
//! | governor | `Quota::per_second(n)`, `per_minute`, `per_hour`, `with_period(Duration::from_…(d))`, `.allow_burst(b)` | `gcra`, burst = b (default n, or 1 for `with_period`) | yes when T is a whole number of ns (governor truncates it) |
//! | Upstash | `Ratelimit.fixedWindow(n, "w")`, `slidingWindow(n, "w")`, `tokenBucket(r, "i", max)` | `fixed_window`, `sliding_window_counter`, `token_bucket` | the windows yes (at cost 1); the bucket is close: Upstash adds r tokens at once every i from the key's first request, ratelab refills continuously |
//! | Spring Cloud Gateway | `replenishRate`, `burstCapacity`, `requestedTokens` (YAML, properties or `new RedisRateLimiter(r, b, c)`) | `token_bucket`, N = r per c s, burst = b / c | close: Spring reads its clock in whole seconds |
//!
//! Bad text gets one line naming what could not be read ([`Message`]), in English or
//! Vietnamese ([`Message::text`]).

mod read;
mod write;

use core::fmt;

use ratelab_core::Limiter;
use serde::{Serialize, Serializer};

use crate::texts::{render, Lang, Texts};
use ratelab_sim::LaneSpec;

pub use write::{export, Export, Fit};

/// A tool whose configs are read and written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tool {
    /// nginx `limit_req_zone` / `limit_req`.
    Nginx,
    /// The redis-cell module's `CL.THROTTLE`.
    RedisCell,
    /// The governor crate's `Quota`.
    Governor,
    /// Upstash Ratelimit (`@upstash/ratelimit`).
    Upstash,
    /// Spring Cloud Gateway's `RedisRateLimiter`.
    Spring,
}

impl Tool {
    /// Every tool, in the order the page lists them.
    pub const ALL: [Tool; 5] = [
        Tool::Nginx,
        Tool::RedisCell,
        Tool::Governor,
        Tool::Upstash,
        Tool::Spring,
    ];

    /// Its name as people write it.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Nginx => "nginx",
            Tool::RedisCell => "redis-cell",
            Tool::Governor => "governor",
            Tool::Upstash => "Upstash Ratelimit",
            Tool::Spring => "Spring Cloud Gateway",
        }
    }
}

/// A message that can be shown in either language: a text key and the values for
/// its slots. `Display` writes it in English.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The key under `translate.` in the texts.
    pub key: &'static str,
    /// Slot values (already formatted; quoted user text is shortened and escaped).
    pub args: Vec<(&'static str, String)>,
}

impl Message {
    pub(crate) fn new(key: &'static str) -> Message {
        Message {
            key,
            args: Vec::new(),
        }
    }

    pub(crate) fn with(mut self, name: &'static str, value: impl fmt::Display) -> Message {
        self.args.push((name, value.to_string()));
        self
    }

    /// The message in the built-in texts of `lang`.
    pub fn text(&self, lang: Lang) -> String {
        self.text_in(lang.texts())
    }

    /// The message in texts loaded elsewhere.
    pub fn text_in(&self, texts: &Texts) -> String {
        let key = format!("translate.{}", self.key);
        let template = texts.or_key(&key);
        render(&template, |name| {
            self.args
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.clone())
        })
        .unwrap_or(template)
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl Serialize for Message {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

/// How many simultaneous requests a lane accepts, as the engine counts them: the
/// first `accepted` of a burst at one instant pass (`immediate` of them without
/// waiting; the others are delayed by nginx or the queue).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AtOnce {
    /// Requests accepted (possibly delayed) before the first refusal.
    pub accepted: u64,
    /// Of those, the ones that pass without waiting.
    pub immediate: u64,
}

/// A config read into a lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Translation {
    /// Which tool the text was.
    pub tool: Tool,
    /// The lane that decides as it does.
    pub lane: LaneSpec,
    /// What each request costs (redis-cell's quantity, Spring's requestedTokens, in
    /// the lane's units): 1 unless the config says otherwise.
    pub cost: u32,
    /// Whether the lane decides exactly as the tool, on every stream.
    pub exact: bool,
    /// How many requests at one instant it admits (computed by the engine).
    pub at_once: AtOnce,
    /// What a reader should know: rounding, units, differences.
    pub notes: Vec<Message>,
}

impl Translation {
    /// The translation and every tool's config for its lane as JSON, texts in
    /// `lang`: `{"tool", "limiter" (the JSON format's), "cost", "exact",
    /// "at_once", "notes", "exports": [{"tool", "fit", "config", "note"}]}`.
    pub fn to_json(&self, lang: Lang) -> String {
        #[derive(Serialize)]
        struct Out<'a> {
            tool: Tool,
            limiter: ratelab_sim::LimiterOut<'a>,
            cost: u32,
            exact: bool,
            at_once: AtOnce,
            notes: Vec<String>,
            exports: Vec<ExportOut>,
        }
        #[derive(Serialize)]
        struct ExportOut {
            tool: Tool,
            fit: Fit,
            config: Option<String>,
            note: String,
        }
        let out = Out {
            tool: self.tool,
            limiter: (&self.lane).into(),
            cost: self.cost,
            exact: self.exact,
            at_once: self.at_once,
            notes: self.notes.iter().map(|n| n.text(lang)).collect(),
            exports: export(&self.lane)
                .into_iter()
                .map(|e| ExportOut {
                    tool: e.tool,
                    fit: e.fit,
                    config: e.config,
                    note: e.note.text(lang),
                })
                .collect(),
        };
        serde_json::to_string(&out).unwrap_or_default()
    }
}

/// The most simultaneous requests [`admitted_at_once`] tries.
const AT_ONCE_CAP: u64 = 100_000;

/// Feeds simultaneous requests of `cost` at time 0 to a fresh `lane` until one is
/// refused (at most 100 000), counting those accepted and those not delayed.
pub fn admitted_at_once(lane: &LaneSpec, cost: u32) -> AtOnce {
    let mut at_once = AtOnce {
        accepted: 0,
        immediate: 0,
    };
    let Ok(mut l) = lane.build() else {
        return at_once;
    };
    while at_once.accepted < AT_ONCE_CAP {
        match l.check(0, cost.max(1)) {
            Ok(d) if d.allowed() => {
                at_once.accepted += 1;
                at_once.immediate += d.wait().is_zero() as u64;
            }
            _ => break,
        }
    }
    at_once
}

/// Reads a config of any of the five tools (recognised by its words) into a lane.
pub fn translate(text: &str) -> Result<Translation, Message> {
    let tool = read::detect(text)?;
    let (lane, cost, exact, mut notes) = match tool {
        Tool::Nginx => read::nginx(text)?,
        Tool::RedisCell => read::cell(text)?,
        Tool::Governor => read::governor(text)?,
        Tool::Upstash => read::upstash(text)?,
        Tool::Spring => read::spring(text)?,
    };
    // The engine validates the parameters (zero, too large) with its own messages.
    let proto = lane
        .build()
        .map_err(|e| Message::new("error.params").with("why", e))?;
    if proto.peek(0, cost).is_err() {
        return Err(Message::new("error.cost")
            .with("cost", cost)
            .with("at_once", admitted_at_once(&lane, 1).accepted));
    }
    let at_once = admitted_at_once(&lane, cost);
    notes.insert(
        0,
        if at_once.immediate == at_once.accepted {
            Message::new("note.at_once").with("n", at_once.accepted)
        } else {
            Message::new("note.at_once_delayed")
                .with("n", at_once.accepted)
                .with("now", at_once.immediate)
                .with("later", at_once.accepted - at_once.immediate)
        },
    );
    Ok(Translation {
        tool,
        lane,
        cost,
        exact,
        at_once,
        notes,
    })
}

/// Quotes text from a person in a message: at most 40 characters, control
/// characters escaped, so that a message stays one line.
pub(crate) fn quote(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.trim().chars().enumerate() {
        if i == 40 {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests;

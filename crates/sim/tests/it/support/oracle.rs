//! What must hold for *any* input, checked the same way by the proptest targets
//! (`tests/hostile.rs`, a few seconds in the test command, longer with
//! `PROPTEST_CASES`) and by the coverage-guided cargo-fuzz targets (`fuzz/`, which
//! include this file by path). Each check returns `Err(why)` instead of panicking so
//! that both harnesses can report it their own way.
//!
//! - [`check_limiter`]: every `Limiter` method of `AnyLimiter`, for any algorithm,
//!   parameters, times and costs: no panic; parameters accepted exactly when they are
//!   within the documented caps; `peek`/`explain` agree with `check` and change
//!   nothing; a refused request records nothing; and SPEC's guarantees (sliding log
//!   ≤ N in any window and ≤ N entries, fixed windows ≤ 2N, token bucket ≡ GCRA).
//! - [`check_json`]: `Config::from_json` / `simulate_json` never panic; a rejection is
//!   one line that starts with a path into the input (or says the input is not JSON /
//!   not an object); an accepted config runs, and its export reads back the same.
//! - [`check_share`]: `share::parse` never panics and always gives a runnable state;
//!   unknown parameters and unusable values are each reported by a notice; what
//!   `to_query` writes parses back to the same state without a notice.
#![allow(dead_code)]

use std::collections::VecDeque;

use ratelab_sim::ratelab_core::{
    Algorithm, AnyLimiter, CheckError, Limiter, Params, MAX_COUNT, MAX_PERIOD_MS, MAX_SCALED,
};
use ratelab_sim::share::{self, Link};
use ratelab_sim::{run, simulate_json, Config, TOP_FIELDS};

// ---------------------------------------------------------------------------
// Limiters

/// One limiter and the requests `(t, cost)` sent to it, in order (times may go
/// backwards: that must be an error, never a panic).
#[derive(Clone, Debug)]
pub struct LimiterCase {
    pub algorithm: Algorithm,
    pub params: Params,
    pub requests: Vec<(u64, u32)>,
}

/// Whether `params` are within the documented caps for `algorithm`: limit and burst
/// 1 ..= 2^32 − 1 (nginx's burst may be 0), period 1 ..= 2^53 − 1, nginx's delay
/// ≤ 2^32 − 1 (unless `nodelay`) and its rate at least 0.001 per second; and where
/// an algorithm multiplies a count by the period (the sliding window counter its
/// limit; the exact token bucket, GCRA and the leaky queue their burst), the product
/// at most `MAX_SCALED` (2^62 − 1).
pub fn params_are_valid(algorithm: Algorithm, p: &Params) -> bool {
    let count = |v: u64| (1..=MAX_COUNT).contains(&v);
    if !count(p.limit) || !(1..=MAX_PERIOD_MS).contains(&p.period_ms) {
        return false;
    }
    let burst = p.burst_for(algorithm);
    match algorithm {
        Algorithm::Nginx => {
            let milli = p.limit as u128 * 1_000_000 / p.period_ms as u128;
            milli >= 1 && burst <= MAX_COUNT && (p.nodelay || p.delay.unwrap_or(0) <= MAX_COUNT)
        }
        Algorithm::TokenBucket | Algorithm::Gcra | Algorithm::LeakyQueue => {
            count(burst) && burst as u128 * p.period_ms as u128 <= MAX_SCALED as u128
        }
        Algorithm::SlidingWindowCounter => {
            p.limit as u128 * p.period_ms as u128 <= MAX_SCALED as u128
        }
        a if a.uses_burst() => count(burst),
        _ => true,
    }
}

/// Allowed traffic `(t, cost)` inside a sliding window `(t − w, t]`.
struct Window {
    w: u64,
    q: VecDeque<(u64, u64)>,
    sum: u128,
}

impl Window {
    fn new(w: u64) -> Window {
        Window {
            w,
            q: VecDeque::new(),
            sum: 0,
        }
    }

    /// Adds an allowed request and returns the total inside its window.
    fn push(&mut self, t: u64, cost: u64) -> u128 {
        while let Some(&(front, c)) = self.q.front() {
            if front as u128 + self.w as u128 > t as u128 {
                break;
            }
            self.sum -= c as u128;
            self.q.pop_front();
        }
        self.q.push_back((t, cost));
        self.sum += cost as u128;
        self.sum
    }
}

/// Runs `case` through every method and checks everything listed in the module docs.
pub fn check_limiter(case: &LimiterCase) -> Result<(), String> {
    let alg = case.algorithm;
    let valid = params_are_valid(alg, &case.params);
    let mut l = match AnyLimiter::new(alg, &case.params) {
        Ok(l) if valid => l,
        Ok(_) => return Err(format!("{} accepted {:?}", alg.id(), case.params)),
        Err(e) => {
            let msg = e.to_string();
            let named = ["limit: ", "period_ms: ", "burst: ", "delay: "]
                .iter()
                .any(|f| msg.starts_with(f));
            if valid {
                return Err(format!("{} refused {:?}: {msg}", alg.id(), case.params));
            }
            if !named || !one_line(&msg) {
                return Err(format!("a parameter error must name its field: {msg:?}"));
            }
            return Ok(());
        }
    };
    if l.algorithm() != alg {
        return Err(format!("built {} for {}", l.algorithm().id(), alg.id()));
    }
    // The twin whose decisions must be identical: GCRA for the token bucket and back.
    let twin_alg = match alg {
        Algorithm::TokenBucket => Some(Algorithm::Gcra),
        Algorithm::Gcra => Some(Algorithm::TokenBucket),
        _ => None,
    };
    let mut twin = match twin_alg {
        Some(a) => Some(AnyLimiter::new(a, &case.params).map_err(|e| e.to_string())?),
        None => None,
    };
    let n = case.params.limit as u128;
    let mut window = Window::new(case.params.period_ms);
    let mut last: Option<u64> = None;
    for (i, &(t, cost)) in case.requests.iter().enumerate() {
        let at = || {
            format!(
                "{} {:?}, request {i} ({t} ms, cost {cost})",
                alg.id(),
                case.params
            )
        };
        let before = l.clone();
        let peeked = l.peek(t, cost);
        let explained = l.explain(t, cost);
        if let Ok(e) = &explained {
            let _ = e.to_string();
        }
        if let Ok(h) = l.headers(t) {
            if h.status != 200 && h.status != 429 {
                return Err(format!("{}: status {}", at(), h.status));
            }
        }
        let _ = format!("{:?}", l.snapshot(t));
        let _ = (l.is_at_rest(t), l.policy(), l.state_numbers());
        if l != before {
            return Err(format!("{}: a query changed the state", at()));
        }
        let checked = l.check(t, cost);
        if peeked != checked {
            return Err(format!("{}: peek {peeked:?} but check {checked:?}", at()));
        }
        if let Some(twin) = twin.as_mut() {
            let other = twin.check(t, cost);
            if other != checked {
                return Err(format!("{}: twin says {other:?}, not {checked:?}", at()));
            }
        }
        match checked {
            Err(e) => {
                if l != before {
                    return Err(format!("{}: refused ({e}) but recorded", at()));
                }
                let backwards = last.is_some_and(|p| t < p);
                match e {
                    CheckError::TimeWentBackwards { previous, now } => {
                        if !(backwards && now == t && now < previous) {
                            return Err(format!("{}: wrongly backwards ({e})", at()));
                        }
                    }
                    CheckError::ZeroCost if cost == 0 => {}
                    CheckError::CostExceedsCapacity { cost: c, capacity }
                        if c == cost && u64::from(c) > capacity => {}
                    other => return Err(format!("{}: unexpected {other:?}", at())),
                }
                if explained.is_ok() {
                    return Err(format!("{}: explain accepted what check refused", at()));
                }
                if !one_line(&e.to_string()) {
                    return Err(format!("{}: not one line: {e}", at()));
                }
            }
            Ok(d) => {
                if last.is_some_and(|p| t < p) {
                    return Err(format!("{}: time went backwards unnoticed", at()));
                }
                if cost == 0 {
                    return Err(format!("{}: a zero cost was judged", at()));
                }
                last = Some(t);
                let e = explained.map_err(|e| format!("{}: explain refused: {e}", at()))?;
                if e.test.holds != d.allowed() {
                    return Err(format!("{}: explain's test disagrees", at()));
                }
                if d.allowed() && !d.retry_after().is_zero() || !d.allowed() && !d.wait().is_zero()
                {
                    return Err(format!("{}: inconsistent decision {d:?}", at()));
                }
                let _ = (
                    d.remaining(),
                    d.retry_after().ceil_secs(),
                    d.reset().ceil_ms(),
                    d.wait().to_string(),
                );
                let numbers = l.state_numbers() as u128;
                // Allowed traffic (weighted by cost) in the window ending now.
                let inside = if d.allowed() {
                    window.push(t, cost.into())
                } else {
                    0
                };
                match alg {
                    Algorithm::SlidingLog => {
                        if numbers > n {
                            return Err(format!("{}: the log holds {numbers} > N", at()));
                        }
                        if inside > n {
                            return Err(format!("{}: more than N in a window", at()));
                        }
                    }
                    Algorithm::FixedWindow | Algorithm::FixedWindowAnchored if inside > 2 * n => {
                        return Err(format!("{}: more than 2N in a window", at()));
                    }
                    Algorithm::SlidingLogLogsBlocked => {}
                    _ if numbers > 3 => {
                        return Err(format!("{}: {numbers} numbers of state", at()));
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(())
}

/// A little reader that turns fuzzer bytes into values, biased towards the edges.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data }
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn u8(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    pub fn u64(&mut self) -> u64 {
        (0..8).fold(0, |acc, _| acc << 8 | u64::from(self.u8()))
    }

    /// A count-like value: mostly small, sometimes an edge.
    fn count(&mut self) -> u64 {
        match self.u8() % 16 {
            0 => 0,
            1 => MAX_COUNT,
            2 => MAX_COUNT + 1,
            3 => u64::MAX,
            4 => self.u64(),
            5 => u64::from(self.u8()) << 24,
            k => u64::from(self.u8() % 12) + u64::from(k > 10),
        }
    }

    /// A period: mostly small, sometimes an edge.
    fn period(&mut self) -> u64 {
        match self.u8() % 16 {
            0 => 0,
            1 => MAX_PERIOD_MS,
            2 => MAX_PERIOD_MS + 1,
            3 => u64::MAX,
            4 => self.u64(),
            5 => 1,
            6 | 7 => 1 + u64::from(self.u8()) * 37,
            _ => 1 + u64::from(self.u8() % 50),
        }
    }
}

/// Decodes a [`LimiterCase`] from arbitrary bytes (the cargo-fuzz target's input).
pub fn limiter_case(data: &[u8]) -> LimiterCase {
    let mut b = Bytes::new(data);
    let algorithm = Algorithm::ALL[b.u8() as usize % Algorithm::ALL.len()];
    let flags = b.u8();
    let params = Params {
        limit: b.count(),
        period_ms: b.period(),
        burst: (flags & 1 != 0).then(|| b.count()),
        delay: (flags & 2 != 0).then(|| b.count()),
        nodelay: flags & 4 != 0,
    };
    let mut requests = Vec::new();
    let mut t: u64 = 0;
    while !b.is_empty() && requests.len() < 400 {
        let op = b.u8();
        t = match op % 8 {
            0 => t,
            1 => b.u64(),
            2 => t.wrapping_sub(u64::from(b.u8())),
            3 => u64::MAX - u64::from(b.u8()),
            4 | 5 => t.saturating_add(u64::from(b.u8()) * 10),
            _ => t.saturating_add(u64::from(b.u8() % 8)),
        };
        let cost = match op >> 5 {
            0 => 0,
            1 => u32::MAX,
            2 => u32::from(b.u8()),
            _ => 1,
        };
        requests.push((t, cost));
    }
    LimiterCase {
        algorithm,
        params,
        requests,
    }
}

// ---------------------------------------------------------------------------
// The JSON format

/// No line breaks or other control characters, and no bidi overrides: the CLI
/// prints it as one line and the playground in one box, in reading order.
pub fn one_line(msg: &str) -> bool {
    !msg.is_empty() && !msg.chars().any(ratelab_sim::text::is_unsafe)
}

/// Whether an error of the JSON format reads as promised: one line that starts with
/// a path into the input (`limiters[2].period_ms: …`, `requests[5].t: …`,
/// `window_ms: …`), or an unknown or repeated field's path, or says what is wrong
/// with the whole input (`invalid JSON: …`, `the input must be a JSON object …`,
/// `too much for one run: …`).
pub fn is_clear_json_error(msg: &str) -> bool {
    if !one_line(msg) {
        return false;
    }
    if msg.starts_with("invalid JSON: ")
        || msg.starts_with("the input must be a JSON object")
        || msg.starts_with("too much for one run: ")
        || msg.contains(": unknown field (expected one of ")
        || msg.contains(": given twice (each field at most once)")
    {
        return true;
    }
    let Some((path, what)) = msg.split_once(": ") else {
        return false;
    };
    if what.is_empty() {
        return false;
    }
    TOP_FIELDS.iter().any(|f| {
        path.strip_prefix(f)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('.') || rest.starts_with('['))
    })
}

/// A long text cut for a failure message.
pub fn clip(text: &str) -> String {
    let mut s: String = text.chars().take(300).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    format!("{s:?}")
}

/// The most requests × lanes the oracle runs (bigger configs are only parsed), so
/// that a fuzzer spends its time on parsing, not on long simulations.
pub const MAX_WORK: usize = 200_000;

/// Parses (and, when small, runs) `text` and checks the module docs' promises.
pub fn check_json(text: &str) -> Result<(), String> {
    match Config::from_json(text) {
        Err(e) => {
            let msg = e.as_str();
            if !is_clear_json_error(msg) {
                return Err(format!("unclear error {msg:?} for {}", clip(text)));
            }
            match simulate_json(text) {
                Err(same) if same == msg => Ok(()),
                other => Err(format!("from_json said {msg:?}, simulate_json {other:?}")),
            }
        }
        Ok(config) => {
            config
                .validate()
                .map_err(|e| format!("parsed but invalid: {e}"))?;
            if config
                .stream
                .len()
                .saturating_mul(config.lanes.len().max(1))
                > MAX_WORK
            {
                // Only parsed: a fuzzer's time (and memory) goes to parsing.
                return Ok(());
            }
            // The export reads back to the same stream, lanes and window.
            let exported = config.to_json();
            let back = Config::from_json(&exported)
                .map_err(|e| format!("export {exported:?} does not read back: {e}"))?;
            // (Key numbers may differ: the export names keys, and a reader numbers
            // them in order of appearance.)
            let named = |c: &Config| -> Vec<(u64, String, u32)> {
                let s = &c.stream;
                let name = |k: u32| s.key_name(k).unwrap_or("?").to_string();
                s.requests
                    .iter()
                    .map(|r| (r.t, name(r.key), r.cost))
                    .collect()
            };
            if (named(&back), &back.lanes, back.window_ms, &back.services)
                != (
                    named(&config),
                    &config.lanes,
                    config.window_ms,
                    &config.services,
                )
            {
                return Err(format!("export {} reads back differently", clip(&exported)));
            }
            if config.sweep.is_some() {
                return Ok(());
            }
            let report = run(&config).map_err(|e| format!("valid config failed: {e}"))?;
            for r in &report.results {
                if r.allowed.len() != config.stream.len() || r.waits.len() != r.allowed.len() {
                    return Err(format!("{}: a decision per request is missing", r.id));
                }
                if r.yardstick.passed + r.yardstick.blocked != config.stream.len() as u64 {
                    return Err(format!("{}: passed + blocked ≠ requests", r.id));
                }
            }
            let out = simulate_json(text).map_err(|e| format!("simulate_json: {e}"))?;
            serde_json::from_str::<serde_json::Value>(&out)
                .map_err(|e| format!("the report is not JSON: {e}"))?;
            Ok(())
        }
    }
}

// ---------------------------------------------------------------------------
// The URL state

/// The top-level parameters of a link.
const SHARE_KEYS: &[&str] = &[
    "scenario",
    "limiters",
    "lanes",
    "limit",
    "period",
    "period_ms",
    "window",
    "window_ms",
    "requests",
    "seed",
    "load",
    "clients",
    "duration",
    "duration_ms",
    "t",
    "speed",
    "lang",
    "sel",
    "hl",
];

/// The per-lane parameters (`name.i`).
const LANE_KEYS: &[&str] = &["limit", "period", "burst", "delay", "nodelay"];

/// Parses `query` and checks the module docs' promises about links.
pub fn check_share(query: &str) -> Result<(), String> {
    let (state, notices) = share::parse(query);
    check_state(&state).map_err(|e| format!("{query:?}: {e}"))?;
    for n in &notices {
        if !one_line(&n.to_string()) || n.reason.is_empty() {
            return Err(format!("{query:?}: unclear notice {n:?}"));
        }
    }
    // Unknown parameters, lane numbers out of range and unusable values: each one
    // noticed (the value falls back to its default).
    let count = |reason: &str| {
        notices
            .iter()
            .filter(|n| n.reason.starts_with(reason))
            .count()
    };
    let mut unknown = 0;
    let mut bad_lane = 0;
    let mut bad_values: Vec<String> = Vec::new();
    for (key, raw) in share::pairs(query) {
        let value = share::decode(&raw);
        if let Some((name, index)) = key.split_once('.') {
            if share::parse_count(index, share::MAX_PLAYGROUND_LANES as u64 - 1).is_err() {
                bad_lane += 1;
            } else if !LANE_KEYS.contains(&name) {
                unknown += 1;
            }
            continue;
        }
        if !SHARE_KEYS.contains(&key.as_str()) {
            unknown += 1;
            continue;
        }
        let ok = match key.as_str() {
            "limit" => share::parse_count(&value, MAX_COUNT).is_ok_and(|n| n > 0),
            "period" | "window" => {
                share::parse_duration(&value).is_ok_and(|n| (1..=MAX_PERIOD_MS).contains(&n))
            }
            "t" => share::parse_duration(&value).is_ok(),
            "speed" => share::parse_speed(&value).is_ok(),
            "lang" => share::LANGS.contains(&value.trim()),
            _ => true,
        };
        if !ok {
            bad_values.push(key);
        }
    }
    if count("unknown parameter") != unknown {
        return Err(format!(
            "{query:?}: {unknown} unknown parameters, {} noticed: {notices:?}",
            count("unknown parameter")
        ));
    }
    if count("lane numbers run from") != bad_lane {
        return Err(format!(
            "{query:?}: {bad_lane} bad lane numbers: {notices:?}"
        ));
    }
    for key in bad_values {
        if !notices.iter().any(|n| n.key == key) {
            return Err(format!(
                "{query:?}: a bad {key} was not noticed: {notices:?}"
            ));
        }
    }
    check_round_trip(&state).map_err(|e| format!("{query:?}: {e}"))
}

/// A state the parser returned is one a playground can show.
fn check_state(state: &Link) -> Result<(), String> {
    let lanes = state.setup.lanes.len();
    if !(1..=share::MAX_PLAYGROUND_LANES).contains(&lanes) {
        return Err(format!("{lanes} lanes"));
    }
    state
        .setup
        .to_config()
        .map(|_| ())
        .map_err(|e| format!("the state does not run: {e}"))
}

/// What `to_query` writes parses back to the same state, without a notice, and
/// writing that again gives the same text.
pub fn check_round_trip(state: &Link) -> Result<(), String> {
    let written = state.to_query();
    let (back, notices) = share::parse(&written);
    if !notices.is_empty() {
        return Err(format!("{written:?} gives notices {notices:?}"));
    }
    if &back != state {
        let (a, b) = (format!("{back:?}"), format!("{state:?}"));
        let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
        let from = at.saturating_sub(120);
        let around = |s: &str| clip(s.get(from..).unwrap_or(s));
        return Err(format!(
            "{} reads back as …{}, not …{}",
            clip(&written),
            around(&a),
            around(&b)
        ));
    }
    let again = back.to_query();
    if again != written {
        return Err(format!("{written:?} is written again as {again:?}"));
    }
    Ok(())
}

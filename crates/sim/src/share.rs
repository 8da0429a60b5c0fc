//! The playground's shareable state as a URL query string: parse and write it.
//!
//! One parser serves every way a playground is configured: the page's URL, the
//! `embed.html?…` iframe, the `<rate-limit-playground>` element's attributes and the
//! JS `mount(element, options)` (attributes and options become `key=value` pairs).
//! It lives here, in plain Rust, so it is tested (and fuzzed) natively.
//!
//! **It never fails.** Every value it cannot use falls back to its default and adds a
//! [`Notice`] naming the parameter, the value and why; unknown parameters are
//! reported the same way. A link with one typo still opens the rest of the view.
//!
//! # Format
//!
//! ```text
//! ?scenario=golden&limiters=fixed_window,sliding_log,token_bucket&limit=5&period=10s&t=11.2s
//! ```
//!
//! | key | value | default |
//! |---|---|---|
//! | `scenario` | a [`crate::SCENARIOS`] id | `golden` |
//! | `limiters` | 1–6 algorithm ids, comma-separated | [`default_lanes`] of the scenario |
//! | `limit`, `period` | the shared budget N per W, for every lane (and the stream of the parameterised scenarios) | the scenario's |
//! | `limit.i`, `period.i`, `burst.i`, `delay.i`, `nodelay.i` | lane `i`'s own parameters (from 0); an empty `burst.i` / `delay.i` is the algorithm's default | the shared budget; core's defaults |
//! | `window` | the yardstick window | each lane's period |
//! | `requests` | `custom`: times, comma-separated; `t:key` or `t:key:cost` for more | none |
//! | `seed`, `load`, `clients`, `duration` | `poisson` and `lab-d` (`duration`: `poisson` only) | the scenario's |
//! | `t` | the virtual clock | `0` |
//! | `speed` | one of [`SPEEDS_PERMILLE`] as a multiple: `0.25` … `16` | `1` |
//! | `lang` | one of [`LANGS`] | `en` |
//! | `sel` | the selected request's index | the latest at or before `t` |
//! | `hl` | `1`: highlight each lane's busiest window | `0` |
//!
//! Durations (`period`, `window`, `t`, `duration`, request times) are a number with
//! a unit, `500ms`, `10s`, `1.5s`, `2m`, `1h`; a bare number is milliseconds, as in
//! the JSON format. [`to_query`] writes only what differs from the defaults.

use std::fmt;

use ratelab_core::{Algorithm, Params, MAX_COUNT, MAX_PERIOD_MS};

use crate::config::{Config, LaneSpec};
use crate::error::SimError;
use crate::scenario::{self, defaults, scenario_info, Overrides, ScenarioInfo};
use crate::stream::{Request, Stream, MAX_TIME_MS};
use crate::MAX_LABEL_CHARS;

/// The most lanes a playground shows at once.
pub const MAX_PLAYGROUND_LANES: usize = 6;

/// The clock speeds offered, in thousandths: 0.25x to 16x.
pub const SPEEDS_PERMILLE: [u32; 7] = [250, 500, 1000, 2000, 4000, 8000, 16000];

/// The page's languages.
pub const LANGS: [&str; 2] = ["en", "vi"];

/// The most custom requests a URL may carry (longer streams belong in JSON).
pub const MAX_URL_REQUESTS: usize = 10_000;

/// The longest value quoted back in a notice.
const SHOWN: usize = 40;

/// The scenario a playground opens with.
pub const DEFAULT_SCENARIO: &str = "golden";

/// A value that was ignored, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The parameter as written (`limit`, `burst.2`).
    pub key: String,
    /// Its value as written (shortened).
    pub value: String,
    /// Why it was ignored, and what is used instead.
    pub reason: String,
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}: {}", self.key, self.value, self.reason)
    }
}

/// Everything a link reproduces: the setup and the view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShareState {
    /// A registry id ([`crate::SCENARIOS`]).
    pub scenario: String,
    /// The shared budget N, if set (else the scenario's).
    pub limit: Option<u64>,
    /// The shared budget W in ms, if set (else the scenario's).
    pub period_ms: Option<u64>,
    /// The lanes, 1 to [`MAX_PLAYGROUND_LANES`], ids normalised ([`normalise_ids`]).
    pub lanes: Vec<LaneSpec>,
    /// The yardstick window, if set.
    pub window_ms: Option<u64>,
    /// `custom`'s requests.
    pub requests: Stream,
    /// Seeded scenarios: the seed.
    pub seed: Option<u64>,
    /// Seeded scenarios: load, in thousandths of the limit.
    pub load_permille: Option<u32>,
    /// Seeded scenarios: clients.
    pub clients: Option<u32>,
    /// `poisson`: duration.
    pub duration_ms: Option<u64>,
    /// The virtual clock, in ms.
    pub t_ms: u64,
    /// Clock speed in thousandths (one of [`SPEEDS_PERMILLE`]).
    pub speed_permille: u32,
    /// One of [`LANGS`].
    pub lang: &'static str,
    /// The selected request, if chosen by hand.
    pub selected: Option<u64>,
    /// Highlight the busiest windows.
    pub highlight: bool,
}

impl Default for ShareState {
    fn default() -> ShareState {
        ShareState::for_scenario(DEFAULT_SCENARIO)
    }
}

impl ShareState {
    /// Scenario `id` (the default one if unknown) with its default lanes and
    /// everything else at its default.
    pub fn for_scenario(id: &str) -> ShareState {
        let info = scenario_info(id)
            .or_else(|| scenario_info(DEFAULT_SCENARIO))
            .or(crate::SCENARIOS.first());
        let (id, limit, period) = info.map_or((DEFAULT_SCENARIO, 5, 10_000), |i| {
            (i.id, i.limit, i.period_ms)
        });
        ShareState {
            scenario: id.to_string(),
            limit: None,
            period_ms: None,
            lanes: default_lanes(id, limit, period),
            window_ms: None,
            requests: Stream::new(),
            seed: None,
            load_permille: None,
            clients: None,
            duration_ms: None,
            t_ms: 0,
            speed_permille: 1000,
            lang: "en",
            selected: None,
            highlight: false,
        }
    }

    /// The scenario's registry entry.
    pub fn info(&self) -> Option<&'static ScenarioInfo> {
        scenario_info(&self.scenario)
    }

    /// The shared budget in force: the one set, else the scenario's.
    pub fn budget(&self) -> (u64, u64) {
        let (l, p) = self.info().map_or((5, 10_000), |i| (i.limit, i.period_ms));
        (self.limit.unwrap_or(l), self.period_ms.unwrap_or(p))
    }

    /// Whether the scenario takes top-level option `field` (`limit`, `seed`, …).
    pub fn takes(&self, field: &str) -> bool {
        self.info().is_some_and(|i| i.overrides.contains(&field))
    }

    /// Whether `requests` belong in the link: `custom`'s stream, and the requests sent
    /// by hand in `manual` (which its JSON form does not take: they are the
    /// playground's state, so only links carry them).
    pub fn carries_requests(&self) -> bool {
        self.takes("requests") || self.scenario == "manual"
    }

    /// Sets the shared budget and gives it to every lane.
    pub fn set_budget(&mut self, limit: u64, period_ms: u64) {
        self.limit = Some(limit);
        self.period_ms = Some(period_ms);
        for lane in &mut self.lanes {
            lane.params.limit = limit;
            lane.params.period_ms = period_ms;
        }
    }

    /// The runnable, validated config: the scenario with these lanes and options.
    pub fn to_config(&self) -> Result<Config, SimError> {
        let takes = |f: &str| self.takes(f);
        let o = Overrides {
            limit: self.limit.filter(|_| takes("limit")),
            period_ms: self.period_ms.filter(|_| takes("period_ms")),
            limiters: Some(self.lanes.clone()),
            window_ms: self.window_ms,
            requests: takes("requests").then(|| self.requests.clone()),
            seed: self.seed.filter(|_| takes("seed")),
            load_permille: self.load_permille.filter(|_| takes("load")),
            clients: self.clients.filter(|_| takes("clients")),
            duration_ms: self.duration_ms.filter(|_| takes("duration_ms")),
        };
        let mut config = scenario::scenario(&self.scenario, &o)?;
        if self.scenario == "manual" && !self.requests.is_empty() {
            config.stream = self.requests.clone();
            config.validate()?;
        }
        Ok(config)
    }
}

/// The lanes a playground opens a scenario with: the golden stream's three (fixed
/// window, sliding log, token bucket, at 5 per 10 s: the page's default view), else
/// the scenario's own lanes (at most [`MAX_PLAYGROUND_LANES`]), topped up to three
/// with those three at the budget. Ids normalised.
pub fn default_lanes(id: &str, limit: u64, period_ms: u64) -> Vec<LaneSpec> {
    use Algorithm::*;
    let basic = [FixedWindow, SlidingLog, TokenBucket];
    let mut lanes: Vec<LaneSpec> = if id == "golden" {
        basic
            .iter()
            .map(|&a| LaneSpec::simple(a, limit, period_ms))
            .collect()
    } else {
        scenario::default_lanes(id, limit, period_ms)
    };
    lanes.truncate(MAX_PLAYGROUND_LANES);
    for a in basic {
        if lanes.len() >= 3 {
            break;
        }
        if !lanes.iter().any(|l| l.algorithm == a) {
            lanes.push(LaneSpec::simple(a, limit, period_ms));
        }
    }
    normalise_ids(&mut lanes);
    lanes
}

/// Labels lanes as the JSON format does when no id is given: the algorithm's id,
/// numbered (`token_bucket-2`) when an earlier lane has it.
pub fn normalise_ids(lanes: &mut [LaneSpec]) {
    let mut taken: Vec<String> = Vec::with_capacity(lanes.len());
    for lane in lanes.iter_mut() {
        let base = lane.algorithm.id();
        let mut id = base.to_string();
        let mut n = 1;
        while taken.contains(&id) {
            n += 1;
            id = format!("{base}-{n}");
        }
        taken.push(id.clone());
        lane.id = id;
    }
}

// ---------------------------------------------------------------------------
// Values

/// Parses a duration: `500ms`, `10s`, `1.5s`, `2m`, `1h`, or a bare number of ms.
/// The result must be a whole number of ms, at most 2^53 − 1.
pub fn parse_duration(text: &str) -> Result<u64, String> {
    let s = text.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (number, unit) = s.split_at(split);
    let scale: u128 = match unit.trim() {
        "" | "ms" => 1,
        "s" => 1_000,
        "m" | "min" => 60_000,
        "h" => 3_600_000,
        _ => return Err(duration_help(text)),
    };
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && frac.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 9
    {
        return Err(duration_help(text));
    }
    // More than 20 digits is a duration, just far too long (and would overflow below).
    if whole.trim_start_matches('0').len() > 20 {
        return Err(format!("{} is too large", shorten(text)));
    }
    let digits = |d: &str| -> u128 {
        d.bytes()
            .fold(0u128, |acc, b| acc * 10 + u128::from(b - b'0'))
    };
    let den = 10u128.pow(frac.len() as u32);
    // whole·scale + frac·scale/den, exactly.
    let num = digits(whole) * den + digits(frac);
    let scaled = num * scale;
    if scaled % den != 0 {
        return Err(format!(
            "must be a whole number of milliseconds, got {}",
            shorten(text)
        ));
    }
    let ms = scaled / den;
    if ms > MAX_TIME_MS as u128 {
        return Err(format!("{} is too large", shorten(text)));
    }
    Ok(ms as u64)
}

fn duration_help(text: &str) -> String {
    format!(
        "must be a duration like 10s, 500ms, 1.5s or 2m, got \"{}\"",
        shorten(text)
    )
}

/// Writes a duration the way [`parse_duration`] reads it, shortest unit first:
/// `1h`, `2m`, `10s`, `1.5s`, `250ms`.
pub fn format_duration(ms: u64) -> String {
    if ms == 0 {
        "0s".to_string()
    } else if ms % 3_600_000 == 0 {
        format!("{}h", ms / 3_600_000)
    } else if ms % 60_000 == 0 {
        format!("{}m", ms / 60_000)
    } else if ms % 1_000 == 0 {
        format!("{}s", ms / 1_000)
    } else if ms > 1_000 {
        let frac = format!("{:03}", ms % 1_000);
        format!("{}.{}s", ms / 1_000, frac.trim_end_matches('0'))
    } else {
        format!("{ms}ms")
    }
}

/// A whole number in `0..=max`.
pub fn parse_count(text: &str, max: u64) -> Result<u64, String> {
    let s = text.trim();
    if s.is_empty() {
        return Err("must be a whole number, got nothing".to_string());
    }
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("must be a whole number, got \"{}\"", shorten(s)));
    }
    match s.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!("{} is too large (at most {max})", shorten(s))),
    }
}

/// A multiple written `1`, `1.25`, `.5` or `16x` (at most three digits each side of
/// the point) → thousandths, exactly; `None` if it is not one.
fn permille(text: &str) -> Option<u32> {
    let s = text.trim().trim_end_matches('x');
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    let ok = !(whole.is_empty() && frac.is_empty())
        && whole.len() <= 3
        && frac.len() <= 3
        && whole.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| {
        let w: u32 = whole.parse().unwrap_or(0);
        let f: u32 = format!("{frac:0<3}").parse().unwrap_or(0);
        w * 1000 + f
    })
}

/// A speed: `0.25`, `2`, `16x` → thousandths, one of [`SPEEDS_PERMILLE`].
pub fn parse_speed(text: &str) -> Result<u32, String> {
    match permille(text) {
        Some(p) if SPEEDS_PERMILLE.contains(&p) => Ok(p),
        _ => Err(format!(
            "must be one of 0.25, 0.5, 1, 2, 4, 8, 16, got \"{}\"",
            shorten(text)
        )),
    }
}

/// A speed in thousandths as people write it: `0.25`, `2`.
pub fn format_speed(permille: u32) -> String {
    if permille % 1000 == 0 {
        (permille / 1000).to_string()
    } else {
        let frac = format!("{:03}", permille % 1000);
        format!("{}.{}", permille / 1000, frac.trim_end_matches('0'))
    }
}

fn parse_bool(text: &str) -> Result<bool, String> {
    match text.trim() {
        "1" | "true" | "yes" | "on" | "" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        other => Err(format!("must be 1 or 0, got \"{}\"", shorten(other))),
    }
}

/// A load multiple (`1.25`) → thousandths, 0.001 to 100.
fn parse_load(text: &str) -> Result<u32, String> {
    match permille(text) {
        Some(p) if (1..=defaults::MAX_LOAD_PERMILLE).contains(&p) => Ok(p),
        _ => Err(format!(
            "must be a multiple of the limit from 0.001 to 100, got \"{}\"",
            shorten(text)
        )),
    }
}

fn format_load(permille: u32) -> String {
    format_speed(permille)
}

/// Custom requests: `t[:key[:cost]]`, comma-separated, sorted; pieces percent-encoded.
/// `raw` is the still-encoded value, so that keys may contain `,` and `:`.
pub fn parse_requests(raw: &str) -> Result<Stream, String> {
    let mut stream = Stream::new();
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(stream);
    }
    let mut previous = 0;
    for (i, item) in raw.split(',').enumerate() {
        if i >= MAX_URL_REQUESTS {
            return Err(format!(
                "more than {MAX_URL_REQUESTS} requests (use the JSON import)"
            ));
        }
        let mut parts = item.split(':');
        let t_text = decode(parts.next().unwrap_or(""));
        let t = parse_duration(&t_text).map_err(|e| format!("request {i}: {e}"))?;
        if t < previous {
            return Err(format!(
                "request {i}: {} comes before the one before it (requests must be sorted by time)",
                format_duration(t)
            ));
        }
        previous = t;
        let key_name = parts.next().map(decode).unwrap_or_default();
        if key_name.chars().count() > MAX_LABEL_CHARS {
            return Err(format!(
                "request {i}: a key must be at most {MAX_LABEL_CHARS} characters"
            ));
        }
        let cost = match parts.next() {
            None => 1,
            Some(c) => match parse_count(&decode(c), u64::from(u32::MAX)) {
                Ok(c) if c > 0 => c as u32,
                Ok(_) => return Err(format!("request {i}: a cost must be > 0")),
                Err(e) => return Err(format!("request {i}: cost {e}")),
            },
        };
        if parts.next().is_some() {
            return Err(format!(
                "request {i}: write t, t:key or t:key:cost, got \"{}\"",
                shorten(&decode(item))
            ));
        }
        let key = match stream.keys.iter().position(|k| *k == key_name) {
            Some(k) => k as u32,
            None => {
                stream.keys.push(key_name);
                (stream.keys.len() - 1) as u32
            }
        };
        stream.requests.push(Request { t, key, cost });
    }
    Ok(stream)
}

/// Writes requests as [`parse_requests`] reads them.
pub fn format_requests(stream: &Stream) -> String {
    let mut out = String::new();
    for (i, r) in stream.requests.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format_duration(r.t));
        let key = stream.key_name(r.key).unwrap_or("");
        if !key.is_empty() || r.cost != 1 {
            out.push(':');
            out.push_str(&encode(key));
        }
        if r.cost != 1 {
            out.push(':');
            out.push_str(&r.cost.to_string());
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Percent-encoding

/// Percent-decodes (and reads `+` as a space); invalid escapes stay as written and
/// invalid UTF-8 becomes U+FFFD.
pub fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = |j: usize| bytes.get(j).and_then(|c| (*c as char).to_digit(16));
        match b {
            b'+' => out.push(b' '),
            b'%' => match (hex(i + 1), hex(i + 2)) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            _ => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Percent-encodes everything but `A–Z a–z 0–9 - . _ ~`.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A value quoted back in a notice: at most [`SHOWN`] characters, and on one line
/// (a `%0A` in a link must not break the notice: control characters are escaped).
fn shorten(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == SHOWN {
            out.push('…');
            break;
        }
        if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

// ---------------------------------------------------------------------------
// The query string

/// Per-lane parameters, before they are given to the lanes.
#[derive(Default)]
struct LaneParams {
    limit: Option<u64>,
    period_ms: Option<u64>,
    /// `Some(None)`: given empty, i.e. back to the algorithm's default.
    burst: Option<Option<u64>>,
    delay: Option<Option<u64>>,
    nodelay: Option<bool>,
}

/// Splits a query string (with or without the leading `?`) into `(key, raw value)`
/// pairs, keys decoded.
pub fn pairs(query: &str) -> Vec<(String, String)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), v.to_string())
        })
        .collect()
}

/// Parses a query string. Never fails: see the module docs.
pub fn parse(query: &str) -> (ShareState, Vec<Notice>) {
    parse_pairs(&pairs(query))
}

/// Parses `(key, raw value)` pairs (values still percent-encoded, as in a URL; the
/// element's attributes and JS options are encoded by the caller with [`encode`]).
pub fn parse_pairs(pairs: &[(String, String)]) -> (ShareState, Vec<Notice>) {
    let mut notices = Vec::new();
    let mut note = |key: &str, raw: &str, reason: String| {
        notices.push(Notice {
            key: shorten(key),
            value: shorten(&decode(raw)),
            reason,
        });
    };
    // The scenario first: the other defaults depend on it.
    let mut state = ShareState::default();
    if let Some((k, raw)) = pairs.iter().rev().find(|(k, _)| k == "scenario") {
        let id = decode(raw);
        match scenario_info(id.trim()) {
            Some(info) => state = ShareState::for_scenario(info.id),
            None => note(
                k,
                raw,
                format!(
                    "unknown scenario (expected one of {}); showing \"{DEFAULT_SCENARIO}\"",
                    scenario::scenario_ids()
                ),
            ),
        }
    }
    let mut algorithms: Option<Vec<Algorithm>> = None;
    let mut lane_params: Vec<LaneParams> = Vec::new();
    for (key, raw) in pairs {
        let value = decode(raw);
        let key = key.as_str();
        // `name.i`: a lane's own parameter.
        if let Some((name, index)) = key.split_once('.') {
            let Ok(i) = parse_count(index, MAX_PLAYGROUND_LANES as u64 - 1) else {
                note(
                    key,
                    raw,
                    format!(
                        "lane numbers run from 0 to {}; ignored",
                        MAX_PLAYGROUND_LANES - 1
                    ),
                );
                continue;
            };
            let i = i as usize;
            if lane_params.len() <= i {
                lane_params.resize_with(i + 1, LaneParams::default);
            }
            let Some(p) = lane_params.get_mut(i) else {
                continue;
            };
            let result = match name {
                "limit" => parse_count(&value, MAX_COUNT).map(|n| p.limit = Some(n)),
                "period" => parse_duration(&value).map(|n| p.period_ms = Some(n)),
                "burst" => optional_count(&value).map(|n| p.burst = Some(n)),
                "delay" => optional_count(&value).map(|n| p.delay = Some(n)),
                "nodelay" => parse_bool(&value).map(|b| p.nodelay = Some(b)),
                _ => Err("unknown parameter; ignored".to_string()),
            };
            if let Err(e) = result {
                note(key, raw, with_default(e));
            }
            continue;
        }
        let result: Result<(), String> = match key {
            "scenario" => Ok(()),
            "limiters" | "lanes" => {
                let mut list = Vec::new();
                let mut bad = Vec::new();
                for name in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    match Algorithm::from_id(name) {
                        Some(a) => list.push(a),
                        None => bad.push(shorten(name)),
                    }
                }
                if !bad.is_empty() {
                    note(
                        key,
                        raw,
                        format!(
                            "unknown limiter {} (expected {}); left out",
                            bad.join(", "),
                            Algorithm::ALL.map(Algorithm::id).join(", ")
                        ),
                    );
                }
                if list.len() > MAX_PLAYGROUND_LANES {
                    note(
                        key,
                        raw,
                        format!(
                            "at most {MAX_PLAYGROUND_LANES} limiters at once; showing the first {MAX_PLAYGROUND_LANES}"
                        ),
                    );
                    list.truncate(MAX_PLAYGROUND_LANES);
                }
                if list.is_empty() {
                    if bad.is_empty() {
                        Err("no limiters given; showing the scenario's".to_string())
                    } else {
                        Ok(())
                    }
                } else {
                    algorithms = Some(list);
                    Ok(())
                }
            }
            "limit" => parse_count(&value, MAX_COUNT)
                .and_then(positive)
                .map(|n| state.limit = Some(n)),
            "period" | "period_ms" => parse_duration(&value)
                .and_then(positive)
                .and_then(|n| at_most(n, MAX_PERIOD_MS))
                .map(|n| state.period_ms = Some(n)),
            "window" | "window_ms" => parse_duration(&value)
                .and_then(positive)
                .and_then(|n| at_most(n, MAX_PERIOD_MS))
                .map(|n| state.window_ms = Some(n)),
            "requests" => (if state.carries_requests() {
                Ok(())
            } else {
                only_for(&state, "requests")
            })
            .and_then(|_| parse_requests(raw))
            .map(|s| state.requests = s),
            "seed" => only_for(&state, "seed")
                .and_then(|_| parse_count(&value, MAX_TIME_MS))
                .map(|n| state.seed = Some(n)),
            "load" => only_for(&state, "load")
                .and_then(|_| parse_load(&value))
                .map(|n| state.load_permille = Some(n)),
            "clients" => only_for(&state, "clients")
                .and_then(|_| parse_count(&value, u64::from(defaults::MAX_CLIENTS)))
                .and_then(positive)
                .map(|n| state.clients = Some(n as u32)),
            "duration" | "duration_ms" => only_for(&state, "duration_ms")
                .and_then(|_| parse_duration(&value))
                .and_then(positive)
                .and_then(|n| at_most(n, MAX_PERIOD_MS))
                .map(|n| state.duration_ms = Some(n)),
            "t" => parse_duration(&value).map(|n| state.t_ms = n),
            "speed" => parse_speed(&value).map(|n| state.speed_permille = n),
            "lang" => match LANGS.iter().find(|l| **l == value.trim()) {
                Some(l) => {
                    state.lang = l;
                    Ok(())
                }
                None => Err(format!("must be one of {}", LANGS.join(", "))),
            },
            "sel" => parse_count(&value, MAX_TIME_MS).map(|n| state.selected = Some(n)),
            "hl" => parse_bool(&value).map(|b| state.highlight = b),
            _ => Err("unknown parameter; ignored".to_string()),
        };
        if let Err(e) = result {
            note(key, raw, with_default(e));
        }
    }
    // The lanes: the algorithms given (or the scenario's), the shared budget, then
    // each lane's own parameters, each checked by the engine.
    let base = reference_lanes(&state, algorithms.as_deref());
    let mut lanes = Vec::with_capacity(base.len());
    for (i, mut lane) in base.into_iter().enumerate() {
        if let Some(p) = lane_params.get(i) {
            apply_lane_params(&mut lane, p, i, &mut notices);
        }
        match lane.build() {
            Ok(_) => lanes.push(lane),
            Err(e) => notices.push(Notice {
                key: "limiters".to_string(),
                value: lane.algorithm.id().to_string(),
                reason: format!("{e}; left out"),
            }),
        }
    }
    for i in lanes.len()..lane_params.len() {
        let has_any = lane_params.get(i).is_some_and(|p| {
            p.limit.is_some()
                || p.period_ms.is_some()
                || p.burst.is_some()
                || p.delay.is_some()
                || p.nodelay.is_some()
        });
        if has_any {
            notices.push(Notice {
                key: format!("*.{i}"),
                value: String::new(),
                reason: format!("there is no lane {i}; ignored"),
            });
        }
    }
    if lanes.is_empty() {
        lanes = state.lanes.clone();
    }
    normalise_ids(&mut lanes);
    state.lanes = lanes;
    // Last, the engine checks the whole (a request's cost against a lane, …).
    if let Err(e) = state.to_config() {
        let fallback = ShareState::for_scenario(&state.scenario);
        notices.push(Notice {
            key: "scenario".to_string(),
            value: state.scenario.clone(),
            reason: format!("{e}; showing the scenario's defaults"),
        });
        state = ShareState {
            t_ms: state.t_ms,
            speed_permille: state.speed_permille,
            lang: state.lang,
            highlight: state.highlight,
            ..fallback
        };
    }
    (state, notices)
}

/// Gives lane `i` its own parameters, one at a time, each kept only if the engine
/// accepts the lane with it.
fn apply_lane_params(lane: &mut LaneSpec, p: &LaneParams, i: usize, notices: &mut Vec<Notice>) {
    let algorithm = lane.algorithm;
    let mut try_set =
        |lane: &mut LaneSpec, name: &str, shown: String, set: &dyn Fn(&mut Params)| {
            let mut candidate = lane.clone();
            set(&mut candidate.params);
            match candidate.build() {
                Ok(_) => *lane = candidate,
                Err(e) => notices.push(Notice {
                    key: format!("{name}.{i}"),
                    value: shown,
                    reason: with_default(format!("{e} for {}", algorithm.id())),
                }),
            }
        };
    let refuse = |name: &str, shown: String, who: &str| Notice {
        key: format!("{name}.{i}"),
        value: shown,
        reason: format!("{} takes no {name} (only {who}); ignored", algorithm.id()),
    };
    let mut refused = Vec::new();
    if let Some(n) = p.limit {
        try_set(lane, "limit", n.to_string(), &move |q| q.limit = n);
    }
    if let Some(n) = p.period_ms {
        try_set(lane, "period", format_duration(n), &move |q| {
            q.period_ms = n
        });
    }
    let nginx = algorithm == Algorithm::Nginx;
    let shown = |n: Option<u64>| n.map_or_else(String::new, |n| n.to_string());
    if let Some(n) = p.burst {
        if algorithm.uses_burst() {
            try_set(lane, "burst", shown(n), &move |q| q.burst = n);
        } else {
            refused.push(refuse(
                "burst",
                shown(n),
                "the buckets, GCRA, the queue and nginx",
            ));
        }
    }
    if let Some(n) = p.delay {
        if nginx {
            try_set(lane, "delay", shown(n), &move |q| q.delay = n);
        } else {
            refused.push(refuse("delay", shown(n), "nginx"));
        }
    }
    if let Some(b) = p.nodelay {
        if nginx {
            try_set(lane, "nodelay", u8::from(b).to_string(), &move |q| {
                q.nodelay = b;
                if b {
                    q.delay = None;
                }
            });
        } else {
            refused.push(refuse("nodelay", u8::from(b).to_string(), "nginx"));
        }
    }
    notices.extend(refused);
}

/// A lane option: a whole number, or nothing for the algorithm's default.
fn optional_count(text: &str) -> Result<Option<u64>, String> {
    if text.trim().is_empty() {
        Ok(None)
    } else {
        parse_count(text, MAX_COUNT).map(Some)
    }
}

fn with_default(reason: String) -> String {
    if reason.ends_with("ignored") || reason.ends_with("left out") || reason.contains("showing") {
        reason
    } else {
        format!("{reason}; using the default")
    }
}

fn positive(n: u64) -> Result<u64, String> {
    if n == 0 {
        Err("must be > 0".to_string())
    } else {
        Ok(n)
    }
}

fn at_most(n: u64, max: u64) -> Result<u64, String> {
    if n > max {
        Err(format!(
            "{} is too large (at most {})",
            n,
            format_duration(max)
        ))
    } else {
        Ok(n)
    }
}

fn only_for(state: &ShareState, field: &str) -> Result<(), String> {
    if state.takes(field) {
        Ok(())
    } else {
        Err(format!(
            "not used by scenario \"{}\"; ignored",
            state.scenario
        ))
    }
}

/// Writes the state as a query string (without `?`), leaving out what equals the
/// defaults; [`parse`] reads it back to an equal state.
pub fn to_query(state: &ShareState) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut put = |k: &str, v: String| out.push(format!("{k}={v}"));
    put("scenario", encode(&state.scenario));
    let names: Vec<&str> = state.lanes.iter().map(|l| l.algorithm.id()).collect();
    put("limiters", names.join(","));
    if let Some(n) = state.limit {
        put("limit", n.to_string());
    }
    if let Some(p) = state.period_ms {
        put("period", format_duration(p));
    }
    let ids: Vec<Algorithm> = state.lanes.iter().map(|l| l.algorithm).collect();
    let reference = reference_lanes(state, Some(&ids));
    for (i, lane) in state.lanes.iter().enumerate() {
        let reference = reference.get(i).map_or(lane.params, |l| l.params);
        let p = &lane.params;
        if p.limit != reference.limit {
            put(&format!("limit.{i}"), p.limit.to_string());
        }
        if p.period_ms != reference.period_ms {
            put(&format!("period.{i}"), format_duration(p.period_ms));
        }
        // An empty value sets an option back to the algorithm's default (where the
        // scenario's own lane has one, e.g. lab C's nginx with a burst of 11).
        let option = |v: Option<u64>| v.map_or_else(String::new, |v| v.to_string());
        if p.burst != reference.burst {
            put(&format!("burst.{i}"), option(p.burst));
        }
        if p.delay != reference.delay {
            put(&format!("delay.{i}"), option(p.delay));
        }
        if p.nodelay != reference.nodelay {
            put(&format!("nodelay.{i}"), u8::from(p.nodelay).to_string());
        }
    }
    if let Some(w) = state.window_ms {
        put("window", format_duration(w));
    }
    if state.carries_requests() && !state.requests.is_empty() {
        put("requests", format_requests(&state.requests));
    }
    if let Some(s) = state.seed {
        put("seed", s.to_string());
    }
    if let Some(l) = state.load_permille {
        put("load", format_load(l));
    }
    if let Some(c) = state.clients {
        put("clients", c.to_string());
    }
    if let Some(d) = state.duration_ms {
        put("duration", format_duration(d));
    }
    if state.t_ms > 0 {
        put("t", format_duration(state.t_ms));
    }
    if state.speed_permille != 1000 {
        put("speed", format_speed(state.speed_permille));
    }
    if state.lang != "en" {
        put("lang", state.lang.to_string());
    }
    if let Some(s) = state.selected {
        put("sel", s.to_string());
    }
    if state.highlight {
        put("hl", "1".to_string());
    }
    out.join("&")
}

/// The lanes a link's lane parameters are relative to: the scenario's own lanes when
/// `algorithms` names exactly those (so lab C keeps its buckets of 1 and 20), else
/// each algorithm with its defaults; then the shared budget, if one is set.
fn reference_lanes(state: &ShareState, algorithms: Option<&[Algorithm]>) -> Vec<LaneSpec> {
    let (limit, period) = state.budget();
    let own = default_lanes(&state.scenario, limit, period);
    let same =
        algorithms.is_none_or(|list| own.iter().map(|l| l.algorithm).eq(list.iter().copied()));
    let mut lanes = if same {
        own
    } else {
        algorithms
            .unwrap_or_default()
            .iter()
            .map(|&a| LaneSpec::simple(a, limit, period))
            .collect()
    };
    if state.limit.is_some() || state.period_ms.is_some() {
        for l in &mut lanes {
            l.params.limit = limit;
            l.params.period_ms = period;
        }
    }
    lanes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("10s"), Ok(10_000));
        assert_eq!(parse_duration("1.5s"), Ok(1_500));
        assert_eq!(parse_duration("11.2s"), Ok(11_200));
        assert_eq!(parse_duration("2m"), Ok(120_000));
        assert_eq!(parse_duration("250"), Ok(250));
        assert_eq!(parse_duration("250ms"), Ok(250));
        assert!(parse_duration("1.0005s").is_err());
        assert!(parse_duration("").is_err());
        assert!(parse_duration(".").is_err());
        assert!(parse_duration("-1s").is_err());
        assert!(parse_duration("NaN").is_err());
        assert!(parse_duration("1e20").is_err());
        assert!(parse_duration("99999999999999999999h").is_err());
        for ms in [
            0, 1, 999, 1_000, 1_500, 11_200, 60_000, 90_000, 3_600_000, 3_600_001,
        ] {
            assert_eq!(parse_duration(&format_duration(ms)), Ok(ms), "{ms}");
        }
        assert_eq!(format_duration(11_200), "11.2s");
        assert_eq!(format_duration(60_000), "1m");
    }

    #[test]
    fn speeds() {
        assert_eq!(parse_speed("0.25"), Ok(250));
        assert_eq!(parse_speed("16x"), Ok(16_000));
        assert!(parse_speed("3").is_err());
        assert!(parse_speed("").is_err());
        for s in SPEEDS_PERMILLE {
            assert_eq!(parse_speed(&format_speed(s)), Ok(s));
        }
    }

    #[test]
    fn the_default_is_the_golden_stream_with_three_lanes() {
        let (s, notices) = parse("");
        assert!(notices.is_empty());
        assert_eq!(s, ShareState::default());
        let ids: Vec<&str> = s.lanes.iter().map(|l| l.id.as_str()).collect();
        assert_eq!(ids, ["fixed_window", "sliding_log", "token_bucket"]);
        assert_eq!(
            to_query(&s),
            "scenario=golden&limiters=fixed_window,sliding_log,token_bucket"
        );
    }

    #[test]
    fn a_full_link_round_trips() {
        let q = "scenario=edge-burst&limiters=fixed_window,token_bucket,nginx&limit=4&period=2s\
                 &burst.1=2&burst.2=3&delay.2=1&window=4s&t=2.1s&speed=0.25&lang=vi&sel=3&hl=1";
        let (s, notices) = parse(q);
        assert_eq!(notices, []);
        assert_eq!(s.budget(), (4, 2_000));
        assert_eq!(s.lanes[1].params.burst, Some(2));
        assert_eq!(s.lanes[2].params.delay, Some(1));
        assert_eq!((s.t_ms, s.speed_permille, s.lang), (2_100, 250, "vi"));
        assert_eq!(to_query(&s), q);
        assert_eq!(parse(&to_query(&s)), (s, vec![]));
    }

    #[test]
    fn lab_c_keeps_its_buckets() {
        let s = ShareState::for_scenario("lab-c");
        let q = to_query(&s);
        assert_eq!(
            q,
            "scenario=lab-c&limiters=token_bucket,token_bucket,leaky_queue,nginx"
        );
        assert_eq!(parse(&q), (s.clone(), vec![]));
        assert_eq!(s.lanes[1].id, "token_bucket-2");
        assert_eq!(s.lanes[1].params.burst, Some(20));
    }

    #[test]
    fn custom_requests_round_trip_with_keys_and_costs() {
        let q = "scenario=custom&limiters=gcra&requests=0s,1.5s,2s:alice,2s:a%2Cb%3Ac:3";
        let (s, notices) = parse(q);
        assert_eq!(notices, []);
        assert_eq!(s.requests.keys, ["", "alice", "a,b:c"]);
        assert_eq!(
            s.requests.requests[3],
            Request {
                t: 2_000,
                key: 2,
                cost: 3
            }
        );
        assert_eq!(to_query(&s), q);
    }

    #[test]
    fn a_manual_links_carries_the_requests_sent_by_hand() {
        let q = "scenario=manual&limiters=token_bucket&requests=0s,0s,1.5s";
        let (s, notices) = parse(q);
        assert_eq!(notices, []);
        assert_eq!(s.to_config().unwrap().stream.len(), 3);
        assert_eq!(to_query(&s), q);
        // Other scenarios still refuse them.
        let (_, notices) = parse("scenario=golden&requests=0");
        assert_eq!(notices.len(), 1);
    }

    #[test]
    fn every_bad_value_falls_back_with_a_notice() {
        let q = "scenario=nope&limiters=fixed_window,bogus&limit=0&period=NaN&t=-3&speed=3\
                 &lang=fr&hl=maybe&burst.0=2&limit.9=1&zzz=1&seed=4&window=1e20";
        let (s, notices) = parse(q);
        let keys: Vec<&str> = notices.iter().map(|n| n.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "scenario", "limiters", "limit", "period", "t", "speed", "lang", "hl", "limit.9",
                "zzz", "seed", "window", "burst.0"
            ]
        );
        assert_eq!(s.scenario, "golden");
        assert_eq!(s.lanes.len(), 1);
        assert_eq!(s.budget(), (5, 10_000));
        assert_eq!(
            (s.t_ms, s.speed_permille, s.lang, s.highlight),
            (0, 1000, "en", false)
        );
        assert_eq!(
            notices[2].to_string(),
            "limit=0: must be > 0; using the default"
        );
        assert_eq!(
            notices[12].to_string(),
            "burst.0=2: fixed_window takes no burst (only the buckets, GCRA, the queue and nginx); ignored"
        );
    }

    #[test]
    fn the_engine_checks_lane_parameters() {
        let (s, notices) =
            parse("limiters=gcra,token_bucket&burst.0=0&limit.1=99999999999999999999");
        assert_eq!(s.lanes[0].params.burst, None);
        assert_eq!(notices.len(), 2, "{notices:?}");
        assert_eq!(notices[0].key, "limit.1");
        assert_eq!(
            notices[1].to_string(),
            "burst.0=0: burst: must be > 0 for gcra; using the default"
        );
    }

    #[test]
    fn too_many_lanes_are_cut() {
        let all = Algorithm::ALL.map(Algorithm::id).join(",");
        let (s, notices) = parse(&format!("limiters={all}"));
        assert_eq!(s.lanes.len(), MAX_PLAYGROUND_LANES);
        assert_eq!(notices.len(), 1);
    }

    #[test]
    fn every_scenario_opens_with_one_to_six_valid_lanes() {
        for info in crate::SCENARIOS {
            let s = ShareState::for_scenario(info.id);
            assert!(
                (1..=MAX_PLAYGROUND_LANES).contains(&s.lanes.len()),
                "{}",
                info.id
            );
            s.to_config().unwrap_or_else(|e| panic!("{}: {e}", info.id));
            assert_eq!(parse(&to_query(&s)), (s, vec![]), "{}", info.id);
        }
    }

    #[test]
    fn decoding_never_panics_on_broken_escapes() {
        assert_eq!(decode("%"), "%");
        assert_eq!(decode("%4"), "%4");
        assert_eq!(decode("%zz%41+b"), "%zzA b");
        assert_eq!(decode("%ff"), "\u{fffd}");
        assert_eq!(encode("a b,c"), "a%20b%2Cc");
    }
}

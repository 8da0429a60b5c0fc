//! The JSON input format, read by hand from a [`Json`] tree so that every error is
//! one line naming its path (`limiters[2].period_ms: must be > 0`).
//!
//! # Integers
//!
//! A count or a time is written as digits: `1000`, not `1e3`, `1000.0` or `1E3`
//! (`must be an integer written with digits only (no point or exponent), got 1e3`);
//! `-0` is refused as a negative number; a fraction (`1.5`, and `1e-400`, which is
//! not zero however a float rounds it) is refused as not whole. JSON's grammar allows
//! all of them, but none is how a person writes a whole number of milliseconds, and
//! refusing them keeps one reading of every input. The JS API takes JavaScript
//! numbers by value (`1e3` there is the number 1000).
//!
//! Checks run in a fixed order that does not depend on the order of keys in the
//! input (or on whether serde_json preserves it), so the same input gives the same
//! message in every build.

use std::collections::BTreeMap;

use ratelab_core::{Algorithm, Params, MAX_COUNT, MAX_PERIOD_MS};
use serde_json::Value;

use super::tree::{self, Json, Num, NumKind, Obj};

use crate::config::Config;
use crate::error::SimError;
use crate::lane::{LaneSpec, MAX_LANES};
use crate::scenario::{self, defaults, scenario_ids, Overrides, ScenarioId, ScenarioInfo};
use crate::stream::{Request, Stream, MAX_REQUESTS, MAX_TIME_MS};
use crate::text;

/// Every top-level field, in the order errors are looked for.
pub const TOP_FIELDS: &[&str] = &[
    "requests",
    "limiters",
    "window_ms",
    "scenario",
    "limit",
    "period_ms",
    "seed",
    "load",
    "clients",
    "duration_ms",
    "services",
];

/// The fields of a limiter object.
pub const LIMITER_FIELDS: &[&str] = &[
    "algorithm",
    "id",
    "limit",
    "period_ms",
    "burst",
    "delay",
    "nodelay",
];

/// The fields of a request object.
pub const REQUEST_FIELDS: &[&str] = &["t", "key", "cost"];

pub use crate::stream::MAX_LABEL_CHARS;

/// The most bytes shown of a string value in an error.
const SHOWN_CHARS: usize = 40;

pub(crate) fn config_from_str(text: &str) -> Result<Config, SimError> {
    config_from_tree(&tree::parse(text)?)
}

/// One limiter object (a lane, as an entry of `limiters`), its errors' paths relative
/// to the object (`period_ms: must be > 0`).
pub(crate) fn lane_from_str(text: &str) -> Result<LaneSpec, SimError> {
    limiter_from(&tree::parse(text)?, "", None)
}

/// One limiter object from a parsed JSON value (the JS API's `limiter(config)`).
pub(crate) fn lane_from_value(value: &Value) -> Result<LaneSpec, SimError> {
    limiter_from(&Json::from_value(value), "", None)
}

/// One request asked of a live limiter: `now`, and `cost` and `key` if given,
/// checked as a request object of `requests` is, with the same messages (`now:
/// must be an integer ≥ 0, got -1`).
pub(crate) fn request_from_values(
    now: &Value,
    cost: Option<&Value>,
    key: Option<&Value>,
) -> Result<(u64, u32, String), SimError> {
    let t = uint(&Json::from_value(now), "now", MAX_TIME_MS, Unit::Ms)?;
    let cost = match cost {
        None => 1,
        Some(c) => positive(
            uint(&Json::from_value(c), "cost", u32::MAX as u64, Unit::Count)?,
            "cost",
        )? as u32,
    };
    let key = match key {
        None => String::new(),
        Some(k) => label(&Json::from_value(k), "key")?.to_string(),
    };
    Ok((t, cost, key))
}

pub(crate) fn config_from_value(value: &Value) -> Result<Config, SimError> {
    config_from_tree(&Json::from_value(value))
}

fn config_from_tree(value: &Json<'_>) -> Result<Config, SimError> {
    let Json::Object(obj) = value else {
        return Err(SimError::at(
            "",
            format_args!(
                "the input must be a JSON object ({{\"requests\": [...], \"limiters\": [...]}} or {{\"scenario\": \"...\"}}), got {}",
                describe(value)
            ),
        ));
    };
    unknown_fields(obj, "", TOP_FIELDS)?;
    match obj.get("scenario") {
        None => explicit(obj),
        Some(Json::String(id)) => with_scenario(obj, id),
        Some(other) => Err(SimError::at(
            "scenario",
            format_args!("must be a string, got {}", describe(other)),
        )),
    }
}

/// `{"requests": [...], "limiters": [...], "window_ms": W}`, or `{"services": [...]}`.
fn explicit(obj: &Obj<'_>) -> Result<Config, SimError> {
    if let Some(services) = obj.get("services") {
        for &field in TOP_FIELDS {
            if field != "services" && obj.contains_key(field) {
                return Err(SimError::at(
                    field,
                    "not used with \"services\" (each service has its own clients and limits)",
                ));
            }
        }
        if !cfg!(feature = "services") {
            return Err(crate::service::left_out("services"));
        }
        let config = Config::services(super::service::services_from(services)?);
        config.validate()?;
        return Ok(config);
    }
    for &field in TOP_FIELDS {
        if obj.contains_key(field) && !["requests", "limiters", "window_ms"].contains(&field) {
            return Err(SimError::at(
                field,
                "only used with a \"scenario\" (see `ratelab scenarios`)",
            ));
        }
    }
    let requests = obj.get("requests").ok_or_else(|| {
        SimError::at(
            "requests",
            "required (an array of times in ms), or give a \"scenario\"",
        )
    })?;
    let stream = requests_from(requests)?;
    let limiters = obj.get("limiters").ok_or_else(|| {
        SimError::at(
            "limiters",
            "required (an array of limiters), or give a \"scenario\"",
        )
    })?;
    let lanes = limiters_from(limiters, None)?;
    let window_ms = window(obj)?;
    let config = Config::new(stream, lanes, window_ms);
    config.validate()?;
    Ok(config)
}

/// `{"scenario": "<id>", ...overrides}`.
fn with_scenario(obj: &Obj<'_>, id: &str) -> Result<Config, SimError> {
    let info: &ScenarioInfo = scenario::scenario_info(id).ok_or_else(|| {
        SimError::at(
            "scenario",
            format_args!(
                "unknown scenario \"{}\" (expected one of {})",
                shown(id),
                scenario_ids()
            ),
        )
    })?;
    for &field in TOP_FIELDS {
        if field != "scenario" && obj.contains_key(field) && !info.overrides.contains(&field) {
            return Err(SimError::at(
                field,
                format_args!(
                    "not used by scenario \"{}\" (it takes {})",
                    info.id,
                    info.overrides.join(", ")
                ),
            ));
        }
    }
    let mut o = Overrides {
        limit: opt(obj, "limit", |v, p| uint(v, p, MAX_COUNT, Unit::Count))?,
        period_ms: opt(obj, "period_ms", |v, p| uint(v, p, MAX_PERIOD_MS, Unit::Ms))?,
        ..Overrides::default()
    };
    let budget = (
        o.limit.unwrap_or(info.limit),
        o.period_ms.unwrap_or(info.period_ms),
    );
    o.limiters = opt(obj, "limiters", |v, _| limiters_from(v, Some(budget)))?;
    if info.id == ScenarioId::Custom && o.limiters.is_none() {
        return Err(SimError::at(
            "limiters",
            "required by scenario \"custom\" (an array of limiters)",
        ));
    }
    o.window_ms = window(obj)?;
    o.requests = opt(obj, "requests", |v, _| requests_from(v))?;
    o.seed = opt(obj, "seed", |v, p| uint(v, p, MAX_TIME_MS, Unit::Count))?;
    o.load_permille = opt(obj, "load", load)?;
    o.clients = opt(obj, "clients", |v, p| {
        let n = uint(v, p, defaults::MAX_CLIENTS as u64, Unit::Count)?;
        positive(n, p).map(|n| n as u32)
    })?;
    o.duration_ms = opt(obj, "duration_ms", |v, p| {
        positive(uint(v, p, MAX_PERIOD_MS, Unit::Ms)?, p)
    })?;
    scenario::scenario(info.id, &o)
}

fn window(obj: &Obj<'_>) -> Result<Option<u64>, SimError> {
    opt(obj, "window_ms", |v, p| {
        positive(uint(v, p, MAX_PERIOD_MS, Unit::Ms)?, p)
    })
}

fn opt<T>(
    obj: &Obj<'_>,
    field: &str,
    parse: impl FnOnce(&Json<'_>, &str) -> Result<T, SimError>,
) -> Result<Option<T>, SimError> {
    obj.get(field).map(|v| parse(v, field)).transpose()
}

pub(super) fn positive(n: u64, path: &str) -> Result<u64, SimError> {
    if n == 0 {
        Err(SimError::at(path, "must be > 0"))
    } else {
        Ok(n)
    }
}

/// `load`: a multiple of the limit (1.25 = 1.25x), kept in thousandths.
fn load(v: &Json<'_>, path: &str) -> Result<u32, SimError> {
    let Json::Number(n) = v else {
        return Err(SimError::at(
            path,
            format_args!(
                "must be a number (1.25 = 1.25x the limit), got {}",
                describe(v)
            ),
        ));
    };
    let f = n.as_f64();
    if f.is_nan() || f <= 0.0 {
        return Err(SimError::at(
            path,
            format_args!("must be a number > 0, got {}", number_text(n)),
        ));
    }
    let max = defaults::MAX_LOAD_PERMILLE;
    let permille = (f * 1000.0).round();
    if permille > max as f64 {
        return Err(SimError::at(
            path,
            format_args!("{} is too large (at most {})", number_text(n), max / 1000),
        ));
    }
    if permille < 1.0 {
        return Err(SimError::at(
            path,
            format_args!("must be at least 0.001, got {}", number_text(n)),
        ));
    }
    Ok(permille as u32)
}

/// The units an integer field is in, for the wording of its errors.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Unit {
    Count,
    Ms,
}

/// An integer in `0..=max`, written with digits (see the module docs).
pub(super) fn uint(v: &Json<'_>, path: &str, max: u64, unit: Unit) -> Result<u64, SimError> {
    let noun = match unit {
        Unit::Count => "an integer",
        Unit::Ms => "an integer number of ms",
    };
    let Json::Number(n) = v else {
        return Err(SimError::at(
            path,
            format_args!("must be {noun}, got {}", describe(v)),
        ));
    };
    let too_large = || {
        SimError::at(
            path,
            format_args!("{} is too large (at most {max})", number_text(n)),
        )
    };
    match n.kind() {
        NumKind::Unsigned(Some(u)) if u <= max => Ok(u),
        NumKind::Unsigned(_) => Err(too_large()),
        NumKind::Negative => Err(SimError::at(
            path,
            format_args!("must be an integer ≥ 0, got {}", number_text(n)),
        )),
        NumKind::Other(f) if f.is_nan() || f < 0.0 || (f == 0.0 && f.is_sign_negative()) => {
            Err(SimError::at(
                path,
                format_args!("must be an integer ≥ 0, got {}", number_text(n)),
            ))
        }
        NumKind::Other(f) if f.fract() != 0.0 || (f == 0.0 && !is_zero_text(n)) => Err(
            SimError::at(path, format_args!("must be {noun}, got {}", number_text(n))),
        ),
        // 2^64 as f64; `max as f64` may round up, so test both.
        NumKind::Other(f) if f >= 18_446_744_073_709_551_616.0 || f > max as f64 => {
            Err(too_large())
        }
        NumKind::Other(_) => Err(SimError::at(
            path,
            format_args!(
                "must be {noun} written with digits only (no point or exponent), got {}",
                number_text(n)
            ),
        )),
    }
}

/// Whether a number written with a point or an exponent is exactly zero (`0.0`,
/// `0e5`): its digits before the exponent are all zeros. (`1e-400` is not zero,
/// though a float rounds it to 0.)
fn is_zero_text(n: &Num<'_>) -> bool {
    let t = n.text().trim_start_matches('-');
    let mantissa = t.split(['e', 'E']).next().unwrap_or(t);
    mantissa.bytes().all(|b| b == b'0' || b == b'.')
}

/// A number as the user wrote it, shortened for a message.
fn number_text(n: &Num<'_>) -> String {
    shown(n.text())
}

/// A short description of a value for "got ..." (strings quoted and shortened).
pub(super) fn describe(v: &Json<'_>) -> String {
    match v {
        Json::Null => "null".into(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => number_text(n),
        Json::String(s) => format!("\"{}\"", shown(s)),
        Json::Array(_) => "an array".into(),
        Json::Object(_) => "an object".into(),
    }
}

/// A string shortened for an error message.
pub(super) fn shown(s: &str) -> String {
    text::shorten(s, SHOWN_CHARS)
}

/// A time written plainly (the common case, read without formatting a path).
fn plain_time(n: &Num<'_>) -> Option<u64> {
    match n.kind() {
        NumKind::Unsigned(Some(t)) if t <= MAX_TIME_MS => Some(t),
        _ => None,
    }
}

pub(super) fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

/// Rejects the first unknown field (in sorted order, so the message does not depend
/// on the input's key order).
pub(super) fn unknown_fields(obj: &Obj<'_>, path: &str, known: &[&str]) -> Result<(), SimError> {
    // The first in sorted order, without collecting them (an object may hold a
    // million unknown keys).
    match obj.keys().filter(|k| !known.contains(k)).min() {
        None => Ok(()),
        // An empty name is shown as `""`, so that the line still starts with a path.
        Some(k) => Err(SimError::at(
            &join(
                path,
                &if k.is_empty() {
                    "\"\"".into()
                } else {
                    shown(k)
                },
            ),
            format_args!("unknown field (expected one of {})", known.join(", ")),
        )),
    }
}

pub(super) fn string<'a>(v: &'a Json<'_>, path: &str) -> Result<&'a str, SimError> {
    match v {
        Json::String(s) => Ok(s),
        other => Err(SimError::at(
            path,
            format_args!("must be a string, got {}", describe(other)),
        )),
    }
}

pub(super) fn label<'a>(v: &'a Json<'_>, path: &str) -> Result<&'a str, SimError> {
    let s = string(v, path)?;
    if s.chars().count() > MAX_LABEL_CHARS {
        return Err(SimError::at(
            path,
            format_args!("must be at most {MAX_LABEL_CHARS} characters"),
        ));
    }
    Ok(s)
}

fn algorithm_ids() -> String {
    Algorithm::ALL.map(Algorithm::id).join(", ")
}

/// `limiters`: a non-empty array of limiter objects. `budget` is the scenario's
/// (limit, period_ms), the default for entries that omit them.
fn limiters_from(v: &Json<'_>, budget: Option<(u64, u64)>) -> Result<Vec<LaneSpec>, SimError> {
    let Json::Array(items) = v else {
        return Err(SimError::at(
            "limiters",
            format_args!("must be an array, got {}", describe(v)),
        ));
    };
    if items.is_empty() {
        return Err(SimError::at("limiters", "must not be empty"));
    }
    if items.len() > MAX_LANES {
        return Err(SimError::at(
            "limiters",
            format_args!("{} limiters is too many (at most {MAX_LANES})", items.len()),
        ));
    }
    let mut lanes: Vec<LaneSpec> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let path = format!("limiters[{i}]");
        let mut lane = limiter_from(item, &path, budget)?;
        name_lane(&mut lane, item, &path, |id| {
            lanes.iter().any(|l| l.id == id)
        })?;
        lanes.push(lane);
    }
    Ok(lanes)
}

/// Ids resolve in order: an unnamed lane (no `id` in `item`) takes its algorithm's
/// id, numbered (`gcra-2`) if `taken`; a given id must not be.
pub(super) fn name_lane(
    lane: &mut LaneSpec,
    item: &Json<'_>,
    path: &str,
    taken: impl Fn(&str) -> bool,
) -> Result<(), SimError> {
    if item.get("id").is_some() {
        if taken(&lane.id) {
            return Err(SimError::at(
                &join(path, "id"),
                format_args!("duplicate id \"{}\"", lane.id),
            ));
        }
    } else {
        let base = lane.algorithm.id();
        let mut n = 1;
        let mut id = base.to_string();
        while taken(&id) {
            n += 1;
            id = format!("{base}-{n}");
        }
        lane.id = id;
    }
    Ok(())
}

pub(super) fn limiter_from(
    v: &Json<'_>,
    path: &str,
    budget: Option<(u64, u64)>,
) -> Result<LaneSpec, SimError> {
    let Json::Object(obj) = v else {
        return Err(SimError::at(
            path,
            format_args!(
                "must be an object like {{\"algorithm\": \"token_bucket\", \"limit\": 5, \"period_ms\": 10000}}, got {}",
                describe(v)
            ),
        ));
    };
    unknown_fields(obj, path, LIMITER_FIELDS)?;
    let field = |f: &str| join(path, f);
    let algorithm = match obj.get("algorithm") {
        None => {
            return Err(SimError::at(
                &field("algorithm"),
                format_args!("required (one of {})", algorithm_ids()),
            ))
        }
        Some(a) => {
            let name = string(a, &field("algorithm"))?;
            Algorithm::from_id(name).ok_or_else(|| {
                SimError::at(
                    &field("algorithm"),
                    format_args!(
                        "unknown algorithm \"{}\" (expected one of {})",
                        shown(name),
                        algorithm_ids()
                    ),
                )
            })?
        }
    };
    let id = match obj.get("id") {
        None => algorithm.id().to_string(),
        Some(v) => {
            let id = label(v, &field("id"))?;
            if id.is_empty() {
                return Err(SimError::at(&field("id"), "must not be empty"));
            }
            id.to_string()
        }
    };
    let required = |f: &str, default: Option<u64>, max: u64, unit: Unit| match obj.get(f) {
        Some(v) => uint(v, &field(f), max, unit),
        None => default.ok_or_else(|| SimError::at(&field(f), "required")),
    };
    let limit = required("limit", budget.map(|b| b.0), MAX_COUNT, Unit::Count)?;
    let period_ms = required("period_ms", budget.map(|b| b.1), MAX_PERIOD_MS, Unit::Ms)?;
    let uses = |f: &str, ok: bool, who: &str| -> Result<(), SimError> {
        if obj.contains_key(f) && !ok {
            Err(SimError::at(
                &field(f),
                format_args!("{} takes no {f} (only {who})", algorithm.id()),
            ))
        } else {
            Ok(())
        }
    };
    let with_burst = Algorithm::ALL
        .into_iter()
        .filter(|a| a.uses_burst())
        .map(Algorithm::id)
        .collect::<Vec<_>>()
        .join(", ");
    uses("burst", algorithm.uses_burst(), &with_burst)?;
    let nginx = algorithm == Algorithm::Nginx;
    uses("delay", nginx, "nginx")?;
    uses("nodelay", nginx, "nginx")?;
    let burst = opt(obj, "burst", |v, _| {
        uint(v, &field("burst"), MAX_COUNT, Unit::Count)
    })?;
    let delay = opt(obj, "delay", |v, _| {
        uint(v, &field("delay"), MAX_COUNT, Unit::Count)
    })?;
    let nodelay = match obj.get("nodelay") {
        None => false,
        Some(Json::Bool(b)) => *b,
        Some(other) => {
            return Err(SimError::at(
                &field("nodelay"),
                format_args!("must be true or false, got {}", describe(other)),
            ))
        }
    };
    if nodelay && delay.is_some() {
        return Err(SimError::at(
            &field("nodelay"),
            "give either delay or nodelay, not both",
        ));
    }
    let lane = LaneSpec {
        id,
        algorithm,
        params: Params {
            limit,
            period_ms,
            burst,
            delay,
            nodelay,
        },
    };
    lane.build().map_err(|e| SimError::param(path, &e))?;
    Ok(lane)
}

/// `requests`: times in ms, or `{"t", "key", "cost"}` objects (mixing is fine).
fn requests_from(v: &Json<'_>) -> Result<Stream, SimError> {
    let Json::Array(items) = v else {
        return Err(SimError::at(
            "requests",
            format_args!("must be an array, got {}", describe(v)),
        ));
    };
    if items.len() > MAX_REQUESTS {
        return Err(SimError::at(
            "requests",
            format_args!(
                "{} requests is too many (at most {MAX_REQUESTS})",
                items.len()
            ),
        ));
    }
    let mut stream = Stream {
        requests: Vec::with_capacity(items.len()),
        keys: vec![String::new()],
    };
    let mut key_ids: BTreeMap<&str, u32> = BTreeMap::new();
    key_ids.insert("", 0);
    // The previous request's time, index, and whether it was an object (for the
    // path in an error; paths are only formatted when there is an error).
    let mut previous: Option<(u64, usize, bool)> = None;
    let time_path = |i: usize, object: bool| {
        if object {
            format!("requests[{i}].t")
        } else {
            format!("requests[{i}]")
        }
    };
    for (i, item) in items.iter().enumerate() {
        let (request, object) = match item {
            // The common case, without formatting a path.
            Json::Number(n) if plain_time(n).is_some() => {
                (Request::at(plain_time(n).unwrap_or(0)), false)
            }
            Json::Number(_) => {
                let t = uint(item, &time_path(i, false), MAX_TIME_MS, Unit::Ms)?;
                (Request::at(t), false)
            }
            Json::Object(obj) => {
                let path = format!("requests[{i}]");
                unknown_fields(obj, &path, REQUEST_FIELDS)?;
                let t = match obj.get("t") {
                    Some(t) => uint(t, &time_path(i, true), MAX_TIME_MS, Unit::Ms)?,
                    None => return Err(SimError::at(&time_path(i, true), "required")),
                };
                let key = match obj.get("key") {
                    None => 0,
                    Some(k) => {
                        let name = label(k, &join(&path, "key"))?;
                        match key_ids.get(name) {
                            Some(&id) => id,
                            None => {
                                let id = stream.keys.len() as u32;
                                key_ids.insert(name, id);
                                stream.keys.push(name.to_string());
                                id
                            }
                        }
                    }
                };
                let cost = match obj.get("cost") {
                    None => 1,
                    Some(c) => {
                        let c_path = join(&path, "cost");
                        positive(uint(c, &c_path, u32::MAX as u64, Unit::Count)?, &c_path)? as u32
                    }
                };
                (Request { t, key, cost }, true)
            }
            other => {
                return Err(SimError::at(
                    &format!("requests[{i}]"),
                    format_args!(
                        "must be a time in ms or an object like {{\"t\": 1000, \"key\": \"a\", \"cost\": 1}}, got {}",
                        describe(other)
                    ),
                ))
            }
        };
        if let Some((p, j, was_object)) = previous {
            if request.t < p {
                return Err(SimError::at(
                    &time_path(i, object),
                    format_args!(
                        "{} comes before {} = {p} (requests must be sorted by time)",
                        request.t,
                        time_path(j, was_object)
                    ),
                ));
            }
        }
        previous = Some((request.t, i, object));
        stream.requests.push(request);
    }
    Ok(stream)
}

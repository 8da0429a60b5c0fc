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

use ratelab_core::{MAX_COUNT, MAX_PERIOD_MS};
use serde_json::Value;

use super::fields::{
    describe, join, label, limiter_from, name_lane, number_text, opt, plain_time, positive, shown,
    uint, unknown_fields, Unit,
};
use super::tree::{self, Json, Obj};

use crate::config::Config;
use crate::error::SimError;
use crate::lane::{LaneSpec, MAX_LANES};
use crate::scenario::{self, defaults, scenario_ids, Overrides, ScenarioId, ScenarioInfo};
use crate::stream::{Request, Stream, MAX_REQUESTS, MAX_TIME_MS};

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
    "responses",
];

/// The fields of a request object.
pub const REQUEST_FIELDS: &[&str] = &["t", "key", "cost"];

pub use crate::stream::MAX_LABEL_CHARS;

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
    let mut config = match obj.get("scenario") {
        None => explicit(obj),
        Some(Json::String(id)) => with_scenario(obj, id),
        Some(other) => Err(SimError::at(
            "scenario",
            format_args!("must be a string, got {}", describe(other)),
        )),
    }?;
    match obj.get("responses") {
        None | Some(Json::Bool(false)) => {}
        Some(Json::Bool(true)) => config.ask_responses()?,
        Some(other) => {
            return Err(SimError::at(
                "responses",
                format_args!("must be true or false, got {}", describe(other)),
            ))
        }
    }
    Ok(config)
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
        if obj.contains_key(field)
            && !["requests", "limiters", "window_ms", "responses"].contains(&field)
        {
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
        let output = ["scenario", "responses"].contains(&field);
        if !output && obj.contains_key(field) && !info.overrides.contains(&field) {
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

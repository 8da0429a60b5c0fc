//! The readers every part of the input format shares: integers, strings, labels,
//! unknown fields, error paths, and one limiter object.

use ratelab_core::{Algorithm, Params, MAX_COUNT, MAX_PERIOD_MS};

use super::tree::{Json, Num, NumKind, Obj};

use crate::error::SimError;
use crate::lane::LaneSpec;
use crate::stream::{MAX_LABEL_CHARS, MAX_TIME_MS};
use crate::text;

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

/// The most bytes shown of a string value in an error.
const SHOWN_CHARS: usize = 40;

pub(super) fn positive(n: u64, path: &str) -> Result<u64, SimError> {
    if n == 0 {
        Err(SimError::at(path, "must be > 0"))
    } else {
        Ok(n)
    }
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
pub(super) fn number_text(n: &Num<'_>) -> String {
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
pub(super) fn plain_time(n: &Num<'_>) -> Option<u64> {
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

pub(super) fn opt<T>(
    obj: &Obj<'_>,
    field: &str,
    parse: impl FnOnce(&Json<'_>, &str) -> Result<T, SimError>,
) -> Result<Option<T>, SimError> {
    obj.get(field).map(|v| parse(v, field)).transpose()
}

//! Single values of a link: durations, counts, speeds, loads, flags and the
//! `requests` list, each read exactly (no floats) with a message that says what was
//! expected, and written back the way they are read.

use ratelab_core::MAX_COUNT;

use super::encoding::{decode, encode};
use super::{MAX_URL_REQUESTS, SPEEDS_PERMILLE};
use crate::scenario::defaults;
use crate::stream::MAX_LABEL_CHARS;
use crate::stream::{Request, Stream, MAX_TIME_MS};

/// The longest value quoted back in a notice.
const SHOWN: usize = 40;

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

pub(super) fn duration_help(text: &str) -> String {
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
pub(super) fn permille(text: &str) -> Option<u32> {
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

/// The closest zoom a link names: 16× (2⁴).
pub const MAX_ZOOM_EXP: i8 = 4;
/// The widest: 1/2³² (the page stops widening once the whole run shows).
pub const MIN_ZOOM_EXP: i8 = -32;

/// A zoom as people write it, a power of two: `4` (4×), `1`, `1/8` (⅛×) →
/// its exponent (2, 0, −3), from [`MIN_ZOOM_EXP`] to [`MAX_ZOOM_EXP`].
pub fn parse_zoom(text: &str) -> Result<i8, String> {
    let t = text.trim();
    let (den, num) = match t.split_once('/') {
        Some((one, n)) if one.trim() == "1" => (true, n.trim()),
        Some(_) => (true, ""),
        None => (false, t),
    };
    let exp = num
        .parse::<u64>()
        .ok()
        .filter(|n| n.is_power_of_two())
        .map(|n| n.trailing_zeros() as i8)
        .map(|e| if den { -e } else { e })
        .filter(|e| (MIN_ZOOM_EXP..=MAX_ZOOM_EXP).contains(e));
    exp.ok_or_else(|| {
        format!(
            "must be a power of two from 1/4294967296 to 16, like 4 or 1/8, got \"{}\"",
            shorten(text)
        )
    })
}

/// A zoom exponent as [`parse_zoom`] reads it: `4`, `1`, `1/8`.
pub fn format_zoom(exp: i8) -> String {
    if exp >= 0 {
        (1u64 << exp).to_string()
    } else {
        format!("1/{}", 1u64 << exp.unsigned_abs())
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

pub(super) fn parse_bool(text: &str) -> Result<bool, String> {
    match text.trim() {
        "1" | "true" | "yes" | "on" | "" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        other => Err(format!("must be 1 or 0, got \"{}\"", shorten(other))),
    }
}

/// A fold as a link says it: `open` → `true`, `folded` → `false`.
pub(super) fn parse_fold(text: &str) -> Result<bool, String> {
    match text.trim() {
        "open" => Ok(true),
        "folded" => Ok(false),
        other => Err(format!(
            "must be open or folded, got \"{}\"",
            shorten(other)
        )),
    }
}

/// A fold as [`parse_fold`] reads it.
pub(super) fn format_fold(open: bool) -> &'static str {
    if open {
        "open"
    } else {
        "folded"
    }
}

/// A load multiple (`1.25`) → thousandths, 0.001 to 100.
pub(super) fn parse_load(text: &str) -> Result<u32, String> {
    match permille(text) {
        Some(p) if (1..=defaults::MAX_LOAD_PERMILLE).contains(&p) => Ok(p),
        _ => Err(format!(
            "must be a multiple of the limit from 0.001 to 100, got \"{}\"",
            shorten(text)
        )),
    }
}

pub(super) fn format_load(permille: u32) -> String {
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

/// A value quoted back in a notice: at most [`SHOWN`] characters, on one line and
/// with bidi overrides neutralised (a `%0A` or `%E2%80%AE` in a link must not break
/// or reverse the notice). Public for the page's own link fields (`lesson=`), so
/// their notices read alike.
pub fn shorten(s: &str) -> String {
    crate::text::shorten(s, SHOWN)
}

/// A lane option: a whole number, or nothing for the algorithm's default.
pub(super) fn optional_count(text: &str) -> Result<Option<u64>, String> {
    if text.trim().is_empty() {
        Ok(None)
    } else {
        parse_count(text, MAX_COUNT).map(Some)
    }
}

pub(super) fn positive(n: u64) -> Result<u64, String> {
    if n == 0 {
        Err("must be > 0".to_string())
    } else {
        Ok(n)
    }
}

pub(super) fn at_most(n: u64, max: u64) -> Result<u64, String> {
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

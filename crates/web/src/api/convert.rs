//! The JS API's runs: `simulate(config)`, `simulateJson(text)` and `scenarios()`
//! (exported from [`super`]). With the `split` feature they are the `api` chunk,
//! fetched by `load()` (web/ratelab.js) and never by a page that only mounts
//! playgrounds: they hold the walk from a JS object to JSON, the report's way
//! back, the service model's runs and the registry's writer.
//!
//! `simulate` takes a plain JS object in the command line's JSON format and returns
//! the same report, computed by the same function (`simulate_value`), so results and
//! error messages are the command line's. The object is converted with
//! `serde-wasm-bindgen` into a JSON value ([`from_js`]), which refuses what JSON
//! cannot hold with a path-style message (`limiters[0].limit: must be a finite
//! number, got NaN`) and checks every size before anything is allocated: an array's
//! length and an object's key count are read first, so `new Array(1e8)` is refused
//! at once, never copied. The report goes back through `serde-wasm-bindgen` too.

use std::cell::Cell;

use js_sys::JsString;
use ratelab_core::{AnyLimiter, Keyed, Limiter as _, Policy, BODY_CONTENT_TYPE};
use ratelab_sim::{LaneSpec, SimError, MAX_LABEL_CHARS, MAX_LANES, MAX_REQUESTS};
use serde::de::{self, DeserializeSeed, Deserializer as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{kind, type_error, MAX_STRING};

/// The API's calls, as function pointers into the `api` chunk once it is here.
#[derive(Clone, Copy)]
pub struct Calls {
    /// `simulate(config)`.
    pub simulate: fn(JsValue) -> Result<JsValue, JsValue>,
    /// `simulateJson(text)`.
    pub simulate_json: fn(JsValue) -> Result<String, JsValue>,
    /// `scenarios()`.
    pub scenarios: fn() -> JsValue,
    /// `limiter(config)`: the live limiter, its code in this chunk too (the first
    /// module's [`super::Limiter`] reaches it through the trait object).
    pub limiter: fn(JsValue) -> Result<Box<dyn super::LiveCheck>, JsValue>,
}

/// The calls (what the `api` chunk's split point returns).
pub const CALLS: Calls = Calls {
    simulate,
    simulate_json,
    scenarios,
    limiter,
};

/// How deep a config may nest (a cycle would otherwise never end).
const MAX_DEPTH: u32 = 32;
/// The most values (numbers, strings, arrays, objects) a config may hold: the
/// largest stream as objects of three fields, and room for the rest.
const MAX_VALUES: usize = 4 * MAX_REQUESTS + 100_000;
/// The most keys of one object (the format's objects have at most a dozen).
const MAX_KEYS: usize = 1_000;
/// The longest text `simulateJson` takes, in UTF-16 units: more than the largest
/// stream written as objects needs.
const MAX_TEXT: u32 = 1 << 28;
fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

fn at(path: &str, message: impl std::fmt::Display) -> String {
    if path.is_empty() {
        message.to_string()
    } else {
        format!("{path}: {message}")
    }
}

/// The message of an error `serde-wasm-bindgen` carries (a JS `Error`).
fn message(e: serde_wasm_bindgen::Error) -> String {
    let v = JsValue::from(e);
    js_sys::Reflect::get(&v, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_else(|| format!("{v:?}"))
}

/// One conversion: how many values may still be read.
struct Walk {
    left: Cell<usize>,
    /// The objects and arrays being read, outermost first: one met again is a
    /// cycle, which JSON cannot hold.
    open: std::cell::RefCell<Vec<JsValue>>,
}

impl Walk {
    /// Reserves `n` values, refusing before they are read.
    fn take(&self, n: usize, path: &str) -> Result<(), String> {
        let left = self.left.get();
        if n > left {
            return Err(at(
                path,
                format_args!("the input is too large (more than {MAX_VALUES} values in all)"),
            ));
        }
        self.left.set(left - n);
        Ok(())
    }
}

/// A value at `path`; `None` for `undefined` (a property that is not there, as
/// `JSON.stringify` sees it).
struct Node<'a> {
    walk: &'a Walk,
    path: String,
    depth: u32,
}

impl Node<'_> {
    fn convert(self, raw: JsValue) -> Result<Option<Value>, String> {
        let path = self.path.as_str();
        if raw.is_undefined() {
            return Ok(None);
        }
        if self.depth > MAX_DEPTH {
            return Err(at(
                path,
                format_args!("nested too deeply (at most {MAX_DEPTH} levels)"),
            ));
        }
        if let Some(s) = raw.dyn_ref::<JsString>() {
            if s.length() > MAX_STRING {
                return Err(at(
                    path,
                    format_args!(
                        "a string of {} characters is too long (at most {MAX_STRING})",
                        s.length()
                    ),
                ));
            }
        }
        if raw.is_bigint() {
            let text = js_sys::BigInt::from(raw)
                .to_string(10)
                .ok()
                .and_then(|s| s.as_string())
                .unwrap_or_default();
            return match (text.parse::<u64>(), text.parse::<i64>()) {
                (Ok(u), _) => Ok(Some(Value::Number(u.into()))),
                (_, Ok(i)) => Ok(Some(Value::Number(i.into()))),
                _ => Err(at(path, format_args!("{text} is too large"))),
            };
        }
        if raw.is_symbol() || raw.is_function() {
            return Err(at(
                path,
                format_args!("must be a JSON value, got {}", kind(&raw)),
            ));
        }
        if raw.has_type::<js_sys::Date>() {
            return Err(at(
                path,
                "must be a number of ms, got a Date (give getTime() minus your start)",
            ));
        }
        // An object or array met again inside itself is a cycle.
        let walk = self.walk;
        let object = raw.is_object();
        if object {
            if walk
                .open
                .borrow()
                .iter()
                .any(|o| js_sys::Object::is(o, &raw))
            {
                return Err(at(path, "contains itself (a cycle: JSON cannot hold one)"));
            }
            walk.open.borrow_mut().push(raw.clone());
        }
        let got = serde_wasm_bindgen::Deserializer::from(raw)
            .deserialize_any(self)
            .map(Some)
            .map_err(message);
        if object {
            walk.open.borrow_mut().pop();
        }
        got
    }
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Option<Value>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let raw: JsValue = serde_wasm_bindgen::preserve::deserialize(d)?;
        self.convert(raw).map_err(de::Error::custom)
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Value, E> {
        number(x, &self.path).map_err(E::custom)
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_string()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let path = self.path.as_str();
        // An array's length is known before any element is read: a hostile one is
        // refused before it costs anything. The two long lists of the format get
        // the engine's own message.
        let n = seq.size_hint().unwrap_or(0);
        let too_many = match path {
            "requests" if n > MAX_REQUESTS => {
                Some(format!("{n} requests is too many (at most {MAX_REQUESTS})"))
            }
            "limiters" if n > MAX_LANES => {
                Some(format!("{n} limiters is too many (at most {MAX_LANES})"))
            }
            _ => None,
        };
        if let Some(m) = too_many {
            return Err(de::Error::custom(at(path, m)));
        }
        self.walk.take(n, path).map_err(de::Error::custom)?;
        let mut out = Vec::new();
        loop {
            // Counted as they come too: an iterable may not say its length.
            if out.len() >= n {
                self.walk.take(1, path).map_err(de::Error::custom)?;
            }
            let item = Node {
                walk: self.walk,
                path: format!("{path}[{}]", out.len()),
                depth: self.depth + 1,
            };
            match seq.next_element_seed(item)? {
                // As JSON.stringify: a hole or `undefined` in an array is null.
                Some(v) => out.push(v.unwrap_or(Value::Null)),
                None => break,
            }
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let path = self.path.as_str();
        let n = map.size_hint().unwrap_or(0);
        if n > MAX_KEYS {
            return Err(de::Error::custom(at(
                path,
                format_args!("an object with {n} keys is too large (at most {MAX_KEYS})"),
            )));
        }
        self.walk.take(n, path).map_err(de::Error::custom)?;
        let mut out = Map::new();
        let mut read = 0;
        while let Some(key) = map.next_key::<String>()? {
            read += 1;
            if read > n {
                self.walk.take(1, path).map_err(de::Error::custom)?;
            }
            if read > MAX_KEYS {
                return Err(de::Error::custom(at(
                    path,
                    format_args!("an object with more than {MAX_KEYS} keys is too large"),
                )));
            }
            let item = Node {
                walk: self.walk,
                path: join(path, &key),
                depth: self.depth + 1,
            };
            // As JSON.stringify: an `undefined` property is no property.
            if let Some(v) = map.next_value_seed(item)? {
                out.insert(key, v);
            }
        }
        Ok(Value::Object(out))
    }
}

/// A JS number as JSON: integers exactly (so `5` is the command line's `5`), others
/// as floats (which the engine refuses where it wants an integer, with its own
/// message). JSON has no NaN or Infinity: refused here, with the path.
fn number(x: f64, path: &str) -> Result<Value, String> {
    if x.is_nan() || x.is_infinite() {
        let shown = if x.is_nan() {
            "NaN"
        } else if x > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        };
        return Err(at(
            path,
            format_args!("must be a finite number, got {shown}"),
        ));
    }
    const TWO_64: f64 = 18_446_744_073_709_551_616.0;
    if x.fract() == 0.0 && (0.0..TWO_64).contains(&x) {
        return Ok(Value::Number((x as u64).into()));
    }
    if x.fract() == 0.0 && (-(TWO_64 / 2.0)..0.0).contains(&x) {
        return Ok(Value::Number((x as i64).into()));
    }
    Ok(Number::from_f64(x).map_or(Value::Null, Value::Number))
}

/// A JS value as JSON (see the module docs), or a one-line message.
pub fn from_js(v: JsValue) -> Result<Value, String> {
    let walk = Walk {
        left: Cell::new(MAX_VALUES),
        open: Default::default(),
    };
    let node = Node {
        walk: &walk,
        path: String::new(),
        depth: 0,
    };
    Ok(node.convert(v)?.unwrap_or(Value::Null))
}

/// Runs a config (the command line's JSON format, as a JS object) and returns the
/// report. Throws a `TypeError` if `config` is not an object, an `Error` with the
/// command line's message on bad input.
fn simulate(config: JsValue) -> Result<JsValue, JsValue> {
    if !config.is_object() || js_sys::Array::is_array(&config) {
        return Err(type_error(
            "simulate(config)",
            "config",
            "an object",
            &config,
        ));
    }
    let value = from_js(config).map_err(|e| JsError::new(&e))?;
    let report = ratelab_sim::simulate_value(&value).map_err(|e| JsError::new(&e))?;
    // The command line's JSON text, parsed by the engine of the page: the same
    // object `JSON.parse(simulateJson(...))` gives, with one writer of the report
    // in the chunk (a second, to JS values, cost it about 2 KB gzipped).
    js_sys::JSON::parse(&report.to_json())
        .map_err(|_| JsError::new("the report could not be read back").into())
}

/// The same from JSON text to JSON text (exactly `ratelab simulate`'s output).
/// Throws a `TypeError` if `text` is not a string.
fn simulate_json(text: JsValue) -> Result<String, JsValue> {
    let Some(s) = text.dyn_ref::<JsString>() else {
        return Err(type_error("simulateJson(text)", "text", "a string", &text));
    };
    if s.length() > MAX_TEXT {
        return Err(JsError::new(&format!(
            "the input is too large ({} characters, at most {MAX_TEXT})",
            s.length()
        ))
        .into());
    }
    let text = String::from(s);
    ratelab_sim::simulate_json(&text).map_err(|e| JsError::new(&e).into())
}

/// The scenario registry (as `ratelab scenarios --json`).
fn scenarios() -> JsValue {
    // Our own JSON text, parsed by the browser: the same bytes as the command line.
    js_sys::JSON::parse(&ratelab_sim::scenarios_json()).unwrap_or(JsValue::NULL)
}

/// Keys are swept (those at rest dropped, which never changes a decision) when
/// their count reaches this, then twice what is left: amortised O(1) a check.
const SWEEP_MIN: usize = 1024;

/// A live limiter: one engine limiter per key ([`Keyed`], as the tower layer's
/// memory store), asked one request at a time.
struct LiveLimiter {
    keyed: Keyed<AnyLimiter>,
    policy: Policy,
    sweep_at: usize,
}

/// `limiter(config)`: a lane's limiter object, read as `LaneSpec::from_json` reads
/// it (the engine's checks and one-line errors).
fn limiter(config: JsValue) -> Result<Box<dyn super::LiveCheck>, JsValue> {
    if !config.is_object() || js_sys::Array::is_array(&config) {
        return Err(type_error(
            "limiter(config)",
            "config",
            "an object",
            &config,
        ));
    }
    let value = from_js(config).map_err(|e| JsError::new(&e))?;
    let lane = LaneSpec::from_value(&value).map_err(|e| JsError::new(e.as_str()))?;
    let fresh = lane
        .build()
        .map_err(|e| JsError::new(SimError::param("", &e).as_str()))?;
    Ok(Box::new(LiveLimiter {
        policy: fresh.policy(),
        keyed: Keyed::new(fresh),
        sweep_at: SWEEP_MIN,
    }))
}

const CHECK: &str = "check(now, cost, key)";

/// A number argument as JSON (`None` when absent), or a `TypeError` naming it.
fn number_arg(v: &JsValue, name: &str, optional: bool) -> Result<Option<Value>, JsValue> {
    if optional && (v.is_undefined() || v.is_null()) {
        return Ok(None);
    }
    let Some(x) = v.as_f64() else {
        return Err(type_error(CHECK, name, "a number", v));
    };
    number(x, name)
        .map(Some)
        .map_err(|e| JsError::new(&e).into())
}

fn set(o: &js_sys::Object, k: &str, v: JsValue) {
    let _ = js_sys::Reflect::set(o, &k.into(), &v);
}

fn opt(v: Option<u64>) -> JsValue {
    v.map_or(JsValue::NULL, |n| JsValue::from_f64(n as f64))
}

impl super::LiveCheck for LiveLimiter {
    fn check(&mut self, now: JsValue, cost: JsValue, key: JsValue) -> Result<JsValue, JsValue> {
        let now = number_arg(&now, "now", false)?.unwrap_or(Value::Null);
        let cost = number_arg(&cost, "cost", true)?;
        let key = if key.is_undefined() || key.is_null() {
            None
        } else {
            let Some(s) = key.dyn_ref::<JsString>() else {
                return Err(type_error(CHECK, "key", "a string", &key));
            };
            // Longer than any key in UTF-16 units: refused before it is copied.
            if s.length() as usize > 2 * MAX_LABEL_CHARS {
                return Err(JsError::new(&format!(
                    "key: must be at most {MAX_LABEL_CHARS} characters"
                ))
                .into());
            }
            Some(Value::String(String::from(s)))
        };
        let (t, cost, key) = ratelab_sim::live_request(&now, cost.as_ref(), key.as_ref())
            .map_err(|e| JsError::new(e.as_str()))?;
        let d = self
            .keyed
            .check(&key, t, cost)
            .map_err(|e| JsError::new(&e.to_string()))?;
        if self.keyed.len() >= self.sweep_at {
            self.keyed.evict_at_rest(t);
            self.sweep_at = (2 * self.keyed.len()).max(SWEEP_MIN);
        }
        let h = d.headers(&self.policy);
        let out = js_sys::Object::new();
        let allowed = d.allowed();
        set(&out, "allowed", allowed.into());
        set(&out, "status", h.status.into());
        set(&out, "wait_ms", opt(allowed.then(|| d.wait().ceil_ms())));
        set(
            &out,
            "retry_after_ms",
            opt((!allowed).then(|| d.retry_after().ceil_ms())),
        );
        set(&out, "retry_after", opt(h.retry_after));
        set(&out, "remaining", JsValue::from_f64(h.remaining as f64));
        set(
            &out,
            "reset_ms",
            JsValue::from_f64(d.reset().ceil_ms() as f64),
        );
        // The fields of `Headers::response_text`, in its order, from the struct's
        // own values (not `fields()`, whose code the first module does not have).
        let headers = js_sys::Object::new();
        let num = |n: u64| JsValue::from(n.to_string());
        if let Some(r) = h.retry_after {
            set(&headers, "Retry-After", num(r));
        }
        set(&headers, "RateLimit-Policy", h.policy.as_str().into());
        set(&headers, "RateLimit", h.ratelimit.as_str().into());
        set(&headers, "X-RateLimit-Limit", num(h.limit));
        set(&headers, "X-RateLimit-Remaining", num(h.remaining));
        set(&headers, "X-RateLimit-Reset", num(h.reset));
        let body = h.body();
        if body.is_some() {
            set(&headers, "Content-Type", BODY_CONTENT_TYPE.into());
        }
        set(&out, "headers", headers.into());
        set(&out, "body", body.map_or(JsValue::NULL, |b| b.into()));
        Ok(out.into())
    }
}

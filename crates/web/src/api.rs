//! The JavaScript API: `simulate(config)`, `scenarios()` and `mount(element,
//! options)`, exported by wasm-bindgen with TypeScript types.
//!
//! `simulate` takes a plain JS object in the JSON format of the command line and
//! returns the same report, computed by the same function (`simulate_value`), so
//! results and error messages are the CLI's exactly. A JS value is converted to a
//! `serde_json::Value` here, by hand: JSON cannot hold NaN or Infinity, so those are
//! refused with a path-style message (`limiters[0].limit: must be a finite number,
//! got NaN`); every other check is the engine's.

use leptos::prelude::*;
use serde_json::{Map, Number, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::app::{App, MountOptions};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** A request: a time in ms, or an object with a key and a cost. */
export type RequestInput = number | { t: number; key?: string; cost?: number };

/** One limiter, as in the command line's JSON format. */
export interface LimiterInput {
  algorithm:
    | "fixed_window" | "fixed_window_anchored" | "sliding_log" | "sliding_window_counter"
    | "token_bucket" | "leaky_queue" | "gcra" | "nginx"
    | "sliding_log_logs_blocked" | "token_bucket_f64";
  id?: string;
  limit?: number;
  period_ms?: number;
  burst?: number;
  delay?: number;
  nodelay?: boolean;
}

/** The input of `simulate`: explicit requests and limiters, or a scenario. */
export interface SimulateConfig {
  requests?: RequestInput[];
  limiters?: LimiterInput[];
  window_ms?: number;
  scenario?: string;
  limit?: number;
  period_ms?: number;
  seed?: number;
  load?: number;
  clients?: number;
  duration_ms?: number;
}

/** One limiter's result. */
export interface LaneResult {
  id: string;
  algorithm: string;
  params: { limit: number; period_ms: number; burst: number | null; delay: number | null; nodelay: boolean };
  allowed: boolean[];
  wait_ms: (number | null)[];
  passed: number;
  blocked: number;
  max_in_window: number;
  window_ms: number;
  max_in_1s: number;
  max_in_window_departures: number | null;
  longest_wait_ms: number;
  histogram_10s: number[];
  keys: number;
  state_numbers: number;
}

/** The output of `simulate` (the command line's `ratelab simulate`). */
export interface SimulateReport {
  results: LaneResult[];
  scenario: string | null;
  request_count: number;
  sweep?: {
    baseline: string; candidate: string; limit: number; period_ms: number;
    clients: number; duration_ms: number; seed: number;
    rows: { load: string; load_permille: number; requests: number; baseline_allowed: number;
            candidate_allowed: number; wrong_allows: number; wrong_blocks: number }[];
  };
}

/** A scenario of the registry. */
export interface ScenarioInfo {
  id: string;
  title: string;
  description: string;
  overrides: string[];
  limit: number;
  period_ms: number;
  window_ms: number | null;
  limiters: LimiterInput[];
}

/**
 * Options of `mount` (and attributes of `<rate-limit-playground>`): the URL
 * parameters of the playground, plus `compact`.
 */
export interface MountOptions {
  scenario?: string;
  /** Comma-separated algorithm ids, or an array of them (1 to 6). */
  limiters?: string | string[];
  limit?: number | string;
  /** A duration: "10s", "500ms", "1m", or a number of ms. */
  period?: number | string;
  window?: number | string;
  requests?: string;
  seed?: number | string;
  load?: number | string;
  clients?: number | string;
  duration?: number | string;
  t?: number | string;
  speed?: number | string;
  lang?: "en" | "vi";
  hl?: boolean;
  /** Lanes, clock and yardstick only. */
  compact?: boolean;
  /** Lane i's own parameters: "burst.1", "delay.2", "nodelay.2", "limit.0", "period.0". */
  [lane_param: string]: unknown;
}
"#;

/// How deep a config may nest (a cycle would otherwise never end).
const MAX_DEPTH: u32 = 32;

fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

fn prefix(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("{path}: ")
    }
}

/// A JS value as JSON, refusing what JSON cannot hold with a path-style message.
pub fn to_json(v: &JsValue, path: &str, depth: u32) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!(
            "{}nested too deeply (at most {MAX_DEPTH} levels)",
            prefix(path)
        ));
    }
    if v.is_null() || v.is_undefined() {
        return Ok(Value::Null);
    }
    if let Some(b) = v.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Some(s) = v.as_string() {
        return Ok(Value::String(s));
    }
    if let Some(x) = v.as_f64() {
        return number(x, path);
    }
    if v.is_bigint() {
        let text = js_sys::BigInt::from(v.clone())
            .to_string(10)
            .ok()
            .and_then(|s| s.as_string())
            .unwrap_or_default();
        return match (text.parse::<u64>(), text.parse::<i64>()) {
            (Ok(u), _) => Ok(Value::Number(u.into())),
            (_, Ok(i)) => Ok(Value::Number(i.into())),
            _ => Err(format!("{}{text} is too large", prefix(path))),
        };
    }
    if js_sys::Array::is_array(v) {
        let a: &js_sys::Array = v.unchecked_ref();
        let mut out = Vec::with_capacity(a.length() as usize);
        for (i, item) in a.iter().enumerate() {
            out.push(to_json(&item, &format!("{path}[{i}]"), depth + 1)?);
        }
        return Ok(Value::Array(out));
    }
    if v.is_object() && !v.is_function() {
        let obj: &js_sys::Object = v.unchecked_ref();
        let mut out = Map::new();
        for key in js_sys::Object::keys(obj).iter() {
            let Some(k) = key.as_string() else { continue };
            let item = js_sys::Reflect::get(obj, &key).unwrap_or(JsValue::UNDEFINED);
            // As JSON.stringify: an undefined property is no property.
            if item.is_undefined() {
                continue;
            }
            out.insert(k.clone(), to_json(&item, &join(path, &k), depth + 1)?);
        }
        return Ok(Value::Object(out));
    }
    let kind = v.js_typeof().as_string().unwrap_or_default();
    Err(format!(
        "{}must be a JSON value, got a {kind}",
        prefix(path)
    ))
}

/// A JS number as JSON: integers exactly (so `5` is the CLI's `5`), others as floats
/// (which the engine refuses where it wants an integer, with its own message).
fn number(x: f64, path: &str) -> Result<Value, String> {
    if x.is_nan() || x.is_infinite() {
        let shown = if x.is_nan() {
            "NaN"
        } else if x > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        };
        return Err(format!(
            "{}must be a finite number, got {shown}",
            prefix(path)
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

/// Runs a config (the command line's JSON format, as a JS object) and returns the
/// report. Throws an `Error` with the command line's message on bad input.
#[wasm_bindgen(unchecked_return_type = "SimulateReport")]
pub fn simulate(
    #[wasm_bindgen(unchecked_param_type = "SimulateConfig")] config: JsValue,
) -> Result<JsValue, JsError> {
    let value = to_json(&config, "", 0).map_err(|e| JsError::new(&e))?;
    let report = ratelab_sim::simulate_value(&value).map_err(|e| JsError::new(&e))?;
    let text = serde_json::to_string(&report).map_err(|e| JsError::new(&e.to_string()))?;
    js_sys::JSON::parse(&text).map_err(|_| JsError::new("internal error: the report is not JSON"))
}

/// The same from JSON text to JSON text (exactly `ratelab simulate`'s output).
#[wasm_bindgen(js_name = simulateJson)]
pub fn simulate_json(input: &str) -> Result<String, JsError> {
    ratelab_sim::simulate_json(input).map_err(|e| JsError::new(&e))
}

/// The scenario registry (as `ratelab scenarios --json`).
#[wasm_bindgen(unchecked_return_type = "ScenarioInfo[]")]
pub fn scenarios() -> JsValue {
    js_sys::JSON::parse(&ratelab_sim::scenarios_json()).unwrap_or(JsValue::NULL)
}

/// A mounted playground; `unmount()` removes it.
#[wasm_bindgen]
pub struct Playground {
    root: web_sys::HtmlElement,
    handle: Option<Box<dyn std::any::Any>>,
}

#[wasm_bindgen]
impl Playground {
    /// Removes the playground from its element.
    pub fn unmount(&mut self) {
        self.handle = None;
        crate::crash::unregister(&self.root);
    }

    /// The playground's state as a query string (what `embed.html?…` and the page
    /// take).
    pub fn query(&self) -> String {
        crate::crash::query_of(&self.root).unwrap_or_default()
    }
}

/// Attributes of a custom element that are not playground options.
fn is_host_attribute(key: &str) -> bool {
    matches!(
        key,
        "class" | "id" | "style" | "slot" | "hidden" | "tabindex" | "title" | "compact" | "embed"
    ) || key.starts_with("aria-")
        || key.starts_with("data-")
}

/// An option's value as the text a URL would carry (`%` and `+` escaped, so that
/// `,` and `:` still separate list items).
fn option_text(v: &JsValue) -> String {
    let text = if let Some(b) = v.as_bool() {
        if b { "1" } else { "0" }.to_string()
    } else if let Some(x) = v.as_f64() {
        format!("{x}")
    } else if js_sys::Array::is_array(v) {
        let a: &js_sys::Array = v.unchecked_ref();
        a.iter()
            .map(|i| {
                i.as_string()
                    .unwrap_or_else(|| format!("{}", i.as_f64().unwrap_or(f64::NAN)))
            })
            .collect::<Vec<_>>()
            .join(",")
    } else {
        v.as_string().unwrap_or_default()
    };
    text.replace('%', "%25").replace('+', "%2B")
}

/// Parses `mount`'s options: every key but the host's own attributes is a URL
/// parameter; `compact` is read separately.
pub fn options_from_js(options: &JsValue) -> MountOptions {
    let mut pairs = Vec::new();
    let mut compact = false;
    if options.is_object() {
        let obj: &js_sys::Object = options.unchecked_ref();
        for key in js_sys::Object::keys(obj).iter() {
            let Some(k) = key.as_string() else { continue };
            let v = js_sys::Reflect::get(obj, &key).unwrap_or(JsValue::UNDEFINED);
            if v.is_undefined() || v.is_null() {
                continue;
            }
            if k == "compact" {
                // A present attribute is "" (true), as HTML boolean attributes are.
                compact = v.as_bool().unwrap_or_else(|| {
                    let s = v.as_string().unwrap_or_default();
                    s != "false" && s != "0"
                });
                continue;
            }
            if is_host_attribute(&k) {
                continue;
            }
            pairs.push((k, option_text(&v)));
        }
    }
    let (link, notices) = ratelab_sim::share::parse_pairs(&pairs);
    MountOptions {
        embed: true,
        compact,
        link,
        notices,
    }
}

/// Mounts a playground into `element` (for docs pages and the custom element). Keys
/// work while it has focus; it never writes the page's URL.
#[wasm_bindgen]
pub fn mount(
    element: web_sys::HtmlElement,
    #[wasm_bindgen(unchecked_param_type = "MountOptions")] options: JsValue,
) -> Playground {
    crate::crash::install();
    let opts = options_from_js(&options);
    let root = element.clone();
    let handle = leptos::mount::mount_to(element.clone(), move || {
        view! { <App options=opts root=root /> }
    });
    Playground {
        root: element,
        handle: Some(Box::new(handle)),
    }
}

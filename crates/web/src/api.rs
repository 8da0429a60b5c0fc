//! The JavaScript API: `simulate(config)`, `simulateJson(text)`, `scenarios()` and
//! `mount(element, options)`, exported by wasm-bindgen with TypeScript types.
//!
//! `simulate` takes a plain JS object in the command line's JSON format and returns
//! the same report, computed by the same function (`simulate_value`), so results and
//! error messages are the command line's. The object is converted with
//! `serde-wasm-bindgen` into a JSON value ([`from_js`]), which refuses what JSON
//! cannot hold with a path-style message (`limiters[0].limit: must be a finite
//! number, got NaN`) and checks every size before anything is allocated: an array's
//! length and an object's key count are read first, so `new Array(1e8)` is refused
//! at once, never copied. The report goes back through `serde-wasm-bindgen` too.
//!
//! An argument of the wrong type (`simulateJson(12345)`, a `Symbol`, no element
//! for `mount`) throws a `TypeError` naming the argument; nothing here can trap the
//! module on input.

use std::cell::Cell;

use js_sys::JsString;
use leptos::prelude::*;
use ratelab_sim::{MAX_LANES, MAX_REQUESTS};
use serde::de::{self, DeserializeSeed, Deserializer as _, MapAccess, SeqAccess, Visitor};
use serde::Serialize as _;
use serde_json::{Map, Number, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::state::{MountOptions, Theme};
use crate::view::App;

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

/** The input of `simulate`: explicit requests and limiters, or a scenario (a service run too, in a build with the service model). */
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

/// The service model's types. They extend the interfaces above by declaration
/// merging.
#[wasm_bindgen(typescript_custom_section)]
const SERVICE_TYPES: &str = r#"
/** When a client sends first tries (retries come on top). */
export type DemandInput =
  | { kind: "poisson"; rate: number; per_ms?: number; from_ms?: number; until_ms?: number }
  | { kind: "bursts"; size: number; spacing_ms?: number; every_ms?: number; from_ms?: number; until_ms?: number }
  | { kind: "page_load"; size: number; at_ms: number[] }
  | { kind: "times"; times: number[] };

/** What a client does after a refusal (a name alone: the defaults). */
export type RetryInput =
  | "none" | "immediately" | "fixed" | "exponential" | "full_jitter" | "retry_after"
  | { policy: "none" }
  | { policy: "immediately"; max_attempts?: number }
  | { policy: "fixed"; max_attempts?: number; delay_ms?: number }
  | { policy: "exponential" | "full_jitter"; max_attempts?: number; base_ms?: number; cap_ms?: number }
  | { policy: "retry_after"; max_attempts?: number; jitter_ms?: number };

/** A limit of a service: a limiter, whose requests it counts together, on which routes. */
export interface LimitInput extends LimiterInput {
  key?: "client" | "global" | "client_route";
  routes?: string[];
}

/** One service (a lane of a service run): clients, limits, instances, outages. */
export interface ServiceInput {
  id?: string;
  routes?: { name: string; cost?: number }[];
  clients: {
    name: string;
    /** This many clients, named `name-0` … */
    count?: number;
    demand: DemandInput | DemandInput[];
    /** A route name, or weights by route name. */
    routes?: string | Record<string, number>;
    retry?: RetryInput;
  }[];
  limits: LimitInput[];
  instances?: number;
  balancing?: "round_robin" | "random";
  store?: "shared" | "local";
  outages?: { from_ms: number; to_ms: number }[];
  on_outage?: "fail_open" | "fail_closed" | { fallback: Omit<LimitInput, "routes"> };
  duration_ms?: number;
  seed?: number;
  window_ms?: number;
}

/** Nearest-rank percentiles in whole ms (null when there were none). */
export interface Percentiles {
  count: number; p50: number | null; p95: number | null; p99: number | null; max: number | null;
}

/** How requests ended. */
export interface Goodput { first_try: number; after_retry: number; gave_up: number }

/** One service's result: every attempt (one array per field) and its yardstick. */
export interface ServiceResult {
  id: string;
  attempts: {
    t: number[]; client: number[]; route: number[]; attempt: number[];
    original: number[]; retry: (number | null)[]; instance: number[];
    status: (200 | 429 | 503)[];
    decided_by: ("limits" | "fail_open" | "fail_closed" | "fallback")[];
    wait_ms: (number | null)[]; retry_after_s: (number | null)[];
    /** Indices into the service's limits. */
    denied_by: number[][];
  };
  yardstick: {
    demand: number; offered: number; amplification: string; amplification_permille: number;
    passed: number; status_429: number; status_503: number; goodput: Goodput;
    denied_by: { limit: string; count: number }[];
    fail_open: number; fallback_passed: number; fallback_refused: number;
    wait_ms: Percentiles; latency_ms: Percentiles;
    window_ms: number; max_in_window: number; max_in_window_per_key: number;
    max_in_1s: number; max_in_1s_per_key: number;
    per_second: { demand: number[]; offered: number[]; allowed: number[]; refused: number[] };
    clients: {
      name: string; demand: number; offered: number; passed: number; status_429: number;
      status_503: number; share_permille: number; rate_429_permille: number; goodput: Goodput;
      max_in_window: number; max_in_1s: number;
    }[];
    routes: { name: string; cost: number; offered: number; passed: number; refused: number }[];
    instances: { offered: number; passed: number }[];
  };
}

export interface SimulateConfig {
  services?: ServiceInput[];
}

export interface SimulateReport {
  /** A service run's lanes (`results` is then empty). */
  services?: ServiceResult[];
}

export interface ScenarioInfo {
  /** A service scenario's lanes, in the input format. */
  services?: ServiceInput[];
}
"#;

/// How deep a config may nest (a cycle would otherwise never end).
const MAX_DEPTH: u32 = 32;
/// The most values (numbers, strings, arrays, objects) a config may hold: the
/// largest stream as objects of three fields, and room for the rest.
const MAX_VALUES: usize = 4 * MAX_REQUESTS + 100_000;
/// The most keys of one object (the format's objects have at most a dozen).
const MAX_KEYS: usize = 1_000;
/// The longest string in a config or in `mount`'s options, in UTF-16 units (ids
/// and keys are at most 64 characters; a link's requests at most 10 000 times).
const MAX_STRING: u32 = 1 << 20;
/// The longest text `simulateJson` takes, in UTF-16 units: more than the largest
/// stream written as objects needs.
const MAX_TEXT: u32 = 1 << 28;
/// The most options `mount` reads.
const MAX_OPTIONS: usize = 256;

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

/// What a JS value is, for messages: `a number`, `a symbol`, `null`.
fn kind(v: &JsValue) -> String {
    if v.is_null() {
        return "null".into();
    }
    if js_sys::Array::is_array(v) {
        return "an array".into();
    }
    let t = v.js_typeof().as_string().unwrap_or_default();
    match t.as_str() {
        "undefined" => t,
        "object" => "an object".into(),
        _ => format!("a {t}"),
    }
}

/// A `TypeError` for argument `name` of `call`.
fn type_error(call: &str, name: &str, expected: &str, got: &JsValue) -> JsValue {
    js_sys::TypeError::new(&format!(
        "{call}: {name} must be {expected}, got {}",
        kind(got)
    ))
    .into()
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
        serde_wasm_bindgen::Deserializer::from(raw)
            .deserialize_any(self)
            .map(Some)
            .map_err(message)
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
#[wasm_bindgen(unchecked_return_type = "SimulateReport")]
pub fn simulate(
    #[wasm_bindgen(unchecked_param_type = "SimulateConfig")] config: JsValue,
) -> Result<JsValue, JsValue> {
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
    report
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&message(e)).into())
}

/// The same from JSON text to JSON text (exactly `ratelab simulate`'s output).
/// Throws a `TypeError` if `text` is not a string.
#[wasm_bindgen(js_name = simulateJson)]
pub fn simulate_json(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<String, JsValue> {
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
#[wasm_bindgen(unchecked_return_type = "ScenarioInfo[]")]
pub fn scenarios() -> JsValue {
    // Our own JSON text, parsed by the browser: the same bytes as the command line.
    js_sys::JSON::parse(&ratelab_sim::scenarios_json()).unwrap_or(JsValue::NULL)
}

/// A mounted playground; `unmount()` removes it. The handle is not what keeps
/// it alive: the page keeps it ([`LIVE`]) until `unmount()` or until its element
/// leaves the document, so a caller may drop the handle.
#[wasm_bindgen]
pub struct Playground {
    root: web_sys::HtmlElement,
    id: u32,
}

/// A playground the page keeps alive: its mount number, its element, and Leptos's
/// handle (dropping it removes the playground).
struct Live {
    id: u32,
    root: web_sys::HtmlElement,
    _handle: Box<dyn std::any::Any>,
}

thread_local! {
    /// Every playground `mount` made that is still mounted.
    static LIVE: std::cell::RefCell<Vec<Live>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Drops the playgrounds whose element left the document (the handles are
/// dropped after the list is released: dropping one runs Leptos's cleanups).
fn sweep_detached() {
    let gone: Vec<Live> = LIVE
        .try_with(|l| {
            l.try_borrow_mut()
                .map(|mut l| {
                    let (gone, kept) = l.drain(..).partition(|p| !p.root.is_connected());
                    *l = kept;
                    gone
                })
                .unwrap_or_default()
        })
        .unwrap_or_default();
    for p in &gone {
        crate::crash::unregister(&p.root);
    }
}

/// Watches the document once per page: when mounted elements leave it, their
/// playgrounds are dropped. (Inside a shadow root the custom element unmounts on
/// disconnect itself; its shadow host leaving the document is seen here too.)
fn watch_document() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let callback = Closure::<dyn FnMut()>::new(sweep_detached);
        let Ok(observer) = web_sys::MutationObserver::new(callback.as_ref().unchecked_ref()) else {
            return;
        };
        let init = web_sys::MutationObserverInit::new();
        init.set_child_list(true);
        init.set_subtree(true);
        let _ = observer.observe_with_options(&document, &init);
        // One observer and one closure for the life of the page.
        callback.forget();
    });
}

/// Whether a playground is mounted in `root`.
fn is_mounted(root: &web_sys::HtmlElement) -> bool {
    LIVE.try_with(|l| {
        l.try_borrow()
            .is_ok_and(|l| l.iter().any(|p| p.root == *root))
    })
    .unwrap_or(false)
}

#[wasm_bindgen]
impl Playground {
    /// Removes the playground from its element (again: nothing).
    pub fn unmount(&mut self) {
        let id = self.id;
        let gone: Vec<Live> = LIVE
            .try_with(|l| {
                l.try_borrow_mut()
                    .map(|mut l| {
                        let (gone, kept) = l.drain(..).partition(|p| p.id == id);
                        *l = kept;
                        gone
                    })
                    .unwrap_or_default()
            })
            .unwrap_or_default();
        if !gone.is_empty() {
            crate::crash::unregister(&self.root);
        }
        drop(gone);
    }

    /// The playground's state as a query string (what `embed.html?…` and the page
    /// take); empty once unmounted.
    pub fn query(&self) -> String {
        let id = self.id;
        let live = LIVE
            .try_with(|l| l.try_borrow().is_ok_and(|l| l.iter().any(|p| p.id == id)))
            .unwrap_or(false);
        if !live {
            return String::new();
        }
        crate::crash::query_of(&self.root).unwrap_or_default()
    }
}

/// Attributes of a custom element that are not playground options.
fn is_host_attribute(key: &str) -> bool {
    matches!(
        key,
        "class"
            | "id"
            | "style"
            | "slot"
            | "hidden"
            | "tabindex"
            | "title"
            | "compact"
            | "embed"
            | "theme"
    ) || key.starts_with("aria-")
        || key.starts_with("data-")
}

/// One option's value, as the text a URL would carry.
enum OptionValue {
    Text(String),
    None,
}

impl<'de> de::Deserialize<'de> for OptionValue {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw: JsValue = serde_wasm_bindgen::preserve::deserialize(d)?;
        Ok(option_value(raw))
    }
}

/// An option's value as link text (`%` and `+` escaped, so that `,` and `:` still
/// separate list items). Text too long for any option, and values that are not
/// text, numbers, booleans or arrays of those, are left out (the parser then uses
/// the default).
fn option_value(raw: JsValue) -> OptionValue {
    let too_long = raw
        .dyn_ref::<JsString>()
        .is_some_and(|s| s.length() > MAX_STRING);
    if too_long || raw.is_symbol() || raw.is_function() || raw.is_bigint() {
        return OptionValue::None;
    }
    let text = if let Some(b) = raw.as_bool() {
        if b { "1" } else { "0" }.to_string()
    } else if let Some(x) = raw.as_f64() {
        format!("{x}")
    } else if let Some(a) = raw.dyn_ref::<js_sys::Array>() {
        if a.length() > 64 {
            return OptionValue::None;
        }
        a.iter()
            .map(|i| {
                i.as_string()
                    .unwrap_or_else(|| format!("{}", i.as_f64().unwrap_or(f64::NAN)))
            })
            .collect::<Vec<_>>()
            .join(",")
    } else if let Some(s) = raw.as_string() {
        s
    } else {
        return OptionValue::None;
    };
    OptionValue::Text(text.replace('%', "%25").replace('+', "%2B"))
}

/// `mount`'s options as pairs (in order), whether `compact` was asked for, the
/// `theme` as written, and how many options were left unread.
struct Options {
    pairs: Vec<(String, String)>,
    compact: bool,
    theme: Option<String>,
    dropped: usize,
}

impl<'de> de::Deserialize<'de> for Options {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(OptionsVisitor)
    }
}

struct OptionsVisitor;

impl<'de> Visitor<'de> for OptionsVisitor {
    type Value = Options;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object of options")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Options, A::Error> {
        let mut out = Options {
            pairs: Vec::new(),
            compact: false,
            theme: None,
            dropped: map.size_hint().unwrap_or(0).saturating_sub(MAX_OPTIONS),
        };
        let mut read = 0;
        while read < MAX_OPTIONS {
            let Some(key) = map.next_key::<String>()? else {
                break;
            };
            read += 1;
            let OptionValue::Text(v) = map.next_value::<OptionValue>()? else {
                continue;
            };
            if key == "compact" {
                // A present attribute is "" (true), as HTML boolean attributes are.
                out.compact = v != "false" && v != "0";
            } else if key == "theme" {
                out.theme = Some(v);
            } else if !is_host_attribute(&key) {
                out.pairs.push((key, v));
            }
        }
        Ok(out)
    }
}

/// Parses `mount`'s options: every key but the host's own attributes is a URL
/// parameter; `compact` is read separately. Values the link parser cannot use
/// become notices, as in a link.
pub fn options_from_js(options: &JsValue) -> MountOptions {
    let read = if options.is_object() {
        serde_wasm_bindgen::from_value::<Options>(options.clone()).ok()
    } else {
        None
    };
    let read = read.unwrap_or(Options {
        pairs: Vec::new(),
        compact: false,
        theme: None,
        dropped: 0,
    });
    let (link, mut notices) = ratelab_sim::share::parse_pairs(&read.pairs);
    let theme = match read.theme.as_deref().map(|t| (t, Theme::parse(t))) {
        None => Theme::Auto,
        Some((_, Some(theme))) => theme,
        Some((t, None)) => {
            notices.push(ratelab_sim::share::Notice {
                key: "theme".into(),
                value: t.chars().take(40).collect(),
                reason: "expected light, dark or auto; following the page".into(),
            });
            Theme::Auto
        }
    };
    if read.dropped > 0 {
        notices.push(ratelab_sim::share::Notice {
            key: "…".into(),
            value: format!("{} more", read.dropped),
            reason: format!("at most {MAX_OPTIONS} options are read; the rest ignored"),
        });
    }
    MountOptions {
        embed: true,
        compact: read.compact,
        theme,
        link,
        notices,
        // Lessons are the page's: in an embed `lesson=` is an unknown parameter.
        lesson: None,
        play_lesson: false,
    }
}

/// Mounts a playground into `element` (for docs pages and the custom element). Keys
/// work while it has focus; it never writes the page's URL. Throws a `TypeError`
/// if `element` is not an element or `options` is neither an object nor absent,
/// and an `Error` if `element` is not in the document or already holds a
/// playground; nothing is changed then, so a later `mount` works. Options the
/// link parser ignores (`scenario: "nope"`) are shown as the playground's notice
/// and written to the console as warnings.
#[wasm_bindgen]
pub fn mount(
    #[wasm_bindgen(unchecked_param_type = "HTMLElement")] element: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MountOptions")] options: JsValue,
) -> Result<Playground, JsValue> {
    // `instanceof` fails for an element of another window (an iframe's): an
    // element node is an element whatever its window.
    let is_element = element.has_type::<web_sys::Element>()
        || (element.is_object()
            && js_sys::Reflect::get(&element, &"nodeType".into())
                .ok()
                .and_then(|t| t.as_f64())
                == Some(1.0));
    if !is_element {
        return Err(type_error(
            "mount(element, options)",
            "element",
            "an HTML element",
            &element,
        ));
    }
    if !(options.is_undefined() || options.is_null() || options.is_object())
        || js_sys::Array::is_array(&options)
    {
        return Err(type_error(
            "mount(element, options)",
            "options",
            "an object",
            &options,
        ));
    }
    let element: web_sys::HtmlElement = element.unchecked_into();
    sweep_detached();
    if !element.is_connected() {
        return Err(JsError::new(
            "mount(element, options): element is not in the document; insert it first",
        )
        .into());
    }
    if is_mounted(&element) {
        return Err(JsError::new(
            "mount(element, options): element already holds a playground; unmount() it first",
        )
        .into());
    }
    crate::crash::install();
    watch_document();
    let opts = options_from_js(&options);
    for notice in &opts.notices {
        web_sys::console::warn_1(&format!("ratelab: mount(): {notice}").into());
    }
    let root = element.clone();
    let handle = leptos::mount::mount_to(element.clone(), move || {
        view! { <App options=opts root=root /> }
    });
    let id = next_id();
    let _ = LIVE.try_with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            l.push(Live {
                id,
                root: element.clone(),
                _handle: Box::new(handle),
            });
        }
    });
    Ok(Playground { root: element, id })
}

/// A number unique to each `mount` call.
fn next_id() -> u32 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

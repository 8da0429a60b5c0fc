//! The JavaScript API: `simulate(config)`, `simulateJson(text)`, `scenarios()` and
//! `mount(element, options)`, exported by wasm-bindgen with TypeScript types.
//!
//! `mount` is in the first module (the page and the element need it); the runs are
//! in the `api` chunk ([`convert`]), which `load()` fetches before it resolves, so
//! a page that only shows playgrounds never downloads them.
//!
//! An argument of the wrong type (`simulateJson(12345)`, a `Symbol`, no element
//! for `mount`) throws a `TypeError` naming the argument; nothing here can trap the
//! module on input.

use js_sys::JsString;
use leptos::prelude::*;
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
  /** Each request's response per limiter in the report (`LaneResult.responses`); off by default. */
  responses?: boolean;
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
  /** With `responses: true`: what this limiter answered each request, in stream order. */
  responses?: LaneResponse[];
}

/** One response of `LaneResult.responses` (`ratelab respond`'s fields, in its order). */
export interface LaneResponse {
  /** 200, or 429 when refused (a delaying limiter's queued request is a 200). */
  status: 200 | 429;
  /** `Retry-After` (on a 429), both dialects, and `Content-Type` with a body. */
  headers: Record<string, string>;
  /** The 429's JSON body; null on a 200. */
  body: string | null;
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
  /** Comma-separated algorithm ids, or an array of them (1 to 8). */
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
  /** The moment to open at (the same as `t`); without it a stream that starts late
   * opens just before its first request. */
  at?: number | string;
  /** For the element and the iframe (`mount` ignores it): the full playground the
   * ↗ link opens; "" for no link. */
  playground?: string;
  /** Play from the opening moment at once. */
  autoplay?: boolean;
  /** One line per lane over its timeline and the clock; a lane's details (its state, gauge and 429) open on demand. */
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

mod convert;

pub use convert::{from_js, Calls, CALLS};

/// The longest string in a config or in `mount`'s options, in UTF-16 units (ids
/// and keys are at most 64 characters; a link's requests at most 10 000 times).
pub(crate) const MAX_STRING: u32 = 1 << 20;
/// The most options `mount` reads.
const MAX_OPTIONS: usize = 256;

/// What a JS value is, for messages: `a number`, `a symbol`, `null`.
pub(crate) fn kind(v: &JsValue) -> String {
    if v.is_null() {
        return "null".into();
    }
    if js_sys::Array::is_array(v) {
        return "an array".into();
    }
    let t = v.js_typeof().as_string().unwrap_or_default();
    match t.as_str() {
        "undefined" => t,
        // A text node, a comment: not "an object", what it is.
        "object" if v.has_type::<web_sys::Node>() => "a node that is not an element".into(),
        "object" if v.has_type::<js_sys::Date>() => "a Date".into(),
        "object" => "an object".into(),
        _ => format!("a {t}"),
    }
}

/// A `TypeError` for argument `name` of `call`.
pub(crate) fn type_error(call: &str, name: &str, expected: &str, got: &JsValue) -> JsValue {
    js_sys::TypeError::new(&format!(
        "{call}: {name} must be {expected}, got {}",
        kind(got)
    ))
    .into()
}

#[cfg(feature = "split")]
thread_local! {
    /// The API's calls once `load()` has fetched them ([`load_api`]).
    static LOADED: std::cell::Cell<Option<convert::Calls>> = const { std::cell::Cell::new(None) };
}

/// The API's calls: fetched by [`load_api`] (in the `api` chunk), or an error
/// that says to wait for `load()`.
#[cfg(feature = "split")]
fn calls() -> Result<convert::Calls, JsValue> {
    LOADED.with(|c| c.get()).ok_or_else(|| {
        JsError::new("ratelab: the API is not loaded: call it on what load() resolves to").into()
    })
}

/// Without split points (natively, in the wasm tests) the calls are here.
#[cfg(not(feature = "split"))]
fn calls() -> Result<convert::Calls, JsValue> {
    Ok(convert::CALLS)
}

/// Fetches the `api` chunk (the calls below); `load()` waits for it before it
/// resolves. Rejects with one line if the chunk cannot be fetched. Not part of
/// the documented API.
#[wasm_bindgen(js_name = loadApi, skip_typescript)]
pub async fn load_api() -> Result<(), JsValue> {
    #[cfg(feature = "split")]
    {
        if LOADED.with(|c| c.get()).is_none() {
            let calls = crate::view::chunks::api().await.map_err(|_| {
                JsError::new("ratelab: could not fetch the API's chunk (split_api.wasm next to ratelab-web.js)")
            })?;
            LOADED.with(|c| c.set(Some(calls)));
        }
    }
    Ok(())
}

/// Runs a config (the command line's JSON format, as a JS object) and returns the
/// report. Throws a `TypeError` if `config` is not an object, an `Error` with the
/// command line's message on bad input.
#[wasm_bindgen(unchecked_return_type = "SimulateReport")]
pub fn simulate(
    #[wasm_bindgen(unchecked_param_type = "SimulateConfig")] config: JsValue,
) -> Result<JsValue, JsValue> {
    (calls()?.simulate)(config)
}

/// The same from JSON text to JSON text (exactly `ratelab simulate`'s output).
/// Throws a `TypeError` if `text` is not a string.
#[wasm_bindgen(js_name = simulateJson)]
pub fn simulate_json(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<String, JsValue> {
    (calls()?.simulate_json)(text)
}

/// The scenario registry (as `ratelab scenarios --json`).
#[wasm_bindgen(unchecked_return_type = "ScenarioInfo[]")]
pub fn scenarios() -> Result<JsValue, JsValue> {
    Ok((calls()?.scenarios)())
}

/// A live limiter's work (in the `api` chunk, see `convert.rs`): the first
/// module's [`Limiter`] calls it through this trait object, so that none of it is
/// in the first module.
pub trait LiveCheck {
    /// One request: the decision and the response, or a one-line error.
    fn check(&mut self, now: JsValue, cost: JsValue, key: JsValue) -> Result<JsValue, JsValue>;
}

/// A live limiter (`limiter(config)`): one engine limiter per key, asked one
/// request at a time. `free()` gives its memory back at once (else the garbage
/// collector's finaliser does). No `reset()`: a new limiter is a fresh one, and
/// every export here is in the first module.
#[wasm_bindgen]
pub struct Limiter {
    inner: Box<dyn LiveCheck>,
}

#[wasm_bindgen]
impl Limiter {
    /// The decision and the response for a request at `now` ms (a safe integer
    /// ≥ 0, never earlier than the previous check's), of `cost` (default 1) from
    /// `key` (default `""`). Throws a `TypeError` for an argument of the wrong
    /// type, an `Error` with the engine's message for a bad value.
    #[wasm_bindgen(unchecked_return_type = "CheckResult")]
    pub fn check(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number | undefined")] cost: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | undefined")] key: JsValue,
    ) -> Result<JsValue, JsValue> {
        self.inner.check(now, cost, key)
    }
}

/// A live limiter from a lane's limiter object (`{algorithm, limit, period_ms,
/// burst, delay, nodelay}`, as in `limiters`). Throws a `TypeError` if `config` is
/// not an object, an `Error` with the command line's message if the engine refuses
/// it.
#[wasm_bindgen]
pub fn limiter(
    #[wasm_bindgen(unchecked_param_type = "LimiterInput")] config: JsValue,
) -> Result<Limiter, JsValue> {
    Ok(Limiter {
        inner: (calls()?.limiter)(config)?,
    })
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
            | "autoplay"
            | "embed"
            | "theme"
            | "playground"
    ) || key.starts_with("aria-")
        || key.starts_with("data-")
}

/// One option's value, as the text a URL would carry.
enum OptionValue {
    Text(String),
    None,
}

/// A number as JavaScript writes it (`String(x)`: `0.5`, `1e+21`, `Infinity`):
/// what the option's writer sees, and no float formatting of Rust's in the first
/// module.
fn number_text(x: f64) -> String {
    js_sys::Number::from(x)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default()
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
        number_text(x)
    } else if let Some(a) = raw.dyn_ref::<js_sys::Array>() {
        if a.length() > 64 {
            return OptionValue::None;
        }
        a.iter()
            .map(|i| {
                i.as_string()
                    .unwrap_or_else(|| number_text(i.as_f64().unwrap_or(f64::NAN)))
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
    autoplay: bool,
    theme: Option<String>,
    dropped: usize,
}

impl Options {
    /// Reads the own enumerable properties of `options`, in order (as
    /// `Object.entries` lists them), at most [`MAX_OPTIONS`]. Read from the object
    /// directly rather than through serde: its deserializer's messages format
    /// floats, whose code would stay in the first module for this alone.
    fn read(options: &js_sys::Object) -> Options {
        let entries = js_sys::Object::entries(options);
        let mut out = Options {
            pairs: Vec::new(),
            compact: false,
            autoplay: false,
            theme: None,
            dropped: (entries.length() as usize).saturating_sub(MAX_OPTIONS),
        };
        for entry in entries.iter().take(MAX_OPTIONS) {
            let entry: js_sys::Array = entry.unchecked_into();
            let Some(key) = entry.get(0).as_string() else {
                continue;
            };
            let OptionValue::Text(v) = option_value(entry.get(1)) else {
                continue;
            };
            if key == "compact" {
                // A present attribute is "" (true), as HTML boolean attributes are.
                out.compact = v != "false" && v != "0";
            } else if key == "autoplay" {
                out.autoplay = v != "false" && v != "0";
            } else if key == "theme" {
                out.theme = Some(v);
            } else if !is_host_attribute(&key) {
                out.pairs.push((key, v));
            }
        }
        out
    }
}

/// Parses `mount`'s options: every key but the host's own attributes is a URL
/// parameter; `compact` is read separately. Values the link parser cannot use
/// become notices, as in a link.
pub fn options_from_js(options: &JsValue) -> MountOptions {
    let read = options.dyn_ref::<js_sys::Object>().map(Options::read);
    let read = read.unwrap_or(Options {
        pairs: Vec::new(),
        compact: false,
        autoplay: false,
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
        moment: crate::state::names_moment(&read.pairs),
        autoplay: read.autoplay,
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

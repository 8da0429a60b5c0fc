//! The playground and the JS API in a real browser (headless Chromium and Firefox,
//! through `cargo xtask test`): mount into a fresh element, click, let the reactive
//! system run (`tick().await`), read the DOM. One test binary (each links the whole
//! crate): the components' own tests are in `app/components.rs`, the JS API's
//! argument and size checks in `app/api.rs`, hostile links in `app/hostile.rs`, the lessons panel in `app/learn.rs`.
#![cfg(target_arch = "wasm32")]

#[path = "app/api.rs"]
mod api;
#[path = "app/components.rs"]
mod components;
#[path = "app/hostile.rs"]
mod hostile;
#[path = "app/learn.rs"]
mod learn;
#[path = "app/service.rs"]
mod service;

use leptos::task::tick;
use ratelab_web::api::{mount, scenarios, simulate, Playground};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// The CLI's output for `crates/cli/tests/data/golden.json`, committed; the native
/// test `fixture_is_current` (tests/fixture.rs) checks it is still what the CLI says.
const GOLDEN_REPORT: &str = include_str!("data/golden-report.json");
const GOLDEN_INPUT: &str = include_str!("../../cli/tests/data/golden.json");

/// A new, empty element attached to the page, so tests never see each other's DOM.
pub fn fresh_root() -> HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let root: HtmlElement = document.create_element("div").unwrap().unchecked_into();
    root.style().set_property("width", "1000px").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    root
}

/// `mount(root, options)` with options given as pairs.
pub fn mount_with(root: &HtmlElement, options: &[(&str, &str)]) -> Playground {
    let o = js_sys::Object::new();
    for (k, v) in options {
        js_sys::Reflect::set(&o, &JsValue::from_str(k), &JsValue::from_str(v)).unwrap();
    }
    mount(root.clone().into(), o.into()).unwrap()
}

/// Waits `ms` of real time (the clock runs on animation frames, not on `tick`).
pub async fn sleep(ms: i32) {
    let wait = js_sys::Promise::new(&mut |done, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&done, ms);
    });
    wasm_bindgen_futures::JsFuture::from(wait).await.unwrap();
}

pub async fn settle() {
    for _ in 0..3 {
        tick().await;
    }
    // The panels fetched on demand (src/view/chunks.rs) arrive after a frame:
    // wait until no place still says it is loading (at most about 3 s).
    let document = web_sys::window().unwrap().document().unwrap();
    for _ in 0..200 {
        if document.query_selector(".chunk.loading").unwrap().is_none() {
            break;
        }
        sleep(16).await;
    }
    for _ in 0..3 {
        tick().await;
    }
}

pub fn all(root: &Element, selector: &str) -> Vec<Element> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.unchecked_into())
        .collect()
}

pub fn find(root: &Element, selector: &str) -> HtmlElement {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
        .unchecked_into()
}

pub fn attr(el: &Element, name: &str) -> String {
    el.get_attribute(name).unwrap_or_default()
}

/// The decisions on lane `j`'s marks, as SPEC's tables write them.
/// Lane `j`'s marks in request order (a pile of close marks is drawn last request
/// first, so document order is not request order).
pub fn marks(root: &Element, j: usize) -> String {
    let mut marks: Vec<(u64, char)> = all(root, &format!("article[data-lane=\"{j}\"] .mark"))
        .iter()
        .map(|m| {
            let index = attr(m, "data-index").parse().unwrap_or(u64::MAX);
            let mark = match attr(m, "data-decision").as_str() {
                "allow" | "delay" => '✓',
                "deny" => '✗',
                _ => '·',
            };
            (index, mark)
        })
        .collect();
    marks.sort_by_key(|&(i, _)| i);
    marks.into_iter().map(|(_, m)| m).collect()
}

pub fn lanes(root: &Element) -> Vec<String> {
    all(root, "article.lane")
        .iter()
        .map(|a| attr(a, "data-algorithm"))
        .collect()
}

pub async fn click(root: &Element, selector: &str) {
    find(root, selector).click();
    settle().await;
}

pub async fn change(root: &Element, name: &str, value: &str) {
    let el: Element = find(root, &format!("[name=\"{name}\"]")).unchecked_into();
    if let Some(i) = el.dyn_ref::<web_sys::HtmlInputElement>() {
        i.set_value(value);
    } else if let Some(s) = el.dyn_ref::<web_sys::HtmlSelectElement>() {
        s.set_value(value);
    }
    let e = web_sys::Event::new_with_event_init_dict("change", &{
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        init
    })
    .unwrap();
    el.dispatch_event(&e).unwrap();
    settle().await;
}

#[wasm_bindgen_test]
async fn the_default_is_the_golden_stream_with_three_lanes() {
    let root = fresh_root();
    let _p = mount_with(&root, &[]);
    settle().await;
    assert_eq!(
        lanes(&root),
        ["fixed_window", "sliding_log", "token_bucket"]
    );
    // Nothing has arrived at 0 s: every mark is pending.
    assert_eq!(marks(&root, 0), "············");
    assert_eq!(find(&root, "output.now").text_content().unwrap(), "0 s");
}

/// Waits until a new run is drawn whole: a step per task, each after a frame
/// (`Ctx::settled`), the yardstick and the trace last (`Ctx::panels_drawn`); at
/// most about 10 s.
pub async fn drawn(root: &Element) {
    for _ in 0..500 {
        if root.query_selector(".waiting").unwrap().is_none() {
            settle().await;
            return;
        }
        sleep(20).await;
    }
    panic!("a panel still waits for its step");
}

#[wasm_bindgen_test]
async fn after_switching_scenario_every_part_shows_the_new_run() {
    let root = fresh_root();
    let p = mount_with(&root, &[("scenario", "golden")]);
    settle().await;
    change(&root, "scenario", "lab-b").await;
    drawn(&root).await;
    // A request arrives, so the yardstick and the trace have numbers to show.
    for _ in 0..3 {
        click(&root, "button.next").await;
    }
    drawn(&root).await;
    let (link, _) = ratelab_sim::share::parse(&p.query());
    assert_eq!(link.setup.scenario, ratelab_sim::ScenarioId::LabB);
    let sim = ratelab_web::model::Sim::new(&link.setup).unwrap();
    let want: Vec<String> = sim
        .lanes()
        .iter()
        .map(|l| l.algorithm.id().to_string())
        .collect();
    assert_eq!(lanes(&root), want);
    let now = link.view.t_ms;
    assert!(now > 0, "{}", p.query());
    // Every lane's marks are drawn, for the new run.
    for j in 0..want.len() {
        let g = find(&root, &format!("article[data-lane=\"{j}\"] g.marks"));
        assert!(g.child_element_count() > 0, "lane {j} has no marks");
    }
    // The yardstick: a row per new lane, named and counted as the engine says.
    let rows = all(&root, ".yardstick tbody tr");
    assert_eq!(rows.len(), want.len());
    for (j, row) in rows.iter().enumerate() {
        let y = sim.yardstick(j, now).unwrap();
        assert_eq!(attr(row, "data-algorithm"), want[j]);
        let name =
            ratelab_web::view::lanes::lane::lane_name(sim.lanes(), j, ratelab_web::texts::Lang::En);
        assert_eq!(find(row, "th").text_content().unwrap(), name);
        assert_eq!(
            attr(&find(row, "td.passed"), "data-value"),
            y.passed.to_string()
        );
        assert_eq!(
            attr(&find(row, "td.blocked"), "data-value"),
            y.blocked.to_string()
        );
    }
    // The trace explains the selected request on every new lane.
    assert_eq!(all(&root, ".trace tbody tr").len(), want.len());
    for section in [".yardstick", ".trace"] {
        assert_eq!(
            attr(&find(&root, section), "aria-busy"),
            "false",
            "{section}"
        );
    }
}

#[wasm_bindgen_test]
async fn choosing_a_scenario_and_limiters_renders_their_lanes() {
    let root = fresh_root();
    let _p = mount_with(&root, &[("scenario", "lab-c")]);
    settle().await;
    assert_eq!(
        lanes(&root),
        [
            "token_bucket",
            "token_bucket",
            "gcra",
            "leaky_queue",
            "nginx"
        ]
    );
    change(&root, "scenario", "edge-burst").await;
    assert_eq!(
        lanes(&root),
        ["fixed_window", "sliding_log", "token_bucket"]
    );
    change(&root, "add", "gcra").await;
    change(&root, "add", "sliding_log_logs_blocked").await;
    assert_eq!(
        lanes(&root),
        [
            "fixed_window",
            "sliding_log",
            "token_bucket",
            "gcra",
            "sliding_log_logs_blocked"
        ]
    );
    // The teaching variant says so.
    let wrong = find(&root, "article[data-lane=\"4\"] .badge");
    assert_eq!(wrong.text_content().unwrap(), "wrong on purpose");
    click(&root, "li[data-lane=\"0\"] button.remove").await;
    assert_eq!(lanes(&root)[0], "sliding_log");
}

#[wasm_bindgen_test]
async fn stepping_through_the_golden_stream_shows_specs_decisions() {
    let root = fresh_root();
    let _p = mount_with(
        &root,
        &[(
            "limiters",
            "fixed_window,fixed_window_anchored,sliding_log,sliding_window_counter,token_bucket,leaky_queue",
        )],
    );
    settle().await;
    for _ in 0..5 {
        click(&root, "button.next").await;
    }
    assert_eq!(find(&root, "output.now").text_content().unwrap(), "9.5 s");
    assert_eq!(marks(&root, 0), "✓✓✓✓✓·······");
    for _ in 0..7 {
        click(&root, "button.next").await;
    }
    assert_eq!(marks(&root, 0), "✓✓✓✓✓✗✓✓✓✓✓✗");
    assert_eq!(marks(&root, 1), "✓✓✓✓✓✗✗✗✗✗✓✓");
    assert_eq!(marks(&root, 2), "✓✓✓✓✓✗✗✗✗✗✓✓");
    assert_eq!(marks(&root, 3), "✓✓✓✓✓✗✓✗✗✗✓✓");
    assert_eq!(marks(&root, 4), "✓✓✓✓✓✓✓✗✗✓✓✓");
    assert_eq!(marks(&root, 5), "✓✓✓✓✓✓✓✓✗✓✓✓");
    // The queue's 9.8 s wait, on the mark and in the yardstick.
    let m = find(&root, "article[data-lane=\"5\"] .mark[data-index=\"9\"]");
    assert_eq!(attr(&m, "data-decision"), "delay");
    assert!(m.text_content().unwrap().contains("delayed 9.8 s"));
    let wait = find(&root, "tr[data-lane=\"5\"] td.longest-wait");
    assert_eq!(attr(&wait, "data-value"), "9800");
    // Back one: the last request is pending again.
    click(&root, "button.prev").await;
    assert_eq!(marks(&root, 0), "✓✓✓✓✓✗✓✓✓✓✓·");
}

#[wasm_bindgen_test]
async fn clicking_a_mark_selects_it_for_the_trace() {
    let root = fresh_root();
    let _p = mount_with(&root, &[("t", "19.5s")]);
    settle().await;
    assert_eq!(attr(&find(&root, ".trace .which"), "data-index"), "11");
    let mark: Element = find(
        &root,
        "article[data-lane=\"0\"] .mark[data-index=\"5\"] .dot",
    )
    .unchecked_into();
    let e = web_sys::MouseEvent::new_with_mouse_event_init_dict("click", &{
        let init = web_sys::MouseEventInit::new();
        init.set_bubbles(true);
        init
    })
    .unwrap();
    mark.dispatch_event(&e).unwrap();
    settle().await;
    assert_eq!(attr(&find(&root, ".trace .which"), "data-index"), "5");
    let verdict = find(&root, ".trace tr[data-lane=\"0\"] .verdict");
    assert_eq!(attr(&verdict, "data-verdict"), "deny");
    assert_eq!(verdict.text_content().unwrap(), "denied (429)");
    let test = find(&root, ".trace tr[data-lane=\"0\"] .test");
    assert_eq!(test.text_content().unwrap(), "count 5 ≥ 5");
}

#[wasm_bindgen_test]
async fn the_manual_button_adds_a_request_at_the_clock() {
    let root = fresh_root();
    let _p = mount_with(
        &root,
        &[("scenario", "manual"), ("limiters", "token_bucket")],
    );
    settle().await;
    assert!(all(&root, "article .mark").is_empty());
    for _ in 0..6 {
        click(&root, "button.send").await;
    }
    assert_eq!(marks(&root, 0), "✓✓✓✓✓✗");
    let h = find(&root, "article[data-lane=\"0\"] .http");
    assert_eq!(attr(&h, "data-status"), "429");
}

#[wasm_bindgen_test]
async fn a_link_round_trips() {
    let q = "scenario=golden&limiters=fixed_window,leaky_queue,nginx&burst.2=3&delay.2=1&t=11.2s&speed=2&lang=vi&sel=4&hl=1";
    let root = fresh_root();
    let pairs: Vec<(String, String)> = ratelab_sim::share::pairs(q);
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let p = mount_with(&root, &pairs);
    settle().await;
    assert_eq!(p.query(), q);
    assert_eq!(attr(&find(&root, ".ratelab"), "lang"), "vi");
    assert_eq!(find(&root, "output.now").text_content().unwrap(), "11.2 s");
    // The same link in a second playground gives the same view.
    let other = fresh_root();
    let p2 = mount_with(&other, &pairs);
    settle().await;
    assert_eq!(p2.query(), q);
    assert_eq!(marks(&other, 1), marks(&root, 1));
}

#[wasm_bindgen_test]
async fn invalid_link_values_show_a_notice_and_the_defaults() {
    let root = fresh_root();
    let _p = mount_with(
        &root,
        &[
            ("limit", "NaN"),
            ("period", "-3"),
            ("limiters", "fixed_window,bogus"),
            ("zzz", "1"),
        ],
    );
    settle().await;
    let notices = find(&root, ".notices").text_content().unwrap();
    for needle in ["limit=NaN", "period=-3", "unknown limiter bogus", "zzz=1"] {
        assert!(notices.contains(needle), "{needle} missing from {notices}");
    }
    assert_eq!(lanes(&root), ["fixed_window"]);
    click(&root, "button.dismiss").await;
    assert!(root.query_selector(".notices").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn bad_form_values_show_the_engines_message_inline() {
    let root = fresh_root();
    let _p = mount_with(&root, &[]);
    settle().await;
    change(&root, "lane2.burst", "0").await;
    let err = find(&root, "[name=\"lane2.burst\"] + .error");
    // The engine's message, said under the field without the JSON path.
    assert_eq!(err.text_content().unwrap(), "must be more than 0");
    change(&root, "limit", "1e20").await;
    let err = find(&root, "[name=\"limit\"] + .error");
    assert_eq!(
        err.text_content().unwrap(),
        "must be a whole number, not \"1e20\""
    );
    // The lanes still run the old setup.
    assert_eq!(lanes(&root).len(), 3);
    change(&root, "limit", "3").await;
    assert!(find(&root, "article[data-lane=\"0\"] .params")
        .text_content()
        .unwrap()
        .starts_with("3 / 10 s"));
}

#[wasm_bindgen_test]
async fn two_playgrounds_keep_separate_state() {
    let a = fresh_root();
    let b = fresh_root();
    let pa = mount_with(&a, &[("scenario", "golden")]);
    let pb = mount_with(&b, &[("scenario", "golden"), ("limiters", "gcra")]);
    settle().await;
    for _ in 0..3 {
        click(&a, "button.next").await;
    }
    assert_eq!(find(&a, "output.now").text_content().unwrap(), "8 s");
    assert_eq!(find(&b, "output.now").text_content().unwrap(), "0 s");
    assert!(pa.query().contains("t=8s"));
    assert!(!pb.query().contains("t="));
    assert_eq!(lanes(&b), ["gcra"]);
    // Each element's ids are its own.
    let ids: Vec<String> = all(&a, "input[id]").iter().map(|e| attr(e, "id")).collect();
    assert!(ids
        .iter()
        .all(|id| b.query_selector(&format!("#{id}")).unwrap().is_none()));
}

#[wasm_bindgen_test]
fn simulate_on_the_golden_stream_equals_the_command_line() {
    let input = js_sys::JSON::parse(GOLDEN_INPUT).unwrap();
    let out = simulate(input).unwrap();
    let text = js_sys::JSON::stringify(&out).unwrap().as_string().unwrap();
    assert_eq!(text, GOLDEN_REPORT.trim_end());
    // And the text form, byte for byte.
    assert_eq!(
        ratelab_web::api::simulate_json(GOLDEN_INPUT.into()).unwrap(),
        GOLDEN_REPORT.trim_end()
    );
}

pub fn error_of(config: &str) -> String {
    let v = js_sys::eval(&format!("({config})")).unwrap();
    let err = simulate(v).map(|_| ()).unwrap_err();
    js_sys::Reflect::get(&err, &"message".into())
        .unwrap()
        .as_string()
        .unwrap()
}

#[wasm_bindgen_test]
fn bad_configs_throw_the_command_lines_messages() {
    assert_eq!(
        error_of("{requests: [0], limiters: [{algorithm: 'gcra', limit: NaN, period_ms: 1000}]}"),
        "limiters[0].limit: must be a finite number, got NaN"
    );
    assert_eq!(
        error_of(
            "{requests: [0, Infinity], limiters: [{algorithm: 'gcra', limit: 1, period_ms: 1000}]}"
        ),
        "requests[1]: must be a finite number, got Infinity"
    );
    assert_eq!(
        error_of("{requests: [0], limiters: [{algorithm: 'gcra', limit: 5, period_ms: 0}]}"),
        "limiters[0].period_ms: must be > 0"
    );
    assert_eq!(
        error_of("{requests: [1.5], limiters: [{algorithm: 'gcra', limit: 5, period_ms: 10}]}"),
        "requests[0]: must be an integer number of ms, got 1.5"
    );
    assert_eq!(
        error_of("{requests: [0], limiters: [{algorithm: 'fixed_window', limit: 5, period_ms: 10, burts: 2}]}"),
        "limiters[0].burts: unknown field (expected one of algorithm, id, limit, period_ms, burst, delay, nodelay)"
    );
    assert_eq!(
        error_of("{scenario: 'nope'}").split(" (").next().unwrap(),
        "scenario: unknown scenario \"nope\""
    );
}

#[wasm_bindgen_test]
fn scenarios_lists_the_registry() {
    let list: js_sys::Array = scenarios().unwrap().unchecked_into();
    assert_eq!(list.length() as usize, ratelab_sim::SCENARIOS.len());
    let first = list.get(0);
    let id = js_sys::Reflect::get(&first, &"id".into()).unwrap();
    assert_eq!(
        id.as_string().as_deref(),
        Some(ratelab_sim::SCENARIOS[0].id.id())
    );
}

#[wasm_bindgen_test]
fn the_crash_box_carries_the_link() {
    let root = fresh_root();
    ratelab_web::crash::render(&root, "panicked at x.rs:1: boom <b>", "?scenario=golden");
    let text = root.text_content().unwrap();
    assert!(text.contains("ratelab stopped because of a bug"));
    assert!(text.contains("boom <b>"));
    assert!(text.contains("?scenario=golden"));
    assert!(root.query_selector("b").unwrap().is_none());
}

//! The Leptos component: a thin layer between the browser and [`Playground`].
//!
//! It renders the page's frame once: one container per part. A single signal,
//! `tick`, is bumped by every event and every animation frame; one effect then asks
//! the playground for the parts whose content changed ([`Playground::render`]) and
//! writes them into their containers. Events are delegated to the root: buttons
//! carry `data-action`, fields a `name`.
//!
//! Why not a view per mark and per field: each distinct reactive closure is its own
//! generic code in the wasm. A first version written that way was 290 KB gzipped,
//! nearly twice the page's 150 KB budget; with the state in plain Rust and the parts
//! rendered as markup by plain functions ([`crate::html`], [`crate::draw`]), the
//! reactive layer is a signal and an effect, and the drawing code is tested
//! natively. It is also the cheapest way to redraw six lanes every frame: work per
//! frame is one snapshot per lane plus the marks in the visible span when they change.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::ev;
use leptos::prelude::*;
use ratelab_sim::share;
use ratelab_sim::sweep::{sweep, SweepSpec};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, HtmlInputElement};

pub use crate::state::MountOptions;
use crate::state::{Parts, Playground};

type Shared = StoredValue<Rc<RefCell<Playground>>, LocalStorage>;

fn prefers(query: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.match_media(query).ok().flatten())
        .is_some_and(|m| m.matches())
}

/// A number unique to this page, so two playgrounds never share an element id.
fn instance() -> u32 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The playground.
#[component]
pub fn App(
    /// How it is mounted and what it opens.
    options: MountOptions,
    /// The element it is mounted in (for the panic hook); `None` in tests.
    #[prop(optional)]
    root: Option<HtmlElement>,
) -> impl IntoView {
    let mut playground = match Playground::new(options) {
        Ok(p) => p,
        Err(e) => return view! { <p class="error">{e}</p> }.into_any(),
    };
    playground.reduced_motion = prefers("(prefers-reduced-motion: reduce)");
    playground.uid = instance();
    let embed = playground.embed;
    let compact = playground.compact;
    let query = Rc::new(RefCell::new(playground.query()));
    if let Some(root) = root {
        crate::crash::register(root, query.clone(), embed);
    }
    let pg: Shared = StoredValue::new_local(Rc::new(RefCell::new(playground)));
    let tick = RwSignal::new(0u64);
    let frame = NodeRef::<leptos::html::Div>::new();
    let focused = StoredValue::new(String::new());
    let url = StoredValue::new_local((String::new(), false));

    // The one effect: render what changed.
    Effect::new(move |_| {
        tick.track();
        let Some(root) = frame.get() else { return };
        let root: Element = root.unchecked_into();
        let Some(cell) = pg.try_get_value() else {
            return;
        };
        let Ok(mut p) = cell.try_borrow_mut() else {
            return;
        };
        if let Some(lanes) = part(&root, "lanes") {
            let w = f64::from(lanes.client_width());
            if w > 0.0 {
                // Beside the side panel when there is room (see .lane-body in CSS).
                let tw = if w >= 760.0 { w - 274.0 } else { w - 28.0 };
                if (tw.max(200.0).floor() - p.width).abs() >= 1.0 {
                    p.set_width(tw);
                }
            }
        }
        let parts = p.render();
        // Only when it changes: setting `lang`, even to the same value, makes the
        // browser recompute the style of every element below (`:lang()`).
        if root.get_attribute("lang").as_deref() != Some(p.lang.code()) {
            let _ = root.set_attribute("lang", p.lang.code());
        }
        apply(&root, parts, &focused.get_value());
        let q = p.query();
        if let Ok(mut cell) = query.try_borrow_mut() {
            cell.clone_from(&q);
        }
        if !embed {
            sync_url(url, pg, q);
        }
    });

    // Keyboard: on the whole page for the page; for an embed, on the playground
    // while it has focus (handled on the root below).
    if !embed {
        let handle = window_event_listener(ev::keydown, move |e| on_key(pg, tick, &e));
        on_cleanup(move || handle.remove());
    }
    let resize = window_event_listener(ev::resize, move |_| {
        let _ = tick.try_update(|t| *t += 1);
    });
    on_cleanup(move || {
        resize.remove();
        if let Some(cell) = pg.try_get_value() {
            if let Ok(mut p) = cell.try_borrow_mut() {
                p.playing = false;
            }
        }
    });

    view! {
        <div
            class="ratelab"
            class:compact=compact
            class:embed=embed
            node_ref=frame
            tabindex=if embed { Some("0") } else { None }
            on:keydown=move |e| {
                if embed {
                    on_key(pg, tick, &e);
                }
            }
            on:click=move |e| on_click(pg, tick, &e)
            on:change=move |e| on_change(pg, tick, &e)
            on:input=move |e| on_input(pg, tick, &e)
            on:focusin=move |e| {
                if let Some(name) = target(&e).and_then(|t| t.get_attribute("name")) {
                    focused.set_value(name);
                }
            }
        >
            <div data-part="head"></div>
            <div data-part="notices"></div>
            <div data-part="setup"></div>
            <div data-part="controls"></div>
            <p class="sr-only" aria-live="polite" data-part="live"></p>
            <div class="lanes" data-part="lanes"></div>
            <div data-part="yardstick"></div>
            <div data-part="trace"></div>
        </div>
    }
    .into_any()
}

fn part(root: &Element, name: &str) -> Option<Element> {
    root.query_selector(&format!("[data-part=\"{name}\"]"))
        .ok()
        .flatten()
}

fn layer(lanes: &Element, j: usize, name: &str) -> Option<Element> {
    lanes
        .query_selector(&format!(
            "article[data-lane=\"{j}\"] [data-layer=\"{name}\"]"
        ))
        .ok()
        .flatten()
}

/// Writes `html` into `el`, keeping which `<details>` were open and giving focus
/// back to the field that had it.
fn write(el: Option<Element>, html: &str, focused: &str) {
    let Some(el) = el else { return };
    let open: Vec<String> = el
        .query_selector_all("details[open][data-name]")
        .ok()
        .map(|list| {
            (0..list.length())
                .filter_map(|i| list.item(i))
                .filter_map(|n| n.dyn_into::<Element>().ok())
                .filter_map(|e| e.get_attribute("data-name"))
                .collect()
        })
        .unwrap_or_default();
    let selector = format!("[name=\"{focused}\"]");
    let had_focus = !focused.is_empty()
        && el
            .query_selector(&selector)
            .ok()
            .flatten()
            .is_some_and(|f| {
                f.get_root_node()
                    .dyn_into::<web_sys::Document>()
                    .ok()
                    .and_then(|d| d.active_element())
                    .is_none_or(|a| a == f)
            });
    el.set_inner_html(html);
    for name in open {
        if let Ok(Some(d)) = el.query_selector(&format!("details[data-name=\"{name}\"]")) {
            let _ = d.set_attribute("open", "");
        }
    }
    if had_focus {
        if let Ok(Some(f)) = el.query_selector(&selector) {
            if let Ok(f) = f.dyn_into::<HtmlElement>() {
                let _ = f.focus();
            }
        }
    }
}

/// Puts the rendered parts into the page.
fn apply(root: &Element, parts: Parts, focused: &str) {
    let simple = [
        ("head", &parts.head),
        ("notices", &parts.notices),
        ("setup", &parts.setup),
        ("controls", &parts.controls),
        ("lanes", &parts.lanes),
        ("yardstick", &parts.yardstick),
        ("trace", &parts.trace),
    ];
    for (name, html) in simple {
        if let Some(html) = html {
            write(part(root, name), html, focused);
        }
    }
    // User text goes in as text (a textarea's value, an element's text content),
    // after the markup that holds its place: never as markup.
    for (key, text) in &parts.fills.0 {
        let Ok(Some(el)) = root.query_selector(&format!("[data-fill=\"{key}\"]")) else {
            continue;
        };
        match el.dyn_into::<web_sys::HtmlTextAreaElement>() {
            Ok(area) => area.set_value(text),
            Err(el) => el.set_text_content(Some(text)),
        }
    }
    if let Some(text) = &parts.live {
        if let Some(el) = part(root, "live") {
            el.set_text_content(Some(text));
        }
    }
    let lanes = part(root, "lanes");
    if let (Some(lanes), Some(marks)) = (&lanes, &parts.marks) {
        for (j, (svg, dense)) in marks.iter().enumerate() {
            if let Some(e) = layer(lanes, j, "marks") {
                e.set_inner_html(svg);
            }
            if let Some(e) = layer(lanes, j, "dense") {
                let _ = e.class_list().toggle_with_force("hidden", !dense);
            }
        }
    }
    if let (Some(lanes), Some(frames)) = (&lanes, &parts.frame) {
        for (j, [under, side]) in frames.iter().enumerate() {
            for (name, html) in [("under", under), ("side", side)] {
                if let (Some(html), Some(e)) = (html, layer(lanes, j, name)) {
                    e.set_inner_html(html);
                }
            }
        }
    }
    if let (Some(lanes), Some(r)) = (&lanes, &parts.reveal) {
        // Flip the marks of the requests that arrived (or un-arrived).
        for i in r.from..r.to {
            let Ok(marks) = lanes.query_selector_all(&format!("g.mark[data-index=\"{i}\"]")) else {
                continue;
            };
            for k in 0..marks.length() {
                let Some(m) = marks.item(k).and_then(|n| n.dyn_into::<Element>().ok()) else {
                    continue;
                };
                let (decision, what) = if r.arrived {
                    (
                        m.get_attribute("data-outcome").unwrap_or_default(),
                        m.get_attribute("data-what").unwrap_or_default(),
                    )
                } else {
                    ("pending".to_string(), r.pending_text.to_string())
                };
                let _ = m.set_attribute("data-decision", &decision);
                if let Some(title) = m.query_selector("title").ok().flatten() {
                    let text = title.text_content().unwrap_or_default();
                    // "#3 · 2.5 s · allowed": keep the first two parts.
                    let head: Vec<&str> = text.splitn(3, " · ").take(2).collect();
                    title.set_text_content(Some(&format!("{} · {what}", head.join(" · "))));
                }
            }
        }
    }
    if let (Some(lanes), Some((old, new))) = (&lanes, parts.select) {
        for (index, on) in [(old, false), (new, true)] {
            let Some(i) = index else { continue };
            if let Ok(marks) = lanes.query_selector_all(&format!("g.mark[data-index=\"{i}\"]")) {
                for k in 0..marks.length() {
                    if let Some(m) = marks.item(k).and_then(|n| n.dyn_into::<Element>().ok()) {
                        let _ = m.class_list().toggle_with_force("selected", on);
                    }
                }
            }
        }
    }
    if let (Some(lanes), Some((x, future))) = (&lanes, parts.clock_x) {
        // Move the clock line and the veil; draw them only where they are missing.
        let count = lanes
            .query_selector_all("[data-layer=\"over\"]")
            .map(|l| l.length())
            .unwrap_or(0);
        for j in 0..count as usize {
            let Some(e) = layer(lanes, j, "over") else {
                continue;
            };
            let find = |sel: &str| e.query_selector(sel).ok().flatten();
            match (find("rect"), find("line")) {
                (Some(rect), Some(line)) => {
                    let (x, future) = (x.to_string(), future.to_string());
                    let _ = rect.set_attribute("x", &x);
                    let _ = rect.set_attribute("width", &future);
                    let _ = line.set_attribute("x1", &x);
                    let _ = line.set_attribute("x2", &x);
                }
                _ => e.set_inner_html(&crate::draw::over((x, future))),
            }
        }
    }
    if let Some(c) = &parts.clock {
        if let Some(controls) = part(root, "controls") {
            let find = |sel: &str| controls.query_selector(sel).ok().flatten();
            if let Some(input) =
                find("input[name=\"clock\"]").and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
            {
                input.set_max(&c.end.to_string());
                input.set_value(&c.now.to_string());
            }
            if let Some(out) = find("output.now") {
                out.set_text_content(Some(&c.text));
            }
            if let Some(play) = find("button.play") {
                play.set_text_content(Some(c.play_label));
                let _ =
                    play.set_attribute("aria-pressed", if c.playing { "true" } else { "false" });
            }
        }
    }
}

/// Keeps the page's URL at the view (history.replaceState at most every 400 ms,
/// and once more after the last change). Never from an embed.
fn sync_url(url: StoredValue<(String, bool), LocalStorage>, pg: Shared, q: String) {
    let (last, pending) = url.get_value();
    if q == last || pending {
        return;
    }
    url.set_value((last, true));
    set_timeout(
        move || {
            let q = pg
                .try_get_value()
                .and_then(|c| c.try_borrow().ok().map(|p| p.query()))
                .unwrap_or_default();
            write_url(&q);
            let _ = url.try_set_value((q, false));
        },
        std::time::Duration::from_millis(400),
    );
}

fn write_url(q: &str) {
    let Some(w) = web_sys::window() else { return };
    let Ok(history) = w.history() else { return };
    let path = w.location().pathname().unwrap_or_default();
    if w.location().search().ok().as_deref() != Some(&format!("?{q}")) {
        let url = format!("{path}?{q}");
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

fn target(e: &web_sys::Event) -> Option<Element> {
    e.target().and_then(|t| t.dyn_into::<Element>().ok())
}

/// Runs `f` on the playground, then redraws.
fn with(pg: Shared, tick: RwSignal<u64>, f: impl FnOnce(&mut Playground)) {
    if let Some(cell) = pg.try_get_value() {
        if let Ok(mut p) = cell.try_borrow_mut() {
            f(&mut p);
        }
    }
    let _ = tick.try_update(|t| *t += 1);
}

/// Runs the clock with `requestAnimationFrame` while it plays.
fn run_clock(pg: Shared, tick: RwSignal<u64>) {
    fn frame(pg: Shared, tick: RwSignal<u64>, last: f64) {
        request_animation_frame(move || {
            let ts = js_sys::Date::now();
            let mut running = false;
            with(pg, tick, |p| running = p.advance(ts - last));
            if running {
                frame(pg, tick, ts);
            }
        });
    }
    frame(pg, tick, js_sys::Date::now());
}

fn on_key(pg: Shared, tick: RwSignal<u64>, e: &ev::KeyboardEvent) {
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return;
    }
    let tag = target(e)
        .map(|el| el.tag_name().to_ascii_lowercase())
        .unwrap_or_default();
    if matches!(tag.as_str(), "input" | "textarea" | "select") {
        return;
    }
    let on_button = tag == "button" || tag == "summary";
    let manual = pg
        .try_get_value()
        .and_then(|c| c.try_borrow().ok().map(|p| p.is_manual()))
        .unwrap_or(false);
    match e.key().as_str() {
        " " if !on_button => {
            let mut play = false;
            with(pg, tick, |p| play = p.toggle_play());
            if play {
                run_clock(pg, tick);
            }
        }
        "ArrowRight" => with(pg, tick, Playground::step_next),
        "ArrowLeft" => with(pg, tick, Playground::step_prev),
        "r" | "R" if manual => with(pg, tick, Playground::send),
        "Enter" if manual && !on_button => with(pg, tick, Playground::send),
        _ => return,
    }
    e.prevent_default();
}

/// The current value of the field named `name` in the playground.
fn field_value(e: &web_sys::Event, name: &str) -> String {
    let el = e
        .current_target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .and_then(|root| {
            root.query_selector(&format!("[name=\"{name}\"]"))
                .ok()
                .flatten()
        });
    match el {
        Some(el) => value_of(&el),
        None => String::new(),
    }
}

fn value_of(el: &Element) -> String {
    if let Some(s) = el.dyn_ref::<web_sys::HtmlSelectElement>() {
        s.value()
    } else if let Some(i) = el.dyn_ref::<HtmlInputElement>() {
        if i.type_() == "checkbox" {
            i.checked().to_string()
        } else {
            i.value()
        }
    } else if let Some(a) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        a.value()
    } else {
        String::new()
    }
}

fn on_click(pg: Shared, tick: RwSignal<u64>, e: &ev::MouseEvent) {
    let Some(t) = target(e) else { return };
    let action = t.closest("[data-action]").ok().flatten();
    let Some(action) = action else {
        // A mark: select its request.
        let index = t
            .closest("[data-index]")
            .ok()
            .flatten()
            .filter(|m| m.closest(".lanes").ok().flatten().is_some())
            .and_then(|m| m.get_attribute("data-index"))
            .and_then(|i| i.parse::<u64>().ok());
        if let Some(i) = index {
            with(pg, tick, |p| p.select(i));
        }
        return;
    };
    match action
        .get_attribute("data-action")
        .unwrap_or_default()
        .as_str()
    {
        "play" => {
            let mut play = false;
            with(pg, tick, |p| play = p.toggle_play());
            if play {
                run_clock(pg, tick);
            }
        }
        "prev" => with(pg, tick, Playground::step_prev),
        "next" => with(pg, tick, Playground::step_next),
        "send" => with(pg, tick, Playground::send),
        "highlight" => with(pg, tick, Playground::toggle_highlight),
        "dismiss" => with(pg, tick, Playground::dismiss),
        "remove" => {
            let j = action
                .get_attribute("data-lane")
                .and_then(|j| j.parse::<usize>().ok());
            if let Some(j) = j {
                with(pg, tick, |p| p.remove_lane(j));
            }
        }
        "apply-requests" => {
            let text = field_value(e, "requests");
            with(pg, tick, |p| p.apply_requests(&text));
        }
        "export" => with(pg, tick, Playground::export_json),
        "import" => {
            let text = field_value(e, "json");
            with(pg, tick, |p| p.import_json(&text));
        }
        "copy" => {
            let text = field_value(e, "json");
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&text);
                with(pg, tick, Playground::mark_copied);
            }
        }
        "toggle-json" => {
            // The click opens or closes the <details> after this handler.
            let open = action
                .closest("details")
                .ok()
                .flatten()
                .is_some_and(|d| d.has_attribute("open"));
            with(pg, tick, |p| p.set_json_open(!open));
        }
        "sweep" => run_sweep(pg, tick),
        _ => {}
    }
}

fn on_input(pg: Shared, tick: RwSignal<u64>, e: &ev::Event) {
    let Some(t) = target(e) else { return };
    match t.get_attribute("name").as_deref() {
        Some("clock") => {
            let v = value_of(&t).parse::<u64>().unwrap_or(0);
            with(pg, tick, |p| p.seek(v));
        }
        Some("json") => {
            let v = value_of(&t);
            // Kept for re-renders; nothing to redraw.
            if let Some(cell) = pg.try_get_value() {
                if let Ok(mut p) = cell.try_borrow_mut() {
                    p.json = v;
                }
            }
        }
        _ => {}
    }
}

fn on_change(pg: Shared, tick: RwSignal<u64>, e: &ev::Event) {
    let Some(t) = target(e) else { return };
    let Some(name) = t.get_attribute("name") else {
        return;
    };
    let value = value_of(&t);
    match name.as_str() {
        "clock" => {}
        "speed" => {
            if let Ok(s) = share::parse_speed(&value) {
                with(pg, tick, |p| p.set_speed(s));
            }
        }
        "highlight" => with(pg, tick, |p| p.highlight = value == "true"),
        _ => with(pg, tick, |p| p.field(&name, &value)),
    }
}

/// Lab D's sweep, in the browser, timed.
fn run_sweep(pg: Shared, tick: RwSignal<u64>) {
    let mut seed = 1;
    with(pg, tick, |p| {
        p.sweep_started();
        seed = p.share.seed.unwrap_or(1);
    });
    // Let the page paint "running…" before half a second of work.
    set_timeout(
        move || {
            let start = js_sys::Date::now();
            let out = sweep(&SweepSpec::lab_d(seed)).map_err(String::from);
            let took = js_sys::Date::now() - start;
            with(pg, tick, |p| p.sweep_done(out.map(|s| (s, took))));
        },
        std::time::Duration::from_millis(30),
    );
}

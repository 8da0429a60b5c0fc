//! The ratelab playground: a Leptos (client-side rendered) app, compiled to
//! WebAssembly and bundled by Trunk, plus a JavaScript API over the engine.
//!
//! Layout (see ARCHITECTURE.md for how a newcomer finds their way):
//! - [`model`]: what the engine says, shaped for drawing (marks in a span, a
//!   lane's overlays and gauge): plain Rust over `ratelab-sim`'s
//!   [`Timeline`](ratelab_sim::Timeline), tested natively.
//! - [`series`]: a lane's state over time, asked of the engine across the span.
//! - [`state`]: the playground as plain Rust: [`state::Playground`] and every
//!   [`state::Action`] a person can take, tested natively.
//! - [`view`]: the Leptos components, one per file, over a context of signals and
//!   memos ([`view::Ctx`]); [`App`] is the shell.
//! - [`draw`]: a lane's SVG, made only through an escaping builder
//!   ([`draw::Svg`]).
//! - [`learn`]: the open lesson step (link, next/previous, how it plays), plain
//!   Rust over `ratelab-sim`'s lessons; [`view::learn`] is its panel.
//! - [`texts`]: every word of the page, in English and Vietnamese.
//! - [`api`]: `simulate`, `simulateJson`, `scenarios`, `mount` for JavaScript.
//! - [`crash`]: the panic hook that leaves a readable error box.
//! - [`worker`]: heavy runs (lab D's sweep, reading a big import) in a module
//!   worker on the same wasm.
//! - [`import`]: the JSON box's import read, and the compact form in which a
//!   worker hands a big one back.
//!
//! The module starts itself ([`start`]) and mounts the full page into the element
//! with id [`ROOT_ID`], if the page has one, with the setup from the URL. Other pages
//! (the embed, a docs page, the test runner) call [`api::mount`] or nothing.

pub mod api;
pub mod crash;
pub mod draw;
pub mod import;
pub mod learn;
pub mod model;
pub mod series;
pub mod state;
pub mod texts;
pub mod view;
pub mod worker;

pub use state::MountOptions;
pub use view::App;

use leptos::prelude::*;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;

/// The id of the element `index.html` provides for the playground.
pub const ROOT_ID: &str = "ratelab";

/// Mounts the full page (URL state, global keys) into `parent` for the lifetime of
/// the page.
///
/// `lanes_px` is the width the lanes will have, if the page already knows it (see
/// [`start`]), so that the first render draws them at their final width.
pub fn mount_page(parent: web_sys::HtmlElement, query: &str, lanes_px: Option<f64>) {
    crash::install();
    let options = MountOptions::page(query);
    let root = parent.clone();
    leptos::mount::mount_to(
        parent,
        move || view! { <App options=options root=root lanes_px=lanes_px /> },
    )
    .forget();
}

/// Entry point run by the wasm-bindgen glue when the module loads.
#[wasm_bindgen(start)]
pub fn start() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let root = window.document().and_then(|d| d.get_element_by_id(ROOT_ID));
    if let Some(root) = root {
        let query = window.location().search().unwrap_or_default();
        after_paint(move || mount_in_place(root, &query));
    }
}

/// Runs `f` in a task of its own once the browser has drawn the next frame: a
/// frame's callback, then a timeout from it, so `f` starts after that frame's
/// layout and paint. Measured (session 4, a trace of the page load, load average
/// 12): mounting at once forced the loading frame's first layout inside the mount's
/// task (115 of its 480 ms), and nothing was painted until both were done. A tab
/// that draws no frames (in the background) still runs `f`, after 200 ms. The
/// page also draws a new run's lanes this way, one step per task
/// ([`view::Ctx::settled`]).
pub(crate) fn after_paint(f: impl FnOnce() + 'static) {
    use std::cell::Cell;
    use std::rc::Rc;
    use std::time::Duration;
    /// `f`, until whichever of the two callbacks comes first takes it.
    type Once = Rc<Cell<Option<Box<dyn FnOnce()>>>>;
    let once: Once = Rc::new(Cell::new(Some(Box::new(f))));
    let run = move |once: &Once| {
        if let Some(f) = once.take() {
            f();
        }
    };
    let (a, b) = (once.clone(), once);
    leptos::prelude::request_animation_frame(move || {
        leptos::prelude::set_timeout(move || run(&a), Duration::ZERO)
    });
    leptos::prelude::set_timeout(move || run(&b), Duration::from_millis(200));
}

/// Replaces `index.html`'s loading frame in `root` with the page.
fn mount_in_place(root: web_sys::Element, query: &str) {
    // The placeholder lane is as wide as the lanes will be: measured now (the
    // frame is laid out already, so this is cheap), the first render draws every
    // lane at its final width instead of at a guess and then again once the
    // mounted page is measured.
    let lanes_px = root
        .query_selector(".lane-placeholder")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        .map(|e| f64::from(e.offset_width()))
        .filter(|w| *w > 0.0);
    // Whatever the page showed while loading gives way to the app.
    root.set_text_content(None);
    mount_page(root.unchecked_into(), query, lanes_px);
}

//! The ratelab playground: a Leptos (client-side rendered) app, compiled to
//! WebAssembly and bundled by Trunk from the repository's `index.html`.
//!
//! Layout, meant to grow:
//! - [`manual`]: plain Rust state (no signals, no DOM) that drives the engine
//!   (`ratelab-core`); unit-tested natively.
//! - [`app`]: Leptos components. They hold that state in signals and draw it; they
//!   never decide anything themselves.
//!
//! The module starts itself ([`start`]) and mounts [`App`] into the element with id
//! [`ROOT_ID`], if the page has one. Pages without it (the wasm-bindgen test runner,
//! a docs page that only wants a future JS API) get nothing mounted.

pub mod app;
pub mod manual;

pub use app::App;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;

/// The id of the element `index.html` provides for the playground.
pub const ROOT_ID: &str = "ratelab";

/// Mounts [`App`] into `parent` for the lifetime of the page.
pub fn mount(parent: web_sys::HtmlElement) {
    leptos::mount::mount_to(parent, App).forget();
}

/// Entry point run by the wasm-bindgen glue when the module loads.
#[wasm_bindgen(start)]
pub fn start() {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(ROOT_ID));
    if let Some(root) = root {
        // Whatever the page showed while loading gives way to the app.
        root.set_text_content(None);
        mount(root.unchecked_into());
    }
}

//! The ratelab playground: a Leptos (client-side rendered) app, compiled to
//! WebAssembly and bundled by Trunk, plus a JavaScript API over the engine.
//!
//! Layout:
//! - [`model`]: plain Rust state (no signals, no DOM) over `ratelab-sim`'s
//!   [`Timeline`](ratelab_sim::Timeline): what to draw, unit-tested natively.
//! - [`state`]: the playground as a plain state machine (every user action is a
//!   method; `render` says which parts changed), tested natively.
//! - [`html`] (page parts) and [`draw`] (lanes): plain functions that make markup
//!   from what the engine says; nothing here decides anything.
//! - [`app`]: the Leptos component, a thin layer: one signal, one effect, delegated
//!   events (see its docs for why).
//! - [`i18n`] and [`texts`]: the page's words in English and Vietnamese.
//! - [`api`]: `simulate`, `scenarios`, `mount` for JavaScript (wasm-bindgen).
//! - [`crash`]: the panic hook that leaves a readable error box.
//!
//! The module starts itself ([`start`]) and mounts the full page into the element
//! with id [`ROOT_ID`], if the page has one, with the setup from the URL. Other pages
//! (the embed, a docs page, the test runner) call [`api::mount`] or nothing.

pub mod api;
pub mod app;
pub mod crash;
pub mod draw;
pub mod html;
pub mod i18n;
pub mod model;
pub mod state;
pub mod texts;

pub use app::{App, MountOptions};

use leptos::prelude::*;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;

/// The id of the element `index.html` provides for the playground.
pub const ROOT_ID: &str = "ratelab";

/// Mounts the full page (URL state, global keys) into `parent` for the lifetime of
/// the page.
pub fn mount_page(parent: web_sys::HtmlElement, query: &str) {
    crash::install();
    let options = MountOptions::page(query);
    let root = parent.clone();
    leptos::mount::mount_to(parent, move || view! { <App options=options root=root /> }).forget();
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
        // Whatever the page showed while loading gives way to the app.
        root.set_text_content(None);
        mount_page(root.unchecked_into(), &query);
    }
}

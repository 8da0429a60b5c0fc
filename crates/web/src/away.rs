//! The service build (docs/playground.md): the page built with the service
//! model lives in `service/` next to this build, and a service scenario asked for
//! here (by a link or the picker) opens there, with the same query.

use std::cell::RefCell;

use wasm_bindgen::prelude::wasm_bindgen;

thread_local! {
    /// The service build's address, from the loader ([`set_service_page`]).
    static SERVICE_PAGE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Tells the engine where the service build is (the loader, `ratelab.js`, calls
/// this with `service/` next to itself, so that an embed on a docs page links to
/// the right place). Not part of the documented API.
#[wasm_bindgen(js_name = setServicePage, skip_typescript)]
pub fn set_service_page(url: String) {
    SERVICE_PAGE.with(|p| {
        if let Ok(mut p) = p.try_borrow_mut() {
            *p = Some(url);
        }
    });
}

/// The service build's address with `query`: next to the loader if it said where
/// that is, else next to the document (the page itself, which is at the root of its
/// build).
pub fn service_url(query: &str) -> String {
    let base = SERVICE_PAGE
        .with(|p| p.try_borrow().ok().and_then(|p| p.clone()))
        .unwrap_or_else(|| "service/".into());
    format!("{base}?{query}")
}

/// Opens the service build with `query` in place of this page (the full page only:
/// an embed never moves its host page). `replace`: the address this page was opened
/// with is not kept in the history (a link that was never this build's).
pub fn go(query: &str, replace: bool) {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return;
    };
    // The page is at the root of its build: `service/` is next to it.
    let url = format!("service/?{query}");
    let _ = if replace {
        location.replace(&url)
    } else {
        location.assign(&url)
    };
}

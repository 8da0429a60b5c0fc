//! The view as a query string: the page's URL follows it (throttled), the panic
//! hook and `Playground.query()` read it.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use web_sys::HtmlElement;

use super::Ctx;

/// The URL is written at most this often (`history.replaceState` is rate-limited by
/// browsers), and once more after the last change.
const URL_EVERY_MS: u32 = 400;

/// Keeps the query string where the crash box and the API find it, and, on the
/// page (not in an embed), in the address bar.
pub fn keep(ctx: Ctx, root: Option<HtmlElement>) {
    let query = ctx.memo(|p| p.query());
    let cell = Rc::new(RefCell::new(query.get_untracked()));
    if let Some(root) = root {
        crate::crash::register(root, cell.clone(), ctx.embed);
    }
    let pending: StoredValue<Option<Timeout>, LocalStorage> = StoredValue::new_local(None);
    Effect::new(move |_| {
        let q = query.get();
        if let Ok(mut c) = cell.try_borrow_mut() {
            c.clone_from(&q);
        }
        if ctx.embed || pending.with_value(Option::is_some) {
            return;
        }
        let later = Timeout::new(URL_EVERY_MS, move || {
            let _ = pending.try_set_value(None);
            if let Some(q) = query.try_get_untracked() {
                write_url(&q);
            }
        });
        pending.set_value(Some(later));
    });
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

//! The view as a query string: the page's URL follows it (throttled), the panic
//! hook and `Playground.query()` read it.
//!
//! The query is written out only when what it says changed: a new run (a changed
//! setup is a new [`Shared`](crate::state::Shared), compared by pointer) or a new
//! view. While the clock plays, the moving `t` does not count (the URL keeps the
//! moment of the last other change until the clock stops), so no
//! frame serialises the stream: an imported stream of 2 000 000 requests costs one
//! query per change of setup, not one per frame.

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
    // Cheap to compute and compare every frame; the query itself is not. While
    // playing, the moving clock is left out (`None`); everything else the link
    // says (speed, language, selection…) still counts.
    let changed = ctx.memo(|p| {
        let mut view = p.view();
        let t = (!p.playing).then_some(view.t_ms);
        view.t_ms = 0;
        (p.run.clone(), t, view, p.lesson)
    });
    let cell = Rc::new(RefCell::new(ctx.read(|p| p.query()).unwrap_or_default()));
    if let Some(root) = root {
        crate::crash::register(root, cell.clone(), ctx.embed);
    }
    let pending: StoredValue<Option<Timeout>, LocalStorage> = StoredValue::new_local(None);
    let kept = cell.clone();
    Effect::new(move |_| {
        // Read, not `track()`ed: a memo is lazy, and one only tracked is never
        // computed, so it never subscribes to the model and never changes (the URL
        // was written once, at mount, and never again).
        changed.with(|_| ());
        let Some(q) = ctx.read(|p| p.query()) else {
            return;
        };
        if let Ok(mut c) = kept.try_borrow_mut() {
            *c = q;
        }
        if ctx.embed || pending.with_value(Option::is_some) {
            return;
        }
        let cell = kept.clone();
        let later = Timeout::new(URL_EVERY_MS, move || {
            let _ = pending.try_set_value(None);
            if let Ok(q) = cell.try_borrow() {
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
        // The fragment (the part a copied link scrolls to) stays.
        let hash = w.location().hash().unwrap_or_default();
        let url = format!("{path}?{q}{hash}");
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

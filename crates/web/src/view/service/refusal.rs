//! The 429 panel of a service lane: one attempt, followed. By default the run's
//! first refused request; any attempt chosen in the attempts picture, stepped to
//! with the buttons, or picked from its request's chain. It says which attempt
//! of which request it is, the response the engine gave it (`429` with its
//! `Retry-After` and the stacked limits that refused it, `503` from a store that
//! is down, or `200`), its client's retry policy, and what the client did next
//! ("retries at 12.4 s: allowed", gave up, never retries), as the run went.
//!
//! The body is escaped HTML from [`followed_html`], set as one `inner_html`, and
//! the panel has one click handler for all its buttons (each says what it does
//! in `data-go` or `data-i`): as Leptos elements and closures the panel cost the
//! service build about 15 KB gzipped of tachys' code.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::{use_run, Selection};
use crate::draw::service::{follow, followed_html};
use crate::texts::service::{KNOBS, SERVICE};
use crate::view::{text, use_ctx};

/// What a click on the panel asks for, read from the button's attributes.
fn go(selection: Selection, button: &web_sys::Element) {
    if let Some(i) = button.get_attribute("data-i").and_then(|i| i.parse().ok()) {
        selection.choose(i);
        return;
    }
    match button.get_attribute("data-go").as_deref() {
        Some("earlier") => selection.step(-1),
        Some("later") => selection.step(1),
        Some("first") => selection.reset(),
        _ => {}
    }
}

/// The panel under lane `lane`'s attempts picture.
#[component]
pub fn Refusal(
    /// Which lane.
    lane: usize,
    /// The attempt it follows.
    selection: Selection,
) -> impl IntoView {
    let ctx = use_ctx();
    let runs = use_run();
    let html = Memo::new(move |_| {
        let lang = ctx.lang.get();
        let index = selection.index.get();
        runs.with(|s| {
            let shown = index.and_then(|i| {
                let t = s?;
                let f = follow(t, lane, i)?;
                let c = t.spec(lane)?.clients.get(f.client as usize)?;
                Some((f, c.name.as_str(), c.retry.backoff))
            });
            followed_html(
                shown.as_ref().map(|(f, name, b)| (f, *name, *b)),
                SERVICE.get(lang),
                KNOBS.get(lang),
            )
        })
    });
    let index = Signal::derive(move || selection.index.get());
    let click = move |e: leptos::ev::MouseEvent| {
        let button = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("button").ok().flatten());
        if let Some(b) = button {
            go(selection, &b);
        }
    };
    view! {
        <section class="refusal" data-index=index on:click=click>
            <h4>{text(&SERVICE, |t| t.refusal)}</h4>
            <p class="help">{text(&SERVICE, |t| t.refusal_help)}</p>
            <div class="pick">
                <button type="button" class="earlier" data-go="earlier">
                    {text(&SERVICE, |t| t.earlier)}
                </button>
                <button type="button" class="first-refusal" data-go="first">
                    {text(&SERVICE, |t| t.to_first_refusal)}
                </button>
                <button type="button" class="later" data-go="later">
                    {text(&SERVICE, |t| t.later)}
                </button>
            </div>
            <div class="followed" inner_html=move || html.get().markup()></div>
        </section>
    }
}

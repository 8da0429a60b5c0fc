//! "Which limiter?" (in its own chunk, fetched the first time its fold in the
//! lessons panel is opened): the long article's flowchart as questions with
//! answers, ending on a limiter with its parameters and a button that opens the
//! lesson step showing it at work; and the decision matrix. The words are the
//! lessons' texts (`choose.*`, fetched with them); the markup is
//! [`crate::draw::chooser`], remade when an answer or the language changes, with
//! one click handler.

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::{sim_lang, use_learning, Scroll};
use crate::draw::chooser::{chooser as markup, walk};
use crate::view::use_ctx;

/// The chooser: its answers so far, drawn from the fetched texts.
pub fn chooser() -> impl IntoView {
    let ctx = use_ctx();
    let learning = use_learning();
    let scroll = use_context::<Scroll>();
    let answers = RwSignal::new(Vec::<usize>::new());
    let node = NodeRef::<leptos::html::Div>::new();
    let html = move || {
        let lang = ctx.lang.get();
        let texts = learning.texts(lang).and_then(Result::ok)?;
        let walked = answers.with(|a| walk(a));
        Some(markup(&walked, &texts, sim_lang(lang)).markup())
    };
    let click = move |e: web_sys::MouseEvent| {
        let Some(target) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let Some(button) = target.closest("button").ok().flatten() else {
            return;
        };
        if button.has_attribute("data-go") {
            if let Some(scroll) = scroll {
                super::go_to(ctx, &button, scroll);
            }
            return;
        }
        let Some(what) = button.get_attribute("data-choose") else {
            return;
        };
        let changed = match what.split_once(':') {
            Some(("answer", i)) => i.parse().ok().map(|i| answers.update(|a| a.push(i))),
            Some(("back", at)) => at.parse().ok().map(|at: usize| answers.update(|a| a.truncate(at))),
            _ if what == "again" => Some(answers.set(Vec::new())),
            _ => None,
        };
        // The buttons were remade: focus goes to the first of the new ones (the
        // next question's first answer, or the pick's button).
        if changed.is_some() {
            Timeout::new(0, move || {
                let first = node.get_untracked().and_then(|n| {
                    n.query_selector(".asking button, .pick button").ok().flatten()
                });
                if let Some(b) = first.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
                    let _ = b.focus();
                }
            })
            .forget();
        }
    };
    view! { <div class="chooser" node_ref=node inner_html=html on:click=click></div> }
}

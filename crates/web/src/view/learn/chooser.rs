//! "Which limiter?" (in its own chunk, fetched the first time its fold under the
//! lessons panel is opened, `view/choose.rs`): the long article's flowchart as questions with
//! answers, ending on a limiter with its parameters and a button that opens the
//! lesson step showing it at work; and the decision matrix. The words are the
//! lessons' texts (`choose.*`, fetched with them); the markup is
//! [`crate::draw::chooser`], remade when an answer or the language changes, with
//! one click handler.

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::{fetch, sim_lang, Loaded};
use crate::draw::chooser::{chooser as markup, status, walk};
use crate::learn::Go;
use crate::state::Action;
use crate::texts::learn::LEARN;
use crate::texts::Lang;
use crate::view::use_ctx;

/// The chooser: its answers so far, drawn from the fetched texts.
pub fn chooser() -> impl IntoView {
    let ctx = use_ctx();
    let answers = RwSignal::new(Vec::<usize>::new());
    let node = NodeRef::<leptos::html::Div>::new();
    // The lessons' texts of each language asked for (fetched once: `fetch`).
    let texts = RwSignal::new(Vec::<(Lang, Loaded)>::new());
    Effect::new(move |_| {
        let lang = ctx.lang.get();
        if texts.with_untracked(|t| t.iter().any(|(l, _)| *l == lang)) {
            return;
        }
        leptos::task::spawn_local(async move {
            let loaded = fetch::texts(lang).await;
            let _ = texts.try_update(|t| t.push((lang, loaded)));
        });
    });
    let html = move || {
        let lang = ctx.lang.get();
        let t = LEARN.get(lang);
        let loaded = texts.with(|all| all.iter().find(|(l, _)| *l == lang).map(|(_, t)| t.clone()));
        match loaded {
            None => status(t.loading).markup(),
            Some(Err(e)) => status(&format!("{} {e}", t.unavailable)).markup(),
            Some(Ok(texts)) => {
                let walked = answers.with(|a| walk(a));
                markup(&walked, &texts, sim_lang(lang)).markup()
            }
        }
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
        if let Some(Go::Open(o)) = button.get_attribute("data-go").and_then(|g| Go::parse(&g)) {
            ctx.act(Action::OpenLesson(o));
            // The lessons panel, with the step just opened, is above.
            if let Some(lessons) = button
                .closest(".ratelab")
                .ok()
                .flatten()
                .and_then(|r| r.query_selector(".lessons").ok().flatten())
            {
                lessons.scroll_into_view();
            }
            return;
        }
        let Some(what) = button.get_attribute("data-choose") else {
            return;
        };
        let next: Option<Vec<usize>> = match what.split_once(':') {
            Some(("answer", i)) => i
                .parse()
                .ok()
                .map(|i| answers.with_untracked(|a| [a.as_slice(), &[i]].concat())),
            Some(("back", at)) => at
                .parse()
                .ok()
                .map(|at: usize| answers.with_untracked(|a| a[..at.min(a.len())].to_vec())),
            _ if what == "again" => Some(Vec::new()),
            _ => None,
        };
        let changed = next.map(|n| answers.set(n));
        // The buttons were remade: focus goes to the first of the new ones (the
        // next question's first answer, or the pick's button).
        if changed.is_some() {
            Timeout::new(0, move || {
                let first = node.get_untracked().and_then(|n| {
                    n.query_selector(".asking button, .pick button")
                        .ok()
                        .flatten()
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

//! The quiz (in its own chunk, fetched the first time its fold under the lessons
//! is opened, `view/choose.rs`): the demo article's check questions
//! ([`ratelab_learn::quiz`]), answered by the engine here, in the page, on the
//! lessons' texts (fetched once for the lessons, the chooser and the quiz). The
//! learner picks a choice and commits with a button; then the page says whether it
//! was right, the engine's answer with its numbers and why the wrong choices are
//! wrong, and a button sets up the run that answered it on the lanes. The markup
//! is [`crate::draw::quiz`], remade when an answer is committed or the language
//! changes, with one click handler; a pick not yet committed is the radio's own.

use std::sync::Arc;

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use ratelab_learn::quiz::{quiz_in, Question};
use wasm_bindgen::JsCast;

use super::{fetch, sim_lang, Loaded};
use crate::draw::quiz::{quiz as markup, status, Answers};
use crate::texts::learn::LEARN;
use crate::texts::Lang;
use crate::view::use_ctx;

/// A language's texts and the questions answered on them, or why not.
type Asked = Result<(Arc<ratelab_learn::texts::Texts>, Arc<Vec<Question>>), String>;

/// The questions in `lang`, answered by the engine on the fetched texts.
fn ask(loaded: Loaded, lang: Lang) -> Asked {
    let texts = loaded?;
    let questions = quiz_in(&texts, sim_lang(lang)).map_err(|e| e.to_string())?;
    Ok((texts, Arc::new(questions)))
}

/// The quiz: the questions of the page's language and the learner's answers.
pub fn quiz() -> impl IntoView {
    let ctx = use_ctx();
    let answers = RwSignal::new(Answers::default());
    let node = NodeRef::<leptos::html::Div>::new();
    // The questions of each language asked for (texts fetched once: `fetch`).
    let asked = RwSignal::new(Vec::<(Lang, Asked)>::new());
    Effect::new(move |_| {
        let lang = ctx.lang.get();
        if asked.with_untracked(|a| a.iter().any(|(l, _)| *l == lang)) {
            return;
        }
        leptos::task::spawn_local(async move {
            let questions = ask(fetch::texts(lang).await, lang);
            let _ = asked.try_update(|a| a.push((lang, questions)));
        });
    });
    let now = move || {
        let lang = ctx.lang.get();
        asked.with(|all| all.iter().find(|(l, _)| *l == lang).map(|(_, a)| a.clone()))
    };
    // The questions shown, read by the handlers (untracked).
    let shown = move || {
        let lang = ctx.lang.get_untracked();
        asked.with_untracked(|all| {
            all.iter()
                .find(|(l, _)| *l == lang)
                .and_then(|(_, a)| a.as_ref().ok().map(|(_, q)| q.clone()))
        })
    };
    let html = move || {
        let t = LEARN.get(ctx.lang.get());
        match now() {
            None => status(t.loading).markup(),
            Some(Err(e)) => status(&format!("{} {e}", t.unavailable)).markup(),
            Some(Ok((texts, questions))) => {
                answers.with(|a| markup(&questions, a, &texts).markup())
            }
        }
    };
    // A pick is kept, not drawn again (the radio shows it, and keeps focus).
    let change = move |e: web_sys::Event| {
        let Some(input) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let q = input
            .closest("li.question")
            .ok()
            .flatten()
            .and_then(|li| li.get_attribute("data-question"))
            .and_then(|id| shown().and_then(|qs| qs.iter().position(|q| q.id == id)));
        if let (Some(q), Ok(c)) = (q, input.value().parse::<usize>()) {
            answers.update_untracked(|a| a.pick(q, c));
        }
    };
    let click = move |e: web_sys::MouseEvent| {
        let Some(button) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|t| t.closest("button").ok().flatten())
        else {
            return;
        };
        let Some(what) = button.get_attribute("data-quiz") else {
            return;
        };
        let mut parts = what.split(':');
        let (verb, q, k) = (
            parts.next().unwrap_or(""),
            parts.next().and_then(|q| q.parse::<usize>().ok()),
            parts.next().and_then(|k| k.parse::<usize>().ok()),
        );
        let Some(q) = q else { return };
        // Where focus goes once the markup is remade.
        let focus = match verb {
            "check" => {
                let mut committed = false;
                answers.update(|a| committed = a.commit(q));
                if committed {
                    ".verdict"
                } else {
                    "input"
                }
            }
            "again" => {
                answers.update(|a| a.again(q));
                "input"
            }
            "show" => {
                let link = shown().and_then(|qs| qs.get(q)?.show.get(k?).map(|s| s.link.clone()));
                if let Some(link) = link {
                    ctx.update(|p| p.show_run(&link));
                    show_lanes(&button);
                }
                return;
            }
            _ => return,
        };
        Timeout::new(0, move || {
            let at = node.get_untracked().and_then(|n| {
                n.query_selector(&format!("li.question:nth-child({}) {focus}", q + 1))
                    .ok()
                    .flatten()
            });
            if let Some(el) = at.and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok()) {
                let _ = el.focus();
            }
        })
        .forget();
    };
    view! { <div class="quiz" node_ref=node inner_html=html on:click=click on:change=change></div> }
}

/// Brings the lanes (the clock above them) into view once the run is set up.
fn show_lanes(button: &web_sys::Element) {
    let Some(root) = button.closest(".ratelab").ok().flatten() else {
        return;
    };
    Timeout::new(0, move || {
        if let Some(controls) = root.query_selector(".controls").ok().flatten() {
            controls.scroll_into_view();
        }
    })
    .forget();
}

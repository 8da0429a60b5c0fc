//! The folds under the lessons (the full page only): "Which limiter?" and the
//! quiz. Each fold's title is here; what it holds is a chunk (the `chooser` chunk,
//! `view/learn/chooser.rs`; the `quiz` chunk, `view/learn/quiz.rs`), fetched the
//! first time the fold is opened. One fold function serves both, so a second fold
//! costs the first module its title and its loader call only.

use leptos::prelude::*;

use super::{chunks, text};
use crate::texts::learn::{Learn, LEARN};

/// A fold of class `class` titled `title`, holding panel `name` (its chunk, which
/// `load` fetches) once first opened.
fn fold(
    class: &'static str,
    title: fn(&Learn) -> &'static str,
    name: &'static str,
    load: fn() -> chunks::Loading,
) -> impl IntoView {
    let opened = RwSignal::new(false);
    view! {
        <details
            class=class
            on:toggle=move |e| {
                let d = event_target::<web_sys::HtmlDetailsElement>(&e);
                if d.open() && !opened.get_untracked() {
                    opened.set(true);
                }
            }
        >
            <summary>{text(&LEARN, title)}</summary>
            {move || opened.get().then(|| chunks::placed(name, Box::new(load)))}
        </details>
    }
}

/// "Which limiter?".
pub fn chooser_fold() -> impl IntoView {
    fold(
        "chooser-fold",
        |t| t.chooser,
        "chooser",
        || Box::pin(chunks::chooser()),
    )
}

/// The quiz.
pub fn quiz_fold() -> impl IntoView {
    fold("quiz-fold", |t| t.quiz, "quiz", || Box::pin(chunks::quiz()))
}

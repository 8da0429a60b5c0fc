//! The folds under the lessons (the full page only): "Which limiter?" and the
//! quiz. Each fold's title is here; what it holds is a chunk (the `chooser` chunk,
//! `view/learn/chooser.rs`; the `quiz` chunk, `view/learn/quiz.rs`), fetched the
//! first time the fold is opened. One fold function serves both, so a second fold
//! costs the first module its title and its loader call only.

use leptos::prelude::*;

use super::{chunks, text};
use crate::texts::learn::{Learn, LEARN};

/// A fold of class `class` titled `title`, holding `content` once first opened.
fn fold(
    class: &'static str,
    title: fn(&Learn) -> &'static str,
    content: fn() -> AnyView,
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
            {move || opened.get().then(content)}
        </details>
    }
}

/// "Which limiter?".
pub fn chooser_fold() -> impl IntoView {
    fold(
        "chooser-fold",
        |t| t.chooser,
        || chunks::panel("chooser", chunks::chooser).into_any(),
    )
}

/// The quiz.
pub fn quiz_fold() -> impl IntoView {
    fold(
        "quiz-fold",
        |t| t.quiz,
        || chunks::panel("quiz", chunks::quiz).into_any(),
    )
}

//! The "Which limiter?" fold, under the lessons (the full page only): its title
//! is here, what it holds is the `chooser` chunk (`view/learn/chooser.rs`),
//! fetched the first time the fold is opened.

use leptos::prelude::*;

use super::{chunks, text};
use crate::texts::learn::LEARN;

/// The fold.
pub fn chooser_fold() -> impl IntoView {
    let opened = RwSignal::new(false);
    view! {
        <details
            class="chooser-fold"
            on:toggle=move |e| {
                let d = event_target::<web_sys::HtmlDetailsElement>(&e);
                if d.open() && !opened.get_untracked() {
                    opened.set(true);
                }
            }
        >
            <summary>{text(&LEARN, |t| t.chooser)}</summary>
            {move || opened.get().then(|| chunks::panel("chooser", chunks::chooser))}
        </details>
    }
}

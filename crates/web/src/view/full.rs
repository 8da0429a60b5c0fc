//! An embed's link to the full playground (the page, with the lessons, the setup
//! and the production box), opening at what the reader sees: the query the
//! playground keeps ([`super::url::QueryNow`]), which changes with the view but not
//! with every frame of a playing clock (the link then says the moment play began;
//! paused, the moment shown).

use leptos::prelude::*;

use super::text;
use super::url::QueryNow;
use crate::texts::controls::CONTROLS;

/// The link, to `page` (the full playground's address, checked by
/// [`crate::state::playground_address`]).
#[component]
pub fn OpenFull(page: String) -> impl IntoView {
    let query = use_context::<QueryNow>();
    let href = move || match query {
        Some(QueryNow(q)) => format!("{page}?{}", q.get()),
        None => page.clone(),
    };
    view! {
        <a
            class="open-full"
            href=href
            target="_blank"
            rel="noopener"
            aria-label=text(&CONTROLS, |t| t.open_full)
            title=text(&CONTROLS, |t| t.open_full)
        >
            "↗"
        </a>
    }
}

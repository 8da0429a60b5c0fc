//! An embed's link to the full playground (the page, with the lessons, the setup
//! and the production box), opening where the reader is: its address is made when
//! the reader goes for the link (a pointer, the focus, the click), from the
//! playground's state at that moment, so no frame writes it.

use leptos::prelude::*;

use super::{text, use_ctx};
use crate::texts::controls::CONTROLS;

/// The link, to `page` (the full playground's address, checked by
/// [`crate::state::playground_address`]).
#[component]
pub fn OpenFull(page: String) -> impl IntoView {
    let ctx = use_ctx();
    let anchor = NodeRef::<leptos::html::A>::new();
    let page = StoredValue::new(page);
    let aim = move || {
        if let (Some(a), Some(q)) = (anchor.get_untracked(), ctx.read(|p| p.query())) {
            a.set_href(&format!("{}?{q}", page.get_value()));
        }
    };
    view! {
        <a
            class="open-full"
            node_ref=anchor
            href=page.get_value()
            target="_blank"
            rel="noopener"
            aria-label=text(&CONTROLS, |t| t.open_full)
            title=text(&CONTROLS, |t| t.open_full)
            on:pointerdown=move |_| aim()
            on:focus=move |_| aim()
            on:click=move |_| aim()
        >
            "↗"
        </a>
    }
}

//! What the link asked for that could not be used, and actions that failed.

use leptos::prelude::*;

use super::{text, use_ctx};
use crate::state::Action;
use crate::texts::errors;
use crate::texts::page::PAGE;

/// The notices (nothing when there are none).
#[component]
pub fn Notices() -> impl IntoView {
    let ctx = use_ctx();
    let notices = ctx.memo(|p| p.notices.clone());
    let any = move || notices.with(|n| !n.is_empty());
    view! {
        <Show when=any>
            <div class="notices" role="status">
                <p>
                    // An embed's settings are its attributes or options, not a link.
                    <strong>
                        {if ctx.embed {
                            text(&PAGE, |t| t.notices_embed)
                        } else {
                            text(&PAGE, |t| t.notices)
                        }}
                    </strong>
                    <button type="button" class="dismiss" on:click=move |_| ctx.act(Action::Dismiss)>
                        {text(&PAGE, |t| t.dismiss)}
                    </button>
                </p>
                <ul>
                    // A notice quotes the link, which anyone can craft: it is text.
                    <For each=move || notices.get().into_iter().enumerate() key=|n| n.clone() let((_, notice))>
                        <li>
                            <code>{Signal::derive(move || errors::notice(&notice, ctx.lang.get()))}</code>
                        </li>
                    </For>
                </ul>
            </div>
        </Show>
    }
}

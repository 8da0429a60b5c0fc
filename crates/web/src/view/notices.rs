//! What the link asked for that could not be used, and actions that failed.

use leptos::prelude::*;

use super::{text, use_ctx};
use crate::away;
use crate::state::Action;
use crate::texts::errors;
use crate::texts::page::PAGE;

/// The notices (nothing when there are none).
#[component]
pub fn Notices() -> impl IntoView {
    let ctx = use_ctx();
    let notices = ctx.memo(|p| p.notices.clone());
    let any = move || notices.with(|n| !n.is_empty());
    // A service scenario this build cannot run: the page has gone to the service
    // build (the picker, `start`); an embed never moves its host page, it links
    // there with this line.
    let service_page = ctx.memo(|p| p.service_page.clone());
    let href = move || service_page.get().map(|q| away::service_url(&q));
    view! {
        <Show when=move || service_page.with(Option::is_some)>
            <p class="service-elsewhere" role="status">
                {text(&PAGE, |t| t.service_elsewhere)}
                " "
                <a href=href target="_blank" rel="noopener">
                    {text(&PAGE, |t| t.open_service)}
                </a>
            </p>
        </Show>
        <Show when=any>
            <div class="notices" role="status">
                <p>
                    <strong>{text(&PAGE, |t| t.notices)}</strong>
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

//! The masthead: the title, the tagline and the language switch.

use leptos::prelude::*;

use super::{text, use_ctx};
use crate::state::Action;
use crate::texts::page::PAGE;
use crate::texts::Lang;

/// The masthead.
#[component]
pub fn Header() -> impl IntoView {
    let ctx = use_ctx();
    let options = Lang::ALL.map(|l| {
        view! {
            <option value=l.code() prop:selected=Signal::derive(move || ctx.lang.get() == l)>
                {l.name()}
            </option>
        }
    });
    view! {
        <header class="masthead">
            <div>
                <h1>"ratelab"</h1>
                <p class="tagline">{text(&PAGE, |t| t.tagline)}</p>
            </div>
            <label class="lang">
                <span>{text(&PAGE, |t| t.language)}</span>
                <select
                    aria-label="Language / Ngôn ngữ"
                    on:change=move |e| ctx.act(Action::Lang(Lang::from_code(&event_target_value(&e))))
                >
                    {options}
                </select>
            </label>
        </header>
    }
}

//! The custom scenario's stream, typed or pasted.

use leptos::html::Textarea;
use leptos::prelude::*;
use ratelab_sim::share::format_requests;
use ratelab_sim::ScenarioId;

use crate::state::{Action, Place};
use crate::texts::setup::SETUP;
use crate::view::{text, use_ctx};

/// The custom stream's text box (only in the custom scenario).
#[component]
pub fn CustomRequests() -> impl IntoView {
    let ctx = use_ctx();
    let custom = Memo::new(move |_| ctx.run.with(|s| s.setup.scenario == ScenarioId::Custom));
    view! {
        <Show when=move || custom.get()>
            <CustomBox />
        </Show>
    }
}

#[component]
fn CustomBox() -> impl IntoView {
    let ctx = use_ctx();
    let area = NodeRef::<Textarea>::new();
    let typed = Memo::new(move |_| {
        ctx.run
            .with(|s| format_requests(&s.setup.requests).replace(',', " "))
    });
    let error = ctx.error(Place::Requests);
    let id = format!("f{}-requests", ctx.uid);
    let apply = move |_| {
        if let Some(area) = area.get_untracked() {
            ctx.act(Action::ApplyRequests(area.value()));
        }
    };
    view! {
        <div class="custom">
            <label class="field wide" for=id.clone()>
                <span class="label">{text(&SETUP, |t| t.custom_times)}</span>
                <textarea
                    id=id.clone()
                    name="requests"
                    rows="3"
                    spellcheck="false"
                    node_ref=area
                    prop:value=typed
                ></textarea>
                <span class="hint">{text(&SETUP, |t| t.custom_hint)}</span>
                <span class="error" role="alert">
                    {error}
                </span>
            </label>
            <button type="button" class="apply" on:click=apply>
                {text(&SETUP, |t| t.apply)}
            </button>
        </div>
    }
}

//! The custom scenario's stream, typed or pasted.

use leptos::html::Textarea;
use leptos::prelude::*;
use ratelab_sim::share::MAX_URL_REQUESTS;
use ratelab_sim::ScenarioId;

use crate::state::{custom_text, Place};
use crate::texts::budget;
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
    // A stream longer than the box takes is not written out (see `custom_text`).
    let shown = Memo::new(move |_| ctx.run.with(|s| custom_text(&s.setup.requests)));
    let typed = move || shown.with(|s| s.clone().unwrap_or_default());
    let too_many = move || {
        let n = shown.with(|s| s.as_ref().err().copied())?;
        let line = SETUP.get(ctx.lang.get()).custom_too_many;
        Some(
            line.replace("{n}", &n.to_string())
                .replace("{max}", &MAX_URL_REQUESTS.to_string()),
        )
    };
    let error = ctx.error(Place::Requests);
    let error = move || error.get().map(|e| budget::localise(&e, ctx.lang.get()));
    let id = format!("f{}-requests", ctx.uid);
    let apply = move |_| {
        if let Some(area) = area.get_untracked() {
            ctx.update(|p| p.apply_requests(&area.value()));
        }
    };
    view! {
        <div class="custom">
            <label class="field wide" for=id.clone()>
                <span class="label">{text(&SETUP, |t| t.custom_times)}</span>
                <span class="too-many" role="status">
                    {too_many}
                </span>
                // autocomplete="off": Chromium copies form state into every history
                // entry the page's URL writes (docs/bad-input.md, "Big imports").
                <textarea
                    id=id.clone()
                    name="requests"
                    rows="3"
                    spellcheck="false"
                    autocomplete="off"
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

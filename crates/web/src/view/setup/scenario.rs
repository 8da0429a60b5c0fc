//! Which scenario runs, and what it shows.

use leptos::prelude::*;
use ratelab_sim::ScenarioId;

use crate::state::{Action, Place};
use crate::texts::scenarios::scenario_text;
use crate::texts::setup::SETUP;
use crate::view::{text, use_ctx};

/// The scenario picker.
#[component]
pub fn ScenarioPicker() -> impl IntoView {
    let ctx = use_ctx();
    let current = Memo::new(move |_| ctx.run.with(|s| s.setup.scenario));
    let error = ctx.error(Place::Scenario);
    // Every scenario, the service ones too in a build without the service model:
    // choosing one there opens it in the service build (docs/playground.md).
    let options: Vec<_> = ScenarioId::ALL
        .into_iter()
        .map(|id| {
            let title = Signal::derive(move || scenario_text(id).get(ctx.lang.get()).title);
            view! {
                <option value=id.id() prop:selected=Signal::derive(move || current.get() == id)>
                    {title}
                </option>
            }
        })
        .collect();
    view! {
        <label class="field scenario">
            <span class="label">{text(&SETUP, |t| t.scenario)}</span>
            <select
                name="scenario"
                on:change=move |e| {
                    if let Some(id) = ScenarioId::from_id(&event_target_value(&e)) {
                        ctx.act(Action::Scenario(id));
                    }
                }
            >
                {options}
            </select>
            <span class="error" role="alert">
                {error}
            </span>
        </label>
    }
}

/// What the scenario shows, in a line.
#[component]
pub fn ScenarioNote() -> impl IntoView {
    let ctx = use_ctx();
    let describe = Signal::derive(move || {
        let lang = ctx.lang.get();
        ctx.run
            .with(|s| scenario_text(s.setup.scenario).get(lang).description)
    });
    view! { <p class="describe">{describe}</p> }
}

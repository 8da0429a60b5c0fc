//! The setup form, part by part: the scenario, the shared budget, the lanes, the
//! custom stream, lab D's sweep, the JSON box. A new part is a component in its
//! own file here and one line in [`Setup`].

pub mod budget;
pub mod custom;
pub mod json;
pub mod lanes;
pub mod scenario;
pub mod sweep;

use leptos::prelude::*;

use super::text;
use crate::texts::setup::SETUP;

/// The setup form.
#[component]
pub fn Setup() -> impl IntoView {
    view! {
        <section class="setup">
            <h2 class="sr-only">{text(&SETUP, |t| t.setup)}</h2>
            <div class="row">
                <scenario::ScenarioPicker />
                <budget::Budget />
            </div>
            <scenario::ScenarioNote />
            {crate::view::service_knobs()}
            <lanes::LaneList />
            <custom::CustomRequests />
            <sweep::SweepPanel />
            <json::JsonBox />
        </section>
    }
}

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

use super::{text, use_ctx};
use crate::texts::setup::SETUP;

/// The setup form. Folded when the page opens on a lesson (the lesson sets it
/// up; the learner unfolds it to change it), open otherwise.
#[component]
pub fn Setup() -> impl IntoView {
    let folded = use_ctx().read(|p| p.lesson.is_some()).unwrap_or(false);
    view! {
        <details class="setup-fold" open=!folded>
            <summary>{text(&SETUP, |t| t.fold)}</summary>
            <section class="setup">
                <h2 class="sr-only">{text(&SETUP, |t| t.setup)}</h2>
                <div class="row">
                    <scenario::ScenarioPicker />
                    <budget::Budget />
                </div>
                <scenario::ScenarioNote />
                <lanes::LaneList />
                <custom::CustomRequests />
                <sweep::SweepPanel />
                <json::JsonBox />
            </section>
        </details>
    }
}

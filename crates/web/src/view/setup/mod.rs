//! The setup form, part by part: the scenario, the shared budget, the lanes, the
//! custom stream, the JSON box. A new part is a component in its own file here and
//! one line in [`Setup`]. (Lab D's sweep is a result, not a setting: it is shown
//! under the lanes, [`crate::view::sweep`].)

pub mod budget;
pub mod building;
pub mod custom;
pub mod json;
pub mod lanes;
pub mod scenario;

use leptos::prelude::*;

use super::{text, use_ctx};
use crate::texts::setup::SETUP;

/// The setup's fold. Folded while a lesson is open (the lesson sets it up; the
/// learner unfolds it to change it), so that the step's lanes are where its text
/// points, under the panel; lab D's second table (the counter next to an
/// independent sliding log) is under the lanes ([`crate::view::sweep`]). Opening or
/// closing a lesson sets it again; the learner's own folding stays until then.
/// The form inside ([`form`]) is a chunk, fetched the first time the fold is open
/// (after the first lanes are drawn when it opens unfolded).
#[component]
pub fn Setup() -> impl IntoView {
    let open = use_ctx().memo(|p| p.unfolded());
    let seen = RwSignal::new(open.get_untracked());
    Effect::new(move |_| {
        if open.get() {
            seen.set(true);
        }
    });
    view! {
        <details
            class="setup-fold"
            prop:open=open
            on:toggle=move |e| {
                let unfolded = event_target::<web_sys::HtmlDetailsElement>(&e).open();
                if unfolded && !seen.get_untracked() {
                    seen.set(true);
                }
            }
        >
            <summary>{text(&SETUP, |t| t.fold)}</summary>
            {move || seen.get().then(|| crate::view::chunks::panel("setup", crate::view::chunks::setup))}
        </details>
    }
}

/// The setup form, part by part (in the `setup` chunk).
pub fn form() -> impl IntoView {
    view! {
            <section class="setup">
                <h2 class="sr-only">{text(&SETUP, |t| t.setup)}</h2>
                <div class="row">
                    <scenario::ScenarioPicker />
                    {limiters_part(budget::Budget)}
                </div>
                <scenario::ScenarioNote />
                {crate::view::service_knobs()}
                {limiters_part(lanes::LaneList)}
                <custom::CustomRequests />
                <json::JsonBox />
            </section>
    }
}

/// A part of the setup about the lanes' limiters (the shared budget, the lanes),
/// hidden for a service scenario with fixed variants: it takes only its seed, its
/// lanes are its variants, so those fields would change nothing.
fn limiters_part<V: IntoView + 'static>(part: fn() -> V) -> impl IntoView {
    let ctx = crate::view::use_ctx();
    let fixed = Memo::new(move |_| {
        ctx.run.with(|s| {
            let id = s.setup.scenario;
            id.is_service() && !id.takes("limiters")
        })
    });
    view! { <Show when=move || !fixed.get()>{part()}</Show> }
}

//! The budget every lane shares: N per W.

use leptos::prelude::*;
use ratelab_sim::share::format_duration;

use crate::state::Field;
use crate::texts::common::COMMON;
use crate::texts::setup::SETUP;
use crate::view::field::TextField;
use crate::view::{text, use_ctx};

/// The shared budget's two fields.
#[component]
pub fn Budget() -> impl IntoView {
    let ctx = use_ctx();
    let budget = Memo::new(move |_| ctx.run.with(|s| s.setup.budget()));
    let limit = Signal::derive(move || budget.get().0.to_string());
    let period = Signal::derive(move || format_duration(budget.get().1));
    view! {
        <fieldset class="budget">
            <legend>{text(&SETUP, |t| t.budget)}</legend>
            <TextField field=Field::Limit label=text(&COMMON, |t| t.limit) value=limit hint="5" />
            <TextField field=Field::Period label=text(&COMMON, |t| t.per) value=period hint="10s" />
            <p class="hint">{text(&SETUP, |t| t.budget_hint)}</p>
        </fieldset>
    }
}

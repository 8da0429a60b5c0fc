//! The `service` scenario's part of the setup ("clients and service"): how many
//! clients and how much they ask, how they retry, what the limit counts by, the
//! instances and their store, its outages and what happens then. Each knob is the
//! link's key of the same name, set through [`Field::Knob`]: a refused value keeps
//! the setup and shows the link's message under the field.

use leptos::prelude::*;
use ratelab_sim::ScenarioId;

use crate::state::{Field, Place};
use crate::texts::service::{KnobTexts, KNOBS};
use crate::view::field::{field_name, TextField};
use crate::view::{text, use_ctx};

/// A choice's value (as a link writes it) and its words.
type Choices = &'static [(&'static str, fn(&KnobTexts) -> &'static str)];

const RETRY: Choices = &[
    ("none", |t| t.retry_none),
    ("immediately", |t| t.retry_immediately),
    ("fixed", |t| t.retry_fixed),
    ("exponential", |t| t.retry_exponential),
    ("full_jitter", |t| t.retry_full_jitter),
    ("retry_after", |t| t.retry_retry_after),
];
const KEY: Choices = &[
    ("client", |t| t.key_client),
    ("global", |t| t.key_global),
    ("client_route", |t| t.key_client_route),
];
const BALANCE: Choices = &[
    ("round_robin", |t| t.balance_round_robin),
    ("random", |t| t.balance_random),
];
const STORE: Choices = &[("shared", |t| t.store_shared), ("local", |t| t.store_local)];
const ON_OUTAGE: Choices = &[
    ("fail_open", |t| t.outage_fail_open),
    ("fail_closed", |t| t.outage_fail_closed),
    ("fallback", |t| t.outage_fallback),
];

/// The knobs, shown only for the `service` scenario.
#[component]
pub fn Knobs() -> impl IntoView {
    let ctx = use_ctx();
    // (As the service view: a knob's refused value is refused where it was typed.)
    crate::model::make_services_here();
    let shown = Memo::new(move |_| ctx.run.with(|s| s.setup.scenario == ScenarioId::Service));
    move || {
        shown.get().then(|| {
            view! {
                <fieldset class="knobs">
                    <legend>{text(&KNOBS, |t| t.legend)}</legend>
                    <Knob key="clients" label=|t| t.clients hint="5" />
                    <Knob key="load" label=|t| t.load hint="0.4" />
                    <Knob key="duration" label=|t| t.duration hint="60s" />
                    <Knob key="noisy" label=|t| t.noisy hint="4" />
                    <Choice key="retry" label=|t| t.retry choices=RETRY />
                    <Knob key="backoff" label=|t| t.backoff hint="1s" />
                    <Knob key="attempts" label=|t| t.attempts hint="5" />
                    <Choice key="key" label=|t| t.key choices=KEY />
                    <Knob key="instances" label=|t| t.instances hint="1" />
                    <Choice key="balance" label=|t| t.balance choices=BALANCE />
                    <Choice key="store" label=|t| t.store choices=STORE />
                    <Knob key="outage" label=|t| t.outage hint="20s-40s" />
                    <Choice key="on_outage" label=|t| t.on_outage choices=ON_OUTAGE />
                    <Knob key="fallback" label=|t| t.fallback hint="" />
                </fieldset>
            }
        })
    }
}

/// The knob's value as the setup has it (its default when not set).
fn value_of(key: &'static str) -> Signal<String> {
    let ctx = use_ctx();
    let v = Memo::new(move |_| {
        ctx.run
            .with(|s| s.setup.service_knob(key).unwrap_or_default())
    });
    Signal::derive(move || v.get())
}

/// A knob typed as text.
#[component]
fn Knob(
    key: &'static str,
    label: fn(&KnobTexts) -> &'static str,
    hint: &'static str,
) -> impl IntoView {
    view! { <TextField field=Field::Knob(key) label=text(&KNOBS, label) value=value_of(key) hint /> }
}

/// A knob chosen from a list.
#[component]
fn Choice(
    key: &'static str,
    label: fn(&KnobTexts) -> &'static str,
    choices: Choices,
) -> impl IntoView {
    let ctx = use_ctx();
    let field = Field::Knob(key);
    let current = value_of(key);
    let error = ctx.error(Place::Field(field));
    let options = choices
        .iter()
        .map(|&(id, words)| {
            view! {
                <option value=id prop:selected=move || current.get() == id>
                    {text(&KNOBS, words)}
                </option>
            }
        })
        .collect_view();
    view! {
        <label class="field">
            <span class="label">{text(&KNOBS, label)}</span>
            <select
                name=field_name(field)
                on:change=move |e| {
                    ctx.update(|p| p.edit(field, &event_target_value(&e)));
                    // A refused choice leaves the setup as it was: the control
                    // shows the value in force, not the one refused.
                    let in_force = ctx
                        .read(|p| p.setup().service_knob(key).unwrap_or_default())
                        .unwrap_or_default();
                    event_target::<web_sys::HtmlSelectElement>(&e).set_value(&in_force);
                }
            >
                {options}
            </select>
            <span class="error" role="alert">{move || error.get()}</span>
        </label>
    }
}

//! A labelled text field of the setup form with its inline error.

use leptos::prelude::*;

use super::use_ctx;
use crate::state::{Action, Field, LaneField, Place};

/// The `name` (and id part) of a field's input: `limit`, `lane2.burst`.
pub fn field_name(field: Field) -> String {
    match field {
        Field::Limit => "limit".into(),
        Field::Period => "period".into(),
        Field::Lane(j, what) => {
            let what = match what {
                LaneField::Limit => "limit",
                LaneField::Period => "period",
                LaneField::Burst => "burst",
                LaneField::Delay => "delay",
            };
            format!("lane{j}.{what}")
        }
        Field::Knob(key) => format!("service.{key}"),
    }
}

/// A text field: shows `value` (the engine's normalised number) and, when a
/// change is refused, what was typed with the engine's message under it. The input
/// is never re-created, so focus, caret and input methods are never disturbed.
#[component]
pub fn TextField(
    /// Which field.
    field: Field,
    /// Its label.
    label: Signal<&'static str>,
    /// Its value as the setup has it.
    value: Signal<String>,
    /// A placeholder.
    #[prop(default = "")]
    hint: &'static str,
) -> impl IntoView {
    let ctx = use_ctx();
    let error = ctx.error(Place::Field(field));
    let name = field_name(field);
    let id = format!("f{}-{}", ctx.uid, name.replace('.', "-"));
    let err_id = format!("{id}-err");
    let invalid = Signal::derive(move || error.with(Option::is_some));
    view! {
        <label class="field" class:invalid=invalid for=id.clone()>
            <span class="label">{label}</span>
            <input
                id=id.clone()
                name=name
                type="text"
                inputmode="decimal"
                spellcheck="false"
                autocomplete="off"
                placeholder=hint
                prop:value=value
                aria-invalid=Signal::derive(move || if invalid.get() { "true" } else { "false" })
                aria-describedby=err_id.clone()
                on:change=move |e| ctx.act(Action::Edit(field, event_target_value(&e)))
            />
            <span class="error" id=err_id role="alert">
                {error}
            </span>
        </label>
    }
}

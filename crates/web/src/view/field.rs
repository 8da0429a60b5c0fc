//! A labelled text field of the setup form with its inline error.

use leptos::prelude::*;

use super::{use_ctx, Ctx};
use crate::state::{Field, LaneField, Place};
use crate::texts::common::COMMON;
use crate::texts::errors::{self, Named};
use crate::texts::Lang;

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

/// The JSON format's name of what `field` sets, and its lane.
fn param_of(field: Field) -> (Option<usize>, &'static str) {
    match field {
        Field::Limit => (None, "limit"),
        Field::Period => (None, "period_ms"),
        Field::Lane(j, what) => (
            Some(j),
            match what {
                LaneField::Limit => "limit",
                LaneField::Period => "period_ms",
                LaneField::Burst => "burst",
                LaneField::Delay => "delay",
            },
        ),
        // A service knob's messages name it by its link key (`attempts=21: ...`).
        Field::Knob(key) => (None, key),
    }
}

/// An engine message as shown under `field`: in the page's language, the JSON
/// path gone, and the field it names by its label when that is another field
/// ("lane 3 · capacity: must be more than 0").
pub fn field_error(ctx: Ctx, field: Field, raw: &str, lang: Lang) -> String {
    let (own_lane, own_param) = param_of(field);
    errors::for_field(raw, lang, |n: Named<'_>| {
        // The shared N and W set every lane's: a message about any lane's N is theirs.
        let other_lane = n.lane.is_some() && own_lane.is_some() && n.lane != own_lane;
        if n.param == own_param && !other_lane {
            return None;
        }
        let c = COMMON.get(lang);
        let label = match n.param {
            "limit" => c.limit,
            "period_ms" => c.per,
            "delay" => c.delay,
            _ => {
                let lane = n.lane.or(own_lane);
                let algorithm = ctx.run.with_untracked(|s| {
                    lane.and_then(|j| s.setup.lanes.get(j).map(|l| l.algorithm))
                });
                algorithm.map_or(c.burst, |a| c.burst_label(a))
            }
        };
        Some(match n.lane {
            Some(j) if n.lane != own_lane => format!("{} · {label}", errors::lane_word(j, lang)),
            _ => label.to_string(),
        })
    })
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
                on:change=move |e| ctx.update(|p| p.edit(field, &event_target_value(&e)))
            />
            <span class="error" id=err_id role="alert">
                {Signal::derive(move || error.get().map(|e| field_error(ctx, field, &e, ctx.lang.get())))}
            </span>
        </label>
    }
}

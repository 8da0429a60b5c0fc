//! The lanes' own parameters, and adding and removing lanes.

use leptos::prelude::*;
use ratelab_core::Algorithm;
use ratelab_sim::share::{format_duration, MAX_PLAYGROUND_LANES};
use wasm_bindgen::JsCast;

use crate::state::{Field, LaneField, Place, MIN_LANES};
use crate::texts::algorithms::title;
use crate::texts::common::COMMON;
use crate::texts::setup::SETUP;
use crate::view::field::TextField;
use crate::view::{text, use_ctx};

/// The lanes, one row of fields each, and the "add a limiter" picker.
#[component]
pub fn LaneList() -> impl IntoView {
    let ctx = use_ctx();
    // Keyed by position and id: a lane keeps its row (and its fields their focus)
    // while its parameters change; rows after a removed one are drawn again.
    let lanes = Memo::new(move |_| {
        ctx.run.with(|s| {
            s.setup
                .lanes
                .iter()
                .enumerate()
                .map(|(j, l)| (j, l.id.clone(), l.algorithm))
                .collect::<Vec<_>>()
        })
    });
    let count = move || lanes.with(Vec::len);
    view! {
        <fieldset class="lanes-setup">
            <legend>
                {text(&SETUP, |t| t.limiters)}
                {Signal::derive(move || format!(" ({}/{MAX_PLAYGROUND_LANES})", count()))}
            </legend>
            <ol>
                <For each=move || lanes.get() key=|l| l.clone() let((j, _, algorithm))>
                    <LaneFields j algorithm />
                </For>
            </ol>
            <AddLane />
        </fieldset>
    }
}

/// One lane's fields: its own N and W, its burst (buckets, GCRA, the queue,
/// nginx), nginx's delay and nodelay, and a button to remove it.
#[component]
fn LaneFields(j: usize, algorithm: Algorithm) -> impl IntoView {
    let ctx = use_ctx();
    let spec = Memo::new(move |_| ctx.run.with(|s| s.setup.lanes.get(j).cloned()));
    let param = move |f: fn(&ratelab_sim::LaneSpec) -> String| {
        Signal::derive(move || spec.with(|s| s.as_ref().map(f).unwrap_or_default()))
    };
    let lang = ctx.lang;
    let name = Signal::derive(move || title(algorithm, lang.get()));
    let burst_label = Signal::derive(move || COMMON.get(lang.get()).burst_label(algorithm));
    let removable = move || ctx.run.with(|s| s.setup.lanes.len() > MIN_LANES);
    let nodelay =
        Signal::derive(move || spec.with(|s| s.as_ref().is_some_and(|s| s.params.nodelay)));
    let burst = algorithm.uses_burst().then(|| {
        let value = param(|s| {
            s.resolved()
                .burst
                .map(|b| b.to_string())
                .unwrap_or_default()
        });
        view! { <TextField field=Field::Lane(j, LaneField::Burst) label=burst_label value /> }
    });
    let nginx = (algorithm == Algorithm::Nginx).then(|| {
        let value = param(|s| {
            s.resolved()
                .delay
                .map(|d| d.to_string())
                .unwrap_or_default()
        });
        view! {
            <TextField
                field=Field::Lane(j, LaneField::Delay)
                label=text(&COMMON, |t| t.delay)
                value
                hint="0"
            />
            <label class="field check">
                <input
                    type="checkbox"
                    name=format!("lane{j}.nodelay")
                    prop:checked=nodelay
                    on:change=move |e| ctx.update(|p| p.set_nodelay(j, event_target_checked(&e)))
                />
                <span class="label">{text(&COMMON, |t| t.nodelay)}</span>
            </label>
        }
    });
    view! {
        // A group named after its limiter, so that each of its fields ("limit N",
        // "per W") is heard with the lane it belongs to.
        <li class="lane-fields" role="group" aria-label=name data-lane=j data-algorithm=algorithm.id()>
            <span class="name">
                {name}
                {algorithm.is_teaching().then(|| view! {
                    " "
                    <span class="badge">{text(&COMMON, |t| t.wrong_on_purpose)}</span>
                })}
            </span>
            <TextField
                field=Field::Lane(j, LaneField::Limit)
                label=text(&COMMON, |t| t.limit)
                value=param(|s| s.params.limit.to_string())
                hint="5"
            />
            <TextField
                field=Field::Lane(j, LaneField::Period)
                label=text(&COMMON, |t| t.per)
                value=param(|s| format_duration(s.params.period_ms))
                hint="10s"
            />
            {burst}
            {nginx}
            <button
                type="button"
                class="remove"
                aria-label=Signal::derive(move || format!("{} {}", SETUP.get(lang.get()).remove, name.get()))
                disabled=Signal::derive(move || !removable())
                on:click=move |e| {
                    let list = event_target::<web_sys::Element>(&e).closest(".lanes-setup").ok().flatten();
                    ctx.update(|p| p.remove_lane(j));
                    if let Some(list) = list {
                        focus_after_removal(list, j);
                    }
                }
            >
                "×"
            </button>
        </li>
    }
}

/// After lane `j` was removed its button is gone and focus would fall to the
/// page's `<body>`: it goes to the remove button of the lane now at `j` (or the
/// one before it), else to the "add a limiter" picker, once the rows are drawn
/// again (the next task: the list updates in an effect).
fn focus_after_removal(list: web_sys::Element, j: usize) {
    gloo_timers::callback::Timeout::new(0, move || {
        let button = |k: usize| format!(".lane-fields[data-lane=\"{k}\"] .remove:not(:disabled)");
        let candidates = [
            Some(button(j)),
            j.checked_sub(1).map(button),
            Some("select[name=\"add\"]".into()),
        ];
        let target = candidates
            .into_iter()
            .flatten()
            .find_map(|sel| list.query_selector(&sel).ok().flatten());
        if let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    })
    .forget();
}

/// The "add a limiter" picker, with the error of adding or removing one.
#[component]
fn AddLane() -> impl IntoView {
    let ctx = use_ctx();
    let error = ctx.error(Place::Lanes);
    let full = Signal::derive(move || {
        ctx.run
            .with(|s| s.setup.lanes.len() >= MAX_PLAYGROUND_LANES)
    });
    let options = Algorithm::ALL.map(|a| {
        let label = Signal::derive(move || {
            let lang = ctx.lang.get();
            if a.is_teaching() {
                format!("{} ({})", title(a, lang), COMMON.get(lang).wrong_on_purpose)
            } else {
                title(a, lang).to_string()
            }
        });
        view! { <option value=a.id()>{label}</option> }
    });
    view! {
        <label class="field add">
            <span class="label">{text(&SETUP, |t| t.add_limiter)}</span>
            <select
                name="add"
                disabled=full
                on:change=move |e| {
                    if let Some(a) = Algorithm::from_id(&event_target_value(&e)) {
                        ctx.update(|p| p.add_lane(a));
                    }
                    // The picker is a button with choices: back to "+".
                    let select: web_sys::HtmlSelectElement = event_target(&e);
                    select.set_value("");
                }
            >
                <option value="">"+"</option>
                {options}
            </select>
            <span class="error" role="alert">
                {error}
            </span>
        </label>
    }
}

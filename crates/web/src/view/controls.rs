//! The clock bar: previous, play, next, speed, the scrubber and the time, "send a
//! request" (manual scenario), the highlight switch.

use leptos::prelude::*;
use ratelab_sim::share::{format_speed, parse_speed, SPEEDS_PERMILLE};

use super::{text, use_ctx};
use crate::model::time_label;
use crate::state::Action;
use crate::texts::controls::CONTROLS;

/// The clock bar and the keys hint.
#[component]
pub fn Controls() -> impl IntoView {
    let ctx = use_ctx();
    let speeds = SPEEDS_PERMILLE.map(|p| {
        let v = format_speed(p);
        view! {
            <option value=v.clone() prop:selected=Signal::derive(move || ctx.speed.get() == p)>
                {format!("{v}×")}
            </option>
        }
    });
    let play_label = Signal::derive(move || {
        let t = CONTROLS.get(ctx.lang.get());
        if ctx.playing.get() {
            t.pause
        } else {
            t.play
        }
    });
    view! {
        <div class="controls" role="group" aria-label=text(&CONTROLS, |t| t.clock)>
            <button
                type="button"
                class="step prev"
                aria-label=text(&CONTROLS, |t| t.prev)
                title=text(&CONTROLS, |t| t.prev)
                on:click=move |_| ctx.act(Action::Prev)
            >
                {text(&CONTROLS, |t| t.prev_short)}
            </button>
            <button
                type="button"
                class="play"
                aria-pressed=Signal::derive(move || if ctx.playing.get() { "true" } else { "false" })
                on:click=move |_| ctx.act(Action::Play)
            >
                {play_label}
            </button>
            <button
                type="button"
                class="step next"
                aria-label=text(&CONTROLS, |t| t.next)
                title=text(&CONTROLS, |t| t.next)
                on:click=move |_| ctx.act(Action::Next)
            >
                {text(&CONTROLS, |t| t.next_short)}
            </button>
            <label class="speed">
                <span>{text(&CONTROLS, |t| t.speed)}</span>
                <select
                    name="speed"
                    on:change=move |e| {
                        if let Ok(s) = parse_speed(&event_target_value(&e)) {
                            ctx.act(Action::Speed(s));
                        }
                    }
                >
                    {speeds}
                </select>
            </label>
            <label class="scrub">
                <span class="sr-only">{text(&CONTROLS, |t| t.clock)}</span>
                <input
                    type="range"
                    name="clock"
                    min="0"
                    step="1"
                    prop:max=Signal::derive(move || ctx.end.get().to_string())
                    prop:value=Signal::derive(move || ctx.now.get().to_string())
                    on:input=move |e| {
                        let t = event_target_value(&e).parse::<u64>().unwrap_or(0);
                        ctx.act(Action::Seek(t));
                    }
                />
            </label>
            // The time changes every frame while the clock plays: its text is in a
            // box of set size that is not a flex item (a flex item is laid out
            // with its row), so that it is laid out alone (see the stylesheet).
            <output class="now"><span>{Signal::derive(move || time_label(ctx.now.get()))}</span></output>
            <super::zoom::Zoom />
            {(!ctx.embed).then(super::header::LinkHere)}
            <button
                type="button"
                class="send"
                class:hidden=Signal::derive(move || !ctx.manual.get())
                on:click=move |_| ctx.act(Action::Send)
            >
                {text(&CONTROLS, |t| t.send)}
            </button>
            <label class="hl">
                <input
                    type="checkbox"
                    name="highlight"
                    prop:checked=ctx.highlight
                    on:change=move |e| ctx.act(Action::Highlight(event_target_checked(&e)))
                />
                <span>{text(&CONTROLS, |t| t.highlight)}</span>
            </label>
        </div>
        <p class="hint">{text(&CONTROLS, |t| t.keys_hint)}</p>
    }
}

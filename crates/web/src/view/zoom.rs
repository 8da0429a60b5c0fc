//! Zooming the timelines in and out: a shorter stretch of time around the clock,
//! so that a burst crowded into a fifth of the axis, or hundreds of requests drawn
//! as one band, can be seen one by one.

use leptos::prelude::*;

use super::{text, use_ctx};
use crate::model::MAX_ZOOM;
use crate::texts::controls::CONTROLS;

/// The zoom buttons and the factor between them.
#[component]
pub fn Zoom() -> impl IntoView {
    let zoom = use_ctx().zoom;
    let widest = Signal::derive(move || zoom.get() <= 1);
    let closest = Signal::derive(move || zoom.get() >= MAX_ZOOM);
    let zoom_in = move |_| zoom.update(|z| *z = (*z * 2).min(MAX_ZOOM));
    let zoom_out = move |_| zoom.update(|z| *z = (*z / 2).max(1));
    view! {
        <span class="zoom" role="group" aria-label=text(&CONTROLS, |t| t.zoom)>
            <button
                type="button"
                class="zoom-out"
                aria-label=text(&CONTROLS, |t| t.zoom_out)
                title=text(&CONTROLS, |t| t.zoom_out)
                disabled=widest
                on:click=zoom_out
            >
                "−"
            </button>
            <output class="zoom-level">{Signal::derive(move || format!("{}×", zoom.get()))}</output>
            <button
                type="button"
                class="zoom-in"
                aria-label=text(&CONTROLS, |t| t.zoom_in)
                title=text(&CONTROLS, |t| t.zoom_in)
                disabled=closest
                on:click=zoom_in
            >
                "+"
            </button>
        </span>
    }
}

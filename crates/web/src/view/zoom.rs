//! Zooming the timelines in and out: a shorter stretch of time around the clock,
//! so that a burst crowded into a fifth of the axis, or hundreds of requests drawn
//! as one band, can be seen one by one; or a longer one, up to the whole run, when
//! 1× shows only part of it.
//!
//! What 1× shows is [`crate::model::Sim::span`]: the whole run when it is short
//! (at most four periods and 400 requests: every lesson's demo and trace), else
//! three periods around the clock (lab D's ten minutes, a minute of one request a
//! second at 5 per 10 s). Below 1× (½×, ¼×, …) the span doubles until it is the
//! whole run; then zooming out stops, and the control says why: the level reads
//! "· whole run", and the disabled button's label says that 1× (or this level)
//! already shows everything.

use leptos::prelude::*;

use super::{text, use_ctx};
use crate::model::{zoom_label, MAX_ZOOM, ONE_X};
use crate::state::Action;
use crate::texts::controls::CONTROLS;

/// The zoom buttons and the level between them.
#[component]
pub fn Zoom() -> impl IntoView {
    let ctx = use_ctx();
    let zoom = ctx.zoom;
    let end = ctx.end;
    // Whether the timelines already show the whole run (then there is no zooming out).
    let whole = Memo::new(move |_| ctx.scale.with(|s| s.from == 0 && s.to >= end.get()));
    let closest = Signal::derive(move || zoom.get() >= MAX_ZOOM);
    let zoom_in = move |_| ctx.act(Action::Zoom((zoom.get_untracked() + 1).min(MAX_ZOOM)));
    let zoom_out = move |_| {
        if !whole.get_untracked() {
            ctx.act(Action::Zoom(zoom.get_untracked().saturating_sub(1)));
        }
    };
    let out_label = Signal::derive(move || {
        let t = CONTROLS.get(ctx.lang.get());
        match (whole.get(), zoom.get() >= ONE_X) {
            (false, _) => t.zoom_out,
            (true, true) => t.whole_at_1x,
            (true, false) => t.whole_shown,
        }
    });
    let level = Signal::derive(move || {
        let label = zoom_label(zoom.get());
        if whole.get() {
            format!("{label} · {}", CONTROLS.get(ctx.lang.get()).zoom_whole)
        } else {
            label
        }
    });
    view! {
        <span class="zoom" role="group" aria-label=text(&CONTROLS, |t| t.zoom)>
            <button
                type="button"
                class="zoom-out"
                aria-label=out_label
                title=out_label
                disabled=whole
                on:click=zoom_out
            >
                "−"
            </button>
            <output class="zoom-level" title=out_label>{level}</output>
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

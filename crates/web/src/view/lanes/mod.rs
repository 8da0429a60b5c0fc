//! The lanes: the legend and one lane per limiter (a keyed `<For>`), each drawing
//! its limiter's state from the engine's snapshot. A per-lane panel is a component
//! in its own file here that reads [`LaneCtx`], and one line in [`lane::Lane`].

pub mod about;
pub mod gauge;
pub mod lane;
pub mod marks;
pub mod production;
pub mod response;

use gloo_timers::callback::Timeout;
use leptos::ev;
use leptos::html::Div;
use leptos::prelude::*;

pub use lane::LaneCtx;

use crate::texts::lanes::LANES;
use crate::view::{text, use_ctx, Ctx};

/// The timeline's width for a lanes container `w` px wide: beside the side panel
/// when there is room (see `.lane-body` in the stylesheet), else the whole width.
pub fn timeline_width(w: f64) -> f64 {
    let tw = if w >= 760.0 { w - 274.0 } else { w - 28.0 };
    tw.max(200.0).floor()
}

fn measure(ctx: Ctx, el: &web_sys::HtmlElement) {
    let w = f64::from(el.client_width());
    if w > 0.0 {
        let tw = timeline_width(w);
        if (tw - ctx.width.get_untracked()).abs() >= 1.0 {
            ctx.width.set(tw);
        }
    }
}

/// The legend and the lanes.
#[component]
pub fn Lanes() -> impl IntoView {
    let ctx = use_ctx();
    let node = NodeRef::<Div>::new();
    // Measured once mounted, then after the window stops resizing.
    Effect::new(move |_| {
        if let Some(el) = node.get() {
            measure(ctx, &el);
        }
    });
    let pending: StoredValue<Option<Timeout>, LocalStorage> = StoredValue::new_local(None);
    let resize = window_event_listener(ev::resize, move |_| {
        let later = Timeout::new(100, move || {
            if let Some(el) = node.get_untracked() {
                measure(ctx, &el);
            }
        });
        let _ = pending.try_set_value(Some(later));
    });
    on_cleanup(move || resize.remove());
    let lanes = Memo::new(move |_| {
        ctx.run.with(|s| {
            s.sim
                .lanes()
                .iter()
                .enumerate()
                .map(|(j, l)| (j, l.id.clone(), l.algorithm))
                .collect::<Vec<_>>()
        })
    });
    view! {
        <div class="lanes" node_ref=node>
            <ul class="legend" aria-hidden="true">
                <li><span class="key allow"></span>{text(&LANES, |t| t.legend_allow)}</li>
                <li><span class="key deny"></span>{text(&LANES, |t| t.legend_deny)}</li>
                <li><span class="key delay"></span>{text(&LANES, |t| t.legend_delay)}</li>
                <li><span class="key pending"></span>{text(&LANES, |t| t.legend_pending)}</li>
            </ul>
            // Keyed by position and id: a lane keeps its elements while its
            // parameters or the clock change.
            <For each=move || lanes.get() key=|l| l.clone() let((j, _, algorithm))>
                <lane::Lane j algorithm />
            </For>
        </div>
    }
}

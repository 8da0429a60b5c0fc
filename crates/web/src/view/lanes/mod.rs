//! The lanes: the legend and one lane per limiter (a keyed `<For>`), each drawing
//! its limiter's state from the engine's snapshot. A per-lane panel is a component
//! in its own file here that reads [`LaneCtx`], and one line in [`lane::Lane`].

pub mod about;
pub mod gauge;
pub mod lane;
pub mod level;
pub mod marks;
pub mod production;
pub mod response;
pub mod veil;

use leptos::html::Div;
use leptos::prelude::*;
use ratelab_core::Algorithm::{
    self, FixedWindow, FixedWindowAnchored, Gcra, LeakyQueue, SlidingLog, SlidingLogLogsBlocked,
};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

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

/// A `ResizeObserver` on one element, and the closure it calls.
struct SizeObserver {
    observer: web_sys::ResizeObserver,
    _callback: Closure<dyn FnMut()>,
}

/// Calls `f` whenever `el`'s box changes size (a `ResizeObserver` reports at most
/// once per frame, after layout and before paint, the first time in the frame
/// after it starts), until the reactive owner it is called in is cleaned up.
pub fn keep_observing(el: &web_sys::HtmlElement, f: impl FnMut() + 'static) {
    let callback = Closure::<dyn FnMut()>::new(f);
    let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) else {
        return;
    };
    observer.observe(el);
    let kept = StoredValue::new_local(Some(SizeObserver {
        observer,
        _callback: callback,
    }));
    on_cleanup(move || {
        if let Some(Some(o)) = kept.try_update_value(Option::take) {
            o.observer.disconnect();
        }
    });
}

/// The legend and the lanes.
#[component]
pub fn Lanes() -> impl IntoView {
    let ctx = use_ctx();
    let node = NodeRef::<Div>::new();
    // Measured by a ResizeObserver, whose first report comes in the frame after
    // mounting, after that frame's layout and before its paint, then whenever the
    // lanes' own box changes width (an embed in a docs column resizes without the
    // window resizing). Not measured here: reading the width right after mounting
    // forced a layout of the whole new page inside the mount's task (712 ms of it
    // in a trace under load), and the first paint is at the measured width anyway.
    Effect::new(move |_| {
        if let Some(el) = node.get() {
            let target = el.clone();
            keep_observing(&el, move || measure(ctx, &target));
        }
    });
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
    // Which of the state's marks the lanes on the page draw: one attribute.
    let has = Signal::derive(move || {
        lanes.with(|l| {
            let any = |which: &[Algorithm]| l.iter().any(|(_, _, a)| which.contains(a));
            [
                (any(&[SlidingLog, SlidingLogLogsBlocked]), "log"),
                (any(&[LeakyQueue]), "queue"),
                (any(&[FixedWindow, FixedWindowAnchored, LeakyQueue]), "edge"),
                (any(&[Gcra]), "gcra"),
            ]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect::<Vec<_>>()
            .join(" ")
        })
    });
    view! {
        <div class="lanes" node_ref=node>
            <ul class="legend" aria-hidden="true" data-has=has>
                <li><span class="key allow"></span>{text(&LANES, |t| t.legend_allow)}</li>
                <li><span class="key deny"></span>{text(&LANES, |t| t.legend_deny)}</li>
                <li><span class="key delay"></span>{text(&LANES, |t| t.legend_delay)}</li>
                <li><span class="key pending"></span>{text(&LANES, |t| t.legend_pending)}</li>
                // The state's own marks, shown for the limiters on the page only
                // (by the list's `data-has`, see the stylesheet).
                <li class="has-log"><span class="key logged"></span>{text(&LANES, |t| t.legend_logged)}</li>
                <li class="has-queue"><span class="key queued"></span>{text(&LANES, |t| t.legend_queued)}</li>
                <li class="has-edge"><span class="line edge"></span>{text(&LANES, |t| t.legend_edge)}</li>
                <li class="has-gcra"><span class="line tat"></span>{text(&LANES, |t| t.legend_tat)}</li>
                <li class="has-gcra"><span class="line tau"></span>{text(&LANES, |t| t.legend_tau)}</li>
            </ul>
            // Keyed by position and id: a lane keeps its elements while its
            // parameters or the clock change.
            <For each=move || lanes.get() key=|l| l.clone() let((j, _, algorithm))>
                <lane::Lane j algorithm />
            </For>
        </div>
    }
}

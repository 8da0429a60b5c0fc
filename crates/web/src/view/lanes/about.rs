//! What an algorithm promises, where it fits, where it misleads.

use leptos::prelude::*;
use ratelab_core::Algorithm;

use crate::texts::algorithms::algorithm_text;
use crate::texts::lanes::LANES;
use crate::view::{text, use_ctx};

/// The "about this limiter" box. What it holds ([`body`]) is in the
/// `production` chunk with the production box, fetched the first time either is
/// opened.
#[component]
pub fn About() -> impl IntoView {
    let opened = RwSignal::new(false);
    view! {
        <details
            class="about"
            on:toggle=move |e| {
                let d = event_target::<web_sys::HtmlDetailsElement>(&e);
                if d.open() && !opened.get_untracked() {
                    opened.set(true);
                }
            }
        >
            <summary>{text(&LANES, |t| t.about)}</summary>
            {move || opened.get().then(|| crate::view::chunks::panel("about", crate::view::chunks::about))}
        </details>
    }
}

/// What the box holds for the lane in context: what its algorithm promises,
/// where it fits, where it misleads.
pub fn body() -> impl IntoView {
    let ctx = use_ctx();
    let algorithm: Algorithm = expect_context::<super::LaneCtx>().algorithm;
    let t = algorithm_text(algorithm);
    let (promise, fits, misleads) = (
        Signal::derive(move || t.get(ctx.lang.get()).promise),
        Signal::derive(move || t.get(ctx.lang.get()).fits),
        Signal::derive(move || t.get(ctx.lang.get()).misleads),
    );
    view! {
            <dl>
                <dt>{text(&LANES, |t| t.promise)}</dt>
                <dd>{promise}</dd>
                <dt>{text(&LANES, |t| t.fits)}</dt>
                <dd>{fits}</dd>
                <dt>{text(&LANES, |t| t.misleads)}</dt>
                <dd>{misleads}</dd>
            </dl>
    }
}

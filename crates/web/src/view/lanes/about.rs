//! What an algorithm promises, where it fits, where it misleads.

use leptos::prelude::*;
use ratelab_core::Algorithm;

use crate::texts::algorithms::algorithm_text;
use crate::texts::lanes::LANES;
use crate::view::{text, use_ctx};

/// The "about this limiter" box.
#[component]
pub fn About(algorithm: Algorithm) -> impl IntoView {
    let ctx = use_ctx();
    let t = algorithm_text(algorithm);
    let (promise, fits, misleads) = (
        Signal::derive(move || t.get(ctx.lang.get()).promise),
        Signal::derive(move || t.get(ctx.lang.get()).fits),
        Signal::derive(move || t.get(ctx.lang.get()).misleads),
    );
    view! {
        <details class="about">
            <summary>{text(&LANES, |t| t.about)}</summary>
            <dl>
                <dt>{text(&LANES, |t| t.promise)}</dt>
                <dd>{promise}</dd>
                <dt>{text(&LANES, |t| t.fits)}</dt>
                <dd>{fits}</dd>
                <dt>{text(&LANES, |t| t.misleads)}</dt>
                <dd>{misleads}</dd>
            </dl>
        </details>
    }
}

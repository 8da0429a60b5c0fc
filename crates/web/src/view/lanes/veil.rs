//! The clock line and the veil over the future, over one of a lane's pictures: an
//! HTML layer moved by a CSS transform, not an SVG shape moved by attribute.
//!
//! Why: an attribute changed inside an `<svg>` makes the browser repaint what the
//! shape covered and covers (for the veil, the whole future: every mark after the
//! clock) on every frame the clock moves; a transform of an element on its own
//! compositor layer (`will-change: transform` in the stylesheet) moves pixels
//! already painted. The pictures are drawn 1:1 (see [`super::lane`]), so the clock's
//! x on the timeline is its x in px.

use leptos::prelude::*;

use crate::view::use_ctx;

/// The clock line (the veil's left edge) and the veil, over the picture before it
/// in a `.plot`; its height comes from the stylesheet.
#[component]
pub fn Veil() -> impl IntoView {
    let ctx = use_ctx();
    let width = move || format!("{}px", ctx.scale.get().w());
    let shift = move || format!("translateX({}px)", ctx.clock_x.get().0);
    view! {
        <div class="clock" aria-hidden="true" style:width=width>
            <div class="veil" style:transform=shift></div>
        </div>
    }
}

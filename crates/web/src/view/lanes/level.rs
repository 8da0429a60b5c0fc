//! The lane's state over time: a strip under its timeline, on the same time scale,
//! with the same clock line and veil over the future.

use leptos::prelude::*;

use super::{veil, LaneCtx};
use crate::draw::level::{level, LEVEL_HEIGHT};
use crate::texts::lanes::LANES;
use crate::view::{text, use_ctx};

/// One moment asked of the engine every this many px of the strip (besides one
/// before and at each request of the key).
const PX_PER_MOMENT: f64 = 4.0;

/// The state-over-time strip of the lane in context.
#[component]
pub fn Level() -> impl IntoView {
    let ctx = use_ctx();
    let lane = expect_context::<LaneCtx>();
    // Redrawn when the span, the width, the key or the setup change: the span moves
    // in steps of a third, not every frame, and the clock line moves by attribute.
    // A new setup is drawn a few paints later (`Ctx::settled`), empty until then.
    let svg = Memo::new(move |_| {
        let (s, key, lang) = (ctx.scale.get(), ctx.key.get(), ctx.lang.get());
        let grid = (s.width / PX_PER_MOMENT) as usize;
        ctx.drawn(lane.j, true)
            .then(|| {
                ctx.run
                    .with(|r| r.sim.series(lane.j, &key, s.from, s.to, grid))
            })
            .flatten()
            .map(|series| level(&series, s, lang))
            .unwrap_or_default()
    });
    // Drawn 1:1, as the timeline is (see `lane`).
    let width = Signal::derive(move || ctx.scale.get().w() + 16);
    let view_box = Signal::derive(move || format!("-8 0 {} {LEVEL_HEIGHT}", width.get()));
    view! {
        <div class="plot" style:width=super::lane::plot_width() style:height=format!("{LEVEL_HEIGHT}px")>
            <svg
                class="level"
                width=width
                height=LEVEL_HEIGHT
                viewBox=view_box
                role="img"
                aria-label=text(&LANES, |t| t.over_time)
            >
                <g inner_html=Signal::derive(move || svg.get().markup())></g>
            </svg>
            <veil::Veil />
        </div>
    }
}

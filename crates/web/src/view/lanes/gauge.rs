//! A lane's state as a bar against its maximum, with the level in words.

use leptos::prelude::*;

use super::LaneCtx;
use crate::draw;
use crate::model::gauge;
use crate::texts::common::COMMON;
use crate::texts::lanes::LANES;
use crate::view::use_ctx;

/// The gauge of the lane in context.
#[component]
pub fn Gauge() -> impl IntoView {
    let ctx = use_ctx();
    let lane = expect_context::<LaneCtx>();
    let g = Memo::new(move |_| lane.snapshot.with(|s| s.as_ref().map(gauge)));
    let refusing = Memo::new(move |_| {
        lane.headers
            .with(|h| h.as_ref().is_some_and(|h| h.status == 429))
    });
    let svg = Memo::new(move |_| {
        let (refusing, lang) = (refusing.get(), ctx.lang.get());
        g.with(|g| {
            g.as_ref()
                .map(|g| draw::gauge(g, refusing, lang))
                .unwrap_or_default()
        })
    });
    let words = Signal::derive(move || {
        let lang = ctx.lang.get();
        g.with(|g| {
            g.as_ref().map(|g| {
                let what = LANES.get(lang).label(g.what, COMMON.get(lang));
                format!("{what} {} / {}", g.level_text, g.max_text)
            })
        })
    });
    view! {
        <svg
            class="gauge"
            viewBox="0 0 220 38"
            width="220"
            height="38"
            aria-hidden="true"
            inner_html=Signal::derive(move || svg.get().markup())
        ></svg>
        <p class="gauge-text">{words}</p>
    }
}

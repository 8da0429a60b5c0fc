//! A lane's state as a bar against its maximum, with the level in words.

use leptos::prelude::*;
use ratelab_core::Snapshot;

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
    let g = Memo::new(move |_| lane.shown.with(|s| s.as_ref().map(gauge)));
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
    // What the gauge's numbers mean, for the two limiters whose state is not a
    // plain count of requests (GCRA's τ from the engine's snapshot).
    let note = Signal::derive(move || {
        let t = LANES.get(ctx.lang.get());
        lane.shown.with(|s| match s {
            Some(Snapshot::TokenBucket { .. }) => Some(t.tokens_note.to_string()),
            Some(Snapshot::Gcra { tau, .. }) => {
                Some(t.gcra_note.replace("{tau}", &tau.to_string()))
            }
            _ => None,
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
        <p class="gauge-note">{note}</p>
    }
}

//! A big import's progress while it is built a slice at a time
//! ([`crate::state::Building`], driven by the import: `super::json::build`, one
//! slice after each frame the page paints, so the page keeps answering; a new
//! change of the setup cancels the build). Before it, "reading…" while a worker
//! reads a big import's text ([`crate::import`]).

use leptos::prelude::*;

use crate::texts::json::JSON;
use crate::view::use_ctx;

/// "reading…" while a worker reads an import, "building… 40 %" while one is built
/// (nothing otherwise).
#[component]
pub fn Building() -> impl IntoView {
    let ctx = use_ctx();
    let progress = ctx.memo(|p| p.building.as_ref().map(|b| b.progress()));
    let reading = ctx.memo(|p| p.reading.is_some());
    let line = move || {
        let t = JSON.get(ctx.lang.get());
        if reading.get() {
            return Some(t.reading.to_string());
        }
        let (done, total) = progress.get()?;
        let percent = done.saturating_mul(100) / total.max(1);
        Some(
            t.building
                .replace("{percent}", &percent.to_string())
                .replace("{done}", &done.to_string())
                .replace("{total}", &total.to_string()),
        )
    };
    view! {
        <p class="building" role="status">
            {line}
        </p>
    }
}

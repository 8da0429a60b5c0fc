//! Every attempt of a service lane, one row per client, each retry joined to the
//! refused attempt it follows.

use leptos::prelude::*;

use crate::draw::service::{attempts_strip, MAX_ROWS};
use crate::texts::service::SERVICE;
use crate::view::{text, use_ctx};

/// Lane `lane`'s attempts (those the run still holds), with the clients' names
/// down the side.
#[component]
pub fn Attempts(
    /// Which lane.
    lane: usize,
) -> impl IntoView {
    let ctx = use_ctx();
    let drawn = Memo::new(move |_| {
        ctx.run.with(|s| {
            let Some(t) = s.sim.services.as_ref() else {
                return Default::default();
            };
            let Some(spec) = t.spec(lane) else {
                return Default::default();
            };
            let held: Vec<_> = t
                .retained(lane)
                .filter_map(|i| t.attempt(lane, i).map(|a| (i, a)))
                .collect();
            let end = held.last().map_or(0, |(_, a)| a.t).max(spec.duration_ms);
            let names: Vec<String> = spec.clients.iter().map(|c| c.name.clone()).collect();
            (attempts_strip(&held, names.len(), end), names)
        })
    });
    let rows = move || {
        let lang = ctx.lang.get();
        drawn.with(|(_, names)| {
            let mut rows: Vec<String> = names.iter().take(MAX_ROWS).cloned().collect();
            if names.len() > MAX_ROWS {
                if let Some(last) = rows.last_mut() {
                    *last = format!(
                        "+{} {}",
                        names.len() - (MAX_ROWS - 1),
                        SERVICE.get(lang).others
                    );
                }
            }
            rows.into_iter()
                .map(|n| view! { <li>{n}</li> })
                .collect_view()
        })
    };
    // As tall as the names beside it (16 px a row, the stylesheet's line height),
    // set through the CSSOM so that a strict CSP allows it.
    let height = move || {
        let rows = drawn.with(|(_, names)| names.len().clamp(1, MAX_ROWS));
        format!("{}px", rows * 16)
    };
    view! {
        <figure class="attempts-strip">
            <figcaption>
                <strong>{text(&SERVICE, |t| t.attempts)}</strong>
            </figcaption>
            <div class="strip">
                <ol class="rows">{rows}</ol>
                <div
                    class="chart"
                    style:height=height
                    inner_html=move || drawn.with(|(svg, _)| svg.markup())
                ></div>
            </div>
            <p class="help">{text(&SERVICE, |t| t.attempts_help)}</p>
        </figure>
    }
}

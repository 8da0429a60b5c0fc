//! Every attempt of a service lane, one row per client, each retry joined to the
//! refused attempt it follows.

use leptos::prelude::*;

use crate::draw::service::{attempts_strip, client_rows, held_attempts, MAX_ROWS};
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
            let held = held_attempts(t, lane);
            let end = held.last().map_or(0, |(_, a)| a.t).max(spec.duration_ms);
            // Each row's name: the client's, or for the shared last row how many
            // share it (filled in below, in the page's language).
            let rows_of = client_rows(&held, spec.clients.len());
            let mut names = vec![(String::new(), 0usize); spec.clients.len().min(MAX_ROWS)];
            for (c, &row) in spec.clients.iter().zip(&rows_of) {
                if let Some(n) = names.get_mut(row) {
                    n.0.clone_from(&c.name);
                    n.1 += 1;
                }
            }
            (attempts_strip(&held, &rows_of, end), names)
        })
    });
    let rows = move || {
        let lang = ctx.lang.get();
        drawn.with(|(_, names)| {
            names
                .iter()
                .map(|(name, sharing)| {
                    let n = if *sharing > 1 {
                        format!("+{sharing} {}", SERVICE.get(lang).others)
                    } else {
                        name.clone()
                    };
                    view! { <li>{n}</li> }
                })
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

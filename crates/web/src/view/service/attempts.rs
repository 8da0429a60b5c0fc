//! Every attempt of a service lane, one row per client, each retry joined to the
//! refused attempt it follows; a click chooses the attempt the panel below
//! follows, and a ring marks it.

use leptos::prelude::*;

use super::{use_run, Selection};
use crate::draw::service::{
    attempt_at, attempts_strip, client_rows, held_attempts, selected_mark, time_axis, MAX_ROWS,
};
use crate::draw::Svg;
use crate::texts::service::{client_name, SERVICE};
use crate::view::{text, use_ctx};

/// How far from a tick a click still chooses it, in CSS pixels.
const SLACK_PX: f64 = 8.0;

/// What the picture is drawn from: its markup, the rows' names (a client's, or
/// how many share the last row), each client's row, and the time at its right
/// edge.
#[derive(Clone, Debug, Default, PartialEq)]
struct Drawn {
    svg: Svg,
    /// The time axis under it.
    axis: Svg,
    names: Vec<(String, usize)>,
    rows_of: Vec<usize>,
    end: u64,
}

/// Lane `lane`'s attempts (those the run still holds), with the clients' names
/// down the side.
#[component]
pub fn Attempts(
    /// Which lane.
    lane: usize,
    /// The attempt the card follows (set by a click here).
    selection: Selection,
) -> impl IntoView {
    let ctx = use_ctx();
    let runs = use_run();
    let drawn = Memo::new(move |_| {
        runs.with(|s| {
            let Some(t) = s else {
                return Drawn::default();
            };
            let Some(spec) = t.spec(lane) else {
                return Drawn::default();
            };
            let held = held_attempts(t, lane);
            let end = held.last().map_or(0, |(_, a)| a.t).max(spec.duration_ms);
            let rows_of = client_rows(&held, spec.clients.len());
            let mut names = vec![(String::new(), 0usize); spec.clients.len().min(MAX_ROWS)];
            for (c, &row) in spec.clients.iter().zip(&rows_of) {
                if let Some(n) = names.get_mut(row) {
                    n.0.clone_from(&c.name);
                    n.1 += 1;
                }
            }
            Drawn {
                axis: time_axis(end, super::chart::AXIS_TICKS, &[], None),
                svg: attempts_strip(&held, &rows_of, end, &spec.outages),
                names,
                rows_of,
                end,
            }
        })
    });
    let rows = move || {
        let lang = ctx.lang.get();
        drawn.with(|d| {
            d.names
                .iter()
                .map(|(name, sharing)| {
                    let n = if *sharing > 1 {
                        format!("+{sharing} {}", SERVICE.get(lang).others)
                    } else {
                        client_name(name, lang).into_owned()
                    };
                    view! { <li>{n}</li> }
                })
                .collect_view()
        })
    };
    // The ring over the followed attempt's tick: its own layer, so that choosing
    // an attempt never redraws the picture.
    let ring = Memo::new(move |_| {
        let i = selection.index.get()?;
        runs.with(|s| {
            let a = s?.attempt(lane, i)?;
            drawn.with(|d| Some(selected_mark(a, &d.rows_of, d.end)))
        })
    });
    // As tall as the names beside it (16 px a row, the stylesheet's line height),
    // set through the CSSOM so that a strict CSP allows it.
    let height = move || {
        let rows = drawn.with(|d| d.names.len().clamp(1, MAX_ROWS));
        format!("{}px", rows * 16)
    };
    // The plot by its node, not the event's current target: Leptos delegates
    // clicks, and what `currentTarget` is then differs between browsers.
    let plot = NodeRef::<leptos::html::Div>::new();
    let click = move |e: leptos::ev::MouseEvent| {
        let Some(el) = plot.get_untracked() else {
            return;
        };
        let r = el.get_bounding_client_rect();
        let (w, h) = (r.width(), r.height());
        if w <= 0.0 || h <= 0.0 {
            return;
        }
        let x = (f64::from(e.client_x()) - r.left()) / w;
        let y = (f64::from(e.client_y()) - r.top()) / h;
        let chosen = drawn.with_untracked(|d| {
            let rows = d.names.len().clamp(1, MAX_ROWS);
            let row = ((y * rows as f64).floor().max(0.0) as usize).min(rows - 1);
            runs.with_untracked(|s| {
                let t = s?;
                let held = held_attempts(t, lane);
                attempt_at(&held, &d.rows_of, d.end, row, x, SLACK_PX / w)
            })
        });
        if let Some(i) = chosen {
            selection.choose(i);
        }
    };
    view! {
        <figure class="attempts-strip">
            <figcaption>
                <strong>{text(&SERVICE, |t| t.attempts)}</strong>
            </figcaption>
            <div class="strip">
                <ol class="rows">{rows}</ol>
                <div class="plot" node_ref=plot style:height=height on:click=click>
                    <div class="chart" inner_html=move || drawn.with(|d| d.svg.markup())></div>
                    <div
                        class="ring"
                        inner_html=move || ring.get().unwrap_or_default().markup()
                    ></div>
                </div>
                <span></span>
                <div class="axis" inner_html=move || drawn.with(|d| d.axis.markup())></div>
            </div>
            <p class="help">{text(&SERVICE, |t| t.attempts_help)}</p>
        </figure>
    }
}

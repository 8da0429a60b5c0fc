//! A service lane's attempts per second over the run: allowed and refused bars
//! (together the offered load) under the first tries' line — a retry storm is
//! where the bars rise above the line.

use leptos::prelude::*;

use super::{use_run, yardstick};
use crate::draw::service::{per_second_chart, time_axis};
use crate::texts::service::{KNOBS, SERVICE};
use crate::view::{text, use_ctx};

/// The most ticks a service picture's time axis has (readable at 390 px).
pub const AXIS_TICKS: u64 = 6;

/// Lane `lane`'s per-second chart, with its legend and its busiest second.
#[component]
pub fn PerSecondChart(
    /// Which lane.
    lane: usize,
) -> impl IntoView {
    let y = yardstick(lane);
    let ctx = use_ctx();
    let runs = use_run();
    // The store's outages (none in most scenarios), shaded in the chart and named
    // under it.
    let outages = Memo::new(move |_| {
        runs.with(|t| {
            t.and_then(|t| t.spec(lane))
                .map(|s| s.outages.clone())
                .unwrap_or_default()
        })
    });
    let svg = Memo::new(move |_| {
        outages
            .with(|o| y.with(|y| y.as_ref().map(|y| per_second_chart(&y.per_second, o))))
            .unwrap_or_default()
    });
    // The tallest second, so that the picture has a scale in numbers.
    let peak = move || {
        y.with(|y| {
            y.as_ref().map_or(0, |y| {
                let ps = &y.per_second;
                ps.offered
                    .iter()
                    .chain(&ps.demand)
                    .copied()
                    .max()
                    .unwrap_or(0)
            })
        })
    };
    let seconds = move || y.with(|y| y.as_ref().map_or(0, |y| y.per_second.offered.len()));
    let axis = Memo::new(move |_| {
        let end_ms = seconds() as u64 * 1_000;
        let label = KNOBS.get(ctx.lang.get()).outage;
        outages.with(|o| time_axis(end_ms, AXIS_TICKS, o, Some(label)))
    });
    view! {
        <figure class="per-second-chart">
            <figcaption>
                <strong>{text(&SERVICE, |t| t.per_second)}</strong>
                " (" {text(&SERVICE, |t| t.busiest_second)} " "
                <span class="peak" data-value=peak>{peak}</span> "; 0–"
                <span class="seconds" data-value=seconds>{seconds}</span>
                " " {text(&SERVICE, |t| t.seconds)} ")"
            </figcaption>
            <div class="chart" inner_html=move || svg.get().markup()></div>
            <div class="axis" inner_html=move || axis.get().markup()></div>
            <ul class="legend" aria-hidden="true">
                <li><span class="key allow"></span>{text(&SERVICE, |t| t.allowed)}</li>
                <li><span class="key deny"></span>{text(&SERVICE, |t| t.refused)}</li>
                <li><span class="key demand-line"></span>{text(&SERVICE, |t| t.first_tries)}</li>
            </ul>
            <p class="help">{text(&SERVICE, |t| t.per_second_help)}</p>
        </figure>
    }
}

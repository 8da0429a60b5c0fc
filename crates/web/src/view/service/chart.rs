//! A service lane's attempts per second over the run: allowed and refused bars
//! (together the offered load) under the first tries' line — a retry storm is
//! where the bars rise above the line.

use leptos::prelude::*;

use super::yardstick;
use crate::draw::service::per_second_chart;
use crate::texts::service::SERVICE;
use crate::view::text;

/// Lane `lane`'s per-second chart, with its legend and its busiest second.
#[component]
pub fn PerSecondChart(
    /// Which lane.
    lane: usize,
) -> impl IntoView {
    let y = yardstick(lane);
    let svg = Memo::new(move |_| {
        y.with(|y| y.as_ref().map(|y| per_second_chart(&y.per_second)))
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
            <ul class="legend" aria-hidden="true">
                <li><span class="key allow"></span>{text(&SERVICE, |t| t.allowed)}</li>
                <li><span class="key deny"></span>{text(&SERVICE, |t| t.refused)}</li>
                <li><span class="key demand-line"></span>{text(&SERVICE, |t| t.first_tries)}</li>
            </ul>
            <p class="help">{text(&SERVICE, |t| t.per_second_help)}</p>
        </figure>
    }
}

//! The yardstick so far: per lane, what passed and was blocked, the most allowed
//! in any window and in any second, the longest wait, the state per key.

use leptos::prelude::*;
use ratelab_core::Algorithm;
use ratelab_sim::Yardstick as Numbers;

use super::{text, use_ctx};
use crate::model::time_label;
use crate::state::Action;
use crate::texts::yardstick::YARDSTICK;
use crate::view::lanes::lane::lane_name;

/// The yardstick table. Numbers are in `data-value` too, for tests.
#[component]
pub fn Yardstick() -> impl IntoView {
    let ctx = use_ctx();
    let rows = Memo::new(move |_| {
        // The numbers count arrivals: they change when a request arrives, not
        // every time the clock moves.
        ctx.revealed.track();
        let now = ctx.now.get_untracked();
        ctx.run.with(|s| {
            s.sim
                .lanes()
                .iter()
                .enumerate()
                .filter_map(|(j, l)| Some((j, l.algorithm, s.sim.yardstick(j, now)?)))
                .collect::<Vec<_>>()
        })
    });
    view! {
        <section class="yardstick">
            <h2>{text(&YARDSTICK, |t| t.yardstick)}</h2>
            <div class="scroll">
                <table>
                    <thead>
                        <tr>
                            <th scope="col">{text(&YARDSTICK, |t| t.lane)}</th>
                            <th scope="col">{text(&YARDSTICK, |t| t.passed)}</th>
                            <th scope="col">{text(&YARDSTICK, |t| t.blocked)}</th>
                            <th scope="col">{text(&YARDSTICK, |t| t.max_in)} " W"</th>
                            <th scope="col">{text(&YARDSTICK, |t| t.max_in_1s)}</th>
                            <th scope="col">{text(&YARDSTICK, |t| t.longest_wait)}</th>
                            <th scope="col">{text(&YARDSTICK, |t| t.state_per_key)}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            rows.get()
                                .into_iter()
                                .map(|(j, a, y)| view! { <Row j a y /> })
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </div>
        </section>
    }
}

#[component]
fn Row(j: usize, a: Algorithm, y: Numbers) -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let t = move || YARDSTICK.get(lang.get());
    let wait = if a.delays() {
        time_label(y.longest_wait_ms)
    } else {
        "–".to_string()
    };
    let departures = y.max_in_window_departures.map(|d| {
        view! { " " <span class="departures">{Signal::derive(move || format!("({d} {})", t().by_departure))}</span> }
    });
    let state = y.state_numbers;
    view! {
        <tr data-lane=j data-algorithm=a.id()>
            <th scope="row">{Signal::derive(move || ctx.run.with(|s| lane_name(s.sim.lanes(), j, lang.get())))}</th>
            <td class="passed" data-value=y.passed>{y.passed}</td>
            <td class="blocked" data-value=y.blocked>{y.blocked}</td>
            <td class="max-window" data-value=y.max_in_window>
                <button
                    type="button"
                    class="hl-toggle"
                    aria-pressed=Signal::derive(move || if ctx.highlight.get() { "true" } else { "false" })
                    on:click=move |_| ctx.act(Action::Highlight(!ctx.highlight.get_untracked()))
                >
                    {y.max_in_window}
                    <span class="unit">{format!(" / {}", time_label(y.window_ms))}</span>
                </button>
                {departures}
            </td>
            <td class="max-1s" data-value=y.max_in_1s>{y.max_in_1s}</td>
            <td class="longest-wait" data-value=y.longest_wait_ms>{wait}</td>
            <td class="state" data-value=state>
                {Signal::derive(move || format!("{state} {}", if state == 1 { t().number } else { t().numbers }))}
            </td>
        </tr>
    }
}

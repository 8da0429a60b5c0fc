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
    // A new run's rows wait for its last step (`Ctx::panels_drawn`): meanwhile the
    // table keeps the rows it showed, each with its own lane's name, dimmed.
    let rows = Memo::new(move |prev: Option<&Vec<RowOf>>| {
        // The numbers count arrivals: they change when a request arrives, not
        // every time the clock moves (and, while it plays fast, at most a few
        // times a second: `Ctx::panel_now`).
        ctx.panel_revealed.track();
        if !ctx.panels_drawn() {
            return prev.cloned().unwrap_or_default();
        }
        let (now, lang) = (ctx.panel_now.get_untracked(), ctx.lang.get());
        ctx.run.with(|s| {
            let lanes = s.sim.lanes();
            lanes
                .iter()
                .enumerate()
                .filter_map(|(j, l)| {
                    let y = s.sim.yardstick(j, now)?;
                    Some((j, l.algorithm, lane_name(lanes, j, lang), y))
                })
                .collect::<Vec<_>>()
        })
    });
    let waiting = Signal::derive(move || !ctx.panels_drawn());
    let busy = Signal::derive(move || if waiting.get() { "true" } else { "false" });
    view! {
        <section class="yardstick" class:waiting=waiting aria-busy=busy>
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
                                .map(|(j, a, name, y)| view! { <Row j a name y /> })
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </div>
        </section>
    }
}

/// One row: the lane, its algorithm, its name, its numbers.
type RowOf = (usize, Algorithm, String, Numbers);

#[component]
fn Row(j: usize, a: Algorithm, name: String, y: Numbers) -> impl IntoView {
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
            <th scope="row">{name}</th>
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

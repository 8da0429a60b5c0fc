//! Lab D's sweep, run in the browser on demand: the sliding window counter next to
//! an independent sliding log at six loads (lab D's second table; the first, the
//! counter judged on its own history, is the lesson's). Shown under the lanes, not
//! in the setup form, which a lesson folds.

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use ratelab_sim::share::format_duration;
use ratelab_sim::sweep::Sweep;
use ratelab_sim::ScenarioId;

use crate::state::Playground;
use crate::texts::sweep::SWEEP;
use crate::view::{text, use_ctx, Ctx};
use crate::worker;

/// The sweep's button and table (only in lab D).
#[component]
pub fn SweepPanel() -> impl IntoView {
    let ctx = use_ctx();
    let lab_d = Memo::new(move |_| ctx.run.with(|s| s.setup.scenario == ScenarioId::LabD));
    view! {
        <Show when=move || lab_d.get()>
            <SweepBox />
        </Show>
    }
}

#[component]
fn SweepBox() -> impl IntoView {
    let ctx = use_ctx();
    let running = ctx.memo(|p| p.sweep_running);
    let result = ctx.memo(|p| p.sweep.clone());
    let label = Signal::derive(move || {
        let t = SWEEP.get(ctx.lang.get());
        if running.get() {
            t.running
        } else {
            t.run
        }
    });
    let table = move || {
        result.with(|r| match r {
            Some(Ok((s, took))) => {
                let rows = s
                    .rows
                    .iter()
                    .map(|r| {
                        view! {
                            <tr data-load=r.load.clone()>
                                <th scope="row">{r.load.clone()}</th>
                                <td>{grouped(r.requests)}</td>
                                <td>{grouped(r.wrong_allows)}</td>
                                <td>{grouped(r.wrong_blocks)}</td>
                            </tr>
                        }
                    })
                    .collect_view();
                let took = format!(
                    " {} ms (seed {}, {} × {})",
                    took.round() as i64,
                    s.seed,
                    s.clients,
                    format_duration(s.duration_ms)
                );
                view! {
                    <div class="scroll">
                        <table class="sweep-table">
                            <thead>
                                <tr>
                                    <th scope="col">{text(&SWEEP, |t| t.load)}</th>
                                    <th scope="col">{text(&SWEEP, |t| t.requests)}</th>
                                    <th scope="col">{text(&SWEEP, |t| t.wrong_allows)}</th>
                                    <th scope="col">{text(&SWEEP, |t| t.wrong_blocks)}</th>
                                </tr>
                            </thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                    <p class="took">{text(&SWEEP, |t| t.took)} {took}</p>
                }
                .into_any()
            }
            Some(Err(e)) => view! { <p class="error">{e.clone()}</p> }.into_any(),
            None => ().into_any(),
        })
    };
    view! {
        <section class="sweep">
            <h2>{text(&SWEEP, |t| t.sweep)}</h2>
            <button
                type="button"
                class="run-sweep"
                disabled=running
                on:click=move |_| run(ctx)
            >
                {label}
            </button>
            {table}
        </section>
    }
}

/// Runs the sweep, timed, in a worker on the same wasm (the page keeps drawing and
/// answering meanwhile; see [`crate::worker`]); where no worker can start, on this
/// thread after the page has painted "running…" (half a second of the main thread).
fn run(ctx: Ctx) {
    let seed = ctx.read(|p| p.setup().seed.unwrap_or(1)).unwrap_or(1);
    ctx.update(Playground::sweep_started);
    let start = js_sys::Date::now();
    let finish = move |out: Result<Sweep, String>| {
        let took = js_sys::Date::now() - start;
        ctx.update(|p| p.sweep_done(out.map(|s| (s, took))));
    };
    if worker::sweep_in_worker(seed, finish).is_ok() {
        return;
    }
    Timeout::new(30, move || {
        let start = js_sys::Date::now();
        let out = worker::sweep_here(seed);
        let took = js_sys::Date::now() - start;
        ctx.update(|p| p.sweep_done(out.map(|s| (s, took))));
    })
    .forget();
}

/// A count with its thousands apart: `374 513`, with a narrow no-break space (the
/// SI's separator: a comma or a point would read as a decimal mark in one of the
/// page's two languages).
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 2);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push('\u{202F}');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1\u{202F}000");
        assert_eq!(grouped(374_513), "374\u{202F}513");
        assert_eq!(
            grouped(u64::MAX),
            "18\u{202F}446\u{202F}744\u{202F}073\u{202F}709\u{202F}551\u{202F}615"
        );
    }
}

//! Leptos components. They keep the engine's state in a signal and draw it; every
//! decision and every explanation comes from `ratelab-core`.

use leptos::prelude::*;

use crate::manual::{ManualDemo, Row};

/// The whole playground.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <header class="masthead">
            <h1>"ratelab"</h1>
            <p class="tagline">
                "\u{201c}5 requests per 10 seconds\u{201d} can mean several different things. "
                "Send requests by hand and watch an exact token bucket decide, and say why."
            </p>
        </header>
        {match ManualDemo::new() {
            Ok(demo) => view! { <ManualBucket demo=demo /> }.into_any(),
            Err(e) => view! { <p class="error">{e.to_string()}</p> }.into_any(),
        }}
    }
}

/// A token bucket (5 per 10 s, capacity 5) fed by a "send a request" button on a
/// virtual clock that only moves when asked to.
#[component]
pub fn ManualBucket(
    /// The state to start from.
    demo: ManualDemo,
) -> impl IntoView {
    let demo = RwSignal::new(demo);
    // Rows are small; cloning the last one keeps the closures below simple.
    let last = move || demo.with(|d| d.last().cloned());

    view! {
        <section class="manual" aria-labelledby="manual-title">
            <h2 id="manual-title">"Token bucket \u{b7} 5 requests per 10 s \u{b7} capacity 5"</h2>
            <p class="clock">
                "virtual time " <output class="now">{move || demo.with(ManualDemo::now_label)}</output>
            </p>
            <div class="controls">
                <button class="send" on:click=move |_| demo.update(|d| { d.send(); })>
                    "send a request"
                </button>
                <button class="wait" on:click=move |_| demo.update(|d| d.wait(1_000))>
                    "wait 1 s"
                </button>
            </div>
            <p class="decision" data-outcome=move || last().map(|r| r.outcome.label()).unwrap_or("none")>
                {move || match last() {
                    Some(row) => format!("{} \u{2192} {}", Row::time_label(&row), row.outcome.label()),
                    None => "no request yet".to_owned(),
                }}
            </p>
            <p class="explanation">
                <code>{move || last().map(|r| r.explanation).unwrap_or_default()}</code>
            </p>
            <ol class="log">
                {move || demo.with(|d| d.rows().iter().rev().map(log_entry).collect::<Vec<_>>())}
            </ol>
        </section>
    }
}

fn log_entry(row: &Row) -> impl IntoView + use<> {
    view! {
        <li class=row.outcome.label()>
            <span class="at">{row.time_label()}</span>
            " "
            <span class="verdict">{row.outcome.label()}</span>
            " "
            <code>{row.explanation.clone()}</code>
        </li>
    }
}

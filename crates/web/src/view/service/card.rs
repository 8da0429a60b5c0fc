//! One lane of a service run: its name, its yardstick, its pictures, its clients.

use leptos::prelude::*;

use super::{attempts, chart, clients, refusal, summary, use_run, Selection};

/// Lane `lane` of the service run (its parts read the run themselves, so a new
/// run redraws the card in place).
#[component]
pub fn ServiceCard(
    /// Which lane.
    lane: usize,
) -> impl IntoView {
    // What the attempts picture marks and the panel under it follows.
    let selection = Selection::new(lane);
    let runs = use_run();
    let name = Memo::new(move |_| {
        runs.with(|t| {
            t.and_then(|t| t.spec(lane))
                .map(|spec| spec.id.clone())
                .unwrap_or_default()
        })
    });
    view! {
        <article class="service" data-service=lane>
            <h3>{name}</h3>
            <summary::Summary lane />
            <chart::PerSecondChart lane />
            <attempts::Attempts lane selection />
            <refusal::Refusal lane selection />
            <clients::Clients lane />
        </article>
    }
}

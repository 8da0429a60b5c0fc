//! One lane of a service run: its name, its yardstick, its pictures, its clients.

use leptos::prelude::*;

use ratelab_sim::ScenarioId;

use super::{attempts, chart, clients, refusal, summary, use_run, Selection};
use crate::texts::service::name as name_in;
use crate::view::lanes::lane::lane_name;
use crate::view::use_ctx;

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
    let ctx = use_ctx();
    let name = Memo::new(move |_| {
        let lang = ctx.lang.get();
        let yours = ctx.run.with(|s| s.setup.scenario == ScenarioId::Service);
        runs.with(|t| {
            let Some(t) = t else {
                return String::new();
            };
            if yours {
                // "Your service": each card runs one of the setup's limiters, named
                // as the lanes name them (not by the link's id).
                let lanes: Vec<_> = (0..t.lane_count())
                    .filter_map(|i| Some(t.spec(i)?.limits.first()?.lane.clone()))
                    .collect();
                lane_name(&lanes, lane, lang)
            } else {
                t.spec(lane)
                    .map(|spec| name_in(&spec.id, lang).to_owned())
                    .unwrap_or_default()
            }
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

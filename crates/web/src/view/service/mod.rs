//! The service view: a service scenario's lanes, each a variant of one service
//! (clients that retry, keys, instances, a store that fails), shown as the engine
//! ran them. One component per file: [`card::ServiceCard`] (one lane) holds
//! [`summary::Summary`] (its yardstick), [`chart::PerSecondChart`] (attempts per
//! second), [`attempts::Attempts`] (every attempt by client, retries linked) and
//! [`refusal::Refusal`] (its first 429 and what the client's retry policy did next),
//! [`clients::Clients`] (each client's share and 429 rate); [`knobs::Knobs`] is the
//! `service` scenario's part of the setup.

pub mod attempts;
pub mod card;
pub mod chart;
pub mod clients;
pub mod knobs;
pub mod refusal;
pub mod summary;

use leptos::prelude::*;
use ratelab_sim::service::ServiceYardstick;

use super::{text, use_ctx};
use crate::texts::service::SERVICE;

/// Lane `lane`'s yardstick over the whole run (a new value only with a new run).
pub fn yardstick(lane: usize) -> Memo<Option<ServiceYardstick>> {
    let ctx = use_ctx();
    Memo::new(move |_| {
        ctx.run.with(|s| {
            s.sim
                .services
                .as_ref()
                .and_then(|t| t.yardstick(lane))
                .cloned()
        })
    })
}

/// Every lane of a service run (nothing for a run of limiters).
#[component]
pub fn Services() -> impl IntoView {
    let ctx = use_ctx();
    let lanes = Memo::new(move |_| {
        ctx.run
            .with(|s| s.sim.services.as_ref().map_or(0, |t| t.lane_count()))
    });
    move || {
        (lanes.get() > 0).then(|| {
            view! {
                <section class="services">
                    <h2>{text(&SERVICE, |t| t.heading)}</h2>
                    <p class="intro">{text(&SERVICE, |t| t.intro)}</p>
                    <For each=move || 0..lanes.get() key=|i| *i let:lane>
                        <card::ServiceCard lane />
                    </For>
                </section>
            }
        })
    }
}

//! The service view: a service scenario's lanes, each a variant of one service
//! (clients that retry, keys, instances, a store that fails), shown as the engine
//! ran them. One component per file: [`card::ServiceCard`] (one lane) holds
//! [`summary::Summary`] (its yardstick), [`chart::PerSecondChart`] (attempts per
//! second), [`attempts::Attempts`] (every attempt by client, retries linked) and
//! [`refusal::Refusal`] (one attempt, chosen in the attempts picture or stepped to,
//! by default the first refusal: its response and what the client did next),
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

use super::{text, use_ctx, Ctx};
use crate::draw::service::first_refused;
use crate::state::Shared;
use crate::texts::service::SERVICE;

/// Which attempt a card follows: the one chosen in this run (a click in the
/// attempts picture, a step, a retry in the chain), else the run's first
/// refusal. Component state, not the link's: one `sel` cannot name an attempt
/// in each of several cards, and the default is what a link reopens anyway
/// (docs/playground.md, "The service view").
#[derive(Clone, Copy)]
pub struct Selection {
    ctx: Ctx,
    lane: usize,
    /// The choice, with the run it was made in (a choice names an attempt of
    /// that run only).
    chosen: RwSignal<Option<(Shared, u64)>>,
    /// The attempt followed now.
    pub index: Memo<Option<u64>>,
}

impl Selection {
    /// Lane `lane`'s selection, the first refusal until something is chosen.
    pub fn new(lane: usize) -> Selection {
        let ctx = use_ctx();
        let chosen = RwSignal::new(None::<(Shared, u64)>);
        let index = Memo::new(move |_| {
            ctx.run.with(|run| {
                let mine = chosen.with(|c| c.as_ref().filter(|(r, _)| r == run).map(|&(_, i)| i));
                let services = run.sim.services.as_ref()?;
                mine.or_else(|| first_refused(services, lane))
            })
        });
        // Let go of a choice made in a run that was replaced, so that the old
        // run is not kept alive by it.
        Effect::new(move |_| {
            let run = ctx.run.get();
            if chosen.with_untracked(|c| c.as_ref().is_some_and(|(r, _)| *r != run)) {
                chosen.set(None);
            }
        });
        Selection {
            ctx,
            lane,
            chosen,
            index,
        }
    }

    /// Follows attempt `i`, if the run holds it.
    pub fn choose(self, i: u64) {
        let run = self.ctx.run.get_untracked();
        let held = run
            .sim
            .services
            .as_ref()
            .is_some_and(|t| t.attempt(self.lane, i).is_some());
        if held {
            self.chosen.set(Some((run, i)));
        }
    }

    /// Follows the attempt `by` places later (earlier when negative) than the one
    /// followed now, or the first held one when none is; stays at the ends.
    pub fn step(self, by: i64) {
        let run = self.ctx.run.get_untracked();
        let Some(held) = run.sim.services.as_ref().map(|t| t.retained(self.lane)) else {
            return;
        };
        let next = match self.index.get_untracked() {
            Some(i) => i.saturating_add_signed(by),
            None => held.start,
        };
        if let Some(last) = held.end.checked_sub(1) {
            self.choose(next.clamp(held.start, last));
        }
    }

    /// Goes back to the run's first refusal.
    pub fn reset(self) {
        self.chosen.set(None);
    }
}

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

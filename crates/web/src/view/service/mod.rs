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

use std::sync::Arc;

use leptos::prelude::*;
use ratelab_sim::service::{ServiceTimeline, ServiceYardstick};

use super::{text, use_ctx, Ctx};
use crate::draw::service::first_refused;
use crate::state::Shared;
use crate::texts::service::SERVICE;

/// The engine's run of the setup's services ([`crate::model::Sim::run_services`]),
/// made once per setup by [`Services`] and read by every card: the service
/// engine runs in this chunk, not in the page's first module.
#[derive(Clone)]
pub struct Ran(Arc<Option<Result<ServiceTimeline, String>>>);

impl PartialEq for Ran {
    /// The same run (a new setup is a new run: [`Shared`] is compared the same way).
    fn eq(&self, other: &Ran) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Ran {
    /// The run, unless there is none or the engine refused it.
    pub fn timeline(&self) -> Option<&ServiceTimeline> {
        self.0.as_ref().as_ref()?.as_ref().ok()
    }

    /// The engine's refusal, if it refused the run.
    pub fn error(&self) -> Option<&str> {
        self.0.as_ref().as_ref()?.as_ref().err().map(String::as_str)
    }
}

/// [`Ran`], provided by [`Services`] to its cards.
#[derive(Clone, Copy)]
pub struct ServiceRun(Memo<Ran>);

impl ServiceRun {
    /// Reads the run (tracked).
    pub fn with<R>(self, f: impl FnOnce(Option<&ServiceTimeline>) -> R) -> R {
        self.0.with(|r| f(r.timeline()))
    }

    /// Reads the run (untracked).
    pub fn with_untracked<R>(self, f: impl FnOnce(Option<&ServiceTimeline>) -> R) -> R {
        self.0.with_untracked(|r| f(r.timeline()))
    }
}

/// The run the cards draw.
pub fn use_run() -> ServiceRun {
    expect_context()
}

/// Which attempt a card follows: the one chosen in this run (a click in the
/// attempts picture, a step, a retry in the chain), else the run's first
/// refusal. Component state, not the link's: one `sel` cannot name an attempt
/// in each of several cards, and the default is what a link reopens anyway
/// (docs/playground.md, "The service view").
#[derive(Clone, Copy)]
pub struct Selection {
    ctx: Ctx,
    runs: ServiceRun,
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
        let runs = use_run();
        let chosen = RwSignal::new(None::<(Shared, u64)>);
        let index = Memo::new(move |_| {
            let mine = ctx
                .run
                .with(|run| chosen.with(|c| c.as_ref().filter(|(r, _)| r == run).map(|&(_, i)| i)));
            runs.with(|t| mine.or_else(|| first_refused(t?, lane)))
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
            runs,
            lane,
            chosen,
            index,
        }
    }

    /// Follows attempt `i`, if the run holds it.
    pub fn choose(self, i: u64) {
        let run = self.ctx.run.get_untracked();
        let held = self
            .runs
            .with_untracked(|t| t.is_some_and(|t| t.attempt(self.lane, i).is_some()));
        if held {
            self.chosen.set(Some((run, i)));
        }
    }

    /// Follows the attempt `by` places later (earlier when negative) than the one
    /// followed now, or the first held one when none is; stays at the ends.
    pub fn step(self, by: i64) {
        let Some(held) = self
            .runs
            .with_untracked(|t| t.map(|t| t.retained(self.lane)))
        else {
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
    let runs = use_run();
    Memo::new(move |_| runs.with(|t| t.and_then(|t| t.yardstick(lane)).cloned()))
}

/// Every lane of a service run (nothing for a run of limiters).
#[component]
pub fn Services() -> impl IntoView {
    let ctx = use_ctx();
    // The service model is here now: the page's next service setup is checked whole.
    crate::model::make_services_here();
    let ran = Memo::new(move |_| {
        ctx.run
            .with(|s| Ran(Arc::new(s.sim.run_services(&s.setup))))
    });
    provide_context(ServiceRun(ran));
    let lanes = Memo::new(move |_| ran.with(|r| r.timeline().map_or(0, |t| t.lane_count())));
    // One line in the page's language, without the JSON format's path.
    let error = Memo::new(move |_| {
        let lang = ctx.lang.get();
        ran.with(|r| {
            r.error().map(|e| {
                crate::texts::errors::translate(crate::texts::errors::without_path(e), lang)
            })
        })
    });
    let compare = Memo::new(move |_| {
        let lang = ctx.lang.get();
        ctx.run
            .with(|s| crate::texts::service::compare(s.setup.scenario, lang))
    });
    move || {
        (lanes.get() > 0 || error.with(Option::is_some)).then(|| {
            view! {
                <section class="services">
                    <h2>{text(&SERVICE, |t| t.heading)}</h2>
                    <p class="compare">{compare}</p>
                    <p class="intro">{text(&SERVICE, |t| t.intro)}</p>
                    <p class="error" hidden=move || error.with(Option::is_none)>{error}</p>
                    <For each=move || 0..lanes.get() key=|i| *i let:lane>
                        <card::ServiceCard lane />
                    </For>
                </section>
            }
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_error_is_said_without_its_path() {
        let e = "services[0]: the retries would make more than 2000000 requests (by t = 5 ms)";
        assert_eq!(
            crate::texts::errors::without_path(e),
            "the retries would make more than 2000000 requests (by t = 5 ms)"
        );
        assert_eq!(
            crate::texts::errors::without_path(
                "services[1].clients[0].retry.max_attempts: 21 is too large"
            ),
            "21 is too large"
        );
        assert_eq!(
            crate::texts::errors::without_path("no path: here"),
            "no path: here"
        );
        // The service model's demand limits, in both languages.
        use crate::texts::{errors::translate, Lang};
        let demand = "the demand would make about 6180000 requests, more than 2000000 (lower the clients, their rates or duration_ms)";
        assert_eq!(
            translate(demand, Lang::En),
            "the clients would send about 6180000 requests, more than 2000000: lower the clients, their demand or the duration"
        );
        assert_eq!(
            translate(demand, Lang::Vi),
            "các khách sẽ gửi khoảng 6180000 yêu cầu, quá mức 2000000: hãy giảm số khách, nhu cầu mỗi khách hoặc thời lượng"
        );
        let retries = "the retries would make more than 2000000 requests (by t = 5 ms, from a demand of 80); lower max_attempts, the demand or duration_ms";
        assert_eq!(
            translate(retries, Lang::Vi),
            "các lần thử lại sẽ tạo hơn 2000000 yêu cầu (đến t = 5 ms): hãy giảm số khách hoặc số lần gửi"
        );
        // A link's notice, in both languages.
        let line = "scenario=service: services[0].clients: the demand would make about 6180000 requests, more than 2000000 (lower the clients, their rates or duration_ms); showing the scenario's defaults";
        for lang in [crate::texts::Lang::En, crate::texts::Lang::Vi] {
            let said = crate::texts::errors::notice(line, lang);
            assert!(
                said.starts_with("scenario=service: ") && !said.contains("services["),
                "{said}"
            );
        }
    }
}

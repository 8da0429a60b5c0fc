//! The 429 of a service lane, followed: its first refused request, the response
//! (`429` with its `Retry-After`, or `503`), its client's retry policy, and each
//! retry the client sent and what it got ("retries at 12.4 s: allowed").

use leptos::prelude::*;
use ratelab_sim::service::Backoff;

use crate::draw::service::{first_refusal, held_attempts, Step};
use crate::model::time_label;
use crate::texts::service::{KnobTexts, ServiceTexts, KNOBS, SERVICE};
use crate::view::{text, use_ctx};

/// The words for a retry policy's style.
fn style(k: &KnobTexts, b: Backoff) -> &'static str {
    match b {
        Backoff::None => k.retry_none,
        Backoff::Immediately => k.retry_immediately,
        Backoff::Fixed { .. } => k.retry_fixed,
        Backoff::Exponential { .. } => k.retry_exponential,
        Backoff::FullJitter { .. } => k.retry_full_jitter,
        Backoff::RetryAfter { .. } => k.retry_retry_after,
    }
}

/// What a step's response was: `allowed`, or its status and `Retry-After`.
fn outcome(t: &ServiceTexts, s: &Step) -> String {
    match (s.allowed, s.limited, s.retry_after_s) {
        (true, _, _) => t.allowed.to_string(),
        (false, true, Some(r)) => format!("429, Retry-After: {r}"),
        (false, true, None) => "429".to_string(),
        (false, false, _) => "503".to_string(),
    }
}

/// The first refusal of lane `lane` and its chain of retries (those the run
/// still holds).
#[component]
pub fn Refusal(
    /// Which lane.
    lane: usize,
) -> impl IntoView {
    let ctx = use_ctx();
    // The client's name, its retry style and attempts, and the chain.
    let chain = Memo::new(move |_| {
        ctx.run.with(|s| {
            let t = s.sim.services.as_ref()?;
            let spec = t.spec(lane)?;
            let held = held_attempts(t, lane);
            let (client, steps) = first_refusal(&held)?;
            let c = spec.clients.get(client as usize)?;
            Some((c.name.clone(), c.retry.backoff, c.retry.max_attempts, steps))
        })
    });
    let body = move || {
        let lang = ctx.lang.get();
        let (t, k) = (SERVICE.get(lang), KNOBS.get(lang));
        chain.with(|c| match c {
            None => view! { <p class="none">{t.no_refusal}</p> }.into_any(),
            Some((name, backoff, attempts, steps)) => {
                let first = steps
                    .first()
                    .map(|s| format!("{name} · {} · {}", time_label(s.t), outcome(t, s)));
                let policy = format!(
                    "{}: {} ({attempts} {})",
                    t.refusal_policy,
                    style(k, *backoff),
                    k.attempts
                );
                let retries: Vec<String> = steps
                    .iter()
                    .skip(1)
                    .map(|s| format!("{} {}: {}", t.retries_at, time_label(s.t), outcome(t, s)))
                    .collect();
                let gave_up = steps.last().is_some_and(|s| !s.allowed);
                view! {
                    <p class="first">{first}</p>
                    <p class="policy">{policy}</p>
                    <ol class="chain">
                        {retries.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}
                        {gave_up.then(|| view! { <li class="ends">{t.no_more}</li> })}
                    </ol>
                }
                .into_any()
            }
        })
    };
    view! {
        <section class="refusal">
            <h4>{text(&SERVICE, |t| t.refusal)}</h4>
            {body}
        </section>
    }
}

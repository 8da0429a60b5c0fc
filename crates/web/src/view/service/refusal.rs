//! The 429 panel of a service lane: one attempt, followed. By default the run's
//! first refused request; any attempt chosen in the attempts picture, stepped to
//! with the buttons, or picked from its request's chain. It says which attempt
//! of which request it is, the response the engine gave it (`429` with its
//! `Retry-After` and the stacked limits that refused it, `503` from a store that
//! is down, or `200`), its client's retry policy, and what the client did next
//! ("retries at 12.4 s: allowed", gave up, never retries), as the run went.

use leptos::prelude::*;
use ratelab_sim::service::{Backoff, Decider};

use super::Selection;
use crate::draw::service::{follow, Followed, Next, Response, Step};
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

/// A response in short, as a chain lists it: `allowed`, `429, Retry-After: 1`,
/// or `503`.
fn outcome(t: &ServiceTexts, r: &Response) -> String {
    match (r.status, r.retry_after_s) {
        (200, _) => t.allowed.to_string(),
        (status, Some(s)) => format!("{status}, Retry-After: {s}"),
        (status, None) => status.to_string(),
    }
}

/// A response in full: the status line, `Retry-After`, who refused (which
/// stacked limits, the fallback, the store) or how it passed.
fn response_line(t: &ServiceTexts, r: &Response) -> String {
    let mut out = match r.status {
        200 => "200 OK".to_string(),
        429 => "429 Too Many Requests".to_string(),
        503 => "503 Service Unavailable".to_string(),
        other => other.to_string(),
    };
    if let Some(s) = r.retry_after_s {
        out.push_str(&format!(" · Retry-After: {s}"));
    }
    if !r.refused_by.is_empty() {
        out.push_str(&format!(" · {} {}", t.denied_by, r.refused_by.join(", ")));
    }
    match r.decider {
        Decider::Limits => {}
        Decider::FailOpen => out.push_str(&format!(" · {}: {}", t.store, t.fail_open)),
        Decider::Fallback => out.push_str(&format!(" · {}: {}", t.store, t.fallback)),
        Decider::FailClosed => out.push_str(&format!(" · {}", t.store_closed)),
    }
    if r.wait_ms > 0 {
        out.push_str(&format!(" · {} {}", t.wait, time_label(r.wait_ms)));
    }
    out
}

/// What the client did after the followed attempt.
fn next_line(t: &ServiceTexts, n: &Next) -> String {
    let what = match n {
        Next::Done => t.done.to_string(),
        Next::Retried(s) => format!(
            "{} {}: {}",
            t.retries_at,
            time_label(s.t),
            outcome(t, &s.response)
        ),
        Next::GaveUp => t.gives_up.to_string(),
        Next::NeverRetries => t.never_retries.to_string(),
    };
    format!("{}: {what}", t.then)
}

/// `data-next`: what followed, for tests and styles.
fn next_kind(n: &Next) -> &'static str {
    match n {
        Next::Done => "done",
        Next::Retried(_) => "retried",
        Next::GaveUp => "gave-up",
        Next::NeverRetries => "never",
    }
}

/// The followed attempt and its client (name, retry policy), for the panel.
#[derive(Clone, Debug, PartialEq)]
struct Shown {
    followed: Followed,
    client: String,
    backoff: Backoff,
}

/// The panel under lane `lane`'s attempts picture.
#[component]
pub fn Refusal(
    /// Which lane.
    lane: usize,
    /// The attempt it follows.
    selection: Selection,
) -> impl IntoView {
    let ctx = use_ctx();
    let shown = Memo::new(move |_| {
        let i = selection.index.get()?;
        ctx.run.with(|s| {
            let t = s.sim.services.as_ref()?;
            let followed = follow(t, lane, i)?;
            let c = t.spec(lane)?.clients.get(followed.client as usize)?;
            Some(Shown {
                client: c.name.clone(),
                backoff: c.retry.backoff,
                followed,
            })
        })
    });
    let index = Signal::derive(move || shown.with(|s| s.as_ref().map(|s| s.followed.step.index)));
    let words = move || SERVICE.get(ctx.lang.get());
    let which = move || {
        let (t, k) = (words(), KNOBS.get(ctx.lang.get()));
        shown.with(|s| {
            s.as_ref().map(|s| {
                let f = &s.followed;
                let mut line = format!(
                    "{} · {} · {} {} {} {} · #{}",
                    s.client,
                    time_label(f.step.t),
                    t.attempt_n,
                    f.attempt,
                    t.of,
                    f.max_attempts,
                    f.step.index
                );
                if let Some(first) = f
                    .chain
                    .first()
                    .filter(|c| c.index == f.original && f.attempt > 1)
                {
                    line.push_str(&format!(
                        " · {} {} (#{})",
                        t.first_try_at,
                        time_label(first.t),
                        first.index
                    ));
                }
                let policy = format!(
                    "{}: {} ({} {})",
                    t.refusal_policy,
                    style(k, s.backoff),
                    f.max_attempts,
                    k.attempts
                );
                (line, policy)
            })
        })
    };
    let status =
        Signal::derive(move || shown.with(|s| s.as_ref().map(|s| s.followed.step.response.status)));
    let response = move || {
        let t = words();
        shown.with(|s| {
            s.as_ref().map(|s| {
                format!(
                    "{}: {}",
                    t.response,
                    response_line(t, &s.followed.step.response)
                )
            })
        })
    };
    let next = move || {
        let t = words();
        shown.with(|s| s.as_ref().map(|s| next_line(t, &s.followed.next)))
    };
    let kind =
        Signal::derive(move || shown.with(|s| s.as_ref().map(|s| next_kind(&s.followed.next))));
    let chain = move || {
        shown.with(|s| {
            s.as_ref()
                .map(|s| s.followed.chain.clone())
                .unwrap_or_default()
        })
    };
    let item = move |s: Step| {
        let i = s.index;
        let label = move || {
            let t = words();
            format!("{}: {}", time_label(s.t), outcome(t, &s.response))
        };
        let current = Signal::derive(move || (index.get() == Some(i)).then_some("true"));
        view! {
            <li>
                <button type="button" data-i=i aria-current=current on:click=move |_| selection.choose(i)>
                    {label}
                </button>
            </li>
        }
    };
    view! {
        <section class="refusal" data-index=index>
            <h4>{text(&SERVICE, |t| t.refusal)}</h4>
            <p class="help">{text(&SERVICE, |t| t.refusal_help)}</p>
            <div class="pick">
                <button type="button" class="earlier" on:click=move |_| selection.step(-1)>
                    {text(&SERVICE, |t| t.earlier)}
                </button>
                <button type="button" class="first-refusal" on:click=move |_| selection.reset()>
                    {text(&SERVICE, |t| t.to_first_refusal)}
                </button>
                <button type="button" class="later" on:click=move |_| selection.step(1)>
                    {text(&SERVICE, |t| t.later)}
                </button>
            </div>
            <Show
                when=move || shown.with(Option::is_some)
                fallback=move || view! { <p class="none">{text(&SERVICE, |t| t.no_refusal)}</p> }
            >
                <p class="which">{move || which().map(|w| w.0)}</p>
                <p class="response" data-status=status>{response}</p>
                <p class="policy">{move || which().map(|w| w.1)}</p>
                <p class="next" data-next=kind>{next}</p>
                <p class="chain-title">{text(&SERVICE, |t| t.chain)}</p>
                <ol class="chain" aria-live="polite">
                    <For
                        each=chain
                        key=|s: &Step| (s.index, s.t, s.response.status, s.response.retry_after_s)
                        children=item
                    />
                </ol>
            </Show>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texts::Lang;

    fn r(status: u16, decider: Decider, retry_after_s: Option<u64>, by: &[&str]) -> Response {
        Response {
            status,
            decider,
            retry_after_s,
            refused_by: by.iter().map(|s| s.to_string()).collect(),
            wait_ms: 0,
        }
    }

    #[test]
    fn a_response_says_its_status_its_retry_after_and_who_refused() {
        let t = SERVICE.get(Lang::En);
        let stacked = r(429, Decider::Limits, Some(3), &["10/s", "100/min"]);
        assert_eq!(
            response_line(t, &stacked),
            "429 Too Many Requests · Retry-After: 3 · refused by 10/s, 100/min"
        );
        assert_eq!(outcome(t, &stacked), "429, Retry-After: 3");
        let closed = r(503, Decider::FailClosed, None, &[]);
        assert_eq!(
            response_line(t, &closed),
            "503 Service Unavailable · the store was down and the service fails closed"
        );
        assert_eq!(outcome(t, &closed), "503");
        let open = r(200, Decider::FailOpen, None, &[]);
        assert_eq!(
            response_line(t, &open),
            "200 OK · while the store was down: let through unchecked"
        );
        let queued = Response {
            wait_ms: 1_500,
            ..r(200, Decider::Limits, None, &[])
        };
        assert_eq!(response_line(t, &queued), "200 OK · queue wait 1.5 s");
    }

    #[test]
    fn what_comes_next_is_said_in_each_language() {
        let retry = Next::Retried(Step {
            index: 7,
            t: 12_400,
            response: r(200, Decider::Limits, None, &[]),
        });
        assert_eq!(
            next_line(SERVICE.get(Lang::En), &retry),
            "then: retries at 12.4 s: allowed"
        );
        assert_eq!(
            next_line(SERVICE.get(Lang::Vi), &retry),
            "sau đó: thử lại lúc 12.4 s: cho qua"
        );
        assert_eq!(
            next_line(SERVICE.get(Lang::En), &Next::GaveUp),
            "then: gives up: that was its last attempt"
        );
        assert_eq!(next_kind(&Next::NeverRetries), "never");
    }
}

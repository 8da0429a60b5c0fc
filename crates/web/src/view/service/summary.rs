//! A service lane's yardstick: demand against offered load, what was allowed and
//! refused, how requests ended, latency, the busiest second. Each number is in
//! `data-value` too, for tests.

use leptos::prelude::*;
use ratelab_sim::service::{Percentiles, ServiceYardstick};

use super::yardstick;
use crate::model::time_label;
use crate::texts::service::{ServiceTexts, SERVICE};
use crate::view::use_ctx;

/// The yardstick of lane `lane`.
#[component]
pub fn Summary(
    /// Which lane.
    lane: usize,
) -> impl IntoView {
    let y = yardstick(lane);
    move || y.get().map(|y| view! { <Numbers y /> })
}

#[component]
fn Numbers(y: ServiceYardstick) -> impl IntoView {
    let lang = use_ctx().lang;
    let t = move |f: fn(&ServiceTexts) -> &'static str| move || f(SERVICE.get(lang.get()));
    let g = y.goodput;
    let store = (y.fail_open + y.fallback_passed + y.fallback_refused > 0).then(|| {
        view! {
            <div class="store">
                <dt>{t(|t| t.store)}</dt>
                <dd>
                    <span class="fail-open" data-value=y.fail_open>{y.fail_open}</span>
                    " " {t(|t| t.fail_open)} ", "
                    <span class="fallback" data-value=y.fallback_passed + y.fallback_refused>
                        {y.fallback_passed + y.fallback_refused}
                    </span>
                    " " {t(|t| t.fallback)}
                </dd>
            </div>
        }
    });
    let denied = (y.denied_by.len() > 1).then(|| {
        let denied_by = y.denied_by.clone();
        let parts = move || {
            let lang = lang.get();
            denied_by
                .iter()
                .map(|d| {
                    format!(
                        "{} {}",
                        crate::texts::service::name(&d.limit, lang),
                        d.count
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        view! {
            <div class="denied-by">
                <dt>{t(|t| t.denied_by)}</dt>
                <dd>{parts}</dd>
            </div>
        }
    });
    view! {
        <dl class="service-numbers">
            <div class="load">
                <dt>{t(|t| t.demand)} " → " {t(|t| t.offered)}</dt>
                <dd>
                    <span class="demand" data-value=y.demand title=t(|t| t.demand_help)>
                        {y.demand}
                    </span>
                    " → "
                    <span class="offered" data-value=y.offered title=t(|t| t.offered_help)>
                        {y.offered}
                    </span>
                    " ("
                    <span class="amplification" data-value=y.amplification_permille>
                        {y.amplification.clone()}
                    </span>
                    " " {t(|t| t.amplification)} ")"
                </dd>
            </div>
            <div class="verdicts">
                <dt>{t(|t| t.passed)}</dt>
                <dd>
                    <span class="passed" data-value=y.passed>{y.passed}</span>
                    "; 429: "
                    <span class="s429" data-value=y.status_429 title=t(|t| t.refused_429)>
                        {y.status_429}
                    </span>
                    "; 503: "
                    <span class="s503" data-value=y.status_503 title=t(|t| t.refused_503)>
                        {y.status_503}
                    </span>
                </dd>
            </div>
            <div class="goodput">
                <dt>{t(|t| t.goodput)}</dt>
                <dd>
                    <span class="first-try" data-value=g.first_try>{g.first_try}</span>
                    " " {t(|t| t.first_try)} ", "
                    <span class="after-retry" data-value=g.after_retry>{g.after_retry}</span>
                    " " {t(|t| t.after_retry)} ", "
                    <span class="gave-up" data-value=g.gave_up>{g.gave_up}</span>
                    " " {t(|t| t.gave_up)}
                </dd>
            </div>
            <div class="latency">
                <dt title=t(|t| t.latency_help)>{t(|t| t.latency)}</dt>
                <dd>{percentiles(y.latency_ms)}</dd>
            </div>
            {(y.wait_ms.max.unwrap_or(0) > 0).then(|| view! {
                <div class="wait">
                    <dt>{t(|t| t.wait)}</dt>
                    <dd>{percentiles(y.wait_ms)}</dd>
                </div>
            })}
            <div class="max-1s">
                <dt>{t(|t| t.max_1s)}</dt>
                <dd>
                    <span class="max-in-1s" data-value=y.max_in_1s>{y.max_in_1s}</span>
                    "; " {t(|t| t.max_1s_key)} " "
                    <span class="max-in-1s-key" data-value=y.max_in_1s_per_key>
                        {y.max_in_1s_per_key}
                    </span>
                </dd>
            </div>
            {denied}
            {store}
        </dl>
    }
}

/// `p50 1.2 s · p95 … · p99 …`, each with its whole ms in `data-value`.
fn percentiles(p: Percentiles) -> impl IntoView {
    [("p50", p.p50), ("p95", p.p95), ("p99", p.p99)]
        .into_iter()
        .map(|(name, v)| {
            let label = v.map_or_else(|| "–".to_string(), time_label);
            view! {
                <span class=name data-value=v.map(|v| v.to_string())>
                    {format!("{name} {label}")}
                </span>
                " "
            }
        })
        .collect_view()
}

//! The service view and the `service` scenario's knobs (a build with the service
//! model: the web crate's `services` feature). Every number on the page is
//! compared with the engine's own report for the same setup.

use ratelab_sim::service::ServiceTimeline;
use ratelab_sim::share::parse;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::Element;

use super::{all, attr, change, find, fresh_root, mount_with, settle};

fn value(root: &Element, selector: &str) -> String {
    attr(&find(root, selector), "data-value")
}

/// The engine's run of the setup a link describes.
fn engine(query: &str) -> ServiceTimeline {
    let (link, notices) = parse(query);
    assert!(notices.is_empty(), "{notices:?}");
    let config = link.setup.to_config().unwrap();
    ServiceTimeline::new(&config.services.unwrap()).unwrap()
}

#[wasm_bindgen_test]
async fn a_service_scenario_shows_each_variants_numbers_from_the_engine() {
    let root = fresh_root();
    let _p = mount_with(&root, &[("scenario", "retry-storm")]);
    settle().await;
    let run = engine("scenario=retry-storm");
    let cards = all(&root, ".services article.service");
    assert_eq!(cards.len(), run.lane_count());
    // No limiter lanes and no clock for a service run.
    assert!(all(&root, ".lanes article").is_empty());
    for (j, card) in cards.iter().enumerate() {
        let y = run.yardstick(j).unwrap();
        assert_eq!(attr(card, "data-service"), j.to_string());
        assert_eq!(value(card, ".demand"), y.demand.to_string());
        assert_eq!(value(card, ".offered"), y.offered.to_string());
        assert_eq!(
            value(card, ".amplification"),
            y.amplification_permille.to_string()
        );
        assert_eq!(value(card, ".passed"), y.passed.to_string());
        assert_eq!(value(card, ".s429"), y.status_429.to_string());
        assert_eq!(value(card, ".gave-up"), y.goodput.gave_up.to_string());
        assert_eq!(
            value(card, ".latency .p99"),
            y.latency_ms.p99.map(|v| v.to_string()).unwrap_or_default()
        );
        assert_eq!(value(card, ".max-in-1s"), y.max_in_1s.to_string());
        // A bar per second; one row of the per-client table per client.
        assert_eq!(
            value(card, ".seconds"),
            y.per_second.offered.len().to_string()
        );
        let rows = all(card, ".clients tbody tr");
        assert_eq!(rows.len(), y.clients.len());
        let c = &y.clients[0];
        assert_eq!(value(&rows[0], ".share"), c.share_permille.to_string());
        assert_eq!(
            value(&rows[0], ".rate-429"),
            c.rate_429_permille.to_string()
        );
        // Every attempt held is a tick, and each retry has its arc.
        let ticks = all(card, ".attempts .tick");
        assert_eq!(
            ticks.len() as u64,
            run.retained(j).end - run.retained(j).start
        );
        let retried = run
            .retained(j)
            .filter(|&i| run.attempt(j, i).is_some_and(|a| a.retry.is_some()))
            .count();
        let arcs = all(card, ".attempts .retry-link");
        assert_eq!(arcs.len(), usize::from(retried > 0));
        if retried > 0 {
            let d = attr(&arcs[0], "d");
            assert_eq!(d.matches('M').count(), retried);
        }
    }
    // The variants differ: retrying at once amplifies more than with jitter.
    let amp = |j: usize| run.yardstick(j).unwrap().amplification_permille;
    assert!(amp(0) > amp(3), "{} vs {}", amp(0), amp(3));
}

#[wasm_bindgen_test]
async fn the_service_knobs_rerun_the_service_or_say_why() {
    let root = fresh_root();
    let _p = mount_with(
        &root,
        &[("scenario", "service"), ("limiters", "sliding_log")],
    );
    settle().await;
    assert_eq!(all(&root, ".services article.service").len(), 1);
    change(&root, "service.instances", "3").await;
    change(&root, "service.store", "local").await;
    change(&root, "service.retry", "none").await;
    change(&root, "service.noisy", "8").await;
    let run =
        engine("scenario=service&limiters=sliding_log&noisy=8&retry=none&instances=3&store=local");
    let y = run.yardstick(0).unwrap();
    // Three instances counting on their own let the noisy client through at three
    // times the limit.
    assert_eq!(y.clients[0].max_in_1s, 30);
    let card = find(&root, ".services article.service");
    assert_eq!(value(&card, ".clients tbody tr .max-in-1s"), "30");
    assert_eq!(value(&card, ".offered"), y.offered.to_string());
    // A refused value keeps the service and says why under the field.
    change(&root, "service.outage", "40s-20s").await;
    assert_eq!(
        find(&root, "[name=\"service.outage\"] + .error")
            .text_content()
            .unwrap_or_default(),
        "40s-20s ends before it starts"
    );
    assert_eq!(value(&card, ".offered"), y.offered.to_string());
}

#[wasm_bindgen_test]
async fn each_card_follows_its_first_429_through_the_clients_retries() {
    let root = fresh_root();
    let _p = mount_with(&root, &[("scenario", "retry-storm")]);
    settle().await;
    let run = engine("scenario=retry-storm");
    let cards = all(&root, ".services article.service");
    assert_eq!(cards.len(), run.lane_count());
    let mut followed = 0;
    for (j, card) in cards.iter().enumerate() {
        let held = ratelab_web::draw::service::held_attempts(&run, j);
        let text = |s: &str| find(card, s).text_content().unwrap_or_default();
        let Some((client, steps)) = ratelab_web::draw::service::first_refusal(&held) else {
            assert!(all(card, ".refusal .first").is_empty());
            continue;
        };
        let name = &run.spec(j).unwrap().clients[client as usize].name;
        let first = text(".refusal .first");
        assert!(first.starts_with(&format!("{name} · ")), "{first}");
        let retries = all(card, ".refusal .chain li:not(.ends)");
        assert_eq!(retries.len(), steps.len() - 1, "card {j}");
        for (li, s) in retries.iter().zip(&steps[1..]) {
            let shown = li.text_content().unwrap_or_default();
            let at = ratelab_web::model::time_label(s.t);
            assert!(shown.starts_with(&format!("retries at {at}: ")), "{shown}");
            assert_eq!(shown.ends_with(": allowed"), s.allowed, "{shown}");
        }
        let ended = steps.last().is_some_and(|s| !s.allowed);
        assert_eq!(
            all(card, ".refusal .chain li.ends").len(),
            usize::from(ended)
        );
        followed += steps.len();
    }
    // The retry storm refuses, and its clients retry: something was followed.
    assert!(followed > 1);
}

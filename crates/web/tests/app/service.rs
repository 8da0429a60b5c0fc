//! The service view and the `service` scenario's knobs (a build with the service
//! model: the web crate's `services` feature). Every number on the page is
//! compared with the engine's own report for the same setup.

use ratelab_sim::service::{AfterAttempt, Attempt, ServiceSpec, ServiceTimeline};
use ratelab_sim::share::parse;
use ratelab_web::draw::service::first_refused;
use ratelab_web::model::time_label;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::Element;

use super::{all, attr, change, click, find, fresh_root, mount_with, settle};

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

/// What the panel says an attempt got, written from the engine's attempt (the
/// scenarios tested here have no outage): its status, `Retry-After`, and the
/// ids of the limits its `denied_by` bits name.
fn said_response(spec: &ServiceSpec, a: &Attempt) -> String {
    let by: Vec<&str> = spec
        .limits
        .iter()
        .enumerate()
        .filter(|(i, _)| a.denied_by & (1 << i) != 0)
        .map(|(_, l)| l.lane.id.as_str())
        .collect();
    match (a.status(), a.retry_after_s) {
        (200, _) => "response: 200 OK".to_string(),
        (429, Some(r)) => format!(
            "response: 429 Too Many Requests · Retry-After: {r} · refused by {}",
            by.join(", ")
        ),
        (status, _) => format!("response: {status}"),
    }
}

/// What the panel says the client did after attempt `i` of lane `j`, from the
/// engine's own answer.
fn said_next(run: &ServiceTimeline, j: usize, i: u64) -> (String, &'static str) {
    match run.after(j, i).unwrap() {
        AfterAttempt::Done => ("then: nothing more: the request succeeded".into(), "done"),
        AfterAttempt::Retried(r) => {
            let b = run.attempt(j, r).unwrap();
            let got = match (b.allowed, b.retry_after_s) {
                (true, _) => "allowed".to_string(),
                (false, Some(s)) => format!("{}, Retry-After: {s}", b.status()),
                (false, None) => b.status().to_string(),
            };
            (
                format!("then: retries at {}: {got}", time_label(b.t)),
                "retried",
            )
        }
        AfterAttempt::GaveUp => (
            "then: gives up: that was its last attempt".into(),
            "gave-up",
        ),
        AfterAttempt::NeverRetries => ("then: none: this client never retries".into(), "never"),
    }
}

/// The panel of `card` says what the engine did with attempt `i` of lane `j`.
fn panel_is(card: &Element, run: &ServiceTimeline, j: usize, i: u64) {
    let text = |s: &str| find(card, s).text_content().unwrap_or_default();
    let a = run.attempt(j, i).unwrap();
    let spec = run.spec(j).unwrap();
    let client = &spec.clients[a.client as usize];
    assert_eq!(attr(&find(card, ".refusal"), "data-index"), i.to_string());
    let which = text(".refusal .which");
    let want = format!(
        "{} · {} · attempt {} of {} · #{i}",
        client.name,
        time_label(a.t),
        a.attempt,
        client.retry.max_attempts
    );
    assert!(which.starts_with(&want), "{which} / {want}");
    assert_eq!(text(".refusal .response"), said_response(spec, a));
    assert_eq!(
        attr(&find(card, ".refusal .response"), "data-status"),
        a.status().to_string()
    );
    let (next, kind) = said_next(run, j, i);
    assert_eq!(text(".refusal .next"), next);
    assert_eq!(attr(&find(card, ".refusal .next"), "data-next"), kind);
    // The chain holds every attempt of its request, this one marked current.
    let chain = all(card, ".refusal .chain button");
    let current: Vec<String> = chain
        .iter()
        .filter(|b| attr(b, "aria-current") == "true")
        .map(|b| attr(b, "data-i"))
        .collect();
    assert_eq!(current, [i.to_string()]);
    let first: u64 = attr(&chain[0], "data-i").parse().unwrap();
    assert_eq!(first, u64::from(a.original));
    // And the ring in the picture sits on its tick.
    let ring = find(card, ".attempts-strip .ring .selected-attempt line");
    let tick = find(card, &format!(".attempts .tick[data-i=\"{i}\"]"));
    assert_eq!(attr(&ring, "x1"), attr(&tick, "x1"));
}

fn click_at(el: &Element, x: f64, y: f64) {
    let e = web_sys::MouseEvent::new_with_mouse_event_init_dict("click", &{
        let init = web_sys::MouseEventInit::new();
        init.set_bubbles(true);
        init.set_client_x(x.round() as i32);
        init.set_client_y(y.round() as i32);
        init
    })
    .unwrap();
    el.dispatch_event(&e).unwrap();
}

#[wasm_bindgen_test]
async fn each_card_opens_on_its_first_429_and_follows_any_attempt_clicked() {
    let root = fresh_root();
    let _p = mount_with(&root, &[("scenario", "retry-storm")]);
    settle().await;
    let run = engine("scenario=retry-storm");
    let cards = all(&root, ".services article.service");
    assert_eq!(cards.len(), run.lane_count());
    // Each card opens on its lane's first refused request.
    for (j, card) in cards.iter().enumerate() {
        let first = first_refused(&run, j).unwrap();
        panel_is(card, &run, j, first);
    }
    // Retrying at once: that first 429 comes back in the same millisecond.
    assert_eq!(
        attr(&find(&cards[0], ".refusal .next"), "data-next"),
        "retried"
    );
    // Retry-After with jitter (lane 2): click the retry its client sent after
    // the first refusal, in the picture.
    let j = 2;
    let card = &cards[j];
    let first = first_refused(&run, j).unwrap();
    let Some(AfterAttempt::Retried(retry)) = run.after(j, first) else {
        panic!("the first refusal is retried")
    };
    let tick = find(card, &format!(".attempts .tick[data-i=\"{retry}\"]"));
    // Where the tick is drawn, from its coordinates in the picture's viewBox
    // (Firefox gives an SVG line no bounding box of its own).
    let num = |el: &Element, name: &str| attr(el, name).parse::<f64>().unwrap();
    let svg = find(card, ".attempts-strip svg.attempts");
    let view: Vec<f64> = attr(&svg, "viewBox")
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    let p = find(card, ".attempts-strip .plot").get_bounding_client_rect();
    let x = p.left() + num(&tick, "x1") / view[2] * p.width();
    let y = p.top() + (num(&tick, "y1") + num(&tick, "y2")) / 2.0 / view[3] * p.height();
    click_at(&tick, x, y);
    settle().await;
    panel_is(card, &run, j, retry);
    assert!(find(card, ".refusal .which")
        .text_content()
        .unwrap_or_default()
        .contains(&format!(
            "its request's first try {} (#{first})",
            time_label(run.attempt(j, first).unwrap().t)
        )));
    // The other cards keep their own selection.
    panel_is(&cards[0], &run, 0, first_refused(&run, 0).unwrap());
    // Step to the next attempt, back to the first refusal, then through the chain.
    click(card, ".refusal .later").await;
    panel_is(card, &run, j, retry + 1);
    click(card, ".refusal .earlier").await;
    panel_is(card, &run, j, retry);
    click(card, ".refusal .first-refusal").await;
    panel_is(card, &run, j, first);
    click(card, &format!(".refusal .chain button[data-i=\"{retry}\"]")).await;
    panel_is(card, &run, j, retry);
}

#[wasm_bindgen_test]
async fn a_new_run_follows_its_own_first_refusal() {
    let root = fresh_root();
    let _p = mount_with(
        &root,
        &[("scenario", "service"), ("limiters", "token_bucket")],
    );
    settle().await;
    let card = find(&root, ".services article.service");
    click(&card, ".refusal .later").await;
    change(&root, "service.noisy", "8").await;
    let run = engine("scenario=service&limiters=token_bucket&noisy=8");
    let card = find(&root, ".services article.service");
    match first_refused(&run, 0) {
        Some(i) => panel_is(&card, &run, 0, i),
        None => assert!(!all(&card, ".refusal .none").is_empty()),
    }
}

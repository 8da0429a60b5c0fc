//! The service view's drawings checked natively.

use super::*;

#[test]
fn percentages_are_exact() {
    assert_eq!(percent(0), "0.0 %");
    assert_eq!(percent(125), "12.5 %");
    assert_eq!(percent(1000), "100.0 %");
}

#[test]
fn the_bars_stack_allowed_under_refused_to_the_offered_load() {
    let ps = PerSecond {
        demand: vec![4, 2],
        offered: vec![4, 8],
        allowed: vec![4, 2],
        refused: vec![0, 6],
    };
    let svg = per_second_chart(&ps, &[]);
    let s = svg.as_str();
    // The tallest bar is the offered 8: second 1's refused part is 6/8 of the
    // height above its allowed 2/8.
    assert!(
        s.contains(r#"<rect class="allowed" x="10" y="75" width="9" height="25"/>"#),
        "{s}"
    );
    assert!(
        s.contains(r#"<rect class="refused" x="10" y="0" width="9" height="75"/>"#),
        "{s}"
    );
    assert!(
        s.contains(r#"<path class="demand" d="M0 50H10L10 75H20""#),
        "{s}"
    );
}

fn run(id: ratelab_sim::ScenarioId) -> ServiceTimeline {
    ServiceTimeline::new(&ratelab_sim::service::service_scenario(id, 1).unwrap()).unwrap()
}

#[test]
fn any_attempt_is_followed_to_what_its_client_did_next() {
    use ratelab_sim::ScenarioId;
    let storm = run(ScenarioId::RetryStorm);
    // "retry at once": the first refusal is a first try, retried in the same
    // millisecond four times, each 429, then the client gives up (5 attempts).
    let first = first_refused(&storm, 0).unwrap();
    let f = follow(&storm, 0, first).unwrap();
    assert_eq!((f.attempt, f.max_attempts, f.original), (1, 5, first));
    assert_eq!(f.step.response.status, 429);
    assert_eq!(f.step.response.retry_after_s, Some(1));
    assert_eq!(f.chain.len(), 5);
    assert!(f
        .chain
        .iter()
        .all(|s| s.t == f.step.t && s.response.status == 429));
    let Next::Retried(retry) = &f.next else {
        panic!("{:?}", f.next)
    };
    assert_eq!(retry, &f.chain[1]);
    // Its last attempt: the same request, the same chain, and it gave up.
    let last = follow(&storm, 0, f.chain[4].index).unwrap();
    assert_eq!((last.attempt, last.original), (5, first));
    assert_eq!(last.chain, f.chain);
    assert_eq!(last.next, Next::GaveUp);
    // Retry-After with jitter: the first refusal's retry comes a second or
    // more later and is allowed; the retry, followed, is done.
    let jitter = follow(&storm, 2, first_refused(&storm, 2).unwrap()).unwrap();
    let Next::Retried(r) = &jitter.next else {
        panic!("{:?}", jitter.next)
    };
    assert!(
        r.t >= jitter.step.t + 1_000 && r.response.status == 200,
        "{r:?}"
    );
    assert_eq!(follow(&storm, 2, r.index).unwrap().next, Next::Done);
    // Nothing past the run, nothing of a lane that is not there.
    assert_eq!(follow(&storm, 0, storm.retained(0).end), None);
    assert_eq!(follow(&storm, 9, 0), None);
}

#[test]
fn a_refusal_names_its_stacked_limit_or_the_store() {
    use ratelab_sim::ScenarioId;
    let stacked = run(ScenarioId::StackedLimits);
    // The third variant stacks 10/s on 100/min: each refusal names a limit.
    let held = held_attempts(&stacked, 2);
    let spec = stacked.spec(2).unwrap();
    let ids: Vec<&str> = spec.limits.iter().map(|l| l.lane.id.as_str()).collect();
    let mut named = std::collections::BTreeSet::new();
    for &(i, a) in held.iter().filter(|(_, a)| !a.allowed) {
        let f = follow(&stacked, 2, i).unwrap();
        assert!(!f.step.response.refused_by.is_empty());
        for id in &f.step.response.refused_by {
            let bit = ids.iter().position(|x| x == id).unwrap();
            assert_ne!(a.denied_by & (1 << bit), 0);
            named.insert(id.clone());
        }
        // Nobody retries in this scenario.
        assert_eq!(f.next, Next::NeverRetries);
    }
    assert_eq!(named.len(), 2, "{named:?}");
    // The store down, failing closed: a 503 without Retry-After.
    let outage = run(ScenarioId::StoreOutage);
    let (i, _) = held_attempts(&outage, 1)
        .into_iter()
        .find(|(_, a)| a.decider == Decider::FailClosed)
        .unwrap();
    let f = follow(&outage, 1, i).unwrap();
    assert_eq!(f.step.response.status, 503);
    assert_eq!(f.step.response.retry_after_s, None);
    assert!(f.step.response.refused_by.is_empty());
}

#[test]
fn a_click_picks_the_nearest_attempt_in_its_row() {
    let at = |t: u64, client: u32| Attempt {
        t,
        client,
        route: 0,
        attempt: 1,
        original: 0,
        retry: None,
        instance: 0,
        allowed: true,
        wait_ms: 0,
        decider: Decider::Limits,
        denied_by: 0,
        retry_after_s: None,
    };
    let attempts = [at(0, 0), at(400, 1), at(500, 0), at(500, 0), at(1_000, 1)];
    let held: Vec<(u64, &Attempt)> = (0u64..).zip(attempts.iter()).collect();
    let rows = client_rows(&held, 2);
    let pick = |row, x| attempt_at(&held, &rows, 1_000, row, x, 0.05);
    assert_eq!(pick(0, 0.01), Some(0));
    // Two at the same time: the earlier index.
    assert_eq!(pick(0, 0.52), Some(2));
    assert_eq!(pick(1, 0.42), Some(1));
    assert_eq!(pick(1, 0.99), Some(4));
    // Too far from any tick of the row, or a row with none.
    assert_eq!(pick(0, 0.75), None);
    assert_eq!(pick(5, 0.5), None);
    assert_eq!(attempt_at(&[], &rows, 1_000, 0, 0.5, 1.0), None);
    // The ring is at the attempt's tick: 500 of 1 000 ms in a 1 000 wide box.
    let ring = selected_mark(&attempts[2], &rows, 1_000);
    assert!(
        ring.as_str()
            .contains(r#"x1="500" x2="500" y1="0" y2="12""#),
        "{}",
        ring.as_str()
    );
}

#[test]
fn the_clients_refused_most_get_the_named_rows() {
    let at = |client: u32, allowed: bool| Attempt {
        t: 0,
        client,
        route: 0,
        attempt: 1,
        original: 0,
        retry: None,
        instance: 0,
        allowed,
        wait_ms: 0,
        decider: ratelab_sim::service::Decider::Limits,
        denied_by: u16::from(!allowed),
        retry_after_s: None,
    };
    assert_eq!(client_rows(&[], 3), [0, 1, 2]);
    assert_eq!(client_rows(&[], 0), Vec::<usize>::new());
    // Ten clients: 9 and 4 were refused (9 twice), so they are named first,
    // then the lowest indices; the rest share the last row.
    let attempts = [at(9, false), at(9, false), at(4, false), at(1, true)];
    let held: Vec<(u64, &Attempt)> = (0u64..).zip(attempts.iter()).collect();
    let rows = client_rows(&held, 10);
    let last = MAX_ROWS - 1;
    assert_eq!(rows, [0, 1, 2, 3, 4, 5, last, last, last, 6]);
}

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
    let t = crate::texts::service::SERVICE.get(crate::texts::Lang::En);
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
        next_line(
            crate::texts::service::SERVICE.get(crate::texts::Lang::En),
            &retry
        ),
        "then: retries at 12.4 s: allowed"
    );
    assert_eq!(
        next_line(
            crate::texts::service::SERVICE.get(crate::texts::Lang::Vi),
            &retry
        ),
        "sau đó: thử lại lúc 12.4 s: cho qua"
    );
    assert_eq!(
        next_line(
            crate::texts::service::SERVICE.get(crate::texts::Lang::En),
            &Next::GaveUp
        ),
        "then: gives up: that was its last attempt"
    );
    assert_eq!(next_kind(&Next::NeverRetries), "never");
}

#[test]
fn the_followed_attempts_panel_is_escaped_html_with_its_buttons() {
    use crate::texts::service::{KNOBS, SERVICE};
    use crate::texts::Lang;
    let storm = run(ratelab_sim::ScenarioId::RetryStorm);
    let first = first_refused(&storm, 0).unwrap();
    let f = follow(&storm, 0, first).unwrap();
    let (t, k) = (SERVICE.get(Lang::En), KNOBS.get(Lang::En));
    let html = followed_html(Some((&f, "<b>&", Backoff::Immediately)), t, k);
    let h = html.as_str();
    // A name from a spec is text, never markup.
    assert!(
        h.starts_with(r#"<p class="which">&lt;b&gt;&amp; · 10 s · attempt 1 of 5 · #"#),
        "{h}"
    );
    assert!(h.contains(r#"<p class="response" data-status="429">response: 429 Too Many Requests · Retry-After: 1 · refused by 50/s</p>"#), "{h}");
    assert!(
        h.contains(
            r#"<p class="next" data-next="retried">then: retries at 10 s: 429, Retry-After: 1</p>"#
        ),
        "{h}"
    );
    assert!(h.contains(&format!(r#"<button type="button" data-i="{first}" aria-current="true">10 s: 429, Retry-After: 1</button>"#)), "{h}");
    assert_eq!(h.matches("<button").count(), f.chain.len());
    assert_eq!(h.matches("aria-current").count(), 1);
    assert_eq!(
        followed_html(None, t, k).as_str(),
        format!(
            r#"<p class="none">{}</p>"#,
            t.no_refusal.replace('\'', "&#39;")
        )
    );
}

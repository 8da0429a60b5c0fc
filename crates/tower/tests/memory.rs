//! The in-memory layer on a real server, driven by a real HTTP client on an injected
//! clock: exactly the engine's decisions and headers for every limiter, and exactly
//! the service model's answers for stacked limits, keys and route costs.

mod support;

use std::collections::HashMap;

use axum::routing::get;
use axum::Router;
use http::request::Parts;
use ratelab_core::{Algorithm, AnyLimiter, Dialect, Keyed, Limiter};
use ratelab_sim::service::{run_service, KeyMode, ServiceSpec};
use ratelab_sim::{run, scenario, Config, Overrides, ScenarioId};
use ratelab_tower::{Key, Limit, ManualClock, RateLimitLayer, REFUSED_BY};
use support::{get_with, serve, serve_layer};

fn header_of(p: &Parts, name: &str) -> String {
    p.headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

/// Every limiter, one route each, on lab D's keyed Poisson stream: each response's
/// status, rate-limit fields and body are the engine's for that request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_limiter_answers_as_the_engine_on_a_scenario_schedule() {
    let limiters: Vec<String> = Algorithm::ALL[..8]
        .iter()
        .map(|a| {
            let extra = match a {
                Algorithm::Nginx => ", \"burst\": 3, \"delay\": 1",
                Algorithm::LeakyQueue => ", \"burst\": 4",
                _ => "",
            };
            format!(
                "{{\"algorithm\": \"{}\", \"limit\": 5, \"period_ms\": 4000{extra}}}",
                a.id()
            )
        })
        .collect();
    let input = format!(
        "{{\"scenario\": \"lab-d\", \"seed\": 3, \"clients\": 4, \"limiters\": [{}]}}",
        limiters.join(", ")
    );
    let config = Config::from_json(&input).unwrap();
    let mut stream = config.stream.clone();
    // Lab D runs 10 minutes; its first 400 requests are plenty.
    stream.requests.truncate(400);
    assert!(stream.requests.len() == 400 && stream.keys.len() > 2);
    let report = run(&Config::new(stream.clone(), config.lanes.clone(), None)).unwrap();

    let clock = ManualClock::new(0);
    let mut app = Router::new();
    let mut engines = Vec::new();
    for (lane, json) in config.lanes.iter().zip(&limiters) {
        let layer = RateLimitLayer::builder()
            .limit(Limit::from_json(json).unwrap())
            .key(Key::from_fn(|p| header_of(p, "x-client")))
            .clock(clock.clone())
            .hold_delayed(false)
            .build()
            .unwrap();
        app = app.route(
            &format!("/{}", lane.id),
            get(|| async { "ok" }).layer(layer),
        );
        engines.push(Keyed::new(lane.build().unwrap()));
    }
    let server = serve(app).await;

    for (n, r) in stream.requests.iter().enumerate() {
        clock.set(r.t);
        let key = stream.key_name(r.key).unwrap();
        for (j, lane) in config.lanes.iter().enumerate() {
            let reply = get_with(server.addr, &format!("/{}", lane.id), &[("x-client", key)]).await;
            let engine: &mut Keyed<AnyLimiter> = &mut engines[j];
            let policy = engine.get(key).policy();
            let h = engine.check(key, r.t, r.cost).unwrap().headers(&policy);
            let at = format!("{} request {n} (t = {}, key {key:?})", lane.id, r.t);
            assert_eq!(
                reply.status.as_u16() == 200,
                report.results[j].allowed[n],
                "{at}: the engine's run"
            );
            assert_eq!(reply.status.as_u16(), h.status, "{at}");
            let mut fields = h.fields(Dialect::Ietf);
            fields.extend(h.fields(Dialect::Common));
            for (name, value) in fields {
                assert_eq!(reply.header(name), value, "{at}: {name}");
            }
            if h.status == 429 {
                assert_eq!(Some(reply.body.clone()), h.body(), "{at}");
                assert_eq!(reply.header(REFUSED_BY), lane.id, "{at}");
            } else {
                assert_eq!(reply.body, "ok", "{at}");
                assert_eq!(reply.header("retry-after"), "", "{at}");
            }
        }
    }
}

/// A layer as the service model's variant `spec` (one instance): its limits with
/// their keys and routes, its routes' costs, the client from `x-client`.
fn layer_like(spec: &ServiceSpec, clock: &ManualClock) -> RateLimitLayer {
    let mut b = RateLimitLayer::builder()
        .clock(clock.clone())
        .hold_delayed(false)
        .key(Key::from_fn(|p| header_of(p, "x-client")));
    let costs: HashMap<String, u32> = spec
        .routes
        .iter()
        .map(|r| (format!("/{}", r.name), r.cost))
        .collect();
    b = b.cost(move |p| costs.get(p.uri.path()).copied().unwrap_or(1));
    for l in &spec.limits {
        let json = format!(
            "{{\"algorithm\": \"{}\", \"id\": \"{}\", \"limit\": {}, \"period_ms\": {}{}}}",
            l.lane.algorithm.id(),
            l.lane.id,
            l.lane.params.limit,
            l.lane.params.period_ms,
            l.lane
                .params
                .burst
                .map(|b| format!(", \"burst\": {b}"))
                .unwrap_or_default()
        );
        let mut limit = Limit::from_json(&json).unwrap();
        limit = match l.key {
            KeyMode::Client => limit,
            KeyMode::Global => limit.key(Key::Global),
            KeyMode::ClientRoute => limit.key(Key::from_fn(|p| {
                format!("{}{}", header_of(p, "x-client"), p.uri.path())
            })),
        };
        if let Some(routes) = &l.routes {
            let paths: Vec<String> = routes
                .iter()
                .map(|&r| format!("/{}", spec.routes[r as usize].name))
                .collect();
            limit = limit.only(move |p| paths.iter().any(|x| x == p.uri.path()));
        }
        b = b.limit(limit);
    }
    b.build().unwrap()
}

/// Drives the layer with the model's attempts (their times, clients and routes) and
/// holds every answer to the model's: the status and the limits that refused.
async fn holds_to_the_model(id: ScenarioId) {
    let config = scenario(id, &Overrides::default()).unwrap();
    for spec in config.services.unwrap() {
        assert_eq!(spec.instances, 1);
        let model = run_service(&spec, "services[0]").unwrap();
        let clock = ManualClock::new(0);
        let mut app = Router::new();
        for r in &spec.routes {
            app = app.route(&format!("/{}", r.name), get(|| async { "ok" }));
        }
        let server = serve(app.layer(layer_like(&spec, &clock))).await;
        let mut refused = 0;
        for (n, a) in model.attempts.iter().enumerate() {
            clock.set(a.t);
            let client = &spec.clients[a.client as usize].name;
            let route = &spec.routes[a.route as usize].name;
            let reply = get_with(server.addr, &format!("/{route}"), &[("x-client", client)]).await;
            let at = format!("{} attempt {n} (t = {}, {client} on {route})", spec.id, a.t);
            assert_eq!(reply.status.as_u16(), a.status(), "{at}");
            let denied: Vec<&str> = (0..spec.limits.len())
                .filter(|i| a.denied_by & (1 << i) != 0)
                .map(|i| spec.limits[i].lane.id.as_str())
                .collect();
            assert_eq!(reply.header(REFUSED_BY), denied.join(","), "{at}");
            if a.status() == 429 {
                refused += 1;
                assert_eq!(
                    reply.header("retry-after"),
                    a.retry_after_s.unwrap().to_string(),
                    "{at}"
                );
            }
        }
        assert_eq!(refused, model.yardstick.status_429, "{}", spec.id);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stacked_limits_refuse_as_the_model_and_say_which() {
    holds_to_the_model(ScenarioId::StackedLimits).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn route_costs_and_route_limits_answer_as_the_model() {
    holds_to_the_model(ScenarioId::ExpensiveRoute).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn per_client_and_global_keys_answer_as_the_model() {
    holds_to_the_model(ScenarioId::NoisyNeighbour).await;
}

/// The client's address is the default key: a layer keyed so counts 127.0.0.1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_peer_address_is_the_default_key() {
    let clock = ManualClock::new(1000);
    let layer = RateLimitLayer::builder()
        .limit(
            Limit::from_json(r#"{"algorithm": "fixed_window", "limit": 2, "period_ms": 60000}"#)
                .unwrap(),
        )
        .clock(clock.clone())
        .build()
        .unwrap();
    let server = serve_layer(layer).await;
    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(support::get(server.addr, "/").await.status.as_u16());
    }
    assert_eq!(statuses, [200, 200, 429]);
}

/// A configuration the engine refuses is refused at build, with the engine's line.
#[test]
fn bad_configs_are_refused_at_build_with_one_line() {
    let err = |r: Result<Limit, ratelab_tower::BuildError>| r.unwrap_err().to_string();
    assert_eq!(
        err(Limit::from_json(
            r#"{"algorithm": "gcra", "limit": 5, "period_ms": 0}"#
        )),
        "period_ms: must be > 0"
    );
    assert_eq!(
        err(Limit::from_json(r#"{"algorithm": "gcra", "limit": 5, "period_ms": 1000, "burts": 2}"#)),
        "burts: unknown field (expected one of algorithm, id, limit, period_ms, burst, delay, nodelay)"
    );
    let line = err(Limit::from_json(
        r#"{"algorithm": "leaky_bucket", "limit": 5, "period_ms": 1000}"#,
    ));
    assert!(
        line.starts_with(
            "algorithm: unknown algorithm \"leaky_bucket\" (expected one of fixed_window, "
        ),
        "{line}"
    );
    assert_eq!(
        err(Limit::new(
            Algorithm::TokenBucket,
            ratelab_tower::Params {
                burst: Some(0),
                ..ratelab_tower::Params::new(5, 1000)
            }
        )),
        "burst: must be > 0"
    );
    let build = |b: ratelab_tower::Builder| match b.build() {
        Ok(_) => panic!("built"),
        Err(e) => e.to_string(),
    };
    assert_eq!(
        build(RateLimitLayer::builder()),
        "limits: give at least one limit"
    );
    let gcra =
        || Limit::from_json(r#"{"algorithm": "gcra", "limit": 5, "period_ms": 1000}"#).unwrap();
    assert_eq!(
        build(RateLimitLayer::builder().limit(gcra()).limit(gcra())),
        "limits[1].id: duplicate id \"gcra\" (give each limit its own id)"
    );
    #[cfg(feature = "redis")]
    {
        // Lua's doubles hold less than the engine: refused when the store is Redis.
        let huge = || {
            Limit::from_json(r#"{"algorithm": "gcra", "limit": 10, "period_ms": 1125899906842624}"#)
                .unwrap()
        };
        assert!(RateLimitLayer::builder().limit(huge()).build().is_ok());
        let line = build(
            RateLimitLayer::builder()
                .limit(huge())
                .redis("redis://127.0.0.1:1"),
        );
        assert!(line.starts_with("limits[0].burst: "), "{line}");
        assert!(!line.contains('\n'));
        let line = build(RateLimitLayer::builder().limit(gcra()).redis("http://x"));
        assert!(
            line.starts_with("redis: \"http://x\" is not a Redis URL"),
            "{line}"
        );
        assert!(!line.contains('\n'));
    }
}

/// A retry to send: its time, when it was scheduled, client, route and attempt.
type Retry = (u64, u64, u32, u32, u32);

/// Clients that honour `Retry-After`: each first try at the model's time; on a 429
/// the client reads the header and comes back that many seconds later (no jitter),
/// up to its attempts. The attempts they make, and what each gets, are the model's
/// (`page-load` and `retry-storm`, their "Retry-After" variants).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_honouring_retry_after_retry_as_the_model() {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    for (id, variant) in [
        (ScenarioId::PageLoad, "burst 1, Retry-After"),
        (ScenarioId::RetryStorm, "Retry-After"),
    ] {
        let config = scenario(id, &Overrides::default()).unwrap();
        let spec = config
            .services
            .unwrap()
            .into_iter()
            .find(|s| s.id == variant)
            .unwrap();
        let model = run_service(&spec, "services[0]").unwrap();
        let clock = ManualClock::new(0);
        let mut app = Router::new();
        for r in &spec.routes {
            app = app.route(&format!("/{}", r.name), get(|| async { "ok" }));
        }
        let server = serve(app.layer(layer_like(&spec, &clock))).await;

        // First tries in the model's order; retries by time, then by when scheduled.
        let firsts: Vec<(u64, u32, u32)> = model
            .attempts
            .iter()
            .filter(|a| a.attempt == 1)
            .map(|a| (a.t, a.client, a.route))
            .collect();
        let mut next_first = 0;
        let mut retries: BinaryHeap<Reverse<Retry>> = BinaryHeap::new();
        let mut scheduled = 0u64;
        let mut made: Vec<(u64, u32, u32, u16)> = Vec::new();
        loop {
            let first = firsts.get(next_first).copied();
            let retry = retries.peek().map(|Reverse(r)| *r);
            let (t, client, route, attempt) = match (first, retry) {
                (Some(f), Some(r)) if r.0 < f.0 => {
                    retries.pop();
                    (r.0, r.2, r.3, r.4)
                }
                (Some(f), _) => {
                    next_first += 1;
                    (f.0, f.1, f.2, 1)
                }
                (None, Some(r)) => {
                    retries.pop();
                    (r.0, r.2, r.3, r.4)
                }
                (None, None) => break,
            };
            clock.set(t);
            let name = &spec.clients[client as usize].name;
            let path = format!("/{}", spec.routes[route as usize].name);
            let reply = get_with(server.addr, &path, &[("x-client", name)]).await;
            let status = reply.status.as_u16();
            made.push((t, client, attempt, status));
            if status == 429 && attempt < spec.clients[client as usize].retry.max_attempts {
                let after: u64 = reply.header("retry-after").parse().unwrap();
                scheduled += 1;
                retries.push(Reverse((
                    t + after * 1000,
                    scheduled,
                    client,
                    route,
                    attempt + 1,
                )));
            }
        }
        let expected: Vec<(u64, u32, u32, u16)> = model
            .attempts
            .iter()
            .map(|a| (a.t, a.client, a.attempt, a.status()))
            .collect();
        assert!(expected.iter().any(|a| a.2 > 1), "{variant}: no retries");
        assert_eq!(made.len(), expected.len(), "{variant}");
        for (n, (got, want)) in made.iter().zip(&expected).enumerate() {
            assert_eq!(got, want, "{variant}: attempt {n}");
        }
    }
}

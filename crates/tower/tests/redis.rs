//! The layer on a real redis-server: three instances sharing it hold one limit where
//! three with local stores let three times as much through; a server killed mid-run
//! and started again gets each outage policy's answers, the service model's to the
//! request; and Redis failing in other ways (no server, a server that never answers,
//! a key holding something else, a flushed script cache) gets the policy's answer
//! and one line per outage, never a panic or a hung request.
//!
//! Every limit here is per hour, so the seconds a test takes on the server's clock
//! never change a decision, and the model's virtual times can be held to the counts
//! exactly: requests are sent one at a time and none is in flight while the server
//! is killed or started again, so the tolerance is zero.

mod support;

use std::net::TcpListener as StdListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ratelab_redis::server::RedisServer;
use ratelab_scripts::KeySpace;
use ratelab_sim::service::run_service;
use ratelab_sim::Config;
use ratelab_tower::{Key, Limit, OnStoreDown, RateLimitLayer, StoreEvent};
use support::{get, get_with, serve_layer, Server};

const HOURLY_10: &str = r#"{"algorithm": "sliding_log", "limit": 10, "period_ms": 3600000}"#;
const HOURLY_5: &str = r#"{"algorithm": "token_bucket", "limit": 5, "period_ms": 3600000}"#;
const HOURLY_2: &str = r#"{"algorithm": "token_bucket", "limit": 2, "period_ms": 3600000}"#;

/// The events a layer reported.
#[derive(Clone, Default)]
struct Events(Arc<Mutex<Vec<StoreEvent>>>);

impl Events {
    fn sink(&self) -> impl Fn(&StoreEvent) + Send + Sync + 'static {
        let events = self.0.clone();
        move |e: &StoreEvent| events.lock().unwrap().push(e.clone())
    }
    fn take(&self) -> Vec<StoreEvent> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

/// The model's statuses for one client sending at `times` to a service of
/// `instances` (round robin) with `store` and `extra` JSON fields.
fn model(times: &[u64], limit: &str, instances: u32, store: &str, extra: &str) -> Vec<u16> {
    let times: Vec<String> = times.iter().map(u64::to_string).collect();
    let json = format!(
        r#"{{"services": [{{"id": "x", "clients": [{{"name": "c", "demand": {{"kind": "times", "times": [{}]}}}}],
            "limits": [{limit}], "instances": {instances}, "store": "{store}", "duration_ms": 100000{extra}}}]}}"#,
        times.join(", ")
    );
    let config = Config::from_json(&json).unwrap();
    let spec = &config.services.unwrap()[0];
    let report = run_service(spec, "services[0]").unwrap();
    report.attempts.iter().map(|a| a.status()).collect()
}

fn count(statuses: &[u16], status: u16) -> usize {
    statuses.iter().filter(|&&s| s == status).count()
}

async fn instances(layers: Vec<RateLimitLayer>) -> Vec<Server> {
    let mut out = Vec::new();
    for l in layers {
        out.push(serve_layer(l).await);
    }
    out
}

/// Sends `n` requests round robin over `servers`; the statuses in order.
async fn round_robin(servers: &[Server], n: usize) -> Vec<u16> {
    let mut out = Vec::new();
    for i in 0..n {
        out.push(
            get(servers[i % servers.len()].addr, "/")
                .await
                .status
                .as_u16(),
        );
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_instances_share_one_limit_on_redis_and_triple_it_locally() {
    let redis = RedisServer::start().unwrap();
    let layer = |shared: bool| {
        let b = RateLimitLayer::builder().limit(Limit::from_json(HOURLY_10).unwrap());
        if shared {
            b.redis(&redis.url()).redis_prefix("tower-shared")
        } else {
            b
        }
        .build()
        .unwrap()
    };
    let times: Vec<u64> = (0..60).collect();
    for (shared, store) in [(true, "shared"), (false, "local")] {
        let servers = instances(vec![layer(shared), layer(shared), layer(shared)]).await;
        let got = round_robin(&servers, times.len()).await;
        let expected = model(&times, HOURLY_10, 3, store, "");
        assert_eq!(got, expected, "{store}");
        assert_eq!(count(&got, 200), if shared { 10 } else { 30 }, "{store}");
    }
    // What the shared run left: one limiter key (the sliding log's two Redis keys).
    let mut conn = redis.connect().unwrap();
    let keys = conn
        .command(ratelab_redis::redis::cmd("KEYS").arg("tower-shared:*"))
        .unwrap();
    let ratelab_redis::redis::Value::Array(keys) = keys else {
        panic!("{keys:?}")
    };
    assert_eq!(keys.len(), 2, "{keys:?}");
}

/// Ten requests with the server up, ten with it killed, ten after it is started
/// again (with its data: AOF, fsync always), under each policy; the model with the
/// store down for the middle ten.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_gets_each_policys_answers_as_the_model() {
    let policies: [(&str, OnStoreDown, [usize; 3]); 3] = [
        ("\"fail_open\"", OnStoreDown::FailOpen, [15, 15, 0]),
        ("\"fail_closed\"", OnStoreDown::FailClosed, [5, 15, 10]),
        (
            "{\"fallback\": {\"algorithm\": \"token_bucket\", \"limit\": 2, \"period_ms\": 3600000}}",
            OnStoreDown::Fallback(Box::new(Limit::from_json(HOURLY_2).unwrap().id("fallback"))),
            [7, 23, 0],
        ),
    ];
    let times: Vec<u64> = (0..30).collect();
    for (json, policy, [ok, refused, unavailable]) in policies {
        let mut redis =
            RedisServer::start_with(&["--appendonly", "yes", "--appendfsync", "always"]).unwrap();
        let events = Events::default();
        let layer = RateLimitLayer::builder()
            .limit(Limit::from_json(HOURLY_5).unwrap())
            .redis(&redis.url())
            .on_store_down(policy)
            .on_event(events.sink())
            .build()
            .unwrap();
        let server = serve_layer(layer).await;
        let mut got = round_robin(std::slice::from_ref(&server), 10).await;
        redis.kill();
        got.extend(round_robin(std::slice::from_ref(&server), 10).await);
        redis.start_again().unwrap();
        got.extend(round_robin(std::slice::from_ref(&server), 10).await);

        let outage =
            format!(r#", "outages": [{{"from_ms": 10, "to_ms": 20}}], "on_outage": {json}"#);
        let expected = model(&times, HOURLY_5, 1, "shared", &outage);
        assert_eq!(got, expected, "{json}");
        assert_eq!(
            [count(&got, 200), count(&got, 429), count(&got, 503)],
            [ok, refused, unavailable],
            "{json}"
        );
        // One line when it went, one when it came back.
        let events = events.take();
        assert_eq!(events.len(), 2, "{json}: {events:?}");
        assert!(matches!(&events[0], StoreEvent::Down { error } if error.contains(&redis.url())));
        assert_eq!(
            events[1],
            StoreEvent::Up {
                answered_by_policy: 10
            }
        );
    }
}

/// A loopback address that accepts connections and never answers.
fn silent_server() -> (StdListener, String) {
    let l = StdListener::bind("127.0.0.1:0").unwrap();
    let url = format!("redis://{}", l.local_addr().unwrap());
    (l, url)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_never_answers_gets_the_policy_after_the_timeout() {
    // The kernel completes connections into the backlog; nobody reads or answers.
    let (_listener, url) = silent_server();
    for (policy, status) in [(OnStoreDown::FailClosed, 503), (OnStoreDown::FailOpen, 200)] {
        let events = Events::default();
        let layer = RateLimitLayer::builder()
            .limit(Limit::from_json(HOURLY_5).unwrap())
            .redis(&url)
            .timeout(Duration::from_millis(100))
            .on_store_down(policy)
            .on_event(events.sink())
            .build()
            .unwrap();
        let server = serve_layer(layer).await;
        // Concurrent requests too: each is answered, none waits for another's timeout
        // beyond its own.
        let mut tasks = Vec::new();
        for _ in 0..6 {
            let addr = server.addr;
            tasks.push(tokio::spawn(async move { get(addr, "/").await }));
        }
        for t in tasks {
            let reply = t.await.unwrap();
            assert_eq!(reply.status.as_u16(), status);
            if status == 503 {
                assert_eq!(reply.body, ratelab_tower::UNAVAILABLE_BODY);
                assert_eq!(reply.header("retry-after"), "");
            }
        }
        let events = events.take();
        assert_eq!(events.len(), 1, "{events:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_server_at_all_gets_the_fallback() {
    let port = ratelab_redis::server::free_port().unwrap();
    let events = Events::default();
    let layer = RateLimitLayer::builder()
        .limit(Limit::from_json(HOURLY_5).unwrap())
        .redis(&format!("redis://127.0.0.1:{port}"))
        .on_store_down(OnStoreDown::Fallback(Box::new(
            Limit::from_json(HOURLY_2).unwrap().id("fallback"),
        )))
        .on_event(events.sink())
        .build()
        .unwrap();
    let server = serve_layer(layer).await;
    let got = round_robin(std::slice::from_ref(&server), 5).await;
    assert_eq!(got, [200, 200, 429, 429, 429]);
    let reply = get(server.addr, "/").await;
    assert_eq!(reply.header(ratelab_tower::REFUSED_BY), "fallback");
    assert_eq!(reply.header("x-ratelimit-limit"), "2");
    assert_eq!(events.take().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_holding_something_else_fails_closed_and_is_left_alone() {
    let redis = RedisServer::start().unwrap();
    let mut conn = redis.connect().unwrap();
    let key = KeySpace::new("tower-wrong")
        .unwrap()
        .key("token_bucket", "alice");
    conn.command(ratelab_redis::redis::cmd("RPUSH").arg(&key).arg("x"))
        .unwrap();
    let events = Events::default();
    let layer = RateLimitLayer::builder()
        .limit(Limit::from_json(HOURLY_5).unwrap())
        .key(Key::header("x-user").unwrap())
        .redis(&redis.url())
        .redis_prefix("tower-wrong")
        .on_store_down(OnStoreDown::FailClosed)
        .on_event(events.sink())
        .build()
        .unwrap();
    let server = serve_layer(layer).await;
    let alice = [("x-user", "alice")];
    for _ in 0..3 {
        assert_eq!(
            get_with(server.addr, "/", &alice).await.status.as_u16(),
            503
        );
    }
    // Another key is decided meanwhile (the connection is kept: the store is not
    // down), and alice is refused again; then her key is freed and she is decided.
    let bob = [("x-user", "bob")];
    let got = [
        get_with(server.addr, "/", &bob).await.status.as_u16(),
        get_with(server.addr, "/", &alice).await.status.as_u16(),
        get_with(server.addr, "/", &bob).await.status.as_u16(),
    ];
    assert_eq!(got, [200, 503, 200]);
    let t = conn
        .command(ratelab_redis::redis::cmd("TYPE").arg(&key))
        .unwrap();
    assert_eq!(t, ratelab_redis::redis::Value::SimpleString("list".into()));
    conn.command(ratelab_redis::redis::cmd("DEL").arg(&key))
        .unwrap();
    assert_eq!(
        get_with(server.addr, "/", &alice).await.status.as_u16(),
        200
    );
    // Once, however often it happened and whatever was decided in between.
    let events = events.take();
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(
        matches!(&events[0], StoreEvent::ScriptFailed { error } if error.contains("WRONGTYPE")),
        "{events:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flushed_script_cache_is_loaded_again_without_an_outage() {
    let redis = RedisServer::start().unwrap();
    let events = Events::default();
    let layer = RateLimitLayer::builder()
        .limit(Limit::from_json(HOURLY_5).unwrap())
        .redis(&redis.url())
        .on_store_down(OnStoreDown::FailClosed)
        .on_event(events.sink())
        .build()
        .unwrap();
    let server = serve_layer(layer).await;
    let mut got = round_robin(std::slice::from_ref(&server), 3).await;
    let mut conn = redis.connect().unwrap();
    conn.command(ratelab_redis::redis::cmd("SCRIPT").arg("FLUSH"))
        .unwrap();
    got.extend(round_robin(std::slice::from_ref(&server), 4).await);
    assert_eq!(got, [200, 200, 200, 200, 200, 429, 429]);
    assert!(events.take().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_gets_the_policy_and_the_right_one_decides() {
    let redis = RedisServer::start().unwrap();
    let port = redis.port();
    let mut admin = redis.connect().unwrap();
    admin
        .command(
            ratelab_redis::redis::cmd("CONFIG")
                .arg("SET")
                .arg("requirepass")
                .arg("sesame"),
        )
        .unwrap();
    for (url, statuses) in [
        (format!("redis://:wrong@127.0.0.1:{port}"), [503, 503, 503]),
        (format!("redis://127.0.0.1:{port}"), [503, 503, 503]),
        (format!("redis://:sesame@127.0.0.1:{port}"), [200, 200, 200]),
    ] {
        let events = Events::default();
        let layer = RateLimitLayer::builder()
            .limit(Limit::from_json(HOURLY_5).unwrap())
            .redis(&url)
            .on_store_down(OnStoreDown::FailClosed)
            .on_event(events.sink())
            .build()
            .unwrap();
        let server = serve_layer(layer).await;
        assert_eq!(
            round_robin(std::slice::from_ref(&server), 3).await,
            statuses,
            "{url}"
        );
        let events = events.take();
        assert_eq!(
            events.len(),
            usize::from(statuses[0] == 503),
            "{url}: {events:?}"
        );
        // The error is one line, and does not show the password.
        for e in &events {
            let line = e.to_string();
            assert!(!line.contains('\n') && !line.contains("wrong@"), "{line}");
        }
    }
}

/// A server killed and started again between two requests: the connections kept
/// from before are dead, and the next request finds that out, opens a fresh one
/// and is decided by the server (which kept its data), not by the policy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_between_requests_is_not_an_outage() {
    let mut redis =
        RedisServer::start_with(&["--appendonly", "yes", "--appendfsync", "always"]).unwrap();
    let events = Events::default();
    let layer = RateLimitLayer::builder()
        .limit(Limit::from_json(HOURLY_5).unwrap())
        .redis(&redis.url())
        .on_store_down(OnStoreDown::FailClosed)
        .on_event(events.sink())
        .build()
        .unwrap();
    let server = serve_layer(layer).await;
    // Eight at once first, so that every connection of the pool is open.
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let addr = server.addr;
        tasks.push(tokio::spawn(
            async move { get(addr, "/").await.status.as_u16() },
        ));
    }
    let mut got = Vec::new();
    for t in tasks {
        got.push(t.await.unwrap());
    }
    got.sort();
    assert_eq!(got, [200, 200, 200, 200, 200, 429, 429, 429]);
    redis.kill();
    redis.start_again().unwrap();
    assert_eq!(
        round_robin(std::slice::from_ref(&server), 6).await,
        [429; 6]
    );
    assert!(events.take().is_empty());
}

/// On a three-node Redis Cluster: three instances, two clients, two stacked limits
/// (per client, and one global key); every script call goes to the node that serves
/// its key, and the shared limits hold as on one server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_holds_the_shared_limits() {
    let cluster = ratelab_redis::server::RedisCluster::start(3).unwrap();
    let urls = cluster.urls();
    let nodes: Vec<&str> = urls.iter().map(String::as_str).collect();
    let layer = || {
        RateLimitLayer::builder()
            .limit(Limit::from_json(HOURLY_10).unwrap().id("per-user"))
            .limit(
                Limit::from_json(
                    r#"{"algorithm": "fixed_window_anchored", "limit": 15, "period_ms": 3600000}"#,
                )
                .unwrap()
                .id("everyone")
                .key(Key::Global),
            )
            .key(Key::header("x-user").unwrap())
            .redis_cluster(&nodes[..1])
            .on_store_down(OnStoreDown::FailClosed)
            .build()
            .unwrap()
    };
    let servers = instances(vec![layer(), layer(), layer()]).await;
    let mut by: Vec<(&str, u16, String)> = Vec::new();
    for i in 0..40 {
        let user = if i % 2 == 0 { "alice" } else { "bob" };
        let r = get_with(servers[i % 3].addr, "/", &[("x-user", user)]).await;
        by.push((
            user,
            r.status.as_u16(),
            r.header(ratelab_tower::REFUSED_BY).to_string(),
        ));
    }
    let passed = |u: &str| by.iter().filter(|b| b.0 == u && b.1 == 200).count();
    // Alice and Bob alternate: 15 pass in all (the global limit), 8 and 7.
    assert_eq!((passed("alice"), passed("bob")), (8, 7));
    assert!(by.iter().all(|b| b.1 == 200 || b.1 == 429), "{by:?}");
    // The first refusals are the global limit's (nobody is at 10 yet).
    assert_eq!(by[15].2, "everyone");
}

/// Redis out of memory (`maxmemory` with `noeviction`) refuses the scripts' writes:
/// each such request gets the policy's answer, told once; nothing is written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_out_of_memory_gets_the_policy() {
    let redis = RedisServer::start().unwrap();
    let mut admin = redis.connect().unwrap();
    let config = |admin: &mut ratelab_redis::Redis, k: &str, v: &str| {
        admin
            .command(ratelab_redis::redis::cmd("CONFIG").arg("SET").arg(k).arg(v))
            .unwrap();
    };
    let events = Events::default();
    let layer = RateLimitLayer::builder()
        .limit(Limit::from_json(HOURLY_5).unwrap())
        .redis(&redis.url())
        .redis_prefix("tower-oom")
        .on_store_down(OnStoreDown::FailClosed)
        .on_event(events.sink())
        .build()
        .unwrap();
    let server = serve_layer(layer).await;
    config(&mut admin, "maxmemory-policy", "noeviction");
    config(&mut admin, "maxmemory", "1");
    let full = round_robin(std::slice::from_ref(&server), 3).await;
    let keys = admin
        .command(ratelab_redis::redis::cmd("KEYS").arg("tower-oom:*"))
        .unwrap();
    config(&mut admin, "maxmemory", "0");
    let after = round_robin(std::slice::from_ref(&server), 2).await;
    assert_eq!((full, after), (vec![503; 3], vec![200; 2]));
    assert_eq!(keys, ratelab_redis::redis::Value::Array(vec![]));
    let events = events.take();
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(
        matches!(&events[0], StoreEvent::ScriptFailed { error } if error.contains("OOM")),
        "{events:?}"
    );
}

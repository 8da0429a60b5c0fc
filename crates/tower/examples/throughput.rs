//! Requests per second through an axum handler: without a limiter, with
//! ratelab-tower in memory, with tower-governor, and with ratelab-tower on a
//! redis-server of its own, every request allowed (the limiter's cost, not its
//! refusals). ratelab sends its five rate-limit fields on every response;
//! tower-governor is measured bare and with its headers (`use_headers`). Servers and clients share this process and its runtime (two worker
//! threads), the same for every row; the clients are 16 keep-alive HTTP/1.1
//! connections. Prints `round R ID REQUESTS SECONDS` lines for `cargo xtask bench`.
//!
//! `cargo run --release -p ratelab-tower --features bench --example throughput [-- --quick]`

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::routing::get;
use axum::Router;
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use ratelab_redis::server::RedisServer;
use ratelab_tower::{Limit, RateLimitLayer};
use tokio::net::{TcpListener, TcpStream};
use tower_governor::governor::GovernorConfigBuilder;
use tower_governor::GovernorLayer;

const CONNECTIONS: usize = 16;

async fn serve(app: Router) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await;
    });
    addr
}

fn app() -> Router {
    Router::new().route("/", get(|| async { "ok" }))
}

/// `n` GETs over [`CONNECTIONS`] keep-alive connections; seconds taken. Any status
/// but 200 is an error: every row must measure allowed requests.
async fn drive(addr: SocketAddr, n: usize) -> f64 {
    let start = Instant::now();
    let mut tasks = Vec::new();
    for c in 0..CONNECTIONS {
        let mine = n / CONNECTIONS + usize::from(c < n % CONNECTIONS);
        tasks.push(tokio::spawn(async move {
            let stream = TcpStream::connect(addr).await.unwrap();
            let (mut send, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
                .await
                .unwrap();
            tokio::spawn(conn);
            for _ in 0..mine {
                let req = http::Request::get("/")
                    .header("host", "bench")
                    .body(Empty::<Bytes>::new())
                    .unwrap();
                let res = send.send_request(req).await.unwrap();
                assert_eq!(res.status(), 200, "a request was refused or failed");
                res.into_body().collect().await.unwrap();
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    start.elapsed().as_secs_f64()
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let (n, rounds) = if quick { (4_000, 1) } else { (40_000, 5) };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let redis = RedisServer::start().unwrap();
    rt.block_on(async {
        // A GCRA far above the load: every request is checked and allowed.
        let gcra = r#"{"algorithm": "gcra", "limit": 1000000000, "period_ms": 1000}"#;
        let memory = RateLimitLayer::builder()
            .limit(Limit::from_json(gcra).unwrap())
            .build()
            .unwrap();
        let on_redis = RateLimitLayer::builder()
            .limit(Limit::from_json(gcra).unwrap())
            .redis(&redis.url())
            .build()
            .unwrap();
        let governor = Arc::new(
            GovernorConfigBuilder::default()
                .per_nanosecond(1)
                .burst_size(1_000_000_000)
                .finish()
                .unwrap(),
        );
        // The same with its rate-limit headers, as ratelab always sends them.
        let governor_headers = Arc::new(
            GovernorConfigBuilder::default()
                .per_nanosecond(1)
                .burst_size(1_000_000_000)
                .use_headers()
                .finish()
                .unwrap(),
        );
        let rows = [
            ("axum", serve(app()).await),
            ("ratelab_memory", serve(app().layer(memory)).await),
            (
                "tower_governor",
                serve(app().layer(GovernorLayer::new(governor))).await,
            ),
            (
                "tower_governor_headers",
                serve(app().layer(GovernorLayer::new(governor_headers))).await,
            ),
            ("ratelab_redis", serve(app().layer(on_redis)).await),
        ];
        // Warm up every server (connections, the script's load).
        for (_, addr) in &rows {
            drive(*addr, 1_000).await;
        }
        println!("connections {CONNECTIONS}");
        for r in 1..=rounds {
            for (id, addr) in &rows {
                let s = drive(*addr, n).await;
                println!("round {r} {id} {n} {s:.6}");
            }
        }
    });
}

//! An axum server on a free loopback port with a layer in front of its routes, and a
//! real HTTP/1.1 client (hyper's) to drive it.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use axum::routing::get as route_get;
use axum::Router;
use http::{HeaderMap, Request, StatusCode};
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use ratelab_tower::RateLimitLayer;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// A server of ours, stopped when dropped.
pub struct Server {
    pub addr: SocketAddr,
    task: JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Serves `app` on 127.0.0.1 (port 0: the kernel's free one), with the client's
/// address for `Key::Peer`.
pub async fn serve(app: Router) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let _ = axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await;
    });
    Server { addr, task }
}

/// One route `/` answering "ok", behind `layer`.
pub async fn serve_layer(layer: RateLimitLayer) -> Server {
    serve(
        Router::new()
            .route("/", route_get(|| async { "ok" }))
            .layer(layer),
    )
    .await
}

/// What came back.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
}

impl Reply {
    /// A header's value as text ("" if absent).
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }
}

/// GET `path` from `addr` with `headers`, on a connection of its own; a server that
/// does not answer within 20 s fails the test (a hang guard, not a speed check).
pub async fn get_with(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> Reply {
    tokio::time::timeout(Duration::from_secs(20), async {
        let stream = TcpStream::connect(addr).await.unwrap();
        let (mut send, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .unwrap();
        tokio::spawn(conn);
        let mut req = Request::get(path).header("host", addr.to_string());
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let res = send
            .send_request(req.body(Empty::<Bytes>::new()).unwrap())
            .await
            .unwrap();
        let status = res.status();
        let headers = res.headers().clone();
        let body = res.into_body().collect().await.unwrap().to_bytes();
        Reply {
            status,
            headers,
            body: String::from_utf8_lossy(&body).into_owned(),
        }
    })
    .await
    .expect("the server answered within 20 s")
}

pub async fn get(addr: SocketAddr, path: &str) -> Reply {
    get_with(addr, path, &[]).await
}

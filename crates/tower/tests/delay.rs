//! The leaky queue and nginx delay instead of refusing: the layer holds an allowed
//! request for its wait before the inner service sees it (on tokio's clock, paused
//! here, so the waits are read exactly, not timed).

use std::convert::Infallible;
use std::future::{ready, Ready};
use std::task::{Context, Poll};

use http::{Request, Response};
use ratelab_core::Limiter;
use ratelab_sim::LaneSpec;
use ratelab_tower::{Key, Limit, ManualClock, RateLimitLayer};
use tokio::time::Instant;
use tower_layer::Layer;
use tower_service::Service;

#[derive(Clone)]
struct Ok200;

impl Service<Request<()>> for Ok200 {
    type Response = Response<String>;
    type Error = Infallible;
    type Future = Ready<Result<Response<String>, Infallible>>;
    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }
    fn call(&mut self, _: Request<()>) -> Self::Future {
        ready(Ok(Response::new("ok".to_string())))
    }
}

/// Four requests at virtual time 0: how long each was held, in tokio's ms, and its
/// status.
async fn held(hold: bool, lane: &str) -> Vec<(u64, u16)> {
    let mut svc = RateLimitLayer::builder()
        .limit(Limit::from_json(lane).unwrap())
        .key(Key::Global)
        .clock(ManualClock::new(0))
        .hold_delayed(hold)
        .build()
        .unwrap()
        .layer(Ok200);
    let mut out = Vec::new();
    for _ in 0..4 {
        let start = Instant::now();
        let res = svc.call(Request::new(())).await.unwrap();
        out.push((start.elapsed().as_millis() as u64, res.status().as_u16()));
    }
    out
}

/// What the engine says of the same four requests: each one's wait (when held)
/// and status.
fn engine(hold: bool, lane: &str) -> Vec<(u64, u16)> {
    let mut l = LaneSpec::from_json(lane).unwrap().build().unwrap();
    (0..4)
        .map(|_| {
            let d = l.check(0, 1).unwrap();
            let wait = if hold { d.wait().ceil_ms() } else { 0 };
            (wait, if d.allowed() { 200 } else { 429 })
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_delayed_request_is_held_for_its_wait() {
    let queue = r#"{"algorithm": "leaky_queue", "limit": 1, "period_ms": 1000, "burst": 2}"#;
    // nginx: burst 2, the first excess request at once (delay=1), the next delayed.
    let nginx = r#"{"algorithm": "nginx", "limit": 1, "period_ms": 1000, "burst": 2, "delay": 1}"#;
    for lane in [queue, nginx] {
        for hold in [true, false] {
            let got = held(hold, lane).await;
            assert_eq!(got, engine(hold, lane), "{lane}, hold {hold}");
            assert!(got.iter().any(|&(w, _)| w > 0) == hold, "{got:?}");
        }
    }
}

//! ratelab's limiters in front of any tower service (axum, hyper, tonic): the
//! engine's exact decisions, in this process's memory or shared through Redis.
//!
//! ```no_run
//! use std::net::SocketAddr;
//! use axum::{routing::get, Router};
//! use ratelab_tower::{Key, Limit, OnStoreDown, RateLimitLayer};
//!
//! # async fn serve() -> Result<(), Box<dyn std::error::Error>> {
//! let limit = RateLimitLayer::builder()
//!     // The lane's limiter object, as the playground exports it.
//!     .limit(Limit::from_json(r#"{"algorithm": "gcra", "limit": 10, "period_ms": 1000, "burst": 20}"#)?)
//!     .key(Key::header("x-api-key")?)
//!     .redis("redis://127.0.0.1:6379")
//!     .on_store_down(OnStoreDown::FailOpen)
//!     .build()?;
//! let app = Router::new().route("/", get(|| async { "hello" })).layer(limit);
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:3000").await?;
//! axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await?;
//! # Ok(()) }
//! ```
//!
//! - **Limits** ([`Limit`]): any of the engine's limiters, from a lane's JSON
//!   (parsed by ratelab-sim, with its one-line errors) or from an algorithm and
//!   parameters. Several stack: a request passes only if every limit that applies
//!   to it passes it ([`Limit::only`] picks routes), and a refusal names the limits
//!   that refused in `X-RateLimit-Refused-By`.
//! - **Keys** ([`Key`]): the client's address, a header, one global key, or a closure;
//!   per layer, or per limit.
//! - **Costs** ([`Builder::cost`]): what a request takes of every limit.
//! - **The response** is the engine's ([`ratelab_core::Headers`]): a 429 with
//!   `Retry-After`, the IETF draft's `RateLimit-Policy` and `RateLimit`, the common
//!   `X-RateLimit-*` fields and the JSON body; an allowed response gets the rate-limit
//!   fields too.
//! - **Stores**: memory (the default: the engine's [`ratelab_core::Keyed`] limiters,
//!   on a [`Clock`] you may inject, exactly the engine's decisions; stacked limits
//!   are atomic, as in the service model) or Redis ([`Builder::redis`]: the scripts of
//!   ratelab-scripts on the server's clock; stacked limits are separate calls, in
//!   order, stopping at the first refusal).
//! - **When the store is down** ([`OnStoreDown`]): fail open, fail closed (503), or a
//!   fallback limiter in memory; each outage is reported once when it starts and once
//!   when it ends ([`StoreEvent`]), never per request; a request waits at most
//!   [`Builder::timeout`] (twice that with connecting) for Redis.
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Without Redis there is no store that can be down: the policy's parts go unused.
#![cfg_attr(not(feature = "redis"), allow(dead_code))]

mod clock;
mod error;
mod key;
mod layer;
mod limit;
mod policy;
mod store;

pub use clock::{Clock, ManualClock, SystemClock};
pub use error::BuildError;
pub use key::Key;
pub use layer::{Builder, RateLimit, RateLimitLayer, MAX_LIMITS, REFUSED_BY, UNAVAILABLE_BODY};
pub use limit::Limit;
pub use policy::{OnStoreDown, StoreEvent};

pub use ratelab_core::{Algorithm, Params};

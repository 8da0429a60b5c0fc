//! ratelab's production face, native: every limiter as a Lua script on a real
//! Redis, deciding exactly as the engine does.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod compare;
mod conn;
mod error;
pub mod labs;
mod limiter;
pub mod nginx;
pub mod replay;
pub mod server;
pub mod teaching;

/// The `redis` crate this one is built on, for commands of your own.
pub use redis;

pub use conn::Redis;
pub use error::Error;
pub use limiter::{Clock, Form, RedisDecision, RedisLimiter, BATCH, DEFAULT_SLACK_MS};

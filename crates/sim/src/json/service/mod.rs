//! The `services` section of the JSON format, reading and writing, in one place.
//!
//! Reading: each service object becomes a
//! [`ServiceSpec`](crate::service::ServiceSpec), every error one line naming its path
//! (`services[0].clients[2].retry.max_attempts: ...`). As in `json/read.rs`, checks
//! run in a fixed order that does not depend on the order of keys in the input (a
//! route mix is read in the order of the service's routes).
//!
//! Defaults: one route `api` of cost 1; a client's route mix is its first route;
//! retries `none`; a limit counts per `client`; one instance, round robin, a shared
//! store, no outages, `fail_open`; `duration_ms` 60 000; `seed` 1; `window_ms` the
//! first limit's period. A client with `count: n` stands for n clients named
//! `name-0` … `name-(n−1)`, each drawing its own demand.
//!
//! Without the `services` feature the writers are not used (nothing writes a
//! service), and the reader is behind a refusal.
//!
//! - `read.rs`: the section's objects → checked service specs.
//! - `report.rs`: a service run's report in the output.
//! - `spec.rs`: a service in the input format (export), read back equal by `read.rs`.
#![cfg_attr(not(feature = "services"), allow(dead_code))]

mod read;
mod report;
mod spec;

pub(crate) use read::services_from;
#[cfg(feature = "services")]
pub(in crate::json) use report::ServiceReportOut;
#[cfg(feature = "services")]
pub(in crate::json) use spec::ServiceSpecOut;

//! ratelab-redis's integration tests, as one binary (one link instead of nine).
//! Each test starts its own redis-server, cluster or nginx. One module:
//! `cargo test -p ratelab-redis --test it nginx::`.

mod support;

mod cluster;
mod edges;
mod faults;
mod functions;
mod golden;
mod memory;
mod nginx;
mod properties;
mod scenarios;
mod teaching;

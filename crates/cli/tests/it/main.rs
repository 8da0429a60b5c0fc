//! The `ratelab` binary's tests, as one binary (one link instead of four): its
//! exit statuses, messages and output, and (`redis`) what it prints followed on a
//! real redis-server. One module: `cargo test -p ratelab-cli --test it cli::`.

mod support;

mod bounded;
mod choose;
mod cli;
mod hostile;
mod redis;

//! The scripts people usually copy, which are wrong, run on a real server, and
//! reference models of what each one computes. Each is labelled wrong on purpose;
//! `ratelab_scripts::teaching` has their texts and what goes wrong.

use ratelab_scripts::teaching::teaching;
use ratelab_scripts::Script;
use redis::Value;

use crate::conn::Call;
use crate::error::Error;
use crate::Redis;

fn script(id: &str) -> &'static Script {
    // The two scripted teaching variants are registered with their scripts.
    teaching(id)
        .and_then(|t| t.script)
        .unwrap_or_else(|| unreachable!("{id} has a script"))
}

/// `ms` as decimal seconds, the way the float snippet is called (`10.7`).
pub fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// WRONG ON PURPOSE: one request through the float-seconds token bucket
/// (`teaching/token_bucket_float_seconds.lua`): `rate` tokens per second, `capacity`,
/// at `ms`. Returns whether it passed and the tokens it left.
pub fn float_bucket(
    redis: &mut Redis,
    key: &str,
    ms: u64,
    rate: f64,
    capacity: u64,
    cost: u32,
) -> Result<(bool, f64), Error> {
    let keys = [key.to_string()];
    let reply = redis.eval(&[Call {
        function: None,
        script: script("token_bucket_float_seconds"),
        keys: &keys,
        head: vec![
            seconds(ms),
            format!("{rate:?}"),
            capacity.to_string(),
            cost.to_string(),
        ],
        tail: &[],
    }])?;
    match reply.first() {
        Some(Value::Array(v)) if v.len() == 2 => {
            let allowed = v[0] == Value::Int(1);
            let tokens = match &v[1] {
                Value::BulkString(b) => String::from_utf8_lossy(b).parse().unwrap_or(f64::NAN),
                _ => f64::NAN,
            };
            Ok((allowed, tokens))
        }
        other => Err(unexpected(redis, "token_bucket_float_seconds", other)),
    }
}

/// What the float-seconds snippet computes, in Rust's f64 (the same IEEE doubles as
/// Lua's): the model the real server is checked against.
#[derive(Clone, Debug)]
pub struct FloatSecondsBucket {
    rate: f64,
    capacity: f64,
    state: Option<(f64, f64)>,
}

impl FloatSecondsBucket {
    /// `rate` tokens per second, `capacity` tokens, empty state.
    pub fn new(rate: f64, capacity: u64) -> FloatSecondsBucket {
        FloatSecondsBucket {
            rate,
            capacity: capacity as f64,
            state: None,
        }
    }

    /// One request at `ms`: whether it passes, and the tokens left.
    pub fn request(&mut self, ms: u64, cost: u32) -> (bool, f64) {
        let now: f64 = seconds(ms).parse().unwrap_or(0.0);
        let (tokens, ts) = self.state.unwrap_or((self.capacity, now));
        let mut tokens = self.capacity.min(tokens + (now - ts).max(0.0) * self.rate);
        let allowed = tokens >= cost as f64;
        if allowed {
            tokens -= cost as f64;
        }
        self.state = Some((tokens, now));
        (allowed, tokens)
    }
}

/// WRONG ON PURPOSE: the sliding log that adds before counting
/// (`teaching/sliding_log_zadd_first.lua`): `limit` per `window_ms`, at `ms`, with a
/// unique request id. Whether it passed.
pub fn zadd_first(
    redis: &mut Redis,
    key: &str,
    ms: u64,
    id: u64,
    limit: u64,
    window_ms: u64,
) -> Result<bool, Error> {
    let keys = [key.to_string()];
    let reply = redis.eval(&[Call {
        function: None,
        script: script("sliding_log_zadd_first"),
        keys: &keys,
        head: vec![
            ms.to_string(),
            id.to_string(),
            limit.to_string(),
            window_ms.to_string(),
        ],
        tail: &[],
    }])?;
    match reply.first() {
        Some(Value::Int(n)) => Ok(*n == 1),
        other => Err(unexpected(redis, "sliding_log_zadd_first", other)),
    }
}

/// WRONG ON PURPOSE: the fixed window as two commands from the client, `INCR` and
/// then, for the first request, `PEXPIRE key window_ms` (`teaching/incr_then_expire.txt`).
/// With `die_between`, the client stops after INCR, as a crashed or disconnected
/// one does, and the key is left without a TTL. Whether the request passed.
pub fn incr_then_expire(
    redis: &mut Redis,
    key: &str,
    limit: u64,
    window_ms: u64,
    die_between: bool,
) -> Result<bool, Error> {
    let count: i64 = int(redis.command(redis::cmd("INCR").arg(key))?);
    if count == 1 && !die_between {
        redis.command(redis::cmd("PEXPIRE").arg(key).arg(window_ms))?;
    }
    Ok(count >= 1 && count as u64 <= limit)
}

/// WRONG ON PURPOSE: an exact token bucket (in 1/period tokens, like
/// `token_bucket.lua`) computed in the client between `HMGET` and `HSET`
/// (`teaching/read_compute_write.txt`): `limit` per `period_ms`, capacity `burst`, at
/// `ms`. Whether the request passed.
pub fn read_compute_write(
    redis: &mut Redis,
    key: &str,
    ms: u64,
    limit: u64,
    period_ms: u64,
    burst: u64,
) -> Result<bool, Error> {
    let full = burst * period_ms;
    let state = redis.command(redis::cmd("HMGET").arg(key).arg("tokens").arg("last"))?;
    let (tokens, last) = match state {
        Value::Array(v) if v.len() == 2 => (opt_int(&v[0]), opt_int(&v[1])),
        _ => (None, None),
    };
    let last = last.unwrap_or(ms).min(ms);
    let tokens = tokens
        .unwrap_or(full)
        .saturating_add((ms - last).saturating_mul(limit))
        .min(full);
    let allowed = tokens >= period_ms;
    let after = if allowed { tokens - period_ms } else { tokens };
    redis.command(
        redis::cmd("HSET")
            .arg(key)
            .arg("tokens")
            .arg(after)
            .arg("last")
            .arg(ms),
    )?;
    Ok(allowed)
}

fn int(v: Value) -> i64 {
    match v {
        Value::Int(n) => n,
        _ => -1,
    }
}

fn opt_int(v: &Value) -> Option<u64> {
    match v {
        Value::BulkString(b) => std::str::from_utf8(b).ok()?.parse().ok(),
        Value::Int(n) => u64::try_from(*n).ok(),
        _ => None,
    }
}

fn unexpected(redis: &Redis, script: &str, v: Option<&Value>) -> Error {
    Error::Redis {
        url: redis.url().to_string(),
        what: format!("script {script}.lua answered {v:?}"),
    }
}

//! The race lab and the memory lab, on a real server.

use std::sync::{Arc, Barrier};

use ratelab_core::{Algorithm, AnyLimiter, Limiter, Params};
use ratelab_scripts::KeySpace;
use redis::Value;

use crate::teaching::read_compute_write;
use crate::{Clock, Error, Redis, RedisLimiter};

/// The most client threads and requests the race lab accepts.
pub const MAX_THREADS: usize = 64;
/// See [`MAX_THREADS`].
pub const MAX_REQUESTS: usize = 100_000;

/// What the race lab counted: one token bucket key, `threads` clients each sending
/// `per_thread` requests at the same virtual instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Race {
    /// Client threads (each with its own connection, like separate instances).
    pub threads: usize,
    /// Requests sent in all.
    pub requests: usize,
    /// The bucket's capacity.
    pub capacity: u64,
    /// What the engine admits: the bucket, and no more.
    pub engine: usize,
    /// What `token_bucket.lua` admitted.
    pub script: usize,
    /// What the client-side read-compute-write bucket admitted.
    pub read_compute_write: usize,
}

/// Runs the race lab against the server at `url`: `threads` clients (each its own
/// connection) send `per_thread` requests each, all at virtual time 0, to one token
/// bucket key of capacity `capacity` (refilling 1 per minute, which at one instant
/// is never): once through the script, once read-computed-written by the clients.
/// Keys go under `space` and are removed afterwards.
pub fn race(
    url: &str,
    space: &KeySpace,
    threads: usize,
    per_thread: usize,
    capacity: u64,
) -> Result<Race, Error> {
    let requests = threads.saturating_mul(per_thread);
    if threads == 0 || threads > MAX_THREADS || requests == 0 || requests > MAX_REQUESTS {
        return Err(Error::Input(format!(
            "race: 1 to {MAX_THREADS} threads and 1 to {MAX_REQUESTS} requests in all (got {threads} × {per_thread})"
        )));
    }
    let params = Params {
        burst: Some(capacity),
        ..Params::new(1, 60_000)
    };
    let mut engine = AnyLimiter::new(Algorithm::TokenBucket, &params)
        .map_err(|e| Error::Input(e.to_string()))?;
    let engine_admitted = (0..requests)
        .filter(|_| engine.check(0, 1).is_ok_and(|d| d.allowed()))
        .count();
    let lane = format!("race-{}", std::process::id());
    let script = RedisLimiter::new(&lane, Algorithm::TokenBucket, &params, space)?;
    let script_key = script.keys("bucket");
    let rcw_key = format!("{}:rcw", script_key[0]);
    let run = |rcw: bool| -> Result<usize, Error> {
        let barrier = Arc::new(Barrier::new(threads));
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let barrier = Arc::clone(&barrier);
                let mut script = script.clone();
                let (url, key) = (url.to_string(), rcw_key.clone());
                std::thread::spawn(move || -> Result<usize, Error> {
                    let mut redis = Redis::connect(&url)?;
                    barrier.wait();
                    let mut admitted = 0;
                    for _ in 0..per_thread {
                        let allowed = if rcw {
                            read_compute_write(&mut redis, &key, 0, 1, 60_000, capacity)?
                        } else {
                            script.check(&mut redis, "bucket", Clock::At(0), 1)?.allowed
                        };
                        admitted += allowed as usize;
                    }
                    Ok(admitted)
                })
            })
            .collect();
        let mut total = 0;
        for h in handles {
            total += h
                .join()
                .map_err(|_| Error::Input("race: a client thread panicked".into()))??;
        }
        Ok(total)
    };
    let result = run(false).and_then(|s| Ok((s, run(true)?)));
    let mut redis = Redis::connect(url)?;
    redis.command(redis::cmd("DEL").arg(&script_key).arg(&rcw_key))?;
    let (script_admitted, rcw_admitted) = result?;
    Ok(Race {
        threads,
        requests,
        capacity,
        engine: engine_admitted,
        script: script_admitted,
        read_compute_write: rcw_admitted,
    })
}

/// One limiter key's memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryRow {
    /// The algorithm's id.
    pub algorithm: &'static str,
    /// What was measured, in words.
    pub state: String,
    /// Redis keys per limiter key.
    pub keys: u64,
    /// `MEMORY USAGE ... SAMPLES 0` of all of them together.
    pub bytes: u64,
    /// `OBJECT ENCODING` of the main key.
    pub encoding: String,
}

/// The sliding log's sorted set at a size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRow {
    /// Members.
    pub entries: u64,
    /// `MEMORY USAGE ... SAMPLES 0` of the sorted set.
    pub bytes: u64,
    /// `OBJECT ENCODING` of it.
    pub encoding: String,
}

/// What the memory lab measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Memory {
    /// Per algorithm.
    pub rows: Vec<MemoryRow>,
    /// The sliding log at N = 100, 1 000 and 10 000.
    pub log: Vec<LogRow>,
}

/// The client name the memory lab's keys use (its length enters every key's size).
pub const MEMORY_CLIENT: &str = "client-42";

/// Measures, on the server behind `redis`, what one limiter key of each algorithm
/// costs at 100 per minute after 100 requests 10 ms apart (a full sliding log), and
/// the sliding log's sorted set at 100, 1 000 and 10 000 entries. Keys go under
/// `space` and are removed afterwards.
pub fn memory(redis: &mut Redis, space: &KeySpace) -> Result<Memory, Error> {
    let mut rows = Vec::new();
    let mut written = Vec::new();
    for a in Algorithm::ALL.into_iter().filter(|a| !a.is_teaching()) {
        let params = Params {
            burst: (a == Algorithm::Nginx).then_some(100),
            nodelay: a == Algorithm::Nginx,
            ..Params::new(100, 60_000)
        };
        let mut l = RedisLimiter::new(a.id(), a, &params, space)?;
        let requests: Vec<(&str, Clock, u32)> = (0..100)
            .map(|i| (MEMORY_CLIENT, Clock::At(1000 + 10 * i), 1))
            .collect();
        l.check_many(redis, &requests)?;
        let keys = l.keys(MEMORY_CLIENT);
        let mut bytes = 0;
        for k in &keys {
            bytes += usage(redis, k)?;
        }
        rows.push(MemoryRow {
            algorithm: a.id(),
            state: "100 per minute, after 100 requests 10 ms apart".into(),
            keys: keys.len() as u64,
            bytes,
            encoding: encoding(redis, &keys[0])?,
        });
        written.push(keys);
    }
    let mut log = Vec::new();
    for n in [100u64, 1_000, 10_000] {
        let mut l = RedisLimiter::new(
            &format!("log{n}"),
            Algorithm::SlidingLog,
            &Params::new(n, 3_600_000),
            space,
        )?;
        let requests: Vec<(&str, Clock, u32)> = (0..n)
            .map(|i| (MEMORY_CLIENT, Clock::At(1_000_000 + 10 * i), 1))
            .collect();
        l.check_many(redis, &requests)?;
        let keys = l.keys(MEMORY_CLIENT);
        log.push(LogRow {
            entries: n,
            bytes: usage(redis, &keys[0])?,
            encoding: encoding(redis, &keys[0])?,
        });
        written.push(keys);
    }
    crate::replay::delete(redis, &written)?;
    Ok(Memory { rows, log })
}

fn usage(redis: &mut Redis, key: &str) -> Result<u64, Error> {
    match redis.command(
        redis::cmd("MEMORY")
            .arg("USAGE")
            .arg(key)
            .arg("SAMPLES")
            .arg(0),
    )? {
        Value::Int(n) if n >= 0 => Ok(n as u64),
        other => Err(Error::Redis {
            url: redis.url().to_string(),
            what: format!("MEMORY USAGE {key} answered {other:?}"),
        }),
    }
}

fn encoding(redis: &mut Redis, key: &str) -> Result<String, Error> {
    match redis.command(redis::cmd("OBJECT").arg("ENCODING").arg(key))? {
        Value::BulkString(b) => Ok(String::from_utf8_lossy(&b).into_owned()),
        Value::SimpleString(s) => Ok(s),
        other => Err(Error::Redis {
            url: redis.url().to_string(),
            what: format!("OBJECT ENCODING {key} answered {other:?}"),
        }),
    }
}

impl Memory {
    /// The data file the playground and `ratelab lua` read
    /// (`crates/scripts/data/checked.json`): the versions the tests checked and
    /// these rows.
    pub fn data_file(&self, redis_version: &str, nginx_version: &str) -> String {
        let q = |s: &str| serde_json::Value::String(s.to_string()).to_string();
        let mut out = String::from("{\n");
        out.push_str(&format!(
            "  \"note\": {},\n",
            q("Written by RATELAB_BLESS=1 cargo test -p ratelab-redis --test it memory:: (MEMORY USAGE ... SAMPLES 0 on a fresh redis-server); the tests check these versions and numbers.")
        ));
        out.push_str(&format!("  \"redis_version\": {},\n", q(redis_version)));
        out.push_str(&format!("  \"nginx_version\": {},\n", q(nginx_version)));
        out.push_str("  \"memory\": [\n");
        for (i, r) in self.rows.iter().enumerate() {
            out.push_str(&format!(
                "    {{\"algorithm\": {}, \"state\": {}, \"keys\": {}, \"bytes\": {}, \"encoding\": {}}}{}\n",
                q(r.algorithm),
                q(&r.state),
                r.keys,
                r.bytes,
                q(&r.encoding),
                if i + 1 < self.rows.len() { "," } else { "" }
            ));
        }
        out.push_str("  ],\n  \"sliding_log\": [\n");
        for (i, r) in self.log.iter().enumerate() {
            out.push_str(&format!(
                "    {{\"entries\": {}, \"bytes\": {}, \"encoding\": {}}}{}\n",
                r.entries,
                r.bytes,
                q(&r.encoding),
                if i + 1 < self.log.len() { "," } else { "" }
            ));
        }
        out.push_str("  ]\n}\n");
        out
    }
}

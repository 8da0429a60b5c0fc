//! A run of the JSON format through Redis: every lane's requests through its script,
//! the same report the engine gives, and every decision compared with the engine's.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use ratelab_core::Keyed;
use ratelab_scripts::{KeySpace, LuaLane};
use ratelab_sim::{run_with, Config, Decided, Report, SimError};
use redis::Value;

use crate::compare::{difference, rest_matches};
use crate::{Clock, Error, Form, Redis, RedisLimiter, DEFAULT_SLACK_MS};

/// How a replay writes.
#[derive(Clone, Debug)]
pub struct ReplayOptions {
    /// The namespace of its keys.
    pub space: KeySpace,
    /// Real ms added to every TTL (the replay must finish within it).
    pub slack_ms: u64,
    /// Write even if the prefix already holds keys.
    pub force: bool,
    /// Leave the keys in Redis afterwards (they still expire).
    pub keep: bool,
    /// Through the scripts (`EVALSHA`) or the function library (`FCALL`).
    pub form: Form,
}

impl Default for ReplayOptions {
    fn default() -> ReplayOptions {
        ReplayOptions {
            space: KeySpace::default(),
            slack_ms: DEFAULT_SLACK_MS,
            force: false,
            keep: false,
            form: Form::Script,
        }
    }
}

/// At most this many differing decisions are described.
const DESCRIBED: usize = 10;

/// What a replay found.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The report, from Redis's decisions (no lab D sweep: that runs in the engine).
    pub report: Report,
    /// The engine's report on the same input (without lab D's sweep).
    pub engine: Report,
    /// Decisions compared (requests × lanes).
    pub decisions: usize,
    /// Decisions where some number differs (verdict, wait, retry-after, reset,
    /// remaining, or the time the key is at rest).
    pub differing: usize,
    /// The first few of them, one line each.
    pub described: Vec<String>,
    /// Limiter keys written (lanes × keys).
    pub limiter_keys: usize,
    /// Real time the script calls took.
    pub elapsed: Duration,
}

impl Replay {
    /// Whether Redis decided exactly as the engine: every decision, every number,
    /// and so the same report.
    pub fn same(&self) -> bool {
        self.differing == 0
            && self.report.results == self.engine.results
            && self.report.request_count == self.engine.request_count
    }
}

/// Runs `config` through Redis on a virtual clock: each lane's requests through its
/// script, pipelined, in stream order; then compares every decision with the
/// engine's. Refuses a prefix that already holds keys (unless `force`), removes the
/// keys it wrote afterwards (unless `keep`). A server that goes away is an error:
/// no partial report.
pub fn replay(redis: &mut Redis, config: &Config, opts: &ReplayOptions) -> Result<Replay, Error> {
    config.validate()?;
    for (j, lane) in config.lanes.iter().enumerate() {
        LuaLane::new(lane.algorithm, &lane.params)
            .map_err(|e| SimError::param(&format!("limiters[{j}]"), &e))?;
    }
    if let Some((i, r)) = config
        .stream
        .requests
        .iter()
        .enumerate()
        .find(|(_, r)| LuaLane::check_time(r.t).is_err())
    {
        let e = LuaLane::check_time(r.t).unwrap_err();
        return Err(SimError::param(
            &format!("requests[{i}]"),
            &e.to_string().replacen("now", "t", 1),
        )
        .into());
    }
    if !opts.force {
        if let Some((found, example)) = occupied(redis, &opts.space)? {
            return Err(Error::Occupied {
                url: redis.url().to_string(),
                prefix: opts.space.prefix().to_string(),
                found,
                example,
            });
        }
    }
    // Lanes are independent (their own keys): two connections take turns, so that
    // the server works on one lane's batch while the client prepares the other's.
    let mut second = redis.reopen()?;
    // The engine's report on the same lanes (lab D's sweep is the engine's alone and
    // not replayed, so it is left out here too).
    let engine = ratelab_sim::run(&Config {
        sweep: None,
        ..config.clone()
    })?;
    let keys: BTreeSet<&str> = config
        .stream
        .requests
        .iter()
        .map(|r| config.stream.key_name(r.key).unwrap_or(""))
        .collect();
    let written: Vec<Vec<String>> = config
        .lanes
        .iter()
        .map(|lane| LuaLane::new(lane.algorithm, &lane.params).map(|l| (lane, l)))
        .collect::<Result<Vec<_>, _>>()?
        .iter()
        .flat_map(|(lane, l)| keys.iter().map(|k| l.keys(&opts.space, &lane.id, k)))
        .collect();
    let started = Instant::now();
    let lanes: Vec<usize> = (0..config.lanes.len()).collect();
    let (even, odd): (Vec<usize>, Vec<usize>) = lanes.iter().partition(|&&j| j % 2 == 0);
    let run_lanes = |redis: &mut Redis, js: &[usize]| -> Vec<(usize, Result<Lane, Error>)> {
        js.iter()
            .map(|&j| (j, replay_lane(redis, config, j, opts)))
            .collect()
    };
    let (a, b) = std::thread::scope(|s| {
        let other = s.spawn(|| run_lanes(&mut second, &odd));
        let mine = run_lanes(redis, &even);
        (mine, other.join())
    });
    let b = b.map_err(|_| Error::Input("a replay thread panicked".into()))?;
    let mut by_lane: Vec<Option<Result<Lane, Error>>> =
        (0..config.lanes.len()).map(|_| None).collect();
    for (j, lane) in a.into_iter().chain(b) {
        by_lane[j] = Some(lane);
    }
    let elapsed = started.elapsed();
    let cleanup = if opts.keep {
        Ok(())
    } else {
        delete(redis, &written)
    };
    let mut differing = 0;
    let mut described = Vec::new();
    let mut decided: Vec<Option<Vec<Decided>>> = Vec::with_capacity(by_lane.len());
    for lane in by_lane {
        let lane = lane.ok_or_else(|| Error::Input("a lane was not replayed".into()))??;
        differing += lane.differing;
        described.extend(lane.described);
        decided.push(Some(lane.decided));
    }
    described.truncate(DESCRIBED);
    let report = run_with(config, |j, _, _| -> Result<Vec<Decided>, Error> {
        decided
            .get_mut(j)
            .and_then(Option::take)
            .ok_or_else(|| Error::Input(format!("limiters[{j}] has no decisions")))
    })?;
    cleanup?;
    if elapsed.as_millis() > opts.slack_ms as u128 {
        return Err(Error::TooSlow {
            elapsed_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
            slack_ms: opts.slack_ms,
        });
    }
    Ok(Replay {
        decisions: config.stream.requests.len() * config.lanes.len(),
        report,
        engine,
        differing,
        described,
        limiter_keys: written.len(),
        elapsed,
    })
}

/// One lane through Redis, compared request by request with the engine.
struct Lane {
    decided: Vec<Decided>,
    differing: usize,
    described: Vec<String>,
}

fn replay_lane(
    redis: &mut Redis,
    config: &Config,
    j: usize,
    opts: &ReplayOptions,
) -> Result<Lane, Error> {
    let lane = &config.lanes[j];
    let stream = &config.stream;
    let mut script = RedisLimiter::new(&lane.id, lane.algorithm, &lane.params, &opts.space)?
        .with_slack(opts.slack_ms)
        .with_form(opts.form);
    let requests: Vec<(&str, Clock, u32)> = stream
        .requests
        .iter()
        .map(|r| (stream.key_name(r.key).unwrap_or(""), Clock::At(r.t), r.cost))
        .collect();
    let decisions = script.check_many(redis, &requests)?;
    let mut keyed = Keyed::new(
        lane.build()
            .map_err(|e| SimError::param(&format!("limiters[{j}]"), &e))?,
    );
    let mut out = Lane {
        decided: Vec::with_capacity(decisions.len()),
        differing: 0,
        described: Vec::new(),
    };
    for (i, (r, d)) in stream.requests.iter().zip(&decisions).enumerate() {
        let key = stream.key_name(r.key).unwrap_or("");
        let e = keyed
            .check(key, r.t, r.cost)
            .map_err(|e| SimError::check(i, j, &lane.id, &e))?;
        let mut diff = difference(&e, d);
        if diff.is_none() && !rest_matches(keyed.get(key), r.t, d.rest_ms) {
            diff = Some(format!(
                "at rest after {} ms per Redis, not per the engine",
                d.rest_ms
            ));
        }
        if let Some(diff) = diff {
            out.differing += 1;
            if out.described.len() < DESCRIBED {
                out.described.push(format!(
                    "limiters[{j}] ({}) requests[{i}] (t = {} ms, key {key:?}): {diff}",
                    lane.id, r.t
                ));
            }
        }
        out.decided.push(Decided {
            allowed: d.allowed,
            wait: d.wait,
            state_numbers: usize::try_from(d.state_numbers).unwrap_or(usize::MAX),
        });
    }
    Ok(out)
}

/// Whether keys exist under the namespace: how many were seen (scanning stops at
/// 1 000) and one of them.
pub fn occupied(redis: &mut Redis, space: &KeySpace) -> Result<Option<(usize, String)>, Error> {
    let pattern = space.pattern();
    let mut found: Vec<String> = Vec::new();
    if redis.is_cluster() {
        // SCAN is per node; KEYS is sent to every master and the answers joined.
        let mut cmd = redis::cmd("KEYS");
        cmd.arg(&pattern);
        collect_keys(&redis.command(&cmd)?, &mut found);
    } else {
        let mut cursor = "0".to_string();
        loop {
            let mut cmd = redis::cmd("SCAN");
            cmd.arg(&cursor)
                .arg("MATCH")
                .arg(&pattern)
                .arg("COUNT")
                .arg(1000);
            match redis.command(&cmd)? {
                Value::Array(mut parts) if parts.len() == 2 => {
                    collect_keys(&parts[1], &mut found);
                    cursor = match parts.swap_remove(0) {
                        Value::BulkString(b) => String::from_utf8_lossy(&b).into_owned(),
                        other => format!("{other:?}"),
                    };
                }
                other => {
                    return Err(Error::Redis {
                        url: redis.url().to_string(),
                        what: format!("SCAN answered {other:?}"),
                    })
                }
            }
            if cursor == "0" || found.len() >= 1000 {
                break;
            }
        }
    }
    Ok(found.first().cloned().map(|k| (found.len(), k)))
}

fn collect_keys(v: &Value, out: &mut Vec<String>) {
    if let Value::Array(items) = v {
        for item in items {
            match item {
                Value::BulkString(b) => out.push(String::from_utf8_lossy(b).into_owned()),
                nested @ Value::Array(_) => collect_keys(nested, out),
                _ => {}
            }
        }
    }
}

/// Deletes limiter keys, one `DEL` per limiter key (its keys share a slot).
pub fn delete(redis: &mut Redis, keys: &[Vec<String>]) -> Result<(), Error> {
    for chunk in keys.chunks(crate::BATCH) {
        for k in chunk {
            let mut cmd = redis::cmd("DEL");
            cmd.arg(k);
            redis.command(&cmd)?;
        }
    }
    Ok(())
}

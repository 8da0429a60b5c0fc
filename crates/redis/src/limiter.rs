//! A limiter whose state lives in Redis: [`RedisLimiter::check`] mirrors the
//! engine's `Limiter::check`, and [`RedisLimiter::check_many`] is its pipelined,
//! keyed form for streams.

use std::collections::HashMap;

use ratelab_core::{Algorithm, CheckError, Headers, Ms, Params, Policy};
use ratelab_scripts::{KeySpace, LuaLane};
use redis::Value;

use crate::conn::{Call, Redis};
use crate::error::Error;

/// Calls sent in one pipeline.
pub const BATCH: usize = 512;

/// The slack added to TTLs on a virtual clock unless another is chosen: ten minutes
/// of real time for a replay to finish in.
pub const DEFAULT_SLACK_MS: u64 = 600_000;

/// Whose clock decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// A virtual time in ms, passed in: deterministic, replayable.
    At(u64),
    /// The Redis server's `TIME`: one clock for every instance, as a deployment runs.
    Server,
}

/// How a limiter calls Redis: its script by SHA1, or its function in the library.
/// Both run the same text on the same keys and decide the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Form {
    /// `EVALSHA` of the limiter's script (`SCRIPT LOAD` once per connection; `EVAL`
    /// with the text on NOSCRIPT).
    #[default]
    Script,
    /// `FCALL ratelab_<limiter>` of the function library (`FUNCTION LOAD REPLACE`
    /// once per connection, and again if the server lost it): Redis 7 or later.
    Function,
}

/// What a script decided about one request: the engine's `Decision`, exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RedisDecision {
    /// Whether the request passes (possibly after `wait`).
    pub allowed: bool,
    /// How long an allowed request is held first (the leaky queue and nginx).
    pub wait: Ms,
    /// For a denied request: how long until the same request would pass.
    pub retry_after: Ms,
    /// How long until `remaining` grows.
    pub reset: Ms,
    /// Requests of cost 1 that would still pass right now.
    pub remaining: u64,
    /// The time it was decided at (the server's, with [`Clock::Server`]).
    pub at: u64,
    /// ms from `at` until the key is at rest: its TTL (plus the slack on a virtual
    /// clock). 0 when there is nothing to keep.
    pub rest_ms: u64,
    /// Numbers of state the key holds now.
    pub state_numbers: u64,
}

impl RedisDecision {
    /// The response a server would send for it under `policy`.
    pub fn headers(&self, policy: &Policy) -> Headers {
        Headers::from_numbers(
            self.allowed,
            self.retry_after,
            self.reset,
            self.remaining,
            policy,
        )
    }
}

/// One limiter (a lane) whose keys live in Redis.
#[derive(Clone, Debug)]
pub struct RedisLimiter {
    id: String,
    lane: LuaLane,
    space: KeySpace,
    slack_ms: u64,
    form: Form,
    policy: Policy,
    /// The latest virtual time asked about: like the engine's keyed store, time must
    /// not go backwards across keys.
    last: u64,
}

impl RedisLimiter {
    /// `algorithm` with `params`, its keys named after `id` under `space`. The
    /// parameters are checked as the engine checks them, then against what Lua's
    /// numbers hold.
    pub fn new(
        id: &str,
        algorithm: Algorithm,
        params: &Params,
        space: &KeySpace,
    ) -> Result<RedisLimiter, Error> {
        let lane = LuaLane::new(algorithm, params)?;
        Ok(RedisLimiter {
            id: id.to_string(),
            lane,
            space: space.clone(),
            slack_ms: DEFAULT_SLACK_MS,
            form: Form::Script,
            policy: Policy {
                limit: params.limit,
                window_ms: params.period_ms,
            },
            last: 0,
        })
    }

    /// The same limiter with another slack on virtual-clock TTLs.
    pub fn with_slack(mut self, slack_ms: u64) -> RedisLimiter {
        self.slack_ms = slack_ms;
        self
    }

    /// The same limiter called in another form (the script, or the library's
    /// function).
    pub fn with_form(mut self, form: Form) -> RedisLimiter {
        self.form = form;
        self
    }

    /// How it calls Redis.
    pub fn form(&self) -> Form {
        self.form
    }

    /// The lane's checked parameters and script.
    pub fn lane(&self) -> &LuaLane {
        &self.lane
    }

    /// The quota it advertises in `RateLimit-Policy`.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The Redis keys of `key`.
    pub fn keys(&self, key: &str) -> Vec<String> {
        self.lane.keys(&self.space, &self.id, key)
    }

    /// Decides on a request of `cost` from `key` and records it, in one script call.
    pub fn check(
        &mut self,
        redis: &mut Redis,
        key: &str,
        clock: Clock,
        cost: u32,
    ) -> Result<RedisDecision, Error> {
        let mut out = self.check_many(redis, &[(key, clock, cost)])?;
        out.pop().ok_or_else(|| Error::Redis {
            url: redis.url().to_string(),
            what: "no reply".into(),
        })
    }

    /// Decides on `requests` (key, clock, cost) in order, pipelined: every request
    /// is checked first (nothing is sent if one is refused), then sent in batches
    /// of [`BATCH`].
    pub fn check_many(
        &mut self,
        redis: &mut Redis,
        requests: &[(&str, Clock, u32)],
    ) -> Result<Vec<RedisDecision>, Error> {
        let mut last = self.last;
        for &(_, clock, cost) in requests {
            if cost == 0 {
                return Err(CheckError::ZeroCost.into());
            }
            if cost as u64 > self.lane.capacity() {
                return Err(CheckError::CostExceedsCapacity {
                    cost,
                    capacity: self.lane.capacity(),
                }
                .into());
            }
            if let Clock::At(t) = clock {
                LuaLane::check_time(t)?;
                if t < last {
                    return Err(CheckError::TimeWentBackwards {
                        previous: last,
                        now: t,
                    }
                    .into());
                }
                last = t;
            }
        }
        let script = self.lane.script();
        let function = match self.form {
            Form::Script => {
                redis.load(script)?;
                None
            }
            Form::Function => {
                redis.load_library()?;
                ratelab_scripts::library::function(self.lane.algorithm())
            }
        };
        let params = self.lane.params_args();
        let slack = self.slack_ms.to_string();
        // A stream's keys repeat: each one's Redis names are made once.
        let mut names: HashMap<&str, Vec<String>> = HashMap::new();
        for (k, _, _) in requests {
            if !names.contains_key(k) {
                names.insert(k, self.keys(k));
            }
        }
        let mut out = Vec::with_capacity(requests.len());
        for chunk in requests.chunks(BATCH) {
            let calls: Vec<Call<'_>> = chunk
                .iter()
                .map(|&(key, clock, cost)| Call {
                    script,
                    function,
                    keys: names.get(key).map_or(&[][..], Vec::as_slice),
                    head: vec![
                        match clock {
                            Clock::At(t) => t.to_string(),
                            Clock::Server => "TIME".into(),
                        },
                        cost.to_string(),
                        slack.clone(),
                    ],
                    tail: &params,
                })
                .collect();
            for v in redis.eval(&calls)? {
                out.push(parse(&v).map_err(|what| Error::Redis {
                    url: redis.url().to_string(),
                    what: match function {
                        Some(f) => format!("function {f} answered {what}"),
                        None => format!("script {}.lua answered {what}", script.name),
                    },
                })?);
            }
        }
        self.last = last;
        Ok(out)
    }
}

/// The reply of a limiter script: eleven whole numbers (see `lua/prelude.lua`).
fn parse(v: &Value) -> Result<RedisDecision, String> {
    let items = match v {
        Value::Array(items) if items.len() == 11 => items,
        other => return Err(format!("{other:?}, not a decision")),
    };
    let mut n = [0u64; 11];
    for (slot, item) in n.iter_mut().zip(items) {
        *slot = match item {
            Value::Int(x) if *x >= 0 => *x as u64,
            other => return Err(format!("{other:?} where a whole number belongs")),
        };
    }
    let ms = |num: u64, den: u64| {
        if den == 0 {
            Err("a zero denominator".to_string())
        } else {
            Ok(Ms::scaled(num as u128, den))
        }
    };
    Ok(RedisDecision {
        allowed: n[0] == 1,
        wait: ms(n[1], n[2])?,
        retry_after: ms(n[3], n[4])?,
        reset: ms(n[5], n[6])?,
        remaining: n[7],
        rest_ms: n[8],
        at: n[9],
        state_numbers: n[10],
    })
}

//! Where the limiters' state lives: in this process's memory (the engine's keyed
//! limiters behind a mutex) or in Redis (the Lua scripts of ratelab-scripts through
//! ratelab-redis's client).

use std::sync::Mutex;

use ratelab_core::{AnyLimiter, CheckError, Decision, Headers, Keyed, Limiter, Ms, Policy};

/// Keys dropped when at rest every this many checks (never changes a decision).
const EVICT_EVERY: u64 = 4096;

/// The stack's verdict on one request.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    pub allowed: bool,
    /// How long an allowed request is held first (the leaky queue, nginx).
    pub wait: Ms,
    /// The response's numbers: on a refusal, the refusing limit's with the latest
    /// `Retry-After`; when allowed, the limit with the fewest requests left.
    pub headers: Option<Headers>,
    /// The limits (indices into the layer's) that refused.
    pub refused_by: Vec<usize>,
}

impl Outcome {
    pub(crate) fn unlimited() -> Outcome {
        Outcome {
            allowed: true,
            wait: Ms::ZERO,
            headers: None,
            refused_by: Vec::new(),
        }
    }
}

/// Gathers per-limit decisions into one outcome, as the service model does.
pub(crate) struct Gather {
    allowed: bool,
    wait: Ms,
    retry: Ms,
    remaining: u64,
    headers: Option<Headers>,
    refused_by: Vec<usize>,
    any: bool,
}

impl Gather {
    pub(crate) fn new() -> Gather {
        Gather {
            allowed: true,
            wait: Ms::ZERO,
            retry: Ms::ZERO,
            remaining: 0,
            headers: None,
            refused_by: Vec::new(),
            any: false,
        }
    }

    pub(crate) fn add(&mut self, i: usize, allowed: bool, wait: Ms, retry: Ms, h: Headers) {
        if allowed {
            self.wait = self.wait.max(wait);
            if self.allowed && (!self.any || h.remaining < self.remaining) {
                self.remaining = h.remaining;
                self.headers = Some(h);
            }
        } else {
            if self.allowed || retry > self.retry {
                self.retry = retry;
                self.headers = Some(h);
            }
            self.allowed = false;
            self.refused_by.push(i);
        }
        self.any = true;
    }

    pub(crate) fn finish(self) -> Outcome {
        Outcome {
            allowed: self.allowed,
            wait: if self.allowed { self.wait } else { Ms::ZERO },
            headers: self.headers,
            refused_by: self.refused_by,
        }
    }
}

/// The engine's keyed limiters, one per limit, in this process.
pub(crate) struct Memory {
    state: Mutex<MemoryState>,
}

struct MemoryState {
    limits: Vec<(Keyed<AnyLimiter>, Policy)>,
    last: u64,
    checks: u64,
}

impl Memory {
    pub(crate) fn new(limiters: Vec<AnyLimiter>) -> Memory {
        Memory {
            state: Mutex::new(MemoryState {
                limits: limiters
                    .into_iter()
                    .map(|l| {
                        let p = l.policy();
                        (Keyed::new(l), p)
                    })
                    .collect(),
                last: 0,
                checks: 0,
            }),
        }
    }

    /// Decides a request of `cost` at `now` against the limits `asks` (index, key),
    /// exactly as the service model's stacked limits: one limit checks; several are
    /// asked first without recording, and record only if all pass.
    pub(crate) fn decide(
        &self,
        now: u64,
        asks: &[(usize, String)],
        cost: u32,
    ) -> Result<Outcome, CheckError> {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        // The clock may repeat or step back; the keyed store must not.
        let now = now.max(s.last);
        s.last = now;
        s.checks += 1;
        if s.checks % EVICT_EVERY == 0 {
            for (l, _) in &mut s.limits {
                l.evict_at_rest(now);
            }
        }
        let mut g = Gather::new();
        let one = |g: &mut Gather, i: usize, d: &Decision, p: &Policy| {
            g.add(i, d.allowed(), d.wait(), d.retry_after(), d.headers(p));
        };
        match asks {
            [] => return Ok(Outcome::unlimited()),
            [(i, key)] => {
                if let Some((l, p)) = s.limits.get_mut(*i) {
                    let d = l.check(key, now, cost)?;
                    one(&mut g, *i, &d, p);
                }
            }
            many => {
                let mut pass = true;
                for (i, key) in many {
                    if let Some((l, _)) = s.limits.get(*i) {
                        pass &= l.peek(key, now, cost)?.allowed();
                    }
                }
                for (i, key) in many {
                    if let Some((l, p)) = s.limits.get_mut(*i) {
                        let d = if pass {
                            l.check(key, now, cost)?
                        } else {
                            l.peek(key, now, cost)?
                        };
                        one(&mut g, *i, &d, p);
                    }
                }
            }
        }
        Ok(g.finish())
    }
}

#[cfg(feature = "redis")]
pub(crate) mod redis {
    //! The Redis store: the existing synchronous client on tokio's blocking pool
    //! (docs/decisions.md says why), a few connections per layer, each behind a
    //! mutex; a request takes a free one (or waits for one, until its deadline).
    //! After any connection fails, every connection is opened again before its next
    //! use (a restarted server leaves none of them usable), by the next request.

    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    use std::sync::{Mutex, TryLockError};
    use std::time::{Duration, Instant};

    use ratelab_redis::{Clock, Error, Redis, RedisLimiter};

    use super::{Gather, Outcome};

    pub(crate) struct RedisStore {
        url: String,
        /// Every node, for a cluster (empty: one server at `url`).
        nodes: Vec<String>,
        /// The URL as messages show it: without a password.
        shown: String,
        timeout: Duration,
        pool: Vec<Mutex<State>>,
        /// Where the next request starts looking for a free connection.
        next: AtomicUsize,
        /// Bumped when a connection fails: older connections are not used again.
        generation: AtomicU64,
    }

    struct State {
        /// The connection and the generation it was opened in.
        conn: Option<(Redis, u64)>,
        limiters: Vec<RedisLimiter>,
    }

    /// Why the store gave no decision.
    pub(crate) enum Failure {
        /// Redis is down or too slow: the outage policy answers.
        Down(String),
        /// A script answered an error (a key holding another type, out of memory):
        /// the outage policy answers this request; the store is not down.
        Script(String),
        /// The request itself is refused by the limiter (a cost it can never allow).
        Check(String),
    }

    impl RedisStore {
        pub(crate) fn new(
            (nodes, cluster): (&[String], bool),
            timeout: Duration,
            connections: usize,
            limiters: Vec<RedisLimiter>,
        ) -> RedisStore {
            let url = nodes.first().map_or("", String::as_str);
            RedisStore {
                url: url.to_string(),
                nodes: if cluster { nodes.to_vec() } else { Vec::new() },
                shown: without_password(url),
                timeout,
                pool: (0..connections.max(1))
                    .map(|_| {
                        Mutex::new(State {
                            conn: None,
                            limiters: limiters.clone(),
                        })
                    })
                    .collect(),
                next: AtomicUsize::new(0),
                generation: AtomicU64::new(0),
            }
        }

        pub(crate) fn timeout(&self) -> Duration {
            self.timeout
        }

        /// An error's line, the URL in it without its password.
        fn line(&self, e: &Error) -> String {
            e.to_string().replace(&self.url, &self.shown)
        }

        /// A free connection's state, or the next one's once it is free.
        fn take(&self) -> std::sync::MutexGuard<'_, State> {
            let n = self.pool.len();
            let start = self.next.fetch_add(1, Ordering::Relaxed) % n;
            for i in 0..n {
                match self.pool[(start + i) % n].try_lock() {
                    Ok(g) => return g,
                    Err(TryLockError::Poisoned(e)) => return e.into_inner(),
                    Err(TryLockError::WouldBlock) => {}
                }
            }
            self.pool[start].lock().unwrap_or_else(|e| e.into_inner())
        }

        /// Checks the limits in order on the server's clock, stopping at the first
        /// refusal (each limit is its own script call, so a limit before the one that
        /// refused has counted the request: the scripts have no peek). Blocking:
        /// called on tokio's blocking pool.
        pub(crate) fn decide(
            &self,
            asks: &[(usize, String)],
            cost: u32,
            deadline: Instant,
        ) -> Result<Outcome, Failure> {
            let mut s = self.take();
            // A request that waited out its time behind others is not sent.
            if Instant::now() >= deadline {
                return Err(Failure::Down(format!(
                    "{}: no decision within {} ms (every connection was busy)",
                    self.shown,
                    self.timeout.as_millis()
                )));
            }
            let State { conn, limiters } = &mut *s;
            let generation = self.generation.load(Ordering::SeqCst);
            if conn.as_ref().is_some_and(|(_, g)| *g < generation) {
                *conn = None;
            }
            // A connection kept from earlier may have died quietly (the server
            // restarted since): if it fails, one fresh one is tried before the
            // store counts as down.
            let mut fresh = false;
            let mut g = Gather::new();
            let mut j = 0;
            while let Some((i, key)) = asks.get(j) {
                if conn.is_none() {
                    let now = self.generation.load(Ordering::SeqCst);
                    let c = if self.nodes.is_empty() {
                        Redis::connect_with(&self.url, self.timeout, self.timeout)
                    } else {
                        Redis::connect_cluster_with(&self.nodes, self.timeout, self.timeout)
                    };
                    *conn = Some((c.map_err(|e| self.failed(&e))?, now));
                    fresh = true;
                }
                let (Some((redis, _)), Some(l)) = (conn.as_mut(), limiters.get_mut(*i)) else {
                    j += 1;
                    continue;
                };
                match l.check(redis, key, Clock::Server, cost) {
                    Ok(d) => {
                        g.add(*i, d.allowed, d.wait, d.retry_after, d.headers(&l.policy()));
                        if !d.allowed {
                            break;
                        }
                        j += 1;
                    }
                    Err(e @ (Error::Check(_) | Error::Script(_))) => {
                        return Err(Failure::Check(self.line(&e)))
                    }
                    // A lost or timed-out connection is not reused (a late reply
                    // would answer the next call).
                    Err(Error::Redis { .. }) if !fresh && Instant::now() < deadline => {
                        *conn = None;
                        self.generation.fetch_add(1, Ordering::SeqCst);
                    }
                    Err(e @ Error::Redis { .. }) => {
                        *conn = None;
                        return Err(self.failed(&e));
                    }
                    // A script error (a key of another type) keeps the connection.
                    Err(e) => return Err(Failure::Script(self.line(&e))),
                }
            }
            Ok(g.finish())
        }

        /// A connection failed: every connection opened before now is opened again.
        fn failed(&self, e: &Error) -> Failure {
            self.generation.fetch_add(1, Ordering::SeqCst);
            Failure::Down(self.line(e))
        }
    }

    /// `redis://user:secret@host:6379` → `redis://user:***@host:6379`.
    pub(crate) fn without_password(url: &str) -> String {
        let Some((scheme, rest)) = url.split_once("://") else {
            return url.to_string();
        };
        let authority_end = rest.find('/').unwrap_or(rest.len());
        match rest[..authority_end].rfind('@') {
            Some(at) => {
                let user = &rest[..at];
                let name = user.split_once(':').map_or("", |(n, _)| n);
                let masked = if user.contains(':') {
                    format!("{name}:***")
                } else {
                    "***".to_string()
                };
                format!("{scheme}://{masked}{}", &rest[at..])
            }
            None => url.to_string(),
        }
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn passwords_are_not_shown() {
            let w = super::without_password;
            assert_eq!(w("redis://127.0.0.1:6379"), "redis://127.0.0.1:6379");
            assert_eq!(w("redis://:pw@h:1/0"), "redis://:***@h:1/0");
            assert_eq!(w("rediss://u:p@w@h:1"), "rediss://u:***@h:1");
            assert_eq!(w("redis://token@h"), "redis://***@h");
            assert_eq!(w("redis+unix:///tmp/r.sock"), "redis+unix:///tmp/r.sock");
        }
    }
}

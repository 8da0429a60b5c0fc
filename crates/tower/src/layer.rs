//! The layer, its builder, and the service it wraps around an inner one.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use http::header::{HeaderName, HeaderValue, CONTENT_TYPE};
use http::request::Parts;
use http::{Request, Response, StatusCode};
use ratelab_core::{AnyLimiter, Headers};
use tower_layer::Layer;
use tower_service::Service;

use crate::clock::{Clock, SystemClock};
use crate::policy::{self, Health, Log, OnStoreDown, StoreEvent};
use crate::store::{Memory, Outcome};
use crate::{BuildError, Key, Limit};

/// The most limits one layer stacks (as the service model).
pub const MAX_LIMITS: usize = 8;

/// The header naming the limits that refused a request (their ids, comma-separated).
pub const REFUSED_BY: &str = "x-ratelimit-refused-by";

/// The body of a 503 while the store is down and the policy fails closed.
pub const UNAVAILABLE_BODY: &str = "{\"error\": \"rate_limit_store_unavailable\"}";

/// How much a request costs, from its head.
type CostFn = Arc<dyn Fn(&Parts) -> u32 + Send + Sync>;

/// How [`RateLimitLayer`] is put together; [`RateLimitLayer::builder`] starts one.
pub struct Builder {
    limits: Vec<Limit>,
    key: Key,
    cost: Option<CostFn>,
    store: StoreChoice,
    timeout: Duration,
    connections: usize,
    on_down: OnStoreDown,
    clock: Arc<dyn Clock>,
    log: Log,
    delay: bool,
}

enum StoreChoice {
    Memory,
    #[cfg(feature = "redis")]
    Redis {
        /// One server, or a cluster's nodes.
        urls: Vec<String>,
        cluster: bool,
        prefix: String,
    },
}

impl Builder {
    /// Adds a limit to the stack: a request passes only if every limit that applies
    /// to it passes it.
    pub fn limit(mut self, limit: Limit) -> Builder {
        self.limits.push(limit);
        self
    }

    /// The key every limit counts by unless it has its own ([`Key::Peer`] unless
    /// told).
    pub fn key(mut self, key: Key) -> Builder {
        self.key = key;
        self
    }

    /// What a request costs (1 unless told): an export costing 5 takes 5 of every
    /// limit that applies to it. A cost of 0 passes unchecked.
    pub fn cost(mut self, f: impl Fn(&Parts) -> u32 + Send + Sync + 'static) -> Builder {
        self.cost = Some(Arc::new(f));
        self
    }

    /// The state lives in a Redis server at `url` (`redis://127.0.0.1:6379`), under
    /// `ratelab:v2` unless [`Builder::redis_prefix`] says otherwise; every instance
    /// pointed at it shares the limits, and decides on the server's clock.
    #[cfg(feature = "redis")]
    pub fn redis(self, url: &str) -> Builder {
        self.redis_urls(vec![url.to_string()], false)
    }

    /// The state lives in a Redis Cluster reached through any of `nodes`; each
    /// limiter key's Redis keys share a slot (the key layout's hash tag), so every
    /// script call goes to the one node that serves it.
    #[cfg(feature = "redis")]
    pub fn redis_cluster(self, nodes: &[&str]) -> Builder {
        self.redis_urls(nodes.iter().map(|s| s.to_string()).collect(), true)
    }

    #[cfg(feature = "redis")]
    fn redis_urls(mut self, urls: Vec<String>, cluster: bool) -> Builder {
        let prefix = match &self.store {
            StoreChoice::Redis { prefix, .. } => prefix.clone(),
            StoreChoice::Memory => ratelab_scripts::DEFAULT_PREFIX.to_string(),
        };
        self.store = StoreChoice::Redis {
            urls,
            cluster,
            prefix,
        };
        self
    }

    /// The Redis keys' prefix (with [`Builder::redis`]).
    #[cfg(feature = "redis")]
    pub fn redis_prefix(mut self, prefix: &str) -> Builder {
        if let StoreChoice::Redis { prefix: p, .. } = &mut self.store {
            *p = prefix.to_string();
        }
        self
    }

    /// How many connections to Redis a layer keeps (4 unless told): requests in
    /// flight at once each take a free one; more wait for one, until their timeout.
    #[cfg(feature = "redis")]
    pub fn redis_connections(mut self, n: usize) -> Builder {
        self.connections = n;
        self
    }

    /// How long a request waits for the store before the outage policy answers it
    /// (connecting, and each reply). 250 ms unless told.
    pub fn timeout(mut self, timeout: Duration) -> Builder {
        self.timeout = timeout;
        self
    }

    /// What to answer while the store is down (fail open unless told).
    pub fn on_store_down(mut self, policy: OnStoreDown) -> Builder {
        self.on_down = policy;
        self
    }

    /// The clock of the in-memory store and the fallback (the system's unless told).
    pub fn clock(mut self, clock: impl Clock) -> Builder {
        self.clock = Arc::new(clock);
        self
    }

    /// Where the store's outages are reported, once each way per outage (one line
    /// on stderr unless told).
    pub fn on_event(mut self, f: impl Fn(&StoreEvent) + Send + Sync + 'static) -> Builder {
        self.log = Arc::new(f);
        self
    }

    /// Whether an allowed request that the leaky queue or nginx delays is held for
    /// its wait before the inner service sees it (yes unless told; no passes it at
    /// once, with the same headers).
    pub fn hold_delayed(mut self, hold: bool) -> Builder {
        self.delay = hold;
        self
    }

    /// Checks everything and builds the layer; a configuration the engine (or, on
    /// Redis, the scripts) would refuse is refused here with one line.
    pub fn build(self) -> Result<RateLimitLayer, BuildError> {
        if self.limits.is_empty() {
            return Err(BuildError::new("limits: give at least one limit"));
        }
        if self.limits.len() > MAX_LIMITS {
            return Err(BuildError::new(format!(
                "limits: {} limits is too many (at most {MAX_LIMITS})",
                self.limits.len()
            )));
        }
        for (i, l) in self.limits.iter().enumerate() {
            if self.limits[..i].iter().any(|o| o.lane.id == l.lane.id) {
                return Err(BuildError::new(format!(
                    "limits[{i}].id: duplicate id {:?} (give each limit its own id)",
                    l.lane.id
                )));
            }
        }
        let built = |l: &Limit, path: &str| {
            l.lane
                .build()
                .map_err(|e| BuildError::new(ratelab_sim::SimError::param(path, &e).as_str()))
        };
        let mut limiters: Vec<AnyLimiter> = Vec::with_capacity(self.limits.len());
        for (i, l) in self.limits.iter().enumerate() {
            limiters.push(built(l, &format!("limits[{i}]"))?);
        }
        let backend = match self.store {
            StoreChoice::Memory => Backend::Memory(Memory::new(limiters)),
            #[cfg(feature = "redis")]
            StoreChoice::Redis {
                urls,
                cluster,
                prefix,
            } => {
                if self.connections == 0 {
                    return Err(BuildError::new("redis_connections: must be > 0"));
                }
                Backend::Redis(Arc::new(redis_store(
                    (&urls, cluster),
                    &prefix,
                    (self.timeout, self.connections),
                    &self.limits,
                )?))
            }
        };
        let on_down = match self.on_down {
            OnStoreDown::FailOpen => Down::FailOpen,
            OnStoreDown::FailClosed => Down::FailClosed,
            OnStoreDown::Fallback(limit) => {
                let l = built(&limit, "fallback")?;
                Down::Fallback {
                    memory: Memory::new(vec![l]),
                    limit: *limit,
                }
            }
        };
        if self.timeout.is_zero() {
            return Err(BuildError::new("timeout: must be > 0"));
        }
        Ok(RateLimitLayer {
            shared: Arc::new(Shared {
                limits: self.limits,
                key: self.key,
                cost: self.cost,
                backend,
                timeout: self.timeout,
                on_down,
                clock: self.clock,
                log: self.log,
                health: Health::default(),
                delay: self.delay,
            }),
        })
    }
}

#[cfg(feature = "redis")]
fn redis_store(
    (urls, cluster): (&[String], bool),
    prefix: &str,
    (timeout, connections): (Duration, usize),
    limits: &[Limit],
) -> Result<crate::store::redis::RedisStore, BuildError> {
    use ratelab_redis::{redis, RedisLimiter};
    use ratelab_scripts::KeySpace;
    if urls.is_empty() {
        return Err(BuildError::new("redis: give at least one node"));
    }
    for url in urls {
        redis::Client::open(url.as_str()).map_err(|e| {
            let e = e.to_string();
            BuildError::new(format!(
                "redis: {:?} is not a Redis URL ({})",
                crate::store::redis::without_password(url),
                e.split_whitespace().collect::<Vec<_>>().join(" ")
            ))
        })?;
    }
    let space = KeySpace::new(prefix).map_err(|e| BuildError::new(format!("redis_prefix: {e}")))?;
    let mut out = Vec::with_capacity(limits.len());
    for (i, l) in limits.iter().enumerate() {
        let r = RedisLimiter::new(&l.lane.id, l.lane.algorithm, &l.lane.params, &space).map_err(
            |e| BuildError::new(ratelab_sim::SimError::param(&format!("limits[{i}]"), &e).as_str()),
        )?;
        out.push(r);
    }
    Ok(crate::store::redis::RedisStore::new(
        (urls, cluster),
        timeout,
        connections,
        out,
    ))
}

/// A tower layer that rate-limits the service it wraps with ratelab's limiters.
///
/// Cheap to clone (one `Arc`); every service it makes shares one store.
#[derive(Clone)]
pub struct RateLimitLayer {
    shared: Arc<Shared>,
}

impl RateLimitLayer {
    /// A builder: in memory, key [`Key::Peer`], cost 1, fail open, a 250 ms timeout.
    pub fn builder() -> Builder {
        Builder {
            limits: Vec::new(),
            key: Key::Peer,
            cost: None,
            store: StoreChoice::Memory,
            timeout: Duration::from_millis(250),
            connections: 4,
            on_down: OnStoreDown::FailOpen,
            clock: Arc::new(SystemClock),
            log: policy::stderr(),
            delay: true,
        }
    }

    /// One limit from a lane's JSON, in memory, keyed by the client's address.
    pub fn from_json(lane: &str) -> Result<RateLimitLayer, BuildError> {
        RateLimitLayer::builder()
            .limit(Limit::from_json(lane)?)
            .build()
    }
}

impl<S> Layer<S> for RateLimitLayer {
    type Service = RateLimit<S>;

    fn layer(&self, inner: S) -> RateLimit<S> {
        RateLimit {
            inner,
            shared: self.shared.clone(),
        }
    }
}

struct Shared {
    limits: Vec<Limit>,
    key: Key,
    cost: Option<CostFn>,
    backend: Backend,
    timeout: Duration,
    on_down: Down,
    clock: Arc<dyn Clock>,
    log: Log,
    health: Health,
    delay: bool,
}

enum Backend {
    Memory(Memory),
    #[cfg(feature = "redis")]
    Redis(Arc<crate::store::redis::RedisStore>),
}

enum Down {
    FailOpen,
    FailClosed,
    Fallback { memory: Memory, limit: Limit },
}

/// What the layer does with a request.
enum Answer {
    /// On to the inner service (after `wait`), with these headers on its response.
    Pass(Outcome),
    /// Answered here: 429, 503, or 500 for a request no limiter can judge.
    Respond(StatusCode, Vec<(HeaderName, HeaderValue)>, String),
}

impl Shared {
    fn asks(&self, parts: &Parts, limits: &[Limit]) -> Vec<(usize, String)> {
        limits
            .iter()
            .enumerate()
            .filter(|(_, l)| l.applies_to(parts))
            .map(|(i, l)| (i, l.key.as_ref().unwrap_or(&self.key).of(parts)))
            .collect()
    }

    /// The answer when it needs no waiting for a store (in memory, a free request),
    /// else what to ask the store.
    fn decide_now(&self, parts: &Parts) -> Result<Answer, (Vec<(usize, String)>, u32)> {
        let cost = self.cost.as_ref().map_or(1, |f| f(parts));
        let all = &self.limits[..];
        let asks = self.asks(parts, all);
        if cost == 0 || asks.is_empty() {
            return Ok(Answer::Pass(Outcome::unlimited()));
        }
        match &self.backend {
            Backend::Memory(m) => Ok(match m.decide(self.clock.now_ms(), &asks, cost) {
                Ok(o) => self.answer(o, all),
                Err(e) => cannot_judge(&e.to_string()),
            }),
            #[cfg(feature = "redis")]
            Backend::Redis(_) => Err((asks, cost)),
        }
    }

    /// Asks the store (Redis) and answers.
    #[cfg_attr(not(feature = "redis"), allow(unused_variables))]
    async fn decide_later(&self, parts: &Parts, asks: Vec<(usize, String)>, cost: u32) -> Answer {
        let all = &self.limits[..];
        match &self.backend {
            Backend::Memory(_) => Answer::Pass(Outcome::unlimited()),
            #[cfg(feature = "redis")]
            Backend::Redis(r) => {
                use crate::store::redis::Failure;
                let deadline = std::time::Instant::now() + r.timeout();
                let store = r.clone();
                let result = match tokio::runtime::Handle::try_current() {
                    Ok(_) => {
                        let task = tokio::task::spawn_blocking(move || {
                            store.decide(&asks, cost, deadline)
                        });
                        // Connecting and each reply are bounded by the timeout; this
                        // bounds the whole call (the request is answered, whatever
                        // the blocking thread is still doing).
                        match tokio::time::timeout(self.timeout * 2, task).await {
                            Ok(Ok(r)) => r,
                            Ok(Err(_)) => Err(Failure::Down("the store's task failed".into())),
                            Err(_) => Err(Failure::Down(format!(
                                "no decision within {} ms",
                                (self.timeout * 2).as_millis()
                            ))),
                        }
                    }
                    // Not on a tokio runtime: decide here, blocking.
                    Err(_) => store.decide(&asks, cost, deadline),
                };
                match result {
                    Ok(o) => {
                        self.health.decided(&self.log);
                        self.answer(o, all)
                    }
                    Err(Failure::Check(line)) => {
                        self.health.decided(&self.log);
                        cannot_judge(&line)
                    }
                    Err(Failure::Down(error)) => {
                        self.health.failed(error, &self.log);
                        self.store_down(parts, cost)
                    }
                    Err(Failure::Script(error)) => {
                        self.health.script_failed(error, &self.log);
                        self.store_down(parts, cost)
                    }
                }
            }
        }
    }

    fn store_down(&self, parts: &Parts, cost: u32) -> Answer {
        match &self.on_down {
            Down::FailOpen => Answer::Pass(Outcome::unlimited()),
            Down::FailClosed => Answer::Respond(
                StatusCode::SERVICE_UNAVAILABLE,
                vec![(
                    CONTENT_TYPE,
                    HeaderValue::from_static(ratelab_core::BODY_CONTENT_TYPE),
                )],
                UNAVAILABLE_BODY.to_string(),
            ),
            Down::Fallback { memory, limit } => {
                if !limit.applies_to(parts) {
                    return Answer::Pass(Outcome::unlimited());
                }
                let key = limit.key.as_ref().unwrap_or(&self.key).of(parts);
                match memory.decide(self.clock.now_ms(), &[(0, key)], cost) {
                    Ok(o) => self.answer(o, std::slice::from_ref(limit)),
                    Err(e) => cannot_judge(&e.to_string()),
                }
            }
        }
    }

    fn answer(&self, o: Outcome, limits: &[Limit]) -> Answer {
        if o.allowed {
            return Answer::Pass(o);
        }
        let mut headers = o.headers.as_ref().map(fields).unwrap_or_default();
        let by: Vec<&str> = o
            .refused_by
            .iter()
            .filter_map(|&i| limits.get(i).map(|l| l.lane.id.as_str()))
            .collect();
        if let Ok(v) = HeaderValue::from_str(&by.join(",")) {
            headers.push((HeaderName::from_static(REFUSED_BY), v));
        }
        headers.push((
            CONTENT_TYPE,
            HeaderValue::from_static(ratelab_core::BODY_CONTENT_TYPE),
        ));
        let body = o
            .headers
            .as_ref()
            .and_then(Headers::body)
            .unwrap_or_default();
        Answer::Respond(StatusCode::TOO_MANY_REQUESTS, headers, body)
    }
}

/// A request the limiter refuses to judge (a cost larger than it can ever allow):
/// a configuration error, answered 500 with the engine's line.
fn cannot_judge(line: &str) -> Answer {
    Answer::Respond(
        StatusCode::INTERNAL_SERVER_ERROR,
        vec![(CONTENT_TYPE, HeaderValue::from_static("text/plain"))],
        format!("rate limiter: {line}\n"),
    )
}

// The engine's field names (`Headers::fields`), lower case as HTTP/2 and hyper
// write them; a test holds them to the engine's.
const POLICY: HeaderName = HeaderName::from_static("ratelimit-policy");
const RATELIMIT: HeaderName = HeaderName::from_static("ratelimit");
const X_LIMIT: HeaderName = HeaderName::from_static("x-ratelimit-limit");
const X_REMAINING: HeaderName = HeaderName::from_static("x-ratelimit-remaining");
const X_RESET: HeaderName = HeaderName::from_static("x-ratelimit-reset");

/// The response's rate-limit fields: `Retry-After` (on a 429), the IETF draft's
/// `RateLimit-Policy` and `RateLimit`, and `X-RateLimit-Limit`, `-Remaining`,
/// `-Reset`: the engine's values (`Headers`), in the order of `Headers::fields`.
fn fields(h: &Headers) -> Vec<(HeaderName, HeaderValue)> {
    let mut out = Vec::with_capacity(6);
    if let Some(r) = h.retry_after {
        out.push((http::header::RETRY_AFTER, HeaderValue::from(r)));
    }
    for (name, text) in [(POLICY, &h.policy), (RATELIMIT, &h.ratelimit)] {
        if let Ok(v) = HeaderValue::from_str(text) {
            out.push((name, v));
        }
    }
    out.push((X_LIMIT, HeaderValue::from(h.limit)));
    out.push((X_REMAINING, HeaderValue::from(h.remaining)));
    out.push((X_RESET, HeaderValue::from(h.reset)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratelab_core::{Algorithm, AnyLimiter, Dialect, Limiter, Params};

    /// The fields are the engine's, name for name and value for value.
    #[test]
    fn fields_are_the_engines() {
        let mut l = AnyLimiter::new(Algorithm::FixedWindow, &Params::new(1, 10_000)).unwrap();
        for t in [0, 500] {
            let h = l.check(t, 1).unwrap().headers(&l.policy());
            let mut engine = h.fields(Dialect::Ietf);
            engine.extend(
                h.fields(Dialect::Common)
                    .into_iter()
                    .filter(|(n, _)| *n != "Retry-After"),
            );
            let ours: Vec<(String, String)> = fields(&h)
                .into_iter()
                .map(|(n, v)| (n.to_string(), v.to_str().unwrap().to_string()))
                .collect();
            let engine: Vec<(String, String)> = engine
                .into_iter()
                .map(|(n, v)| (n.to_ascii_lowercase(), v))
                .collect();
            assert_eq!(ours, engine);
        }
    }
}

/// The service [`RateLimitLayer`] wraps around `S`.
#[derive(Clone)]
pub struct RateLimit<S> {
    inner: S,
    shared: Arc<Shared>,
}

impl<S, B, R> Service<Request<B>> for RateLimit<S>
where
    S: Service<Request<B>, Response = Response<R>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    B: Send + 'static,
    R: From<String> + Send + 'static,
{
    type Response = Response<R>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Response<R>, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request<B>) -> Self::Future {
        let shared = self.shared.clone();
        let (parts, body) = req.into_parts();
        match shared.decide_now(&parts) {
            // Decided here (in memory): the inner service is called now, as it was
            // made ready, and the future only adds the headers.
            Ok(Answer::Pass(o)) if !(shared.delay && o.wait.ceil_ms() > 0) => {
                let future = self.inner.call(Request::from_parts(parts, body));
                Box::pin(async move { future.await.map(|res| with_fields(res, &o)) })
            }
            Ok(Answer::Respond(status, headers, text)) => {
                Box::pin(async move { Ok(respond(status, headers, text)) })
            }
            decided => {
                // The answer needs waiting (a store, a queue's delay): the service
                // that was made ready goes into the future; a clone stays.
                let clone = self.inner.clone();
                let mut inner = std::mem::replace(&mut self.inner, clone);
                Box::pin(async move {
                    let answer = match decided {
                        Ok(a) => a,
                        Err((asks, cost)) => shared.decide_later(&parts, asks, cost).await,
                    };
                    match answer {
                        Answer::Pass(o) => {
                            let wait = o.wait.ceil_ms();
                            if shared.delay && wait > 0 {
                                tokio::time::sleep(Duration::from_millis(wait)).await;
                            }
                            let res = inner.call(Request::from_parts(parts, body)).await?;
                            Ok(with_fields(res, &o))
                        }
                        Answer::Respond(status, headers, text) => {
                            Ok(respond(status, headers, text))
                        }
                    }
                })
            }
        }
    }
}

/// The inner service's response with the rate-limit fields it did not set itself.
fn with_fields<R>(mut res: Response<R>, o: &Outcome) -> Response<R> {
    if let Some(h) = &o.headers {
        let headers = res.headers_mut();
        for (name, value) in fields(h) {
            headers.entry(name).or_insert(value);
        }
    }
    res
}

/// A response of the layer's own.
fn respond<R: From<String>>(
    status: StatusCode,
    headers: Vec<(HeaderName, HeaderValue)>,
    text: String,
) -> Response<R> {
    let mut res = Response::new(R::from(text));
    *res.status_mut() = status;
    res.headers_mut().extend(headers);
    res
}

//! What a service is made of: routes, clients (demand, route mix, retry policy), the
//! stacked limits and their keys, the instances and their store, outages and what to
//! do during them. Plain data, validated by [`ServiceSpec::validate`] with one-line
//! errors that name the path (`services[0].clients[3].retry.max_attempts: ...`).

use ratelab_core::{CheckError, Limiter, MAX_PERIOD_MS};

use crate::error::SimError;
use crate::lane::LaneSpec;
use crate::stream::{MAX_LABEL_CHARS, MAX_REQUESTS, MAX_TIME_MS};

/// The most clients one service has (the playground's timeline holds 1 000 keys).
pub const MAX_CLIENTS: usize = 1_000;
/// The most app instances behind the balancer.
pub const MAX_INSTANCES: u32 = 64;
/// The most attempts a client makes for one request (the first one included).
pub const MAX_ATTEMPTS: u32 = 20;
/// The most outage spans.
pub const MAX_OUTAGES: usize = 32;
/// The most limits stacked on one service.
pub const MAX_LIMITS: usize = 8;
/// The most routes.
pub const MAX_ROUTES: usize = 16;
/// The most demand parts one client has.
pub const MAX_DEMAND_PARTS: usize = 8;

/// A route of the service and what one request to it costs (in every limit that
/// applies to it). Costs are the server's: the same route costs the same for everyone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// Its name (`read`, `POST /export`, ...).
    pub name: String,
    /// What a request to it counts as (≥ 1).
    pub cost: u32,
}

impl Route {
    /// A route of cost 1.
    pub fn new(name: impl Into<String>) -> Route {
        Route {
            name: name.into(),
            cost: 1,
        }
    }
}

/// When a client sends its first attempts (retries come on top). Times are ms on the
/// virtual clock; `until_ms: None` means the service's `duration_ms`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Demand {
    /// Seeded Poisson arrivals at `rate` requests per `per_ms` on average, in
    /// `[from_ms, until_ms)` (the generator of [`crate::traffic`]).
    Poisson {
        /// Requests per `per_ms`, on average.
        rate: u64,
        /// The period of `rate`, in ms.
        per_ms: u64,
        /// Start.
        from_ms: u64,
        /// End (exclusive).
        until_ms: Option<u64>,
    },
    /// Bursts of `size` requests `spacing_ms` apart, one burst every `every_ms` from
    /// `from_ms` while the burst starts before `until_ms` (`every_ms: None`: one
    /// burst).
    Bursts {
        /// Requests per burst.
        size: u32,
        /// Between two requests of a burst (0: all at once).
        spacing_ms: u64,
        /// Between two bursts' starts.
        every_ms: Option<u64>,
        /// The first burst's start.
        from_ms: u64,
        /// No burst starts at or after this.
        until_ms: Option<u64>,
    },
    /// A page that fires `size` requests at once, loaded at each of `at_ms` (sorted).
    PageLoads {
        /// Requests per page load.
        size: u32,
        /// When the page is loaded.
        at_ms: Vec<u64>,
    },
    /// One request at each of the given times (sorted).
    Times(Vec<u64>),
}

impl Demand {
    /// Checks this part (errors start with `p`), ending at `duration_ms` where it
    /// does not say; returns about how many requests it makes.
    pub fn check(&self, p: &str, duration_ms: u64) -> Result<u128, SimError> {
        let until = |u: Option<u64>, from: u64| -> Result<u64, SimError> {
            let end = u.unwrap_or(duration_ms);
            at_most(end, MAX_TIME_MS, &join(p, "until_ms"))?;
            at_most(from, MAX_TIME_MS, &join(p, "from_ms"))?;
            if end <= from {
                return Err(SimError::at(
                    &join(p, "until_ms"),
                    format_args!("must be after from_ms = {from}"),
                ));
            }
            Ok(end)
        };
        match self {
            Demand::Poisson {
                rate,
                per_ms,
                from_ms,
                until_ms,
            } => {
                positive(*rate, &join(p, "rate"))?;
                at_most(*rate, u32::MAX as u64, &join(p, "rate"))?;
                positive(*per_ms, &join(p, "per_ms"))?;
                at_most(*per_ms, MAX_PERIOD_MS, &join(p, "per_ms"))?;
                let end = until(*until_ms, *from_ms)?;
                Ok(*rate as u128 * (end - from_ms) as u128 / *per_ms as u128)
            }
            Demand::Bursts {
                size,
                spacing_ms,
                every_ms,
                from_ms,
                until_ms,
            } => {
                positive(*size as u64, &join(p, "size"))?;
                at_most(*spacing_ms, MAX_PERIOD_MS, &join(p, "spacing_ms"))?;
                let end = until(*until_ms, *from_ms)?;
                let bursts = match every_ms {
                    None => 1,
                    Some(e) => {
                        positive(*e, &join(p, "every_ms"))?;
                        at_most(*e, MAX_PERIOD_MS, &join(p, "every_ms"))?;
                        (end - from_ms).div_ceil(*e) as u128
                    }
                };
                Ok(bursts * *size as u128)
            }
            Demand::PageLoads { size, at_ms } => {
                positive(*size as u64, &join(p, "size"))?;
                sorted_times(at_ms, &join(p, "at_ms"))?;
                Ok(*size as u128 * at_ms.len() as u128)
            }
            Demand::Times(times) => {
                sorted_times(times, &join(p, "times"))?;
                Ok(times.len() as u128)
            }
        }
    }
}

/// What a client waits before trying again after a refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backoff {
    /// Never retries.
    None,
    /// Retries at once (at the same millisecond).
    Immediately,
    /// Retries after a fixed delay.
    Fixed {
        /// The delay, ms.
        delay_ms: u64,
    },
    /// `min(cap, base · 2^(n − 1))` after the n-th refusal.
    Exponential {
        /// The first delay, ms.
        base_ms: u64,
        /// The longest delay, ms.
        cap_ms: u64,
    },
    /// "Full jitter": a uniform whole number of ms in `[0, min(cap, base · 2^(n − 1))]`.
    FullJitter {
        /// The first ceiling, ms.
        base_ms: u64,
        /// The highest ceiling, ms.
        cap_ms: u64,
    },
    /// The response's `Retry-After` (whole seconds), plus a uniform whole number of
    /// ms in `[0, jitter_ms]`. A refusal without the header (a 503 from a store that
    /// fails closed) is read as `Retry-After: 1`.
    RetryAfter {
        /// The most jitter added, ms (0: none).
        jitter_ms: u64,
    },
}

impl Backoff {
    /// The name in the JSON format and links.
    pub fn id(self) -> &'static str {
        match self {
            Backoff::None => "none",
            Backoff::Immediately => "immediately",
            Backoff::Fixed { .. } => "fixed",
            Backoff::Exponential { .. } => "exponential",
            Backoff::FullJitter { .. } => "full_jitter",
            Backoff::RetryAfter { .. } => "retry_after",
        }
    }
}

/// A client's retry policy: how long to wait, and how many attempts in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// The wait before each retry.
    pub backoff: Backoff,
    /// Attempts per request, the first one included (1 with [`Backoff::None`]).
    pub max_attempts: u32,
}

impl RetryPolicy {
    /// Never retry.
    pub const NONE: RetryPolicy = RetryPolicy {
        backoff: Backoff::None,
        max_attempts: 1,
    };

    /// `backoff`, with at most `max_attempts` attempts.
    pub fn new(backoff: Backoff, max_attempts: u32) -> RetryPolicy {
        RetryPolicy {
            backoff,
            max_attempts,
        }
    }
}

/// Whose requests a limit counts together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyMode {
    /// One counter per client (user id, API key).
    Client,
    /// One counter for everyone.
    Global,
    /// One counter per client and route.
    ClientRoute,
}

impl KeyMode {
    /// The name in the JSON format and links.
    pub fn id(self) -> &'static str {
        match self {
            KeyMode::Client => "client",
            KeyMode::Global => "global",
            KeyMode::ClientRoute => "client_route",
        }
    }
}

/// One limit of the stack: a limiter, whose key it counts by, and the routes it
/// applies to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitSpec {
    /// The limiter and its label (the report names the limit that denied by it).
    pub lane: LaneSpec,
    /// Whose requests it counts together.
    pub key: KeyMode,
    /// The routes (indices into [`ServiceSpec::routes`]) it applies to; `None`: all.
    pub routes: Option<Vec<u32>>,
}

impl LimitSpec {
    /// `lane`, counted by `key`, on every route.
    pub fn new(lane: LaneSpec, key: KeyMode) -> LimitSpec {
        LimitSpec {
            lane,
            key,
            routes: None,
        }
    }

    /// Whether it applies to route `route`.
    pub fn applies_to(&self, route: u32) -> bool {
        self.routes.as_ref().is_none_or(|r| r.contains(&route))
    }
}

/// How the balancer picks an instance for each request (retries included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Balancing {
    /// Instance `i mod M` for the i-th request.
    RoundRobin,
    /// A seeded uniform choice.
    Random,
}

impl Balancing {
    /// The name in the JSON format and links.
    pub fn id(self) -> &'static str {
        match self {
            Balancing::RoundRobin => "round_robin",
            Balancing::Random => "random",
        }
    }
}

/// Where the limiters' state lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Store {
    /// In each instance's memory: every instance counts on its own.
    Local,
    /// In one store every instance asks (Redis, say), atomically.
    Shared,
}

impl Store {
    /// The name in the JSON format and links.
    pub fn id(self) -> &'static str {
        match self {
            Store::Local => "local",
            Store::Shared => "shared",
        }
    }
}

/// What an instance does with a request while the shared store is unreachable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnOutage {
    /// Let it through unchecked.
    FailOpen,
    /// Refuse it (`503 Service Unavailable`, no `Retry-After`).
    FailClosed,
    /// Decide with a limiter in the instance's own memory (usually a looser one),
    /// counted by its key, on every route.
    Fallback(Box<LimitSpec>),
}

impl OnOutage {
    /// The name in the JSON format and links.
    pub fn id(&self) -> &'static str {
        match self {
            OnOutage::FailOpen => "fail_open",
            OnOutage::FailClosed => "fail_closed",
            OnOutage::Fallback(_) => "fallback",
        }
    }
}

/// A span of time `[from_ms, to_ms)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// Start (inclusive).
    pub from_ms: u64,
    /// End (exclusive).
    pub to_ms: u64,
}

impl Span {
    /// Whether `t` is inside.
    pub fn contains(&self, t: u64) -> bool {
        self.from_ms <= t && t < self.to_ms
    }
}

/// One client: a key with its own demand, route mix and retry policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientSpec {
    /// Its name (the key of [`KeyMode::Client`]).
    pub name: String,
    /// When it sends first attempts (the parts add up).
    pub demand: Vec<Demand>,
    /// `(route, weight)`: each first attempt goes to a route drawn with these weights
    /// (seeded); its retries go to the same route.
    pub routes: Vec<(u32, u32)>,
    /// What it does after a refusal.
    pub retry: RetryPolicy,
}

impl ClientSpec {
    /// A client with one demand part, on route 0, never retrying.
    pub fn new(name: impl Into<String>, demand: Demand) -> ClientSpec {
        ClientSpec {
            name: name.into(),
            demand: vec![demand],
            routes: vec![(0, 1)],
            retry: RetryPolicy::NONE,
        }
    }

    /// The same client with another retry policy.
    pub fn with_retry(mut self, retry: RetryPolicy) -> ClientSpec {
        self.retry = retry;
        self
    }

    /// The same client with another route mix.
    pub fn with_routes(mut self, routes: Vec<(u32, u32)>) -> ClientSpec {
        self.routes = routes;
        self
    }
}

/// A whole service: who calls it, what it limits, how it is deployed, what fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceSpec {
    /// The label of this variant (a lane of a service scenario).
    pub id: String,
    /// Its routes (at least one).
    pub routes: Vec<Route>,
    /// Its clients.
    pub clients: Vec<ClientSpec>,
    /// The limits; a request passes only if every limit that applies passes it.
    pub limits: Vec<LimitSpec>,
    /// App instances behind the balancer.
    pub instances: u32,
    /// How the balancer picks one.
    pub balancing: Balancing,
    /// Where the limiters' state lives.
    pub store: Store,
    /// When the shared store is unreachable (sorted, apart).
    pub outages: Vec<Span>,
    /// What instances do then.
    pub on_outage: OnOutage,
    /// The default end of the demand (retries may go on after it).
    pub duration_ms: u64,
    /// The seed of every random choice (arrivals, routes, jitter, balancing).
    pub seed: u64,
    /// The yardstick window; `None`: the first limit's period.
    pub window_ms: Option<u64>,
}

impl ServiceSpec {
    /// One instance, one route `api` of cost 1, the given clients and limits, no
    /// outage.
    pub fn new(
        id: impl Into<String>,
        clients: Vec<ClientSpec>,
        limits: Vec<LimitSpec>,
        duration_ms: u64,
    ) -> ServiceSpec {
        ServiceSpec {
            id: id.into(),
            routes: vec![Route::new("api")],
            clients,
            limits,
            instances: 1,
            balancing: Balancing::RoundRobin,
            store: Store::Shared,
            outages: Vec::new(),
            on_outage: OnOutage::FailOpen,
            duration_ms,
            seed: 1,
            window_ms: None,
        }
    }

    /// The yardstick window: `window_ms`, or the first limit's period.
    pub fn window(&self) -> u64 {
        self.window_ms
            .or_else(|| self.limits.first().map(|l| l.lane.params.period_ms))
            .unwrap_or(1_000)
    }

    /// Checks everything a run needs; errors start with `path` (e.g. `services[0]`).
    pub fn validate(&self, path: &str) -> Result<(), SimError> {
        let at = |f: &str| join(path, f);
        label(&self.id, &at("id"))?;
        how_many(self.routes.len(), MAX_ROUTES, &at("routes"), "routes")?;
        for (i, r) in self.routes.iter().enumerate() {
            let p = at(&format!("routes[{i}]"));
            label(&r.name, &join(&p, "name"))?;
            if self.routes[..i].iter().any(|o| o.name == r.name) {
                return Err(SimError::at(
                    &join(&p, "name"),
                    format_args!("duplicate route \"{}\"", r.name),
                ));
            }
            if r.cost == 0 {
                return Err(SimError::at(&join(&p, "cost"), "must be > 0"));
            }
        }
        how_many(self.clients.len(), MAX_CLIENTS, &at("clients"), "clients")?;
        positive(self.duration_ms, &at("duration_ms"))?;
        at_most(self.duration_ms, MAX_PERIOD_MS, &at("duration_ms"))?;
        let mut demand: u128 = 0;
        for (i, c) in self.clients.iter().enumerate() {
            let p = at(&format!("clients[{i}]"));
            demand += self.validate_client(c, i, &p)?;
        }
        if demand > MAX_REQUESTS as u128 {
            return Err(SimError::at(
                &at("clients"),
                format_args!(
                    "the demand would make about {demand} requests, more than {MAX_REQUESTS} (lower the clients, their rates or duration_ms)"
                ),
            ));
        }
        how_many(self.limits.len(), MAX_LIMITS, &at("limits"), "limits")?;
        for (i, l) in self.limits.iter().enumerate() {
            let p = at(&format!("limits[{i}]"));
            if self.limits[..i].iter().any(|o| o.lane.id == l.lane.id) {
                return Err(SimError::at(
                    &join(&p, "id"),
                    format_args!("duplicate id \"{}\"", l.lane.id),
                ));
            }
            self.validate_limit(l, &p, path)?;
        }
        if self.instances == 0 {
            return Err(SimError::at(&at("instances"), "must be > 0"));
        }
        if self.instances > MAX_INSTANCES {
            return Err(SimError::at(
                &at("instances"),
                format_args!("{} is too many (at most {MAX_INSTANCES})", self.instances),
            ));
        }
        if !self.outages.is_empty() {
            how_many(self.outages.len(), MAX_OUTAGES, &at("outages"), "spans")?;
        }
        if !self.outages.is_empty() && self.store == Store::Local {
            return Err(SimError::at(
                &at("outages"),
                "only a shared store can be down (store is \"local\")",
            ));
        }
        for (i, s) in self.outages.iter().enumerate() {
            let p = at(&format!("outages[{i}]"));
            at_most(s.to_ms, MAX_TIME_MS, &join(&p, "to_ms"))?;
            if s.to_ms <= s.from_ms {
                return Err(SimError::at(
                    &join(&p, "to_ms"),
                    format_args!("must be after from_ms = {}", s.from_ms),
                ));
            }
            if let Some(prev) = i.checked_sub(1).and_then(|j| self.outages.get(j)) {
                if s.from_ms < prev.to_ms {
                    return Err(SimError::at(
                        &join(&p, "from_ms"),
                        format_args!(
                            "{} comes before outages[{}].to_ms = {} (spans must be sorted and apart)",
                            s.from_ms,
                            i - 1,
                            prev.to_ms
                        ),
                    ));
                }
            }
        }
        if let OnOutage::Fallback(f) = &self.on_outage {
            if f.routes.is_some() {
                return Err(SimError::at(
                    &at("on_outage.routes"),
                    "the fallback applies to every route",
                ));
            }
            self.validate_limit(f, &at("on_outage"), path)?;
        }
        if let Some(w) = self.window_ms {
            positive(w, &at("window_ms"))?;
            at_most(w, MAX_PERIOD_MS, &at("window_ms"))?;
        }
        Ok(())
    }

    /// Checks one client; returns about how many first attempts it makes.
    fn validate_client(&self, c: &ClientSpec, i: usize, p: &str) -> Result<u128, SimError> {
        label(&c.name, &join(p, "name"))?;
        if self.clients[..i].iter().any(|o| o.name == c.name) {
            return Err(SimError::at(
                &join(p, "name"),
                format_args!("duplicate client \"{}\"", c.name),
            ));
        }
        how_many(
            c.demand.len(),
            MAX_DEMAND_PARTS,
            &join(p, "demand"),
            "parts",
        )?;
        let mut count = 0u128;
        for (j, d) in c.demand.iter().enumerate() {
            count += d.check(&join(p, &format!("demand[{j}]")), self.duration_ms)?;
        }
        if c.routes.is_empty() {
            return Err(SimError::at(&join(p, "routes"), "must not be empty"));
        }
        for (j, &(route, weight)) in c.routes.iter().enumerate() {
            let rp = join(p, &format!("routes[{j}]"));
            if route as usize >= self.routes.len() {
                return Err(SimError::at(
                    &rp,
                    format_args!(
                        "route {route} is not one of the service's {} routes",
                        self.routes.len()
                    ),
                ));
            }
            if weight == 0 {
                return Err(SimError::at(&rp, "weight must be > 0"));
            }
            if c.routes[..j].iter().any(|&(r, _)| r == route) {
                return Err(SimError::at(&rp, "route given twice"));
            }
        }
        let rp = join(p, "retry");
        let r = c.retry;
        if r.max_attempts == 0 {
            return Err(SimError::at(&join(&rp, "max_attempts"), "must be > 0"));
        }
        if r.max_attempts > MAX_ATTEMPTS {
            return Err(SimError::at(
                &join(&rp, "max_attempts"),
                format_args!("{} is too many (at most {MAX_ATTEMPTS})", r.max_attempts),
            ));
        }
        match r.backoff {
            Backoff::None if r.max_attempts != 1 => {
                return Err(SimError::at(
                    &join(&rp, "max_attempts"),
                    "the policy \"none\" makes one attempt",
                ))
            }
            Backoff::Fixed { delay_ms } => {
                at_most(delay_ms, MAX_PERIOD_MS, &join(&rp, "delay_ms"))?;
            }
            Backoff::Exponential { base_ms, cap_ms } | Backoff::FullJitter { base_ms, cap_ms } => {
                positive(base_ms, &join(&rp, "base_ms"))?;
                at_most(cap_ms, MAX_PERIOD_MS, &join(&rp, "cap_ms"))?;
                if cap_ms < base_ms {
                    return Err(SimError::at(
                        &join(&rp, "cap_ms"),
                        format_args!("must be at least base_ms = {base_ms}"),
                    ));
                }
            }
            Backoff::RetryAfter { jitter_ms } => {
                at_most(jitter_ms, MAX_PERIOD_MS, &join(&rp, "jitter_ms"))?;
            }
            Backoff::None | Backoff::Immediately => {}
        }
        Ok(count)
    }

    /// Checks one limit: its limiter's parameters, its routes, and that every route
    /// it applies to costs no more than it can ever allow at once.
    fn validate_limit(&self, l: &LimitSpec, p: &str, service: &str) -> Result<(), SimError> {
        label(&l.lane.id, &join(p, "id"))?;
        let proto = l.lane.build().map_err(|e| SimError::param(p, &e))?;
        if let Some(routes) = &l.routes {
            if routes.is_empty() {
                return Err(SimError::at(&join(p, "routes"), "must not be empty"));
            }
            for (j, &r) in routes.iter().enumerate() {
                if r as usize >= self.routes.len() {
                    return Err(SimError::at(
                        &join(p, &format!("routes[{j}]")),
                        format_args!(
                            "route {r} is not one of the service's {} routes",
                            self.routes.len()
                        ),
                    ));
                }
            }
        }
        for (j, route) in self.routes.iter().enumerate() {
            if route.cost > 1 && l.applies_to(j as u32) {
                if let Err(e) = proto.peek(0, route.cost) {
                    let why = match e {
                        CheckError::CostExceedsCapacity { capacity, .. } => format!(
                            "{} is more than {p} (id \"{}\") can ever allow at once ({capacity}), so a request to \"{}\" could never pass",
                            route.cost, l.lane.id, route.name
                        ),
                        other => other.to_string(),
                    };
                    return Err(SimError::at(
                        &join(service, &format!("routes[{j}].cost")),
                        why,
                    ));
                }
            }
        }
        Ok(())
    }
}

/// `path.field`, or `field` alone at the top.
pub(crate) fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

/// At least one and at most `max` `noun`.
pub(crate) fn how_many(n: usize, max: usize, path: &str, noun: &str) -> Result<(), SimError> {
    if n == 0 {
        return Err(SimError::at(path, "must not be empty"));
    }
    if n > max {
        return Err(SimError::at(
            path,
            format_args!("{n} {noun} is too many (at most {max})"),
        ));
    }
    Ok(())
}

fn positive(v: u64, path: &str) -> Result<(), SimError> {
    if v == 0 {
        Err(SimError::at(path, "must be > 0"))
    } else {
        Ok(())
    }
}

fn at_most(v: u64, max: u64, path: &str) -> Result<(), SimError> {
    if v > max {
        Err(SimError::at(
            path,
            format_args!("{v} is too large (at most {max})"),
        ))
    } else {
        Ok(())
    }
}

fn label(s: &str, path: &str) -> Result<(), SimError> {
    if s.is_empty() {
        return Err(SimError::at(path, "must not be empty"));
    }
    if s.chars().count() > MAX_LABEL_CHARS {
        return Err(SimError::at(
            path,
            format_args!("must be at most {MAX_LABEL_CHARS} characters"),
        ));
    }
    Ok(())
}

fn sorted_times(times: &[u64], path: &str) -> Result<(), SimError> {
    if times.len() > MAX_REQUESTS {
        return Err(SimError::at(
            path,
            format_args!("{} times is too many (at most {MAX_REQUESTS})", times.len()),
        ));
    }
    for (i, &t) in times.iter().enumerate() {
        at_most(t, MAX_TIME_MS, &format!("{path}[{i}]"))?;
        if let Some(&prev) = i.checked_sub(1).and_then(|j| times.get(j)) {
            if t < prev {
                return Err(SimError::at(
                    &format!("{path}[{i}]"),
                    format_args!(
                        "{t} comes before {}[{}] = {prev} (times must be sorted)",
                        path.rsplit('.').next().unwrap_or(path),
                        i - 1
                    ),
                ));
            }
        }
    }
    Ok(())
}

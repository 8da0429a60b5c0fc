//! The service run: first attempts and retries in time order, each through the
//! balancer to an instance, and through that instance's limits (its own or the shared
//! store's, or the outage policy's), exactly.
//!
//! # Order
//!
//! Attempts are taken by time; at equal times first attempts come before retries
//! (in the order of [`super::demand::first_attempts`]), and retries in the order they
//! were scheduled. A retry "immediately" is sent at the same millisecond, after
//! every attempt already waiting at that moment.
//!
//! # Stacked limits
//!
//! A request passes when every limit that applies to its route passes it. With one
//! such limit its `check` decides (so a teaching variant behaves as itself). With
//! several, each is asked first without recording (`peek`); only if all pass is the
//! request recorded in all of them (`check`), atomically, like one script over all
//! keys. A refused request is recorded nowhere, so each limit sees exactly the
//! admitted history and the stack admits exactly what every limit alone would admit
//! after that history. The refusal names every limit that refused; `Retry-After` is
//! the latest of theirs (each limit only grows more permissive while nothing is
//! admitted); an admitted request waits the longest of the limits' waits.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rand_pcg::Pcg64;
use ratelab_core::{AnyLimiter, CheckError, Decision, Keyed, Ms};

use crate::error::SimError;
use crate::stream::MAX_REQUESTS;

use super::attempt::{Attempt, Decider};
use super::demand::{balancer_rng, first_attempts, jitter_rng, uniform, Arrival};
use super::metrics::{ServiceMeter, ServiceYardstick};
use super::spec::{Balancing, KeyMode, LimitSpec, OnOutage, ServiceSpec, Store};

/// A service run: every attempt in the order the service saw them, and the yardstick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceReport {
    /// The variant's label.
    pub id: String,
    /// Every attempt, in arrival order.
    pub attempts: Vec<Attempt>,
    /// The numbers.
    pub yardstick: ServiceYardstick,
}

/// The limits' verdict on one request.
struct Verdict {
    allowed: bool,
    wait: Ms,
    retry_after: Ms,
    denied_by: u16,
}

impl Verdict {
    const PASS: Verdict = Verdict {
        allowed: true,
        wait: Ms::ZERO,
        retry_after: Ms::ZERO,
        denied_by: 0,
    };
}

/// The decision's numbers (one place to adapt if `Decision` changes shape).
fn parts(d: &Decision) -> (bool, Ms, Ms) {
    (d.allowed(), d.wait(), d.retry_after())
}

/// The keys each limit counts by, as strings for [`Keyed`]: client and route
/// indices, so that no two clients or routes can ever share a key by their names.
struct KeyTable {
    client: Vec<String>,
    client_route: Vec<String>,
    routes: usize,
}

impl KeyTable {
    fn new(spec: &ServiceSpec) -> KeyTable {
        let n = spec.clients.len();
        let routes = spec.routes.len();
        let uses = |m: KeyMode| {
            spec.limits.iter().any(|l| l.key == m)
                || matches!(&spec.on_outage, OnOutage::Fallback(f) if f.key == m)
        };
        KeyTable {
            client: (0..n).map(|c| c.to_string()).collect(),
            client_route: if uses(KeyMode::ClientRoute) {
                (0..n * routes)
                    .map(|i| format!("{}/{}", i / routes, i % routes))
                    .collect()
            } else {
                Vec::new()
            },
            routes,
        }
    }

    fn key(&self, mode: KeyMode, client: u32, route: u32) -> &str {
        let got = match mode {
            KeyMode::Global => None,
            KeyMode::Client => self.client.get(client as usize),
            KeyMode::ClientRoute => self
                .client_route
                .get(client as usize * self.routes + route as usize),
        };
        got.map_or("", String::as_str)
    }
}

/// Decides one request against `limits` (the ones in `applicable`).
fn decide(
    limits: &mut [Keyed<AnyLimiter>],
    specs: &[LimitSpec],
    applicable: &[usize],
    keys: &KeyTable,
    (t, client, route, cost): (u64, u32, u32, u32),
) -> Result<Verdict, CheckError> {
    let key = |i: usize| {
        keys.key(
            specs.get(i).map_or(KeyMode::Global, |s| s.key),
            client,
            route,
        )
    };
    match applicable {
        [] => Ok(Verdict::PASS),
        &[i] => {
            let Some(l) = limits.get_mut(i) else {
                return Ok(Verdict::PASS);
            };
            let (allowed, wait, retry_after) = parts(&l.check(key(i), t, cost)?);
            Ok(Verdict {
                allowed,
                wait: if allowed { wait } else { Ms::ZERO },
                retry_after,
                denied_by: if allowed { 0 } else { 1 << i },
            })
        }
        many => {
            let mut v = Verdict::PASS;
            for &i in many {
                let Some(l) = limits.get(i) else { continue };
                let (allowed, wait, retry_after) = parts(&l.peek(key(i), t, cost)?);
                if allowed {
                    v.wait = v.wait.max(wait);
                } else {
                    v.allowed = false;
                    v.denied_by |= 1 << i;
                    v.retry_after = v.retry_after.max(retry_after);
                }
            }
            if v.allowed {
                for &i in many {
                    if let Some(l) = limits.get_mut(i) {
                        l.check(key(i), t, cost)?;
                    }
                }
            } else {
                v.wait = Ms::ZERO;
            }
            Ok(v)
        }
    }
}

/// A retry waiting to be sent, ordered by time and then by when it was scheduled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Pending {
    t: u64,
    sequence: u64,
    client: u32,
    route: u32,
    attempt: u32,
    original: u32,
    previous: u32,
    first_t: u64,
}

/// A retry's request: its first try's index and time, and the attempt it follows.
#[derive(Clone, Copy)]
struct Link {
    original: u32,
    first_t: u64,
    previous: u32,
}

/// The next attempt to send (`link` for a retry).
struct Next {
    t: u64,
    client: u32,
    route: u32,
    attempt: u32,
    link: Option<Link>,
}

/// Where a run's attempts go, one by one in arrival order (a report keeps them
/// all; the playground's timeline keeps the latest).
pub(crate) trait Sink {
    /// Attempt number `index` (from 0).
    fn attempt(&mut self, index: u32, a: Attempt);
    /// The client retried attempt `previous` with attempt `index`.
    fn retried(&mut self, previous: u32, index: u32);
}

impl Sink for Vec<Attempt> {
    fn attempt(&mut self, _: u32, a: Attempt) {
        self.push(a);
    }

    fn retried(&mut self, previous: u32, index: u32) {
        if let Some(p) = self.get_mut(previous as usize) {
            p.retry = Some(index);
        }
    }
}

/// The running service.
struct Engine<'a> {
    spec: &'a ServiceSpec,
    path: &'a str,
    keys: KeyTable,
    /// Per route: the limits that apply to it.
    applicable: Vec<Vec<usize>>,
    /// One set of limits per instance (local store) or one for all (shared).
    stores: Vec<Vec<Keyed<AnyLimiter>>>,
    /// Per instance, the fallback limiter (when the policy has one).
    fallbacks: Vec<Keyed<AnyLimiter>>,
    demand: Vec<Arrival>,
    next_demand: usize,
    retries: BinaryHeap<Reverse<Pending>>,
    scheduled: u64,
    jitter: Vec<Pcg64>,
    balancer: Pcg64,
    outage: usize,
    count: u64,
    meter: ServiceMeter,
}

impl<'a> Engine<'a> {
    fn new(spec: &'a ServiceSpec, path: &'a str) -> Result<Engine<'a>, SimError> {
        let build = |l: &LimitSpec, p: &str| {
            l.lane
                .build()
                .map(Keyed::new)
                .map_err(|e| SimError::param(p, &e))
        };
        let mut store = Vec::with_capacity(spec.limits.len());
        for (i, l) in spec.limits.iter().enumerate() {
            store.push(build(l, &format!("{path}.limits[{i}]"))?);
        }
        let stores = match spec.store {
            Store::Local => vec![store; spec.instances as usize],
            Store::Shared => vec![store],
        };
        let fallbacks = match &spec.on_outage {
            OnOutage::Fallback(f) => {
                vec![build(f, &format!("{path}.on_outage"))?; spec.instances as usize]
            }
            _ => Vec::new(),
        };
        let applicable = (0..spec.routes.len() as u32)
            .map(|r| {
                (0..spec.limits.len())
                    .filter(|&i| spec.limits.get(i).is_some_and(|l| l.applies_to(r)))
                    .collect()
            })
            .collect();
        let demand = first_attempts(spec, path)?;
        Ok(Engine {
            keys: KeyTable::new(spec),
            applicable,
            stores,
            fallbacks,
            scheduled: demand.len() as u64,
            next_demand: 0,
            retries: BinaryHeap::new(),
            jitter: (0..spec.clients.len() as u32)
                .map(|c| jitter_rng(spec.seed, c))
                .collect(),
            balancer: balancer_rng(spec.seed),
            outage: 0,
            count: 0,
            meter: ServiceMeter::new(spec),
            demand,
            spec,
            path,
        })
    }

    /// The next attempt to send: the earliest first try or retry.
    fn next(&mut self) -> Option<Next> {
        let first = self.demand.get(self.next_demand).copied();
        let retry = self.retries.peek().map(|Reverse(p)| p.t);
        match (first, retry) {
            (Some(a), r) if r.is_none_or(|r| a.t <= r) => {
                self.next_demand += 1;
                Some(Next {
                    t: a.t,
                    client: a.client,
                    route: a.route,
                    attempt: 1,
                    link: None,
                })
            }
            _ => {
                let Reverse(p) = self.retries.pop()?;
                Some(Next {
                    t: p.t,
                    client: p.client,
                    route: p.route,
                    attempt: p.attempt,
                    link: Some(Link {
                        original: p.original,
                        first_t: p.first_t,
                        previous: p.previous,
                    }),
                })
            }
        }
    }

    /// Whether the shared store is down at `t` (times only grow, so a cursor will do).
    fn store_down(&mut self, t: u64) -> bool {
        let spans = &self.spec.outages;
        while spans.get(self.outage).is_some_and(|s| s.to_ms <= t) {
            self.outage += 1;
        }
        spans.get(self.outage).is_some_and(|s| s.contains(t))
    }

    /// Runs to the end, handing every attempt to `sink`; returns the yardstick.
    fn run(mut self, sink: &mut impl Sink) -> Result<ServiceYardstick, SimError> {
        let m = self.spec.instances.max(1);
        while let Some(Next {
            t,
            client,
            route,
            attempt,
            link,
        }) = self.next()
        {
            let index = self.count as usize;
            if index >= MAX_REQUESTS {
                return Err(SimError::at(
                    self.path,
                    format_args!(
                        "the retries would make more than {MAX_REQUESTS} requests (by t = {t} ms, from a demand of {}); lower max_attempts, the demand or duration_ms",
                        self.demand.len()
                    ),
                ));
            }
            let instance = match self.spec.balancing {
                Balancing::RoundRobin => (index as u64 % m as u64) as u32,
                Balancing::Random => uniform(&mut self.balancer, m as u64 - 1) as u32,
            };
            let cost = self.spec.routes.get(route as usize).map_or(1, |r| r.cost);
            let request = (t, client, route, cost);
            let check = |e: CheckError| {
                SimError::at(
                    self.path,
                    format_args!("attempt {index} at t = {t} ms: {e}"),
                )
            };
            let down = self.spec.store == Store::Shared && self.store_down(t);
            let (decider, verdict) = if !down {
                let store = match self.spec.store {
                    Store::Local => self.stores.get_mut(instance as usize),
                    Store::Shared => self.stores.first_mut(),
                };
                let applicable = self.applicable.get(route as usize).map_or(&[][..], |a| a);
                let v = match store {
                    Some(limits) => {
                        decide(limits, &self.spec.limits, applicable, &self.keys, request)
                            .map_err(check)?
                    }
                    None => Verdict::PASS,
                };
                (Decider::Limits, v)
            } else {
                match &self.spec.on_outage {
                    OnOutage::FailOpen => (Decider::FailOpen, Verdict::PASS),
                    OnOutage::FailClosed => (
                        Decider::FailClosed,
                        Verdict {
                            allowed: false,
                            ..Verdict::PASS
                        },
                    ),
                    OnOutage::Fallback(f) => {
                        let key = self.keys.key(f.key, client, route);
                        let v = match self.fallbacks.get_mut(instance as usize) {
                            Some(l) => {
                                let (allowed, wait, retry_after) =
                                    parts(&l.check(key, t, cost).map_err(check)?);
                                Verdict {
                                    allowed,
                                    wait: if allowed { wait } else { Ms::ZERO },
                                    retry_after,
                                    denied_by: 0,
                                }
                            }
                            None => Verdict::PASS,
                        };
                        (Decider::Fallback, v)
                    }
                }
            };
            let retry_after_s = (!verdict.allowed && decider != Decider::FailClosed)
                .then(|| verdict.retry_after.ceil_secs().max(1));
            let (original, first_t) = match link {
                None => (index as u32, t),
                Some(l) => {
                    sink.retried(l.previous, index as u32);
                    (l.original, l.first_t)
                }
            };
            let a = Attempt {
                t,
                client,
                route,
                attempt,
                original,
                retry: None,
                instance,
                allowed: verdict.allowed,
                wait_ms: verdict.wait.ceil_ms(),
                decider,
                denied_by: verdict.denied_by,
                retry_after_s,
            };
            let retry_delay = if a.allowed {
                None
            } else {
                let policy = self.spec.clients.get(client as usize).map(|c| c.retry);
                match (policy, self.jitter.get_mut(client as usize)) {
                    (Some(p), Some(rng)) => p.delay_after(attempt, retry_after_s, rng),
                    _ => None,
                }
            };
            self.meter
                .record(&a, verdict.wait, cost, first_t, retry_delay.is_none());
            if let Some(d) = retry_delay {
                self.retries.push(Reverse(Pending {
                    t: t.saturating_add(d),
                    sequence: self.scheduled,
                    client,
                    route,
                    attempt: attempt + 1,
                    original,
                    previous: index as u32,
                    first_t,
                }));
                self.scheduled += 1;
            }
            sink.attempt(index as u32, a);
            self.count += 1;
        }
        Ok(self.meter.yardstick(self.spec))
    }
}

/// Runs one service (validating it first; errors start with `path`, e.g.
/// `services[0]`).
pub fn run_service(spec: &ServiceSpec, path: &str) -> Result<ServiceReport, SimError> {
    let mut attempts = Vec::new();
    let yardstick = run_service_into(spec, path, &mut attempts)?;
    Ok(ServiceReport {
        id: spec.id.clone(),
        attempts,
        yardstick,
    })
}

/// The same, handing the attempts to `sink` instead of keeping them.
pub(crate) fn run_service_into(
    spec: &ServiceSpec,
    path: &str,
    sink: &mut impl Sink,
) -> Result<ServiceYardstick, SimError> {
    spec.validate(path)?;
    Engine::new(spec, path)?.run(sink)
}

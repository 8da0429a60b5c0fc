//! Writing a service in the input format (export): defaults left out, numbered clients grouped.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::service::{
    Backoff, ClientSpec, Demand, LimitSpec, OnOutage, RetryPolicy, Route, ServiceSpec,
};

use crate::json::limiter::LimiterOut;

/// A service in the input format: what [`services_from`](super::services_from) reads back to an equal
/// spec. Defaults are left out; clients named `base-0` … `base-(n−1)` in a row with
/// the same demand, route mix and retry policy are written once with `count: n`.
#[derive(Serialize)]
pub(in crate::json) struct ServiceSpecOut<'a> {
    id: &'a str,
    routes: Vec<RouteSpecOut<'a>>,
    clients: Vec<ClientSpecOut<'a>>,
    limits: Vec<LimitOut<'a>>,
    #[serde(skip_serializing_if = "is_one")]
    instances: u32,
    #[serde(skip_serializing_if = "is_round_robin")]
    balancing: &'static str,
    #[serde(skip_serializing_if = "is_shared")]
    store: &'static str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    outages: Vec<SpanOut>,
    #[serde(skip_serializing_if = "OnOutageOut::is_default")]
    on_outage: OnOutageOut<'a>,
    duration_ms: u64,
    seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    window_ms: Option<u64>,
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

fn is_round_robin(s: &&str) -> bool {
    *s == "round_robin"
}

fn is_shared(s: &&str) -> bool {
    *s == "shared"
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[derive(Serialize)]
struct RouteSpecOut<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "is_one")]
    cost: u32,
}

#[derive(Serialize)]
struct ClientSpecOut<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<usize>,
    demand: DemandOut<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    routes: Option<MixOut<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    retry: Option<RetryOut>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum DemandOut<'a> {
    One(PartOut<'a>),
    Many(Vec<PartOut<'a>>),
}

#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum PartOut<'a> {
    Poisson {
        rate: u64,
        per_ms: u64,
        #[serde(skip_serializing_if = "is_zero")]
        from_ms: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        until_ms: Option<u64>,
    },
    Bursts {
        size: u32,
        #[serde(skip_serializing_if = "is_zero")]
        spacing_ms: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        every_ms: Option<u64>,
        #[serde(skip_serializing_if = "is_zero")]
        from_ms: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        until_ms: Option<u64>,
    },
    PageLoad {
        size: u32,
        at_ms: &'a [u64],
    },
    Times {
        times: &'a [u64],
    },
}

impl<'a> From<&'a Demand> for PartOut<'a> {
    fn from(d: &'a Demand) -> PartOut<'a> {
        match *d {
            Demand::Poisson {
                rate,
                per_ms,
                from_ms,
                until_ms,
            } => PartOut::Poisson {
                rate,
                per_ms,
                from_ms,
                until_ms,
            },
            Demand::Bursts {
                size,
                spacing_ms,
                every_ms,
                from_ms,
                until_ms,
            } => PartOut::Bursts {
                size,
                spacing_ms,
                every_ms,
                from_ms,
                until_ms,
            },
            Demand::PageLoads { size, ref at_ms } => PartOut::PageLoad { size, at_ms },
            Demand::Times(ref times) => PartOut::Times { times },
        }
    }
}

/// A route mix: one route by name, or weights by name.
struct MixOut<'a>(&'a [(u32, u32)], &'a [Route]);

impl Serialize for MixOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let name = |r: u32| self.1.get(r as usize).map_or("", |x| x.name.as_str());
        match self.0 {
            &[(r, 1)] => s.serialize_str(name(r)),
            mix => {
                let mut m = s.serialize_map(Some(mix.len()))?;
                for &(r, w) in mix {
                    m.serialize_entry(name(r), &w)?;
                }
                m.end()
            }
        }
    }
}

#[derive(Serialize)]
struct RetryOut {
    policy: &'static str,
    max_attempts: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    delay_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    base_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cap_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    jitter_ms: Option<u64>,
}

impl RetryOut {
    fn new(r: &RetryPolicy) -> Option<RetryOut> {
        let mut out = RetryOut {
            policy: r.backoff.id(),
            max_attempts: r.max_attempts,
            delay_ms: None,
            base_ms: None,
            cap_ms: None,
            jitter_ms: None,
        };
        match r.backoff {
            Backoff::None => return None,
            Backoff::Immediately => {}
            Backoff::Fixed { delay_ms } => out.delay_ms = Some(delay_ms),
            Backoff::Exponential { base_ms, cap_ms } | Backoff::FullJitter { base_ms, cap_ms } => {
                out.base_ms = Some(base_ms);
                out.cap_ms = Some(cap_ms);
            }
            Backoff::RetryAfter { jitter_ms } => out.jitter_ms = Some(jitter_ms),
        }
        Some(out)
    }
}

#[derive(Serialize)]
struct LimitOut<'a> {
    #[serde(flatten)]
    limiter: LimiterOut<'a>,
    key: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    routes: Option<Vec<&'a str>>,
}

impl<'a> LimitOut<'a> {
    fn new(l: &'a LimitSpec, routes: &'a [Route]) -> LimitOut<'a> {
        LimitOut {
            limiter: LimiterOut::from(&l.lane),
            key: l.key.id(),
            routes: l.routes.as_ref().map(|rs| {
                rs.iter()
                    .map(|&r| routes.get(r as usize).map_or("", |x| x.name.as_str()))
                    .collect()
            }),
        }
    }
}

#[derive(Serialize)]
struct SpanOut {
    from_ms: u64,
    to_ms: u64,
}

#[derive(Serialize)]
#[serde(untagged)]
enum OnOutageOut<'a> {
    Named(&'static str),
    Fallback { fallback: LimitOut<'a> },
}

impl OnOutageOut<'_> {
    fn is_default(&self) -> bool {
        matches!(self, OnOutageOut::Named("fail_open"))
    }
}

impl<'a> ServiceSpecOut<'a> {
    pub(in crate::json) fn new(s: &'a ServiceSpec) -> ServiceSpecOut<'a> {
        ServiceSpecOut {
            id: &s.id,
            routes: s
                .routes
                .iter()
                .map(|r| RouteSpecOut {
                    name: &r.name,
                    cost: r.cost,
                })
                .collect(),
            clients: client_groups(s),
            limits: s
                .limits
                .iter()
                .map(|l| LimitOut::new(l, &s.routes))
                .collect(),
            instances: s.instances,
            balancing: s.balancing.id(),
            store: s.store.id(),
            outages: s
                .outages
                .iter()
                .map(|o| SpanOut {
                    from_ms: o.from_ms,
                    to_ms: o.to_ms,
                })
                .collect(),
            on_outage: match &s.on_outage {
                OnOutage::Fallback(f) => OnOutageOut::Fallback {
                    fallback: LimitOut::new(f, &s.routes),
                },
                other => OnOutageOut::Named(other.id()),
            },
            duration_ms: s.duration_ms,
            seed: s.seed,
            window_ms: s.window_ms,
        }
    }
}

/// `name` as `base-k`: the base and k.
fn numbered(name: &str) -> Option<(&str, usize)> {
    let (base, k) = name.rsplit_once('-')?;
    // `07` would read back as `7`: only canonical numbers group.
    let k: usize = k
        .parse()
        .ok()
        .filter(|k: &usize| k.to_string().len() == name.len() - base.len() - 1)?;
    Some((base, k))
}

/// The clients, runs of `base-0` … `base-(n−1)` alike in all else written once.
fn client_groups(s: &ServiceSpec) -> Vec<ClientSpecOut<'_>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(c) = s.clients.get(i) {
        let same =
            |o: &ClientSpec| o.demand == c.demand && o.routes == c.routes && o.retry == c.retry;
        let run = match numbered(&c.name) {
            Some((base, 0)) => s.clients[i..]
                .iter()
                .enumerate()
                .take_while(|(k, o)| same(o) && numbered(&o.name) == Some((base, *k)))
                .count(),
            _ => 1,
        };
        let name = match (run, numbered(&c.name)) {
            (n, Some((base, 0))) if n > 1 => base,
            _ => c.name.as_str(),
        };
        let default_mix = c.routes == [(0, 1)];
        out.push(ClientSpecOut {
            name,
            count: (run > 1).then_some(run),
            demand: match c.demand.as_slice() {
                [one] => DemandOut::One(one.into()),
                many => DemandOut::Many(many.iter().map(PartOut::from).collect()),
            },
            routes: (!default_mix).then(|| MixOut(&c.routes, &s.routes)),
            retry: RetryOut::new(&c.retry),
        });
        i += run.max(1);
    }
    out
}

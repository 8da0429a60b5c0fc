//! The `services` section of the JSON format, reading and writing, in one place.
//!
//! Reading: each service object becomes a [`ServiceSpec`], every error one line
//! naming its path (`services[0].clients[2].retry.max_attempts: ...`). As in
//! `read.rs`, checks run in a fixed order that does not depend on the order of keys
//! in the input (a route mix is read in the order of the service's routes).
//!
//! Defaults: one route `api` of cost 1; a client's route mix is its first route;
//! retries `none`; a limit counts per `client`; one instance, round robin, a shared
//! store, no outages, `fail_open`; `duration_ms` 60 000; `seed` 1; `window_ms` the
//! first limit's period. A client with `count: n` stands for n clients named
//! `name-0` … `name-(n−1)`, each drawing its own demand.
//!
//! Without the `services` feature the writers are not used (nothing writes a
//! service), and the reader is behind a refusal.
#![cfg_attr(not(feature = "services"), allow(dead_code))]

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use ratelab_core::{MAX_COUNT, MAX_PERIOD_MS};

use crate::error::SimError;
use crate::service::{
    Attempt, Backoff, Balancing, ClientSpec, ClientStats, Demand, Goodput, InstanceStats, KeyMode,
    LimitSpec, OnOutage, Percentiles, RetryPolicy, Route, RouteStats, ServiceReport, ServiceSpec,
    ServiceYardstick, Span, Store, MAX_CLIENTS, MAX_DEMAND_PARTS, MAX_LIMITS, MAX_OUTAGES,
    MAX_ROUTES, MAX_SERVICES,
};
use crate::stream::{MAX_REQUESTS, MAX_TIME_MS};

use super::read::{
    describe, join, label, limiter_from, name_lane, positive, shown, string, uint, unknown_fields,
    Unit, LIMITER_FIELDS,
};
use super::tree::{Json, Obj};
use super::write::LimiterOut;

/// The fields of a service object.
pub const SERVICE_FIELDS: &[&str] = &[
    "id",
    "routes",
    "clients",
    "limits",
    "instances",
    "balancing",
    "store",
    "outages",
    "on_outage",
    "duration_ms",
    "seed",
    "window_ms",
];

/// The fields of a route object.
pub const ROUTE_FIELDS: &[&str] = &["name", "cost"];

/// The fields of a client object.
pub const CLIENT_FIELDS: &[&str] = &["name", "count", "demand", "routes", "retry"];

/// The fields of a demand object (which apply depends on its `kind`).
pub const DEMAND_FIELDS: &[&str] = &[
    "kind",
    "rate",
    "per_ms",
    "from_ms",
    "until_ms",
    "size",
    "spacing_ms",
    "every_ms",
    "at_ms",
    "times",
];

/// The fields of a retry object (which apply depends on its `policy`).
pub const RETRY_FIELDS: &[&str] = &[
    "policy",
    "max_attempts",
    "delay_ms",
    "base_ms",
    "cap_ms",
    "jitter_ms",
];

/// The fields a limit adds to a limiter's.
const LIMIT_EXTRA: &[&str] = &["key", "routes"];

/// The fields of an outage span.
pub const OUTAGE_FIELDS: &[&str] = &["from_ms", "to_ms"];

/// `field` of `obj` under `path`, parsed if present.
fn get<'v, 'j, T>(
    obj: &'v Obj<'j>,
    path: &str,
    field: &str,
    parse: impl FnOnce(&'v Json<'j>, &str) -> Result<T, SimError>,
) -> Result<Option<T>, SimError> {
    obj.get(field)
        .map(|v| parse(v, &join(path, field)))
        .transpose()
}

fn object<'a, 'j>(v: &'a Json<'j>, path: &str, like: &str) -> Result<&'a Obj<'j>, SimError> {
    match v {
        Json::Object(o) => Ok(o),
        other => Err(SimError::at(
            path,
            format_args!("must be an object like {like}, got {}", describe(other)),
        )),
    }
}

fn array<'a, 'j>(
    v: &'a Json<'j>,
    path: &str,
    max: usize,
    noun: &str,
) -> Result<&'a [Json<'j>], SimError> {
    let Json::Array(items) = v else {
        return Err(SimError::at(
            path,
            format_args!("must be an array, got {}", describe(v)),
        ));
    };
    if items.is_empty() {
        return Err(SimError::at(path, "must not be empty"));
    }
    if items.len() > max {
        return Err(SimError::at(
            path,
            format_args!("{} {noun} is too many (at most {max})", items.len()),
        ));
    }
    Ok(items)
}

/// One of `names`, as a string.
fn one_of<T: Copy>(v: &Json<'_>, path: &str, names: &[(&str, T)]) -> Result<T, SimError> {
    let s = string(v, path)?;
    names
        .iter()
        .find(|(n, _)| *n == s)
        .map(|&(_, t)| t)
        .ok_or_else(|| {
            let all: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            SimError::at(
                path,
                format_args!(
                    "unknown value \"{}\" (expected one of {})",
                    shown(s),
                    all.join(", ")
                ),
            )
        })
}

fn ms(v: &Json<'_>, path: &str) -> Result<u64, SimError> {
    uint(v, path, MAX_TIME_MS, Unit::Ms)
}

fn duration(v: &Json<'_>, path: &str) -> Result<u64, SimError> {
    uint(v, path, MAX_PERIOD_MS, Unit::Ms)
}

fn count(v: &Json<'_>, path: &str, max: u64) -> Result<u64, SimError> {
    positive(uint(v, path, max, Unit::Count)?, path)
}

fn times(v: &Json<'_>, path: &str) -> Result<Vec<u64>, SimError> {
    let items = array(v, path, MAX_REQUESTS, "times")?;
    items
        .iter()
        .enumerate()
        .map(|(i, t)| ms(t, &format!("{path}[{i}]")))
        .collect()
}

/// `services`: a non-empty array of service objects.
pub(crate) fn services_from(v: &Json<'_>) -> Result<Vec<ServiceSpec>, SimError> {
    let items = array(v, "services", MAX_SERVICES, "services")?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| service_from(item, &format!("services[{i}]"), i))
        .collect()
}

fn service_from(v: &Json<'_>, path: &str, index: usize) -> Result<ServiceSpec, SimError> {
    let obj = object(v, path, "{\"clients\": [...], \"limits\": [...]}")?;
    unknown_fields(obj, path, SERVICE_FIELDS)?;
    let id = match get(obj, path, "id", label)? {
        Some(id) => id.to_string(),
        None => format!("service-{}", index + 1),
    };
    let routes = match get(obj, path, "routes", routes_from)? {
        Some(r) => r,
        None => vec![Route::new("api")],
    };
    let duration_ms = get(obj, path, "duration_ms", |v, p| {
        positive(duration(v, p)?, p)
    })?
    .unwrap_or(60_000);
    let clients_value = obj
        .get("clients")
        .ok_or_else(|| SimError::at(&join(path, "clients"), "required (an array of clients)"))?;
    let clients = clients_from(clients_value, &join(path, "clients"), &routes, duration_ms)?;
    let limits_value = obj
        .get("limits")
        .ok_or_else(|| SimError::at(&join(path, "limits"), "required (an array of limits)"))?;
    let limits = limits_from(limits_value, &join(path, "limits"), &routes)?;
    let instances = get(obj, path, "instances", |v, p| {
        uint(v, p, u32::MAX as u64, Unit::Count)
    })?
    .unwrap_or(1) as u32;
    let balancing = get(obj, path, "balancing", |v, p| {
        one_of(
            v,
            p,
            &[
                ("round_robin", Balancing::RoundRobin),
                ("random", Balancing::Random),
            ],
        )
    })?
    .unwrap_or(Balancing::RoundRobin);
    let store = get(obj, path, "store", |v, p| {
        one_of(v, p, &[("shared", Store::Shared), ("local", Store::Local)])
    })?
    .unwrap_or(Store::Shared);
    let outages = get(obj, path, "outages", outages_from)?.unwrap_or_default();
    let on_outage = get(obj, path, "on_outage", on_outage_from)?.unwrap_or(OnOutage::FailOpen);
    let seed = get(obj, path, "seed", |v, p| {
        uint(v, p, MAX_TIME_MS, Unit::Count)
    })?
    .unwrap_or(1);
    let window_ms = get(obj, path, "window_ms", |v, p| positive(duration(v, p)?, p))?;
    let spec = ServiceSpec {
        id,
        routes,
        clients,
        limits,
        instances,
        balancing,
        store,
        outages,
        on_outage,
        duration_ms,
        seed,
        window_ms,
    };
    spec.validate(path)?;
    Ok(spec)
}

fn routes_from(v: &Json<'_>, path: &str) -> Result<Vec<Route>, SimError> {
    let items = array(v, path, MAX_ROUTES, "routes")?;
    let mut out: Vec<Route> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let p = format!("{path}[{i}]");
        let obj = object(item, &p, "{\"name\": \"export\", \"cost\": 5}")?;
        unknown_fields(obj, &p, ROUTE_FIELDS)?;
        let name = get(obj, &p, "name", label)?
            .ok_or_else(|| SimError::at(&join(&p, "name"), "required"))?;
        if out.iter().any(|r| r.name == name) {
            return Err(SimError::at(
                &join(&p, "name"),
                format_args!("duplicate route \"{name}\""),
            ));
        }
        let cost = get(obj, &p, "cost", |v, p| count(v, p, u32::MAX as u64))?.unwrap_or(1) as u32;
        out.push(Route {
            name: name.to_string(),
            cost,
        });
    }
    Ok(out)
}

fn route_index(name: &str, path: &str, routes: &[Route]) -> Result<u32, SimError> {
    routes
        .iter()
        .position(|r| r.name == name)
        .map(|i| i as u32)
        .ok_or_else(|| {
            let all: Vec<&str> = routes.iter().map(|r| r.name.as_str()).collect();
            SimError::at(
                path,
                format_args!(
                    "unknown route \"{}\" (the service's routes: {})",
                    shown(name),
                    all.join(", ")
                ),
            )
        })
}

fn clients_from(
    v: &Json<'_>,
    path: &str,
    routes: &[Route],
    duration_ms: u64,
) -> Result<Vec<ClientSpec>, SimError> {
    let items = array(v, path, MAX_CLIENTS, "clients")?;
    let mut out: Vec<ClientSpec> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let p = format!("{path}[{i}]");
        let obj = object(item, &p, "{\"name\": \"alice\", \"demand\": {...}}")?;
        unknown_fields(obj, &p, CLIENT_FIELDS)?;
        let name = get(obj, &p, "name", label)?
            .ok_or_else(|| SimError::at(&join(&p, "name"), "required"))?;
        let copies = get(obj, &p, "count", |v, p| count(v, p, MAX_CLIENTS as u64))?;
        if copies.unwrap_or(1) as usize + out.len() > MAX_CLIENTS {
            return Err(SimError::at(
                &join(&p, "count"),
                format_args!("makes more than {MAX_CLIENTS} clients in all"),
            ));
        }
        let demand_value = obj.get("demand").ok_or_else(|| {
            SimError::at(
                &join(&p, "demand"),
                "required (an object or an array of them)",
            )
        })?;
        let demand = demand_from(demand_value, &join(&p, "demand"), duration_ms)?;
        let mix = match get(obj, &p, "routes", |v, p| mix_from(v, p, routes))? {
            Some(m) => m,
            None => vec![(0, 1)],
        };
        let retry = get(obj, &p, "retry", retry_from)?.unwrap_or(RetryPolicy::NONE);
        let client = ClientSpec {
            name: name.to_string(),
            demand,
            routes: mix,
            retry,
        };
        match copies {
            None => out.push(client),
            Some(n) => out.extend((0..n).map(|k| ClientSpec {
                name: format!("{name}-{k}"),
                ..client.clone()
            })),
        }
    }
    Ok(out)
}

/// A client's route mix: a route name, or `{"name": weight, ...}`, kept in the order
/// of the service's routes (whatever the order of the keys).
fn mix_from(v: &Json<'_>, path: &str, routes: &[Route]) -> Result<Vec<(u32, u32)>, SimError> {
    match v {
        Json::String(name) => Ok(vec![(route_index(name, path, routes)?, 1)]),
        Json::Object(obj) if !obj.is_empty() => {
            let mut names: Vec<&str> = obj.keys().collect();
            names.sort();
            let mut mix = Vec::with_capacity(names.len());
            for name in names {
                let r = route_index(name, path, routes)?;
                let w = obj.get(name).unwrap_or(&Json::Null);
                mix.push((r, count(w, &join(path, name), u32::MAX as u64)? as u32));
            }
            mix.sort_unstable();
            Ok(mix)
        }
        Json::Object(_) => Err(SimError::at(path, "must not be empty")),
        other => Err(SimError::at(
            path,
            format_args!(
                "must be a route name or an object of weights like {{\"read\": 3, \"export\": 1}}, got {}",
                describe(other)
            ),
        )),
    }
}

/// `demand`: one part, or an array of parts; each checked here, so that errors name
/// the part as written (`demand.rate`, `demand[1].rate`).
fn demand_from(v: &Json<'_>, path: &str, duration_ms: u64) -> Result<Vec<Demand>, SimError> {
    let part = |d: &Json<'_>, p: &str| {
        let part = demand_part(d, p)?;
        part.check(p, duration_ms)?;
        Ok(part)
    };
    match v {
        Json::Array(_) => array(v, path, MAX_DEMAND_PARTS, "parts")?
            .iter()
            .enumerate()
            .map(|(i, d)| part(d, &format!("{path}[{i}]")))
            .collect(),
        other => Ok(vec![part(other, path)?]),
    }
}

const DEMAND_KINDS: &[&str] = &["poisson", "bursts", "page_load", "times"];

fn demand_part(v: &Json<'_>, path: &str) -> Result<Demand, SimError> {
    let obj = object(
        v,
        path,
        "{\"kind\": \"poisson\", \"rate\": 10, \"per_ms\": 1000}",
    )?;
    unknown_fields(obj, path, DEMAND_FIELDS)?;
    let kind =
        get(obj, path, "kind", |v, p| string(v, p).map(str::to_string))?.ok_or_else(|| {
            SimError::at(
                &join(path, "kind"),
                format_args!("required (one of {})", DEMAND_KINDS.join(", ")),
            )
        })?;
    let takes: &[&str] = match kind.as_str() {
        "poisson" => &["rate", "per_ms", "from_ms", "until_ms"],
        "bursts" => &["size", "spacing_ms", "every_ms", "from_ms", "until_ms"],
        "page_load" => &["size", "at_ms"],
        "times" => &["times"],
        other => {
            return Err(SimError::at(
                &join(path, "kind"),
                format_args!(
                    "unknown kind \"{}\" (expected one of {})",
                    shown(other),
                    DEMAND_KINDS.join(", ")
                ),
            ))
        }
    };
    for &f in DEMAND_FIELDS {
        if f != "kind" && obj.contains_key(f) && !takes.contains(&f) {
            return Err(SimError::at(
                &join(path, f),
                format_args!("\"{kind}\" takes no {f} (it takes {})", takes.join(", ")),
            ));
        }
    }
    let required = |f: &str, parse: &dyn Fn(&Json<'_>, &str) -> Result<u64, SimError>| {
        get(obj, path, f, parse)?.ok_or_else(|| SimError::at(&join(path, f), "required"))
    };
    let from_ms = get(obj, path, "from_ms", ms)?.unwrap_or(0);
    let until_ms = get(obj, path, "until_ms", ms)?;
    let size = |v: &Json<'_>, p: &str| count(v, p, MAX_REQUESTS as u64);
    Ok(match kind.as_str() {
        "poisson" => Demand::Poisson {
            rate: required("rate", &|v, p| count(v, p, MAX_COUNT))?,
            per_ms: get(obj, path, "per_ms", |v, p| positive(duration(v, p)?, p))?.unwrap_or(1000),
            from_ms,
            until_ms,
        },
        "bursts" => Demand::Bursts {
            size: required("size", &size)? as u32,
            spacing_ms: get(obj, path, "spacing_ms", duration)?.unwrap_or(0),
            every_ms: get(obj, path, "every_ms", |v, p| positive(duration(v, p)?, p))?,
            from_ms,
            until_ms,
        },
        "page_load" => Demand::PageLoads {
            size: required("size", &size)? as u32,
            at_ms: get(obj, path, "at_ms", times)?.ok_or_else(|| {
                SimError::at(&join(path, "at_ms"), "required (an array of times in ms)")
            })?,
        },
        _ => Demand::Times(get(obj, path, "times", times)?.ok_or_else(|| {
            SimError::at(&join(path, "times"), "required (an array of times in ms)")
        })?),
    })
}

const POLICIES: &[&str] = &[
    "none",
    "immediately",
    "fixed",
    "exponential",
    "full_jitter",
    "retry_after",
];

/// `retry`: a policy name, or `{"policy", "max_attempts", ...}`.
fn retry_from(v: &Json<'_>, path: &str) -> Result<RetryPolicy, SimError> {
    let empty = Obj::default();
    let (policy, obj, policy_path) = match v {
        Json::String(s) => (s.as_ref(), &empty, path.to_string()),
        Json::Object(obj) => {
            unknown_fields(obj, path, RETRY_FIELDS)?;
            let p = join(path, "policy");
            let name = match obj.get("policy") {
                Some(v) => string(v, &p)?,
                None => {
                    return Err(SimError::at(
                        &p,
                        format_args!("required (one of {})", POLICIES.join(", ")),
                    ))
                }
            };
            (name, obj, p)
        }
        other => {
            return Err(SimError::at(
                path,
                format_args!(
                    "must be a policy name or an object like {{\"policy\": \"retry_after\", \"jitter_ms\": 500, \"max_attempts\": 4}}, got {}",
                    describe(other)
                ),
            ))
        }
    };
    let takes: &[&str] = match policy {
        "none" => &[],
        "immediately" => &["max_attempts"],
        "fixed" => &["max_attempts", "delay_ms"],
        "exponential" | "full_jitter" => &["max_attempts", "base_ms", "cap_ms"],
        "retry_after" => &["max_attempts", "jitter_ms"],
        other => {
            return Err(SimError::at(
                &policy_path,
                format_args!(
                    "unknown policy \"{}\" (expected one of {})",
                    shown(other),
                    POLICIES.join(", ")
                ),
            ))
        }
    };
    for &f in RETRY_FIELDS {
        if f != "policy" && obj.contains_key(f) && !takes.contains(&f) {
            let what = if takes.is_empty() {
                "it makes one attempt".to_string()
            } else {
                format!("it takes {}", takes.join(", "))
            };
            return Err(SimError::at(
                &join(path, f),
                format_args!("\"{policy}\" takes no {f} ({what})"),
            ));
        }
    }
    let max_attempts = get(obj, path, "max_attempts", |v, p| {
        count(v, p, u32::MAX as u64)
    })?
    .map_or(if policy == "none" { 1 } else { 4 }, |n| {
        n.min(u32::MAX as u64) as u32
    });
    let base_ms = get(obj, path, "base_ms", |v, p| positive(duration(v, p)?, p))?.unwrap_or(100);
    let backoff = match policy {
        "none" => Backoff::None,
        "immediately" => Backoff::Immediately,
        "fixed" => Backoff::Fixed {
            delay_ms: get(obj, path, "delay_ms", duration)?.unwrap_or(1000),
        },
        "exponential" => Backoff::Exponential {
            base_ms,
            cap_ms: get(obj, path, "cap_ms", duration)?
                .unwrap_or(base_ms.saturating_mul(64))
                .min(MAX_PERIOD_MS),
        },
        "full_jitter" => Backoff::FullJitter {
            base_ms,
            cap_ms: get(obj, path, "cap_ms", duration)?
                .unwrap_or(base_ms.saturating_mul(64))
                .min(MAX_PERIOD_MS),
        },
        _ => Backoff::RetryAfter {
            jitter_ms: get(obj, path, "jitter_ms", duration)?.unwrap_or(0),
        },
    };
    Ok(RetryPolicy::new(backoff, max_attempts))
}

fn key_from(v: &Json<'_>, path: &str) -> Result<KeyMode, SimError> {
    one_of(
        v,
        path,
        &[
            ("client", KeyMode::Client),
            ("global", KeyMode::Global),
            ("client_route", KeyMode::ClientRoute),
        ],
    )
}

/// One limit: a limiter object plus `key` and `routes`.
fn limit_from(v: &Json<'_>, path: &str, routes: Option<&[Route]>) -> Result<LimitSpec, SimError> {
    let obj = object(
        v,
        path,
        "{\"algorithm\": \"token_bucket\", \"limit\": 10, \"period_ms\": 1000, \"key\": \"client\"}",
    )?;
    let mut known: Vec<&str> = LIMITER_FIELDS.to_vec();
    known.push("key");
    if routes.is_some() {
        known.push("routes");
    }
    unknown_fields(obj, path, &known)?;
    let key = get(obj, path, "key", key_from)?.unwrap_or(KeyMode::Client);
    let applies = match routes {
        None => None,
        Some(all) => get(obj, path, "routes", |v, p| {
            array(v, p, MAX_ROUTES, "routes")?
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let rp = format!("{p}[{i}]");
                    route_index(string(r, &rp)?, &rp, all)
                })
                .collect::<Result<Vec<u32>, SimError>>()
        })?,
    };
    let limiter = obj.without(LIMIT_EXTRA);
    let lane = limiter_from(&Json::Object(limiter), path, None)?;
    Ok(LimitSpec {
        lane,
        key,
        routes: applies,
    })
}

fn limits_from(v: &Json<'_>, path: &str, routes: &[Route]) -> Result<Vec<LimitSpec>, SimError> {
    let items = array(v, path, MAX_LIMITS, "limits")?;
    let mut out: Vec<LimitSpec> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let p = format!("{path}[{i}]");
        let mut limit = limit_from(item, &p, Some(routes))?;
        name_lane(&mut limit.lane, item, &p, |id| {
            out.iter().any(|l| l.lane.id == id)
        })?;
        out.push(limit);
    }
    Ok(out)
}

fn outages_from(v: &Json<'_>, path: &str) -> Result<Vec<Span>, SimError> {
    let Json::Array(items) = v else {
        return Err(SimError::at(
            path,
            format_args!("must be an array, got {}", describe(v)),
        ));
    };
    if items.len() > MAX_OUTAGES {
        return Err(SimError::at(
            path,
            format_args!("{} spans is too many (at most {MAX_OUTAGES})", items.len()),
        ));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let p = format!("{path}[{i}]");
            let obj = object(item, &p, "{\"from_ms\": 20000, \"to_ms\": 40000}")?;
            unknown_fields(obj, &p, OUTAGE_FIELDS)?;
            let need = |f: &str| {
                get(obj, &p, f, ms)?.ok_or_else(|| SimError::at(&join(&p, f), "required"))
            };
            Ok(Span {
                from_ms: need("from_ms")?,
                to_ms: need("to_ms")?,
            })
        })
        .collect()
}

/// `on_outage`: `"fail_open"`, `"fail_closed"`, or `{"fallback": {limiter, "key"}}`.
fn on_outage_from(v: &Json<'_>, path: &str) -> Result<OnOutage, SimError> {
    match v {
        Json::String(_) => one_of(v, path, &[("fail_open", 0u8), ("fail_closed", 1)]).map(|p| {
            if p == 0 {
                OnOutage::FailOpen
            } else {
                OnOutage::FailClosed
            }
        }),
        Json::Object(obj) => {
            unknown_fields(obj, path, &["fallback"])?;
            let p = join(path, "fallback");
            let f = obj
                .get("fallback")
                .ok_or_else(|| SimError::at(&p, "required (a limiter)"))?;
            let mut limit = limit_from(f, &p, None)?;
            if f.get("id").is_none() {
                limit.lane.id = "fallback".into();
            }
            Ok(OnOutage::Fallback(Box::new(limit)))
        }
        other => Err(SimError::at(
            path,
            format_args!(
                "must be \"fail_open\", \"fail_closed\" or {{\"fallback\": {{...}}}}, got {}",
                describe(other)
            ),
        )),
    }
}

// ---------------------------------------------------------------------------
// Writing: a service run's report, and a service in the input format

/// A service run's lane in the output.
#[derive(Serialize)]
pub(super) struct ServiceReportOut<'a> {
    id: &'a str,
    attempts: AttemptsOut<'a>,
    yardstick: YardstickOut<'a>,
}

impl<'a> From<&'a ServiceReport> for ServiceReportOut<'a> {
    fn from(r: &'a ServiceReport) -> ServiceReportOut<'a> {
        ServiceReportOut {
            id: &r.id,
            attempts: AttemptsOut(&r.attempts),
            yardstick: YardstickOut(&r.yardstick),
        }
    }
}

/// The attempts, one array per field (`t`, `client`, ...), in arrival order.
struct AttemptsOut<'a>(&'a [Attempt]);

impl Serialize for AttemptsOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let a = self.0;
        let mut m = s.serialize_map(Some(12))?;
        m.serialize_entry("t", &Column(a, |x| x.t))?;
        m.serialize_entry("client", &Column(a, |x| x.client))?;
        m.serialize_entry("route", &Column(a, |x| x.route))?;
        m.serialize_entry("attempt", &Column(a, |x| x.attempt))?;
        m.serialize_entry("original", &Column(a, |x| x.original))?;
        m.serialize_entry("retry", &Column(a, |x| x.retry))?;
        m.serialize_entry("instance", &Column(a, |x| x.instance))?;
        m.serialize_entry("status", &Column(a, Attempt::status))?;
        m.serialize_entry("decided_by", &Column(a, |x| x.decider.id()))?;
        m.serialize_entry("wait_ms", &Column(a, |x| x.allowed.then_some(x.wait_ms)))?;
        m.serialize_entry("retry_after_s", &Column(a, |x| x.retry_after_s))?;
        m.serialize_entry("denied_by", &Column(a, |x| Limits(x.denied_by)))?;
        m.end()
    }
}

/// One field of every attempt, as an array.
struct Column<'a, T>(&'a [Attempt], fn(&Attempt) -> T);

impl<T: Serialize> Serialize for Column<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(self.1))
    }
}

/// The limits that refused an attempt, as indices into the service's `limits`.
struct Limits(u16);

impl Serialize for Limits {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((0..16u16).filter(|i| self.0 & (1 << i) != 0))
    }
}

/// The yardstick, fields in the README's order (`distinct` is not in the format).
struct YardstickOut<'a>(&'a ServiceYardstick);

#[derive(Serialize)]
struct YardstickFields<'a> {
    demand: u64,
    offered: u64,
    amplification: &'a str,
    amplification_permille: u64,
    passed: u64,
    status_429: u64,
    status_503: u64,
    goodput: GoodputOut,
    denied_by: Vec<DeniedByOut<'a>>,
    fail_open: u64,
    fallback_passed: u64,
    fallback_refused: u64,
    wait_ms: PercentilesOut,
    latency_ms: PercentilesOut,
    window_ms: u64,
    max_in_window: u64,
    max_in_window_per_key: u64,
    max_in_1s: u64,
    max_in_1s_per_key: u64,
    per_second: PerSecondOut<'a>,
    clients: Vec<ClientOut<'a>>,
    routes: Vec<RouteOut<'a>>,
    instances: Vec<InstanceOut>,
}

#[derive(Serialize)]
struct GoodputOut {
    first_try: u64,
    after_retry: u64,
    gave_up: u64,
}

impl From<&Goodput> for GoodputOut {
    fn from(g: &Goodput) -> GoodputOut {
        GoodputOut {
            first_try: g.first_try,
            after_retry: g.after_retry,
            gave_up: g.gave_up,
        }
    }
}

#[derive(Serialize)]
struct DeniedByOut<'a> {
    limit: &'a str,
    count: u64,
}

#[derive(Serialize)]
struct PercentilesOut {
    count: u64,
    p50: Option<u64>,
    p95: Option<u64>,
    p99: Option<u64>,
    max: Option<u64>,
}

impl From<&Percentiles> for PercentilesOut {
    fn from(p: &Percentiles) -> PercentilesOut {
        PercentilesOut {
            count: p.count,
            p50: p.p50,
            p95: p.p95,
            p99: p.p99,
            max: p.max,
        }
    }
}

#[derive(Serialize)]
struct PerSecondOut<'a> {
    demand: &'a [u64],
    offered: &'a [u64],
    allowed: &'a [u64],
    refused: &'a [u64],
}

#[derive(Serialize)]
struct ClientOut<'a> {
    name: &'a str,
    demand: u64,
    offered: u64,
    passed: u64,
    status_429: u64,
    status_503: u64,
    share_permille: u64,
    rate_429_permille: u64,
    goodput: GoodputOut,
    max_in_window: u64,
    max_in_1s: u64,
}

impl<'a> From<&'a ClientStats> for ClientOut<'a> {
    fn from(c: &'a ClientStats) -> ClientOut<'a> {
        ClientOut {
            name: &c.name,
            demand: c.demand,
            offered: c.offered,
            passed: c.passed,
            status_429: c.status_429,
            status_503: c.status_503,
            share_permille: c.share_permille,
            rate_429_permille: c.rate_429_permille,
            goodput: (&c.goodput).into(),
            max_in_window: c.max_in_window,
            max_in_1s: c.max_in_1s,
        }
    }
}

#[derive(Serialize)]
struct RouteOut<'a> {
    name: &'a str,
    cost: u32,
    offered: u64,
    passed: u64,
    refused: u64,
}

impl<'a> From<&'a RouteStats> for RouteOut<'a> {
    fn from(r: &'a RouteStats) -> RouteOut<'a> {
        RouteOut {
            name: &r.name,
            cost: r.cost,
            offered: r.offered,
            passed: r.passed,
            refused: r.refused,
        }
    }
}

#[derive(Serialize)]
struct InstanceOut {
    offered: u64,
    passed: u64,
}

impl From<&InstanceStats> for InstanceOut {
    fn from(i: &InstanceStats) -> InstanceOut {
        InstanceOut {
            offered: i.offered,
            passed: i.passed,
        }
    }
}

impl Serialize for YardstickOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let y = self.0;
        YardstickFields {
            demand: y.demand,
            offered: y.offered,
            amplification: &y.amplification,
            amplification_permille: y.amplification_permille,
            passed: y.passed,
            status_429: y.status_429,
            status_503: y.status_503,
            goodput: (&y.goodput).into(),
            denied_by: y
                .denied_by
                .iter()
                .map(|d| DeniedByOut {
                    limit: &d.limit,
                    count: d.count,
                })
                .collect(),
            fail_open: y.fail_open,
            fallback_passed: y.fallback_passed,
            fallback_refused: y.fallback_refused,
            wait_ms: (&y.wait_ms).into(),
            latency_ms: (&y.latency_ms).into(),
            window_ms: y.window_ms,
            max_in_window: y.max_in_window,
            max_in_window_per_key: y.max_in_window_per_key,
            max_in_1s: y.max_in_1s,
            max_in_1s_per_key: y.max_in_1s_per_key,
            per_second: PerSecondOut {
                demand: &y.per_second.demand,
                offered: &y.per_second.offered,
                allowed: &y.per_second.allowed,
                refused: &y.per_second.refused,
            },
            clients: y.clients.iter().map(ClientOut::from).collect(),
            routes: y.routes.iter().map(RouteOut::from).collect(),
            instances: y.instances.iter().map(InstanceOut::from).collect(),
        }
        .serialize(s)
    }
}

/// A service in the input format: what [`services_from`] reads back to an equal
/// spec. Defaults are left out; clients named `base-0` … `base-(n−1)` in a row with
/// the same demand, route mix and retry policy are written once with `count: n`.
#[derive(Serialize)]
pub(super) struct ServiceSpecOut<'a> {
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
    pub(super) fn new(s: &'a ServiceSpec) -> ServiceSpecOut<'a> {
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

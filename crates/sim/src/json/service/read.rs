//! Reading the `services` section: each service object to a checked `ServiceSpec`.

use ratelab_core::{MAX_COUNT, MAX_PERIOD_MS};

use crate::error::SimError;
use crate::service::{
    Backoff, Balancing, ClientSpec, Demand, KeyMode, LimitSpec, OnOutage, RetryPolicy, Route,
    ServiceSpec, Span, Store, MAX_CLIENTS, MAX_DEMAND_PARTS, MAX_LIMITS, MAX_OUTAGES, MAX_ROUTES,
    MAX_SERVICES,
};
use crate::stream::{MAX_REQUESTS, MAX_TIME_MS};

use crate::json::fields::{
    describe, join, label, limiter_from, name_lane, positive, shown, string, uint, unknown_fields,
    Unit, LIMITER_FIELDS,
};
use crate::json::tree::{Json, Obj};

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

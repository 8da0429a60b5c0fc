//! Writing a service run's report: its attempts, column by column, and its yardstick.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::service::{
    Attempt, ClientStats, Goodput, InstanceStats, Percentiles, RouteStats, ServiceReport,
    ServiceYardstick,
};

/// A service run's lane in the output.
#[derive(Serialize)]
pub(in crate::json) struct ServiceReportOut<'a> {
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

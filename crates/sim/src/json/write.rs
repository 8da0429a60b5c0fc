//! The JSON output: the report (`ratelab simulate`, `simulate_json`), a config in the
//! explicit input form ("export"), and the scenario registry. Field order is the
//! format, so every output is a borrowed mirror struct here, in the order the README
//! documents; the simulator's own types carry no serde attributes.

use ratelab_core::{Headers, Ms, BODY_CONTENT_TYPE};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use crate::config::Config;
use crate::lane::{LaneSpec, ResolvedParams};
use crate::run::{LaneReport, Report};
use crate::scenario::{defaults, ScenarioId, ScenarioInfo, SCENARIOS};
use crate::service::{service_scenario, ServiceSpec};

#[cfg(feature = "services")]
use super::service::{ServiceReportOut, ServiceSpecOut};
use crate::stream::{Request, Stream};
use crate::sweep::{Sweep, SweepRow};
use crate::yardstick::Yardstick;

use super::limiter::LimiterOut;

/// Writes `value`. Serialising plain structs of strings and integers into a string
/// cannot fail; an empty string would say so should it ever happen.
pub(crate) fn to_string(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// A scenario is written as its id (`"lab-d"`).
impl Serialize for ScenarioId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

// ---------------------------------------------------------------------------
// The report

#[derive(Serialize)]
struct ReportOut<'a> {
    results: Vec<LaneOut<'a>>,
    scenario: Option<ScenarioId>,
    request_count: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    sweep: Option<&'a Sweep>,
    // Only a build with the service model writes (or has) services: see
    // `service::left_out`.
    #[cfg(feature = "services")]
    #[serde(skip_serializing_if = "Option::is_none")]
    services: Option<Vec<ServiceReportOut<'a>>>,
}

#[derive(Serialize)]
struct LaneOut<'a> {
    id: &'a str,
    algorithm: &'static str,
    params: &'a ResolvedParams,
    allowed: &'a [bool],
    #[serde(serialize_with = "waits_in_ms")]
    wait_ms: &'a [Option<Ms>],
    #[serde(flatten)]
    yardstick: &'a Yardstick,
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "responses_out"
    )]
    responses: Option<&'a [Headers]>,
}

/// One response of `responses`: `{"status": 429, "headers": {"Retry-After": "1",
/// ...}, "body": "{...}"}`: the fields of `ratelab respond`
/// ([`Headers::response_text`]) in its order (a CLI test holds them to it), the
/// values as they are sent (text), `body` `null` on a 200. Written field by field
/// from the struct, as the live limiter's `check()` does: the JS API's chunk then
/// needs no list of fields.
struct ResponseOut<'a>(&'a Headers);

struct FieldsOut<'a>(&'a Headers);

impl Serialize for ResponseOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("Response", 3)?;
        out.serialize_field("status", &u64::from(self.0.status))?;
        out.serialize_field("headers", &FieldsOut(self.0))?;
        out.serialize_field("body", &self.0.body())?;
        out.end()
    }
}

impl Serialize for FieldsOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let h = self.0;
        let mut out = s.serialize_struct("Fields", 7)?;
        if let Some(r) = h.retry_after {
            out.serialize_field("Retry-After", &r.to_string())?;
        }
        out.serialize_field("RateLimit-Policy", &h.policy)?;
        out.serialize_field("RateLimit", &h.ratelimit)?;
        out.serialize_field("X-RateLimit-Limit", &h.limit.to_string())?;
        out.serialize_field("X-RateLimit-Remaining", &h.remaining.to_string())?;
        out.serialize_field("X-RateLimit-Reset", &h.reset.to_string())?;
        if h.retry_after.is_some() {
            out.serialize_field("Content-Type", BODY_CONTENT_TYPE)?;
        }
        out.end()
    }
}

fn responses_out<S: Serializer>(r: &Option<&[Headers]>, s: S) -> Result<S::Ok, S::Error> {
    match r {
        Some(r) => s.collect_seq(r.iter().map(ResponseOut)),
        None => s.serialize_none(),
    }
}

fn waits_in_ms<S: Serializer>(waits: &&[Option<Ms>], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(waits.iter().map(|w| w.map(Ms::ceil_ms)))
}

impl Serialize for Report {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ReportOut {
            results: self.results.iter().map(LaneOut::from).collect(),
            scenario: self.scenario,
            request_count: self.request_count,
            sweep: self.sweep.as_ref(),
            #[cfg(feature = "services")]
            services: self
                .services
                .as_ref()
                .map(|v| v.iter().map(ServiceReportOut::from).collect()),
        }
        .serialize(s)
    }
}

impl<'a> From<&'a LaneReport> for LaneOut<'a> {
    fn from(l: &'a LaneReport) -> LaneOut<'a> {
        LaneOut {
            id: &l.id,
            algorithm: l.algorithm,
            params: &l.params,
            allowed: &l.allowed,
            wait_ms: &l.waits,
            yardstick: &l.yardstick,
            responses: l.responses.as_deref(),
        }
    }
}

impl Serialize for LaneReport {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        LaneOut::from(self).serialize(s)
    }
}

/// `max_in_window_end` and the exact `longest_wait` are for the playground, not the
/// format.
#[derive(Serialize)]
struct YardstickOut<'a> {
    passed: u64,
    blocked: u64,
    max_in_window: u64,
    window_ms: u64,
    max_in_1s: u64,
    max_in_window_departures: Option<u64>,
    longest_wait_ms: u64,
    histogram_10s: &'a [u64],
    keys: u64,
    state_numbers: u64,
}

impl Serialize for Yardstick {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        YardstickOut {
            passed: self.passed,
            blocked: self.blocked,
            max_in_window: self.max_in_window,
            window_ms: self.window_ms,
            max_in_1s: self.max_in_1s,
            max_in_window_departures: self.max_in_window_departures,
            longest_wait_ms: self.longest_wait_ms,
            histogram_10s: &self.histogram_10s,
            keys: self.keys,
            state_numbers: self.state_numbers,
        }
        .serialize(s)
    }
}

#[derive(Serialize)]
struct ParamsOut {
    limit: u64,
    period_ms: u64,
    burst: Option<u64>,
    delay: Option<u64>,
    nodelay: bool,
}

impl Serialize for ResolvedParams {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ParamsOut {
            limit: self.limit,
            period_ms: self.period_ms,
            burst: self.burst,
            delay: self.delay,
            nodelay: self.nodelay,
        }
        .serialize(s)
    }
}

#[derive(Serialize)]
struct SweepOut<'a> {
    baseline: &'static str,
    candidate: &'static str,
    limit: u64,
    period_ms: u64,
    clients: u32,
    duration_ms: u64,
    seed: u64,
    rows: &'a [SweepRow],
}

impl Serialize for Sweep {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        SweepOut {
            baseline: self.baseline,
            candidate: self.candidate,
            limit: self.limit,
            period_ms: self.period_ms,
            clients: self.clients,
            duration_ms: self.duration_ms,
            seed: self.seed,
            rows: &self.rows,
        }
        .serialize(s)
    }
}

#[derive(Serialize)]
struct SweepRowOut<'a> {
    load: &'a str,
    load_permille: u32,
    requests: u64,
    baseline_allowed: u64,
    candidate_allowed: u64,
    wrong_allows: u64,
    wrong_blocks: u64,
}

impl Serialize for SweepRow {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        SweepRowOut {
            load: &self.load,
            load_permille: self.load_permille,
            requests: self.requests,
            baseline_allowed: self.baseline_allowed,
            candidate_allowed: self.candidate_allowed,
            wrong_allows: self.wrong_allows,
            wrong_blocks: self.wrong_blocks,
        }
        .serialize(s)
    }
}

// ---------------------------------------------------------------------------
// A config in the input format

#[derive(Serialize)]
struct ConfigOut<'a> {
    requests: Vec<RequestOut<'a>>,
    limiters: Vec<LimiterOut<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    window_ms: Option<u64>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum RequestOut<'a> {
    Time(u64),
    Full {
        t: u64,
        #[serde(skip_serializing_if = "str::is_empty")]
        key: &'a str,
        #[serde(skip_serializing_if = "is_one")]
        cost: u32,
    },
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

impl<'a> RequestOut<'a> {
    fn new(r: &Request, stream: &'a Stream) -> RequestOut<'a> {
        let key = stream.key_name(r.key).unwrap_or("");
        if key.is_empty() && r.cost == 1 {
            RequestOut::Time(r.t)
        } else {
            RequestOut::Full {
                t: r.t,
                key,
                cost: r.cost,
            }
        }
    }
}

/// A service run in the input format.
#[cfg(feature = "services")]
#[derive(Serialize)]
struct ServicesOut<'a> {
    services: Vec<ServiceSpecOut<'a>>,
}

/// See [`Config::to_json`].
pub(crate) fn config(config: &Config) -> String {
    #[cfg(feature = "services")]
    if let Some(services) = &config.services {
        return to_string(&ServicesOut {
            services: services.iter().map(ServiceSpecOut::new).collect(),
        });
    }
    let requests: Vec<RequestOut<'_>> = config
        .stream
        .requests
        .iter()
        .map(|r| RequestOut::new(r, &config.stream))
        .collect();
    to_string(&ConfigOut {
        requests,
        limiters: config.lanes.iter().map(LimiterOut::from).collect(),
        window_ms: config.window_ms,
    })
}

// ---------------------------------------------------------------------------
// The registry

#[derive(Serialize)]
struct ScenarioOut<'a> {
    id: &'static str,
    title: &'static str,
    description: &'static str,
    overrides: &'static [&'static str],
    limit: u64,
    period_ms: u64,
    window_ms: Option<u64>,
    limiters: Vec<LimiterOut<'a>>,
    #[cfg(feature = "services")]
    #[serde(skip_serializing_if = "Vec::is_empty")]
    services: Vec<ServiceSpecOut<'a>>,
}

/// A service scenario's services (none in a build without the model: a constant
/// branch, so that none of them is linked).
fn scenario_services(id: ScenarioId) -> Vec<ServiceSpec> {
    if cfg!(feature = "services") {
        service_scenario(id, defaults::SEED).unwrap_or_default()
    } else {
        Vec::new()
    }
}

/// The registry as JSON: `[{"id", "title", "description", "overrides", "limit",
/// "period_ms", "window_ms", "limiters"}, ...]` (limiters in the input format):
/// what `ratelab scenarios --json` and the JS API's `scenarios()` return.
pub fn scenarios_json() -> String {
    // A build without the service model does not offer its scenarios.
    let offered: Vec<&ScenarioInfo> = SCENARIOS
        .iter()
        .filter(|s| cfg!(feature = "services") || !s.id.is_service())
        .collect();
    let lanes: Vec<Vec<LaneSpec>> = offered
        .iter()
        .map(|s| s.id.lanes(s.limit, s.period_ms))
        .collect();
    let services: Vec<Vec<ServiceSpec>> = offered.iter().map(|s| scenario_services(s.id)).collect();
    let out: Vec<ScenarioOut<'_>> = offered
        .iter()
        .zip(lanes.iter().zip(&services))
        .map(|(s, (l, _v))| ScenarioOut {
            id: s.id.id(),
            title: s.title,
            description: s.description,
            overrides: s.overrides,
            limit: s.limit,
            period_ms: s.period_ms,
            window_ms: s.window_ms,
            limiters: l.iter().map(LimiterOut::from).collect(),
            #[cfg(feature = "services")]
            services: _v.iter().map(ServiceSpecOut::new).collect(),
        })
        .collect();
    to_string(&out)
}

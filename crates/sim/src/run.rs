//! The runner: one stream through every lane, and the report.

use ratelab_core::{AnyLimiter, Decision, Explanation, Headers, Keyed, Limiter, Ms, Policy};

use crate::config::Config;
use crate::cost::Budget;
use crate::error::SimError;
use crate::lane::{LaneSpec, ResolvedParams};
use crate::scenario::ScenarioId;
use crate::service::{run_services, ServiceReport};
use crate::stream::{Request, Stream};
use crate::sweep::{sweep, Sweep};
use crate::yardstick::{Decided, Meter, Yardstick};

/// The result of a run (the JSON output). Field order is the format.
/// Written as JSON by [`Report::to_json`] (and `Serialize`, in `crate::json`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// One per lane, in the order given.
    pub results: Vec<LaneReport>,
    /// The scenario run, if any.
    pub scenario: Option<ScenarioId>,
    /// How many requests the stream had.
    pub request_count: usize,
    /// Lab D's sweep (absent otherwise).
    pub sweep: Option<Sweep>,
    /// A service run's lanes (absent otherwise; `results` is then empty).
    pub services: Option<Vec<ServiceReport>>,
}

/// One lane's result: its decisions and its yardstick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneReport {
    /// The lane's label.
    pub id: String,
    /// The algorithm's id.
    pub algorithm: &'static str,
    /// Its parameters, resolved.
    pub params: ResolvedParams,
    /// Per request: allowed (possibly after a wait)?
    pub allowed: Vec<bool>,
    /// Per request: the exact wait of an allowed request, `None` if denied. In JSON
    /// (`wait_ms`): rounded up to whole ms, `null` when denied.
    pub waits: Vec<Option<Ms>>,
    /// The shared yardstick, its fields inline in the JSON (`passed`, `blocked`,
    /// `max_in_window`, ...).
    pub yardstick: Yardstick,
    /// Per request, when asked for ([`Config::responses`]): the response the lane
    /// sends (`Decision::headers` under its policy), `ratelab respond`'s numbers.
    pub responses: Option<Vec<Headers>>,
}

impl Report {
    /// The lane with this id.
    pub fn lane(&self, id: &str) -> Option<&LaneReport> {
        self.results.iter().find(|l| l.id == id)
    }
}

impl LaneReport {
    /// How many requests of `stream` (the one this lane ran on) arriving in
    /// `[from, to)` ms it allowed.
    pub fn allowed_between(&self, stream: &Stream, from: u64, to: u64) -> usize {
        stream
            .requests
            .iter()
            .zip(&self.allowed)
            .filter(|(r, &a)| a && (from..to).contains(&r.t))
            .count()
    }

    /// The decisions as SPEC's tables write them: `✓✓✗…`.
    pub fn marks(&self) -> String {
        self.allowed
            .iter()
            .map(|&a| if a { '✓' } else { '✗' })
            .collect()
    }
}

/// Runs every lane over the stream (validating the config first) and, for lab D, the
/// sweep. Refused before any work if its estimate ([`crate::cost::run_cost`]) is
/// over [`Budget::RUN`] (as every [`run_with`]).
pub fn run(config: &Config) -> Result<Report, SimError> {
    if let Some(services) = &config.services {
        if !cfg!(feature = "services") {
            return Err(crate::service::left_out("services"));
        }
        config.validate()?;
        return Ok(Report {
            results: Vec::new(),
            scenario: config.scenario,
            request_count: 0,
            sweep: None,
            services: Some(run_services(services)?),
        });
    }
    let mut report = run_with(config, |j, lane, stream| {
        let mut out = Vec::with_capacity(stream.requests.len());
        decide_each(j, lane, stream, |d, keyed, key, _| {
            out.push(Decided {
                allowed: d.allowed(),
                wait: d.wait(),
                state_numbers: keyed.get(key).state_numbers(),
            });
        })?;
        Ok(out)
    })?;
    report.sweep = config.sweep.as_ref().map(sweep).transpose()?;
    Ok(report)
}

/// Lane `j`'s engine limiter (one per key) over every request of `stream`, in
/// order: `each(decision, limiters, key, policy)` after each check.
fn decide_each(
    j: usize,
    lane: &LaneSpec,
    stream: &Stream,
    mut each: impl FnMut(Decision, &Keyed<AnyLimiter>, &str, &Policy),
) -> Result<(), SimError> {
    let proto = lane
        .build()
        .map_err(|e| SimError::param(&format!("limiters[{j}]"), &e))?;
    let policy = proto.policy();
    let mut keyed = Keyed::new(proto);
    for (i, r) in stream.requests.iter().enumerate() {
        let key = stream.key_name(r.key).unwrap_or("");
        let d = keyed
            .check(key, r.t, r.cost)
            .map_err(|e| SimError::check(i, j, &lane.id, &e))?;
        each(d, &keyed, key, &policy);
    }
    Ok(())
}

/// [`run`], and when the config asks for them ([`Config::responses`]) each lane's
/// response to every request: `Decision::headers` under the lane's policy, the
/// numbers `ratelab respond` prints. A second pass over the stream, apart from
/// [`run`] so that the lessons and the playground, which never ask, carry none
/// of it.
pub fn run_answering(config: &Config) -> Result<Report, SimError> {
    let mut report = run(config)?;
    if !config.responses {
        return Ok(report);
    }
    for (j, (lane, out)) in config.lanes.iter().zip(&mut report.results).enumerate() {
        let mut sent = Vec::with_capacity(config.stream.requests.len());
        decide_each(j, lane, &config.stream, |d, _, _, policy| {
            sent.push(d.headers(policy));
        })?;
        out.responses = Some(sent);
    }
    Ok(report)
}

/// The report of [`run`] with the decisions made elsewhere: `decide(j, lane,
/// stream)` returns lane `j`'s decision on every request of the stream, in order
/// (the engine's for [`run`]; a Redis server's in `ratelab-redis`). The config is
/// validated first and held to [`Budget::RUN`]; lab D's sweep is not run (`sweep`
/// is `None`).
pub fn run_with<E: From<SimError>>(
    config: &Config,
    mut decide: impl FnMut(usize, &LaneSpec, &Stream) -> Result<Vec<Decided>, E>,
) -> Result<Report, E> {
    config.validate()?;
    if config.services.is_some() {
        return Err(SimError::at(
            "services",
            "a service run is decided by the engine alone (it has no stream to hand out)",
        )
        .into());
    }
    crate::cost::run_cost(config).check(&Budget::RUN)?;
    let stream = &config.stream;
    let mut results = Vec::with_capacity(config.lanes.len());
    for (j, lane) in config.lanes.iter().enumerate() {
        let decided = decide(j, lane, stream)?;
        if decided.len() != stream.requests.len() {
            return Err(SimError::at(
                &format!("limiters[{j}]"),
                format_args!(
                    "{} decisions for {} requests",
                    decided.len(),
                    stream.requests.len()
                ),
            )
            .into());
        }
        let mut meter = Meter::new(lane.window_ms(config.window_ms), lane.algorithm.delays());
        let n = decided.len();
        let (mut allowed, mut waits) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for (i, (r, d)) in stream.requests.iter().zip(&decided).enumerate() {
            let wait = d.allowed.then_some(d.wait);
            meter.record(i as u64, r, wait, d.state_numbers);
            allowed.push(d.allowed);
            waits.push(wait);
        }
        results.push(LaneReport {
            id: lane.id.clone(),
            algorithm: lane.algorithm.id(),
            params: lane.resolved(),
            allowed,
            waits,
            yardstick: meter.yardstick(),
            responses: None,
        });
    }
    Ok(Report {
        results,
        scenario: config.scenario,
        request_count: stream.requests.len(),
        sweep: None,
        services: None,
    })
}

/// One lane's trace: a row per request.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneTrace {
    /// The lane's label.
    pub id: String,
    /// Its parameters, resolved.
    pub params: ResolvedParams,
    /// The algorithm's id.
    pub algorithm: &'static str,
    /// One row per request, in stream order.
    pub rows: Vec<TraceRow>,
}

impl LaneTrace {
    /// The lane's heading: its label and parameters, no rows yet.
    pub fn heading(lane: &LaneSpec) -> LaneTrace {
        LaneTrace {
            id: lane.id.clone(),
            params: lane.resolved(),
            algorithm: lane.algorithm.id(),
            rows: Vec::new(),
        }
    }
}

/// One request as a lane saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceRow {
    /// The request.
    pub request: Request,
    /// Its key's name.
    pub key: String,
    /// State before, updates, the comparison, verdict, state after.
    pub explanation: Explanation,
}

/// Every lane's trace over the stream (validating the config first), kept whole:
/// for small streams. [`trace_each`] hands the rows over one at a time instead.
pub fn trace(config: &Config) -> Result<Vec<LaneTrace>, SimError> {
    let mut out: Vec<LaneTrace> = config.lanes.iter().map(LaneTrace::heading).collect();
    trace_each(config, |j, _, row| {
        if let Some(l) = out.get_mut(j) {
            l.rows.push(row);
        }
    })?;
    Ok(out)
}

/// Every lane's trace, a row at a time: `row(j, lane, row)` is called lane by lane
/// (`j` its index, `lane` its heading with no rows), in stream order. Nothing is kept, so memory does
/// not grow with the stream; the work does (each row copies the state before and
/// after), and is refused first if its estimate ([`crate::cost::trace_cost`]) is over
/// [`Budget::TRACE`].
pub fn trace_each(
    config: &Config,
    mut row: impl FnMut(usize, &LaneTrace, TraceRow),
) -> Result<(), SimError> {
    config.validate()?;
    if config.services.is_some() {
        return Err(SimError::at(
            "services",
            "a service run has no per-limiter trace (simulate prints its attempts)",
        ));
    }
    crate::cost::trace_cost(config).check(&Budget::TRACE)?;
    let stream = &config.stream;
    for (j, lane) in config.lanes.iter().enumerate() {
        let proto: AnyLimiter = lane
            .build()
            .map_err(|e| SimError::param(&format!("limiters[{j}]"), &e))?;
        let mut keyed = Keyed::new(proto);
        let heading = LaneTrace::heading(lane);
        for (i, r) in stream.requests.iter().enumerate() {
            let key = stream.key_name(r.key).unwrap_or("");
            let explanation = keyed
                .get(key)
                .explain(r.t, r.cost)
                .map_err(|e| SimError::check(i, j, &lane.id, &e))?;
            keyed
                .check(key, r.t, r.cost)
                .map_err(|e| SimError::check(i, j, &lane.id, &e))?;
            row(
                j,
                &heading,
                TraceRow {
                    request: *r,
                    key: key.to_string(),
                    explanation,
                },
            );
        }
    }
    Ok(())
}

//! Reading a query string: a table of handlers, one per parameter.
//!
//! The scenario is read first (the other defaults depend on it), then every pair in
//! order through [`PARAMETERS`] (or, for `name.i`, [`LANE_PARAMETERS`]); then the
//! lanes are assembled and each lane's own parameters applied, every one checked by
//! the engine; last, the whole setup is run once through
//! [`Setup::playground_config_without_services`] (a service scenario's services are
//! checked where they are run). Each value that cannot be used becomes a [`Notice`]
//! and its default stays.
//!
//! To add a parameter: a row in [`PARAMETERS`] (names, handler), a field on
//! [`Setup`] or [`View`], and its writer in `write.rs` (a test round-trips every
//! link).

use ratelab_core::{Algorithm, Params, MAX_COUNT, MAX_PERIOD_MS};

use super::encoding::{decode, pairs};
use super::service::{self as knobs, KNOBS};
use super::values::{
    at_most, format_duration, optional_count, parse_bool, parse_count, parse_duration, parse_fold,
    parse_load, parse_requests, parse_speed, parse_zoom, positive, shorten,
};
use super::write::reference_lanes;
use super::{normalise_ids, Link, Notice, Setup, View, LANGS, MAX_PLAYGROUND_LANES};
use crate::lane::LaneSpec;
use crate::scenario::{self, defaults, ScenarioId};
use crate::stream::MAX_TIME_MS;

/// Parses a query string. Never fails: see the module docs.
pub fn parse(query: &str) -> (Link, Vec<Notice>) {
    parse_pairs(&pairs(query))
}

/// Parses `(key, raw value)` pairs (values still percent-encoded, as in a URL; the
/// element's attributes and JS options are encoded by the caller with
/// [`super::encode`]).
pub fn parse_pairs(pairs: &[(String, String)]) -> (Link, Vec<Notice>) {
    let mut p = Parsing {
        link: Link::default(),
        algorithms: None,
        lanes: Vec::new(),
        notices: Vec::new(),
    };
    // The scenario first: the other defaults depend on it.
    if let Some((k, raw)) = pairs.iter().rev().find(|(k, _)| k == "scenario") {
        match ScenarioId::from_id(decode(raw).trim()) {
            Some(id) if id.is_service() && !cfg!(feature = "services") => p.note(
                k,
                raw,
                format!(
                    "this build leaves the service model out; showing \"{}\"",
                    ScenarioId::DEFAULT
                ),
            ),
            Some(id) => p.link.setup = Setup::for_scenario(id),
            None => p.note(
                k,
                raw,
                format!(
                    "unknown scenario (expected one of {}); showing \"{}\"",
                    scenario::scenario_ids(),
                    ScenarioId::DEFAULT
                ),
            ),
        }
    }
    for (key, raw) in pairs {
        let text = decode(raw);
        let given = Given {
            key,
            raw,
            text: &text,
        };
        let result = match key.split_once('.') {
            Some((name, index)) => p.lane_parameter(name, index, &given),
            None => match PARAMETERS
                .iter()
                .find(|(names, _)| names.contains(&key.as_str()))
            {
                Some((_, handler)) => handler(&mut p, &given),
                None if KNOBS.contains(&key.as_str()) => {
                    knobs::knobs(&mut p.link.setup).and_then(|s| knobs::read(s, key, given.text))
                }
                None => Err("unknown parameter; ignored".to_string()),
            },
        };
        if let Err(e) = result {
            p.note(key, raw, with_default(e));
        }
    }
    p.finish()
}

/// One parameter as given: its key, its value as written (still percent-encoded)
/// and decoded.
struct Given<'a> {
    key: &'a str,
    raw: &'a str,
    text: &'a str,
}

/// What a handler does with a value: store it, or say why not.
type Handler = fn(&mut Parsing, &Given<'_>) -> Result<(), String>;

/// Every top-level parameter: the names it is read under (the first is the one
/// [`super::to_query`] writes; the others are the JSON format's spellings and an old
/// name) and its handler. `scenario` was read before the others.
const PARAMETERS: &[(&[&str], Handler)] = &[
    (&["scenario"], |_, _| Ok(())),
    (&["limiters", "lanes"], Parsing::limiters),
    (&["limit"], |p, v| {
        parse_count(v.text, MAX_COUNT)
            .and_then(positive)
            .map(|n| p.link.setup.limit = Some(n))
    }),
    (&["period", "period_ms"], |p, v| {
        parse_duration(v.text)
            .and_then(positive)
            .and_then(|n| at_most(n, MAX_PERIOD_MS))
            .map(|n| p.link.setup.period_ms = Some(n))
    }),
    (&["window", "window_ms"], |p, v| {
        parse_duration(v.text)
            .and_then(positive)
            .and_then(|n| at_most(n, MAX_PERIOD_MS))
            .map(|n| p.link.setup.window_ms = Some(n))
    }),
    (&["requests"], |p, v| {
        let setup = &mut p.link.setup;
        if !setup.carries_requests() {
            only_for(setup, "requests")?;
        }
        setup.requests = parse_requests(v.raw)?;
        Ok(())
    }),
    (&["seed"], |p, v| {
        only_for(&p.link.setup, "seed")?;
        p.link.setup.seed = Some(parse_count(v.text, MAX_TIME_MS)?);
        Ok(())
    }),
    (&["load"], |p, v| {
        only_for(&p.link.setup, "load")?;
        p.link.setup.load_permille = Some(parse_load(v.text)?);
        Ok(())
    }),
    (&["clients"], |p, v| {
        only_for(&p.link.setup, "clients")?;
        let n = positive(parse_count(v.text, u64::from(defaults::MAX_CLIENTS))?)?;
        knobs::check_clients(&p.link.setup, n)?;
        p.link.setup.clients = Some(n as u32);
        Ok(())
    }),
    (&["duration", "duration_ms"], |p, v| {
        only_for(&p.link.setup, "duration_ms")?;
        let n = at_most(positive(parse_duration(v.text)?)?, MAX_PERIOD_MS)?;
        p.link.setup.duration_ms = Some(n);
        Ok(())
    }),
    // `at` is the element's attribute for the same moment (docs/embedding.md).
    (&["t", "at"], |p, v| {
        p.link.view.t_ms = parse_duration(v.text)?;
        Ok(())
    }),
    (&["speed"], |p, v| {
        p.link.view.speed_permille = parse_speed(v.text)?;
        Ok(())
    }),
    (&["lang"], |p, v| match View::lang_code(v.text.trim()) {
        Some(l) => {
            p.link.view.lang = l;
            Ok(())
        }
        None => Err(format!("must be one of {}", LANGS.join(", "))),
    }),
    (&["sel"], |p, v| {
        p.link.view.selected = Some(parse_count(v.text, MAX_TIME_MS)?);
        Ok(())
    }),
    (&["hl"], |p, v| {
        p.link.view.highlight = parse_bool(v.text)?;
        Ok(())
    }),
    (&["zoom"], |p, v| {
        p.link.view.zoom = Some(parse_zoom(v.text)?);
        Ok(())
    }),
    (&["setup"], |p, v| {
        p.link.view.setup_open = Some(parse_fold(v.text)?);
        Ok(())
    }),
    (&["catalog"], |p, v| {
        p.link.view.catalog_open = Some(parse_fold(v.text)?);
        Ok(())
    }),
];

/// Lane `i`'s own parameters, by name (`limit.2=4`).
type LaneHandler = fn(&mut LaneParams, &str) -> Result<(), String>;

/// Every per-lane parameter `name.i` and its handler (the values are applied to the
/// lanes once they are known, see [`apply_lane_params`]).
const LANE_PARAMETERS: &[(&str, LaneHandler)] = &[
    ("limit", |p, v| {
        p.limit = Some(parse_count(v, MAX_COUNT)?);
        Ok(())
    }),
    ("period", |p, v| {
        p.period_ms = Some(parse_duration(v)?);
        Ok(())
    }),
    ("burst", |p, v| {
        p.burst = Some(optional_count(v)?);
        Ok(())
    }),
    ("delay", |p, v| {
        p.delay = Some(optional_count(v)?);
        Ok(())
    }),
    ("nodelay", |p, v| {
        p.nodelay = Some(parse_bool(v)?);
        Ok(())
    }),
];

/// Per-lane parameters, before they are given to the lanes.
#[derive(Default)]
struct LaneParams {
    limit: Option<u64>,
    period_ms: Option<u64>,
    /// `Some(None)`: given empty, i.e. back to the algorithm's default.
    burst: Option<Option<u64>>,
    delay: Option<Option<u64>>,
    nodelay: Option<bool>,
}

impl LaneParams {
    fn any(&self) -> bool {
        self.limit.is_some()
            || self.period_ms.is_some()
            || self.burst.is_some()
            || self.delay.is_some()
            || self.nodelay.is_some()
    }
}

/// The state of a parse.
struct Parsing {
    link: Link,
    /// The algorithms given by `limiters`, if any.
    algorithms: Option<Vec<Algorithm>>,
    /// Per-lane parameters by lane index.
    lanes: Vec<LaneParams>,
    notices: Vec<Notice>,
}

impl Parsing {
    fn note(&mut self, key: &str, raw: &str, reason: String) {
        self.notices.push(Notice {
            key: shorten(key),
            value: shorten(&decode(raw)),
            reason,
        });
    }

    /// `limiters=fixed_window,gcra`: unknown names are left out (with a notice), and
    /// more than a playground shows are cut.
    fn limiters(&mut self, v: &Given<'_>) -> Result<(), String> {
        let mut list = Vec::new();
        let mut bad = Vec::new();
        for name in v.text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match Algorithm::from_id(name) {
                Some(a) => list.push(a),
                None => bad.push(shorten(name)),
            }
        }
        if !bad.is_empty() {
            self.note(
                v.key,
                v.raw,
                format!(
                    "unknown limiter {} (expected {}); left out",
                    bad.join(", "),
                    Algorithm::ALL.map(Algorithm::id).join(", ")
                ),
            );
        }
        if list.len() > MAX_PLAYGROUND_LANES {
            self.note(
                v.key,
                v.raw,
                format!(
                    "at most {MAX_PLAYGROUND_LANES} limiters at once; showing the first {MAX_PLAYGROUND_LANES}"
                ),
            );
            list.truncate(MAX_PLAYGROUND_LANES);
        }
        if list.is_empty() {
            if bad.is_empty() {
                return Err("no limiters given; showing the scenario's".to_string());
            }
        } else {
            self.algorithms = Some(list);
        }
        Ok(())
    }

    /// `name.i`: kept for lane `i` until the lanes are known.
    fn lane_parameter(&mut self, name: &str, index: &str, v: &Given<'_>) -> Result<(), String> {
        let last = MAX_PLAYGROUND_LANES - 1;
        let Ok(i) = parse_count(index, last as u64) else {
            return Err(format!("lane numbers run from 0 to {last}; ignored"));
        };
        let i = i as usize;
        if self.lanes.len() <= i {
            self.lanes.resize_with(i + 1, LaneParams::default);
        }
        let Some(params) = self.lanes.get_mut(i) else {
            return Ok(());
        };
        match LANE_PARAMETERS.iter().find(|(n, _)| *n == name) {
            Some((_, handler)) => handler(params, v.text),
            None => Err("unknown parameter; ignored".to_string()),
        }
    }

    /// The lanes: the algorithms given (or the scenario's), the shared budget, then
    /// each lane's own parameters, each checked by the engine; last, the engine checks
    /// the whole (a request's cost against a lane, …).
    fn finish(mut self) -> (Link, Vec<Notice>) {
        let setup = &self.link.setup;
        let base = reference_lanes(setup, self.algorithms.as_deref());
        let mut lanes = Vec::with_capacity(base.len());
        for (i, mut lane) in base.into_iter().enumerate() {
            if let Some(p) = self.lanes.get(i) {
                apply_lane_params(&mut lane, p, i, &mut self.notices);
            }
            match lane.build() {
                Ok(_) => lanes.push(lane),
                Err(e) => self.notices.push(Notice {
                    key: "limiters".to_string(),
                    value: lane.algorithm.id().to_string(),
                    reason: format!("{e}; left out"),
                }),
            }
        }
        for (i, p) in self.lanes.iter().enumerate().skip(lanes.len()) {
            if p.any() {
                self.notices.push(Notice {
                    key: format!("*.{i}"),
                    value: String::new(),
                    reason: format!("there is no lane {i}; ignored"),
                });
            }
        }
        let setup = &mut self.link.setup;
        if lanes.is_empty() {
            lanes = setup.lanes.clone();
        }
        normalise_ids(&mut lanes);
        setup.lanes = lanes;
        // (A service scenario's services are made and checked where they are run,
        // [`Setup::playground_config`]: the page's first module has no service
        // model. A demand the model refuses is said there, in the service view.)
        if let Err(e) = setup.playground_config_without_services() {
            self.notices.push(Notice {
                key: "scenario".to_string(),
                value: setup.scenario.to_string(),
                reason: format!("{e}; showing the scenario's defaults"),
            });
            *setup = Setup::for_scenario(setup.scenario);
            self.link.view.selected = None;
        }
        (self.link, self.notices)
    }
}

/// Gives lane `i` its own parameters, one at a time, each kept only if the engine
/// accepts the lane with it.
fn apply_lane_params(lane: &mut LaneSpec, p: &LaneParams, i: usize, notices: &mut Vec<Notice>) {
    let algorithm = lane.algorithm;
    let mut try_set =
        |lane: &mut LaneSpec, name: &str, shown: String, set: &dyn Fn(&mut Params)| {
            let mut candidate = lane.clone();
            set(&mut candidate.params);
            match candidate.build() {
                Ok(_) => *lane = candidate,
                Err(e) => notices.push(Notice {
                    key: format!("{name}.{i}"),
                    value: shown,
                    reason: with_default(format!("{e} for {}", algorithm.id())),
                }),
            }
        };
    let refuse = |name: &str, shown: String, who: &str| Notice {
        key: format!("{name}.{i}"),
        value: shown,
        reason: format!("{} takes no {name} (only {who}); ignored", algorithm.id()),
    };
    let mut refused = Vec::new();
    if let Some(n) = p.limit {
        try_set(lane, "limit", n.to_string(), &move |q| q.limit = n);
    }
    if let Some(n) = p.period_ms {
        try_set(lane, "period", format_duration(n), &move |q| {
            q.period_ms = n
        });
    }
    let nginx = algorithm == Algorithm::Nginx;
    let shown = |n: Option<u64>| n.map_or_else(String::new, |n| n.to_string());
    if let Some(n) = p.burst {
        if algorithm.uses_burst() {
            try_set(lane, "burst", shown(n), &move |q| q.burst = n);
        } else {
            refused.push(refuse(
                "burst",
                shown(n),
                "the buckets, GCRA, the queue and nginx",
            ));
        }
    }
    if let Some(n) = p.delay {
        if nginx {
            try_set(lane, "delay", shown(n), &move |q| q.delay = n);
        } else {
            refused.push(refuse("delay", shown(n), "nginx"));
        }
    }
    if let Some(b) = p.nodelay {
        if nginx {
            try_set(lane, "nodelay", u8::from(b).to_string(), &move |q| {
                q.nodelay = b;
                if b {
                    q.delay = None;
                }
            });
        } else {
            refused.push(refuse("nodelay", u8::from(b).to_string(), "nginx"));
        }
    }
    notices.extend(refused);
}

pub(super) fn with_default(reason: String) -> String {
    if reason.ends_with("ignored") || reason.ends_with("left out") || reason.contains("showing") {
        reason
    } else {
        format!("{reason}; using the default")
    }
}

fn only_for(setup: &Setup, field: &str) -> Result<(), String> {
    if setup.takes(field) {
        Ok(())
    } else {
        Err(format!(
            "not used by scenario \"{}\"; ignored",
            setup.scenario
        ))
    }
}

//! Writing a link: [`to_query`].

use ratelab_core::Algorithm;

use super::encoding::encode;
use super::values::{
    format_duration, format_fold, format_load, format_requests, format_speed, format_zoom,
};
#[cfg(doc)]
use super::Link;
use super::{opening_lanes, service, Notice, Setup, View, MAX_URL_REQUESTS};
use crate::lane::LaneSpec;
use crate::scenario::ScenarioId;

/// A link as written, and what had to be left out of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The query string (without `?`), which [`super::parse`] reads back.
    pub query: String,
    /// What the link could not carry, to show next to it (`requests=…: 12000 requests
    /// are more than a link carries (at most 10000); left out of the link, export
    /// them as JSON`).
    pub left_out: Option<Notice>,
}

/// Writes a setup and a view as a query string (without `?`), leaving out what
/// equals the defaults; [`super::parse`] reads it back to an equal [`Link`]. A
/// stream longer than a link carries ([`MAX_URL_REQUESTS`]) is left out (see
/// [`write_link`] for the notice to show), so a link is never written that cannot be
/// read.
pub fn to_query(setup: &Setup, view: &View) -> String {
    write_link(setup, view).query
}

/// [`to_query`], with a notice when the stream had to be left out of the link.
pub fn write_link(setup: &Setup, view: &View) -> Written {
    let state = setup;
    let mut left_out = None;
    let mut out: Vec<String> = Vec::new();
    let mut put = |k: &str, v: String| out.push(format!("{k}={v}"));
    put("scenario", encode(state.scenario.id()));
    let names: Vec<&str> = state.lanes.iter().map(|l| l.algorithm.id()).collect();
    put("limiters", names.join(","));
    if let Some(n) = state.limit {
        put("limit", n.to_string());
    }
    if let Some(p) = state.period_ms {
        put("period", format_duration(p));
    }
    let ids: Vec<Algorithm> = state.lanes.iter().map(|l| l.algorithm).collect();
    let reference = reference_lanes(state, Some(&ids));
    for (i, lane) in state.lanes.iter().enumerate() {
        let reference = reference.get(i).map_or(lane.params, |l| l.params);
        let p = &lane.params;
        if p.limit != reference.limit {
            put(&format!("limit.{i}"), p.limit.to_string());
        }
        if p.period_ms != reference.period_ms {
            put(&format!("period.{i}"), format_duration(p.period_ms));
        }
        // An empty value sets an option back to the algorithm's default (where the
        // scenario's own lane has one, e.g. lab C's nginx with a burst of 11).
        let option = |v: Option<u64>| v.map_or_else(String::new, |v| v.to_string());
        if p.burst != reference.burst {
            put(&format!("burst.{i}"), option(p.burst));
        }
        if p.delay != reference.delay {
            put(&format!("delay.{i}"), option(p.delay));
        }
        if p.nodelay != reference.nodelay {
            put(&format!("nodelay.{i}"), u8::from(p.nodelay).to_string());
        }
    }
    if let Some(w) = state.window_ms {
        put("window", format_duration(w));
    }
    if state.carries_requests() && !state.requests.is_empty() {
        let n = state.requests.len();
        if n <= MAX_URL_REQUESTS {
            put("requests", format_requests(&state.requests));
        } else {
            left_out = Some(Notice {
                key: "requests".to_string(),
                value: format!("{n} requests"),
                reason: format!(
                    "more than a link carries (at most {MAX_URL_REQUESTS}); left out of the link, export them as JSON"
                ),
            });
        }
    }
    if let Some(s) = state.seed {
        put("seed", s.to_string());
    }
    if let Some(l) = state.load_permille {
        put("load", format_load(l));
    }
    if let Some(c) = state.clients {
        put("clients", c.to_string());
    }
    if let Some(d) = state.duration_ms {
        put("duration", format_duration(d));
    }
    if state.scenario == ScenarioId::Service {
        for (k, v) in service::write(&state.service) {
            put(k, encode(&v));
        }
    }
    if view.t_ms > 0 {
        put("t", format_duration(view.t_ms));
    }
    if view.speed_permille != 1000 {
        put("speed", format_speed(view.speed_permille));
    }
    if view.lang != "en" {
        put("lang", view.lang.to_string());
    }
    if let Some(s) = view.selected {
        put("sel", s.to_string());
    }
    if view.highlight {
        put("hl", "1".to_string());
    }
    if let Some(z) = view.zoom {
        put("zoom", format_zoom(z));
    }
    if let Some(o) = view.setup_open {
        put("setup", format_fold(o).to_string());
    }
    if let Some(o) = view.catalog_open {
        put("catalog", format_fold(o).to_string());
    }
    Written {
        query: out.join("&"),
        left_out,
    }
}

/// The lanes a link's lane parameters are relative to: the scenario's own lanes when
/// `algorithms` names exactly those (so lab C keeps its buckets of 1 and 20), else
/// each algorithm with its defaults; then the shared budget, if one is set.
pub(super) fn reference_lanes(state: &Setup, algorithms: Option<&[Algorithm]>) -> Vec<LaneSpec> {
    let (limit, period) = state.budget();
    let own = opening_lanes(state.scenario, limit, period);
    let same =
        algorithms.is_none_or(|list| own.iter().map(|l| l.algorithm).eq(list.iter().copied()));
    let mut lanes = if same {
        own
    } else {
        algorithms
            .unwrap_or_default()
            .iter()
            .map(|&a| LaneSpec::simple(a, limit, period))
            .collect()
    };
    if state.limit.is_some() || state.period_ms.is_some() {
        for l in &mut lanes {
            l.params.limit = limit;
            l.params.period_ms = period;
        }
    }
    lanes
}

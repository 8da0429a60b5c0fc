//! The playground's shareable state as a URL query string: parse and write it.
//!
//! One parser serves every way a playground is configured: the page's URL, the
//! `embed.html?…` iframe, the `<rate-limit-playground>` element's attributes and the
//! JS `mount(element, options)` (attributes and options become `key=value` pairs).
//! It lives here, in plain Rust, so it is tested (and fuzzed) natively.
//!
//! A link holds two things, kept apart ([`Link`]):
//! - the [`Setup`]: what runs (scenario, budget, lanes, window, the stream's
//!   options). Changing it means running again ([`Setup::to_config`]).
//! - the [`View`]: where one looks at it (clock, speed, language, selection,
//!   highlight). Changing it never reruns anything.
//!
//! A page keeps its setup and view as it likes and writes them back with
//! [`to_query`]`(&setup, &view)`.
//!
//! **It never fails.** Every value it cannot use falls back to its default and adds a
//! [`Notice`] naming the parameter, the value and why; unknown parameters are
//! reported the same way. A link with one typo still opens the rest of the view.
//!
//! # Format
//!
//! ```text
//! ?scenario=golden&limiters=fixed_window,sliding_log,token_bucket&limit=5&period=10s&t=11.2s
//! ```
//!
//! | key | value | default |
//! |---|---|---|
//! | `scenario` | a [`ScenarioId`] | `golden` |
//! | `limiters` | 1–8 algorithm ids, comma-separated | [`opening_lanes`] of the scenario |
//! | `limit`, `period` | the shared budget N per W, for every lane (and the stream of the parameterised scenarios) | the scenario's |
//! | `limit.i`, `period.i`, `burst.i`, `delay.i`, `nodelay.i` | lane `i`'s own parameters (from 0); an empty `burst.i` / `delay.i` is the algorithm's default | the shared budget; core's defaults |
//! | `window` | the yardstick window | each lane's period |
//! | `requests` | `custom`: times, comma-separated; `t:key` or `t:key:cost` for more | none |
//! | `seed`, `load`, `clients`, `duration` | `poisson`, `lab-d` and `service` (`duration`: not `lab-d`) | the scenario's |
//! | `noisy`, `retry`, `backoff`, `attempts`, `key`, `instances`, `balance`, `store`, `outage`, `on_outage`, `fallback` | `service`: its knobs (see `service.rs`) | [`ServiceSetup::default`] |
//! | `t` | the virtual clock | `0` |
//! | `speed` | one of [`SPEEDS_PERMILLE`] as a multiple: `0.25` … `16` | `1` |
//! | `lang` | one of [`LANGS`] | `en` |
//! | `sel` | the selected request's index | the latest at or before `t` |
//! | `hl` | `1`: highlight each lane's busiest window | `0` |
//! | `zoom` | the lanes' zoom, a power of two: `4`, `1`, `1/8` | the page's for what opens |
//! | `setup`, `catalog` | `open` or `folded`: the setup's and the lessons' catalog's folds | folded under a lesson, else open |
//!
//! Durations (`period`, `window`, `t`, `duration`, request times) are a number with
//! a unit, `500ms`, `10s`, `1.5s`, `2m`, `1h`; a bare number is milliseconds, as in
//! the JSON format. [`to_query`] writes only what differs from the defaults.
//!
//! # Where things are
//!
//! `values.rs` reads and writes single values (durations, counts, speeds, the
//! `requests` list), `service.rs` the `service` scenario's knobs, `encoding.rs` percent-encoding, `parse.rs` the query string (a
//! table of handlers, one per key: add a parameter there), `write.rs` [`to_query`].

mod encoding;
mod parse;
mod service;
mod values;
mod write;

use std::fmt;

use ratelab_core::Algorithm;

use crate::config::Config;
use crate::error::SimError;
use crate::lane::LaneSpec;
use crate::scenario::{self, Overrides, ScenarioId, ScenarioInfo};
use crate::service::ServiceSetup;
use crate::stream::Stream;
use crate::timeline::TimelineLimits;

pub use encoding::{decode, encode, pairs};
pub use parse::{parse, parse_pairs};
pub use service::FORM_KNOBS;
pub use values::{
    format_duration, format_requests, format_speed, format_zoom, parse_count, parse_duration,
    parse_requests, parse_speed, parse_zoom, shorten, MAX_ZOOM_EXP, MIN_ZOOM_EXP,
};
pub use write::{to_query, write_link, Written};

/// The most lanes a playground shows at once.
pub const MAX_PLAYGROUND_LANES: usize = 8;

/// The clock speeds offered, in thousandths: 0.25x to 16x.
pub const SPEEDS_PERMILLE: [u32; 7] = [250, 500, 1000, 2000, 4000, 8000, 16000];

/// The page's languages.
pub const LANGS: [&str; 2] = ["en", "vi"];

/// The most custom requests a URL may carry (longer streams belong in JSON).
pub const MAX_URL_REQUESTS: usize = 10_000;

/// A value that was ignored, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The parameter as written (`limit`, `burst.2`).
    pub key: String,
    /// Its value as written (shortened).
    pub value: String,
    /// Why it was ignored, and what is used instead.
    pub reason: String,
}

impl fmt::Display for Notice {
    /// `key=value: reason`, sanitised ([`crate::text::sanitize`]) whatever the
    /// fields hold.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::text::sanitize;
        write!(
            f,
            "{}={}: {}",
            sanitize(&self.key),
            sanitize(&self.value),
            sanitize(&self.reason)
        )
    }
}

/// Everything a link reproduces: what runs, and how it is looked at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Link {
    /// What runs.
    pub setup: Setup,
    /// Where one looks at it.
    pub view: View,
}

impl Link {
    /// The link as a query string (without `?`): [`to_query`].
    pub fn to_query(&self) -> String {
        to_query(&self.setup, &self.view)
    }
}

/// How a run is looked at: nothing here changes a decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The virtual clock, in ms.
    pub t_ms: u64,
    /// Clock speed in thousandths (one of [`SPEEDS_PERMILLE`]).
    pub speed_permille: u32,
    /// One of [`LANGS`].
    pub lang: &'static str,
    /// The selected request, if chosen by hand.
    pub selected: Option<u64>,
    /// Highlight the busiest windows.
    pub highlight: bool,
    /// The lanes' zoom as a power of two (`2`: 4×, `-1`: ½×), if the link names
    /// one; else the page's own choice for what opens (1×, a late stream's closer
    /// look, a lesson step's frame).
    pub zoom: Option<i8>,
    /// Whether the setup is unfolded, if the link says; else folded under a lesson
    /// and unfolded without one.
    pub setup_open: Option<bool>,
    /// Whether the lessons' catalog is unfolded, if the link says; else unfolded
    /// while no lesson is open.
    pub catalog_open: Option<bool>,
}

impl Default for View {
    fn default() -> View {
        View {
            t_ms: 0,
            speed_permille: 1000,
            lang: "en",
            selected: None,
            highlight: false,
            zoom: None,
            setup_open: None,
            catalog_open: None,
        }
    }
}

impl View {
    /// `code` if it is one of [`LANGS`] (as the `'static` string a view holds).
    pub fn lang_code(code: &str) -> Option<&'static str> {
        LANGS.iter().find(|l| **l == code).copied()
    }
}

/// What a playground runs: the scenario with its lanes and options. Turned into a
/// runnable [`Config`] by [`Setup::to_config`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The scenario.
    pub scenario: ScenarioId,
    /// The shared budget N, if set (else the scenario's).
    pub limit: Option<u64>,
    /// The shared budget W in ms, if set (else the scenario's).
    pub period_ms: Option<u64>,
    /// The lanes, 1 to [`MAX_PLAYGROUND_LANES`], ids normalised ([`normalise_ids`]).
    pub lanes: Vec<LaneSpec>,
    /// The yardstick window, if set.
    pub window_ms: Option<u64>,
    /// `custom`'s requests, and those sent by hand in `manual`.
    pub requests: Stream,
    /// Seeded scenarios: the seed.
    pub seed: Option<u64>,
    /// Seeded scenarios: load, in thousandths of the limit.
    pub load_permille: Option<u32>,
    /// Seeded scenarios: clients.
    pub clients: Option<u32>,
    /// `poisson`, `service`: duration.
    pub duration_ms: Option<u64>,
    /// `service`: its knobs (clients that retry, key, instances, outages).
    pub service: ServiceSetup,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::for_scenario(ScenarioId::DEFAULT)
    }
}

impl Setup {
    /// Scenario `id` with the lanes a playground opens it with ([`opening_lanes`])
    /// and everything else at its default.
    pub fn for_scenario(id: ScenarioId) -> Setup {
        let info = id.info();
        Setup {
            scenario: id,
            limit: None,
            period_ms: None,
            lanes: opening_lanes(id, info.limit, info.period_ms),
            window_ms: None,
            requests: Stream::new(),
            seed: None,
            load_permille: None,
            clients: None,
            duration_ms: None,
            service: ServiceSetup::default(),
        }
    }

    /// The scenario's registry entry.
    pub fn info(&self) -> &'static ScenarioInfo {
        self.scenario.info()
    }

    /// The shared budget in force: the one set, else the scenario's.
    pub fn budget(&self) -> (u64, u64) {
        let info = self.info();
        (
            self.limit.unwrap_or(info.limit),
            self.period_ms.unwrap_or(info.period_ms),
        )
    }

    /// Whether the scenario takes top-level option `field` (`limit`, `seed`, …).
    pub fn takes(&self, field: &str) -> bool {
        self.scenario.takes(field)
    }

    /// Whether `requests` belong in the link: `custom`'s stream, and the requests sent
    /// by hand in `manual` (which its JSON form does not take: they are the
    /// playground's state, so only links carry them).
    pub fn carries_requests(&self) -> bool {
        self.takes("requests") || self.scenario == ScenarioId::Manual
    }

    /// Sets the shared budget and gives it to every lane.
    pub fn set_budget(&mut self, limit: u64, period_ms: u64) {
        self.limit = Some(limit);
        self.period_ms = Some(period_ms);
        for lane in &mut self.lanes {
            lane.params.limit = limit;
            lane.params.period_ms = period_ms;
        }
    }

    /// The config as a playground runs it: [`Setup::to_config`], and then within the
    /// playground's budget ([`crate::cost::timeline_cost`] under
    /// [`crate::Budget::PLAYGROUND`]) and its key cap. What [`parse`] checks last
    /// (without a service scenario's services), so a link always opens something the
    /// page can run; call it before running a setup built by hand (a form, an
    /// import).
    ///
    /// A scenario whose stream is arithmetic on the budget is estimated from its
    /// [`crate::shape`] before the stream is made: a setup over the budget is refused
    /// without making it (two million requests took 0.1–0.2 s to make and measure
    /// natively, and several times that on a busy page), and one within it is made
    /// once, without measuring it again (the shape's figures bound the stream's).
    pub fn playground_config(&self) -> Result<Config, SimError> {
        self.playground_config_by(scenario::scenario)
    }

    /// [`Setup::playground_config`], with a service scenario's services left out
    /// ([`scenario::scenario_without_services`]): how the page's first module runs
    /// a setup, without the service model (a service run's services are made where
    /// they are run, by [`Setup::playground_config`]).
    pub fn playground_config_without_services(&self) -> Result<Config, SimError> {
        self.playground_config_by(scenario::scenario_without_services)
    }

    fn playground_config_by(
        &self,
        build: fn(ScenarioId, &Overrides) -> Result<Config, SimError>,
    ) -> Result<Config, SimError> {
        let limits = TimelineLimits::DEFAULT;
        let o = self.overrides();
        let info = self.info();
        let limit = o.limit.unwrap_or(info.limit);
        let period = o.period_ms.unwrap_or(info.period_ms);
        if let Some(shape) = scenario::shape(self.scenario, limit, period)? {
            let lanes = Config {
                scenario: Some(self.scenario),
                stream: Stream::new(),
                lanes: self.lanes.clone(),
                window_ms: o.window_ms.or(info.window_ms),
                sweep: None,
                services: None,
                responses: false,
            };
            // The lanes' own errors come first, as when the stream is made.
            lanes.validate_lanes()?;
            let source = crate::cost::Source::Shape(&shape);
            crate::cost::timeline_cost_of(&lanes, source, &limits)
                .check(&crate::Budget::PLAYGROUND)?;
            return self.to_config_by(build);
        }
        let config = self.to_config_by(build)?;
        // The first request whose key is one too many, as the timeline would say.
        let stream = &config.stream;
        let mut seen = vec![false; stream.keys.len()];
        let mut named = 0;
        for (i, r) in stream.requests.iter().enumerate() {
            let name = stream.key_name(r.key).unwrap_or("");
            match seen.get_mut(r.key as usize) {
                Some(s) if !*s && !name.is_empty() => {
                    *s = true;
                    named += 1;
                }
                _ => continue,
            }
            if named > limits.max_keys {
                let e = crate::timeline::TimelineError::TooManyKeys {
                    max: limits.max_keys,
                    key: name.to_string(),
                    request: Some(i),
                };
                return Err(SimError::at("", e));
            }
        }
        crate::cost::timeline_cost(&config, &limits).check(&crate::Budget::PLAYGROUND)?;
        Ok(config)
    }

    /// The runnable, validated config: the scenario with these lanes and options.
    pub fn to_config(&self) -> Result<Config, SimError> {
        self.to_config_by(scenario::scenario)
    }

    /// [`Setup::to_config`] with a service scenario's services left out (as
    /// [`Setup::playground_config_without_services`]), for code in the page's
    /// first module or in a chunk that runs only limiters (the lessons).
    pub fn to_config_without_services(&self) -> Result<Config, SimError> {
        self.to_config_by(scenario::scenario_without_services)
    }

    fn to_config_by(
        &self,
        build: fn(ScenarioId, &Overrides) -> Result<Config, SimError>,
    ) -> Result<Config, SimError> {
        let mut config = build(self.scenario, &self.overrides())?;
        if self.scenario == ScenarioId::Manual && !self.requests.is_empty() {
            config.stream = self.requests.clone();
            // (Not a service run: its lanes are all there is to check.)
            config.validate_lanes()?;
        }
        Ok(config)
    }

    /// What the scenario is given: the options it takes.
    fn overrides(&self) -> Overrides {
        let takes = |f: &str| self.takes(f);
        Overrides {
            limit: self.limit.filter(|_| takes("limit")),
            period_ms: self.period_ms.filter(|_| takes("period_ms")),
            limiters: Some(self.lanes.clone()),
            window_ms: self.window_ms,
            requests: takes("requests").then(|| self.requests.clone()),
            seed: self.seed.filter(|_| takes("seed")),
            load_permille: self.load_permille.filter(|_| takes("load")),
            clients: self.clients.filter(|_| takes("clients")),
            duration_ms: self.duration_ms.filter(|_| takes("duration_ms")),
            service: (self.scenario == ScenarioId::Service).then(|| self.service.clone()),
        }
    }
}

/// The lanes a playground opens a scenario with: for the golden stream, three (fixed
/// window, sliding log, token bucket, at 5 per 10 s: the page's default view), else
/// the scenario's own lanes ([`ScenarioId::lanes`], at most
/// [`MAX_PLAYGROUND_LANES`]), topped up to three with those three at the budget. Ids
/// normalised.
pub fn opening_lanes(id: ScenarioId, limit: u64, period_ms: u64) -> Vec<LaneSpec> {
    use Algorithm::*;
    let basic = [FixedWindow, SlidingLog, TokenBucket];
    let mut lanes: Vec<LaneSpec> = if id == ScenarioId::Golden {
        basic
            .iter()
            .map(|&a| LaneSpec::simple(a, limit, period_ms))
            .collect()
    } else {
        id.lanes(limit, period_ms)
    };
    lanes.truncate(MAX_PLAYGROUND_LANES);
    for a in basic {
        if lanes.len() >= 3 {
            break;
        }
        if !lanes.iter().any(|l| l.algorithm == a) {
            lanes.push(LaneSpec::simple(a, limit, period_ms));
        }
    }
    normalise_ids(&mut lanes);
    lanes
}

/// Labels lanes as the JSON format does when no id is given: the algorithm's id,
/// numbered (`token_bucket-2`) when an earlier lane has it.
pub fn normalise_ids(lanes: &mut [LaneSpec]) {
    let mut taken: Vec<String> = Vec::with_capacity(lanes.len());
    for lane in lanes.iter_mut() {
        let base = lane.algorithm.id();
        let mut id = base.to_string();
        let mut n = 1;
        while taken.contains(&id) {
            n += 1;
            id = format!("{base}-{n}");
        }
        taken.push(id.clone());
        lane.id = id;
    }
}

#[cfg(test)]
mod tests;

//! The `service` scenario's knobs in a link: read one value each, write them back.
//!
//! | key | value | default |
//! |---|---|---|
//! | `noisy` | client 0's demand as a multiple of the others', 1 to [`MAX_NOISY`] | 4 |
//! | `retry` | one of [`RETRY_IDS`] | `full_jitter` |
//! | `backoff` | the retry style's duration (delay, first delay, most jitter) | 1 s (`retry_after`: 0) |
//! | `attempts` | attempts per request, 1 to [`MAX_ATTEMPTS`] | 5 |
//! | `key` | `client`, `global` or `client_route` | `client` |
//! | `instances` | 1 to [`MAX_INSTANCES`] | 1 |
//! | `balance` | `round_robin` or `random` | `round_robin` |
//! | `store` | `local` or `shared` | `shared` |
//! | `outage` | spans of the store being down, `20s-40s,50s-55s` (sorted, apart, at most [`MAX_OUTAGES`]) | none |
//! | `on_outage` | `fail_open`, `fail_closed` or `fallback` | `fail_open` |
//! | `fallback` | the fallback's limit per the lane's period | the lane's limit |
//!
//! The clients, their load, the duration and the seed are the keys every seeded
//! scenario has (`clients`, `load`, `duration`, `seed`).

use super::values::{
    at_most, format_duration, format_load, parse_count, parse_duration, parse_load, positive,
};
use super::Setup;
use crate::scenario::ScenarioId;
use crate::service::{
    Balancing, KeyMode, OutagePolicy, ServiceSetup, Span, Store, MAX_ATTEMPTS, MAX_CLIENTS,
    MAX_INSTANCES, MAX_NOISY, MAX_OUTAGES, RETRY_IDS,
};
use crate::stream::MAX_TIME_MS;
use ratelab_core::{MAX_COUNT, MAX_PERIOD_MS};

/// The knobs of `setup`, or why a knob is not used.
pub(super) fn knobs(setup: &mut Setup) -> Result<&mut ServiceSetup, String> {
    if setup.scenario == ScenarioId::Service {
        Ok(&mut setup.service)
    } else {
        Err(format!(
            "only scenario \"service\" takes it (not \"{}\"); ignored",
            setup.scenario
        ))
    }
}

/// One of `names`, exactly (spaces around it aside).
fn one_of<T: Copy>(text: &str, names: &[(&str, T)]) -> Result<T, String> {
    let t = text.trim();
    names
        .iter()
        .find(|(n, _)| *n == t)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let all: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            format!("must be one of {}", all.join(", "))
        })
}

const KEYS: [(&str, KeyMode); 3] = [
    ("client", KeyMode::Client),
    ("global", KeyMode::Global),
    ("client_route", KeyMode::ClientRoute),
];
const BALANCING: [(&str, Balancing); 2] = [
    ("round_robin", Balancing::RoundRobin),
    ("random", Balancing::Random),
];
const STORES: [(&str, Store); 2] = [("local", Store::Local), ("shared", Store::Shared)];

/// Reads knob `key` (one of [`KNOBS`]) into `s`.
pub(super) fn read(s: &mut ServiceSetup, key: &str, text: &str) -> Result<(), String> {
    let count = |max: u64| parse_count(text, max).and_then(positive);
    match key {
        "noisy" => s.noisy = count(u64::from(MAX_NOISY))? as u32,
        "retry" => {
            let names = RETRY_IDS.map(|id| (id, id));
            s.retry = one_of(text, &names)?;
        }
        "backoff" => s.backoff_ms = Some(at_most(parse_duration(text)?, MAX_TIME_MS)?),
        "attempts" => s.attempts = Some(count(u64::from(MAX_ATTEMPTS))? as u32),
        "key" => s.key = one_of(text, &KEYS)?,
        "instances" => s.instances = count(u64::from(MAX_INSTANCES))? as u32,
        "balance" => s.balancing = one_of(text, &BALANCING)?,
        "store" => s.store = one_of(text, &STORES)?,
        "outage" => s.outages = parse_outages(text)?,
        "on_outage" => {
            let names = OutagePolicy::ALL.map(|p| (p.id(), p));
            s.on_outage = one_of(text, &names)?;
        }
        "fallback" => s.fallback_limit = Some(count(MAX_COUNT)?),
        _ => return Err("unknown parameter; ignored".to_string()),
    }
    Ok(())
}

/// Every knob of the `service` scenario, in the order [`write`] puts them: the
/// form's knobs after the seeded scenarios' three.
pub(super) const KNOBS: &[&str] = FORM_KNOBS.split_at(3).1;

/// `20s-40s,50s-55s`: sorted spans that do not touch, each ending after it starts.
fn parse_outages(text: &str) -> Result<Vec<Span>, String> {
    let mut spans: Vec<Span> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (from, to) = part
            .split_once('-')
            .ok_or_else(|| format!("a span is FROM-TO, like 20s-40s, got \"{part}\""))?;
        let span = Span {
            from_ms: parse_duration(from)?,
            to_ms: parse_duration(to)?,
        };
        if span.to_ms <= span.from_ms {
            return Err(format!("{part} ends before it starts"));
        }
        if spans.last().is_some_and(|last| span.from_ms <= last.to_ms) {
            return Err(format!(
                "spans must be in order and apart, {part} is not after the one before"
            ));
        }
        if spans.len() == MAX_OUTAGES {
            return Err(format!("at most {MAX_OUTAGES} spans"));
        }
        spans.push(span);
    }
    Ok(spans)
}

/// The clients cap of the `service` scenario (others take more: they are streams).
pub(super) fn check_clients(setup: &Setup, n: u64) -> Result<(), String> {
    if setup.scenario == ScenarioId::Service && n > MAX_CLIENTS as u64 {
        return Err(format!(
            "{n} is too many (a service has at most {MAX_CLIENTS} clients)"
        ));
    }
    Ok(())
}

/// The name `v` has in `names` (every value has one: the tables list them all).
fn name<T: PartialEq>(names: &[(&'static str, T)], v: T) -> String {
    names
        .iter()
        .find(|(_, x)| *x == v)
        .map_or("", |(n, _)| *n)
        .to_string()
}

/// The knobs that differ from the defaults, as `(key, value)`.
pub(super) fn write(s: &ServiceSetup) -> Vec<(&'static str, String)> {
    let d = ServiceSetup::default();
    let mut out = Vec::new();
    if s.noisy != d.noisy {
        out.push(("noisy", s.noisy.to_string()));
    }
    if s.retry != d.retry {
        out.push(("retry", s.retry.to_string()));
    }
    if let Some(b) = s.backoff_ms {
        out.push(("backoff", format_duration(b)));
    }
    if let Some(a) = s.attempts {
        out.push(("attempts", a.to_string()));
    }
    if s.key != d.key {
        out.push(("key", name(&KEYS, s.key)));
    }
    if s.instances != d.instances {
        out.push(("instances", s.instances.to_string()));
    }
    if s.balancing != d.balancing {
        out.push(("balance", name(&BALANCING, s.balancing)));
    }
    if s.store != d.store {
        out.push(("store", name(&STORES, s.store)));
    }
    if !s.outages.is_empty() {
        out.push(("outage", outages_text(&s.outages)));
    }
    if s.on_outage != d.on_outage {
        out.push(("on_outage", s.on_outage.id().to_string()));
    }
    if let Some(f) = s.fallback_limit {
        out.push(("fallback", f.to_string()));
    }
    out
}

/// The knobs the playground's "clients and service" form sets, by link key: the
/// `service` scenario's own ([`KNOBS`]) and the seeded scenarios' `clients`,
/// `load` and `duration`.
pub const FORM_KNOBS: [&str; 14] = [
    "clients",
    "load",
    "duration",
    "noisy",
    "retry",
    "backoff",
    "attempts",
    "key",
    "instances",
    "balance",
    "store",
    "outage",
    "on_outage",
    "fallback",
];

impl Setup {
    /// Sets knob `key` (one of [`FORM_KNOBS`]) of the `service` scenario from `text`
    /// as a link writes it, with the link's message when it is refused (the setup
    /// is then unchanged). Whether the engine accepts the whole service is
    /// [`Setup::to_config`]'s to say.
    pub fn set_service_knob(&mut self, key: &str, text: &str) -> Result<(), String> {
        let mut next = self.clone();
        knobs(&mut next)?;
        match key {
            "clients" => {
                let n = parse_count(text, MAX_CLIENTS as u64).and_then(positive)?;
                next.clients = Some(n as u32);
            }
            "load" => next.load_permille = Some(parse_load(text)?),
            "duration" => {
                next.duration_ms = Some(at_most(positive(parse_duration(text)?)?, MAX_PERIOD_MS)?)
            }
            _ => read(&mut next.service, key, text)?,
        }
        *self = next;
        Ok(())
    }

    /// Knob `key` (one of [`FORM_KNOBS`]) as a link writes it, the default when it
    /// is not set (`None` for a key that is not a knob).
    pub fn service_knob(&self, key: &str) -> Option<String> {
        use crate::service::{SERVICE_CLIENTS, SERVICE_DURATION_MS, SERVICE_LOAD_PERMILLE};
        let s = &self.service;
        let retry = s.retry_policy();
        Some(match key {
            "clients" => self.clients.unwrap_or(SERVICE_CLIENTS).to_string(),
            "load" => format_load(self.load_permille.unwrap_or(SERVICE_LOAD_PERMILLE)),
            "duration" => format_duration(self.duration_ms.unwrap_or(SERVICE_DURATION_MS)),
            "noisy" => s.noisy.to_string(),
            "retry" => s.retry.to_string(),
            "backoff" => format_duration(s.backoff_ms.unwrap_or(match s.retry {
                "retry_after" => 0,
                _ => 1_000,
            })),
            "attempts" => retry.max_attempts.to_string(),
            "key" => name(&KEYS, s.key),
            "instances" => s.instances.to_string(),
            "balance" => name(&BALANCING, s.balancing),
            "store" => name(&STORES, s.store),
            "outage" => outages_text(&s.outages),
            "on_outage" => s.on_outage.id().to_string(),
            "fallback" => s.fallback_limit.map(|f| f.to_string()).unwrap_or_default(),
            _ => return None,
        })
    }
}

/// Outage spans as a link writes them: `20s-40s,50s-55s`.
fn outages_text(spans: &[Span]) -> String {
    let spans: Vec<String> = spans
        .iter()
        .map(|o| {
            format!(
                "{}-{}",
                format_duration(o.from_ms),
                format_duration(o.to_ms)
            )
        })
        .collect();
    spans.join(",")
}

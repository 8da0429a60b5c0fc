//! The playground's state in plain Rust: no signals, no DOM, tested natively.
//!
//! [`Sim`] is what a setup ([`Setup`]) runs: the validated config and the live
//! [`Timeline`] that decided every request. Everything the components draw is asked
//! of it here (marks in a time span, overlays for a lane's snapshot, the gauge, the
//! trace parts), so the components only place shapes. Nothing here decides a request
//! or computes a metric: that is `ratelab-sim` and `ratelab-core`.

use std::cell::Cell;

use ratelab_core::{Amount, Explanation, Headers, Ms, Snapshot, Verdict};
use ratelab_sim::service::ServiceTimeline;
use ratelab_sim::share::Setup;
use ratelab_sim::{
    BusiestWindow, Config, LaneSpec, Outcome, Request, ScenarioId, SimError, Timeline, Yardstick,
};

mod snapshot;

pub use snapshot::{gauge, level_of, overlays, Gauge, Label, Overlay};

/// More marks than this in a lane's visible span are drawn as columns instead.
pub const MAX_MARKS: usize = 1_500;

/// The shortest span a zoomed timeline shows, ms.
pub const MIN_SPAN_MS: u64 = 100;

/// The zoom level at which a timeline shows [`Sim::span`] as it is: 1×. Each level
/// above halves the span (2×, 4×, … [`MAX_ZOOM`]), each below doubles it (½×, ¼×,
/// …) until it is the whole run. A level rather than a factor, so that zooming out
/// stays an integer and needs no signal type of its own.
pub const ONE_X: u32 = 32;

/// The closest zoom level ([`Sim::zoomed_span`]): 16×.
pub const MAX_ZOOM: u32 = ONE_X + 4;
// A link names every level (`zoom=1/4294967296` … `zoom=16`).
const _: () = assert!(
    MAX_ZOOM - ONE_X == ratelab_sim::share::MAX_ZOOM_EXP as u32
        && ONE_X == ratelab_sim::share::MIN_ZOOM_EXP.unsigned_abs() as u32
);

/// How long before a late stream's first request its view opens, ms ([`Sim::opening`]).
pub const LEAD_MS: u64 = 500;

/// A stream whose first request comes later than this starts late: a view that
/// names no moment of its own opens just before that request ([`Sim::opening`]).
pub const LATE_MS: u64 = 3_000;

/// A zoom level as the zoom control writes it: `16×`, `1×`, `½×`, `¼×`, `1/8×`.
pub fn zoom_label(level: u32) -> String {
    match ONE_X.checked_sub(level) {
        None | Some(0) => format!("{}×", 1u64 << (level - ONE_X).min(32)),
        Some(1) => "½×".to_string(),
        Some(2) => "¼×".to_string(),
        Some(out) => format!("1/{}×", 1u64 << out.min(32)),
    }
}

/// What became of one request in one lane, as a mark shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Passed at once.
    Allow,
    /// Refused (429).
    Deny,
    /// Passed after a wait (leaky queue, nginx).
    Delay,
}

impl Decision {
    /// What a lane's outcome was.
    pub fn of(o: &Outcome) -> Decision {
        match (o.allowed, o.wait_ms().unwrap_or(0)) {
            (false, _) => Decision::Deny,
            (true, 0) => Decision::Allow,
            (true, _) => Decision::Delay,
        }
    }

    /// The value of the marks' `data-decision` attribute.
    pub fn attr(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Deny => "deny",
            Decision::Delay => "delay",
        }
    }

    /// The glyph the trace and the tests use.
    pub fn glyph(self) -> char {
        match self {
            Decision::Deny => '✗',
            _ => '✓',
        }
    }
}

/// One request as a lane's timeline draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Global request index.
    pub index: u64,
    /// Arrival, ms.
    pub t: u64,
    /// The request's key index in the timeline.
    pub key: u32,
    /// What the lane decided.
    pub decision: Decision,
    /// When it left (arrival + exact wait, rounded up to ms).
    pub departs: u64,
    /// Its position among requests at the same time (0 = first), for stacking.
    pub rank: u32,
}

/// Marks per column when a span holds too many to draw one by one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Column {
    /// Start of the column's time span.
    pub t: u64,
    /// Allowed at once.
    pub allowed: u32,
    /// Allowed after a wait.
    pub delayed: u32,
    /// Refused.
    pub denied: u32,
}

thread_local! {
    /// How [`Sim::new`] makes a setup's config. The first module leaves a service
    /// scenario's services out ([`Setup::playground_config_without_services`]):
    /// the service model is in the service view's chunk, which makes them when it
    /// runs them ([`Sim::run_services`]) and, once loaded, sets this to make them
    /// here too ([`make_services_here`]), so that a service setup that is refused is
    /// refused at once, where it was typed.
    static MAKE_CONFIG: Cell<MakeConfig> = Cell::new(Setup::playground_config_without_services);
}

/// A setup's config, as [`Sim::new`] makes it ([`MAKE_CONFIG`]).
type MakeConfig = fn(&Setup) -> Result<Config, SimError>;

/// From now on [`Sim::new`] makes a service scenario's services (and refuses those
/// the service model refuses). Called by the service view's chunk.
pub fn make_services_here() {
    MAKE_CONFIG.with(|c| c.set(Setup::playground_config));
}

/// A setup that runs: the config and its live timeline.
#[derive(Clone, Debug)]
pub struct Sim {
    /// What runs (validated).
    pub config: Config,
    /// Every request decided by every lane.
    pub timeline: Timeline,
}

/// Milliseconds as the engine prints them ("9.8 s").
pub fn time_label(ms: u64) -> String {
    Ms::from_ms(ms).to_string()
}

fn amount_f64(a: &Amount) -> f64 {
    let f = a.0;
    f.num() as f64 / f.den().max(1) as f64
}

fn ms_f64(m: Ms) -> f64 {
    let f = m.0;
    f.num() as f64 / f.den().max(1) as f64
}

impl Sim {
    /// A setup's run from a timeline built elsewhere (a slice at a time:
    /// [`crate::state::Building`]) of its validated `config`, without services.
    pub fn from_timeline(config: Config, timeline: Timeline) -> Sim {
        Sim { config, timeline }
    }

    /// Builds and runs a setup. Errors are the engine's one-line messages.
    pub fn new(state: &Setup) -> Result<Sim, String> {
        // Within the playground's budget and key cap, or the one-line reason.
        let config = MAKE_CONFIG.with(Cell::get)(state).map_err(String::from)?;
        let timeline = Timeline::from_config(&config).map_err(String::from)?;
        Ok(Sim { config, timeline })
    }

    /// A service scenario's run (no limiter lanes: its lanes are services, each
    /// run whole), its services made or not yet ([`MAKE_CONFIG`]).
    pub fn is_service_run(&self) -> bool {
        self.config.services.is_some() || self.config.scenario.is_some_and(ScenarioId::is_service)
    }

    /// The limit the page names in its tagline (`(limit, period_ms)`): the first
    /// lane's; in a service run the first service's first limit, which is a named
    /// scenario's budget and `service`'s first lane (in `setup`) before the
    /// services are made.
    pub fn first_limit(&self, setup: &Setup) -> Option<(u64, u64)> {
        let lane = self.lanes().first().or_else(|| {
            let service = self.config.services.as_ref()?.first()?;
            service.limits.first().map(|l| &l.lane)
        });
        let lane = match (lane, self.config.scenario) {
            (Some(lane), _) => lane,
            (None, Some(ScenarioId::Service)) => setup.lanes.first()?,
            (None, Some(id)) if id.is_service() => {
                return Some((id.info().limit, id.info().period_ms));
            }
            (None, _) => return None,
        };
        Some((lane.params.limit, lane.params.period_ms))
    }

    /// Runs a service scenario's lanes (`None` for a run of limiters), making its
    /// services from `setup` first if the first module left them out. Only the
    /// service view calls it, so the service model and engine are in its chunk,
    /// not in the first module (`view/chunks.rs`); the view runs it once per setup.
    pub fn run_services(&self, setup: &Setup) -> Option<Result<ServiceTimeline, String>> {
        if !self.is_service_run() {
            return None;
        }
        let made;
        let specs = match &self.config.services {
            Some(specs) => specs,
            None => match setup.playground_config().map(|c| c.services) {
                Ok(Some(specs)) => {
                    made = specs;
                    &made
                }
                Ok(None) => return None,
                Err(e) => return Some(Err(e.into())),
            },
        };
        Some(ServiceTimeline::new(specs).map_err(String::from))
    }

    /// The lanes.
    pub fn lanes(&self) -> &[LaneSpec] {
        &self.config.lanes
    }

    /// Requests so far.
    pub fn len(&self) -> u64 {
        self.timeline.len()
    }

    /// No requests (manual, before the first click).
    pub fn is_empty(&self) -> bool {
        self.timeline.is_empty()
    }

    /// The longest period among the lanes: the scale of the picture.
    pub fn period(&self) -> u64 {
        self.lanes()
            .iter()
            .map(|l| l.params.period_ms)
            .max()
            .unwrap_or(10_000)
            .max(1)
    }

    /// Where the clock stops: a little after the last request (and its last
    /// departure), or one period for an empty stream.
    pub fn end(&self) -> u64 {
        self.timeline.end()
    }

    /// How many requests arrived at or before `now` (the decided ones).
    pub fn revealed(&self, now: u64) -> u64 {
        self.timeline.index_after(now)
    }

    /// The request shown in the trace: the chosen one if it has arrived by `now`,
    /// else the latest at or before `now`.
    pub fn selected(&self, now: u64, chosen: Option<u64>) -> Option<u64> {
        let revealed = self.revealed(now);
        match chosen {
            Some(i) if i < revealed && self.timeline.request(i).is_some() => Some(i),
            _ => revealed
                .checked_sub(1)
                .filter(|&i| self.timeline.request(i).is_some()),
        }
    }

    /// The time of the first request after `now`, if any.
    pub fn next_time(&self, now: u64) -> Option<u64> {
        self.timeline
            .request(self.timeline.index_after(now))
            .map(|r| r.t)
    }

    /// The time of the last request before `now`, if any (else 0 when `now > 0`).
    pub fn prev_time(&self, now: u64) -> Option<u64> {
        let i = self.timeline.index_at(now);
        match i.checked_sub(1).and_then(|i| self.timeline.request(i)) {
            Some(r) => Some(r.t),
            None => (now > 0).then_some(0),
        }
    }

    /// Adds a request at `now` (manual mode). A click after scrubbing back rewrites
    /// history: requests after `now` are dropped first. Returns its index.
    pub fn send(&mut self, now: u64) -> Result<u64, String> {
        if self.timeline.last_time().is_some_and(|last| last > now) {
            let mut again = Timeline::new(self.config.lanes.clone(), self.config.window_ms)
                .map_err(String::from)?;
            let keep: Vec<Request> = self.timeline.requests().copied().collect();
            let keys = self.timeline.keys().to_vec();
            for r in keep.into_iter().filter(|r| r.t <= now) {
                let name = keys.get(r.key as usize).map_or("", String::as_str);
                again
                    .push_key(r.t, name, r.cost)
                    .map_err(|e| e.to_string())?;
            }
            self.timeline = again;
        }
        self.timeline
            .push_key(now, "", 1)
            .map_err(|e| e.to_string())
    }

    /// The times of every retained request (for the manual scenario's share link).
    pub fn times(&self) -> Vec<u64> {
        self.timeline.requests().map(|r| r.t).collect()
    }

    /// The time span a lane shows at `now`: the whole stream when it is short, else
    /// three periods around the clock, moving a period at a time (so marks are
    /// redrawn only when the span moves).
    pub fn span(&self, now: u64) -> (u64, u64) {
        let end = self.end();
        let w = self.period();
        let dense = self.timeline.len() > 400;
        if end <= w.saturating_mul(4) && !dense {
            return (0, end);
        }
        let span = w.saturating_mul(3).min(end.max(1));
        let step = (span / 3).max(1);
        let from = (now.saturating_sub(span / 3) / step).saturating_mul(step);
        let from = from.min(end.saturating_sub(span));
        (from, from.saturating_add(span))
    }

    /// [`Sim::span`] at zoom `level` ([`ONE_X`]: as it is) around the clock:
    /// narrowed 2, 4, … times above 1×, never shorter than [`MIN_SPAN_MS`]; widened
    /// 2, 4, … times below it, up to the whole run (`(0, end)`). It moves a third of
    /// itself at a time (so marks are redrawn only when it moves) and never past the
    /// run's end.
    ///
    /// What 1× shows: the whole run when it lasts at most four periods and holds at
    /// most 400 requests, else three periods around the clock (lab D's ten minutes
    /// at 100 per minute show three of them): below 1× the learner sees the rest.
    pub fn zoomed_span(&self, now: u64, level: u32) -> (u64, u64) {
        let (from, to) = self.span(now);
        let end = self.end().max(to);
        let span = match level.cmp(&ONE_X) {
            std::cmp::Ordering::Equal => return (from, to),
            std::cmp::Ordering::Greater => {
                let zoom = 1u64 << (level - ONE_X).min(32);
                ((to - from) / zoom).max(MIN_SPAN_MS).min(end.max(1))
            }
            std::cmp::Ordering::Less => {
                let wider = 1u64.checked_shl(ONE_X - level).unwrap_or(u64::MAX);
                let span = (to - from).saturating_mul(wider);
                if span >= end {
                    return (0, end);
                }
                span
            }
        };
        let step = (span / 3).max(1);
        let start = (now.saturating_sub(span / 3) / step).saturating_mul(step);
        let start = start.min(end.saturating_sub(span));
        (start, start.saturating_add(span))
    }

    /// Where a view that names no moment opens, and at which zoom level. A stream
    /// whose first request comes after [`LATE_MS`] (the edge burst's, every request
    /// between 9 and 11 s) opens [`LEAD_MS`] before that request, zoomed in as far
    /// as the span there still holds every request (1× if no closer level does);
    /// any other opens at 0 at 1×. Computed from the stream, whatever the scenario.
    pub fn opening(&self) -> (u64, u32) {
        let Some(first) = self.late_start() else {
            return (0, ONE_X);
        };
        let now = first - LEAD_MS;
        let last = self.timeline.last_time().unwrap_or(first);
        let mut zoom = MAX_ZOOM;
        while zoom > ONE_X {
            let (from, to) = self.zoomed_span(now, zoom);
            if from <= first && last <= to {
                break;
            }
            zoom -= 1;
        }
        (now, zoom)
    }

    /// The first request's time, if it comes after [`LATE_MS`].
    pub fn late_start(&self) -> Option<u64> {
        self.timeline
            .request(0)
            .map(|r| r.t)
            .filter(|&t| t > LATE_MS)
    }

    /// The closest zoom level at which the lanes show the whole run, `(0, end)`:
    /// [`ONE_X`] when 1× already does (a lesson step about the whole run opens at it).
    pub fn whole_run_zoom(&self) -> u32 {
        let whole = (0, self.end());
        let mut level = ONE_X;
        while level > 0 && self.zoomed_span(0, level) != whole {
            level -= 1;
        }
        level
    }

    /// The marks of lane `lane` in `[from, to]`, or `None` when there are more than
    /// [`MAX_MARKS`] (draw [`Sim::columns`] instead).
    pub fn marks(&self, lane: usize, from: u64, to: u64) -> Option<Vec<Mark>> {
        let range = self.timeline.visible(from, to);
        if range.end - range.start > MAX_MARKS as u64 {
            return None;
        }
        let mut out = Vec::with_capacity((range.end - range.start) as usize);
        let mut rank = 0;
        let mut last_t = None;
        for i in range {
            let (Some(r), Some(o)) = (self.timeline.request(i), self.timeline.outcome(lane, i))
            else {
                continue;
            };
            rank = if last_t == Some(r.t) { rank + 1 } else { 0 };
            last_t = Some(r.t);
            let wait = o.wait_ms().unwrap_or(0);
            out.push(Mark {
                index: i,
                t: r.t,
                key: r.key,
                decision: Decision::of(&o),
                departs: r.t.saturating_add(wait),
                rank,
            });
        }
        Some(out)
    }

    /// Lane `lane`'s requests in `[from, to]` counted in `n` columns of equal time.
    pub fn columns(&self, lane: usize, from: u64, to: u64, n: usize) -> Vec<Column> {
        let n = n.max(1);
        let width = (to.saturating_sub(from) / n as u64).max(1);
        let mut out: Vec<Column> = (0..n)
            .map(|k| Column {
                t: from.saturating_add(k as u64 * width),
                ..Column::default()
            })
            .collect();
        for i in self.timeline.visible(from, to) {
            let (Some(r), Some(o)) = (self.timeline.request(i), self.timeline.outcome(lane, i))
            else {
                continue;
            };
            let k = (((r.t - from.min(r.t)) / width) as usize).min(n - 1);
            if let Some(c) = out.get_mut(k) {
                match Decision::of(&o) {
                    Decision::Deny => c.denied += 1,
                    Decision::Allow => c.allowed += 1,
                    Decision::Delay => c.delayed += 1,
                }
            }
        }
        out
    }

    /// The key whose state a lane draws: the selected request's.
    pub fn key_of(&self, index: Option<u64>) -> String {
        index
            .and_then(|i| self.timeline.request(i))
            .and_then(|r| self.timeline.keys().get(r.key as usize).cloned())
            .unwrap_or_default()
    }

    /// Lane `lane`'s state for `key` at `now`.
    pub fn snapshot(&self, lane: usize, key: &str, now: u64) -> Option<Snapshot> {
        self.timeline.snapshot_at(lane, key, now).ok()
    }

    /// The yardstick of lane `lane` over the requests up to `now`.
    pub fn yardstick(&self, lane: usize, now: u64) -> Option<Yardstick> {
        self.timeline.yardstick_until(lane, now).ok()
    }

    /// Lane `lane`'s busiest window so far.
    pub fn busiest(&self, lane: usize, now: u64) -> Option<BusiestWindow> {
        self.timeline.busiest_window_until(lane, now).ok().flatten()
    }

    /// What a request from `key` at `now` would be answered by lane `lane`.
    pub fn headers(&self, lane: usize, key: &str, now: u64) -> Option<Headers> {
        self.timeline.headers_at(lane, key, now).ok()
    }

    /// Why lane `lane` decided request `index` as it did.
    pub fn explain(&self, lane: usize, index: u64) -> Option<Explanation> {
        self.timeline.explain(lane, index).ok()
    }

    /// What lane `lane` did with request `index`.
    pub fn outcome(&self, lane: usize, index: u64) -> Option<Decision> {
        self.timeline.outcome(lane, index).map(|o| Decision::of(&o))
    }

    /// The request `index`.
    pub fn request(&self, index: u64) -> Option<Request> {
        self.timeline.request(index)
    }

    /// The decisions of lane `lane` for the requests at or before `now`, as SPEC's
    /// tables write them (`✓✓✗…`, `·` for one not yet arrived).
    pub fn marks_text(&self, lane: usize, now: u64) -> String {
        let revealed = self.revealed(now);
        self.timeline
            .retained()
            .map(|i| match self.timeline.outcome(lane, i) {
                Some(_) if i >= revealed => '·',
                Some(o) if o.allowed => '✓',
                Some(_) => '✗',
                None => '?',
            })
            .collect()
    }
}

/// A verdict as a mark shows it, and the wait of a delayed one (`9.8 s`).
pub fn verdict_parts(v: &Verdict) -> (Decision, Option<String>) {
    match v {
        Verdict::Allow => (Decision::Allow, None),
        Verdict::Deny => (Decision::Deny, None),
        Verdict::Delay(w) => (Decision::Delay, Some(w.to_string())),
    }
}

/// Nice steps for a time axis: the largest count of ticks that fits `max_ticks`.
pub fn tick_step(span_ms: u64, max_ticks: u64) -> u64 {
    const STEPS: [u64; 16] = [
        100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000,
        600_000, 1_800_000, 3_600_000, 86_400_000,
    ];
    let max_ticks = max_ticks.max(1);
    STEPS
        .into_iter()
        .find(|s| span_ms / s <= max_ticks)
        .unwrap_or(span_ms / max_ticks + 1)
}

#[cfg(test)]
mod tests;

//! The playground as plain Rust: what it holds ([`Playground`]) and everything a
//! person can do to it: [`Action`]s, applied by [`Playground::apply`], for what the
//! first module's parts do, and the panels' own methods in `panels.rs` (the form,
//! the JSON box, the sweep), which stay in the panels' chunks. No signals, no DOM:
//! tested natively (`tests.rs` drives it as a person would).
//!
//! The page ([`crate::view`]) keeps one `Playground` in a signal, applies actions
//! to it from its event handlers and the animation loop, and derives what each
//! component shows with memos. Nothing here decides a request or computes a
//! metric: that is `ratelab-sim` and `ratelab-core`.

use std::ops::Deref;
use std::sync::Arc;

use ratelab_core::Algorithm;
use ratelab_sim::share::{self, normalise_ids, Link, Notice, Setup, View, MAX_PLAYGROUND_LANES};
use ratelab_sim::sweep::Sweep;
use ratelab_sim::{LaneSpec, ScenarioId};

use crate::import::{self, Answer, Imported};
use crate::learn::{self, OpenLesson};
use crate::model::Sim;
use crate::texts::Lang;

mod mount;
mod panels;
#[cfg(test)]
mod tests;

pub use mount::{names_moment, zoom_exp, zoom_level, MountOptions, Theme};
pub use panels::{Building, SLICE};

/// Removing lanes stops at one, as a link may ask for one (an article about a
/// single limiter, or two compared).
pub const MIN_LANES: usize = 1;

/// Lab D's sweep result and how long it took, in ms.
pub type SweepResult = Result<(Sweep, f64), String>;

/// A setup and what it runs.
#[derive(Debug)]
pub struct Run {
    /// The setup, as a link carries it.
    pub setup: Setup,
    /// What it runs.
    pub sim: Sim,
}

/// A value shared between the model and the page, equal to another only if it
/// is the same one (`Arc::ptr_eq`): the page's memos re-run whenever the model
/// changes (every frame while the clock plays), and comparing by pointer tells a
/// new value from the old without reading either. A change is always a new one.
#[derive(Debug)]
pub struct ByPtr<T: ?Sized>(Arc<T>);

impl<T: ?Sized> Clone for ByPtr<T> {
    fn clone(&self) -> Self {
        ByPtr(Arc::clone(&self.0))
    }
}

impl<T: ?Sized> PartialEq for ByPtr<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T: ?Sized> Deref for ByPtr<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// A setup and what it runs, shared: a changed setup is a new run (never edited
/// in place), so the page's memos tell a new run from the old without comparing
/// timelines.
pub type Shared = ByPtr<Run>;

impl Shared {
    /// A new run of `setup`.
    pub fn new(setup: Setup, sim: Sim) -> Shared {
        ByPtr(Arc::new(Run { setup, sim }))
    }
}

/// The JSON box's text. It can be the whole of an imported stream (18 MB for
/// 2 000 000 requests), which comparing by content would read every frame.
pub type BoxText = ByPtr<str>;

impl From<&str> for BoxText {
    fn from(text: &str) -> BoxText {
        ByPtr(Arc::from(text))
    }
}

impl From<String> for BoxText {
    fn from(text: String) -> BoxText {
        ByPtr(Arc::from(text))
    }
}

/// The custom stream as its text box shows it (times separated by spaces), or,
/// for a stream longer than the box takes ([`share::MAX_URL_REQUESTS`], the cap of
/// [`Playground::apply_requests`]), `Err` with its length: the box is left empty and a
/// short line says why. (Written out, 2 000 000 requests are 14 MB of text that
/// took over a second to make and lay out, in a box that would refuse it back.)
pub fn custom_text(stream: &ratelab_sim::Stream) -> Result<String, usize> {
    let n = stream.requests.len();
    if n > share::MAX_URL_REQUESTS {
        return Err(n);
    }
    Ok(share::format_requests(stream).replace(',', " "))
}

/// A parameter a lane's form fields set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaneField {
    /// N.
    Limit,
    /// W.
    Period,
    /// The bucket's, GCRA's or the queue's size, or nginx's `burst` (empty: the
    /// default).
    Burst,
    /// nginx's `delay` (empty: the default).
    Delay,
}

/// A text field of the setup form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// The shared N.
    Limit,
    /// The shared W.
    Period,
    /// Lane `j`'s own parameter.
    Lane(usize, LaneField),
    /// A knob of the `service` scenario, by its link key (one of
    /// [`share::FORM_KNOBS`]), set from text as a link writes it.
    Knob(&'static str),
}

/// Where an inline error is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// Under a text field.
    Field(Field),
    /// Under the scenario picker.
    Scenario,
    /// Under the "add a limiter" picker (adding and removing lanes).
    Lanes,
    /// Under the custom stream.
    Requests,
    /// Under the JSON box.
    Json,
}

/// Everything a person (or the page on their behalf) can do.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Switch the page's language.
    Lang(Lang),
    /// Open a scenario with its opening lanes.
    Scenario(ScenarioId),
    /// Hide the notices.
    Dismiss,
    /// Play or pause; playing from the end starts over.
    Play,
    /// Step back to the previous request (or 0).
    Prev,
    /// Step to the next request (or the end).
    Next,
    /// Move the clock (and stop it).
    Seek(u64),
    /// The clock's speed, in thousandths (one of [`share::SPEEDS_PERMILLE`]).
    Speed(u32),
    /// Send a request at the clock (the manual scenario).
    Send,
    /// Explain request `i` (a click on its mark).
    Select(u64),
    /// Highlight each lane's busiest window, or stop.
    Highlight(bool),
    /// Open a lesson step: its scenario and lanes, then play to its moment.
    OpenLesson(OpenLesson),
    /// Close the lesson (the setup stays).
    CloseLesson,
    /// The lanes' zoom level ([`crate::model::ONE_X`]: 1×).
    Zoom(u32),
    /// A fold was opened (`true`) or closed.
    Fold(Fold, bool),
}

/// The page's folds a link remembers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// The setup form.
    Setup,
    /// The lessons' catalog.
    Catalog,
}

/// Everything the playground holds.
#[derive(Debug)]
pub struct Playground {
    /// The setup and what it runs.
    pub run: Shared,
    /// The virtual clock, ms.
    pub now: u64,
    /// Whether the clock runs.
    pub playing: bool,
    /// The timelines' zoom level ([`crate::model::ONE_X`]: 1×): a link's, else
    /// where the run opens ([`crate::model::Sim::opening`]) or the open lesson
    /// step's frame ([`learn::zoom_for`]), then the learner's.
    pub zoom: u32,
    /// The setup's fold as the learner left it; `None`: as a lesson sets it
    /// ([`Playground::setup_unfolded`]).
    pub setup_open: Option<bool>,
    /// The lessons' catalog's fold, likewise ([`Playground::catalog_unfolded`]).
    pub catalog_open: Option<bool>,
    /// Clock speed in thousandths.
    pub speed: u32,
    /// The page's language.
    pub lang: Lang,
    /// The request chosen by a click.
    pub chosen: Option<u64>,
    /// Highlight the busiest windows.
    pub highlight: bool,
    /// Notices about ignored settings (and failed actions).
    pub notices: Vec<String>,
    /// Inline errors.
    pub errors: Vec<(Place, String)>,
    /// The JSON box's text.
    pub json: BoxText,
    /// Whether the JSON box is open.
    pub json_open: bool,
    /// Whether the JSON was just copied.
    pub copied: bool,
    /// Lab D's sweep result.
    pub sweep: Option<SweepResult>,
    /// Whether the sweep is running.
    pub sweep_running: bool,
    /// Mounted in another page.
    pub embed: bool,
    /// The compact variant.
    pub compact: bool,
    /// Reduced motion: the clock jumps from request to request.
    pub reduced_motion: bool,
    /// The open lesson step, if any.
    pub lesson: Option<OpenLesson>,
    /// Where playing stops before the end (a lesson's moment).
    pub stop_at: Option<u64>,
    /// The service scenario the page opened on (its link), if it did (not
    /// `service`, whose knobs are in the setup).
    opened_on_service: Option<ScenarioId>,
    /// A big import being built, a slice at a time.
    pub building: Option<Box<Building>>,
    /// The ticket of the big import a worker is reading, if one is.
    pub reading: Option<u64>,
    /// The last ticket given.
    tickets: u64,
    /// The clock's exact position while playing (fractions of a ms add up).
    virtual_ms: f64,
}

impl Playground {
    /// A playground for `options`. A setup the engine refuses (which `share::parse`
    /// already prevents) falls back to the default one with a notice; only if that
    /// failed too is there an error.
    pub fn new(options: MountOptions) -> Result<Playground, String> {
        let MountOptions {
            embed,
            compact,
            theme: _,
            link: Link { setup: state, view },
            notices,
            lesson,
            play_lesson,
            moment,
            autoplay,
        } = options;
        let mut notes: Vec<String> = notices.iter().map(Notice::to_string).collect();
        let (share, sim) = match Sim::new(&state) {
            Ok(sim) => (state, sim),
            Err(e) => {
                notes.push(format!(
                    "scenario={}: {e}; showing the default",
                    state.scenario
                ));
                let fallback = Setup::default();
                let sim = Sim::new(&fallback)?;
                (fallback, sim)
            }
        };
        let len = sim.len();
        let chosen = view.selected.filter(|&s| s < len);
        if let Some(sel) = view.selected.filter(|&s| s >= len) {
            notes.push(format!("sel={sel}: there are only {len} requests; ignored"));
        }
        // A lesson step has its own moment; a view that names none of its own opens
        // where the stream starts.
        let (now, zoom) = if moment || lesson.is_some() {
            (view.t_ms.min(sim.end()), crate::model::ONE_X)
        } else {
            sim.opening()
        };
        let playing = autoplay && now < sim.end();
        // Not "Your service": its knobs, in the setup, are what it is about.
        let opened_on_service = (sim.is_service_run() && share.scenario != ScenarioId::Service)
            .then_some(share.scenario);
        let mut p = Playground {
            lang: Lang::from_code(view.lang),
            speed: view.speed_permille,
            highlight: view.highlight,
            chosen,
            now,
            playing,
            zoom,
            setup_open: None,
            catalog_open: None,
            run: Shared::new(share, sim),
            notices: notes,
            errors: Vec::new(),
            json: BoxText::from(""),
            json_open: false,
            copied: false,
            sweep: None,
            sweep_running: false,
            embed,
            compact,
            reduced_motion: false,
            lesson,
            stop_at: None,
            opened_on_service,
            building: None,
            reading: None,
            tickets: 0,
            virtual_ms: now as f64,
        };
        if let (Some(open), true) = (lesson, play_lesson) {
            p.open_lesson(open);
        }
        // A step frames what it talks about (in its own setup, once opened); what
        // the link says of the view wins over that.
        if let Some(step) = p.lesson.and_then(|o| o.def()) {
            p.zoom = learn::zoom_for(step, p.sim());
        }
        if let Some(exp) = view.zoom {
            p.zoom = zoom_level(exp);
        }
        p.setup_open = view.setup_open;
        p.catalog_open = view.catalog_open;
        Ok(p)
    }

    // ---- Derived --------------------------------------------------------------

    /// Whether the setup and the lessons' catalog are unfolded: not while a lesson
    /// is open (it set things up), nor while the page shows the service scenario
    /// its link opened (its first screen holds the service's cards).
    pub fn unfolded(&self) -> bool {
        self.lesson.is_none() && self.opened_on_service != Some(self.setup().scenario)
    }

    /// What runs.
    pub fn sim(&self) -> &Sim {
        &self.run.sim
    }

    /// The setup, as a link carries it.
    pub fn setup(&self) -> &Setup {
        &self.run.setup
    }

    /// How many requests have arrived by now.
    pub fn revealed(&self) -> u64 {
        self.sim().revealed(self.now)
    }

    /// The request the trace explains: the clicked one if it has arrived, else the
    /// latest at or before now.
    pub fn selected(&self) -> Option<u64> {
        self.sim().selected(self.now, self.chosen)
    }

    /// Where the clock stops.
    pub fn end(&self) -> u64 {
        self.sim().end()
    }

    /// Whether the scenario is the manual one (the "send" button and key).
    pub fn is_manual(&self) -> bool {
        self.setup().scenario == ScenarioId::Manual
    }

    /// How the setup is looked at, as a link writes it.
    pub fn view(&self) -> View {
        View {
            t_ms: self.now,
            speed_permille: self.speed,
            lang: View::lang_code(self.lang.code()).unwrap_or("en"),
            selected: self.chosen,
            highlight: self.highlight,
            zoom: (self.zoom != self.opening_zoom()).then(|| zoom_exp(self.zoom)),
            setup_open: self.setup_open,
            catalog_open: self.catalog_open,
        }
    }

    /// The zoom a link without `zoom=` opens this view at: the open step's frame,
    /// else 1× (a link written here names the moment, so a late stream's closer
    /// opening does not apply).
    fn opening_zoom(&self) -> u32 {
        match self.lesson.and_then(|o| o.def()) {
            Some(step) => learn::zoom_for(step, self.sim()),
            None => crate::model::ONE_X,
        }
    }

    /// Whether the setup is unfolded: as the learner left it, else as the page
    /// opens it ([`Playground::unfolded`]).
    pub fn setup_unfolded(&self) -> bool {
        self.setup_open.unwrap_or_else(|| self.unfolded())
    }

    /// Whether the lessons' catalog is unfolded: as the learner left it, else as
    /// the page opens it ([`Playground::unfolded`]).
    pub fn catalog_unfolded(&self) -> bool {
        self.catalog_open.unwrap_or_else(|| self.unfolded())
    }

    /// The whole view as a query string (what the URL and `Playground.query()` say).
    pub fn query(&self) -> String {
        let mut q = share::to_query(self.setup(), &self.view());
        // A link leaves `t=0` out, and one without `t` opens a late stream at its
        // first request: a view at 0 of such a stream says so, to reopen at 0.
        if self.now == 0 && self.lesson.is_none() && self.sim().late_start().is_some() {
            q.push_str("&t=0");
        }
        match self.lesson {
            Some(open) => format!("{q}&{}", open.to_query()),
            None => q,
        }
    }

    /// Whether the setup is still the open lesson step's own (the learner may have
    /// changed it since; the step's numbers are for its own).
    pub fn lesson_setup_kept(&self) -> bool {
        self.lesson
            .and_then(|o| o.def())
            .is_some_and(|d| d.link().setup == *self.setup())
    }

    /// The lane the open lesson step is about ([`ratelab_learn::lesson::Step::focus`]),
    /// while that lane still runs the step's limiter: the page marks it and brings
    /// it into view when the step opens. `None` with no step open, for a step about
    /// every lane, or once the learner put another limiter there.
    pub fn step_lane(&self) -> Option<usize> {
        let def = self.lesson?.def()?;
        let j = def.focus?;
        let ours = def.lanes.get(j)?.algorithm;
        (self.setup().lanes.get(j)?.algorithm == ours).then_some(j)
    }

    /// The inline error shown at `place`.
    pub fn error(&self, place: Place) -> Option<&str> {
        self.errors
            .iter()
            .find(|(p, _)| *p == place)
            .map(|(_, m)| m.as_str())
    }

    // ---- Actions ----------------------------------------------------------------

    /// Does what `action` says. Bad input leaves the setup as it was and says why
    /// where it was typed.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::Lang(lang) => self.lang = lang,
            Action::Scenario(id) => self.open_scenario(id),
            Action::Dismiss => self.notices.clear(),
            Action::Play => self.toggle_play(),
            Action::Prev => {
                let t = self.sim().prev_time(self.now).unwrap_or(0);
                self.seek(t);
            }
            Action::Next => {
                let t = self.sim().next_time(self.now).unwrap_or(self.end());
                self.seek(t);
            }
            Action::Seek(t) => self.seek(t),
            Action::Speed(permille) => {
                if share::SPEEDS_PERMILLE.contains(&permille) {
                    self.speed = permille;
                }
            }
            Action::Send => self.send(),
            Action::Select(i) => {
                if self.sim().request(i).is_some() {
                    self.chosen = Some(i);
                }
            }
            Action::Highlight(on) => self.highlight = on,
            Action::OpenLesson(open) => self.open_lesson(open),
            Action::CloseLesson => {
                self.lesson = None;
                (self.setup_open, self.catalog_open) = (None, None);
            }
            Action::Zoom(level) => self.zoom = level.min(crate::model::MAX_ZOOM),
            Action::Fold(fold, open) => {
                // The lesson's own fold is no choice of the learner's (a link
                // leaves it out).
                let own = (open != self.unfolded()).then_some(open);
                match fold {
                    Fold::Setup => self.setup_open = own,
                    Fold::Catalog => self.catalog_open = own,
                }
            }
        }
    }

    /// Changes the setup: the new one is built and run first, so an error (the
    /// engine's message) leaves everything as it was.
    fn change(&mut self, f: impl FnOnce(&mut Setup)) -> Result<(), String> {
        // A new change wins over an import still being read or built.
        self.building = None;
        self.reading = None;
        let mut next = self.setup().clone();
        f(&mut next);
        if next == *self.setup() {
            return Ok(());
        }
        let sim = Sim::new(&next)?;
        self.run = Shared::new(next, sim);
        self.chosen = None;
        self.now = self.now.min(self.end());
        self.virtual_ms = self.now as f64;
        Ok(())
    }

    /// Changes lane `j`'s parameters (`f` gets its algorithm); a lane that is not
    /// there is ignored.
    fn change_lane(
        &mut self,
        j: usize,
        f: impl FnOnce(Algorithm, &mut ratelab_sim::ratelab_core::Params),
    ) -> Result<(), String> {
        self.change(|s| {
            if let Some(l) = s.lanes.get_mut(j) {
                f(l.algorithm, &mut l.params);
            }
        })
    }

    fn set_error(&mut self, place: Place, error: Option<String>) {
        self.errors.retain(|(p, _)| *p != place);
        if let Some(e) = error {
            self.errors.push((place, e));
        }
    }

    /// Opens a lesson step: its setup (as its link has it), the request it selects,
    /// and the clock from 0 to its moment at a speed that takes a few seconds
    /// ([`learn::speed_for`]), or straight to the moment if that would be too long.
    fn open_lesson(&mut self, open: OpenLesson) {
        let Some(def) = open.def() else { return };
        let link = def.link();
        let scenario = self.setup().scenario;
        self.errors.clear();
        if let Err(e) = self.change(|s| *s = link.setup) {
            self.notices.push(format!("lesson={}: {e}", open.id));
            return;
        }
        if scenario != self.setup().scenario {
            self.sweep = None;
        }
        // A step opened frames what it talks about and folds as lessons do;
        // replaying the open one keeps the learner's zoom and folds.
        if self.lesson != Some(open) {
            self.zoom = learn::zoom_for(def, self.sim());
            (self.setup_open, self.catalog_open) = (None, None);
        }
        self.lesson = Some(open);
        self.play_to(link.view.t_ms, link.view.selected);
    }

    /// Plays the clock from 0 to `to` at a speed that takes a few seconds
    /// ([`learn::speed_for`]), or goes straight there if that would be too long,
    /// with request `selected` chosen.
    fn play_to(&mut self, to: u64, selected: Option<u64>) {
        let to = to.min(self.end());
        match learn::speed_for(to).filter(|_| !self.reduced_motion) {
            Some(speed) => {
                self.speed = speed;
                self.now = 0;
                self.virtual_ms = 0.0;
                self.playing = true;
                self.stop_at = Some(to);
            }
            None => self.seek(to),
        }
        self.chosen = selected.filter(|&s| s < self.sim().len());
    }

    fn open_scenario(&mut self, id: ScenarioId) {
        let r = self.change(|s| *s = s.next_scenario(id));
        self.errors.clear();
        self.set_error(Place::Scenario, r.err());
        self.playing = false;
        self.now = 0;
        self.virtual_ms = 0.0;
        self.sweep = None;
    }

    fn seek(&mut self, t: u64) {
        self.playing = false;
        self.stop_at = None;
        self.chosen = None;
        self.now = t.min(self.end());
        self.virtual_ms = self.now as f64;
    }

    fn toggle_play(&mut self) {
        if self.playing {
            self.playing = false;
            self.stop_at = None;
            return;
        }
        if self.now >= self.end() {
            self.now = 0;
        }
        self.virtual_ms = self.now as f64;
        self.chosen = None;
        self.playing = true;
    }

    /// Sends a request at the current virtual time (the manual scenario only; the
    /// requests go into the link). The timeline is copied, not changed in place
    /// (see [`Shared`]); a person clicks far slower than that costs.
    fn send(&mut self) {
        if !self.is_manual() {
            return;
        }
        let mut sim = self.sim().clone();
        match sim.send(self.now) {
            Ok(_) => {
                let mut setup = self.setup().clone();
                setup.requests = ratelab_sim::Stream::from_times(sim.times());
                self.run = Shared::new(setup, sim);
                self.chosen = None;
            }
            Err(e) => self.notices.push(e),
        }
    }

    /// Follows the reader's motion preference. With reduced motion, a lesson that
    /// was about to play to its moment (opened by a link) shows the moment at once.
    pub fn set_reduced_motion(&mut self, reduced: bool) {
        self.reduced_motion = reduced;
        if let (true, true, Some(to)) = (reduced, self.playing, self.stop_at) {
            let chosen = self.chosen;
            self.seek(to);
            self.chosen = chosen;
        }
    }

    /// Lets `real_ms` of real time pass while playing (at the chosen speed). With
    /// reduced motion the shown time jumps from request to request. Returns whether
    /// the clock still runs.
    pub fn advance(&mut self, real_ms: f64) -> bool {
        if !self.playing {
            return false;
        }
        let dt = real_ms.clamp(0.0, 100.0) * f64::from(self.speed) / 1000.0;
        self.virtual_ms += dt;
        let end = self.stop_at.map_or(self.end(), |s| s.min(self.end()));
        let t = self.virtual_ms as u64;
        if t >= end {
            self.now = end;
            self.playing = false;
            self.stop_at = None;
            return false;
        }
        self.now = if self.reduced_motion {
            let sim = self.sim();
            sim.revealed(t)
                .checked_sub(1)
                .and_then(|i| sim.request(i))
                .map_or(self.now, |r| r.t.max(self.now))
        } else {
            t
        };
        true
    }
}

/// Opening another scenario from the picker.
trait NextScenario {
    /// Scenario `id` as the picker opens it: with its own lanes, unless the learner
    /// chose other limiters than the current scenario opens with (added, removed,
    /// or the link's `limiters=`); then with those limiters, at the new
    /// scenario's budget (their own burst and delay reset: they were set for the
    /// old budget). Lessons open their steps' setups whole (they need their lanes).
    fn next_scenario(&self, id: ScenarioId) -> Setup;
}

impl NextScenario for Setup {
    fn next_scenario(&self, id: ScenarioId) -> Setup {
        let mut next = Setup::for_scenario(id);
        let algorithms = |s: &Setup| s.lanes.iter().map(|l| l.algorithm).collect::<Vec<_>>();
        let chosen = algorithms(self);
        if chosen != algorithms(&Setup::for_scenario(self.scenario)) {
            let (n, p) = next.budget();
            next.lanes = chosen
                .into_iter()
                .map(|a| LaneSpec::simple(a, n, p))
                .collect();
            normalise_ids(&mut next.lanes);
        }
        next
    }
}

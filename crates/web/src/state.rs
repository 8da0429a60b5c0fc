//! The playground as plain Rust: what it holds ([`Playground`]) and everything a
//! person can do to it ([`Action`], applied by [`Playground::apply`]). No signals,
//! no DOM: tested natively (the tests below drive it as a person would).
//!
//! The page ([`crate::view`]) keeps one `Playground` in a signal, applies actions
//! to it from its event handlers and the animation loop, and derives what each
//! component shows with memos. Nothing here decides a request or computes a
//! metric: that is `ratelab-sim` and `ratelab-core`.

use std::ops::Deref;
use std::sync::Arc;

use ratelab_core::{Algorithm, MAX_COUNT};
use ratelab_sim::share::{
    self, normalise_ids, parse_count, parse_duration, Link, Notice, Setup, View,
    MAX_PLAYGROUND_LANES,
};
use ratelab_sim::sweep::Sweep;
use ratelab_sim::{Config, Extending, LaneSpec, ScenarioId, SimError, Timeline};

use crate::import::{self, Answer, Imported};
use crate::learn::{self, OpenLesson};
use crate::model::Sim;
use crate::texts::Lang;

/// Removing lanes stops at one, as a link may ask for one (an article about a
/// single limiter, or two compared).
pub const MIN_LANES: usize = 1;

/// An embed's colours (`theme=`; the page itself follows the OS).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// The host page's `color-scheme`, or the OS's preference if it declares none.
    #[default]
    Auto,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl Theme {
    /// The value of `theme=` (`light`, `dark`, `auto`), or `None` for anything else.
    pub fn parse(value: &str) -> Option<Theme> {
        match value {
            "auto" | "" => Some(Theme::Auto),
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }
}

/// How a playground is mounted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MountOptions {
    /// Inside another page (custom element, iframe, JS `mount`): no global keyboard
    /// handlers (keys work when the playground has focus), no URL writes.
    pub embed: bool,
    /// The compact variant: the clock and the lanes, each one line over its timeline
    /// with its other parts behind a disclosure (docs/embedding.md).
    pub compact: bool,
    /// The colours: forced light or dark, or the host's.
    pub theme: Theme,
    /// The setup and view to open, from [`share::parse`].
    pub link: Link,
    /// What the parser ignored, shown once.
    pub notices: Vec<Notice>,
    /// The lesson step the link names (the page only: see [`crate::learn`]).
    pub lesson: Option<OpenLesson>,
    /// Whether to open that step's own setup and play to its moment.
    pub play_lesson: bool,
    /// Whether the link (`t=`) or the element (`at`) names the moment to open at;
    /// if not, a stream that starts late opens just before its first request
    /// ([`crate::model::Sim::opening`]).
    pub moment: bool,
    /// Play from the opening moment at once (the element's `autoplay`).
    pub autoplay: bool,
}

/// A link's zoom exponent ([`share::parse_zoom`]) as the page's level.
pub fn zoom_level(exp: i8) -> u32 {
    (i64::from(crate::model::ONE_X) + i64::from(exp)).clamp(0, i64::from(crate::model::MAX_ZOOM))
        as u32
}

/// The page's zoom level as a link's exponent.
pub fn zoom_exp(level: u32) -> i8 {
    (i64::from(level) - i64::from(crate::model::ONE_X)).clamp(
        i64::from(share::MIN_ZOOM_EXP),
        i64::from(share::MAX_ZOOM_EXP),
    ) as i8
}

/// Whether `pairs` (a link's or an element's, values still percent-encoded) name
/// the moment: a `t` or `at` whose value is a duration.
pub fn names_moment(pairs: &[(String, String)]) -> bool {
    pairs
        .iter()
        .any(|(k, v)| (k == "t" || k == "at") && share::parse_duration(&share::decode(v)).is_ok())
}

impl MountOptions {
    /// The full page from a query string (`location.search`).
    pub fn page(query: &str) -> MountOptions {
        let lessons = learn::from_query(query);
        let (link, mut notices) = share::parse_pairs(&lessons.rest);
        notices.extend(lessons.notices);
        MountOptions {
            embed: false,
            compact: false,
            theme: Theme::Auto,
            link,
            notices,
            moment: names_moment(&lessons.rest),
            autoplay: false,
            lesson: lessons.open,
            play_lesson: lessons.play,
        }
    }
}

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

/// An import of more requests than this is built a slice of this many at a time,
/// between frames ([`Building`]); a slice is a few tens of ms of work.
pub const SLICE: usize = 20_000;

/// An import being built a slice at a time ([`Playground::build_some`], one slice
/// after each frame the page paints), so that the page keeps answering and shows
/// how far it is. The setup in force stays until the build is done; a new change
/// of the setup cancels it.
#[derive(Debug)]
pub struct Building {
    setup: Setup,
    config: Config,
    timeline: Timeline,
    at: Extending,
}

impl Building {
    /// Requests built so far, and of how many.
    pub fn progress(&self) -> (u64, u64) {
        (
            self.at.done() as u64,
            self.config.stream.requests.len() as u64,
        )
    }
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

    /// nginx's `nodelay` on lane `j` was switched.
    pub fn set_nodelay(&mut self, j: usize, on: bool) {
        let r = self.change_lane(j, |a, p| {
            if a == Algorithm::Nginx {
                p.nodelay = on;
                if on {
                    p.delay = None;
                }
            }
        });
        self.set_error(Place::Field(Field::Lane(j, LaneField::Delay)), r.err());
    }

    /// Adds a lane (up to [`MAX_PLAYGROUND_LANES`]).
    pub fn add_lane(&mut self, a: Algorithm) {
        let r = self.change(|s| {
            let (n, p) = s.budget();
            if s.lanes.len() < MAX_PLAYGROUND_LANES {
                s.lanes.push(LaneSpec::simple(a, n, p));
                normalise_ids(&mut s.lanes);
            }
        });
        self.set_error(Place::Lanes, r.err());
    }

    /// Removes lane `j` (down to [`MIN_LANES`]).
    pub fn remove_lane(&mut self, j: usize) {
        let r = self.change(|s| {
            if s.lanes.len() > MIN_LANES && j < s.lanes.len() {
                s.lanes.remove(j);
                normalise_ids(&mut s.lanes);
            }
        });
        self.set_error(Place::Lanes, r.err());
    }

    /// The JSON box's text was edited: the text, or `None` for one longer than
    /// [`import::WORKER_TEXT`], which stays in the box without a copy here (the
    /// copy into the wasm took about 140 ms at 2 000 000 requests; only an import
    /// reads it, from the box). [`Playground::json`] then keeps its older text, which
    /// is written into the box again only when it is replaced (an export, or an
    /// import of a small text).
    pub fn json_edited(&mut self, text: Option<String>) {
        if let Some(text) = text {
            self.set_json(text);
        }
        self.copied = false;
    }

    /// The JSON box's text could not be imported at all (its chunk could not be
    /// fetched): the box stays open with `error` under it, the setup as it was.
    pub fn json_failed(&mut self, error: String) {
        self.json_open = true;
        self.reading = None;
        self.set_error(Place::Json, Some(error));
    }

    /// The JSON box was opened or closed.
    pub fn open_json(&mut self, open: bool) {
        self.json_open = open;
    }

    /// The JSON box's big text is being read in a worker ([`crate::import`]): the
    /// page says "reading…" ([`Playground::reading`] is its ticket) until
    /// [`Playground::read`] comes. The text stays in the box, not copied here: its
    /// copy into the wasm took 140 ms at 2 000 000 requests. (Where the worker
    /// cannot read it, the page imports it here instead, [`Playground::import_json`].)
    pub fn start_reading(&mut self) {
        self.json_open = true;
        self.building = None;
        self.set_error(Place::Json, None);
        self.tickets += 1;
        self.reading = Some(self.tickets);
    }

    /// The JSON box's text was copied to the clipboard.
    pub fn json_copied(&mut self) {
        self.copied = true;
    }

    /// Lab D's sweep started.
    pub fn sweep_started(&mut self) {
        self.sweep_running = true;
    }

    /// Lab D's sweep finished (or failed).
    pub fn sweep_done(&mut self, result: SweepResult) {
        self.sweep = Some(result);
        self.sweep_running = false;
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
        let to = link.view.t_ms.min(self.end());
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
        self.chosen = link.view.selected.filter(|&s| s < self.sim().len());
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

    /// A text field was changed. Bad values leave the setup as it was and set the
    /// field's inline error.
    pub fn edit(&mut self, field: Field, text: &str) {
        let r = match field {
            Field::Knob(key) => {
                let mut next = self.setup().clone();
                next.set_service_knob(key, text)
                    .and_then(|()| self.change(|s| *s = next))
            }
            Field::Limit => parse_count(text, MAX_COUNT).and_then(|n| {
                self.change(|s| {
                    let p = s.budget().1;
                    s.set_budget(n, p);
                })
            }),
            Field::Period => form_duration(text).and_then(|p| {
                self.change(|s| {
                    let n = s.budget().0;
                    s.set_budget(n, p);
                })
            }),
            Field::Lane(j, what) => {
                let optional = matches!(what, LaneField::Burst | LaneField::Delay);
                let parsed = match what {
                    _ if optional && text.trim().is_empty() => Ok(None),
                    LaneField::Period => form_duration(text).map(Some),
                    _ => parse_count(text, MAX_COUNT).map(Some),
                };
                parsed.and_then(|v| {
                    self.change_lane(j, |a, p| match what {
                        LaneField::Limit => p.limit = v.unwrap_or(0),
                        LaneField::Period => p.period_ms = v.unwrap_or(0),
                        // The form only shows a lane's own options; anything else
                        // is ignored rather than stored where it means nothing and
                        // would not survive the link.
                        LaneField::Burst if a.uses_burst() => p.burst = v,
                        LaneField::Delay if a == Algorithm::Nginx => {
                            p.delay = v;
                            if v.is_some() {
                                p.nodelay = false;
                            }
                        }
                        LaneField::Burst | LaneField::Delay => {}
                    })
                })
            }
        };
        self.set_error(Place::Field(field), r.err());
    }

    /// Runs the custom stream as typed (times separated by commas or spaces).
    pub fn apply_requests(&mut self, text: &str) {
        let raw = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join(",");
        let r = share::parse_requests(&raw).and_then(|stream| {
            self.change(|s| {
                s.requests = stream;
            })
        });
        self.set_error(Place::Requests, r.err());
    }

    /// Fills the JSON box with this text: the current setup in the JSON format
    /// ([`import::export`], made by the box, in the setup's chunk).
    pub fn export_json(&mut self, json: String) {
        self.json = json.into();
        self.json_open = true;
        self.copied = false;
        self.set_error(Place::Json, None);
    }

    /// The JSON box's text is `text` (the same text as before is kept as it was: a
    /// new one is written back into the box). A text over [`import::WORKER_TEXT`]
    /// is left in the box only, as [`Playground::json_edited`]`(None)` leaves it: kept
    /// here, it would be written back into the box, megabytes the box already shows.
    fn set_json(&mut self, text: impl AsRef<str> + Into<BoxText>) {
        let text_ref = text.as_ref();
        if text_ref.len() <= import::WORKER_TEXT && *self.json != *text_ref {
            self.json = text.into();
        }
    }

    /// What the worker read for `ticket`, if it is still wanted (an answer for
    /// another ticket, a newer import or a change of the setup since, is ignored).
    pub fn read(&mut self, ticket: u64, answer: &Answer) {
        if self.reading == Some(ticket) {
            self.reading = None;
            if let Some(Imported { notice, result }) = answer.take() {
                self.imported(notice, result);
            }
        }
    }

    /// Runs the JSON box's text, read by the box ([`import::read`], in the setup's
    /// chunk: the JSON reader is not in the first module).
    pub fn import_json(&mut self, text: &str, answer: &Answer) {
        self.set_json(text);
        self.json_open = true;
        self.reading = None;
        if let Some(Imported { notice, result }) = answer.take() {
            self.imported(notice, result);
        }
    }

    /// Puts an import in force ([`import::read`] here, or a worker's
    /// [`import::read_checked`]: then `config` is its setup's checked config): at
    /// once if it is small, else a slice at a time.
    fn imported(&mut self, notice: Option<String>, read: Result<(Setup, Option<Config>), String>) {
        self.notices.extend(notice);
        let result = read.and_then(|(next, config)| {
            if next.requests.requests.len() > SLICE && next != *self.setup() {
                return self.start_building(next, config).map(|()| false);
            }
            self.change(|s| *s = next).map(|()| true)
        });
        if result == Ok(true) {
            self.now = 0;
            self.virtual_ms = 0.0;
        }
        self.set_error(Place::Json, result.err());
    }

    /// Starts building `next` a slice at a time: checked against the budget (and
    /// the key cap) first, as [`Sim::new`] does, so a refusal is at once. A
    /// `config` the worker checked ([`import::read_checked`]) is not checked
    /// again. ([`Timeline::prepare`] would check the same config against the same
    /// budget a second time: the timeline is made empty here instead.)
    fn start_building(&mut self, next: Setup, config: Option<Config>) -> Result<(), String> {
        self.building = None;
        let config = match config {
            Some(c) => c,
            None => next
                .playground_config_without_services()
                .map_err(String::from)?,
        };
        let timeline =
            Timeline::new(config.lanes.clone(), config.window_ms).map_err(String::from)?;
        self.building = Some(Box::new(Building {
            setup: next,
            config,
            timeline,
            at: Extending::default(),
        }));
        Ok(())
    }

    /// The next slice of the import being built; the last one puts it in force
    /// (as a whole import does: the clock at 0).
    pub fn build_some(&mut self) {
        let Some(b) = self.building.as_mut() else {
            return;
        };
        let Building {
            config,
            timeline,
            at,
            ..
        } = &mut **b;
        match timeline.extend_some(&config.stream, at, SLICE) {
            Ok(false) => {}
            Ok(true) => {
                if let Some(b) = self.building.take() {
                    let Building {
                        setup,
                        config,
                        timeline,
                        ..
                    } = *b;
                    let sim = Sim::from_timeline(config, timeline);
                    self.run = Shared::new(setup, sim);
                    self.chosen = None;
                    self.playing = false;
                    self.now = 0;
                    self.virtual_ms = 0.0;
                }
            }
            Err(e) => {
                self.building = None;
                let e = SimError::at("", e).to_string();
                self.set_error(Place::Json, Some(e));
            }
        }
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

/// A "per W" field as typed: a bare number is seconds (`10` is 10 s, shown back as
/// `10s`), since every duration on the page is written in seconds and the
/// field's placeholder says `10s`; the link's `period=` keeps its own rule
/// (milliseconds), read by [`parse_duration`].
fn form_duration(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        parse_duration(&format!("{t}s")).map_err(|_| parse_duration(text).err().unwrap_or_default())
    } else {
        parse_duration(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_service_the_model_refuses_is_refused_where_typed_once_its_chunk_is_here() {
        let knob = Place::Field(Field::Knob("outage"));
        let refuse = || {
            let mut p = page("scenario=service&limiters=sliding_log&store=local");
            p.edit(Field::Knob("outage"), "20s-40s");
            p
        };
        // The first module alone leaves the services to the service view, which
        // says why it cannot run them.
        let p = refuse();
        assert_eq!(p.error(knob), None);
        let run = p.sim().run_services(p.setup()).expect("a service run");
        let e = run.expect_err("refused by the service model");
        assert!(e.contains("only a shared store can be down"), "{e}");
        // Once the view's chunk is loaded, at once, where it was typed.
        crate::model::make_services_here();
        let p = refuse();
        let e = p.error(knob).expect("refused");
        assert!(e.contains("only a shared store can be down"), "{e}");
        assert!(!p.query().contains("outage"), "{}", p.query());
    }

    #[test]
    fn service_knobs_rerun_the_service_or_say_why() {
        let mut p = page("scenario=service&limiters=sliding_log");
        let knob = |k| Place::Field(Field::Knob(k));
        for (k, v) in [
            ("instances", "3"),
            ("store", "local"),
            ("noisy", "8"),
            ("retry", "none"),
        ] {
            p.edit(Field::Knob(k), v);
            assert_eq!(p.error(knob(k)), None, "{k}={v}");
        }
        let q = p.query();
        assert!(
            q.contains("instances=3") && q.contains("store=local"),
            "{q}"
        );
        let yardstick = |p: &Playground| {
            let run = p
                .sim()
                .run_services(p.setup())
                .expect("a service run")
                .unwrap();
            run.yardstick(0).cloned().expect("a lane")
        };
        // Three instances counting on their own let the noisy client through at
        // three times the limit.
        let y = yardstick(&p);
        assert_eq!(y.clients[0].max_in_1s, 30);
        // A refused value keeps the service and says why where it was typed.
        p.edit(Field::Knob("outage"), "40s-20s");
        assert_eq!(
            p.error(knob("outage")),
            Some("40s-20s ends before it starts")
        );
        assert_eq!(yardstick(&p), y);
        p.edit(Field::Knob("attempts"), "21");
        assert_eq!(
            p.error(knob("attempts")),
            Some("21 is too large (at most 20)")
        );
        // Another scenario has no knobs (the bare address opens a lesson).
        let mut g = page("scenario=golden");
        g.edit(Field::Knob("retry"), "fixed");
        assert_eq!(
            g.error(knob("retry")),
            Some("only scenario \"service\" takes it (not \"golden\"); ignored")
        );
    }

    fn page(q: &str) -> Playground {
        Playground::new(MountOptions::page(q)).unwrap()
    }

    #[test]
    fn a_service_link_opens_folded_on_its_cards() {
        let mut p = page("scenario=store-outage");
        assert!(!p.unfolded());
        assert!(page("scenario=service").unfolded());
        // Another scenario picked in the setup: the setup as it was, unfolded.
        p.apply(Action::Scenario(ScenarioId::Golden));
        assert!(p.unfolded());
        let mut g = page("scenario=golden&t=0");
        assert!(g.unfolded());
        g.apply(Action::Scenario(ScenarioId::StoreOutage));
        assert!(g.unfolded());
    }

    #[test]
    fn a_service_scenario_opens_in_the_page() {
        let mut p = page("scenario=golden&lang=vi&speed=2");
        p.apply(Action::Scenario(ScenarioId::RetryStorm));
        assert_eq!(p.setup().scenario, ScenarioId::RetryStorm);
        assert!(p.sim().is_service_run());
        assert_eq!(p.error(Place::Scenario), None);
        let p = page("scenario=retry-storm&lang=vi");
        assert!(p.sim().is_service_run() && p.notices.is_empty());
    }

    #[test]
    fn a_late_stream_opens_just_before_its_first_request_zoomed_to_its_requests() {
        let p = page("scenario=edge-burst");
        let first = p.sim().next_time(0).unwrap();
        assert!(first > crate::model::LATE_MS);
        assert_eq!(p.now, first - crate::model::LEAD_MS);
        assert!(!p.playing && p.zoom > crate::model::ONE_X);
        let (from, to) = p.sim().zoomed_span(p.now, p.zoom);
        assert!(from <= first && to >= p.sim().times().into_iter().max().unwrap());
        // The link written there reopens there.
        assert_eq!(page(&p.query()).now, p.now);
        // A stream that starts early opens at 0 at 1×, as before.
        let g = page("scenario=golden");
        assert_eq!((g.now, g.zoom), (0, crate::model::ONE_X));
        assert!(!g.query().contains("t="));
    }

    #[test]
    fn a_named_moment_wins_and_zero_is_written_for_a_late_stream() {
        for (q, now) in [("t=2s", 2_000), ("at=9.9s", 9_900), ("t=0", 0)] {
            let p = page(&format!("scenario=edge-burst&{q}"));
            assert_eq!((p.now, p.zoom), (now, crate::model::ONE_X), "{q}");
            assert!(p.notices.is_empty(), "{q}");
        }
        let p = page("scenario=edge-burst&t=0&lang=vi");
        assert!(p.query().ends_with("&lang=vi&t=0"), "{}", p.query());
        assert_eq!(page(&p.query()).now, 0);
        // A bad moment is a notice, and the stream's own opening stands.
        let p = page("scenario=edge-burst&at=soon");
        assert_eq!(p.notices.len(), 1);
        assert!(p.notices[0].starts_with("at=soon: "), "{:?}", p.notices);
        assert_eq!(p.now, p.sim().opening().0);
    }

    #[test]
    fn autoplay_plays_from_the_opening_moment() {
        let mut options = MountOptions::page("scenario=edge-burst");
        options.autoplay = true;
        let p = Playground::new(options).unwrap();
        assert!(p.playing && p.now == p.sim().opening().0);
        let mut options = MountOptions::page("scenario=edge-burst&t=1m");
        options.autoplay = true;
        let p = Playground::new(options).unwrap();
        assert!(!p.playing && p.now == p.end());
    }

    fn edit(p: &mut Playground, field: Field, text: &str) {
        p.edit(field, text);
    }

    #[test]
    fn the_bare_page_opens_the_first_lesson_playing_and_a_scenario_link_the_golden_stream() {
        let p = page("");
        assert_eq!(p.lesson, OpenLesson::first());
        assert_eq!(p.setup().scenario, ScenarioId::EdgeBurstDemo);
        assert!(p.playing && p.now == 0 && p.lesson_setup_kept());
        let p = page("scenario=golden");
        assert_eq!((p.setup().scenario, p.lesson), (ScenarioId::Golden, None));
        assert_eq!(p.sim().lanes().len(), 3);
        assert_eq!((p.now, p.revealed(), p.selected()), (0, 0, None));
    }

    #[test]
    fn stepping_follows_the_requests() {
        let mut p = page("scenario=golden");
        p.apply(Action::Next);
        assert_eq!((p.now, p.selected()), (2_000, Some(0)));
        for _ in 0..20 {
            p.apply(Action::Next);
        }
        assert_eq!(p.sim().marks_text(0, p.now), "✓✓✓✓✓✗✓✓✓✓✓✗");
        assert_eq!(p.now, p.end());
        p.apply(Action::Prev);
        assert_eq!(p.now, 19_500);
    }

    #[test]
    fn a_new_scenario_keeps_the_limiters_the_learner_chose() {
        let mut p = page("");
        let opening = |p: &Playground| {
            p.setup()
                .lanes
                .iter()
                .map(|l| l.algorithm)
                .collect::<Vec<_>>()
        };
        // Untouched lanes: the next scenario's own.
        p.apply(Action::Scenario(ScenarioId::LabC));
        assert_eq!(opening(&p), opening(&page("scenario=lab-c")));
        // A lane added: kept, at the next scenario's budget.
        p.add_lane(Algorithm::SlidingLog);
        let chosen = opening(&p);
        p.apply(Action::Scenario(ScenarioId::LabA));
        assert_eq!(opening(&p), chosen);
        let budget = p.setup().budget();
        assert!(p
            .setup()
            .lanes
            .iter()
            .all(|l| (l.params.limit, l.params.period_ms) == budget));
        assert_eq!(p.setup().scenario, ScenarioId::LabA);
    }

    #[test]
    fn a_bare_number_in_a_per_w_field_is_seconds() {
        let mut p = page("");
        edit(&mut p, Field::Period, "10");
        assert_eq!(p.setup().budget().1, 10_000);
        edit(&mut p, Field::Lane(1, LaneField::Period), "2.5");
        assert_eq!(p.setup().lanes[1].params.period_ms, 2_500);
        edit(&mut p, Field::Lane(1, LaneField::Period), "250ms");
        assert_eq!(p.setup().lanes[1].params.period_ms, 250);
        edit(&mut p, Field::Period, "1.2.3");
        assert!(p.error(Place::Field(Field::Period)).is_some());
    }

    #[test]
    fn bad_field_values_keep_the_setup_and_say_why() {
        let mut p = page("scenario=golden");
        let burst = Field::Lane(2, LaneField::Burst);
        let lane_limit = Field::Lane(0, LaneField::Limit);
        for (field, value, error) in [
            (Field::Limit, "0", "limit: must be > 0"),
            (Field::Limit, "-3", "must be a whole number, got \"-3\""),
            (Field::Limit, "NaN", "must be a whole number, got \"NaN\""),
            (Field::Limit, "", "must be a whole number, got nothing"),
            (Field::Limit, "1e20", "must be a whole number, got \"1e20\""),
            (Field::Period, "0", "period_ms: must be > 0"),
            (burst, "0", "limiters[2].burst: must be > 0"),
            (
                lane_limit,
                "100000000000000000000",
                "100000000000000000000 is too large (at most",
            ),
        ] {
            let before = p.run.clone();
            edit(&mut p, field, value);
            assert!(p.run == before, "{field:?}={value}");
            let e = p
                .error(Place::Field(field))
                .unwrap_or_else(|| panic!("no error for {field:?}={value}"));
            assert!(e.contains(error), "{field:?}={value}: {e}");
        }
        // A good value clears the error and applies to every lane.
        edit(&mut p, Field::Limit, "3");
        assert_eq!(p.error(Place::Field(Field::Limit)), None);
        assert!(p.setup().lanes.iter().all(|l| l.params.limit == 3));
    }

    #[test]
    fn an_unchanged_value_keeps_the_same_setup() {
        let mut p = page("limit=5&period=10s");
        let before = p.run.clone();
        edit(&mut p, Field::Limit, "5");
        edit(&mut p, Field::Period, "10000ms");
        edit(&mut p, Field::Period, "10");
        edit(&mut p, Field::Lane(0, LaneField::Limit), "5");
        assert!(p.run == before);
    }

    #[test]
    fn lanes_are_added_removed_and_tuned() {
        let mut p = page("scenario=golden");
        for a in [
            Algorithm::Nginx,
            Algorithm::TokenBucketF64,
            Algorithm::Gcra,
            Algorithm::LeakyQueue,
            Algorithm::FixedWindowAnchored,
            Algorithm::SlidingLogLogsBlocked,
        ] {
            p.add_lane(a);
        }
        assert_eq!(p.setup().lanes.len(), MAX_PLAYGROUND_LANES);
        edit(&mut p, Field::Lane(3, LaneField::Delay), "2");
        assert_eq!(p.setup().lanes[3].params.delay, Some(2));
        p.set_nodelay(3, true);
        assert!(p.setup().lanes[3].params.nodelay);
        assert_eq!(p.setup().lanes[3].params.delay, None);
        // A lane option the lane does not have is ignored.
        let before = p.run.clone();
        edit(&mut p, Field::Lane(0, LaneField::Burst), "4");
        edit(&mut p, Field::Lane(9, LaneField::Limit), "4");
        assert!(p.run == before);
        p.remove_lane(0);
        assert_eq!(p.setup().lanes[0].algorithm, Algorithm::SlidingLog);
        assert!(p
            .query()
            .contains("limiters=sliding_log,token_bucket,nginx,token_bucket_f64,gcra"));
        // Removing stops at one lane.
        for _ in 0..7 {
            p.remove_lane(0);
        }
        assert_eq!(p.setup().lanes.len(), MIN_LANES);
    }

    #[test]
    fn the_url_round_trips_the_view() {
        let mut p =
            page("scenario=golden&limiters=fixed_window,leaky_queue&t=11.2s&hl=1&lang=vi&speed=2");
        assert_eq!(
            (p.now, p.highlight, p.lang, p.speed),
            (11_200, true, Lang::Vi, 2_000)
        );
        p.apply(Action::Select(9));
        let q = p.query();
        let again = page(&q);
        assert_eq!(again.query(), q);
        assert_eq!(again.chosen, Some(9));
    }

    #[test]
    fn invalid_url_values_become_notices() {
        let mut p = page("limit=abc&t=soon&sel=99");
        assert_eq!(p.notices.len(), 3, "{:?}", p.notices);
        assert!(p.notices.iter().any(|n| n.contains("limit=abc")));
        p.apply(Action::Dismiss);
        assert!(p.notices.is_empty());
    }

    #[test]
    fn manual_sends_at_the_clock() {
        let mut p = page("scenario=manual");
        assert!(p.is_manual());
        p.apply(Action::Send);
        p.now = 1_000;
        p.apply(Action::Send);
        assert_eq!(p.sim().len(), 2);
        assert_eq!(p.selected(), Some(1));
        // The link carries them.
        let again = page(&p.query());
        assert_eq!(again.sim().times(), [0, 1_000]);
        // Elsewhere there is no sending.
        let mut g = page("scenario=golden");
        g.apply(Action::Send);
        assert_eq!(g.sim().len(), 12);
    }

    #[test]
    fn the_clock_plays_at_speed_and_stops_at_the_end() {
        let mut p = page("speed=4");
        p.apply(Action::Play);
        assert!(p.playing);
        assert!(p.advance(100.0));
        assert_eq!(p.now, 400);
        while p.advance(100.0) {}
        assert_eq!((p.now, p.playing), (p.end(), false));
        // Reduced motion: the clock shows request times only.
        let mut p = page("scenario=golden");
        p.reduced_motion = true;
        p.apply(Action::Play);
        for _ in 0..6 {
            p.advance(100.0);
        }
        assert_eq!(p.now, 0);
        for _ in 0..16 {
            p.advance(100.0);
        }
        assert_eq!(p.now, 2_000);
    }

    #[test]
    fn json_import_and_export() {
        let mut p = page("scenario=golden");
        p.export_json(import::export(p.setup()));
        assert!(p.json.starts_with("{\"requests\":[2000,7000"));
        assert!(p.json_open);
        import_box(&mut p, r#"{"requests": [0, 0, 0], "limiters": [{"algorithm": "gcra", "limit": 1, "period_ms": 1000}]}"#.into());
        assert_eq!(p.setup().scenario, ScenarioId::Custom);
        assert_eq!(p.sim().len(), 3);
        import_box(
            &mut p,
            r#"{"requests": [0], "limiters": [{"algorithm": "gcra", "limit": 1, "period_ms": 0}]}"#
                .into(),
        );
        assert_eq!(
            p.error(Place::Json),
            Some("limiters[0].period_ms: must be > 0")
        );
        assert_eq!(p.sim().len(), 3);
    }

    #[test]
    fn an_import_that_cannot_be_read_says_so_and_changes_nothing() {
        let mut p = Playground::new(MountOptions::page("scenario=lab-c")).unwrap();
        let before = p.query();
        p.start_reading();
        p.json_failed("could not fetch a part of the playground".into());
        assert_eq!(
            p.error(Place::Json),
            Some("could not fetch a part of the playground")
        );
        assert!(p.json_open && p.reading.is_none());
        assert_eq!(p.query(), before);
    }

    /// The JSON box's import of `text`, read as the box reads it.
    fn import_box(p: &mut Playground, text: String) {
        let answer = Answer::new(import::read(&text));
        p.import_json(&text, &answer);
    }

    /// An import of `n` requests, one every 5 ms, on three lanes.
    fn import_text(n: u64) -> String {
        let times: Vec<String> = (0..n).map(|i| (i * 5).to_string()).collect();
        format!(
            r#"{{"requests": [{}], "limiters": [{{"algorithm": "fixed_window", "limit": 5, "period_ms": 10000}}, {{"algorithm": "sliding_log", "limit": 5, "period_ms": 10000}}, {{"algorithm": "gcra", "limit": 5, "period_ms": 10000}}]}}"#,
            times.join(",")
        )
    }

    #[test]
    fn a_stream_longer_than_the_custom_box_takes_is_not_written_out() {
        let mut p = page("scenario=golden");
        import_box(&mut p, import_text(20_001));
        while p.building.is_some() {
            p.build_some();
        }
        assert_eq!(p.error(Place::Json), None);
        assert_eq!(p.sim().len(), 20_001);
        assert_eq!(custom_text(&p.setup().requests), Err(20_001));
        // At the box's cap it is still written out, and reads back.
        let at_cap =
            ratelab_sim::Stream::from_times((0..share::MAX_URL_REQUESTS as u64).map(|i| i * 5));
        let text = custom_text(&at_cap).expect("at the cap");
        p.apply_requests(&text);
        assert_eq!(p.error(Place::Requests), None);
        assert_eq!(p.sim().len(), share::MAX_URL_REQUESTS as u64);
        let small = ratelab_sim::Stream::from_times([2_000, 7_000, 8_500]);
        assert_eq!(custom_text(&small), Ok("2s 7s 8.5s".to_string()));
    }

    #[test]
    fn a_big_import_is_built_in_slices_and_a_new_change_cancels_it() {
        let n = SLICE as u64 * 2 + 7;
        let mut p = page("scenario=golden");
        let text = import_text(n);
        import_box(&mut p, text.clone());
        // Nothing in force yet: the golden stream still runs, and plays.
        assert_eq!(p.setup().scenario, ScenarioId::Golden);
        assert_eq!(p.building.as_ref().map(|b| b.progress()), Some((0, n)));
        p.apply(Action::Play);
        assert!(p.advance(100.0));
        let mut seen = Vec::new();
        while let Some(b) = &p.building {
            seen.push(b.progress().0);
            p.build_some();
        }
        assert_eq!(seen, [0, SLICE as u64, 2 * SLICE as u64]);
        assert_eq!(p.error(Place::Json), None);
        assert_eq!(
            (p.setup().scenario, p.sim().len(), p.now),
            (ScenarioId::Custom, n, 0)
        );
        // What the slices built is what one whole build makes.
        let whole = crate::model::Sim::new(p.setup()).expect("runs");
        assert_eq!(
            format!("{:?}", whole.timeline),
            format!("{:?}", p.sim().timeline)
        );
        // A change while an import is built cancels it; the change is in force.
        let mut q = page("scenario=golden");
        import_box(&mut q, text);
        q.build_some();
        q.apply(Action::Scenario(ScenarioId::LabB));
        assert!(q.building.is_none());
        q.build_some();
        assert_eq!(q.setup().scenario, ScenarioId::LabB);
    }

    /// The page after `text` was imported and built to the end, however it was read.
    fn settle(mut p: Playground) -> Playground {
        while p.building.is_some() {
            p.build_some();
        }
        p
    }

    /// What the page shows of an import: setup, run, notices, errors, clock.
    fn shown(p: &Playground) -> String {
        format!(
            "{:?} {:?} {:?} {:?} {} {}",
            p.setup(),
            p.sim().timeline,
            p.notices,
            p.errors,
            p.now,
            &*p.json
        )
    }

    #[test]
    fn an_import_read_by_a_worker_ends_as_one_read_here() {
        let n = SLICE as u64 + 3;
        let over = format!(
            r#"{{"requests": [1, 2], "limiters": [{}]}}"#,
            [r#"{"algorithm": "gcra", "limit": 1, "period_ms": 10}"#; 9].join(",")
        );
        // A big one, a small one with a notice, bad JSON, one over the key cap.
        let keys: Vec<String> = (0..2_000)
            .map(|i| format!(r#"{{"t": {i}, "key": "k{i}"}}"#))
            .collect();
        let too_many_keys = format!(
            r#"{{"requests": [{}], "limiters": [{{"algorithm": "gcra", "limit": 1, "period_ms": 10}}]}}"#,
            keys.join(",")
        );
        let mut outcomes = Vec::new();
        for text in [
            import_text(n),
            over,
            "{\"requests\": [1,".to_string(),
            too_many_keys,
        ] {
            let mut here = page("scenario=golden");
            import_box(&mut here, text.clone());
            let here = settle(here);
            outcomes.push((here.notices.len(), here.errors.len()));
            let mut there = page("scenario=golden");
            there.start_reading();
            let ticket = there.reading.expect("a ticket");
            let (head, bytes) = import::encode(&import::read_checked(&text));
            let checked = import::decode(&head, &bytes);
            let answer = Answer::new(checked.expect("decoded"));
            // An answer to another ticket changes nothing.
            there.read(ticket + 1, &answer.clone());
            assert_eq!(there.reading, Some(ticket));
            assert_eq!(there.setup().scenario, ScenarioId::Golden);
            there.read(ticket, &answer);
            assert_eq!(there.reading, None);
            // (The box keeps its text: the model's copy is the one it had.)
            there.json = here.json.clone();
            assert_eq!(
                shown(&settle(there)),
                shown(&here),
                "{}",
                &text[..40.min(text.len())]
            );
        }
        assert_eq!(outcomes, [(0, 0), (1, 0), (0, 1), (0, 1)]);
        // A change while a worker reads cancels the read: its answer is ignored.
        let mut p = page("scenario=golden");
        let text = import_text(n);
        p.start_reading();
        let ticket = p.reading.expect("a ticket");
        p.apply(Action::Scenario(ScenarioId::LabB));
        assert_eq!(p.reading, None);
        let checked = import::read_checked(&text);
        p.read(ticket, &Answer::new(checked));
        assert!(p.building.is_none());
        assert_eq!(p.setup().scenario, ScenarioId::LabB);
    }

    #[test]
    fn the_json_text_is_compared_by_pointer_and_kept_when_unchanged() {
        // Equal texts that are not the same one differ: the page's memo never reads
        // the text to compare it.
        let a = BoxText::from("{}");
        assert_ne!(a, BoxText::from("{}"));
        assert_eq!(a, a.clone());
        let mut p = page("scenario=golden");
        let text = import_text(300);
        p.json_edited(Some(text.clone()));
        let edited = p.json.clone();
        // Importing the text the box already holds keeps it (nothing to write
        // back into the box), and so do the frames after it.
        import_box(&mut p, text.clone());
        assert_eq!(p.sim().len(), 300);
        assert!(p.json == edited);
        p.apply(Action::Play);
        p.advance(100.0);
        assert!(p.json == edited);
        p.json_edited(Some(format!("{text} ")));
        assert!(p.json != edited);
        // A big text stays in the box: the model keeps what it had, and writes
        // nothing back.
        let kept = p.json.clone();
        p.json_copied();
        p.json_edited(None);
        assert!(p.json == kept);
        assert!(!p.copied);
        // Nor is a big text imported on this thread (where no worker can read it).
        let big = import_text(200_000);
        assert!(big.len() > import::WORKER_TEXT);
        import_box(&mut p, big);
        assert!(p.json == kept);
        assert!(p.building.is_some() || p.sim().len() == 200_000);
    }

    #[test]
    fn custom_requests_are_typed_or_refused() {
        let mut p = page("scenario=custom");
        p.apply_requests("2s 7s, 8000");
        assert_eq!(p.sim().times(), [2_000, 7_000, 8_000]);
        p.apply_requests("5s 1s");
        assert!(p.error(Place::Requests).unwrap().contains("sorted"));
        assert_eq!(p.sim().len(), 3);
    }

    /// A link keeps the zoom and the folds the reader left, and only those: what
    /// the page opens with by itself (1×, a step's frame, a lesson's folds) is
    /// left out, so a link written before these existed still opens the same.
    #[test]
    fn a_link_keeps_the_zoom_and_the_folds() {
        use crate::model::ONE_X;
        let mut p = page("scenario=lab-c&t=1s");
        let opened = p.query();
        assert_eq!(p.zoom, ONE_X);
        assert!(p.setup_unfolded() && p.catalog_unfolded());
        p.apply(Action::Zoom(ONE_X + 2));
        p.apply(Action::Fold(Fold::Setup, false));
        p.apply(Action::Fold(Fold::Catalog, false));
        let q = p.query();
        assert!(q.ends_with("&zoom=4&setup=folded&catalog=folded"), "{q}");
        let there = page(&q);
        assert_eq!(there.zoom, ONE_X + 2);
        assert!(!there.setup_unfolded() && !there.catalog_unfolded());
        assert_eq!(there.query(), q);
        // Back as the page opens: nothing in the link.
        p.apply(Action::Zoom(ONE_X));
        p.apply(Action::Fold(Fold::Setup, true));
        p.apply(Action::Fold(Fold::Catalog, true));
        assert_eq!(p.query(), opened);
        // A step frames the whole run (lab B's), folded: its link needs neither…
        let whole = (0..9)
            .filter_map(|i| OpenLesson::new("lab-b", i))
            .find(|o| o.def().is_some_and(|d| d.whole_run))
            .expect("a step of lab B about its whole run");
        let mut l = page(&format!("lesson=lab-b&step={}", whole.step + 1));
        while l.advance(1_000.0) {}
        let framed = l.zoom;
        assert!(framed < ONE_X);
        assert!(!l.setup_unfolded() && !l.catalog_unfolded());
        assert!(!l.query().contains("zoom=") && !l.query().contains("setup="));
        // …until the learner changes them; opening another step sets them again.
        l.apply(Action::Zoom(ONE_X));
        l.apply(Action::Fold(Fold::Setup, true));
        let q = l.query();
        assert!(q.contains("zoom=1&setup=open"), "{q}");
        let there = page(&q);
        assert_eq!(there.zoom, ONE_X);
        assert!(there.setup_unfolded());
        l.apply(Action::OpenLesson(OpenLesson::new("lab-b", 0).unwrap()));
        assert_eq!(
            (l.zoom, l.setup_unfolded()),
            (ONE_X, true),
            "replaying keeps them"
        );
        l.apply(Action::OpenLesson(OpenLesson::new("golden", 0).unwrap()));
        assert_eq!((l.zoom, l.setup_unfolded()), (ONE_X, false));
        // A zoom the page cannot show is cut to the closest it can.
        l.apply(Action::Zoom(u32::MAX));
        assert_eq!(l.zoom, crate::model::MAX_ZOOM);
    }

    #[test]
    fn a_lesson_opens_its_setup_and_plays_to_its_moment() {
        let mut p = page("lesson=float&lang=vi");
        assert_eq!(p.setup().scenario, ScenarioId::FloatEdge);
        assert_eq!(p.lang, Lang::Vi);
        assert!(p.playing && p.now == 0);
        assert_eq!(p.stop_at, Some(11_000));
        while p.advance(100.0) {}
        assert_eq!((p.now, p.selected()), (11_000, Some(9)));
        assert!(p.lesson_setup_kept());
        assert!(p.query().ends_with("&lesson=float"), "{}", p.query());
        // The page's own link reopens the same view, not playing.
        let again = page(&p.query());
        assert_eq!(
            (again.now, again.playing, again.lesson),
            (11_000, false, p.lesson)
        );
        // Changing the setup keeps the lesson open; reopening restores its setup.
        p.add_lane(Algorithm::SlidingLog);
        assert!(p.lesson.is_some() && !p.lesson_setup_kept());
        let open = p.lesson.unwrap();
        p.apply(Action::OpenLesson(open));
        assert!(p.lesson_setup_kept());
        // With reduced motion it shows the moment at once.
        let mut r = page("lesson=golden&step=4");
        assert_eq!(r.step_lane(), Some(3));
        r.set_reduced_motion(true);
        assert_eq!((r.now, r.playing), (15_000, false));
        r.apply(Action::OpenLesson(OpenLesson::new("edge", 1).unwrap()));
        assert_eq!(
            (r.now, r.playing, r.setup().scenario),
            (11_000, false, ScenarioId::EdgeBurst)
        );
        // Pausing drops the stop; closing keeps the setup.
        r.apply(Action::CloseLesson);
        assert_eq!(
            (r.lesson, r.setup().scenario),
            (None, ScenarioId::EdgeBurst)
        );
    }

    #[test]
    fn a_step_names_its_lane_while_that_lane_runs_its_limiter() {
        // The golden walk's step 4 is about the fourth of seven lanes.
        let mut p = page("lesson=golden&step=4");
        assert_eq!(p.step_lane(), Some(3));
        assert_eq!(
            p.setup().lanes[3].algorithm,
            Algorithm::SlidingWindowCounter
        );
        p.apply(Action::OpenLesson(OpenLesson::new("golden", 6).unwrap()));
        assert_eq!(p.step_lane(), Some(6));
        // A step about every lane names none; nor does the page with no step open.
        p.apply(Action::OpenLesson(OpenLesson::new("edge", 0).unwrap()));
        assert_eq!(p.step_lane(), None);
        p.apply(Action::OpenLesson(
            OpenLesson::new("logs-denials", 0).unwrap(),
        ));
        assert_eq!(p.step_lane(), Some(0));
        // Removing it moves another limiter into its place.
        p.remove_lane(0);
        assert_eq!(p.step_lane(), None);
        p.apply(Action::CloseLesson);
        assert_eq!(p.step_lane(), None);
    }

    #[test]
    fn a_new_scenario_starts_over() {
        let mut p = page("scenario=golden&t=11s");
        edit(&mut p, Field::Limit, "0");
        p.apply(Action::Scenario(ScenarioId::LabC));
        assert_eq!((p.now, p.errors.len()), (0, 0));
        // Lab C's table: two token buckets, GCRA, the leaky queue and nginx.
        assert_eq!(p.sim().lanes().len(), 5);
    }
}

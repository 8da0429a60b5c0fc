//! The playground as a plain Rust state machine: every user action is a method, and
//! [`Playground::render`] says which parts of the page need new markup. No signals,
//! no DOM: tested natively (the tests below drive it like a user would).
//!
//! The Leptos component ([`crate::app`]) owns one `Playground`, calls its methods
//! from delegated event handlers and the animation loop, and writes what `render`
//! returns into the page. Each part is redrawn only when what it shows changed (its
//! *key* differs from the last render): the marks when the span, the selection or
//! the set of arrived requests change; a lane's state every frame; the tables when a
//! request arrives.

use ratelab_core::{Algorithm, MAX_COUNT};
use ratelab_sim::share::{
    self, normalise_ids, parse_count, parse_duration, Link, Notice, Setup, View,
    MAX_PLAYGROUND_LANES,
};
use ratelab_sim::sweep::Sweep;
use ratelab_sim::{Config, LaneSpec, ScenarioId};

use crate::draw::{self, MarkContext, Scale, REVEAL_MARKS};
use crate::html::{self, Fills, FormState};
use crate::i18n::{title, Lang};
use crate::model::{time_label, Sim};

/// How a playground is mounted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MountOptions {
    /// Inside another page (custom element, iframe, JS `mount`): no global keyboard
    /// handlers (keys work when the playground has focus), no URL writes.
    pub embed: bool,
    /// The compact variant: lanes, clock and yardstick only.
    pub compact: bool,
    /// The setup and view to open, from [`share::parse`].
    pub link: Link,
    /// What the parser ignored, shown once.
    pub notices: Vec<Notice>,
}

impl MountOptions {
    /// The full page from a query string (`location.search`).
    pub fn page(query: &str) -> MountOptions {
        let (link, notices) = share::parse(query);
        MountOptions {
            embed: false,
            compact: false,
            link,
            notices,
        }
    }
}

/// Lab D's sweep result and how long it took, in ms.
pub type SweepResult = Result<(Sweep, f64), String>;

/// Markup for the parts of the page that changed since the last render.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parts {
    /// Title and language switch.
    pub head: Option<String>,
    /// Notices about ignored settings.
    pub notices: Option<String>,
    /// The setup form.
    pub setup: Option<String>,
    /// The clock bar (its frame; the moving values are in [`Parts::clock`]).
    pub controls: Option<String>,
    /// The lanes' frames (then every layer below is given too).
    pub lanes: Option<String>,
    /// Per lane: the marks layer, and whether it shows columns.
    pub marks: Option<Vec<(String, bool)>>,
    /// Per lane: the state layer and the side panel, each only if it changed since
    /// it was last written (most frames change few of them).
    pub frame: Option<Vec<[Option<String>; 2]>>,
    /// The clock's position on the lanes' timelines (the same for every lane), px,
    /// when it moved: the clock line and the veil are moved, not redrawn.
    pub clock_x: Option<(i64, i64)>,
    /// Requests that arrived (or, scrubbing back, un-arrived) since the marks were
    /// drawn: their marks change state by attribute instead of a redraw.
    pub reveal: Option<Reveal>,
    /// The selection moved from the first request to the second: move the marks'
    /// outline by class instead of a redraw.
    pub select: Option<(Option<u64>, Option<u64>)>,
    /// User text for the parts above (drafts, the JSON box, messages quoting input,
    /// notices quoting the link, keys): filled in as text after the markup.
    pub fills: Fills,
    /// The yardstick table.
    pub yardstick: Option<String>,
    /// The trace table.
    pub trace: Option<String>,
    /// What the live region says.
    pub live: Option<String>,
    /// The clock bar's moving values.
    pub clock: Option<Clock>,
}

/// Marks to switch between "not arrived yet" and their outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reveal {
    /// Request indices `[from, to)` whose marks change.
    pub from: u64,
    /// End (exclusive).
    pub to: u64,
    /// Whether they arrived (else they go back to pending).
    pub arrived: bool,
    /// The tooltip of a pending mark.
    pub pending_text: &'static str,
}

/// The clock bar's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The scrubber's value (ms).
    pub now: u64,
    /// The scrubber's end (ms).
    pub end: u64,
    /// The time as text.
    pub text: String,
    /// Playing?
    pub playing: bool,
    /// The play button's label.
    pub play_label: &'static str,
}

/// What each part showed last time (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
struct Keys {
    head: Option<Lang>,
    notices: Option<u64>,
    setup: Option<u64>,
    controls: Option<(Lang, bool, bool, u32)>,
    lanes: Option<(u64, Lang, u64)>,
    marks: Option<MarksKey>,
    frame: Option<FrameKey>,
    /// What each lane's state layer and side panel last showed.
    frame_text: Vec<[String; 2]>,
    clock_x: Option<(i64, i64)>,
    /// The request whose marks are outlined.
    selected: Option<u64>,
    /// How many requests the drawn marks show as arrived, if they show arrival (a
    /// span with more than [`REVEAL_MARKS`] marks shows it by the veil alone).
    revealed: Option<u64>,
    yardstick: Option<(u64, u64, Lang, bool)>,
    trace: Option<(u64, Option<u64>, Lang)>,
    live: Option<(u64, Option<u64>, Lang)>,
    clock: Option<Clock>,
}

/// version, now, selected, highlight, lang, width, span.
type FrameKey = (u64, u64, Option<u64>, bool, Lang, u64, (u64, u64));

#[derive(Clone, Debug, PartialEq)]
struct MarksKey {
    version: u64,
    span: (u64, u64),
    width: u64,
    revealed: u64,
    highlight: bool,
    lang: Lang,
}

/// Everything the playground holds.
#[derive(Debug)]
pub struct Playground {
    /// The setup (what runs; the view is the fields below, see [`Playground::view`]).
    pub share: Setup,
    /// What it runs.
    pub sim: Sim,
    /// The virtual clock, ms.
    pub now: u64,
    /// Whether the clock runs.
    pub playing: bool,
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
    /// Inline errors of form fields: `(field name, message)`.
    pub errors: Vec<(String, String)>,
    /// The custom stream as typed, when it could not be applied.
    pub requests_draft: Option<String>,
    /// The JSON box's text.
    pub json: String,
    /// Whether the JSON box is open.
    pub json_open: bool,
    /// Whether the JSON was just copied.
    pub copied: bool,
    /// Lab D's sweep result.
    pub sweep: Option<SweepResult>,
    /// Whether the sweep is running.
    pub sweep_running: bool,
    /// Width of a lane's timeline, px.
    pub width: f64,
    /// Mounted in another page.
    pub embed: bool,
    /// The compact variant.
    pub compact: bool,
    /// Reduced motion: the clock jumps from request to request.
    pub reduced_motion: bool,
    /// Makes element ids unique on a page with several playgrounds.
    pub uid: u32,
    /// Bumped when `sim` changes.
    version: u64,
    /// Bumped when the form's content changes.
    form: u64,
    /// Bumped when the notices change.
    notes: u64,
    /// The clock's exact position while playing (fractions of a ms add up).
    virtual_ms: f64,
    keys: Keys,
}

impl Playground {
    /// A playground for `options`. A setup the engine refuses (which `share::parse`
    /// already prevents) falls back to the default one with a notice; only if that
    /// failed too is there an error.
    pub fn new(options: MountOptions) -> Result<Playground, String> {
        let MountOptions {
            embed,
            compact,
            link: Link { setup: state, view },
            notices,
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
        let now = view.t_ms.min(sim.end());
        Ok(Playground {
            lang: Lang::from_code(view.lang),
            speed: view.speed_permille,
            highlight: view.highlight,
            chosen,
            now,
            playing: false,
            share,
            sim,
            notices: notes,
            errors: Vec::new(),
            requests_draft: None,
            json: String::new(),
            json_open: false,
            copied: false,
            sweep: None,
            sweep_running: false,
            width: 720.0,
            embed,
            compact,
            reduced_motion: false,
            uid: 0,
            version: 0,
            form: 0,
            notes: 0,
            virtual_ms: now as f64,
            keys: Keys::default(),
        })
    }

    // ---- Derived --------------------------------------------------------------

    /// How many requests have arrived by now.
    pub fn revealed(&self) -> u64 {
        self.sim.revealed(self.now)
    }

    /// The request the trace explains: the clicked one if it has arrived, else the
    /// latest at or before now.
    pub fn selected(&self) -> Option<u64> {
        self.sim.selected(self.now, self.chosen)
    }

    /// Where the clock stops.
    pub fn end(&self) -> u64 {
        self.sim.end()
    }

    /// How the setup is looked at, as a link writes it.
    pub fn view(&self) -> View {
        View {
            t_ms: self.now,
            speed_permille: self.speed,
            lang: View::lang_code(self.lang.code()).unwrap_or("en"),
            selected: self.chosen,
            highlight: self.highlight,
        }
    }

    /// The whole view as a query string (what the URL and `Playground.query()` say).
    pub fn query(&self) -> String {
        share::to_query(&self.share, &self.view())
    }

    /// The inline error of field `name`.
    pub fn error(&self, name: &str) -> Option<&str> {
        self.errors
            .iter()
            .find(|(f, _)| f == name)
            .map(|(_, m)| m.as_str())
    }

    // ---- Setup ----------------------------------------------------------------

    /// Changes the setup: the new one is built and run first, so an error (the
    /// engine's message) leaves everything as it was.
    pub fn change(&mut self, f: &mut dyn FnMut(&mut Setup)) -> Result<(), String> {
        let mut next = self.share.clone();
        f(&mut next);
        let sim = Sim::new(&next)?;
        self.sim = sim;
        self.share = next;
        self.chosen = None;
        self.requests_draft = None;
        self.version += 1;
        self.form += 1;
        self.now = self.now.min(self.end());
        self.virtual_ms = self.now as f64;
        Ok(())
    }

    fn set_error(&mut self, field: &str, error: Option<String>) {
        let before = self.errors.len();
        self.errors.retain(|(f, _)| f != field);
        let changed = before != self.errors.len() || error.is_some();
        if let Some(e) = error {
            self.errors.push((field.to_string(), e));
        }
        if changed {
            self.form += 1;
        }
    }

    /// A form field was changed (`name` as in the markup, `value` as typed; a
    /// checkbox gives `"true"`/`"false"`). Bad values leave the setup as it was and
    /// set the field's inline error.
    pub fn field(&mut self, name: &str, value: &str) {
        match name {
            "lang" => {
                self.lang = Lang::from_code(value);
                self.form += 1;
                self.notes += 1;
            }
            "scenario" => {
                let id = ScenarioId::from_id(value).unwrap_or(ScenarioId::DEFAULT);
                let r = self.change(&mut |s| *s = Setup::for_scenario(id));
                self.errors.clear();
                self.set_error("scenario", r.err());
                self.playing = false;
                self.now = 0;
                self.virtual_ms = 0.0;
                self.sweep = None;
            }
            "limit" => {
                let r = parse_count(value, MAX_COUNT).and_then(|n| {
                    self.change(&mut |s| {
                        let p = s.budget().1;
                        s.set_budget(n, p);
                    })
                });
                self.set_error("limit", r.err());
            }
            "period" => {
                let r = parse_duration(value).and_then(|p| {
                    self.change(&mut |s| {
                        let n = s.budget().0;
                        s.set_budget(n, p);
                    })
                });
                self.set_error("period", r.err());
            }
            "add" => {
                if let Some(a) = Algorithm::from_id(value) {
                    let r = self.change(&mut |s| {
                        let (n, p) = s.budget();
                        if s.lanes.len() < MAX_PLAYGROUND_LANES {
                            s.lanes.push(LaneSpec::simple(a, n, p));
                            normalise_ids(&mut s.lanes);
                        }
                    });
                    self.set_error("add", r.err());
                }
            }
            "requests" => {
                self.requests_draft = Some(value.to_string());
            }
            "json" => self.json = value.to_string(),
            other => self.lane_field(other, value),
        }
    }

    /// `laneJ.limit`, `.period`, `.burst`, `.delay` (empty = default), `.nodelay`.
    fn lane_field(&mut self, name: &str, value: &str) {
        let Some((lane, what)) = name.strip_prefix("lane").and_then(|r| r.split_once('.')) else {
            return;
        };
        let Ok(j) = lane.parse::<usize>() else { return };
        let optional = what == "burst" || what == "delay";
        let parsed: Result<Option<u64>, String> = match what {
            "nodelay" => Ok(Some(u64::from(value == "true"))),
            _ if optional && value.trim().is_empty() => Ok(None),
            "period" => parse_duration(value).map(Some),
            _ => parse_count(value, MAX_COUNT).map(Some),
        };
        let r = parsed.and_then(|v| {
            self.change(&mut |s| {
                let Some(l) = s.lanes.get_mut(j) else { return };
                // The form only shows a lane's own options; anything else (a
                // hand-made event) is ignored rather than stored where it means
                // nothing and would not survive the link.
                let a = l.algorithm;
                let own = match what {
                    "burst" => a.uses_burst(),
                    "delay" | "nodelay" => a == ratelab_core::Algorithm::Nginx,
                    _ => true,
                };
                if !own {
                    return;
                }
                let p = &mut l.params;
                match what {
                    "limit" => p.limit = v.unwrap_or(0),
                    "period" => p.period_ms = v.unwrap_or(0),
                    "burst" => p.burst = v,
                    "delay" => {
                        p.delay = v;
                        if v.is_some() {
                            p.nodelay = false;
                        }
                    }
                    "nodelay" => {
                        p.nodelay = v == Some(1);
                        if p.nodelay {
                            p.delay = None;
                        }
                    }
                    _ => {}
                }
            })
        });
        let field = if what == "nodelay" {
            format!("lane{j}.delay")
        } else {
            name.to_string()
        };
        self.set_error(&field, r.err());
    }

    /// Removes lane `j` (one always stays).
    pub fn remove_lane(&mut self, j: usize) {
        let r = self.change(&mut |s| {
            if s.lanes.len() > html::MIN_LANES && j < s.lanes.len() {
                s.lanes.remove(j);
                normalise_ids(&mut s.lanes);
            }
        });
        self.set_error("add", r.err());
    }

    /// Applies the custom stream as typed (times separated by commas or spaces).
    pub fn apply_requests(&mut self, text: &str) {
        let raw = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join(",");
        let r = share::parse_requests(&raw).and_then(|stream| {
            let mut stream = Some(stream);
            self.change(&mut |s| {
                if let Some(st) = stream.take() {
                    s.requests = st;
                }
            })
        });
        if r.is_err() {
            self.requests_draft = Some(text.to_string());
        }
        self.set_error("requests", r.err());
    }

    /// Fills the JSON box with the current setup in the command line's format.
    pub fn export_json(&mut self) {
        self.json = self
            .share
            .to_config()
            .map(|c| c.to_json())
            .unwrap_or_else(|e| e.to_string());
        self.json_open = true;
        self.copied = false;
        self.set_error("json", None);
        self.form += 1;
    }

    /// Reads the JSON box (the command line's format) into a custom setup.
    pub fn import_json(&mut self, text: &str) {
        self.json = text.to_string();
        self.json_open = true;
        let result = Config::from_json(text).map_err(String::from).and_then(|c| {
            let mut lanes = c.lanes;
            if lanes.len() > MAX_PLAYGROUND_LANES {
                self.notices.push(format!(
                    "limiters: {} given, showing the first {MAX_PLAYGROUND_LANES}",
                    lanes.len()
                ));
                self.notes += 1;
                lanes.truncate(MAX_PLAYGROUND_LANES);
            }
            normalise_ids(&mut lanes);
            let mut parts = Some((lanes, c.stream, c.window_ms));
            self.change(&mut |s| {
                if let Some((lanes, stream, window_ms)) = parts.take() {
                    *s = Setup::for_scenario(ScenarioId::Custom);
                    s.lanes = lanes;
                    s.requests = stream;
                    s.window_ms = window_ms;
                }
            })
        });
        if result.is_ok() {
            self.now = 0;
            self.virtual_ms = 0.0;
        }
        self.set_error("json", result.err());
        self.form += 1;
    }

    /// The JSON box was opened or closed by the user.
    pub fn set_json_open(&mut self, open: bool) {
        self.json_open = open;
    }

    /// The JSON was copied to the clipboard.
    pub fn mark_copied(&mut self) {
        self.copied = true;
        self.form += 1;
    }

    /// The sweep started.
    pub fn sweep_started(&mut self) {
        self.sweep_running = true;
        self.form += 1;
    }

    /// The sweep finished (or failed).
    pub fn sweep_done(&mut self, result: SweepResult) {
        self.sweep = Some(result);
        self.sweep_running = false;
        self.form += 1;
    }

    /// Hides the notices.
    pub fn dismiss(&mut self) {
        self.notices.clear();
        self.notes += 1;
    }

    // ---- Clock ------------------------------------------------------------------

    /// Moves the clock (up to the end) and stops it.
    pub fn seek(&mut self, t: u64) {
        self.playing = false;
        self.chosen = None;
        self.now = t.min(self.end());
        self.virtual_ms = self.now as f64;
    }

    /// To the next request (or the end).
    pub fn step_next(&mut self) {
        let t = self.sim.next_time(self.now).unwrap_or(self.end());
        self.seek(t);
    }

    /// To the previous request (or 0).
    pub fn step_prev(&mut self) {
        let t = self.sim.prev_time(self.now).unwrap_or(0);
        self.seek(t);
    }

    /// Play or pause; playing from the end starts over. Returns whether it plays.
    pub fn toggle_play(&mut self) -> bool {
        if self.playing {
            self.playing = false;
            return false;
        }
        if self.now >= self.end() {
            self.now = 0;
        }
        self.virtual_ms = self.now as f64;
        self.chosen = None;
        self.playing = true;
        true
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
        let end = self.end();
        let t = self.virtual_ms as u64;
        if t >= end {
            self.now = end;
            self.playing = false;
            return false;
        }
        self.now = if self.reduced_motion {
            self.sim
                .revealed(t)
                .checked_sub(1)
                .and_then(|i| self.sim.request(i))
                .map_or(self.now, |r| r.t.max(self.now))
        } else {
            t
        };
        true
    }

    /// Sets the speed (thousandths; one of [`share::SPEEDS_PERMILLE`]).
    pub fn set_speed(&mut self, permille: u32) {
        if share::SPEEDS_PERMILLE.contains(&permille) {
            self.speed = permille;
        }
    }

    /// Sends a request at the current virtual time (the manual scenario only; the
    /// requests go into the link).
    pub fn send(&mut self) {
        if !self.is_manual() {
            return;
        }
        match self.sim.send(self.now) {
            Ok(_) => {
                self.share.requests = ratelab_sim::Stream::from_times(self.sim.times());
                self.chosen = None;
                self.version += 1;
            }
            Err(e) => {
                self.notices.push(e);
                self.notes += 1;
            }
        }
    }

    /// Selects request `index` (a click on its mark).
    pub fn select(&mut self, index: u64) {
        if self.sim.request(index).is_some() {
            self.chosen = Some(index);
        }
    }

    /// Highlight the busiest windows, or stop.
    pub fn toggle_highlight(&mut self) {
        self.highlight = !self.highlight;
    }

    /// The lanes' width changed.
    pub fn set_width(&mut self, width: f64) {
        self.width = width.max(200.0).floor();
    }

    /// Whether the scenario is the manual one (the "send" button and key).
    pub fn is_manual(&self) -> bool {
        self.share.scenario == ScenarioId::Manual
    }

    // ---- Rendering --------------------------------------------------------------

    /// The markup of every part whose content changed since the last call.
    pub fn render(&mut self) -> Parts {
        let mut parts = Parts::default();
        let lang = self.lang;
        let w = lang.words();
        let revealed = self.revealed();
        let selected = self.selected();
        let span = self.sim.span(self.now);
        let width = self.width as u64;
        let scale = Scale {
            from: span.0,
            to: span.1,
            width: self.width,
        };

        if !self.compact && self.keys.head != Some(lang) {
            self.keys.head = Some(lang);
            parts.head = Some(html::masthead(lang));
        }
        let notes_key = self.notes;
        if self.keys.notices != Some(notes_key) {
            self.keys.notices = Some(notes_key);
            parts.notices = Some(html::notices(&self.notices, w, &mut parts.fills));
        }
        if !self.compact && self.keys.setup != Some(self.form) {
            self.keys.setup = Some(self.form);
            parts.setup = Some(html::setup(
                &self.share,
                lang,
                &FormState {
                    errors: &self.errors,
                    requests_draft: self.requests_draft.as_deref(),
                    json: &self.json,
                    json_open: self.json_open,
                    sweep_running: self.sweep_running,
                    sweep: self.sweep.as_ref(),
                    copied: self.copied,
                    uid: self.uid,
                },
                &mut parts.fills,
            ));
        }
        let controls_key = (lang, self.is_manual(), self.highlight, self.speed);
        if self.keys.controls != Some(controls_key) {
            self.keys.controls = Some(controls_key);
            parts.controls = Some(html::controls(
                lang,
                self.speed,
                self.is_manual(),
                self.highlight,
            ));
            self.keys.clock = None;
        }
        let clock = Clock {
            now: self.now,
            end: self.end(),
            text: time_label(self.now),
            playing: self.playing,
            play_label: if self.playing { w.pause } else { w.play },
        };
        if self.keys.clock.as_ref() != Some(&clock) {
            self.keys.clock = Some(clock.clone());
            parts.clock = Some(clock);
        }
        let lanes_key = (self.version, lang, width);
        let new_frames = self.keys.lanes != Some(lanes_key);
        if new_frames {
            self.keys.lanes = Some(lanes_key);
            parts.lanes = Some(html::lanes(&self.sim, lang, self.compact, self.width));
        }
        // Marks: `revealed` matters only where marks show arrival.
        let marks_key = MarksKey {
            version: self.version,
            span,
            width,
            // Arrival shows on marks only when they are few; the busiest window
            // grows with arrivals.
            // With the busiest window highlighted, arrivals move it: redraw.
            // Otherwise arrivals only flip marks (see `Parts::reveal`).
            revealed: if self.highlight { revealed } else { 0 },
            highlight: self.highlight,
            lang,
        };
        if new_frames || self.keys.marks.as_ref() != Some(&marks_key) {
            self.keys.marks = Some(marks_key);
            parts.marks = Some(self.draw_marks(scale, revealed, selected));
            self.keys.selected = selected;
            let shown = self.sim.timeline.visible(span.0, span.1);
            self.keys.revealed =
                (shown.end - shown.start <= REVEAL_MARKS as u64).then_some(revealed);
        } else if let Some(old) = self.keys.revealed.filter(|&old| old != revealed) {
            self.keys.revealed = Some(revealed);
            parts.reveal = Some(Reveal {
                from: old.min(revealed),
                to: old.max(revealed),
                arrived: revealed > old,
                pending_text: w.pending,
            });
        }
        if self.keys.selected != selected {
            // The selection moves (by default with the clock): move the outline.
            parts.select = Some((self.keys.selected, selected));
            self.keys.selected = selected;
        }
        let key = self.sim.key_of(selected);
        let frame_key = (
            self.version,
            self.now,
            selected,
            self.highlight,
            lang,
            width,
            span,
        );
        if new_frames {
            self.keys.frame_text.clear();
            self.keys.clock_x = None;
        }
        if new_frames || self.keys.frame != Some(frame_key) {
            self.keys.frame = Some(frame_key);
            let now = self.now;
            let lanes = self.sim.lanes().len();
            self.keys.frame_text.resize_with(lanes, Default::default);
            let mut changed = false;
            let frames = (0..lanes)
                .map(|j| {
                    let snap = self.sim.snapshot(j, &key, now);
                    let busiest = if self.highlight {
                        self.sim.busiest(j, now)
                    } else {
                        None
                    };
                    let headers = self.sim.headers(j, &key, now);
                    let fresh = [
                        draw::under(snap.as_ref(), now, scale, busiest.as_ref(), w),
                        draw::side(snap.as_ref(), headers.as_ref(), w),
                    ];
                    let last = self.keys.frame_text.get_mut(j);
                    fresh.map(|text| {
                        // Writing markup costs the browser a parse, a style pass and
                        // a layout: skip what did not change.
                        let same = last.as_ref().is_some_and(|l| l.contains(&text));
                        (!same).then_some(text)
                    })
                })
                .collect::<Vec<_>>();
            for (j, f) in frames.iter().enumerate() {
                if let Some(slot) = self.keys.frame_text.get_mut(j) {
                    for (k, text) in f.iter().enumerate() {
                        if let Some(t) = text {
                            changed = true;
                            if let Some(cell) = slot.get_mut(k) {
                                cell.clone_from(t);
                            }
                        }
                    }
                }
            }
            if changed {
                parts.frame = Some(frames);
            }
            let x = draw::clock_x(now, scale);
            if self.keys.clock_x != Some(x) {
                self.keys.clock_x = Some(x);
                parts.clock_x = Some(x);
            }
        }
        let yard_key = (self.version, revealed, lang, self.highlight);
        if self.keys.yardstick != Some(yard_key) {
            self.keys.yardstick = Some(yard_key);
            parts.yardstick = Some(html::yardstick(&self.sim, self.now, lang, self.highlight));
        }
        let trace_key = (self.version, selected, lang);
        if !self.compact && self.keys.trace != Some(trace_key) {
            self.keys.trace = Some(trace_key);
            parts.trace = Some(html::trace(&self.sim, selected, lang, &mut parts.fills));
        }
        if self.keys.live != Some(trace_key) {
            self.keys.live = Some(trace_key);
            parts.live = Some(self.live_text(selected));
        }
        parts
    }

    /// Forgets what was rendered (the page was re-created): the next render gives
    /// every part.
    pub fn invalidate(&mut self) {
        self.keys = Keys::default();
    }

    fn draw_marks(
        &self,
        scale: Scale,
        revealed: u64,
        selected: Option<u64>,
    ) -> Vec<(String, bool)> {
        let w = self.lang.words();
        let keys = self.sim.timeline.keys();
        (0..self.sim.lanes().len())
            .map(|j| {
                let busiest = if self.highlight {
                    self.sim.busiest(j, self.now)
                } else {
                    None
                };
                let matches = |k: u32| {
                    busiest
                        .as_ref()
                        .is_some_and(|b| keys.get(k as usize) == Some(&b.key))
                };
                match self.sim.marks(j, scale.from, scale.to) {
                    Some(m) => {
                        let c = MarkContext {
                            scale,
                            revealed: (m.len() <= REVEAL_MARKS).then_some(revealed),
                            selected,
                            busiest: busiest.as_ref(),
                            key_matches: &matches,
                            words: w,
                        };
                        (draw::marks(&m, &c), false)
                    }
                    None => {
                        let n = (scale.width / 3.0).max(1.0) as usize;
                        let cols = self.sim.columns(j, scale.from, scale.to, n);
                        (draw::columns(&cols, scale), true)
                    }
                }
            })
            .collect()
    }

    /// What the live region says: the selected request's fate in each lane.
    fn live_text(&self, selected: Option<u64>) -> String {
        let w = self.lang.words();
        let Some((i, r)) = selected.and_then(|i| self.sim.request(i).map(|r| (i, r))) else {
            return String::new();
        };
        let mut out = format!("{} #{} {}: ", w.request, i + 1, time_label(r.t));
        for (j, lane) in self.sim.lanes().iter().enumerate() {
            let word = match self.sim.timeline.outcome(j, i) {
                Some(o) if !o.allowed => w.deny,
                Some(o) if o.wait_ms().unwrap_or(0) > 0 => w.delay_for,
                Some(_) => w.allow,
                None => w.pending,
            };
            if j > 0 {
                out.push_str("; ");
            }
            out.push_str(title(lane.algorithm, self.lang));
            out.push(' ');
            out.push_str(word);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(q: &str) -> Playground {
        Playground::new(MountOptions::page(q)).unwrap()
    }

    #[test]
    fn the_default_page_is_the_golden_stream_with_three_lanes() {
        let mut p = page("");
        let parts = p.render();
        assert!(parts.head.is_some() && parts.setup.is_some() && parts.lanes.is_some());
        assert_eq!(parts.marks.as_ref().map(Vec::len), Some(3));
        // Nothing changed: nothing to redraw.
        let again = p.render();
        assert_eq!(again, Parts::default());
    }

    #[test]
    fn stepping_reveals_marks_without_redrawing_them() {
        let mut p = page("");
        p.render();
        p.step_next();
        assert_eq!(p.now, 2_000);
        let parts = p.render();
        // The first request arrived: its marks flip to their outcome and take the
        // selection; nothing is redrawn but the state and the trace.
        assert!(parts.marks.is_none() && parts.frame.is_some() && parts.trace.is_some());
        assert_eq!(
            parts.reveal.as_ref().map(|r| (r.from, r.to, r.arrived)),
            Some((0, 1, true))
        );
        assert_eq!(parts.select, Some((None, Some(0))));
        assert!(parts.live.unwrap().starts_with("Request #1 2 s: "));
        // Moving the clock between requests moves the clock (and redraws the state
        // where it changed), not the marks.
        p.now = 2_500;
        let parts = p.render();
        assert!(parts.marks.is_none() && parts.clock_x.is_some() && parts.yardstick.is_none());
        // The fixed window's picture is the same at 2.5 s as at 2 s: not rewritten.
        let fixed = parts.frame.as_ref().and_then(|f| f.first());
        assert!(fixed.is_none_or(|[under, _]| under.is_none()));
        for _ in 0..20 {
            p.step_next();
        }
        assert_eq!(p.sim.marks_text(0, p.now), "✓✓✓✓✓✗✓✓✓✓✓✗");
        assert_eq!(p.now, p.end());
    }

    #[test]
    fn bad_field_values_keep_the_setup_and_say_why() {
        let mut p = page("");
        for (name, value, error) in [
            ("limit", "0", "limit: must be > 0"),
            ("limit", "-3", "must be a whole number, got \"-3\""),
            ("limit", "NaN", "must be a whole number, got \"NaN\""),
            ("limit", "", "must be a whole number, got nothing"),
            ("limit", "1e20", "must be a whole number, got \"1e20\""),
            ("period", "0", "period_ms: must be > 0"),
            ("lane2.burst", "0", "limiters[2].burst: must be > 0"),
            (
                "lane0.limit",
                "100000000000000000000",
                "100000000000000000000 is too large (at most",
            ),
        ] {
            let before = p.share.clone();
            p.field(name, value);
            assert_eq!(p.share, before, "{name}={value}");
            let e = p
                .error(name)
                .unwrap_or_else(|| panic!("no error for {name}={value}"));
            assert!(e.contains(error), "{name}={value}: {e}");
        }
        // A good value clears the error and applies to every lane.
        p.field("limit", "3");
        assert_eq!(p.error("limit"), None);
        assert!(p.share.lanes.iter().all(|l| l.params.limit == 3));
    }

    #[test]
    fn lanes_are_added_removed_and_tuned() {
        let mut p = page("");
        p.field("add", "nginx");
        p.field("add", "token_bucket_f64");
        p.field("add", "gcra");
        p.field("add", "leaky_queue");
        assert_eq!(p.share.lanes.len(), MAX_PLAYGROUND_LANES);
        p.field("lane3.delay", "2");
        assert_eq!(p.share.lanes[3].params.delay, Some(2));
        p.field("lane3.nodelay", "true");
        assert!(p.share.lanes[3].params.nodelay);
        p.remove_lane(0);
        assert_eq!(p.share.lanes[0].algorithm, Algorithm::SlidingLog);
        assert!(p
            .query()
            .contains("limiters=sliding_log,token_bucket,nginx,token_bucket_f64,gcra"));
        // Removing stops at three lanes.
        for _ in 0..5 {
            p.remove_lane(0);
        }
        assert_eq!(p.share.lanes.len(), html::MIN_LANES);
    }

    #[test]
    fn the_url_round_trips_the_view() {
        let mut p =
            page("scenario=golden&limiters=fixed_window,leaky_queue&t=11.2s&hl=1&lang=vi&speed=2");
        assert_eq!(
            (p.now, p.highlight, p.lang, p.speed),
            (11_200, true, Lang::Vi, 2_000)
        );
        p.select(9);
        let q = p.query();
        let again = page(&q);
        assert_eq!(again.query(), q);
        assert_eq!(again.chosen, Some(9));
    }

    #[test]
    fn invalid_url_values_become_notices() {
        let mut p = page("limit=abc&t=soon&sel=99");
        assert_eq!(p.notices.len(), 3, "{:?}", p.notices);
        let parts = p.render();
        // The notices quote the link: filled in as text, not markup.
        assert!(parts
            .notices
            .unwrap()
            .contains(r#"<code data-fill="notice:0"></code>"#));
        assert!(parts
            .fills
            .0
            .iter()
            .any(|(k, t)| k == "notice:0" && t.contains("limit=abc")));
        p.dismiss();
        assert_eq!(p.render().notices.as_deref(), Some(""));
    }

    #[test]
    fn manual_sends_at_the_clock() {
        let mut p = page("scenario=manual");
        assert!(p.is_manual());
        p.send();
        p.now = 1_000;
        p.send();
        assert_eq!(p.sim.len(), 2);
        assert_eq!(p.selected(), Some(1));
        // The link carries them.
        let again = page(&p.query());
        assert_eq!(again.sim.times(), [0, 1_000]);
        // Elsewhere there is no sending.
        let mut g = page("");
        g.send();
        assert_eq!(g.sim.len(), 12);
    }

    #[test]
    fn the_clock_plays_at_speed_and_stops_at_the_end() {
        let mut p = page("speed=4");
        assert!(p.toggle_play());
        assert!(p.advance(100.0));
        assert_eq!(p.now, 400);
        while p.advance(100.0) {}
        assert_eq!((p.now, p.playing), (p.end(), false));
        // Reduced motion: the clock shows request times only.
        let mut p = page("");
        p.reduced_motion = true;
        p.toggle_play();
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
        let mut p = page("");
        p.export_json();
        assert!(p.json.starts_with("{\"requests\":[2000,7000"));
        p.import_json(r#"{"requests": [0, 0, 0], "limiters": [{"algorithm": "gcra", "limit": 1, "period_ms": 1000}]}"#);
        assert_eq!(p.share.scenario, ScenarioId::Custom);
        assert_eq!(p.sim.len(), 3);
        p.import_json(
            r#"{"requests": [0], "limiters": [{"algorithm": "gcra", "limit": 1, "period_ms": 0}]}"#,
        );
        assert_eq!(p.error("json"), Some("limiters[0].period_ms: must be > 0"));
        assert_eq!(p.sim.len(), 3);
    }

    #[test]
    fn custom_requests_are_typed_or_refused() {
        let mut p = page("scenario=custom");
        p.apply_requests("2s 7s, 8000");
        assert_eq!(p.sim.times(), [2_000, 7_000, 8_000]);
        p.apply_requests("5s 1s");
        assert!(p.error("requests").unwrap().contains("sorted"));
        assert_eq!(p.requests_draft.as_deref(), Some("5s 1s"));
        assert_eq!(p.sim.len(), 3);
    }
}

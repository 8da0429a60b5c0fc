//! What only a panel loaded on demand does to the playground: the setup form's
//! fields and lanes, the custom stream, the JSON box (export, import, a worker's
//! read, a big import built a slice at a time), lab D's sweep and the quiz's runs. Plain methods the
//! panels call (`ctx.update(|p| p.edit(field, &text))`), not [`Action`](super::Action)s:
//! [`Playground::apply`]'s match is in the first module with every method its arms
//! call, and these belong in the panels' chunks.

use ratelab_core::{Algorithm, MAX_COUNT};
use ratelab_sim::share::{self, normalise_ids, parse_count, parse_duration, Link, Setup};
use ratelab_sim::{Config, Extending, LaneSpec, SimError, Timeline};

use super::{
    import, Answer, BoxText, Field, Imported, LaneField, Place, Playground, Shared, Sim,
    SweepResult, MAX_PLAYGROUND_LANES, MIN_LANES,
};

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

impl Playground {
    /// Shows the run a quiz question was answered with (`ratelab_learn::quiz::Show`):
    /// the lesson closed, the link's setup (folded as the page opens), the whole run
    /// in view, played from 0 to the link's moment with its request chosen. A setup
    /// the page cannot run is a notice, and nothing changes.
    pub fn show_run(&mut self, link: &Link) {
        self.errors.clear();
        if let Err(e) = self.change(|s| *s = link.setup.clone()) {
            self.notices.push(e);
            return;
        }
        self.lesson = None;
        (self.setup_open, self.catalog_open) = (None, None);
        self.sweep = None;
        self.zoom = self.sim().whole_run_zoom();
        self.play_to(link.view.t_ms, link.view.selected);
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

//! Lessons: a guided path through the articles' results, as data that the page and
//! the command line share.
//!
//! A [`Lesson`] is a list of [`Step`]s. Each step opens a scenario with chosen lanes
//! (as a [`Link`], so exactly what a link to the page opens), says what to
//! watch, names the moment to play to (and the request whose trace to show), and
//! states what it proved. The statement is a text with slots (`{fw}`), and every
//! slot is a [`Fact`]: a [`Query`] answered by running the engine on that very
//! setup, on the requests that have arrived at the step's moment (what the page's
//! yardstick shows "so far" when its clock stops there; a test checks every number
//! the table shows). No result is ever typed into a text (a test checks that the "proved" texts
//! hold no digit outside a slot).
//!
//! ```
//! use ratelab_learn::lesson::{lesson, Lang};
//!
//! let edge = lesson("edge").unwrap().run(Lang::En).unwrap();
//! let first = &edge.steps[0];
//! // The demo article's published counts: fixed window 10, sliding log 5, bucket 6.
//! assert_eq!(first.fact("fw").unwrap().number(), Some(10));
//! assert_eq!(first.fact("sl").unwrap().number(), Some(5));
//! assert_eq!(first.fact("tb").unwrap().number(), Some(6));
//! assert!(first.proved.contains("10"));
//! ```
//!
//! The page runs the same [`Step::link`]; the end-to-end tests compare the
//! numbers it shows with `ratelab lesson ID --json`.

mod catalog;
mod query;

pub(crate) use query::group;

use ratelab_core::Algorithm;
use serde::Serialize;

use crate::judge::Judged;
pub use crate::texts::Lang;
use crate::texts::{render, Texts};
pub use catalog::LESSONS;
pub use query::{fact, Column, Fact, FactValue, Query};
use ratelab_sim::scenario::ScenarioId;
use ratelab_sim::share::{normalise_ids, Link, Setup, View};
use ratelab_sim::SimError;
use ratelab_sim::Stream;
use ratelab_sim::{run, Report};
use ratelab_sim::{Config, LaneSpec};

/// Where a lesson comes from, for grouping them on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    /// The demo article: three limiters, four steps.
    Demo,
    /// The long article's traces (sections 3.1 to 3.7).
    Traces,
    /// Labs A to E.
    Labs,
}

impl Group {
    /// The key of its title in the texts.
    pub fn text_key(self) -> &'static str {
        match self {
            Group::Demo => "group.demo",
            Group::Traces => "group.traces",
            Group::Labs => "group.labs",
        }
    }
}

/// A lane as a lesson sets it up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneDef {
    /// Which limiter.
    pub algorithm: Algorithm,
    /// N.
    pub limit: u64,
    /// W in ms.
    pub period_ms: u64,
    /// Capacity / nginx's burst, if not the default.
    pub burst: Option<u64>,
    /// nginx `delay`, if set.
    pub delay: Option<u64>,
    /// nginx `nodelay`.
    pub nodelay: bool,
}

impl LaneDef {
    /// `algorithm` at `limit` per `period_ms`, options at their defaults.
    pub const fn new(algorithm: Algorithm, limit: u64, period_ms: u64) -> LaneDef {
        LaneDef {
            algorithm,
            limit,
            period_ms,
            burst: None,
            delay: None,
            nodelay: false,
        }
    }

    /// With `burst` set.
    pub const fn burst(mut self, burst: u64) -> LaneDef {
        self.burst = Some(burst);
        self
    }

    /// With nginx's `delay` set.
    pub const fn delay(mut self, delay: u64) -> LaneDef {
        self.delay = Some(delay);
        self
    }

    /// With nginx's `nodelay`.
    pub const fn nodelay(mut self) -> LaneDef {
        self.nodelay = true;
        self
    }

    /// The lane spec (labelled with the algorithm's id; [`Step::share_state`]
    /// numbers repeated ones as the page does).
    pub fn spec(&self) -> LaneSpec {
        let mut l = LaneSpec::simple(self.algorithm, self.limit, self.period_ms);
        l.params.burst = self.burst;
        l.params.delay = self.delay;
        l.params.nodelay = self.nodelay;
        l
    }
}

/// One step of a lesson.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The scenario it opens.
    pub scenario: ScenarioId,
    /// The lanes, in order (3 to [`ratelab_sim::share::MAX_PLAYGROUND_LANES`]).
    pub lanes: &'static [LaneDef],
    /// Requests already sent (the `manual` scenario only), in ms.
    pub requests: &'static [u64],
    /// The moment to play to, in ms.
    pub play_to_ms: u64,
    /// The request whose trace to show, if any (index in the stream).
    pub select: Option<usize>,
    /// The lane the step is about, if one (index in `lanes`).
    pub focus: Option<usize>,
    /// Whether the step speaks of the whole run (counts from its first request on
    /// a run longer than the lanes show at 1×): the page then zooms out until the
    /// lanes show all of it, else it opens the step at 1×.
    pub whole_run: bool,
    /// Whether the step shows lab D's two tables.
    pub lab_d: bool,
    /// The numbers its texts use.
    pub facts: &'static [Fact],
}

impl Step {
    /// The page's link for this step: scenario, lanes (ids numbered as the page
    /// numbers them), clock at the moment to play to, the selected request.
    pub fn link(&self) -> Link {
        let mut setup = Setup::for_scenario(self.scenario);
        setup.lanes = self.lanes.iter().map(LaneDef::spec).collect();
        normalise_ids(&mut setup.lanes);
        if !self.requests.is_empty() {
            setup.requests = Stream::from_times(self.requests.iter().copied());
        }
        let view = View {
            t_ms: self.play_to_ms,
            selected: self.select.map(|i| i as u64),
            ..View::default()
        };
        Link { setup, view }
    }

    /// The runnable config: what the page runs for [`Step::link`]. (No lesson
    /// runs a service scenario, a test checks, so the lessons' chunk carries no
    /// service model: [`Setup::to_config_without_services`].)
    pub fn config(&self) -> Result<Config, SimError> {
        self.link().setup.to_config_without_services()
    }
}

/// A lesson: an id, where it comes from, and its steps. Its texts are under
/// `lesson.<id>.…` in the language files.
#[derive(Clone, Copy, Debug)]
pub struct Lesson {
    /// The id in URLs and on the command line.
    pub id: &'static str,
    /// Where it comes from.
    pub group: Group,
    /// The steps, in order.
    pub steps: &'static [Step],
}

/// Looks a lesson up by id.
pub fn lesson(id: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}

/// The lesson ids, comma-separated (for messages).
pub fn lesson_ids() -> String {
    LESSONS.iter().map(|l| l.id).collect::<Vec<_>>().join(", ")
}

/// A lesson run: its texts in one language, every step's numbers from the engine.
#[derive(Clone, Debug, Serialize)]
pub struct LessonRun {
    /// The lesson's id.
    pub id: &'static str,
    /// Where it comes from.
    pub group: Group,
    /// The language of the texts.
    pub lang: &'static str,
    /// Its title.
    pub title: String,
    /// One sentence on what it teaches.
    pub intro: String,
    /// Each step, run.
    pub steps: Vec<StepRun>,
}

/// A step run.
#[derive(Clone, Debug, Serialize)]
pub struct StepRun {
    /// Its place in the lesson, from 0.
    pub index: usize,
    /// Its title.
    pub title: String,
    /// The scenario it opens.
    pub scenario: ScenarioId,
    /// The page's query string for this step (what "open" loads).
    pub query: String,
    /// The moment it plays to, in ms.
    pub play_to_ms: u64,
    /// The selected request, if any.
    pub select: Option<usize>,
    /// The lane it is about, if one.
    pub focus: Option<usize>,
    /// What to watch (two or three sentences).
    pub watch: String,
    /// What it proved, with the engine's numbers in.
    pub proved: String,
    /// The numbers, by name.
    pub facts: Vec<FactRun>,
    /// The report of the run (the JSON format's output).
    pub report: Report,
    /// Lab D: the counter judged on its own history (the report's `sweep` is the
    /// second table: the counter next to an independent sliding log).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judged: Option<Judged>,
}

impl StepRun {
    /// The fact named `name`.
    pub fn fact(&self, name: &str) -> Option<&FactRun> {
        self.facts.iter().find(|f| f.name == name)
    }
}

/// A fact as computed: its name, its value and the value as the text shows it.
#[derive(Clone, Debug, Serialize)]
pub struct FactRun {
    /// The slot name.
    pub name: &'static str,
    /// The value (numbers as numbers, times in ms, fractions as `[num, den]`).
    pub value: FactValue,
    /// The value as written in the text.
    pub text: String,
}

impl FactRun {
    /// The value if it is a whole number of requests.
    pub fn number(&self) -> Option<u64> {
        match self.value {
            FactValue::Count(n) => Some(n),
            _ => None,
        }
    }
}

/// Every lesson's numbers in one language, as the page shows them: `[{"id",
/// "title", "steps": [{"query", "play_to_ms", "select", "focus", "watch",
/// "proved", "facts": [[name, text]], "yardstick": [{"fact", "lane", "column",
/// "value"}]}]}]`, the last the facts the page's yardstick table shows at the
/// step's moment, with the value its cell holds. The end-to-end tests compare the
/// page with this (`ratelab lessons --json`).
pub fn summary_json(lang: Lang) -> Result<String, SimError> {
    #[derive(Serialize)]
    struct StepOut<'a> {
        title: &'a str,
        query: &'a str,
        play_to_ms: u64,
        select: Option<usize>,
        focus: Option<usize>,
        watch: &'a str,
        proved: &'a str,
        facts: Vec<(&'static str, &'a str)>,
        yardstick: Vec<Cell>,
    }
    #[derive(Serialize)]
    struct Cell {
        fact: &'static str,
        lane: usize,
        column: Column,
        value: Option<u64>,
    }
    #[derive(Serialize)]
    struct LessonOut<'a> {
        id: &'static str,
        title: &'a str,
        steps: Vec<StepOut<'a>>,
    }
    let runs = LESSONS
        .iter()
        .map(|l| l.run(lang))
        .collect::<Result<Vec<_>, _>>()?;
    let out: Vec<LessonOut<'_>> = runs
        .iter()
        .zip(LESSONS)
        .map(|(r, l)| LessonOut {
            id: r.id,
            title: &r.title,
            steps: r
                .steps
                .iter()
                .zip(l.steps)
                .map(|(s, step)| StepOut {
                    title: &s.title,
                    query: &s.query,
                    play_to_ms: s.play_to_ms,
                    select: s.select,
                    focus: s.focus,
                    watch: &s.watch,
                    proved: &s.proved,
                    facts: s.facts.iter().map(|f| (f.name, f.text.as_str())).collect(),
                    yardstick: step
                        .facts
                        .iter()
                        .zip(&s.facts)
                        .filter_map(|(f, run)| {
                            let (lane, column) = f.query.on_yardstick()?;
                            Some(Cell {
                                fact: f.name,
                                lane,
                                column,
                                value: run.value.table_value(),
                            })
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect();
    Ok(serde_json::to_string(&out).unwrap_or_default())
}

impl LessonRun {
    /// The run as JSON (`ratelab lesson ID --json`): ids, texts, each step's query,
    /// moment, facts (`{"name", "value", "text"}`) and its full report.
    pub fn to_json(&self) -> String {
        // Plain structs of strings and numbers: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl Lesson {
    /// The key of one of its texts: `lesson.<id>.<part>`.
    pub fn key(&self, part: &str) -> String {
        format!("lesson.{}.{part}", self.id)
    }

    /// Runs every step and fills the built-in texts of `lang`. Lab D's step also
    /// runs its sweep twice (about 2.9 million requests each way).
    pub fn run(&self, lang: Lang) -> Result<LessonRun, SimError> {
        self.run_in(lang.texts(), lang)
    }

    /// [`Lesson::run`] with texts loaded elsewhere (the page fetches a language's
    /// file when it is first needed, see [`crate::texts`]); numbers are written the
    /// way `lang` writes them.
    pub fn run_in(&self, texts: &Texts, lang: Lang) -> Result<LessonRun, SimError> {
        let mut steps = Vec::with_capacity(self.steps.len());
        for (i, step) in self.steps.iter().enumerate() {
            let where_ = |e: SimError| SimError::at(&format!("lesson {} step {i}", self.id), e);
            let link = step.link();
            let config = step.config().map_err(where_)?;
            let report = run(&config).map_err(where_)?;
            // Lab D's scenario carries its sweep (the report has it); the judged table
            // runs on the same levels, clients and seed.
            let judged = match (&config.sweep, step.lab_d) {
                (Some(spec), true) => Some(crate::judge::judge(spec).map_err(where_)?),
                _ => None,
            };
            // Every fact is the engine's value at the step's moment: the run of the
            // requests that have arrived when the clock stops there, which is what the
            // page's yardstick shows ("so far"). A step that states whole-run totals
            // plays to the run's end, where the two are the same.
            let cut = at_moment(&config, &report, step.play_to_ms).map_err(where_)?;
            let (config_now, report_now) = cut.as_ref().map_or((&config, &report), |(c, r)| (c, r));
            let ctx = query::Context::new(config_now, report_now, judged.as_ref());
            let mut facts = Vec::with_capacity(step.facts.len());
            for f in step.facts {
                let value = ctx
                    .eval(&f.query)
                    .map_err(|e| {
                        SimError::at(&format!("lesson {} step {i} {}", self.id, f.name), e)
                    })
                    .map_err(where_)?;
                let text = value.text(lang);
                facts.push(FactRun {
                    name: f.name,
                    value,
                    text,
                });
            }
            let fill = |part: &str| -> Result<String, SimError> {
                let key = self.key(&format!("{i}.{part}"));
                render(&texts.or_key(&key), |name| {
                    facts
                        .iter()
                        .find(|f| f.name == name)
                        .map(|f| f.text.clone())
                })
                .map_err(|e| SimError::at(&key, e))
            };
            steps.push(StepRun {
                index: i,
                title: fill("title")?,
                scenario: step.scenario,
                query: link.to_query(),
                play_to_ms: step.play_to_ms,
                select: step.select,
                focus: step.focus,
                watch: fill("watch")?,
                proved: fill("proved")?,
                facts,
                report,
                judged,
            });
        }
        Ok(LessonRun {
            id: self.id,
            group: self.group,
            lang: lang.id(),
            title: texts.or_key(&self.key("title")),
            intro: texts.or_key(&self.key("intro")),
            steps,
        })
    }
}

/// The config and run of the requests that arrived at or before `t` (the sweep,
/// which is not on the clock, kept whole), or `None` when every request had.
fn at_moment(
    config: &Config,
    report: &Report,
    t: u64,
) -> Result<Option<(Config, Report)>, SimError> {
    let arrived = config.stream.requests.partition_point(|r| r.t <= t);
    if arrived == config.stream.requests.len() {
        return Ok(None);
    }
    let mut cut = config.clone();
    cut.stream.requests.truncate(arrived);
    cut.sweep = None;
    let mut now = run(&cut)?;
    now.sweep.clone_from(&report.sweep);
    Ok(Some((cut, now)))
}

#[cfg(test)]
mod tests;

//! The lessons panel: the catalog of [`ratelab_learn::lesson`], the open step (what
//! to watch, the moment, what it proved), next and previous.
//!
//! The lessons' texts are not compiled in: `ratelab-sim`'s `en.txt` and `vi.txt`
//! are copied to `dist/lessons/` by Trunk and fetched when a language is first
//! needed ([`fetch`]), which keeps them out of the wasm (the bundle's budget). A
//! step's numbers are computed here, in the page, by running the step's setup
//! through the engine ([`ratelab_learn::lesson::Lesson::run_in`]); the panel only
//! lays out what that run says. A lesson runs once per language (lab D's judged
//! sweep takes a second or two), after the panel has said it is running.
//!
//! Files: this one (the panel, its state, the effect that fetches and runs, the
//! click handler), [`fetch`] (the texts) and [`follow`] (focus and the step's lane
//! when a step opens). What the panel shows is escaped
//! markup made by [`crate::draw::lesson`] (for the bundle: see there); every
//! button names where it goes in `data-go`, and the panel has one click handler
//! ([`go`]).

pub mod chooser;
pub mod fetch;
pub mod follow;
pub mod quiz;

use std::sync::Arc;

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use ratelab_learn::lesson::LessonRun;
use ratelab_learn::texts::Texts;
use wasm_bindgen::JsCast;

use super::lanes::keep_observing as follow_height;
use super::{use_ctx, Ctx};
use crate::draw::lesson::{panel, Entry, OpenStep, PanelWords, StepWords};
use crate::learn::{Go, OpenLesson};
use crate::model::time_label;
use crate::state::{Action, Fold, Playground};
use crate::texts::learn::LEARN;
use crate::texts::Lang;
use ratelab_learn::lesson::{Group, LESSONS};
use ratelab_learn::texts::{parts, Part};

pub use fetch::provide_texts;

/// A language's texts as fetched, or why not.
pub type Loaded = Result<Arc<Texts>, String>;

/// A lesson run in one language, or the engine's error.
pub type RunResult = Result<Arc<LessonRun>, String>;

/// What the panel's parts share (provided by [`Lessons`]): one signal, so that the
/// panel adds one signal type to the bundle rather than one per field.
#[derive(Clone, Copy)]
pub struct Learning(RwSignal<LearnState>);

/// The panel's state.
#[derive(Default)]
struct LearnState {
    /// The texts of each language fetched so far.
    texts: Vec<(Lang, Loaded)>,
    /// The languages asked for (fetched or on the way).
    asked: Vec<Lang>,
    /// Each lesson run so far, by lesson and language.
    runs: Vec<((&'static str, Lang), RunResult)>,
    /// The runs started (done or on the way).
    started: Vec<(&'static str, Lang)>,
    /// A lesson is being run.
    running: bool,
}

impl Learning {
    /// The texts in `lang`, if fetched (tracked).
    pub fn texts(&self, lang: Lang) -> Option<Loaded> {
        self.0.with(|s| {
            s.texts
                .iter()
                .find(|(l, _)| *l == lang)
                .map(|(_, r)| r.clone())
        })
    }

    /// The run of lesson `id` in `lang`, if done (tracked).
    pub fn run(&self, id: &str, lang: Lang) -> Option<RunResult> {
        self.0.with(|s| {
            s.runs
                .iter()
                .find(|((i, l), _)| *i == id && *l == lang)
                .map(|(_, r)| r.clone())
        })
    }

    /// Whether a lesson is being run (tracked).
    pub fn running(&self) -> bool {
        self.0.with(|s| s.running)
    }
}

/// The panel's shared state.
pub fn use_learning() -> Learning {
    expect_context::<Learning>()
}

/// A language of the page as the lessons know it.
pub fn sim_lang(lang: Lang) -> ratelab_learn::lesson::Lang {
    ratelab_learn::lesson::Lang::from_id(lang.code()).unwrap_or(ratelab_learn::lesson::Lang::En)
}

/// The lessons panel (the full page only): its title, a status line, the open
/// step (where it is in its lesson, its title, what to watch, what it proved with
/// the engine's numbers marked, lab D's judged table, the way on) and the catalog.
///
/// Built for the bundle: the panel is one element whose content is escaped markup
/// from [`crate::draw::lesson::panel`], remade when the open step, its run, the
/// texts, the language or whether the setup is still the step's own change (not
/// with the clock); its buttons name where they go in `data-go` and share one
/// click handler ([`go`]). As Leptos elements, each distinct shape cost tachys'
/// render code again (docs/decisions.md, the lessons panel).
#[component]
pub fn Lessons() -> impl IntoView {
    let ctx = use_ctx();
    let learning = Learning(RwSignal::new(LearnState::default()));
    provide_context(learning);
    fetch_and_run(ctx, learning);
    let open = open_index(ctx);
    let kept = ctx.memo(|p| p.lesson_setup_kept());
    let catalog_open = ctx.memo(Playground::catalog_unfolded);
    let uid = ctx.uid;
    let node = NodeRef::<leptos::html::Section>::new();
    // A link that names a step about one lane brings that lane into view once the
    // step's texts are there (they change the panel's height); so does every step
    // the learner opens (`go`).
    let scroll_wanted = StoredValue::new(ctx.read(|p| p.step_lane().is_some()).unwrap_or(false));
    let markup = move || {
        let lang = ctx.lang.get();
        let open = open.get().and_then(OpenLesson::at);
        let texts = learning.texts(lang);
        let run = open.and_then(|o| learning.run(o.id, lang));
        let t = LEARN.get(lang);
        // The panel's own words, once its texts are there (`panel.*`).
        let said = |key: &str| match &texts {
            Some(Ok(x)) => x.or_key(&format!("panel.{key}")),
            _ => String::new(),
        };
        let status = match (&texts, &run) {
            (None, _) => Some((t.loading.to_string(), false)),
            (Some(Err(e)), _) => Some((format!("{} {e}", t.unavailable), true)),
            (Some(Ok(_)), _) if open.is_none() => Some((said("intro"), false)),
            (Some(Ok(_)), Some(Err(e))) => Some((e.clone(), true)),
            (Some(Ok(_)), None) if learning.running() => Some((said("running"), false)),
            _ => None,
        };
        let [all, changed, reopen, prev, next, replay, close, watch, proved, numbers] = [
            "all", "changed", "reopen", "prev", "next", "replay", "close", "watch", "proved",
            "numbers",
        ]
        .map(said);
        let judged_words = [
            "judged",
            "load",
            "allowed",
            "wrong_allows",
            "wrong_blocks",
            "error",
            "worst",
        ]
        .map(said);
        let step_words = said("step");
        let texts = texts.and_then(Result::ok);
        let word = |key: &str| texts.as_ref().map(|x| x.or_key(key)).unwrap_or_default();
        let run = run.and_then(Result::ok);
        let step = open.and_then(|o| Some((o, run.as_ref()?.steps.get(o.step)?)));
        let fill = |part: &str| -> Vec<Part> {
            let (Some((o, s)), Some(texts)) = (step, texts.as_ref()) else {
                return Vec::new();
            };
            let key = format!("lesson.{}.{}.{part}", o.id, o.step);
            parts(&texts.or_key(&key), |name| {
                s.fact(name).map(|f| f.text.clone())
            })
            .unwrap_or_else(|e| vec![Part::Words(format!("[{key}: {e}]"))])
        };
        let shown = open.map(|o| OpenStep {
            id: o.id,
            step: o.step,
            step_of: format!(
                "{} · {}",
                step_words
                    .replace("{n}", &(o.step + 1).to_string())
                    .replace("{total}", &o.steps().to_string()),
                word(&format!("lesson.{}.title", o.id))
            ),
            title: word(&format!("lesson.{}.{}.title", o.id, o.step)),
            watch: fill("watch"),
            proved: fill("proved"),
            judged: step.and_then(|(_, s)| s.judged.as_ref()),
            kept: kept.get(),
            prev: o.prev().map(|p| p.key()),
            next: o.next().map(|n| n.key()),
            this: o.key(),
            moment: time_label(o.def().map_or(0, |d| d.play_to_ms)),
        });
        let groups: Vec<(String, Vec<Entry<'_>>)> = match texts.as_ref() {
            None => Vec::new(),
            Some(texts) => GROUPS
                .iter()
                .map(|&g| {
                    let entries = LESSONS
                        .iter()
                        .filter(|l| l.group == g)
                        .filter_map(|l| OpenLesson::new(l.id, 0))
                        .map(|first| Entry {
                            go: first.key(),
                            id: first.id,
                            title: texts
                                .get(&format!("lesson.{}.title", first.id))
                                .unwrap_or(first.id),
                            current: open.is_some_and(|o| o.id == first.id),
                        })
                        .collect();
                    (texts.or_key(g.text_key()), entries)
                })
                .collect(),
        };
        let words = PanelWords {
            lessons: t.lessons,
            title_id: format!("lessons-{uid}"),
            all: &all,
            changed: &changed,
            reopen: &reopen,
            way: [&prev, &next, &replay, &close],
            step: StepWords {
                watch: &watch,
                proved: &proved,
                numbers: &numbers,
                judged: judged_words.each_ref().map(String::as_str),
            },
        };
        let status = status.as_ref().map(|(s, e)| (s.as_str(), *e));
        let filled = shown.as_ref().is_none_or(|o| !o.watch.is_empty());
        let html = panel(
            &words,
            status,
            shown.as_ref(),
            &groups,
            catalog_open.get(),
            sim_lang(lang),
        );
        (html.markup(), filled)
    };
    // The markup is set here rather than as a reactive `inner_html`, so that it is
    // set only when it changed (a catalog the learner unfolded stays unfolded) and
    // focus is kept across it (`follow`).
    Effect::new(move |before: Option<Arc<str>>| {
        let (html, filled) = markup();
        let Some(section) = node.get() else {
            return Arc::from("");
        };
        if before.as_deref() != Some(&*html) {
            let kept = follow::focused(&section);
            section.set_inner_html(&html);
            if let Some(kept) = kept {
                follow::restore(&section, &kept);
            }
        }
        if filled && scroll_wanted.get_value() {
            scroll_wanted.set_value(false);
            lane_into_view(ctx, &section);
        }
        html
    });
    // The panel's height, for the clock bar that sticks under it on a wide page.
    Effect::new(move |_| {
        if let Some(section) = node.get() {
            let el = section.clone();
            follow_height(&section, move || {
                if let Some(root) = el.parent_element() {
                    let _ = root
                        .unchecked_ref::<web_sys::HtmlElement>()
                        .style()
                        .set_property("--lessons-h", &format!("{}px", el.offset_height()));
                }
            });
        }
    });
    view! {
        <section
            class="lessons"
            aria-labelledby=format!("lessons-{uid}")
            node_ref=node
            on:click=move |e| go(ctx, &e, scroll_wanted)
        ></section>
    }
}

/// Brings the open step's lane into view once the lanes the step opened are drawn
/// (after the reactive updates of this task).
fn lane_into_view(ctx: Ctx, section: &web_sys::HtmlElement) {
    let Some(root) = section.parent_element() else {
        return;
    };
    Timeout::new(0, move || {
        let lane = ctx.read(|p| p.step_lane().map(|j| j as u64)).flatten();
        let reduced = ctx.read(|p| p.reduced_motion).unwrap_or(false);
        follow::bring_lane_into_view(&root, lane, reduced);
    })
    .forget();
}

/// The catalog's groups, in order.
const GROUPS: [Group; 3] = [Group::Demo, Group::Traces, Group::Labs];

/// The panel's one click handler: the button clicked names where it goes
/// (`data-go`, [`crate::learn::Go`]). A step opened brings its lane into view (at
/// once, and again when its texts change the panel's height).
fn go(ctx: Ctx, e: &web_sys::MouseEvent, scroll_wanted: StoredValue<bool>) {
    let Some(target) = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return;
    };
    // The catalog's fold, as the learner leaves it (a link keeps it): the click
    // comes before the fold toggles.
    if let Some(details) = target
        .closest(".catalog > summary")
        .ok()
        .flatten()
        .and_then(|s| s.parent_element())
        .and_then(|d| d.dyn_into::<web_sys::HtmlDetailsElement>().ok())
    {
        ctx.act(Action::Fold(Fold::Catalog, !details.open()));
        return;
    }
    let Some(to) = target
        .closest("button[data-go]")
        .ok()
        .flatten()
        .and_then(|b| b.get_attribute("data-go"))
        .and_then(|g| Go::parse(&g))
    else {
        return;
    };
    match to {
        Go::Open(o) => {
            // Replaying the open step leaves the panel as it is: no second scroll.
            let moved = ctx.read(|p| p.lesson != Some(o)).unwrap_or(true);
            scroll_wanted.set_value(moved);
            ctx.act(Action::OpenLesson(o));
            if let Some(section) = e
                .current_target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
            {
                lane_into_view(ctx, &section);
            }
        }
        Go::Close => ctx.act(Action::CloseLesson),
    }
}

/// The open step's place on the guided path ([`OpenLesson::index`]), as a memo of
/// a type the page already has.
pub fn open_index(ctx: Ctx) -> Memo<Option<u64>> {
    ctx.memo(|p| p.lesson.map(|o| o.index()))
}

/// Fetches the page's language's texts the first time it is needed, and runs the
/// open lesson once they are there (once per language). One effect for both (each
/// effect is its own code in the bundle). The run waits a moment first, so that
/// "running" is drawn before a long one starts.
fn fetch_and_run(ctx: Ctx, learning: Learning) {
    let open = open_index(ctx);
    Effect::new(move |_| {
        let lang = ctx.lang.get();
        if !learning.0.with_untracked(|s| s.asked.contains(&lang)) {
            learning.0.update_untracked(|s| s.asked.push(lang));
            leptos::task::spawn_local(async move {
                let loaded = fetch::texts(lang).await;
                let _ = learning.0.try_update(|s| s.texts.push((lang, loaded)));
            });
        }
        let Some(open) = open.get().and_then(OpenLesson::at) else {
            return;
        };
        let Some(Ok(texts)) = learning.texts(lang) else {
            return;
        };
        let key = (open.id, lang);
        if learning.0.with_untracked(|s| s.started.contains(&key)) {
            return;
        }
        learning.0.update(|s| {
            s.started.push(key);
            s.running = true;
        });
        Timeout::new(30, move || {
            let run = open
                .lesson()
                .ok_or_else(|| format!("no lesson {}", open.id))
                .and_then(|l| {
                    l.run_in(&texts, sim_lang(lang))
                        .map(Arc::new)
                        .map_err(|e| e.to_string())
                });
            let _ = learning.0.try_update(|s| {
                s.runs.push((key, run));
                s.running = false;
            });
        })
        .forget();
    });
}

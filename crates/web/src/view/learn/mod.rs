//! The lessons panel: the catalog of [`ratelab_sim::lesson`], the open step (what
//! to watch, the moment, what it proved), next and previous.
//!
//! The lessons' texts are not compiled in: `ratelab-sim`'s `en.txt` and `vi.txt`
//! are copied to `dist/lessons/` by Trunk and fetched when a language is first
//! needed ([`fetch`]), which keeps them out of the wasm (the bundle's budget). A
//! step's numbers are computed here, in the page, by running the step's setup
//! through the engine ([`ratelab_sim::lesson::Lesson::run_in`]); the panel only
//! lays out what that run says. A lesson runs once per language (lab D's judged
//! sweep takes a second or two), after the panel has said it is running.
//!
//! Files: [`list`] the catalog, [`step`] the open step, [`fetch`] the texts. The
//! step's texts, lab D's table and the catalog's buttons are escaped markup made
//! by [`crate::draw::lesson`] (for the bundle: see there); every button names where
//! it goes in `data-go`, and the panel has one click handler ([`go`]).

pub mod fetch;
pub mod list;
pub mod step;

use std::sync::Arc;

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use ratelab_sim::lesson::LessonRun;
use ratelab_sim::texts::Texts;

use super::{text, use_ctx, Ctx};
use crate::learn::{Go, OpenLesson};
use crate::state::Action;
use crate::texts::learn::LEARN;
use crate::texts::Lang;

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
pub fn sim_lang(lang: Lang) -> ratelab_sim::lesson::Lang {
    ratelab_sim::lesson::Lang::from_id(lang.code()).unwrap_or(ratelab_sim::lesson::Lang::En)
}

/// The lessons panel (the full page only).
///
/// Built for the bundle: the panel's words are derived signals of two plain types
/// (`&'static str` and `String`), its buttons name where they go in `data-go` and
/// share one click handler ([`go`]), and the open step is rebuilt whole when it
/// changes. Each distinct view or closure type costs tachys' render code once
/// more (see README, "The lessons panel's cost").
#[component]
pub fn Lessons() -> impl IntoView {
    let ctx = use_ctx();
    let learning = Learning(RwSignal::new(LearnState::default()));
    provide_context(learning);
    fetch_and_run(ctx, learning);
    // One line under the title: the intro while no lesson is open, else why the
    // step's texts are not there yet (loading, running, or the fetch's error).
    let open = open_index(ctx);
    // One line under the title: the intro while no lesson is open, else why the
    // step's texts are not there yet (loading, running, or the fetch's error).
    let status = Memo::new(move |_| {
        let lang = ctx.lang.get();
        let words = LEARN.get(lang);
        let open = open.get().and_then(OpenLesson::at);
        match learning.texts(lang) {
            None => Some(words.loading.to_string()),
            Some(Err(e)) => Some(format!("{} {e}", words.unavailable)),
            Some(Ok(_)) if open.is_none() => Some(words.intro.to_string()),
            Some(Ok(_)) => match open.and_then(|o| learning.run(o.id, lang)) {
                Some(Err(e)) => Some(e),
                None if learning.running() => Some(words.running.to_string()),
                _ => None,
            },
        }
    });
    let error = Memo::new(move |_| {
        let lang = ctx.lang.get();
        let open = open.get().and_then(OpenLesson::at);
        matches!(learning.texts(lang), Some(Err(_)))
            || matches!(open.and_then(|o| learning.run(o.id, lang)), Some(Err(_)))
    });
    view! {
        <section
            class="lessons"
            aria-labelledby=format!("lessons-{}", ctx.uid)
            on:click=move |e| go(ctx, &e)
        >
            <h2 id=format!("lessons-{}", ctx.uid)>{text(&LEARN, |t| t.lessons)}</h2>
            <p
                class="status"
                class:error=error
                class:hidden=Signal::derive(move || status.with(Option::is_none))
                role=Signal::derive(move || error.get().then_some("alert"))
            >
                {Signal::derive(move || status.get().unwrap_or_default())}
            </p>
            <step::OpenStep />
            <list::LessonList />
        </section>
    }
}

/// The panel's one click handler: the button clicked names where it goes
/// (`data-go`, [`crate::learn::Go`]).
fn go(ctx: Ctx, e: &web_sys::MouseEvent) {
    use wasm_bindgen::JsCast;
    let Some(target) = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return;
    };
    let Some(to) = target
        .closest("button[data-go]")
        .ok()
        .flatten()
        .and_then(|b| b.get_attribute("data-go"))
        .and_then(|g| Go::parse(&g))
    else {
        return;
    };
    ctx.act(match to {
        Go::Open(o) => Action::OpenLesson(o),
        Go::Close => Action::CloseLesson,
    });
}

/// A lesson text by key in the page's language, once the texts are there (empty
/// until then; a missing text shows as its key in brackets).
pub fn words(key: String) -> Signal<String> {
    let ctx = use_ctx();
    let learning = use_learning();
    Signal::derive(move || match learning.texts(ctx.lang.get()) {
        Some(Ok(t)) => t.or_key(&key),
        _ => String::new(),
    })
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

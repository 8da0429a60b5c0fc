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
//! Files: [`list`] the catalog, [`step`] the open step, [`judged`] lab D's table,
//! [`fetch`] the texts.

pub mod fetch;
pub mod judged;
pub mod list;
pub mod step;

use std::sync::Arc;

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use ratelab_sim::lesson::LessonRun;
use ratelab_sim::texts::Texts;

use super::{text, use_ctx, Ctx};
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
#[component]
pub fn Lessons() -> impl IntoView {
    let ctx = use_ctx();
    let learning = Learning(RwSignal::new(LearnState::default()));
    provide_context(learning);
    fetch_when_needed(ctx, learning);
    run_when_opened(ctx, learning);
    let open = ctx.memo(|p| p.lesson.is_some());
    let status = move || match learning.texts(ctx.lang.get()) {
        None => Some(view! { <p class="status">{text(&LEARN, |t| t.loading)}</p> }.into_any()),
        Some(Err(e)) => Some(
            view! {
                <p class="error" role="alert">
                    {text(&LEARN, |t| t.unavailable)} " " <code>{e}</code>
                </p>
            }
            .into_any(),
        ),
        Some(Ok(_)) => None,
    };
    view! {
        <section class="lessons" aria-labelledby=format!("lessons-{}", ctx.uid)>
            <h2 id=format!("lessons-{}", ctx.uid)>{text(&LEARN, |t| t.lessons)}</h2>
            <p class="intro" class:hidden=move || open.get()>{text(&LEARN, |t| t.intro)}</p>
            {status}
            <step::OpenStep />
            <list::LessonList />
        </section>
    }
}

/// Fetches the page's language's texts the first time it is needed.
fn fetch_when_needed(ctx: Ctx, learning: Learning) {
    Effect::new(move |_| {
        let lang = ctx.lang.get();
        let asked = learning.0.with_untracked(|s| s.asked.contains(&lang));
        if asked {
            return;
        }
        learning.0.update_untracked(|s| s.asked.push(lang));
        leptos::task::spawn_local(async move {
            let loaded = fetch::texts(lang).await;
            let _ = learning.0.try_update(|s| s.texts.push((lang, loaded)));
        });
    });
}

/// Runs the open lesson once its texts are there (once per language). The run
/// waits a moment first, so that "running" is drawn before a long one starts.
fn run_when_opened(ctx: Ctx, learning: Learning) {
    let open = ctx.memo(|p| p.lesson);
    Effect::new(move |_| {
        let (Some(open), lang) = (open.get(), ctx.lang.get()) else {
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

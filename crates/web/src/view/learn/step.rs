//! The open step: the lesson and step titles, what to watch, the moment it plays
//! to, what it proved (the engine's numbers marked), and the way on.

use leptos::prelude::*;
use std::sync::Arc;

use ratelab_sim::lesson::LessonRun;
use ratelab_sim::texts::{parts, Part};

use super::judged::JudgedTable;
use super::list::Words;
use super::use_learning;
use crate::learn::OpenLesson;
use crate::model::time_label;
use crate::state::Action;
use crate::texts::learn::LEARN;
use crate::view::{text, use_ctx};

/// The open step (nothing when no lesson is open).
#[component]
pub fn OpenStep() -> impl IntoView {
    let ctx = use_ctx();
    let open = ctx.memo(|p| p.lesson);
    move || open.get().map(|o| view! { <Card open=o /> })
}

#[component]
fn Card(open: OpenLesson) -> impl IntoView {
    let ctx = use_ctx();
    let learning = use_learning();
    let (id, i) = (open.id, open.step);
    let kept = ctx.memo(|p| p.lesson_setup_kept());
    let step_of = move || {
        LEARN
            .get(ctx.lang.get())
            .step
            .replace("{n}", &(i + 1).to_string())
            .replace("{total}", &open.steps().to_string())
    };
    let moment = open.def().map_or(0, |d| d.play_to_ms);
    let body = move || match learning.run(id, ctx.lang.get()) {
        Some(Ok(run)) => {
            (i < run.steps.len()).then(|| view! { <StepTexts run=run step=i /> }.into_any())
        }
        Some(Err(e)) => Some(view! { <p class="error">{e}</p> }.into_any()),
        None => learning
            .running()
            .then(|| view! { <p class="status">{text(&LEARN, |t| t.running)}</p> }.into_any()),
    };
    let go = move |to: Option<OpenLesson>| {
        if let Some(o) = to {
            ctx.act(Action::OpenLesson(o));
        }
    };
    view! {
        <article class="lesson" data-lesson=id data-step=i>
            <p class="step-of">
                <span>{step_of}</span>
                " · "
                <span class="lesson-title">
                    <Words text_key=format!("lesson.{id}.title") />
                </span>
            </p>
            <h3>
                <Words text_key=format!("lesson.{id}.{i}.title") />
            </h3>
            {body}
            <p class="moment">
                <span>{text(&LEARN, |t| t.moment)} " " {time_label(moment)}</span>
                <button type="button" class="replay" on:click=move |_| go(Some(open))>
                    {text(&LEARN, |t| t.replay)}
                </button>
            </p>
            <p class="changed" class:hidden=move || kept.get()>
                {text(&LEARN, |t| t.changed)}
                " "
                <button type="button" class="reopen" on:click=move |_| go(Some(open))>
                    {text(&LEARN, |t| t.reopen)}
                </button>
            </p>
            <nav class="way">
                <button
                    type="button"
                    class="prev"
                    prop:disabled=open.prev().is_none()
                    on:click=move |_| go(open.prev())
                >
                    {text(&LEARN, |t| t.prev)}
                </button>
                <button
                    type="button"
                    class="next"
                    prop:disabled=open.next().is_none()
                    on:click=move |_| go(open.next())
                >
                    {text(&LEARN, |t| t.next)}
                </button>
                <button type="button" class="close" on:click=move |_| ctx.act(Action::CloseLesson)>
                    {text(&LEARN, |t| t.close)}
                </button>
            </nav>
        </article>
    }
}

/// What to watch and what it proved, from the step's run.
#[component]
fn StepTexts(run: Arc<LessonRun>, step: usize) -> impl IntoView {
    let learning = use_learning();
    let ctx = use_ctx();
    let (id, i) = (run.id, step);
    let judged = run.steps.get(i).and_then(|s| s.judged.clone());
    // The texts' templates, filled in pieces so that each number the engine
    // computed is its own element (`data-fact` names it; the end-to-end test reads
    // them).
    let filled = move |part: &str| -> Vec<Part> {
        let key = format!("lesson.{id}.{i}.{part}");
        let template = match learning.texts(ctx.lang.get()) {
            Some(Ok(t)) => t.or_key(&key),
            _ => return Vec::new(),
        };
        let step = run.steps.get(i);
        parts(&template, |name| {
            step.and_then(|s| s.fact(name)).map(|f| f.text.clone())
        })
        .unwrap_or_else(|e| vec![Part::Words(format!("[{key}: {e}]"))])
    };
    let watch = show(filled("watch"));
    let proved = show(filled("proved"));
    view! {
        <h4>{text(&LEARN, |t| t.watch)}</h4>
        <p class="watch">{watch}</p>
        <h4>{text(&LEARN, |t| t.proved)}</h4>
        <p class="proved">{proved}</p>
        {judged.map(|j| view! { <JudgedTable judged=j /> })}
        <p class="note">{text(&LEARN, |t| t.numbers)}</p>
    }
}

/// Words as text, each value as a marked `<strong>` (both text nodes: nothing in a
/// lesson text becomes markup).
fn show(parts: Vec<Part>) -> impl IntoView {
    parts
        .into_iter()
        .map(|p| match p {
            Part::Words(w) => w.into_any(),
            Part::Value { name, text } => {
                view! { <strong class="fact" data-fact=name>{text}</strong> }.into_any()
            }
        })
        .collect_view()
}

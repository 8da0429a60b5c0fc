//! The open step: where it is in its lesson, its title, what to watch, what it
//! proved (the engine's numbers marked), lab D's judged table, and the way on:
//! previous, next, play again, close. Compact, so that the lane it talks about is
//! on screen with it.

use leptos::prelude::*;

use ratelab_sim::texts::{parts, Part};

use super::{open_index, sim_lang, use_learning, words};
use crate::draw::lesson::{step_texts, StepWords};
use crate::draw::Html;
use crate::learn::OpenLesson;
use crate::model::time_label;
use crate::texts::learn::LEARN;
use crate::view::{text, use_ctx};

/// The open step (nothing when no lesson is open), rebuilt whole when another
/// step opens.
#[component]
pub fn OpenStep() -> impl IntoView {
    let open = open_index(use_ctx());
    move || {
        open.get()
            .and_then(OpenLesson::at)
            .map(|o| view! { <Card open=o /> })
    }
}

#[component]
fn Card(open: OpenLesson) -> impl IntoView {
    let ctx = use_ctx();
    let learning = use_learning();
    let (id, i) = (open.id, open.step);
    let kept = ctx.memo(|p| p.lesson_setup_kept());
    let lesson_title = words(format!("lesson.{id}.title"));
    let step_of = Signal::derive(move || {
        let of = LEARN
            .get(ctx.lang.get())
            .step
            .replace("{n}", &(i + 1).to_string())
            .replace("{total}", &open.steps().to_string());
        format!("{of} · {}", lesson_title.get())
    });
    let moment = time_label(open.def().map_or(0, |d| d.play_to_ms));
    // The step's texts with the run's numbers in (each its own element, which
    // `data-fact` names: the tests read them), as escaped markup; empty until the
    // run and the texts are both there.
    let said = move || {
        let lang = ctx.lang.get();
        let (Some(Ok(run)), Some(Ok(texts))) = (learning.run(id, lang), learning.texts(lang))
        else {
            return Html::default();
        };
        let Some(step) = run.steps.get(i) else {
            return Html::default();
        };
        let fill = |part: &str| {
            let key = format!("lesson.{id}.{i}.{part}");
            parts(&texts.or_key(&key), |name| {
                step.fact(name).map(|f| f.text.clone())
            })
            .unwrap_or_else(|e| vec![Part::Words(format!("[{key}: {e}]"))])
        };
        let t = LEARN.get(lang);
        let words = StepWords {
            watch: t.watch,
            proved: t.proved,
            numbers: t.numbers,
            judged: [
                t.judged,
                t.load,
                t.allowed,
                t.wrong_allows,
                t.wrong_blocks,
                t.error,
                t.worst,
            ],
        };
        step_texts(
            &words,
            &fill("watch"),
            &fill("proved"),
            step.judged.as_ref(),
            sim_lang(lang),
        )
    };
    let key = |o: Option<OpenLesson>| o.map(|o| o.key());
    view! {
        <article class="lesson" data-lesson=id data-step=i>
            <p class="step-of">{step_of}</p>
            <h3>{words(format!("lesson.{id}.{i}.title"))}</h3>
            <div class="said" inner_html=Signal::derive(move || said().markup())></div>
            <p class="changed" class:hidden=kept>
                {text(&LEARN, |t| t.changed)}
                " "
                <button type="button" class="reopen" data-go=open.key()>
                    {text(&LEARN, |t| t.reopen)}
                </button>
            </p>
            <nav class="way">
                <button
                    type="button"
                    class="prev"
                    data-go=key(open.prev())
                    disabled=open.prev().is_none()
                >
                    {text(&LEARN, |t| t.prev)}
                </button>
                <button
                    type="button"
                    class="next"
                    data-go=key(open.next())
                    disabled=open.next().is_none()
                >
                    {text(&LEARN, |t| t.next)}
                </button>
                <button type="button" class="replay" data-go=open.key()>
                    {text(&LEARN, |t| t.replay)}
                    " "
                    {moment}
                </button>
                <button type="button" class="close" data-go="close">
                    {text(&LEARN, |t| t.close)}
                </button>
            </nav>
        </article>
    }
}

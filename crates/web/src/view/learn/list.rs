//! The catalog: every lesson by where it comes from, each a button that opens its
//! first step. Folded while a lesson is open.

use leptos::prelude::*;
use ratelab_sim::lesson::{Group, Lesson, LESSONS};

use super::use_learning;
use crate::learn::OpenLesson;
use crate::state::Action;
use crate::texts::learn::LEARN;
use crate::view::{text, use_ctx};

/// The groups, in the catalog's order.
const GROUPS: [Group; 3] = [Group::Demo, Group::Traces, Group::Labs];

/// The list of lessons.
#[component]
pub fn LessonList() -> impl IntoView {
    let ctx = use_ctx();
    let open = ctx.memo(|p| p.lesson.is_some());
    let groups = GROUPS.map(|g| {
        let lessons: Vec<&'static Lesson> = LESSONS.iter().filter(|l| l.group == g).collect();
        view! {
            <li>
                <h3>
                    <Words text_key=g.text_key() />
                </h3>
                <ol>
                    {lessons.into_iter().map(|l| view! { <Item lesson=l /> }).collect_view()}
                </ol>
            </li>
        }
    });
    view! {
        <details class="catalog" prop:open=move || !open.get()>
            <summary>{text(&LEARN, |t| t.all)}</summary>
            <ul class="groups">{groups}</ul>
        </details>
    }
}

/// One lesson's button.
#[component]
fn Item(lesson: &'static Lesson) -> impl IntoView {
    let ctx = use_ctx();
    let id = lesson.id;
    let current = ctx.memo(move |p| p.lesson.is_some_and(|o| o.id == id));
    view! {
        <li>
            <button
                type="button"
                data-lesson=id
                aria-current=move || current.get().then_some("true")
                on:click=move |_| {
                    if let Some(o) = OpenLesson::new(id, 0) {
                        ctx.act(Action::OpenLesson(o));
                    }
                }
            >
                <Words text_key=lesson.key("title") />
            </button>
        </li>
    }
}

/// A lesson text by key, in the page's language, once the texts are there
/// (nothing until then; a missing text shows as its key in brackets).
#[component]
pub fn Words(#[prop(into)] text_key: String) -> impl IntoView {
    let ctx = use_ctx();
    let learning = use_learning();
    move || match learning.texts(ctx.lang.get()) {
        Some(Ok(t)) => t.or_key(&text_key),
        _ => String::new(),
    }
}

//! The catalog: every lesson by where it comes from, each a button that opens its
//! first step (as escaped markup, [`crate::draw::lesson::catalog`]). Folded while a
//! lesson is open.

use leptos::prelude::*;
use ratelab_sim::lesson::{Group, LESSONS};

use super::{open_index, use_learning};
use crate::draw::lesson::{catalog, Entry};
use crate::draw::Html;
use crate::learn::OpenLesson;
use crate::texts::learn::LEARN;
use crate::view::{text, use_ctx};

/// The groups, in the catalog's order.
const GROUPS: [Group; 3] = [Group::Demo, Group::Traces, Group::Labs];

/// The list of lessons.
#[component]
pub fn LessonList() -> impl IntoView {
    let ctx = use_ctx();
    let learning = use_learning();
    let open = open_index(ctx);
    let list = move || {
        let Some(Ok(texts)) = learning.texts(ctx.lang.get()) else {
            return Html::default();
        };
        let current = open.get().and_then(OpenLesson::at).map(|o| o.id);
        let groups: Vec<(String, Vec<Entry<'_>>)> = GROUPS
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
                        current: current == Some(first.id),
                    })
                    .collect();
                (texts.or_key(g.text_key()), entries)
            })
            .collect();
        catalog(&groups)
    };
    view! {
        <details class="catalog" prop:open=Signal::derive(move || open.get().is_none())>
            <summary>{text(&LEARN, |t| t.all)}</summary>
            <ul class="groups" inner_html=Signal::derive(move || list().markup())></ul>
        </details>
    }
}

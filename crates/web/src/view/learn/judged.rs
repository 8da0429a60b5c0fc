//! Lab D's first table: the sliding window counter judged on its own admitted
//! history, level by level, as the lesson's run computed it. (The second table,
//! the counter next to an independent sliding log, is the setup's sweep panel.)

use leptos::prelude::*;
use ratelab_sim::judge::Judged;
use ratelab_sim::lesson::FactValue;
use ratelab_sim::share::format_duration;

use super::sim_lang;
use crate::texts::learn::LEARN;
use crate::view::{text, use_ctx};

/// The judged table.
#[component]
pub fn JudgedTable(judged: Judged) -> impl IntoView {
    let ctx = use_ctx();
    let lang = sim_lang(ctx.lang.get_untracked());
    let share = |v: FactValue| v.text(lang);
    let rows = judged
        .rows
        .iter()
        .map(|r| {
            view! {
                <tr data-load=r.load.clone()>
                    <th scope="row">{r.load.clone()}</th>
                    <td>{share(FactValue::Share(r.allowed_share()))}</td>
                    <td>{share(FactValue::Share(r.wrong_allow_share()))}</td>
                    <td>{share(FactValue::Share(r.wrong_block_share()))}</td>
                    <td>{share(FactValue::ApproxShare(r.mean_error()))}</td>
                    <td>{r.worst_client_max}</td>
                </tr>
            }
        })
        .collect_view();
    let caption = format!(
        " ({} × {}, N = {} / {}, seed {})",
        judged.clients,
        format_duration(judged.duration_ms),
        judged.limit,
        format_duration(judged.period_ms),
        judged.seed
    );
    view! {
        <div class="scroll">
            <table class="judged-table">
                <caption>{text(&LEARN, |t| t.judged)} {caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">{text(&LEARN, |t| t.load)}</th>
                        <th scope="col">{text(&LEARN, |t| t.allowed)}</th>
                        <th scope="col">{text(&LEARN, |t| t.wrong_allows)}</th>
                        <th scope="col">{text(&LEARN, |t| t.wrong_blocks)}</th>
                        <th scope="col">{text(&LEARN, |t| t.error)}</th>
                        <th scope="col">{text(&LEARN, |t| t.worst)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

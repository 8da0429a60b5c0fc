//! Each client of a service lane: what it asked for, what it got, its share of
//! what was allowed and its 429 rate. Numbers in `data-value` too, for tests.

use leptos::prelude::*;
use ratelab_sim::service::ClientStats;

use super::yardstick;
use crate::draw::service::percent;
use crate::texts::service::SERVICE;
use crate::view::{text, use_ctx};

/// Lane `lane`'s per-client table.
#[component]
pub fn Clients(
    /// Which lane.
    lane: usize,
) -> impl IntoView {
    let y = yardstick(lane);
    let lang = use_ctx().lang;
    // Remade in another language too: the clients' names are words.
    let rows = move || {
        let lang = lang.get();
        y.with(|y| y.as_ref().map(|y| y.clients.clone()).unwrap_or_default())
            .into_iter()
            .enumerate()
            .map(|(c, mut s)| {
                s.name = crate::texts::service::client_name(&s.name, lang).into_owned();
                view! { <Row c s /> }
            })
            .collect_view()
    };
    view! {
        <details class="clients">
            <summary>{text(&SERVICE, |t| t.clients)}</summary>
            <div class="scroll">
                <table>
                    <thead>
                        <tr>
                            <th scope="col">{text(&SERVICE, |t| t.client)}</th>
                            <th scope="col">{text(&SERVICE, |t| t.demand)}</th>
                            <th scope="col">{text(&SERVICE, |t| t.offered)}</th>
                            <th scope="col">{text(&SERVICE, |t| t.passed)}</th>
                            <th scope="col">"429"</th>
                            <th scope="col">{text(&SERVICE, |t| t.share)}</th>
                            <th scope="col">{text(&SERVICE, |t| t.rate_429)}</th>
                            <th scope="col">{text(&SERVICE, |t| t.gave_up)}</th>
                            <th scope="col">{text(&SERVICE, |t| t.max_1s)}</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </details>
    }
}

#[component]
fn Row(c: usize, s: ClientStats) -> impl IntoView {
    view! {
        <tr data-client=c>
            <th scope="row">{s.name}</th>
            <td class="demand" data-value=s.demand>{s.demand}</td>
            <td class="offered" data-value=s.offered>{s.offered}</td>
            <td class="passed" data-value=s.passed>{s.passed}</td>
            <td class="s429" data-value=s.status_429>{s.status_429}</td>
            <td class="share" data-value=s.share_permille>{percent(s.share_permille)}</td>
            <td class="rate-429" data-value=s.rate_429_permille>{percent(s.rate_429_permille)}</td>
            <td class="gave-up" data-value=s.goodput.gave_up>{s.goodput.gave_up}</td>
            <td class="max-in-1s" data-value=s.max_in_1s>{s.max_in_1s}</td>
        </tr>
    }
}

//! The lane's "run it in production" box: the Lua script for Redis that decides as
//! the lane does and how to call it with the lane's parameters, or the nginx lane's
//! `limit_req` lines, or for a teaching lane the wrong script it stands for; the
//! memory per key the lab measured and the versions the tests checked. Texts the
//! engine generates from the parameters (`ratelab_scripts::production`): the page
//! never talks to a server. Every text goes in as a text node, never as markup.

use leptos::prelude::*;
use ratelab_scripts::production::{production, Kind, Production};
use ratelab_scripts::{NGINX_VERSION, REDIS_VERSION};

use super::LaneCtx;
use crate::texts::json::JSON;
use crate::texts::production::{ProductionTexts, PRODUCTION};
use crate::view::{text, use_ctx};

/// What goes wrong with a teaching script, in the page's words.
fn wrong(t: &ProductionTexts, id: &str) -> &'static str {
    match id {
        "token_bucket_float_seconds" => t.float_seconds,
        "sliding_log_zadd_first" => t.zadd_first,
        _ => "",
    }
}

/// The box of the lane in context. Its texts are made only once it is opened.
#[component]
pub fn ProductionBox() -> impl IntoView {
    let ctx = use_ctx();
    let lane = expect_context::<LaneCtx>();
    let open = RwSignal::new(false);
    let made = Memo::new(move |_| -> Option<Result<Production, String>> {
        if !open.get() {
            return None;
        }
        ctx.run.with(|s| {
            s.sim
                .lanes()
                .get(lane.j)
                .map(|l| production(l.algorithm, &l.params, &l.id).map_err(|e| e.to_string()))
        })
    });
    let copied = RwSignal::new(false);
    let copy = move |_| {
        let script = made.with_untracked(|m| match m {
            Some(Ok(p)) => Some(p.text.clone()),
            _ => None,
        });
        if let (Some(w), Some(script)) = (web_sys::window(), script) {
            // Not awaited: if the browser refuses, the text is there to select.
            let _ = w.navigator().clipboard().write_text(&script);
            copied.set(true);
        }
    };
    let body = move || {
        let t = PRODUCTION.get(ctx.lang.get());
        made.get().map(|m| match m {
            Err(why) => view! { <p class="error">{t.refused}": "{why}</p> }.into_any(),
            Ok(p) => {
                let intro = match p.kind {
                    Kind::Redis => t.redis,
                    Kind::Nginx => t.nginx,
                    Kind::Teaching => t.teaching,
                };
                let inexact = p.nginx.as_ref().is_some_and(|c| !c.exact);
                let goes_wrong = p.teaching.map(|w| wrong(t, w.id));
                let memory = p.memory.map(|m| {
                    format!(
                        "{}: {} {} ({} {}, {}), Redis {REDIS_VERSION}",
                        t.memory,
                        m.bytes,
                        t.bytes,
                        m.keys,
                        if m.keys == 1 { t.key } else { t.keys },
                        m.encoding
                    )
                });
                let checked = match p.kind {
                    Kind::Redis => Some(format!("{} Redis {REDIS_VERSION}", t.checked)),
                    Kind::Nginx => Some(format!("{} nginx {NGINX_VERSION}", t.checked)),
                    Kind::Teaching => None,
                };
                view! {
                    <p>{intro}</p>
                    {inexact.then(|| view! { <p class="note">{t.nginx_inexact}</p> })}
                    {goes_wrong.map(|w| view! { <p class="note">{w}</p> })}
                    <div class="copy-row">
                        <button type="button" on:click=copy>
                            {move || {
                                let j = JSON.get(ctx.lang.get());
                                if copied.get() { j.copied } else { j.copy }
                            }}
                        </button>
                    </div>
                    <pre class="code">{p.text}</pre>
                    {p.call.map(|c| view! {
                        <p class="call-title">{t.call}</p>
                        <pre class="code">{c}</pre>
                    })}
                    {memory.map(|m| view! { <p class="memory">{m}</p> })}
                    {checked.map(|c| view! { <p class="checked">{c}</p> })}
                }
                .into_any()
            }
        })
    };
    view! {
        <details class="about production" on:toggle=move |e| {
            let el = event_target::<web_sys::HtmlDetailsElement>(&e);
            open.set(el.open());
        }>
            <summary>{text(&PRODUCTION, |t| t.title)}</summary>
            {body}
        </details>
    }
}

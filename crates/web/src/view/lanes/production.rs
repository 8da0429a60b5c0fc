//! The lane's "run it in production" box: the Lua script for Redis that decides as
//! the lane does and how to call it with the lane's parameters, or the nginx lane's
//! `limit_req` lines, or for a teaching lane the wrong script it stands for; the
//! memory per key the lab measured and the versions the tests checked; and the
//! same lane as a ratelab-tower layer and a ratelab.js live limiter
//! (`ratelab_scripts::code`, the lines `ratelab lua` prints too). Texts the
//! engine generates from the parameters (`ratelab_scripts::production`): the page
//! never talks to a server. Every text goes in as a text node, never as markup.
//!
//! The scripts themselves are not in the bundle (about 7 KB gzipped, docs/benchmarks.md
//! "Bundle"): an opened box fetches its script's file (`scripts/lua/…`, copied to
//! dist by Trunk from `crates/scripts/`) and its shared parts, and splices them as
//! the build does (`ratelab_scripts::splice`, tested equal to the built text).

use leptos::either::EitherOf3;
use leptos::prelude::*;
use ratelab_scripts::code::code_lines;
use ratelab_scripts::production::{production_without_text, Kind, Production};
use ratelab_scripts::{NGINX_VERSION, REDIS_VERSION};

use super::LaneCtx;
use crate::texts::json::JSON;
use crate::texts::production::{ProductionTexts, PRODUCTION};
use crate::view::learn::fetch::Kept;
use crate::view::{text, use_ctx};

/// What goes wrong with a teaching script, in the page's words.
fn wrong(t: &ProductionTexts, id: &str) -> &'static str {
    match id {
        "token_bucket_float_seconds" => t.float_seconds,
        "sliding_log_zadd_first" => t.zadd_first,
        _ => "",
    }
}

thread_local! {
    /// Script texts by file, fetched or given: each fetched once per page.
    static SCRIPTS: Kept<&'static str, String> = const { Kept::new() };
}

/// Gives the text of the script whose file is `file` (`ratelab_scripts::Script::file`)
/// instead of fetching it (for tests, whose runner serves no files of ours).
pub fn provide_script(file: &'static str, text: String) {
    SCRIPTS.with(|s| s.put(file, text));
}

fn known(file: &'static str) -> Option<String> {
    SCRIPTS.with(|s| s.get(&file))
}

/// The script in `file`, with its parts spliced in: known, or fetched from
/// `scripts/` beside the loader. Errors are one line naming the file.
async fn script_text(file: &'static str) -> Result<String, String> {
    if let Some(t) = known(file) {
        return Ok(t);
    }
    let get = |f: String| async move {
        let url = crate::worker::beside_loader(&format!("scripts/{f}"));
        crate::view::learn::fetch::get(&url)
            .await
            .map_err(|e| format!("{url}: {e}"))
    };
    let body = get(file.to_string()).await?;
    let mut parts = Vec::new();
    for part in ratelab_scripts::parts(&body) {
        parts.push((part.to_string(), get(format!("lua/{part}.lua")).await?));
    }
    let text = ratelab_scripts::splice(&body, |p| {
        parts.iter().find(|(n, _)| n == p).map(|(_, t)| t.as_str())
    })
    .ok_or_else(|| format!("scripts/{file}: a part is missing"))?;
    provide_script(file, text.clone());
    Ok(text)
}

/// The box of the lane in context. What it holds ([`body`]) is a chunk, fetched
/// and made the first time it is opened.
#[component]
pub fn ProductionBox() -> impl IntoView {
    let opened = RwSignal::new(false);
    view! {
        <details class="about production" on:toggle=move |e| {
            let el = event_target::<web_sys::HtmlDetailsElement>(&e);
            if el.open() && !opened.get_untracked() {
                opened.set(true);
            }
        }>
            <summary>{text(&PRODUCTION, |t| t.title)}</summary>
            {move || {
                opened
                    .get()
                    .then(|| crate::view::chunks::panel("production", crate::view::chunks::production))
            }}
        </details>
    }
}

/// What the box of the lane in context holds (in the `production` chunk): the
/// script or the nginx lines for the lane as it is now, how to call it, the
/// memory per key and the versions checked.
pub fn body() -> impl IntoView {
    let ctx = use_ctx();
    let lane = expect_context::<LaneCtx>();
    let made = Memo::new(move |_| -> Option<Result<Production, String>> {
        ctx.run.with(|s| {
            s.sim.lanes().get(lane.j).map(|l| {
                production_without_text(l.algorithm, &l.params, &l.id).map_err(|e| e.to_string())
            })
        })
    });
    // The script's text, once fetched (`None` meanwhile): a box shows its own
    // script or a line saying it is coming, never another lane's.
    let script = RwSignal::new(None::<(&'static str, Result<String, String>)>);
    let file_of = |m: &Option<Result<Production, String>>| match m {
        Some(Ok(p)) => p.script.map(|s| s.file),
        _ => None,
    };
    Effect::new(move |_| {
        let Some(file) = made.with(file_of) else {
            return;
        };
        if script.with_untracked(|s| s.as_ref().is_some_and(|(f, _)| *f == file)) {
            return;
        }
        leptos::task::spawn_local(async move {
            let text = script_text(file).await;
            if made.try_with_untracked(file_of).flatten() == Some(file) {
                script.try_set(Some((file, text)));
            }
        });
    });
    // What the `<pre>` shows: the nginx lines as made, a script once fetched.
    let code = Memo::new(move |_| -> Option<Result<String, String>> {
        made.with(|m| match m {
            Some(Ok(p)) => match p.script {
                None => Some(Ok(p.text.clone())),
                Some(s) => script.with(|got| match got {
                    Some((f, text)) if *f == s.file => Some(text.clone()),
                    _ => None,
                }),
            },
            _ => None,
        })
    });
    let copied = RwSignal::new(false);
    let copy = move |_| {
        let script = code.with_untracked(|c| match c {
            Some(Ok(text)) => Some(text.clone()),
            _ => None,
        });
        if let (Some(w), Some(script)) = (web_sys::window(), script) {
            // Not awaited: if the browser refuses, the text is there to select.
            let _ = w.navigator().clipboard().write_text(&script);
            copied.set(true);
        }
    };
    move || {
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
                // The same lane in Rust and JavaScript, under the call (or alone,
                // for nginx): in the one `<pre>`, so that the box gains no element.
                let lines = ctx.run.with(|s| {
                    s.sim
                        .lanes()
                        .get(lane.j)
                        .and_then(|l| code_lines(l.algorithm, &l.params))
                });
                let call = match (p.call, lines) {
                    (call, None) => call,
                    (call, Some(c)) => Some(format!(
                        "{}// Rust (ratelab-tower)\n{}\n// JavaScript (ratelab.js)\n{}",
                        call.map(|c| c + "\n").unwrap_or_default(),
                        c.rust,
                        c.js
                    )),
                };
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
                    {move || match code.get() {
                        Some(Ok(text)) => EitherOf3::A(view! { <pre class="code">{text}</pre> }),
                        Some(Err(why)) => EitherOf3::B(view! {
                            <p class="error">{t.unavailable}": "{why}</p>
                        }),
                        None => EitherOf3::C(view! { <p class="loading">{t.loading}</p> }),
                    }}
                    {call.map(|c| view! {
                        <p class="call-title">{t.call}</p>
                        <pre class="code">{c}</pre>
                    })}
                    {memory.map(|m| view! { <p class="memory">{m}</p> })}
                    {checked.map(|c| view! { <p class="checked">{c}</p> })}
                }
                .into_any()
            }
        })
    }
}

//! What an algorithm promises, where it fits, where it misleads.
//!
//! The three paragraphs are not in the bundle: the box fetches its language's
//! file (`about/en.txt`, `about/vi.txt` beside the loader, copied to dist by Trunk
//! from `web/about/`) the first time it is opened in that language, once per page.

use std::sync::Arc;

use leptos::prelude::*;
use ratelab_core::Algorithm;

use crate::texts::algorithms::ABOUT_PARTS;
use crate::texts::chunks::CHUNKS;
use crate::texts::lanes::LANES;
use crate::texts::Lang;
use crate::view::learn::fetch::Kept;
use crate::view::{text, use_ctx};

/// The "about this limiter" box. What it holds ([`body`]) is a chunk of its
/// own (`about`), fetched the first time a box is opened.
#[component]
pub fn About() -> impl IntoView {
    let opened = RwSignal::new(false);
    view! {
        <details
            class="about"
            on:toggle=move |e| {
                let d = event_target::<web_sys::HtmlDetailsElement>(&e);
                if d.open() && !opened.get_untracked() {
                    opened.set(true);
                }
            }
        >
            <summary>{text(&LANES, |t| t.about)}</summary>
            {move || opened.get().then(|| crate::view::chunks::panel("about", crate::view::chunks::about))}
        </details>
    }
}

thread_local! {
    /// The about texts by language, fetched or given: each fetched once per page.
    static ABOUT: Kept<Lang, Arc<str>> = const { Kept::new() };
}

/// Gives the about file of `lang` instead of fetching it (for tests, whose
/// runner serves no files of ours).
pub fn provide_about(lang: Lang, file: &str) {
    ABOUT.with(|a| a.put(lang, Arc::from(file)));
}

/// The about file of `lang`: given, or fetched. Errors are one line naming the
/// file.
async fn about_file(lang: Lang) -> Result<Arc<str>, String> {
    if let Some(t) = ABOUT.with(|a| a.get(&lang)) {
        return Ok(t);
    }
    let url = crate::worker::beside_loader(&format!("about/{}.txt", lang.code()));
    let body: Arc<str> = crate::view::learn::fetch::get(&url)
        .await
        .map_err(|e| format!("{url}: {e}"))?
        .into();
    ABOUT.with(|a| a.put(lang, body.clone()));
    Ok(body)
}

/// The text of `key` in an about file (`key = text` lines, `ratelab_learn`'s
/// texts format, read here without its parser: it would add it to this chunk), or
/// the key in brackets, so that a missing text shows as what is missing.
pub fn entry(file: &str, key: &str) -> String {
    file.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(" = "))
        .map_or_else(|| format!("[{key}]"), |t| t.trim().to_string())
}

/// What the box holds for the lane in context: what its algorithm promises,
/// where it fits, where it misleads, in the page's language (fetched when first
/// shown in it; meanwhile a line says so, and if it cannot be fetched a line says
/// that, in the page's language).
pub fn body() -> impl IntoView {
    let ctx = use_ctx();
    let algorithm: Algorithm = expect_context::<super::LaneCtx>().algorithm;
    // The texts of the language last asked for: `None` while on the way.
    let got = RwSignal::new(None::<(Lang, Result<Arc<str>, String>)>);
    Effect::new(move |_| {
        let lang = ctx.lang.get();
        if got.with_untracked(|g| g.as_ref().is_some_and(|(l, _)| *l == lang)) {
            return;
        }
        leptos::task::spawn_local(async move {
            let texts = about_file(lang).await;
            if ctx.lang.try_get_untracked() == Some(lang) {
                got.try_set(Some((lang, texts)));
            }
        });
    });
    // One paragraph's text, or nothing while the file is on the way or missing.
    let part = move |part: &'static str| {
        Signal::derive(move || {
            let lang = ctx.lang.get();
            got.with(|g| match g {
                Some((l, Ok(file))) if *l == lang => {
                    entry(file, &format!("{}.{part}", algorithm.id()))
                }
                _ => String::new(),
            })
        })
    };
    // What the box says instead, while the file is on the way or if it failed.
    let status = Signal::derive(move || {
        let lang = ctx.lang.get();
        got.with(|g| match g {
            Some((l, Ok(_))) if *l == lang => String::new(),
            Some((l, Err(why))) if *l == lang => format!("{} ({why})", CHUNKS.get(lang).failed),
            _ => CHUNKS.get(lang).loading.to_string(),
        })
    });
    view! {
        <p class="loading" class:hidden=move || status.with(String::is_empty)>{status}</p>
        <dl>
            <dt>{text(&LANES, |t| t.promise)}</dt>
            <dd>{part(ABOUT_PARTS[0])}</dd>
            <dt>{text(&LANES, |t| t.fits)}</dt>
            <dd>{part(ABOUT_PARTS[1])}</dd>
            <dt>{text(&LANES, |t| t.misleads)}</dt>
            <dd>{part(ABOUT_PARTS[2])}</dd>
        </dl>
    }
}

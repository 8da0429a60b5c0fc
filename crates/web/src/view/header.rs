//! The masthead: the title, the tagline, "copy link" (on the page) and the
//! language switch.

use leptos::prelude::*;

use super::{text, use_ctx};
use crate::model::time_label;
use crate::state::Action;
use crate::texts::page::PAGE;
use crate::texts::Lang;

/// The page's address for the view as it is now (the address bar lags the view by
/// up to `url::URL_EVERY_MS`, so it is built here rather than read), with the part
/// of the page at the top of the window as its fragment ([`super::place`]).
fn link_now(query: &str, part: Option<String>) -> Option<String> {
    let location = web_sys::window()?.location();
    let (origin, path) = (location.origin().ok()?, location.pathname().ok()?);
    let part = part.map(|p| format!("#{p}")).unwrap_or_default();
    Some(format!("{origin}{path}?{query}{part}"))
}

/// Copies the link to the view as it is now; `here`: opening at the part of the
/// page at the top of the window (the clock bar's button, which stays in view
/// there; the masthead's is at the top of the page). Returns whether it did.
fn copy(ctx: super::Ctx, e: &web_sys::MouseEvent, here: bool) -> bool {
    let part = e
        .target()
        .filter(|_| here)
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
        .and_then(|b| b.closest(".ratelab").ok().flatten())
        .and_then(|root| super::place::part_at_top(&root));
    // The query is built at the click only (a long imported stream makes it costly).
    let Some(link) = ctx.read(|p| p.query()).and_then(|q| link_now(&q, part)) else {
        return false;
    };
    if let Some(w) = web_sys::window() {
        // Not awaited: if the browser refuses, the address bar still has it.
        let _ = w.navigator().clipboard().write_text(&link);
    }
    true
}

/// "Copy link" and what it is for: the address is the whole view. Only on the
/// page: an embed's address is its host's.
#[component]
fn CopyLink() -> impl IntoView {
    let ctx = use_ctx();
    let copied = RwSignal::new(false);
    let label = Signal::derive(move || {
        let t = PAGE.get(ctx.lang.get());
        if copied.get() {
            t.link_copied
        } else {
            t.copy_link
        }
    });
    view! {
        <p class="share">
            <button
                type="button"
                class="copy-link"
                on:click=move |e| {
                    if copy(ctx, &e, false) {
                        copied.set(true);
                        gloo_timers::callback::Timeout::new(2_000, move || {
                            let _ = copied.try_set(false);
                        })
                        .forget();
                    }
                }
            >
                {label}
            </button>
            " "
            <span class="hint">{text(&PAGE, |t| t.shareable)}</span>
        </p>
    }
}

/// The clock bar's link button (the page only): a link that opens at the part of
/// the page at the top of the window ([`super::place`]). Says it copied by its
/// class for a moment (set on the element: no state of its own).
#[component]
pub fn LinkHere() -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <button
            type="button"
            class="link-here"
            title=text(&PAGE, |t| t.link_here)
            on:click=move |e| {
                let button = e.current_target().and_then(|t| {
                    wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok()
                });
                if let (true, Some(b)) = (copy(ctx, &e, true), button) {
                    let _ = b.class_list().add_1("copied");
                    gloo_timers::callback::Timeout::new(2_000, move || {
                        let _ = b.class_list().remove_1("copied");
                    })
                    .forget();
                }
            }
        >
            "#"
        </button>
    }
}

/// The masthead.
#[component]
pub fn Header() -> impl IntoView {
    let ctx = use_ctx();
    // The first lane's limit, so that lab B's page speaks of 100 per 60 s.
    let run = ctx.run;
    // A service scenario's own: the retry storm's 50 per 1 s.
    let rate = Memo::new(move |_| run.with(|r| r.sim.first_limit(&r.setup)));
    let tagline = move || {
        let (limit, period) = rate.get().unwrap_or((5, 10_000));
        PAGE.get(ctx.lang.get())
            .tagline_for(limit, &time_label(period))
    };
    let options = Lang::ALL.map(|l| {
        view! {
            <option value=l.code() prop:selected=Signal::derive(move || ctx.lang.get() == l)>
                {l.name()}
            </option>
        }
    });
    view! {
        <header class="masthead">
            <div>
                <h1>"ratelab"</h1>
                <p class="tagline">{tagline}</p>
            </div>
            // Beside the title, not under it: the lanes stay as high on the page.
            <div class="masthead-side">
            <label class="lang">
                <span>{text(&PAGE, |t| t.language)}</span>
                <select
                    aria-label="Language / Ngôn ngữ"
                    on:change=move |e| ctx.act(Action::Lang(Lang::from_code(&event_target_value(&e))))
                >
                    {options}
                </select>
            </label>
            {(!ctx.embed).then(CopyLink)}
            </div>
        </header>
    }
}

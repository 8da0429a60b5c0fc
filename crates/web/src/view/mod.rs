//! The page: Leptos components over the model.
//!
//! [`App`] creates the model, provides it to every component as a [`Ctx`] (a signal
//! and memos over it, see [`context`]) and lays the page out, one line per part.
//! Each part is a component in its own file, reading what it shows from the context
//! and doing what a person asks with [`Ctx::act`]. See ARCHITECTURE.md, "How to add
//! a panel".

pub mod choose;
pub mod chunks;
pub mod clock;
pub mod context;
pub mod controls;
pub mod field;
pub mod header;
pub mod keys;
pub mod lanes;
pub mod learn;
pub mod live;
pub mod notices;
pub mod place;
pub mod service;
pub mod setup;
pub mod sweep;
pub mod trace;
pub mod url;
pub mod yardstick;
pub mod zoom;

use leptos::either::Either;
use leptos::prelude::*;
use web_sys::HtmlElement;

pub use context::{text, use_ctx, Ctx};

use crate::state::{MountOptions, Playground, Theme};

fn prefers(query: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.match_media(query).ok().flatten())
        .is_some_and(|m| m.matches())
}

/// A number unique to this page, so two playgrounds never share an element id.
fn instance() -> u32 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// `data-theme` for the stylesheet: `light` or `dark` as asked; for `auto`, `auto`
/// (inherit the host's `color-scheme`, so a docs site's dark theme is followed as
/// it switches) when the host declares one, else `os` (follow the OS). Read once:
/// a host that starts declaring a scheme later is not followed.
fn theme_attribute(theme: Theme, root: Option<&HtmlElement>) -> &'static str {
    match theme {
        Theme::Light => "light",
        Theme::Dark => "dark",
        Theme::Auto => {
            let declared = root
                .and_then(|r| {
                    let style = web_sys::window()?.get_computed_style(r).ok()??;
                    style.get_property_value("color-scheme").ok()
                })
                .is_some_and(|s| !s.is_empty() && s != "normal");
            if declared {
                "auto"
            } else {
                "os"
            }
        }
    }
}

/// On the page (not in an embed, whose document is its host's): `<html lang>` and
/// the title follow the language, so that screen readers, hyphenation and the
/// browser's "translate this page?" treat a Vietnamese page as Vietnamese.
fn follow_document(ctx: Ctx) {
    Effect::new(move |_| {
        let lang = ctx.lang.get();
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        if let Some(html) = doc.document_element() {
            let _ = html.set_attribute("lang", lang.code());
        }
        doc.set_title(crate::texts::page::PAGE.get(lang).title);
    });
}

/// The playground.
#[component]
pub fn App(
    /// How it is mounted and what it opens.
    options: MountOptions,
    /// The element it is mounted in (for the panic hook); `None` in tests.
    #[prop(optional)]
    root: Option<HtmlElement>,
    /// The lanes container's width, px, when known before mounting (the page's
    /// placeholder lane); else measured once mounted.
    #[prop(default = None)]
    lanes_px: Option<f64>,
) -> impl IntoView {
    let theme = theme_attribute(options.theme, root.as_ref());
    let mut playground = match Playground::new(options) {
        Ok(p) => p,
        // `Either`, not `.into_any()`: an `AnyView` keeps a rebuild function for the
        // whole page's view type, code that never runs (the page is built once).
        Err(e) => return Either::Left(view! { <p class="error">{e}</p> }),
    };
    playground.set_reduced_motion(prefers("(prefers-reduced-motion: reduce)"));
    let ctx = Ctx::new(playground, instance());
    if let Some(w) = lanes_px {
        ctx.width.set(lanes::timeline_width(w));
    }
    provide_context(ctx);
    url::keep(ctx, root.clone());
    clock::run_while_playing(ctx);
    let (compact, embed) = (ctx.compact, ctx.embed);
    if !embed {
        keys::on_page(ctx);
        follow_document(ctx);
        let hash = web_sys::window().and_then(|w| w.location().hash().ok());
        if let (Some(root), Some(hash)) = (root.clone(), hash.filter(|h| h.len() > 1)) {
            leptos::task::spawn_local(async move {
                let _ = chunks::scroll_to_named(root.into(), hash).await;
            });
        }
    }
    Either::Right(view! {
        <div
            class="ratelab"
            class:compact=compact
            class:embed=embed
            lang=Signal::derive(move || ctx.lang.get().code())
            dir="ltr"
            data-theme=theme
            tabindex=embed.then_some("0")
            on:keydown=move |e| {
                if embed {
                    keys::on_key(ctx, &e);
                }
            }
        >
            {(!compact).then(header::Header)}
            <notices::Notices />
            {(!compact && !embed).then(|| chunks::panel("lessons", chunks::lessons))}
            {(!compact && !embed).then(choose::chooser_fold)}
            {(!compact && !embed).then(choose::quiz_fold)}
            {(!compact).then(setup::Setup)}
            {limiters_or_services(ctx, compact)}
        </div>
    })
}

/// The limiters' part of the page: the clock, the lanes, the yardstick, lab D's
/// sweep, the trace.
fn limiters(compact: bool) -> impl IntoView {
    view! {
        <controls::Controls />
        <live::Live />
        <lanes::Lanes />
        <yardstick::Yardstick />
        {(!compact).then(|| chunks::panel("sweep", chunks::sweep))}
        {(!compact).then(|| chunks::panel("trace", chunks::trace))}
    }
}

/// The limiters' part, or for a service run (no limiter lanes: its lanes are
/// services, shown whole, with no clock) the service view, fetched the first time
/// a service run is shown.
fn limiters_or_services(ctx: Ctx, compact: bool) -> impl IntoView {
    let service_run = Memo::new(move |_| ctx.run.with(|s| s.sim.is_service_run()));
    view! {
        <Show when=move || !service_run.get()>{limiters(compact)}</Show>
        {move || service_run.get().then(|| chunks::panel("service", chunks::services))}
    }
}

/// The `service` scenario's part of the setup (its knobs), in the service view's
/// chunk, fetched when that scenario is first chosen.
pub fn service_knobs() -> impl IntoView {
    let ctx = use_ctx();
    let shown = Memo::new(move |_| {
        ctx.run
            .with(|s| s.setup.scenario == ratelab_sim::ScenarioId::Service)
    });
    move || shown.get().then(|| chunks::panel("service", chunks::knobs))
}

//! Panels fetched on demand. Each `#[wasm_split]` function below is a split point:
//! `cargo xtask wasm` (xtask/src/wasm.rs) cuts it, and every function only it
//! reaches, out of the first module into a chunk of its own, fetched the first time
//! the panel is shown. Until then the panel's place says it is loading; if the
//! chunk cannot be fetched (offline, blocked, 404) it says so in one line, in the
//! page's language, and the rest of the page keeps working (`fallible`: a failed
//! load is an `Err`, never a trap). Natively, and in the wasm tests, which are not
//! split, the functions are called directly.
//!
//! A panel moves here by a function that returns it as an `AnyView` and a line in
//! [`App`](super::App) calling [`panel`] with it.

use leptos::prelude::*;
#[cfg(feature = "split")]
use wasm_split_helpers::wasm_split;

use super::text;
use crate::texts::chunks::CHUNKS;

/// A chunk that could not be fetched.
pub struct NotLoaded;

#[cfg(feature = "split")]
impl From<wasm_split_helpers::SplitLoaderError> for NotLoaded {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        NotLoaded
    }
}

/// A panel's loader: with the `split` feature a split point (an `async fn` that
/// fetches the chunk first), without it an `async fn` that makes the panel at once.
macro_rules! chunk {
    ($(#[doc = $doc:literal])* $name:ident in $module:ident: $panel:expr) => {
        $(#[doc = $doc])*
        #[cfg(feature = "split")]
        #[wasm_split($module, fallible)]
        pub fn $name() -> Result<AnyView, NotLoaded> {
            Ok($panel.into_any())
        }

        $(#[doc = $doc])*
        #[cfg(not(feature = "split"))]
        pub async fn $name() -> Result<AnyView, NotLoaded> {
            Ok($panel.into_any())
        }
    };
}

chunk! {
    /// The lessons panel (`view/learn`) and the lesson runner.
    lessons in lessons: super::learn::Lessons()
}

chunk! {
    /// The setup form (`view/setup`): the scenario picker, the shared budget, the
    /// lanes, the custom stream, the JSON box.
    setup in setup: super::setup::form()
}

chunk! {
    /// What a lane's "run it in production" box holds (`view/lanes/production.rs`).
    production in production: super::lanes::production::body()
}

chunk! {
    /// What a lane's "about" box holds (`view/lanes/about.rs`): the code that
    /// fetches and shows its texts.
    about in about: super::lanes::about::body()
}

chunk! {
    /// Lab D's sweep (`view/sweep.rs`).
    sweep in sweep: super::sweep::SweepPanel()
}

chunk! {
    /// "Which limiter?" (`view/learn/chooser.rs`), in the lessons panel.
    chooser in chooser: super::learn::chooser::chooser()
}

chunk! {
    /// The quiz (`view/learn/quiz.rs`), under the lessons.
    quiz in quiz: super::learn::quiz::quiz()
}

chunk! {
    /// The trace table (`view/trace.rs`).
    trace in trace: super::trace::Trace()
}

chunk! {
    /// The service view (`view/service`) and the service engine's run.
    services in service: super::service::Services()
}

chunk! {
    /// The `service` scenario's knobs (`view/service/knobs.rs`), with the view.
    knobs in service: super::service::knobs::Knobs()
}

/// The JS API's runs (`crate::api`'s `convert`), fetched by `load()`: function
/// pointers into the chunk, called synchronously once it is here.
#[cfg(feature = "split")]
#[wasm_split(api, fallible)]
pub fn api() -> Result<crate::api::Calls, NotLoaded> {
    Ok(crate::api::CALLS)
}

/// A run in a chunk that failed: its message, or that the chunk could not be
/// fetched.
pub struct Failed(pub String);

#[cfg(feature = "split")]
impl From<wasm_split_helpers::SplitLoaderError> for Failed {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        Failed("could not fetch a part of the playground (a split_*.wasm or chunk_*.wasm next to ratelab-web.js)".into())
    }
}

/// Lab D's sweep for the worker (`crate::worker::rows`), with the sweep panel.
#[cfg(feature = "split")]
#[wasm_split(sweep, fallible)]
pub fn sweep_rows(seed: f64) -> Result<js_sys::Array, Failed> {
    crate::worker::rows(seed).map_err(Failed)
}

/// Lab D's sweep for the worker (`crate::worker::rows`).
#[cfg(not(feature = "split"))]
pub async fn sweep_rows(seed: f64) -> Result<js_sys::Array, Failed> {
    crate::worker::rows(seed).map_err(Failed)
}

/// The JSON box's import (`super::setup::json::import`): the text read here, or
/// in a worker whose answer is decoded here.
#[cfg(feature = "split")]
#[wasm_split(import, fallible)]
pub fn import_box(ctx: super::Ctx, area: NodeRef<leptos::html::Textarea>) -> Result<(), NotLoaded> {
    super::setup::json::import(ctx, area);
    Ok(())
}

/// The JSON box's import (`super::setup::json::import`).
#[cfg(not(feature = "split"))]
pub async fn import_box(
    ctx: super::Ctx,
    area: NodeRef<leptos::html::Textarea>,
) -> Result<(), NotLoaded> {
    super::setup::json::import(ctx, area);
    Ok(())
}

/// The JSON box's export (`crate::import::export`).
#[cfg(feature = "split")]
#[wasm_split(import, fallible)]
pub fn write_json(setup: ratelab_sim::share::Setup) -> Result<String, NotLoaded> {
    Ok(crate::import::export(&setup))
}

/// The JSON box's export (`crate::import::export`).
#[cfg(not(feature = "split"))]
pub async fn write_json(setup: ratelab_sim::share::Setup) -> Result<String, NotLoaded> {
    Ok(crate::import::export(&setup))
}

/// The worker's reading of a big import (`crate::worker::read_import_now`).
#[cfg(feature = "split")]
#[wasm_split(import, fallible)]
pub fn read_import(text: String) -> Result<js_sys::Array, Failed> {
    Ok(crate::worker::read_import_now(&text))
}

/// The worker's reading of a big import (`crate::worker::read_import_now`).
#[cfg(not(feature = "split"))]
pub async fn read_import(text: String) -> Result<js_sys::Array, Failed> {
    Ok(crate::worker::read_import_now(&text))
}

/// Scrolls to the part a link's fragment names (`super::place`): fetched only
/// for a link with a fragment.
#[cfg(feature = "split")]
#[wasm_split(place, fallible)]
pub fn scroll_to_named(root: web_sys::Element, hash: String) -> Result<(), NotLoaded> {
    super::place::scroll_to_named(root, &hash);
    Ok(())
}

/// Scrolls to the part a link's fragment names (`super::place`).
#[cfg(not(feature = "split"))]
pub async fn scroll_to_named(root: web_sys::Element, hash: String) -> Result<(), NotLoaded> {
    super::place::scroll_to_named(root, &hash);
    Ok(())
}

/// What a panel's place holds.
enum Slot {
    /// Its chunk is on the way.
    Loading,
    /// Loaded, not yet drawn.
    Ready(AnyView),
    /// It could not be fetched.
    Failed,
    /// Drawn (the view has moved into the page).
    Shown,
}

/// The panel `load` makes, drawn in its place once its chunk is here: a line that
/// says it is loading until then, or the notice if it cannot be fetched.
/// `name` is the place's `data-chunk`, for the tests.
pub fn panel<F>(name: &'static str, load: impl FnOnce() -> F + 'static) -> impl IntoView
where
    F: std::future::Future<Output = Result<AnyView, NotLoaded>> + 'static,
{
    placed(name, Box::new(move || Box::pin(load())))
}

/// A chunk on its way: what a panel's loader returns, boxed.
pub type Loading = std::pin::Pin<Box<dyn std::future::Future<Output = Result<AnyView, NotLoaded>>>>;

/// A panel's loader, boxed: [`panel`]'s work is one function for every panel
/// (as a generic, each panel added its own copy of the place's view code).
pub type Load = Box<dyn FnOnce() -> Loading>;

/// [`panel`], for any loader (the folds under the lessons call it with a function
/// pointer, so that they share one copy of the fold's code: `view/choose.rs`).
pub fn placed(name: &'static str, load: Load) -> impl IntoView {
    let slot = RwSignal::new_local(Slot::Loading);
    // After the page's first frame is drawn (the first lanes come from the first
    // module alone), and under this component's owner, so the panel's context,
    // memos and effects are the page's as if it had been built in place. A
    // playground unmounted before then (or while the chunk is on its way) starts
    // nothing and makes nothing: its owner is gone.
    let alive = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let flag = alive.clone();
    on_cleanup(move || flag.store(false, std::sync::atomic::Ordering::Relaxed));
    let owner = Owner::current();
    let start = move || {
        leptos::task::spawn_local_scoped_with_cancellation(async move {
            let next = match load().await {
                Ok(v) => Slot::Ready(v),
                Err(NotLoaded) => Slot::Failed,
            };
            slot.set(next);
        })
    };
    crate::after_paint(move || {
        if !alive.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        match owner {
            Some(owner) => owner.with(start),
            None => start(),
        }
    });
    let loading = text(&CHUNKS, |t| t.loading);
    let failed = text(&CHUNKS, |t| t.failed);
    move || {
        slot.track();
        let now = slot
            .try_update_untracked(|s| std::mem::replace(s, Slot::Shown))
            .unwrap_or(Slot::Shown);
        match now {
            Slot::Loading => {
                view! { <p class="chunk loading" data-chunk=name role="status">{loading}</p> }
                    .into_any()
            }
            Slot::Ready(v) => v,
            Slot::Failed => {
                view! { <p class="chunk error" data-chunk=name role="alert">{failed}</p> }
                    .into_any()
            }
            Slot::Shown => ().into_any(),
        }
    }
}

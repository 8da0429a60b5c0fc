//! The setup in the command line's JSON format: export, edit, import, copy.

use leptos::html::Textarea;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::state::{Place, Playground};
use crate::texts::budget;
use crate::texts::json::JSON;
use crate::view::{chunks, text, use_ctx, Ctx};
use crate::{import, worker};

/// The JSON box.
#[component]
pub fn JsonBox() -> impl IntoView {
    let ctx = use_ctx();
    // The box's owner: a read or export that waits for its chunk stops if the box
    // is removed meanwhile.
    let owner = Owner::current();
    let export_owner = owner.clone();
    let area = NodeRef::<Textarea>::new();
    // By pointer (`BoxText`): this memo re-runs every frame while the clock plays,
    // and the text can be megabytes.
    let json = ctx.memo(|p| p.json.clone());
    let open = ctx.memo(|p| p.json_open);
    let copied = ctx.memo(|p| p.copied);
    let error = ctx.error(Place::Json);
    let error = move || error.get().map(|e| budget::localise(&e, ctx.lang.get()));
    let typed = move || area.get_untracked().map(|a| a.value()).unwrap_or_default();
    // A read that is no longer wanted (a change or a newer import came) is
    // stopped: its worker, or the decoding of its answer.
    let reading = ctx.memo(|p| p.reading.is_some());
    Effect::new(move |_| {
        if !reading.get() {
            worker::stop_reading();
        }
    });
    let copy = move |_| {
        if let Some(w) = web_sys::window() {
            // The promise is not awaited: if the browser refuses, the text is still
            // there to copy by hand.
            let _ = w.navigator().clipboard().write_text(&typed());
            ctx.update(Playground::json_copied);
        }
    };
    let copy_label = Signal::derive(move || {
        let t = JSON.get(ctx.lang.get());
        if copied.get() {
            t.copied
        } else {
            t.copy
        }
    });
    view! {
        <details
            class="json"
            prop:open=open
            on:toggle=move |e| {
                let d: web_sys::HtmlDetailsElement = event_target(&e);
                if d.open() != open.get_untracked() {
                    ctx.update(|p| p.open_json(d.open()));
                }
            }
        >
            <summary>{text(&JSON, |t| t.json)}</summary>
            <textarea
                name="json"
                rows="6"
                spellcheck="false"
                // Chromium copies a form's text into every history entry the
                // page's URL writes: 1.1 s each time with an 18 MB import in the
                // box (docs/bad-input.md, "Big imports"); "off" leaves it out.
                autocomplete="off"
                aria-label=text(&JSON, |t| t.json)
                node_ref=area
                prop:value=Signal::derive(move || json.get().to_string())
                // On change (when the box loses focus), not on every key: the model
                // only needs the text when a button reads it or writes over it.
                on:change=move |_| ctx.update(|p| p.json_edited(edited(area)))
            ></textarea>
            <span class="error" role="alert">
                {error}
            </span>
            <super::building::Building />
            <div class="buttons">
                <button
                    type="button"
                    class="export"
                    on:click=move |_| export(ctx, export_owner.clone())
                >
                    {text(&JSON, |t| t.export)}
                </button>
                <button
                    type="button"
                    class="import"
                    on:click=move |_| start_import(ctx, area, owner.clone())
                >
                    {text(&JSON, |t| t.import)}
                </button>
                <button type="button" class="copy" on:click=copy>
                    {copy_label}
                </button>
            </div>
        </details>
    }
}

/// The box's text as [`Playground::json_edited`] takes it: `None` for a big one,
/// whose length is read without copying it.
fn edited(area: NodeRef<Textarea>) -> Option<String> {
    let a = area.get_untracked()?;
    let (_, length) = value_of(&a);
    (length <= import::WORKER_TEXT).then(|| a.value())
}

/// The box's text as a JS string (not copied into the wasm) and its length in
/// UTF-16 units.
fn value_of(a: &web_sys::HtmlTextAreaElement) -> (wasm_bindgen::JsValue, usize) {
    let value = js_sys::Reflect::get(a, &"value".into()).unwrap_or_default();
    let length = value
        .dyn_ref::<js_sys::JsString>()
        .map_or(0, |s| s.length() as usize);
    (value, length)
}

/// Imports the box's text ([`import`]) in the import's chunk, fetched the first
/// time: the first module, and the setup's chunk, never read JSON. If it cannot
/// be fetched, the box says so.
fn start_import(ctx: Ctx, area: NodeRef<Textarea>, owner: Option<Owner>) {
    in_chunk(owner, async move {
        if chunks::import_box(ctx, area).await.is_err() {
            let error = not_loaded(ctx);
            ctx.update(|p| p.json_failed(error));
        }
    });
}

/// Imports the box's text: a big one is read in a worker while the page says
/// "reading…" (docs/bad-input.md, "Big imports"); a small one, or
/// any where no worker can start, here and now. In the import's chunk
/// ([`chunks::import_box`]).
pub fn import(ctx: Ctx, area: NodeRef<Textarea>) {
    let Some(a) = area.get_untracked() else {
        return;
    };
    // The text as a JS string, to post to the worker without a copy through wasm.
    let (value, length) = value_of(&a);
    if length <= import::WORKER_TEXT || !worker::can_read() {
        import_here(ctx, a.value());
        return;
    }
    ctx.update(Playground::start_reading);
    let Some(Some(ticket)) = ctx.read(|p| p.reading) else {
        return;
    };
    let done = move |read: Option<import::Checked>| match read {
        Some(read) => {
            ctx.update(|p| p.read(ticket, &import::Answer::new(read)));
            build(ctx);
        }
        // The worker could not: read here, unless a newer import or change came.
        None => here(ctx, area, ticket),
    };
    if worker::read_in_worker(&value, done).is_err() {
        here(ctx, area, ticket);
    }
}

/// Imports the box's text on this thread, if the read `ticket` is still wanted.
fn here(ctx: Ctx, area: NodeRef<Textarea>, ticket: u64) {
    if ctx.read(|p| p.reading == Some(ticket)) == Some(true) {
        if let Some(a) = area.get_untracked() {
            import_here(ctx, a.value());
        }
    }
}

/// Reads `text` on this thread and runs it.
fn import_here(ctx: Ctx, text: String) {
    let answer = import::Answer::new(import::read(&text));
    ctx.update(|p| p.import_json(&text, &answer));
    build(ctx);
}

thread_local! {
    /// The playgrounds ([`Ctx::uid`]) whose next slice waits for its frame.
    static WAITING: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Builds a big import ([`crate::state::Building`]) one slice after each frame
/// the page paints, until it is in force or a newer change cancelled it, so that
/// the page keeps answering; [`super::building::Building`] shows how far it is.
/// At most one slice of a playground waits for its frame: an import started again
/// meanwhile goes on with it. (Here, with the import, rather than in the setup's
/// chunk: only an import starts a build.)
fn build(ctx: Ctx) {
    let uid = ctx.uid;
    let building = ctx.read(|p| p.building.is_some()) == Some(true);
    if !building || WAITING.with_borrow(|w| w.contains(&uid)) {
        return;
    }
    WAITING.with_borrow_mut(|w| w.push(uid));
    crate::after_paint(move || {
        WAITING.with_borrow_mut(|w| w.retain(|&u| u != uid));
        if ctx.read(|p| p.building.is_some()) == Some(true) {
            ctx.update(Playground::build_some);
            build(ctx);
        }
    });
}

/// Fills the box with the setup in the JSON format, written in the import's
/// chunk.
fn export(ctx: Ctx, owner: Option<Owner>) {
    let Some(setup) = ctx.read(|p| p.setup().clone()) else {
        return;
    };
    in_chunk(owner, async move {
        let json = chunks::write_json(setup)
            .await
            .unwrap_or_else(|_| not_loaded(ctx));
        ctx.update(|p| p.export_json(json));
    });
}

/// The chunk's one-line notice, in the page's language.
fn not_loaded(ctx: Ctx) -> String {
    crate::texts::chunks::CHUNKS
        .get(ctx.lang.get_untracked())
        .failed
        .to_string()
}

/// Runs `work` (which waits for a chunk) under the box's owner: a box removed
/// meanwhile stops it.
fn in_chunk(owner: Option<Owner>, work: impl std::future::Future<Output = ()> + 'static) {
    match owner {
        Some(owner) => owner.with(|| leptos::task::spawn_local_scoped_with_cancellation(work)),
        None => leptos::task::spawn_local(work),
    }
}

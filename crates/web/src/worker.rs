//! Heavy runs off the main thread: lab D's sweep (about 2.9 million decisions,
//! hundreds of ms) runs in a module worker (`web/worker.js`) on this same wasm
//! module, so the page keeps drawing and answering while it runs.
//!
//! The worker is handed the page's compiled `WebAssembly.Module` (the loader
//! compiles it and passes it to [`set_worker`]): it
//! instantiates it without downloading or compiling the wasm again (a Module
//! crosses `postMessage` as compiled code).
//! Only the sweep's rows come back, as numbers. Where no worker can be started
//! (no loader told us where `worker.js` is, as in the test runner, or the page's
//! policy forbids workers) the caller runs the sweep itself, as before.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Object, Reflect};
use ratelab_sim::sweep::{load_label, sweep, Sweep, SweepRow, SweepSpec};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

type Handlers = (
    Closure<dyn FnMut(web_sys::MessageEvent)>,
    Closure<dyn FnMut(web_sys::Event)>,
);

thread_local! {
    /// `worker.js`'s URL and the compiled module, from the loader (`ratelab.js`,
    /// [`set_worker`]).
    static WORKER: RefCell<Option<(String, JsValue)>> = const { RefCell::new(None) };
    /// The handlers of the running sweep's worker (one at a time: the button is
    /// disabled while it runs); replaced by the next sweep's.
    static KEEP: RefCell<Option<Handlers>> = const { RefCell::new(None) };
}

/// Tells the engine where `worker.js` is and hands it the compiled module (the
/// loader calls this with a URL next to itself, so that a docs site serving
/// `dist/` from any folder finds it). Not part of the documented API.
#[wasm_bindgen(js_name = setWorker, skip_typescript)]
pub fn set_worker(url: String, module: JsValue) {
    if module.is_instance_of::<js_sys::WebAssembly::Module>() {
        WORKER.with(|w| {
            if let Ok(mut w) = w.try_borrow_mut() {
                *w = Some((url, module));
            }
        });
    }
}

/// `path` next to the loader (beside `worker.js`, which it names by a URL next to
/// itself), so that a page in any folder, or a docs site, finds the files Trunk
/// copied there; relative to the page when no loader said where it is.
pub(crate) fn beside_loader(path: &str) -> String {
    let dir = WORKER.with(|w| {
        let w = w.try_borrow().ok()?;
        let (url, _) = w.as_ref()?;
        url.rfind('/').map(|i| url[..=i].to_string())
    });
    format!("{}{path}", dir.unwrap_or_default())
}

/// The numbers of one sweep row, in the order [`sweep_rows`] writes them.
const ROW_FIELDS: usize = 6;

/// In the worker: lab D's sweep for `seed`, each row as
/// `[load_permille, requests, baseline_allowed, candidate_allowed, wrong_allows,
/// wrong_blocks]` (every count is below 2^53, so a JS number holds it exactly).
/// The sweep itself is in the `sweep` chunk ([`crate::view::chunks::sweep_rows`]),
/// fetched by the worker the first time.
#[wasm_bindgen(js_name = sweepRows, skip_typescript)]
pub async fn sweep_rows(seed: f64) -> Result<Array, JsError> {
    crate::view::chunks::sweep_rows(seed)
        .await
        .map_err(|e| JsError::new(&e.0))
}

/// Lab D's sweep for `seed` as [`sweep_rows`] sends it.
pub(crate) fn rows(seed: f64) -> Result<Array, String> {
    let s = sweep(&SweepSpec::lab_d(seed_of(seed))).map_err(|e| e.to_string())?;
    Ok(s.rows
        .iter()
        .map(|r| {
            [
                u64::from(r.load_permille),
                r.requests,
                r.baseline_allowed,
                r.candidate_allowed,
                r.wrong_allows,
                r.wrong_blocks,
            ]
            .iter()
            .map(|&n| JsValue::from_f64(n as f64))
            .collect::<Array>()
        })
        .collect())
}

/// A seed from JS: a whole number in range, else 1 (the page only sends its own).
fn seed_of(x: f64) -> u64 {
    if x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x < 9_007_199_254_740_992.0 {
        x as u64
    } else {
        1
    }
}

/// Lab D's sweep for `seed` from rows as [`sweep_rows`] wrote them.
fn sweep_from_rows(seed: u64, rows: &JsValue) -> Result<Sweep, String> {
    let rows: &Array = rows.dyn_ref().ok_or("the worker sent no rows")?;
    let spec = SweepSpec::lab_d(seed);
    let mut out = Vec::new();
    for row in rows.iter() {
        let row: Array = row.dyn_into().map_err(|_| "a row is not an array")?;
        let n: Vec<u64> = row
            .iter()
            .filter_map(|v| v.as_f64())
            .filter(|v| *v >= 0.0 && v.fract() == 0.0)
            .map(|v| v as u64)
            .collect();
        let [permille, requests, baseline_allowed, candidate_allowed, wrong_allows, wrong_blocks] =
            n[..]
        else {
            return Err(format!("a row has not {ROW_FIELDS} counts"));
        };
        let load_permille = u32::try_from(permille).map_err(|_| "a load out of range")?;
        out.push(SweepRow {
            load: load_label(load_permille),
            load_permille,
            requests,
            baseline_allowed,
            candidate_allowed,
            wrong_allows,
            wrong_blocks,
        });
    }
    Ok(Sweep {
        baseline: ratelab_core::Algorithm::SlidingLog.id(),
        candidate: ratelab_core::Algorithm::SlidingWindowCounter.id(),
        limit: spec.limit,
        period_ms: spec.period_ms,
        clients: spec.clients,
        duration_ms: spec.duration_ms,
        seed,
        rows: out,
    })
}

/// The sweep on this thread: where no worker can run it.
pub fn sweep_here(seed: u64) -> Result<Sweep, String> {
    sweep(&SweepSpec::lab_d(seed)).map_err(String::from)
}

/// Starts lab D's sweep for `seed` in a worker and calls `done` with its result
/// when the worker answers. `Err` (nothing started) when no worker can be made: the
/// caller then runs the sweep itself. A worker that starts but cannot load (its
/// script or the module) ends in a sweep on this thread, so the panel always
/// gets its rows.
pub fn sweep_in_worker(
    seed: u64,
    done: impl FnOnce(Result<Sweep, String>) + 'static,
) -> Result<(), JsValue> {
    let message = Object::new();
    Reflect::set(&message, &"seed".into(), &JsValue::from_f64(seed as f64))?;
    let (_, handlers) = start(
        &message,
        Box::new(move |data: Option<JsValue>| {
            done(match data {
                None => sweep_here(seed),
                Some(data) => {
                    let error = Reflect::get(&data, &"error".into())
                        .ok()
                        .and_then(|v| v.as_string());
                    match error {
                        Some(e) => Err(e),
                        None => Reflect::get(&data, &"rows".into())
                            .map_err(|_| "the worker sent no rows".to_string())
                            .and_then(|rows| sweep_from_rows(seed, &rows)),
                    }
                }
            })
        }),
    )?;
    // The closures live as long as the worker can call them; the previous
    // sweep's (long answered: the button is disabled while one runs) go now.
    KEEP.with(|k| {
        if let Ok(mut k) = k.try_borrow_mut() {
            *k = Some(handlers);
        }
    });
    Ok(())
}

/// Starts a worker on the page's module and posts it `message` (with the module
/// added); `reply` gets its answer's data, or `None` if it failed to load or run.
/// Whichever comes first stops the worker and answers, once. The handlers must be
/// kept as long as the worker may call them.
fn start(
    message: &Object,
    reply: Box<dyn FnOnce(Option<JsValue>)>,
) -> Result<(web_sys::Worker, Handlers), JsValue> {
    let (url, module) = WORKER
        .with(|w| w.try_borrow().ok().and_then(|w| w.clone()))
        .ok_or_else(|| JsValue::from_str("no worker"))?;
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options(&url, &options)?;
    Reflect::set(message, &"module".into(), &module)?;
    let reply = Rc::new(RefCell::new(Some(reply)));
    let finish = {
        let worker = worker.clone();
        move |data: Option<JsValue>| {
            worker.terminate();
            let taken = reply.try_borrow_mut().ok().and_then(|mut d| d.take());
            if let Some(reply) = taken {
                reply(data);
            }
        }
    };
    let on_reply = finish.clone();
    let onmessage =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            on_reply(Some(e.data()))
        });
    let onerror = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| finish(None));
    worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
    if let Err(e) = worker.post_message(message) {
        worker.terminate();
        return Err(e);
    }
    Ok((worker, (onmessage, onerror)))
}

/// In the worker: the JSON box's big text read and checked
/// ([`crate::import::read_checked`]), as `[bytes, text]` for the page to decode
/// ([`crate::import::encode`]; a content error is in the text, so the page shows
/// the message its own reading would have given). The reader is in the import's
/// chunk (`split_import.wasm`), fetched here the first time; if it cannot be, the
/// promise rejects and the page reads the text itself.
#[wasm_bindgen(js_name = readImport, skip_typescript)]
pub async fn read_import(text: String) -> Result<Array, JsValue> {
    crate::view::chunks::read_import(text)
        .await
        .map_err(|crate::view::chunks::Failed(e)| JsValue::from_str(&e))
}

/// [`read_import`]'s work, in its chunk.
pub fn read_import_now(text: &str) -> Array {
    let (head, bytes) = crate::import::encode(&crate::import::read_checked(text));
    let bytes = js_sys::Uint8Array::from(&bytes[..]);
    Array::of2(&bytes, &JsValue::from(head))
}

thread_local! {
    /// The worker reading the latest big import, with its handlers; replaced (and
    /// the old one stopped) by the next import's.
    static READER: RefCell<Option<(web_sys::Worker, Handlers)>> = const { RefCell::new(None) };
    /// Which decoding of an answer is wanted: [`stop_reading`] moves it on, and a
    /// decoding that finds it moved stops.
    static DECODING: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many bytes of an answer's records one task decodes: 131 072 requests,
/// about 10 ms of work (the whole of 2 000 000 in one task was about 150 ms).
const STEP: u32 = 1 << 21;

/// Decodes a worker's answer, `STEP` bytes of records a task (each copied out
/// of the transferred buffer as it is decoded: never the whole at once), and
/// calls `done` with it, or with `None` if it is not one; never if a newer read
/// or a change stops it first ([`stop_reading`]).
fn decode_in_steps(
    head: &str,
    bytes: js_sys::Uint8Array,
    done: Box<dyn FnOnce(Option<crate::import::Checked>)>,
) {
    use crate::import::{Decoding, Head};
    match Decoding::start(head, bytes.length() as usize) {
        Ok(Head::Records(d)) => {
            let wanted = DECODING.with(|d| d.get());
            step(d, bytes, 0, wanted, Vec::new(), done);
        }
        Ok(Head::Read(checked)) => done(Some(checked)),
        Err(_) => done(None),
    }
}

/// One task of [`decode_in_steps`], from byte `at`; `part` is the buffer each
/// step copies into.
fn step(
    mut d: crate::import::Decoding,
    bytes: js_sys::Uint8Array,
    at: u32,
    wanted: u64,
    mut part: Vec<u8>,
    done: Box<dyn FnOnce(Option<crate::import::Checked>)>,
) {
    if DECODING.with(|d| d.get()) != wanted {
        return;
    }
    let end = at.saturating_add(STEP).min(bytes.length());
    part.resize((end - at) as usize, 0);
    bytes.subarray(at, end).copy_to(&mut part);
    if d.feed(&part).is_err() {
        return done(None);
    }
    if end >= bytes.length() {
        return done(d.finish().ok());
    }
    gloo_timers::callback::Timeout::new(0, move || step(d, bytes, end, wanted, part, done))
        .forget();
}

/// Whether a worker can be asked to read an import (a loader told us where
/// `worker.js` is; the page's policy may still refuse to start it).
pub fn can_read() -> bool {
    WORKER.with(|w| w.try_borrow().is_ok_and(|w| w.is_some()))
}

/// Stops the worker reading an import, if one is (its answer would be ignored),
/// and the decoding of an answer, if one is under way.
pub fn stop_reading() {
    DECODING.with(|d| d.set(d.get().wrapping_add(1)));
    let old = READER.with(|r| r.try_borrow_mut().ok().and_then(|mut r| r.take()));
    if let Some((worker, _)) = old {
        worker.terminate();
    }
}

/// Reads the JSON box's `text` (a JS string: it crosses to the worker as one,
/// never through this module's memory) in a worker and calls `done` with what it
/// read, or with `None` if it could not (it failed to load, or its answer is not
/// one): the caller then reads the text itself. `Err` (nothing started) when no
/// worker can be made. A newer call stops the worker of an older one, whose `done`
/// is then never called.
pub fn read_in_worker(
    text: &JsValue,
    done: impl FnOnce(Option<crate::import::Checked>) + 'static,
) -> Result<(), JsValue> {
    stop_reading();
    let message = Object::new();
    Reflect::set(&message, &"read".into(), text)?;
    let started = start(
        &message,
        Box::new(move |data: Option<JsValue>| {
            let field = |name: &str| {
                data.as_ref()
                    .and_then(|d| Reflect::get(d, &name.into()).ok())
            };
            let head = field("head").and_then(|h| h.as_string());
            let bytes = field("read").and_then(|b| b.dyn_into::<js_sys::Uint8Array>().ok());
            match (head, bytes) {
                (Some(head), Some(bytes)) => decode_in_steps(&head, bytes, Box::new(done)),
                _ => done(None),
            }
        }),
    )?;
    READER.with(|r| {
        if let Ok(mut r) = r.try_borrow_mut() {
            *r = Some(started);
        }
    });
    Ok(())
}

//! Fetching a language's lesson texts (`lessons/en.txt`, `lessons/vi.txt`, copied
//! to dist by Trunk from `crates/learn/src/texts/`).

use std::cell::RefCell;
use std::sync::Arc;

use ratelab_learn::texts::Texts;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::Loaded;
use crate::texts::Lang;

/// Where the texts are, relative to the page.
pub const DIR: &str = "lessons";

/// Values kept by key for the page's life, each put once and read many times:
/// a thread-local table of what was fetched, or given instead of fetched (the
/// browser tests, whose runner serves no files of ours). A few entries: a lookup
/// is a scan.
pub struct Kept<K, V>(RefCell<Vec<(K, V)>>);

impl<K: PartialEq, V: Clone> Kept<K, V> {
    /// An empty table.
    pub const fn new() -> Kept<K, V> {
        Kept(RefCell::new(Vec::new()))
    }

    /// Keeps `value` for `key`, in place of an older one.
    pub fn put(&self, key: K, value: V) {
        if let Ok(mut kept) = self.0.try_borrow_mut() {
            kept.retain(|(k, _)| *k != key);
            kept.push((key, value));
        }
    }

    /// The value kept for `key`, if one is.
    pub fn get(&self, key: &K) -> Option<V> {
        let kept = self.0.try_borrow().ok()?;
        kept.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
    }
}

impl<K: PartialEq, V: Clone> Default for Kept<K, V> {
    fn default() -> Kept<K, V> {
        Kept::new()
    }
}

thread_local! {
    /// Texts given by the host instead of fetched.
    static GIVEN: Kept<Lang, Arc<Texts>> = const { Kept::new() };
}

/// Gives the texts of `lang` instead of fetching them (for pages and tests that
/// have them already).
pub fn provide_texts(lang: Lang, texts: Texts) {
    GIVEN.with(|g| g.put(lang, Arc::new(texts)));
}

fn given(lang: Lang) -> Option<Arc<Texts>> {
    GIVEN.with(|g| g.get(&lang))
}

/// The texts of `lang`: given, or fetched and parsed. Errors are one line naming
/// the file.
pub async fn texts(lang: Lang) -> Loaded {
    if let Some(t) = given(lang) {
        return Ok(t);
    }
    let url = format!("{DIR}/{}.txt", lang.code());
    let body = get(&url).await.map_err(|e| format!("{url}: {e}"))?;
    let texts = Texts::parse(&body)
        .map(Arc::new)
        .map_err(|e| format!("{url}: {e}"))?;
    // Kept: the lessons panel and the chooser ask for the same texts.
    GIVEN.with(|g| g.put(lang, texts.clone()));
    Ok(texts)
}

pub(crate) async fn get(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(reason)?;
    let response: web_sys::Response = response.dyn_into().map_err(reason)?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(reason)?)
        .await
        .map_err(reason)?;
    text.as_string().ok_or_else(|| "not text".to_string())
}

/// A failed promise's reason as one line.
fn reason(e: JsValue) -> String {
    let s = e
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the request failed".to_string());
    s.lines().next().unwrap_or_default().to_string()
}

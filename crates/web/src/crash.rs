//! The panic hook. A panic in wasm kills the module (the release build aborts), so
//! the hook's job is to leave a readable page: it replaces every mounted playground
//! with a box that says what happened and carries the setup (the share query) needed
//! to reproduce it. It only uses calls that cannot panic themselves.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Once;

use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

struct Mounted {
    root: HtmlElement,
    query: Rc<RefCell<String>>,
    embed: bool,
}

thread_local! {
    static MOUNTED: RefCell<Vec<Mounted>> = const { RefCell::new(Vec::new()) };
}

/// Installs the hook (once per page).
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let message = info.to_string();
            web_sys::console::error_1(&format!("ratelab: {message}").into());
            let _ = MOUNTED.try_with(|m| {
                if let Ok(m) = m.try_borrow() {
                    for p in m.iter() {
                        let q = p.query.try_borrow().map(|q| q.clone()).unwrap_or_default();
                        render(&p.root, &message, &reproduce_link(&q, p.embed));
                    }
                }
            });
        }));
    });
}

/// Remembers a mounted playground and where its current query string is kept.
pub fn register(root: HtmlElement, query: Rc<RefCell<String>>, embed: bool) {
    let _ = MOUNTED.try_with(|m| {
        if let Ok(mut m) = m.try_borrow_mut() {
            m.retain(|p| p.root.is_connected() && p.root != root);
            m.push(Mounted { root, query, embed });
        }
    });
}

/// Forgets a playground (unmounted).
pub fn unregister(root: &HtmlElement) {
    let _ = MOUNTED.try_with(|m| {
        if let Ok(mut m) = m.try_borrow_mut() {
            m.retain(|p| p.root != *root);
        }
    });
}

/// The current query string of the playground mounted in `root`.
pub fn query_of(root: &HtmlElement) -> Option<String> {
    MOUNTED
        .try_with(|m| {
            m.try_borrow().ok().and_then(|m| {
                m.iter()
                    .find(|p| p.root == *root)
                    .and_then(|p| p.query.try_borrow().ok().map(|q| q.clone()))
            })
        })
        .ok()
        .flatten()
}

/// The page's own URL with `query` for the page; the query alone for an embed (whose
/// host page is not a playground).
fn reproduce_link(query: &str, embed: bool) -> String {
    let location = web_sys::window().map(|w| w.location());
    match location {
        Some(l) if !embed => format!(
            "{}{}?{query}",
            l.origin().unwrap_or_default(),
            l.pathname().unwrap_or_default()
        ),
        _ => format!("?{query}"),
    }
}

/// Replaces `root`'s content with the error box (text only: nothing in the message
/// is parsed as HTML).
pub fn render(root: &HtmlElement, message: &str, link: &str) {
    let Some(doc) = root.owner_document() else {
        return;
    };
    let make = |tag: &str, class: &str, text: &str| {
        doc.create_element(tag).ok().inspect(|el| {
            el.set_class_name(class);
            el.set_text_content(Some(text));
        })
    };
    let Some(frame) = make("div", "crash", "") else {
        return;
    };
    let _ = frame.set_attribute("role", "alert");
    let words = &crate::texts::page::PAGE.en;
    let title = words.crash_title;
    let parts = [
        make("h2", "", title),
        make("pre", "message", message),
        make("p", "", words.crash_reproduce),
        make("code", "link", link),
    ];
    for p in parts.into_iter().flatten() {
        let _ = frame.append_child(&p);
    }
    root.set_text_content(None);
    let _ = root.append_child(&frame);
    if let Ok(el) = frame.dyn_into::<HtmlElement>() {
        let _ = el.focus();
    }
}

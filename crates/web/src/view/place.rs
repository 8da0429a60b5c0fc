//! Where the reader is on the page, as a copied link's fragment: `#lane-2`,
//! `#yardstick`, `#trace`… "Copy link" names the part at the top of the window
//! ([`part_at_top`]); a page opened with one scrolls to it once it is drawn
//! ([`scroll_to_named`], in a chunk, `place`, fetched only for a link with a
//! fragment). The query string says what runs and how it is looked
//! at; the fragment only where, so the address bar (which follows the view) keeps
//! a fragment it was given and never writes one itself.

use gloo_timers::callback::Timeout;
use web_sys::Element;

/// The parts a fragment can name, in the page's order (one selector, so the
/// browser returns them in document order).
const PARTS: &str = ".setup-fold, article.lane, .yardstick, .sweep, .trace, .services";

/// How long a page opened with a fragment waits for its part (the trace and the
/// yardstick are fetched panels): tries, every [`TRY_EVERY_MS`].
const TRIES: u32 = 50;
const TRY_EVERY_MS: u32 = 100;

/// The height of what stays pinned at the top of the window over the parts: the
/// clock bar, and the lessons panel where it is sticky (a wide page).
pub fn covered(root: &Element) -> f64 {
    let height = |selector: &str| {
        root.query_selector(selector)
            .ok()
            .flatten()
            .map_or(0.0, |e| e.get_bounding_client_rect().height())
    };
    let pinned = root
        .query_selector(".lessons")
        .ok()
        .flatten()
        .and_then(|p| web_sys::window()?.get_computed_style(&p).ok().flatten())
        .and_then(|s| s.get_property_value("position").ok())
        .is_some_and(|p| p == "sticky");
    height(".controls") + if pinned { height(".lessons") } else { 0.0 }
}

/// A part's name in a fragment: `lane-2`, or its class.
fn name_of(part: &Element) -> Option<String> {
    if let Some(j) = part.get_attribute("data-lane") {
        return Some(format!("lane-{j}"));
    }
    ["setup-fold", "yardstick", "sweep", "trace", "services"]
        .into_iter()
        .find(|c| part.class_list().contains(c))
        .map(|c| c.trim_end_matches("-fold").to_string())
}

/// The part of `root` at the top of the window, just under the clock bar (which
/// stays pinned there over the parts); `None` at the top of the page (a link then
/// needs no fragment) or between parts.
pub fn part_at_top(root: &Element) -> Option<String> {
    let window = web_sys::window()?;
    if window.scroll_y().ok()? < 1.0 {
        return None;
    }
    let bar = root.query_selector(".controls").ok()??;
    let r = root.get_bounding_client_rect();
    let at = window.document()?.element_from_point(
        (r.left() + r.width() / 2.0) as f32,
        (bar.get_bounding_client_rect().bottom() + 8.0) as f32,
    )?;
    name_of(&at.closest(PARTS).ok()??)
}

/// The selector for a fragment's part, if it names one (`lane-2`, `trace`…).
fn selector_of(name: &str) -> Option<String> {
    match name.strip_prefix("lane-") {
        Some(j) => j
            .parse::<u8>()
            .ok()
            .map(|j| format!("article.lane[data-lane=\"{j}\"]")),
        None => ["setup", "yardstick", "sweep", "trace", "services"]
            .contains(&name)
            .then(|| {
                if name == "setup" {
                    ".setup-fold".to_string()
                } else {
                    format!(".{name}")
                }
            }),
    }
}

/// On a page opened with a fragment (`hash`, with its `#`) naming a part: scrolls
/// the part to the top of the window, under what is pinned there, once it is
/// drawn (a fetched panel may take a moment). What loads above it later keeps it
/// in place (the browsers' scroll anchoring). Any other fragment is left to the
/// browser.
pub fn scroll_to_named(root: Element, hash: &str) {
    if let Some(selector) = hash.strip_prefix('#').and_then(selector_of) {
        try_scroll(root, selector, TRIES);
    }
}

fn try_scroll(root: Element, selector: String, tries: u32) {
    Timeout::new(TRY_EVERY_MS, move || {
        let found = root.query_selector(&selector).ok().flatten();
        match (found, web_sys::window()) {
            (Some(part), Some(window)) => {
                let top = window.scroll_y().unwrap_or(0.0) + part.get_bounding_client_rect().top()
                    - covered(&root)
                    - 6.0;
                window.scroll_to_with_x_and_y(0.0, top.max(0.0));
            }
            _ if tries > 1 => try_scroll(root, selector, tries - 1),
            _ => {}
        }
    })
    .forget();
}

//! Keeping the learner's place when a step opens.
//!
//! - **Focus.** The panel's content is one `inner_html`, so a step that opens
//!   replaces the button that opened it and a keyboard user would land on
//!   `<body>`. Before the panel's markup is replaced, [`focused`] notes where focus
//!   was in it; after, [`restore`] puts it on the same button of the new step
//!   (*Next →* stays on *Next →*, so a learner can walk the path with one key), or,
//!   when that button is disabled or gone (the last step's *Next*, a catalog entry,
//!   *Reopen* once the setup is the step's own again), on the new step's heading,
//!   which a screen reader then reads; with no step open, on the catalog.
//! - **The step's lane.** [`bring_lane_into_view`] scrolls the lane the step is
//!   about ([`crate::state::Playground::step_lane`], else the first lane) to just
//!   under what sticks at the top of the window, unless it is already wholly on
//!   screen there; smoothly, or at once with reduced motion. On a wide page
//!   (`@container ratelab (min-width: 900px)` in the stylesheet) the open step's
//!   panel sticks at the top with the clock bar under it, so the step's text, the
//!   clock and its lane are on screen together (1280 × 800: the golden walk's step 4
//!   and its lane 4 of 7). On a narrow one the panel scrolls away above the lane:
//!   a phone has no room for both.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

/// Where focus was in the panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kept {
    /// On a button of the step's way on (or *Reopen*), by its class.
    Button(&'static str),
    /// Elsewhere in the panel (the heading, a catalog entry, *Close*).
    Elsewhere,
}

/// The step's buttons that focus can stay on across steps.
const KEEPABLE: [&str; 4] = ["prev", "next", "replay", "reopen"];

/// Where focus is in `panel`, if it is there.
pub fn focused(panel: &Element) -> Option<Kept> {
    let active = panel.owner_document()?.active_element()?;
    if !panel.contains(Some(&active)) {
        return None;
    }
    let class = active.get_attribute("class").unwrap_or_default();
    Some(
        KEEPABLE
            .into_iter()
            .find(|k| active.tag_name() == "BUTTON" && class == *k)
            .map_or(Kept::Elsewhere, Kept::Button),
    )
}

/// Puts focus back in `panel` after its markup was replaced (see the module docs).
pub fn restore(panel: &Element, kept: &Kept) {
    let usable = |selector: String| {
        panel
            .query_selector(&selector)
            .ok()
            .flatten()
            .filter(|b| b.closest(".hidden").ok().flatten().is_none())
    };
    let target = match kept {
        Kept::Button(class) => usable(format!("article.lesson button.{class}:not([disabled])")),
        Kept::Elsewhere => None,
    }
    .or_else(|| usable("article.lesson h3".to_string()))
    .or_else(|| usable(".catalog summary".to_string()));
    if let Some(el) = target.and_then(|t| t.dyn_into::<HtmlElement>().ok()) {
        let options = web_sys::FocusOptions::new();
        options.set_prevent_scroll(true);
        let _ = el.focus_with_options(&options);
    }
}

/// Scrolls lane `lane` (or the first) of the playground `root` to just under what
/// sticks at the top (the clock bar, and the lessons panel when it is pinned),
/// unless it is wholly on screen there already.
pub fn bring_lane_into_view(root: &Element, lane: Option<u64>, reduced_motion: bool) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let selector = match lane {
        Some(j) => format!("article.lane[data-lane=\"{j}\"]"),
        None => "article.lane".to_string(),
    };
    let Some(lane) = root.query_selector(&selector).ok().flatten() else {
        return;
    };
    let covered = crate::view::place::covered(root);
    let rect = lane.get_bounding_client_rect();
    let view_height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    if rect.top() >= covered && rect.bottom() <= view_height {
        return;
    }
    let top = window.scroll_y().unwrap_or(0.0) + rect.top() - covered - 6.0;
    let options = web_sys::ScrollToOptions::new();
    options.set_top(top.max(0.0));
    options.set_behavior(if reduced_motion {
        web_sys::ScrollBehavior::Instant
    } else {
        web_sys::ScrollBehavior::Smooth
    });
    window.scroll_to_with_scroll_to_options(&options);
}

//! The keyboard: space plays or pauses, ← and → step between requests (on the
//! clock's slider too, which would otherwise move a millisecond), R (or Enter)
//! sends a request in the manual scenario. On the page the keys work
//! everywhere; in an embed, only while the playground has focus, and the keys it
//! handles stop there (the host page never sees them).

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::Ctx;
use crate::state::Action;

/// Listens on the whole window for as long as the playground lives.
pub fn on_page(ctx: Ctx) {
    let handle = window_event_listener(ev::keydown, move |e| on_key(ctx, &e));
    on_cleanup(move || handle.remove());
}

/// What a key does, if anything: `tag` is the focused element's tag (lower case),
/// `"range"` for a slider.
pub fn action_of(key: &str, tag: &str, manual: bool) -> Option<Action> {
    if matches!(tag, "input" | "textarea" | "select") {
        return None;
    }
    // Space and Enter already press a focused button.
    let on_button = tag == "button" || tag == "summary";
    match key {
        " " if !on_button => Some(Action::Play),
        "ArrowRight" => Some(Action::Next),
        "ArrowLeft" => Some(Action::Prev),
        "r" | "R" if manual => Some(Action::Send),
        "Enter" if manual && !on_button => Some(Action::Send),
        _ => None,
    }
}

/// Handles a key press.
pub fn on_key(ctx: Ctx, e: &ev::KeyboardEvent) {
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return;
    }
    let tag = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|el| match el.dyn_ref::<web_sys::HtmlInputElement>() {
            Some(input) if input.type_() == "range" => "range".to_string(),
            _ => el.tag_name().to_ascii_lowercase(),
        })
        .unwrap_or_default();
    let manual = ctx.manual.get_untracked();
    if let Some(action) = action_of(&e.key(), &tag, manual) {
        // A key the playground handles is its own: the host page (a docs site that
        // turns the page on →) does not see it. Keys it ignores pass through.
        e.prevent_default();
        if ctx.embed {
            e.stop_propagation();
        }
        ctx.act(action);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_do_nothing_while_typing() {
        assert_eq!(action_of(" ", "div", false), Some(Action::Play));
        assert_eq!(action_of(" ", "button", false), None);
        assert_eq!(action_of("ArrowRight", "input", false), None);
        // On the clock's slider ← → step between requests, not by a millisecond.
        assert_eq!(action_of("ArrowRight", "range", false), Some(Action::Next));
        assert_eq!(action_of("ArrowLeft", "range", false), Some(Action::Prev));
        assert_eq!(action_of("r", "div", false), None);
        assert_eq!(action_of("R", "div", true), Some(Action::Send));
        assert_eq!(action_of("Enter", "summary", true), None);
    }
}

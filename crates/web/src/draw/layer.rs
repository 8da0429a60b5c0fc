//! How a drawn marks layer changes without being drawn again: a mark flips to its
//! outcome when its request arrives (and back when the clock goes back), and the
//! selection moves. This file knows the structure [`super::marks`] writes: the
//! layer's children are the marks in [`Drawn::marks`] order, and a mark's first
//! child is its `<title>`.

use wasm_bindgen::JsCast;
use web_sys::Element;

use super::{decision_attr, mark_title, Drawn};
use crate::texts::Lang;

fn child(layer: &Element, position: usize) -> Option<Element> {
    layer.children().item(u32::try_from(position).ok()?)
}

/// Shows requests `[from, to)` as arrived (or, going back, as not yet).
pub fn show_arrival(layer: &Element, drawn: &Drawn, from: u64, to: u64, arrived: bool, lang: Lang) {
    for (k, m) in drawn.positions(from, to) {
        let Some(el) = child(layer, k) else { continue };
        let _ = el.set_attribute("data-decision", decision_attr(m, arrived));
        if let Some(title) = el.first_element_child() {
            title.set_text_content(Some(&mark_title(m, arrived, lang)));
        }
    }
}

/// Outlines (or stops outlining) the marks of request `index`.
pub fn show_selected(layer: &Element, drawn: &Drawn, index: u64, on: bool) {
    for (k, _) in drawn.positions(index, index + 1) {
        if let Some(el) = child(layer, k) {
            let _ = el.class_list().toggle_with_force("selected", on);
        }
    }
}

/// The request whose mark holds `target` (a click), if any.
pub fn request_at(layer: &Element, drawn: &Drawn, target: &Element) -> Option<u64> {
    let mark = target.closest("g.mark").ok().flatten()?;
    let children = layer.children();
    let position = (0..children.length()).find(|&k| children.item(k).as_ref() == Some(&mark))?;
    drawn.marks.get(position as usize).map(|m| m.index)
}

/// `event.target` as an element.
pub fn target_element(e: &web_sys::Event) -> Option<Element> {
    e.target().and_then(|t| t.dyn_into::<Element>().ok())
}

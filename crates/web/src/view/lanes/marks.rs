//! A lane's marks layer: drawn by [`draw::marks`] through a memo (so unchanged
//! markup is never set again), then kept current by one effect that flips only
//! the marks whose request arrived, went back, or was selected. A new run's layer
//! is drawn at its step ([`crate::view::Ctx::drawn`]: lane 0 at once, each later
//! lane a frame after the one before); until then the layer keeps what it showed.

use leptos::prelude::*;

use super::LaneCtx;
use crate::draw::{self, layer, Drawn, MarkContext};
use crate::state::Action;
use crate::view::use_ctx;

/// What the layer's markup shows now (after the flips).
struct Shown {
    svg: draw::Svg,
    revealed: Option<u64>,
    selected: Option<u64>,
}

/// The marks layer of the lane in context; says in `dense` whether it shows
/// columns instead of marks, and in `blind` whether it shows outcomes the clock
/// has not reached (columns, or more marks than flip one by one), which the veil
/// must then hide instead of tinting.
#[component]
pub fn Marks(dense: RwSignal<bool>, blind: RwSignal<bool>) -> impl IntoView {
    let ctx = use_ctx();
    let lane = expect_context::<LaneCtx>();
    let j = lane.j;
    let node = NodeRef::<leptos::svg::G>::new();
    let drawn = Memo::new(move |_| {
        if !ctx.drawn(j, false) {
            return None;
        }
        let (scale, lang) = (ctx.scale.get(), ctx.lang.get());
        // Arrival and selection are drawn as they are now, but do not redraw the
        // layer when they change: the effect below flips the marks instead. The
        // busiest window (when highlighted) does redraw: it moves the outlines.
        let (revealed, selected) = (ctx.revealed.get_untracked(), ctx.selected.get_untracked());
        lane.busiest.with(|busiest| {
            ctx.run.with(|s| {
                let sim = &s.sim;
                let visible = sim.timeline.visible(scale.from, scale.to);
                let count = visible.end.saturating_sub(visible.start);
                let one_by_one = draw::one_by_one(count, scale.width);
                match one_by_one
                    .then(|| sim.marks(j, scale.from, scale.to))
                    .flatten()
                {
                    Some(marks) => {
                        let keys = sim.timeline.keys();
                        let matches = |k: u32| {
                            busiest
                                .as_ref()
                                .is_some_and(|b| keys.get(k as usize) == Some(&b.key))
                        };
                        let c = MarkContext {
                            scale,
                            revealed,
                            selected,
                            busiest: busiest.as_ref(),
                            key_matches: &matches,
                            lang,
                        };
                        Some(draw::marks(marks, &c))
                    }
                    None => {
                        let n = (scale.width / 3.0).max(1.0) as usize;
                        Some(draw::columns(
                            &sim.columns(j, scale.from, scale.to, n),
                            scale,
                        ))
                    }
                }
            })
        })
    });
    Effect::new(move |shown: Option<Option<Shown>>| {
        let (revealed, selected, lang) = (ctx.revealed.get(), ctx.selected.get(), ctx.lang.get());
        let g = node.get()?;
        drawn.with(|d: &Option<Drawn>| {
            // Not this lane's step yet: the layer stays as it is.
            let Some(d) = d else {
                return shown.flatten();
            };
            if dense.get_untracked() != d.dense {
                dense.set(d.dense);
            }
            if blind.get_untracked() != d.revealed.is_none() {
                blind.set(d.revealed.is_none());
            }
            let mut shown = match shown.flatten() {
                Some(s) if s.svg == d.svg => s,
                _ => {
                    g.set_inner_html(d.svg.as_str());
                    Shown {
                        svg: d.svg.clone(),
                        revealed: d.revealed,
                        selected: d.selected,
                    }
                }
            };
            if let Some(old) = shown.revealed.filter(|&old| old != revealed) {
                let arrived = revealed > old;
                layer::show_arrival(&g, d, old.min(revealed), old.max(revealed), arrived, lang);
                shown.revealed = Some(revealed);
            }
            if shown.selected != selected {
                for (index, on) in [(shown.selected, false), (selected, true)] {
                    if let Some(i) = index {
                        layer::show_selected(&g, d, i, on);
                    }
                }
                shown.selected = selected;
            }
            Some(shown)
        })
    });
    let click = move |e: leptos::ev::MouseEvent| {
        let (Some(g), Some(target)) = (node.get_untracked(), layer::target_element(&e)) else {
            return;
        };
        let at =
            drawn.with_untracked(|d| d.as_ref().and_then(|d| layer::request_at(&g, d, &target)));
        if let Some(i) = at {
            ctx.act(Action::Select(i));
        }
    };
    view! { <g class="marks" node_ref=node on:click=click></g> }
}

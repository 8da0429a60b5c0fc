//! What a screen reader hears when a request is selected: its fate in each lane.

use leptos::prelude::*;

use super::use_ctx;
use crate::model::{time_label, Sim};
use crate::texts::common::COMMON;
use crate::texts::Lang;
use crate::view::lanes::lane::lane_name;

/// The live region.
#[component]
pub fn Live() -> impl IntoView {
    let ctx = use_ctx();
    let said = Memo::new(move |_| {
        let lang = ctx.lang.get();
        let selected = ctx.panel_selected.get();
        ctx.run.with(|s| live_text(&s.sim, selected, lang))
    });
    view! { <p class="sr-only" aria-live="polite">{said}</p> }
}

/// "Request #10 11.2 s: Fixed window (clock) denied (429); …".
pub fn live_text(sim: &Sim, selected: Option<u64>, lang: Lang) -> String {
    let c = COMMON.get(lang);
    let Some((i, r)) = selected.and_then(|i| sim.request(i).map(|r| (i, r))) else {
        return String::new();
    };
    let mut out = format!("{} #{} {}: ", c.request, i + 1, time_label(r.t));
    for j in 0..sim.lanes().len() {
        let word = match sim.outcome(j, i) {
            Some(d) => c.decision(d),
            None => c.pending,
        };
        if j > 0 {
            out.push_str("; ");
        }
        out.push_str(&lane_name(sim.lanes(), j, lang));
        out.push(' ');
        out.push_str(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratelab_sim::share::parse;

    #[test]
    fn the_live_region_names_each_lanes_decision() {
        let sim = Sim::new(&parse("limiters=fixed_window,leaky_queue").0.setup).unwrap();
        assert_eq!(
            live_text(&sim, Some(9), Lang::En),
            "Request #10 11.2 s: Fixed window (clock) allowed; Leaky bucket (queue) delayed"
        );
        assert_eq!(live_text(&sim, None, Lang::En), "");
    }

    #[test]
    fn two_lanes_of_one_algorithm_are_told_apart_by_their_parameters() {
        let sim = Sim::new(&parse("scenario=lab-c").0.setup).unwrap();
        let said = live_text(&sim, Some(1), Lang::En);
        assert!(
            said.contains(" · 10 / 1 s · capacity 1 denied (429); ")
                && said.contains(" · 10 / 1 s · capacity 20 allowed; "),
            "{said}"
        );
        // A lane whose algorithm is alone keeps its plain title.
        assert!(said.contains("; Leaky bucket (queue) "), "{said}");
    }
}

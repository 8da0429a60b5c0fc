//! A panic in wasm kills the page, so the playground's model is driven with random
//! sequences of actions (fields with good and bad values, clicks, the clock, links)
//! and must never panic, and everything the components draw from it must draw.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use ratelab_core::Algorithm;
use ratelab_sim::ScenarioId;

fn offered_scenarios() -> Vec<ScenarioId> {
    ScenarioId::ALL
        .into_iter()
        .filter(|id| !id.is_service())
        .collect()
}
use ratelab_web::draw::{self, MarkContext, Scale};
use ratelab_web::state::{Action, Field, LaneField, MountOptions, Playground};
use ratelab_web::texts::Lang;
use ratelab_web::view::{live::live_text, trace::trace_of};

const FIELDS: &[Field] = &[
    Field::Limit,
    Field::Period,
    Field::Lane(0, LaneField::Limit),
    Field::Lane(1, LaneField::Period),
    Field::Lane(2, LaneField::Burst),
    Field::Lane(3, LaneField::Delay),
    Field::Lane(9, LaneField::Limit),
];

const VALUES: &[&str] = &[
    "",
    "0",
    "1",
    "3",
    "-1",
    "NaN",
    "1e20",
    "10s",
    "1.5s",
    "500ms",
    "99999999999999999999",
    "true",
    "vi",
    "golden",
    "custom",
    "lab-c",
    "lab-d",
    "manual",
    "poisson",
    "nonsense",
    "2s 1s",
    "0 0 0 5s",
    r#"{"requests": [0, 0], "limiters": [{"algorithm": "gcra", "limit": 1, "period_ms": 1000}]}"#,
];

fn text() -> impl Strategy<Value = String> {
    (0..VALUES.len()).prop_map(|v| VALUES[v].to_string())
}

/// What a person can do: an [`Action`], or one of the panels' own methods.
#[derive(Clone, Debug)]
enum Op {
    Act(Action),
    Edit(Field, String),
    NoDelay(usize, bool),
    Add(Algorithm),
    Remove(usize),
    ApplyRequests(String),
    Export(String),
    Import(String, ratelab_web::import::Answer),
    Reading,
    Read(u64, ratelab_web::import::Answer),
    JsonEdited(Option<String>),
    JsonOpen(bool),
    Copied,
}

impl Op {
    fn apply(self, p: &mut Playground) {
        match self {
            Op::Act(a) => p.apply(a),
            Op::Edit(f, v) => p.edit(f, &v),
            Op::NoDelay(j, on) => p.set_nodelay(j, on),
            Op::Add(a) => p.add_lane(a),
            Op::Remove(j) => p.remove_lane(j),
            Op::ApplyRequests(t) => p.apply_requests(&t),
            Op::Export(t) => p.export_json(t),
            Op::Import(t, answer) => p.import_json(&t, &answer),
            Op::Reading => p.start_reading(),
            Op::Read(t, answer) => p.read(t, &answer),
            Op::JsonEdited(t) => p.json_edited(t),
            Op::JsonOpen(open) => p.open_json(open),
            Op::Copied => p.json_copied(),
        }
    }
}

fn action() -> impl Strategy<Value = (Op, u8)> {
    let a = prop_oneof![
        (0..FIELDS.len(), text()).prop_map(|(f, v)| Op::Edit(FIELDS[f], v)),
        // The scenarios the page offers (not the service ones: it has no view of a
        // service run, see view/setup/scenario.rs).
        prop::sample::select(offered_scenarios()).prop_map(|s| Op::Act(Action::Scenario(s))),
        (0usize..7, any::<bool>()).prop_map(|(j, b)| Op::NoDelay(j, b)),
        prop::sample::select(Algorithm::ALL.to_vec()).prop_map(Op::Add),
        (0usize..8).prop_map(Op::Remove),
        text().prop_map(Op::ApplyRequests),
        // The box's export (of some setup: here any text) and an import, read
        // as the box reads it.
        text().prop_map(Op::Export),
        text().prop_map(|t| {
            let answer = ratelab_web::import::Answer::new(ratelab_web::import::read(&t));
            Op::Import(t, answer)
        }),
        // A big import read in a worker, and its answer for a ticket that may be
        // stale.
        Just(Op::Reading),
        (0u64..4, text()).prop_map(|(t, v)| {
            let read = ratelab_web::import::read_checked(&v);
            Op::Read(t, ratelab_web::import::Answer::new(read))
        }),
        proptest::option::of(text()).prop_map(Op::JsonEdited),
        any::<bool>().prop_map(Op::JsonOpen),
        Just(Op::Copied),
        Just(Op::Act(Action::Dismiss)),
        Just(Op::Act(Action::Play)),
        Just(Op::Act(Action::Prev)),
        Just(Op::Act(Action::Next)),
        (0u64..200_000).prop_map(|v| Op::Act(Action::Seek(v))),
        prop::sample::select(vec![0, 250, 1000, 16_000, 3]).prop_map(|v| Op::Act(Action::Speed(v))),
        Just(Op::Act(Action::Send)),
        (0u64..50).prop_map(|v| Op::Act(Action::Select(v))),
        any::<bool>().prop_map(|v| Op::Act(Action::Highlight(v))),
        prop::sample::select(Lang::ALL.to_vec()).prop_map(|v| Op::Act(Action::Lang(v))),
    ];
    // Then let the clock run for a few frames.
    (a, 0u8..20)
}

/// Everything the components draw, drawn from the model as they draw it.
fn draw_everything(p: &Playground, width: f64) {
    let sim = p.sim();
    let (from, to) = sim.span(p.now);
    let scale = Scale { from, to, width };
    let key = sim.key_of(p.selected());
    let _ = draw::axis(scale);
    for j in 0..sim.lanes().len() {
        let busiest = sim.busiest(j, p.now);
        match sim.marks(j, from, to) {
            Some(m) => {
                let c = MarkContext {
                    scale,
                    revealed: p.revealed(),
                    selected: p.selected(),
                    busiest: busiest.as_ref(),
                    key_matches: &|_| true,
                    lang: p.lang,
                };
                let _ = draw::marks(m, &c);
            }
            None => {
                let _ = draw::columns(&sim.columns(j, from, to, 100), scale);
            }
        }
        let snap = sim.snapshot(j, &key, p.now);
        let _ = draw::under(snap.as_ref(), p.now, scale, busiest.as_ref(), p.lang);
        if let Some(s) = snap {
            let _ = draw::gauge(&ratelab_web::model::gauge(&s), true, p.lang);
        }
        let _ = sim.headers(j, &key, p.now);
        let _ = sim.yardstick(j, p.now);
    }
    let _ = trace_of(sim, p.selected(), p.lang);
    let _ = live_text(sim, p.selected(), p.lang);
    let _ = draw::clock_x(p.now, scale);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn no_sequence_of_actions_panics(
        link in prop::sample::select(vec!["", "scenario=manual", "scenario=lab-c&t=1s", "scenario=custom&requests=0,0,5s", "limiters=nginx,gcra&hl=1"]),
        actions in prop::collection::vec(action(), 1..40),
        width in 0.0f64..3000.0,
    ) {
        let mut p = Playground::new(MountOptions::page(link)).unwrap();
        draw_everything(&p, width);
        for (a, frames) in actions {
            a.apply(&mut p);
            for _ in 0..frames {
                p.advance(50.0);
            }
            draw_everything(&p, width);
            prop_assert!(p.now <= p.end());
            prop_assert!((1..=ratelab_sim::share::MAX_PLAYGROUND_LANES).contains(&p.setup().lanes.len()));
        }
        // Whatever happened, the link it gives opens the same view.
        let q = p.query();
        let again = Playground::new(MountOptions::page(&q)).unwrap();
        prop_assert_eq!(again.query(), q);
    }
}

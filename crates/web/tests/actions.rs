//! A panic in wasm kills the page, so the playground's state machine is driven with
//! random sequences of user actions (fields with good and bad values, clicks, the
//! clock, links) and must never panic, and must always render.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use ratelab_web::state::{MountOptions, Playground};

const FIELDS: &[&str] = &[
    "scenario",
    "limit",
    "period",
    "add",
    "lane0.limit",
    "lane1.period",
    "lane2.burst",
    "lane3.delay",
    "lane3.nodelay",
    "lane9.limit",
    "lang",
    "requests",
    "nonsense",
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
    "false",
    "vi",
    "golden",
    "custom",
    "lab-c",
    "lab-d",
    "manual",
    "poisson",
    "nginx",
    "gcra",
    "token_bucket_f64",
    "sliding_log_logs_blocked",
    "2s 1s",
    "0 0 0 5s",
];

#[derive(Clone, Debug)]
enum Action {
    Field(usize, usize),
    Next,
    Prev,
    Seek(u64),
    Play(u8),
    Send,
    Select(u64),
    Remove(usize),
    Highlight,
    Apply(usize),
    Import(usize),
    Export,
    Width(u16),
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        (0..FIELDS.len(), 0..VALUES.len()).prop_map(|(f, v)| Action::Field(f, v)),
        Just(Action::Next),
        Just(Action::Prev),
        (0u64..200_000).prop_map(Action::Seek),
        (1u8..20).prop_map(Action::Play),
        Just(Action::Send),
        (0u64..50).prop_map(Action::Select),
        (0usize..8).prop_map(Action::Remove),
        Just(Action::Highlight),
        (0..VALUES.len()).prop_map(Action::Apply),
        (0..VALUES.len()).prop_map(Action::Import),
        Just(Action::Export),
        (0u16..3000).prop_map(Action::Width),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn no_sequence_of_actions_panics(
        link in prop::sample::select(vec!["", "scenario=manual", "scenario=lab-c&t=1s", "scenario=custom&requests=0,0,5s", "limiters=nginx,gcra&hl=1"]),
        actions in prop::collection::vec(action(), 1..40),
    ) {
        let mut p = Playground::new(MountOptions::page(link)).unwrap();
        p.render();
        for a in actions {
            match a {
                Action::Field(f, v) => p.field(FIELDS[f], VALUES[v]),
                Action::Next => p.step_next(),
                Action::Prev => p.step_prev(),
                Action::Seek(t) => p.seek(t),
                Action::Play(n) => {
                    p.toggle_play();
                    for _ in 0..n {
                        p.advance(50.0);
                    }
                }
                Action::Send => p.send(),
                Action::Select(i) => p.select(i),
                Action::Remove(j) => p.remove_lane(j),
                Action::Highlight => p.toggle_highlight(),
                Action::Apply(v) => p.apply_requests(VALUES[v]),
                Action::Import(v) => p.import_json(VALUES[v]),
                Action::Export => p.export_json(),
                Action::Width(w) => p.set_width(f64::from(w)),
            }
            let _ = p.render();
            prop_assert!(p.now <= p.end());
            prop_assert!((1..=6).contains(&p.share.lanes.len()));
        }
        // Whatever happened, the link it gives opens the same view.
        let q = p.query();
        let again = Playground::new(MountOptions::page(&q)).unwrap();
        prop_assert_eq!(again.query(), q);
    }
}

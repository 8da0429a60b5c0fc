//! The fixtures the browser tests compare against are the command line's output,
//! committed. These native tests fail when they are no longer current (regenerate
//! with the commands in the comments), and check that the share links the tests
//! load describe exactly the fixtures' inputs.
#![cfg(not(target_arch = "wasm32"))]

use ratelab_sim::share::parse;
use ratelab_sim::{run, simulate_json, Config};

/// `cargo run -p ratelab-cli -- simulate crates/cli/tests/data/golden.json > crates/web/tests/data/golden-report.json`
#[test]
fn the_golden_report_fixture_is_the_command_lines_output() {
    let input = include_str!("../../cli/tests/data/golden.json");
    let report = include_str!("data/golden-report.json");
    assert_eq!(simulate_json(input).unwrap(), report.trim_end());
}

/// `cargo run -p ratelab-cli -- simulate tests/e2e/fixtures/golden-six.input.json > tests/e2e/fixtures/golden-six.report.json`
#[test]
fn the_e2e_fixture_is_current_and_matches_its_link() {
    let input = include_str!("../../../tests/e2e/fixtures/golden-six.input.json");
    let report = include_str!("../../../tests/e2e/fixtures/golden-six.report.json");
    assert_eq!(simulate_json(input).unwrap(), report.trim_end());
    // The link tests/e2e/playground.test.mjs opens runs the same config.
    let link = include_str!("../../../tests/e2e/fixtures/golden-six.link.txt").trim();
    let (state, notices) = parse(link);
    assert!(notices.is_empty(), "{notices:?}");
    let from_link = state.setup.to_config().unwrap();
    let from_json = Config::from_json(input).unwrap();
    assert_eq!(from_link.stream, from_json.stream);
    assert_eq!(from_link.lanes, from_json.lanes);
    let a = serde_json::to_string(&run(&from_link).unwrap().results).unwrap();
    let b = serde_json::to_string(&run(&from_json).unwrap().results).unwrap();
    assert_eq!(a, b);
}

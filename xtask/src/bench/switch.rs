//! The switch part: the longest main-thread task when a person switches scenario
//! through the page's picker, on the size part's release build
//! (`crates/bench/browser/switch.mjs`: a Chromium trace per round, a fresh browser
//! context each).

use std::path::Path;

use super::{page_harness, run_tee, NO_BUILD};
use crate::util::{Ctx, Result};

/// No main-thread task may be longer, in ms (issue 15's target).
pub(super) const TARGET_MS: f64 = 100.0;

/// One target scenario's numbers (medians over the rounds but the worst).
pub(super) struct Switched {
    pub rounds: u32,
    pub longest_ms: f64,
    pub longest_worst_ms: f64,
    /// Tasks of 50 ms or more (the Long Tasks API's threshold).
    pub long_tasks: f64,
    /// Every main-thread task in the window, summed.
    pub busy_ms: f64,
    /// From the picker's `change` to the next frame's start.
    pub frame_ms: f64,
    /// The query the page was opened with.
    pub from: String,
}

/// One scenario switched to: what was measured, or why not.
pub(super) struct SwitchRow {
    pub to: String,
    pub result: std::result::Result<Switched, String>,
}

/// What the switch part measured: a row per scenario, or why nothing ran.
pub(super) enum Switch {
    Measured(Vec<SwitchRow>),
    Pending(String),
}

/// Switches from the default page to labs B and E, `rounds` times each.
pub(super) fn run(ctx: &Ctx, work: &Path, chromium: &Path, quick: bool) -> Result<Switch> {
    let Some(mut cmd) = page_harness(ctx, work, chromium, "switch.mjs") else {
        return Ok(Switch::Pending(NO_BUILD.into()));
    };
    cmd.env("RATELAB_SWITCH_ROUNDS", if quick { "2" } else { "5" });
    Ok(parse_switch(&run_tee(&mut cmd)?))
}

fn parse_switch(out: &str) -> Switch {
    let mut rows = Vec::new();
    for line in out.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let ["bench", "switch", to, rest @ ..] = f.as_slice() else {
            continue;
        };
        let result = match rest {
            ["pending", why] => Err(why.to_string()),
            [rounds, numbers @ .., from] if numbers.len() == 5 => {
                let n: Vec<f64> = numbers.iter().filter_map(|s| s.parse().ok()).collect();
                let (Ok(rounds), [longest_ms, longest_worst_ms, long_tasks, busy_ms, frame_ms]) =
                    (rounds.parse(), &n[..])
                else {
                    continue;
                };
                Ok(Switched {
                    rounds,
                    longest_ms: *longest_ms,
                    longest_worst_ms: *longest_worst_ms,
                    long_tasks: *long_tasks,
                    busy_ms: *busy_ms,
                    frame_ms: *frame_ms,
                    from: from.to_string(),
                })
            }
            _ => continue,
        };
        rows.push(SwitchRow {
            to: to.to_string(),
            result,
        });
    }
    if rows.is_empty() {
        Switch::Pending("the switch harness printed no result".into())
    } else {
        Switch::Measured(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_harness_prints() {
        let out =
            "noise\nbench\tswitch\tlab-b\t5\t512.0\t640.5\t1\t700.2\t530.1\t?scenario=golden\n\
                   bench\tswitch\tlab-e\tpending\tno picker\n\
                   bench\tswitch\tlab-x\t5\t1\t2\tthree\t4\t5\t?\n";
        let Switch::Measured(rows) = parse_switch(out) else {
            panic!("rows expected")
        };
        assert_eq!(rows.len(), 2, "the malformed line is skipped");
        let b = rows[0].result.as_ref().ok().unwrap();
        assert_eq!(
            (rows[0].to.as_str(), b.rounds, b.longest_ms, b.from.as_str()),
            ("lab-b", 5, 512.0, "?scenario=golden")
        );
        assert_eq!(
            rows[1].result.as_ref().err().map(String::as_str),
            Some("no picker")
        );
        assert!(matches!(parse_switch(""), Switch::Pending(_)));
    }
}

//! The frames part: the cost of an animation frame of the size part's release
//! build while it plays (`crates/bench/browser/frames.mjs`, headless Chromium):
//! six lanes at 16x, the same with the CPU throttled 4×, and the dense labs E and
//! B at 16x, each view in a fresh browser context.

use std::path::Path;

use super::{page_harness, run_tee, NO_BUILD};
use crate::util::{Ctx, Result};

/// The 95th percentile frame must fit in this, in ms (every view but the one
/// below).
pub(super) const TARGET_P95_MS: f64 = 16.0;
/// Six lanes at normal CPU speed have the tighter target: half a frame, so that
/// the 4× slower machine still fits in one.
pub(super) const TARGET_SIX_P95_MS: f64 = 8.0;

/// One view's numbers.
pub(super) struct Measured {
    /// Main-thread work per frame (scripts, style, layout, paint), ms.
    pub work_median_ms: f64,
    pub work_p95_ms: f64,
    pub frames: u64,
    pub long_tasks: u64,
    pub longest_ms: f64,
    /// requestAnimationFrame deltas, ms (quantised to the display's refresh).
    pub delta_median_ms: f64,
    pub delta_p95_ms: f64,
    pub dropped: u64,
    pub clock: String,
    pub url: String,
}

/// One view: what was measured, or why it could not be.
pub(super) struct FrameRow {
    /// The harness's name for the view (`six`, `lab-e`, `lab-b`, `custom`).
    pub view: String,
    /// CPU slow-down factor (1 = none).
    pub rate: u32,
    pub result: std::result::Result<Measured, String>,
}

impl FrameRow {
    /// The p95 this view is held to, ms.
    pub fn target_ms(&self) -> f64 {
        if self.view == "six" && self.rate == 1 {
            TARGET_SIX_P95_MS
        } else {
            TARGET_P95_MS
        }
    }

    /// What the view plays, in words.
    pub fn describe(&self) -> String {
        let what = match self.view.as_str() {
            "six" => "six lanes, 2x-rate, 16x",
            "lab-e" => "lab E, 16x, from 59 s",
            "lab-b" => "lab B, 16x",
            other => other,
        };
        if self.rate > 1 {
            format!("{what}, CPU {}× throttled", self.rate)
        } else {
            what.to_string()
        }
    }
}

/// What the frames part measured: a row per view, or why nothing ran.
pub(super) enum Frames {
    Measured(Vec<FrameRow>),
    Pending(String),
}

/// Plays each view (one view, `query`, when given) and reads the harness's lines.
pub(super) fn run(ctx: &Ctx, work: &Path, chromium: &Path, query: Option<&str>) -> Result<Frames> {
    let Some(mut cmd) = page_harness(ctx, work, chromium, "frames.mjs") else {
        return Ok(Frames::Pending(NO_BUILD.into()));
    };
    cmd.env("RATELAB_FRAME_SHOT", work.join("frames.png"));
    if let Some(q) = query {
        cmd.env("RATELAB_FRAME_QUERY", q);
    }
    Ok(parse_frames(&run_tee(&mut cmd)?))
}

fn parse_frames(out: &str) -> Frames {
    let mut rows = Vec::new();
    for line in out.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let ["bench", "frames", view, rate, rest @ ..] = f.as_slice() else {
            continue;
        };
        let Ok(rate) = rate.parse() else { continue };
        let result = match rest {
            ["pending", why] => Err(why.to_string()),
            [numbers @ .., clock, url] if numbers.len() == 8 => {
                let n: Vec<f64> = numbers.iter().filter_map(|s| s.parse().ok()).collect();
                let [work_median_ms, work_p95_ms, frames, long, longest_ms, delta_median_ms, delta_p95_ms, dropped] =
                    n[..]
                else {
                    continue;
                };
                Ok(Measured {
                    work_median_ms,
                    work_p95_ms,
                    frames: frames as u64,
                    long_tasks: long as u64,
                    longest_ms,
                    delta_median_ms,
                    delta_p95_ms,
                    dropped: dropped as u64,
                    clock: clock.to_string(),
                    url: url.to_string(),
                })
            }
            _ => continue,
        };
        rows.push(FrameRow {
            view: view.to_string(),
            rate,
            result,
        });
    }
    if rows.is_empty() {
        Frames::Pending("the frame harness printed no result".into())
    } else {
        Frames::Measured(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_harness_prints() {
        match parse_frames("noise\n") {
            Frames::Pending(why) => assert_eq!(why, "the frame harness printed no result"),
            Frames::Measured(_) => panic!("pending expected"),
        }
        let out = "bench\tframes\tlab-b\t1\tpending\tno lanes\n\
                   bench\tframes\tsix\t4\t7.5\t15.1\t145\t0\t0.0\t16.66\t16.67\t0\t0.1 s → 38.5 s\tdist/index.html?x\n\
                   bench\tframes\tsix\t1\t7.5\tnot a number\t145\t0\t0.0\t16.66\t16.67\t0\ta\tb\n";
        let Frames::Measured(rows) = parse_frames(out) else {
            panic!("rows expected")
        };
        assert_eq!(rows.len(), 2, "the malformed line is skipped");
        assert_eq!(
            rows[0].result.as_ref().err().map(String::as_str),
            Some("no lanes")
        );
        assert_eq!((rows[0].target_ms(), rows[1].target_ms()), (16.0, 16.0));
        assert_eq!(
            rows[1].describe(),
            "six lanes, 2x-rate, 16x, CPU 4× throttled"
        );
        let m = rows[1].result.as_ref().ok().unwrap();
        assert_eq!(
            (m.work_p95_ms, m.frames, m.clock.as_str()),
            (15.1, 145, "0.1 s → 38.5 s")
        );
        let six = FrameRow {
            view: "six".into(),
            rate: 1,
            result: Err(String::new()),
        };
        assert_eq!(six.target_ms(), 8.0);
    }
}

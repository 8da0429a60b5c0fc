//! The frames part: the cost of an animation frame of the size part's release
//! build, six lanes playing (`crates/bench/browser/frames.mjs`, headless Chromium).

use std::path::Path;

use super::run_tee;
use crate::test::CHROMIUM_FLAGS;
use crate::util::{Ctx, Result};

/// The 95th percentile frame must fit in this, in ms.
pub(super) const TARGET_P95_MS: f64 = 16.0;

/// What the frames part measured, or why it could not.
pub(super) enum Frames {
    Measured {
        /// Main-thread work per frame (scripts, style, layout, paint), ms.
        work_median_ms: f64,
        work_p95_ms: f64,
        frames: u64,
        long_tasks: u64,
        longest_ms: f64,
        /// requestAnimationFrame deltas, ms (quantised to the display's refresh).
        delta_median_ms: f64,
        delta_p95_ms: f64,
        dropped: u64,
        clock: String,
        url: String,
    },
    Pending(String),
}

/// Plays the page at `query` (frames.mjs's default view without one) and reads
/// the harness's result line.
pub(super) fn run(ctx: &Ctx, work: &Path, chromium: &Path, query: Option<&str>) -> Result<Frames> {
    let dist = work.join("dist");
    if !dist.join("index.html").exists() {
        return Ok(Frames::Pending(
            "no release build of the page (run the size part first)".into(),
        ));
    }
    let mut cmd = ctx.cmd("node");
    cmd.arg(ctx.root.join("crates/bench/browser/frames.mjs"))
        .env("RATELAB_DIST", &dist)
        .env("RATELAB_CHROMIUM", chromium)
        .env("RATELAB_CHROMIUM_FLAGS", CHROMIUM_FLAGS.join(" "))
        .env("RATELAB_FRAME_SHOT", work.join("frames.png"));
    if let Some(q) = query {
        cmd.env("RATELAB_FRAME_QUERY", q);
    }
    Ok(parse_frames(&run_tee(&mut cmd)?))
}

fn parse_frames(out: &str) -> Frames {
    for line in out.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["bench", "frames", "pending", why] => return Frames::Pending(why.to_string()),
            ["bench", "frames", numbers @ .., clock, url] if numbers.len() == 8 => {
                let n: Vec<f64> = numbers.iter().filter_map(|s| s.parse().ok()).collect();
                if let [work_median_ms, work_p95_ms, frames, long, longest_ms, delta_median_ms, delta_p95_ms, dropped] =
                    n[..]
                {
                    return Frames::Measured {
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
                    };
                }
            }
            _ => {}
        }
    }
    Frames::Pending("the frame harness printed no result".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_harness_prints() {
        match parse_frames("bench\tframes\tpending\tno lanes\n") {
            Frames::Pending(why) => assert_eq!(why, "no lanes"),
            Frames::Measured { .. } => panic!("pending expected"),
        }
        let line = "bench\tframes\t7.5\t15.1\t145\t0\t0.0\t16.66\t16.67\t0\t0.1 s → 38.5 s\tdist/index.html?x\n";
        match parse_frames(line) {
            Frames::Measured {
                work_p95_ms,
                frames,
                clock,
                ..
            } => assert_eq!(
                (work_p95_ms, frames, clock.as_str()),
                (15.1, 145, "0.1 s → 38.5 s")
            ),
            Frames::Pending(why) => panic!("{why}"),
        }
    }
}

//! A lane's state over time: the level its gauge shows, asked of the engine at
//! moments across the visible span, for the strip under the lane's timeline.
//!
//! Why sampled and not every change: the level moves continuously between
//! requests (a bucket refills, a window's weight fades), so no finite list of
//! moments is exact. The strip asks the engine at every request of the key in the
//! span (just before and at it, so that each jump is drawn where it happens) and
//! on an even grid in between; every level drawn is one the engine computed.

use crate::model::{gauge, level_of, Label, Sim};

/// The most moments asked per strip (grid and requests together), so that a
/// strip costs at most this many snapshots when the span or the setup changes.
pub const MAX_MOMENTS: usize = 1_200;

/// A lane's level over a span, for one key.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// What the level measures (the gauge's label).
    pub what: Label,
    /// The full scale (the gauge's maximum).
    pub max: f64,
    /// Reference lines: `(value, label)`, as on the gauge.
    pub lines: Vec<(f64, Label)>,
    /// `(t, level)` in time order.
    pub points: Vec<(u64, f64)>,
}

/// The moments to ask in `[from, to]`: `grid` even steps, and for each request of
/// `key` in the span the millisecond before it and its own.
pub fn moments(sim: &Sim, key: &str, from: u64, to: u64, grid: usize) -> Vec<u64> {
    let tl = &sim.timeline;
    let earliest = tl.earliest_time();
    let grid = grid.clamp(2, MAX_MOMENTS / 2) as u64;
    let span = to.saturating_sub(from);
    let mut out: Vec<u64> = (0..=grid).map(|k| from + span * k / grid).collect();
    if let Some(id) = tl.find_key(key) {
        let room = MAX_MOMENTS.saturating_sub(out.len()) / 2;
        let jumps = tl
            .visible(from, to)
            .filter_map(|i| tl.request(i))
            .filter(|r| r.key == id)
            .take(room);
        for r in jumps {
            out.push(r.t.saturating_sub(1).max(from));
            out.push(r.t);
        }
    }
    out.retain(|&t| t >= earliest);
    out.sort_unstable();
    out.dedup();
    out
}

impl Sim {
    /// Lane `lane`'s level for `key` over `[from, to]`, asked at [`moments`]
    /// (`grid` even steps). `None` when the lane does not exist or nothing in the
    /// span is retained.
    pub fn series(
        &self,
        lane: usize,
        key: &str,
        from: u64,
        to: u64,
        grid: usize,
    ) -> Option<Series> {
        // In one replay: asked one by one, each moment replayed up to a
        // checkpoint's worth of requests (120 of the 220 ms of switching to lab B).
        let snaps = self
            .timeline
            .snapshots_at(lane, key, moments(self, key, from, to, grid))
            .ok()?;
        let (_, first) = snaps.first()?;
        // The gauge's scale and lines from the first moment; only the level after
        // (the gauge's texts are exact decimals, costly a thousand times over).
        let g = gauge(first);
        Some(Series {
            what: g.what,
            max: g.max,
            lines: g.lines,
            points: snaps.iter().map(|(t, s)| (*t, level_of(s))).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratelab_sim::share::parse;

    const GOLDEN_T: [u64; 12] = [
        2_000, 7_000, 8_000, 9_000, 9_500, 9_800, 10_100, 10_400, 10_700, 11_200, 15_000, 19_500,
    ];

    fn golden() -> Sim {
        let (link, notices) = parse("scenario=golden&limiters=fixed_window,token_bucket");
        assert!(notices.is_empty());
        Sim::new(&link.setup).unwrap()
    }

    fn at(s: &Series, t: u64) -> f64 {
        s.points
            .iter()
            .find(|p| p.0 == t)
            .map(|p| p.1)
            .unwrap_or_else(|| panic!("no point at {t}"))
    }

    #[test]
    fn moments_are_a_grid_and_each_request_with_the_ms_before_it() {
        let sim = golden();
        let m = moments(&sim, "", 0, 20_000, 4);
        for t in [0, 5_000, 10_000, 15_000, 20_000] {
            assert!(m.contains(&t));
        }
        for t in GOLDEN_T {
            assert!(m.contains(&t) && m.contains(&(t - 1)), "{t}");
        }
        assert!(m.windows(2).all(|w| w[0] < w[1]));
        // Another key has no requests: the grid alone.
        assert_eq!(moments(&sim, "nobody", 0, 20_000, 4).len(), 5);
    }

    #[test]
    fn the_token_bucket_line_is_specs_tokens_after_each_request() {
        let sim = golden();
        let s = sim.series(1, "", 0, 20_000, 50).unwrap();
        assert_eq!((s.what, s.max), (Label::Tokens, 5.0));
        // SPEC: tokens after refill, before taking; the 8th and 9th are refused.
        let before = [
            5.0, 5.0, 4.5, 4.0, 3.25, 2.4, 1.55, 0.7, 0.85, 1.1, 2.0, 3.25,
        ];
        let taken = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0];
        for ((t, b), k) in GOLDEN_T.iter().zip(before).zip(taken) {
            assert!(
                (at(&s, *t) - (b - k)).abs() < 1e-9,
                "at {t}: {}",
                at(&s, *t)
            );
        }
        assert!(s.points.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn each_level_is_the_gauges() {
        let (link, _) = parse(
            "scenario=golden&limiters=fixed_window,fixed_window_anchored,sliding_log,\
             sliding_window_counter,token_bucket,leaky_queue,gcra,nginx",
        );
        let sim = Sim::new(&link.setup).unwrap();
        for lane in 0..sim.lanes().len() {
            for t in (0..21_000).step_by(250).chain(GOLDEN_T) {
                let snap = sim.timeline.snapshot_at(lane, "", t).unwrap();
                assert_eq!(level_of(&snap), gauge(&snap).level, "lane {lane} at {t}");
            }
        }
        let float = Sim::new(&parse("scenario=golden&limiters=token_bucket_f64").0.setup).unwrap();
        let snap = float.timeline.snapshot_at(0, "", 9_500).unwrap();
        assert_eq!(level_of(&snap), gauge(&snap).level);
    }

    #[test]
    fn the_fixed_window_count_drops_to_zero_at_the_boundary() {
        let sim = golden();
        let s = sim.series(0, "", 0, 20_000, 40).unwrap();
        assert_eq!(s.what, Label::Count);
        assert_eq!(at(&s, 9_800), 5.0); // the sixth is refused: still five
        assert_eq!(at(&s, 10_000), 0.0);
        assert_eq!(at(&s, 10_100), 1.0);
        assert!(sim.series(9, "", 0, 20_000, 40).is_none());
    }
}

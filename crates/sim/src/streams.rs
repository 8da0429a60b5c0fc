//! The streams of the lessons' scenarios (registered in [`crate::scenario`]): the
//! demo article's own spacing and the long article's small traces, each exact
//! integer arithmetic.

use crate::error::SimError;
use crate::scenario::GOLDEN_TIMES;
use crate::stream::{Stream, MAX_REQUESTS};

/// `edge-burst-demo`: the demo article's edge burst, N evenly over `[0.8W, 0.999W)`
/// then N over `[W, 1.199W)`: `⌊0.8W + i·0.199W/N⌋` and `W + ⌊i·0.199W/N⌋`, i in
/// 0..N. At 5 per 10 s: 8.0, 8.398, 8.796, 9.194, 9.592 s, then 10.0 … 11.592 s.
///
/// The registry's `edge-burst` packs the same 2N into the last and first tenths of
/// the windows (9.0–10.8 s at 5 per 10 s). The token bucket tells them apart: over
/// the article's wider spread it refills one more token (6 pass, not 5).
pub fn edge_burst_demo(limit: u64, period_ms: u64) -> Result<Stream, SimError> {
    if 2 * limit as u128 > MAX_REQUESTS as u128 {
        return Err(SimError::at(
            "limit",
            format_args!(
                "edge-burst-demo would make {} requests (at most {MAX_REQUESTS})",
                2 * limit as u128
            ),
        ));
    }
    let (n, w) = (limit as u128, period_ms as u128);
    let step = |i: u64| (199 * i as u128 * w / (1000 * n)) as u64;
    let before = (0..limit).map(move |i| ((800 * n * w + 199 * i as u128 * w) / (1000 * n)) as u64);
    let after = (0..limit).map(move |i| period_ms + step(i));
    Ok(Stream::from_times(before.chain(after)))
}

/// `per-second`: one request a second for a minute, `t = 1000k`, k in 0..60 (the
/// demo article's check: 30 / 30 / 34 at 5 per 10 s; also the long article's 3.2b).
pub fn per_second() -> Stream {
    Stream::from_times((0..60).map(|k| 1000 * k))
}

/// `swc-late` (the long article's 3.3b): the previous window's requests bunched at
/// its end, 9.0 9.2 9.4 9.6 9.8 s, then 12 14 15 16 17 s.
pub const SWC_LATE: [u64; 10] = [
    9_000, 9_200, 9_400, 9_600, 9_800, 12_000, 14_000, 15_000, 16_000, 17_000,
];

/// `swc-early` (3.3c): bunched at its start, 0.2 0.4 0.6 0.8 1.0 s, then 12 12.5 13
/// 14 16 s.
pub const SWC_EARLY: [u64; 10] = [
    200, 400, 600, 800, 1_000, 12_000, 12_500, 13_000, 14_000, 16_000,
];

/// `ten-at-once` (3.5b): N requests at 0 (10 at 10 per second by default).
pub fn at_once(limit: u64) -> Result<Stream, SimError> {
    if limit > MAX_REQUESTS as u64 {
        return Err(SimError::at(
            "limit",
            format_args!("ten-at-once would make {limit} requests (at most {MAX_REQUESTS})"),
        ));
    }
    Ok(Stream::from_times(core::iter::repeat_n(0, limit as usize)))
}

/// `float-edge` (3.6b): the golden stream with its tenth request at 11.0 s instead
/// of 11.2 s, where the exact token bucket holds exactly one token.
pub fn float_edge() -> Stream {
    let mut times = GOLDEN_TIMES;
    if let Some(t) = times.get_mut(9) {
        *t = 11_000;
    }
    Stream::from_times(times)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_edge_burst_is_the_articles() {
        let t: Vec<u64> = edge_burst_demo(5, 10_000).unwrap().times().collect();
        assert_eq!(
            t,
            [8000, 8398, 8796, 9194, 9592, 10_000, 10_398, 10_796, 11_194, 11_592]
        );
        let t: Vec<u64> = edge_burst_demo(3, 1000).unwrap().times().collect();
        assert!(t[..3].iter().all(|t| (800..1000).contains(t)));
        assert!(t[3..].iter().all(|t| (1000..1200).contains(t)));
        assert!(edge_burst_demo(u32::MAX as u64, 1000).is_err());
    }

    #[test]
    fn small_streams() {
        assert_eq!(per_second().len(), 60);
        assert_eq!(at_once(10).unwrap().len(), 10);
        let f: Vec<u64> = float_edge().times().collect();
        assert_eq!(f[9], 11_000);
        assert!(f.windows(2).all(|p| p[0] <= p[1]));
    }
}

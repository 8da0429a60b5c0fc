//! The arithmetic streams of the registry, and their shapes before they are made.

use crate::error::SimError;
use crate::shape::Shape;
use crate::stream::{Stream, MAX_REQUESTS, MAX_TIME_MS};

use super::ScenarioId;

/// A parameterised stream that would run past [`MAX_TIME_MS`].
pub(super) fn too_long(id: ScenarioId, period_ms: u64, last_ms: u64) -> SimError {
    SimError::at(
        "period_ms",
        format_args!(
            "{period_ms} is too long for {}: its requests would run to {last_ms} ms (at most {MAX_TIME_MS})",
            id.id()
        ),
    )
}

/// What scenario `id`'s stream will be at budget `limit` per `period_ms`, without
/// making it ([`crate::shape`]), for the scenarios whose stream is arithmetic on the
/// budget; `None` for the others (fixed streams of a few hundred requests, seeded
/// traffic, streams given). A stream [`scenario`](super::scenario()) would refuse (too many requests,
/// past the last time) is refused here with the same message. The formulas are
/// those of the generators below, at their last index.
pub fn shape(id: ScenarioId, limit: u64, period_ms: u64) -> Result<Option<Shape>, SimError> {
    ratelab_core::Rate::new(limit, period_ms).map_err(|e| SimError::param("", &e))?;
    let (n, w) = (limit as u128, period_ms as u128);
    let count = |factor: u128| check_size(factor * n, id.id()).map(|c| c as u64);
    let shape = match id {
        // `⌊0.9W + k·W/(10N)⌋`, k in 0..2N: the two halves are one progression.
        ScenarioId::EdgeBurst => Shape::spread(
            count(2)?,
            ((9 * n * w + (2 * n - 1) * w) / (10 * n)) as u64,
            w,
            10 * n,
        ),
        // Two progressions 0.199W/N apart; the gap between them (0.001W + 0.199W/N)
        // is wider than their step.
        ScenarioId::EdgeBurstDemo => Shape::spread(
            count(2)?,
            ((1000 * n * w + 199 * (n - 1) * w) / (1000 * n)) as u64,
            199 * w,
            1000 * n,
        ),
        ScenarioId::TwiceTheRate => {
            Shape::spread(count(6)?, ((6 * n - 1) * w / (2 * n)) as u64, w, 2 * n)
        }
        // N at 0, then `⌊j·2W/N⌋` for j in 1..2N (`< 4W` exactly when j < 2N).
        ScenarioId::BurstThenDrip => {
            count(3)?;
            Shape {
                burst_extra: limit - 1,
                ..Shape::spread(3 * limit - 1, ((2 * n - 1) * 2 * w / n) as u64, 2 * w, n)
            }
        }
        ScenarioId::TenAtOnce => Shape {
            burst_extra: limit - 1,
            ..Shape::spread(count(1)?, 0, 0, 1)
        },
        _ => return Ok(None),
    };
    if shape.last_ms > MAX_TIME_MS {
        return Err(too_long(id, period_ms, shape.last_ms));
    }
    Ok(Some(shape))
}

/// SPEC's golden stream, in ms.
pub const GOLDEN_TIMES: [u64; 12] = [
    2_000, 7_000, 8_000, 9_000, 9_500, 9_800, 10_100, 10_400, 10_700, 11_200, 15_000, 19_500,
];

/// Refuses a parameterised stream that would be too long, before building it.
fn check_size(count: u128, what: &str) -> Result<usize, SimError> {
    if count > MAX_REQUESTS as u128 {
        return Err(SimError::at(
            "limit",
            format_args!("{what} would make {count} requests (at most {MAX_REQUESTS})"),
        ));
    }
    Ok(count as usize)
}

/// `edge-burst`: a burst of 2N split in half around the boundary at W. SPEC says
/// "half the limit just before, half just after", but a burst of only N passes every
/// limiter, so "half" is read as half of a 2N burst: N requests evenly spaced over the
/// last tenth of the first window, `t = ⌊0.9W + i·W/(10N)⌋` (in `[0.9W, W)`), then N
/// over the first tenth of the next, `t = W + ⌊i·W/(10N)⌋` (in `[W, 1.1W)`), i in 0..N.
pub fn edge_burst(limit: u64, period_ms: u64) -> Result<Stream, SimError> {
    let n = check_size(2 * limit as u128, "edge-burst")? as u64 / 2;
    let (n128, w) = (n as u128, period_ms as u128);
    let offset = |i: u64| (i as u128 * w / (10 * n128)) as u64;
    let before = (0..n).map(|i| ((9 * n128 * w + i as u128 * w) / (10 * n128)) as u64);
    let after = (0..n).map(|i| period_ms + offset(i));
    Ok(Stream::from_times(before.chain(after)))
}

/// `2x-rate`: `t = ⌊k·W/(2N)⌋` for k in 0..6N: twice the allowed rate for 3 windows.
pub fn twice_the_rate(limit: u64, period_ms: u64) -> Result<Stream, SimError> {
    let count = check_size(6 * limit as u128, "2x-rate")?;
    let (n, w) = (limit as u128, period_ms as u128);
    Ok(Stream::from_times(
        (0..count as u128).map(|k| (k * w / (2 * n)) as u64),
    ))
}

/// `burst-then-drip`: N requests at 0, then one at `t = ⌊j·2W/N⌋` for j = 1, 2, ...
/// while `t < 4W` (half the allowed rate, 2N − 1 more requests).
pub fn burst_then_drip(limit: u64, period_ms: u64) -> Result<Stream, SimError> {
    let count = check_size(3 * limit as u128, "burst-then-drip")?;
    let (n, w) = (limit as u128, period_ms as u128);
    let burst = core::iter::repeat_n(0, limit as usize);
    let drip = (1..)
        .map(move |j: u128| (j * 2 * w / n) as u64)
        .take_while(move |&t| (t as u128) < 4 * w);
    let mut s = Stream::from_times(burst.chain(drip));
    s.requests.truncate(count);
    Ok(s)
}

/// `lab-a`: one request at 0, 100 at `59000 + 10i`, 100 at `60000 + 10i` (i in 0..100).
pub fn lab_a() -> Stream {
    let before = (0..100).map(|i| 59_000 + 10 * i);
    let after = (0..100).map(|i| 60_000 + 10 * i);
    Stream::from_times(core::iter::once(0).chain(before).chain(after))
}

/// `lab-b`: one request every 300 ms for 3 minutes (`t = 300k`, k in 0..600).
pub fn lab_b() -> Stream {
    Stream::from_times((0..600).map(|k| 300 * k))
}

/// `lab-e`: 100 requests at `59900 + i` (i in 0..100), then `60000 + 100k` for k in
/// 0..1200 (10 per second for two minutes).
pub fn lab_e() -> Stream {
    let edge = (0..100).map(|i| 59_900 + i);
    let steady = (0..1200).map(|k| 60_000 + 100 * k);
    Stream::from_times(edge.chain(steady))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_burst_straddles_the_boundary() {
        let s = edge_burst(5, 10_000).unwrap();
        let times: Vec<u64> = s.times().collect();
        assert_eq!(
            times,
            [9000, 9200, 9400, 9600, 9800, 10_000, 10_200, 10_400, 10_600, 10_800]
        );
        // Uneven division stays inside the tenths.
        let s = edge_burst(3, 1000).unwrap();
        assert!(s.times().take(3).all(|t| (900..1000).contains(&t)));
        assert!(s.times().skip(3).all(|t| (1000..1100).contains(&t)));
    }

    #[test]
    fn the_rate_streams() {
        let s = twice_the_rate(5, 10_000).unwrap();
        assert_eq!(s.len(), 30);
        assert_eq!(s.requests[29].t, 29_000);
        let s = burst_then_drip(5, 10_000).unwrap();
        let times: Vec<u64> = s.times().collect();
        assert_eq!(
            times,
            [0, 0, 0, 0, 0, 4000, 8000, 12_000, 16_000, 20_000, 24_000, 28_000, 32_000, 36_000]
        );
        assert!(twice_the_rate(1 << 30, 1000).is_err());
    }
}

//! A service run's pictures, as SVG made by [`Writer`]: attempts per second over
//! the run (the picture of a retry storm) and every attempt by client, with each
//! retry joined to the refused attempt it follows.
//!
//! Both are drawn in a fixed `viewBox` stretched to the card's width by CSS
//! (`preserveAspectRatio="none"`, strokes that do not scale), so they are drawn
//! once per run and never on resize. Heights and positions are integers computed
//! from the engine's counts; the numbers themselves are printed by the components.

use ratelab_sim::service::{Attempt, PerSecond};

use super::markup::Writer;
use super::Svg;

/// The per-second chart's `viewBox` height.
pub const CHART_HEIGHT: i64 = 100;
/// Width per second in the chart's `viewBox`.
const PER_SECOND: i64 = 10;

/// Attempts per second: a bar per second (allowed at the bottom, refused above it,
/// so the whole bar is the offered load) and the first tries as a line.
pub fn per_second_chart(ps: &PerSecond) -> Svg {
    let n = ps.offered.len().max(1) as i64;
    let top = ps
        .offered
        .iter()
        .chain(&ps.demand)
        .copied()
        .max()
        .unwrap_or(0)
        .max(1);
    let h = |v: u64| -> i64 { (u128::from(v) * CHART_HEIGHT as u128 / u128::from(top)) as i64 };
    let width = n * PER_SECOND;
    let mut w = Writer::with_capacity(64 * n as usize + 256);
    w.el("svg")
        .attr("class", "per-second")
        .attr("viewBox", format!("0 0 {width} {CHART_HEIGHT}").as_str())
        .attr("preserveAspectRatio", "none")
        .attr("aria-hidden", "true")
        .children(|w| {
            for (s, (&allowed, &refused)) in ps.allowed.iter().zip(&ps.refused).enumerate() {
                let x = s as i64 * PER_SECOND;
                let a = h(allowed);
                let r = h(allowed + refused) - a;
                if a > 0 {
                    bar(w, "allowed", x, CHART_HEIGHT - a, a);
                }
                if r > 0 {
                    bar(w, "refused", x, CHART_HEIGHT - a - r, r);
                }
            }
            let mut d = String::with_capacity(16 * n as usize);
            for (s, &v) in ps.demand.iter().enumerate() {
                let x = s as i64 * PER_SECOND;
                let y = CHART_HEIGHT - h(v);
                let op = if s == 0 { 'M' } else { 'L' };
                d.push_str(&format!("{op}{x} {y}H{}", x + PER_SECOND));
            }
            if !d.is_empty() {
                w.el("path")
                    .attr("class", "demand")
                    .attr("d", d.as_str())
                    .attr("vector-effect", "non-scaling-stroke")
                    .end();
            }
        });
    w.finish()
}

fn bar(w: &mut Writer, class: &'static str, x: i64, y: i64, height: i64) {
    w.el("rect")
        .attr("class", class)
        .attr("x", x)
        .attr("y", y)
        .attr("width", PER_SECOND - 1)
        .attr("height", height)
        .end();
}

/// The most client rows the attempts picture draws; clients from the last row on
/// share it.
pub const MAX_ROWS: usize = 8;
/// A row's height in the attempts picture's `viewBox`.
pub const ROW: i64 = 12;
/// The attempts picture's `viewBox` width.
const STRIP_WIDTH: i64 = 1_000;

/// The row each of `clients` clients is drawn in. With more clients than rows,
/// the clients with the most refused attempts get a row of their own (ties to the
/// lower index), in index order, and the rest share the last row: a retry storm's
/// retries are then where the learner can see them, not among the others.
pub fn client_rows(attempts: &[(u64, &Attempt)], clients: usize) -> Vec<usize> {
    if clients <= MAX_ROWS {
        return (0..clients).collect();
    }
    let mut refused = vec![0u64; clients];
    for (_, a) in attempts {
        if let Some(n) = refused.get_mut(a.client as usize).filter(|_| !a.allowed) {
            *n += 1;
        }
    }
    let mut by_refusals: Vec<usize> = (0..clients).collect();
    by_refusals.sort_by_key(|&c| (std::cmp::Reverse(refused.get(c).copied()), c));
    let mut named: Vec<usize> = by_refusals.into_iter().take(MAX_ROWS - 1).collect();
    named.sort_unstable();
    let mut rows = vec![MAX_ROWS - 1; clients];
    for (row, c) in named.into_iter().enumerate() {
        if let Some(r) = rows.get_mut(c) {
            *r = row;
        }
    }
    rows
}

/// Every attempt as a tick in its client's row (`end_ms` at the right edge):
/// allowed, refused by the limits (429) or by the store (503); a first try is
/// taller than a retry. An arc joins each refused attempt to its retry. Each tick
/// carries its attempt's index (`data-i`) for tests.
/// `attempts` are `(index, attempt)` in index order.
/// `rows` is each client's row ([`client_rows`]).
pub fn attempts_strip(attempts: &[(u64, &Attempt)], rows_of: &[usize], end_ms: u64) -> Svg {
    let rows = rows_of.len().clamp(1, MAX_ROWS) as i64;
    let end = end_ms.max(1);
    let x = |t: u64| (u128::from(t.min(end)) * STRIP_WIDTH as u128 / u128::from(end)) as i64;
    let y = |c: u32| rows_of.get(c as usize).copied().unwrap_or(MAX_ROWS - 1) as i64 * ROW;
    let mut w = Writer::with_capacity(4096);
    w.el("svg")
        .attr("class", "attempts")
        .attr(
            "viewBox",
            format!("0 0 {STRIP_WIDTH} {}", rows * ROW).as_str(),
        )
        .attr("preserveAspectRatio", "none")
        .attr("aria-hidden", "true")
        .children(|w| {
            for r in 1..rows {
                w.el("line")
                    .attr("class", "row")
                    .attr("x1", 0)
                    .attr("x2", STRIP_WIDTH)
                    .attr("y1", r * ROW)
                    .attr("y2", r * ROW)
                    .attr("vector-effect", "non-scaling-stroke")
                    .end();
            }
            // Arcs first, so the ticks are drawn over them.
            let mut d = String::new();
            for (_, a) in attempts {
                let Some(next) = a.retry else { continue };
                let Ok(at) = attempts.binary_search_by_key(&u64::from(next), |(i, _)| *i) else {
                    continue;
                };
                let Some((_, b)) = attempts.get(at) else {
                    continue;
                };
                let (x1, x2, y0) = (x(a.t), x(b.t), y(a.client) + ROW / 2);
                d.push_str(&format!(
                    "M{x1} {y0}Q{} {} {x2} {y0}",
                    (x1 + x2) / 2,
                    y0 - ROW / 2
                ));
            }
            if !d.is_empty() {
                w.el("path")
                    .attr("class", "retry-link")
                    .attr("d", d.as_str())
                    .attr("vector-effect", "non-scaling-stroke")
                    .end();
            }
            for &(i, a) in attempts {
                let class = match (a.allowed, a.denied_by != 0 || a.retry_after_s.is_some()) {
                    (true, _) => "tick allowed",
                    (false, true) => "tick refused",
                    (false, false) => "tick closed",
                };
                let (top, bottom) = if a.attempt == 1 {
                    (1, ROW - 1)
                } else {
                    (3, ROW - 3)
                };
                let (x0, y0) = (x(a.t), y(a.client));
                w.el("line")
                    .attr("class", class)
                    .attr("data-i", i)
                    .attr("x1", x0)
                    .attr("x2", x0)
                    .attr("y1", y0 + top)
                    .attr("y2", y0 + bottom)
                    .attr("vector-effect", "non-scaling-stroke")
                    .end();
            }
        });
    w.finish()
}

/// Lane `lane`'s attempts that `run` still holds, as `(index, attempt)` in index
/// order: what [`attempts_strip`], [`client_rows`] and [`first_refusal`] read.
pub fn held_attempts(
    run: &ratelab_sim::service::ServiceTimeline,
    lane: usize,
) -> Vec<(u64, &Attempt)> {
    run.retained(lane)
        .filter_map(|i| run.attempt(lane, i).map(|a| (i, a)))
        .collect()
}

/// What became of one attempt in a refused request's chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// When it arrived, ms.
    pub t: u64,
    /// Allowed?
    pub allowed: bool,
    /// Refused by the limits or the fallback (a `429`), not by a store that is
    /// down and fails closed (a `503`).
    pub limited: bool,
    /// The refusal's `Retry-After`, whole seconds.
    pub retry_after_s: Option<u64>,
}

/// The run's first refused attempt (of those held, in index order) and every
/// retry its client sent after it, in order: the last step is allowed, or refused
/// with no retry after it (the client gave up, or the run ended first). `None`
/// when nothing was refused.
pub fn first_refusal(attempts: &[(u64, &Attempt)]) -> Option<(u32, Vec<Step>)> {
    let step = |a: &Attempt| Step {
        t: a.t,
        allowed: a.allowed,
        limited: a.denied_by != 0 || a.retry_after_s.is_some(),
        retry_after_s: a.retry_after_s,
    };
    let (_, first) = attempts.iter().find(|(_, a)| !a.allowed)?;
    let mut steps = vec![step(first)];
    let mut next = first.retry;
    // A request makes at most `max_attempts` (≤ 20) attempts; the bound only
    // guards against a malformed chain.
    while let Some(i) = next.filter(|_| steps.len() <= 64) {
        let Ok(at) = attempts.binary_search_by_key(&u64::from(i), |(j, _)| *j) else {
            break;
        };
        let Some((_, a)) = attempts.get(at) else {
            break;
        };
        steps.push(step(a));
        next = a.retry;
    }
    Some((first.client, steps))
}

/// Thousandths as a percentage with one decimal, exactly: `125` → `"12.5 %"`.
pub fn percent(permille: u64) -> String {
    format!("{}.{} %", permille / 10, permille % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_are_exact() {
        assert_eq!(percent(0), "0.0 %");
        assert_eq!(percent(125), "12.5 %");
        assert_eq!(percent(1000), "100.0 %");
    }

    #[test]
    fn the_bars_stack_allowed_under_refused_to_the_offered_load() {
        let ps = PerSecond {
            demand: vec![4, 2],
            offered: vec![4, 8],
            allowed: vec![4, 2],
            refused: vec![0, 6],
        };
        let svg = per_second_chart(&ps);
        let s = svg.as_str();
        // The tallest bar is the offered 8: second 1's refused part is 6/8 of the
        // height above its allowed 2/8.
        assert!(
            s.contains(r#"<rect class="allowed" x="10" y="75" width="9" height="25"/>"#),
            "{s}"
        );
        assert!(
            s.contains(r#"<rect class="refused" x="10" y="0" width="9" height="75"/>"#),
            "{s}"
        );
        assert!(
            s.contains(r#"<path class="demand" d="M0 50H10L10 75H20""#),
            "{s}"
        );
    }

    #[test]
    fn a_refused_requests_chain_follows_its_retries() {
        let at = |t: u64, allowed: bool, retry: Option<u32>| Attempt {
            t,
            client: 3,
            route: 0,
            attempt: 1,
            original: 0,
            retry,
            instance: 0,
            allowed,
            wait_ms: 0,
            decider: ratelab_sim::service::Decider::Limits,
            denied_by: u16::from(!allowed),
            retry_after_s: (!allowed).then_some(2),
        };
        assert_eq!(first_refusal(&[]), None);
        let attempts = [
            at(0, true, None),
            at(5, false, Some(3)),
            at(6, true, None),
            at(2_005, true, None),
        ];
        let held: Vec<(u64, &Attempt)> = (0u64..).zip(attempts.iter()).collect();
        let (client, steps) = first_refusal(&held).unwrap();
        assert_eq!(client, 3);
        let ts: Vec<(u64, bool)> = steps.iter().map(|s| (s.t, s.allowed)).collect();
        assert_eq!(ts, [(5, false), (2_005, true)]);
        assert_eq!(steps[0].retry_after_s, Some(2));
        assert!(steps[0].limited);
        // A retry the run no longer holds ends the chain where it is.
        let (_, cut) = first_refusal(&held[..3]).unwrap();
        assert_eq!(cut.len(), 1);
    }

    #[test]
    fn the_clients_refused_most_get_the_named_rows() {
        let at = |client: u32, allowed: bool| Attempt {
            t: 0,
            client,
            route: 0,
            attempt: 1,
            original: 0,
            retry: None,
            instance: 0,
            allowed,
            wait_ms: 0,
            decider: ratelab_sim::service::Decider::Limits,
            denied_by: u16::from(!allowed),
            retry_after_s: None,
        };
        assert_eq!(client_rows(&[], 3), [0, 1, 2]);
        assert_eq!(client_rows(&[], 0), Vec::<usize>::new());
        // Ten clients: 9 and 4 were refused (9 twice), so they are named first,
        // then the lowest indices; the rest share the last row.
        let attempts = [at(9, false), at(9, false), at(4, false), at(1, true)];
        let held: Vec<(u64, &Attempt)> = (0u64..).zip(attempts.iter()).collect();
        let rows = client_rows(&held, 10);
        let last = MAX_ROWS - 1;
        assert_eq!(rows, [0, 1, 2, 3, 4, 5, last, last, last, 6]);
    }
}

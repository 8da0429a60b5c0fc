//! A service run's pictures, as SVG made by [`Writer`]: attempts per second over
//! the run (the picture of a retry storm) and every attempt by client, with each
//! retry joined to the refused attempt it follows.
//!
//! Both are drawn in a fixed `viewBox` stretched to the card's width by CSS
//! (`preserveAspectRatio="none"`, strokes that do not scale), so they are drawn
//! once per run and never on resize. Heights and positions are integers computed
//! from the engine's counts; the numbers themselves are printed by the components.

use ratelab_sim::service::{
    AfterAttempt, Attempt, Backoff, Decider, PerSecond, ServiceSpec, ServiceTimeline, Span,
    MAX_ATTEMPTS,
};

use super::markup::{Html, Writer};
use super::Svg;
use crate::model::time_label;
use crate::texts::service::{KnobTexts, ServiceTexts};

/// The per-second chart's `viewBox` height.
pub const CHART_HEIGHT: i64 = 100;
/// Width per second in the chart's `viewBox`.
const PER_SECOND: i64 = 10;

/// Attempts per second: a bar per second (allowed at the bottom, refused above it,
/// so the whole bar is the offered load) and the first tries as a line.
pub fn per_second_chart(ps: &PerSecond, outages: &[Span]) -> Svg {
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
            let x = |t: u64| (u128::from(t) * PER_SECOND as u128 / 1_000) as i64;
            outage_bands(w, outages, x, width, CHART_HEIGHT);
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

/// Where `t_ms` is on a picture that spans `0..end_ms`, as a percentage of its
/// width with two decimals (SVG lengths in percent: the text drawn at them is not
/// stretched with the picture, and no style attribute is needed).
fn at_percent(t_ms: u64, end_ms: u64) -> String {
    let p = u128::from(t_ms.min(end_ms)) * 10_000 / u128::from(end_ms.max(1));
    format!("{}.{:02}%", p / 100, p % 100)
}

/// A service picture's time axis under it, `0..end_ms`, in seconds as the lanes'
/// axis says them: at most `max_ticks` ticks at a nice step, the first label
/// starting at its tick and one at the right edge ending there, so that none is
/// cut off.
pub fn time_axis(end_ms: u64, max_ticks: u64, outages: &[Span], label: Option<&str>) -> Svg {
    let end = end_ms.max(1);
    let step = crate::model::tick_step(end, max_ticks);
    let mut w = Writer::with_capacity(1024);
    let outages: Vec<&Span> = outages.iter().filter(|o| o.from_ms < end).collect();
    let height = if outages.is_empty() || label.is_none() {
        18
    } else {
        32
    };
    w.el("svg")
        .attr("class", "timeline time-axis")
        .attr("width", "100%")
        .attr("height", height)
        .attr("aria-hidden", "true")
        .children(|w| {
            // Each outage's span under the picture, bracketed and named.
            for o in outages.iter().filter(|_| label.is_some()) {
                let (from, to) = (at_percent(o.from_ms, end), at_percent(o.to_ms, end));
                w.el("g").attr("class", "outage-span").children(|w| {
                    w.el("line")
                        .attr("class", "axis")
                        .attr("x1", from.as_str())
                        .attr("x2", to.as_str())
                        .attr("y1", 20)
                        .attr("y2", 20)
                        .end();
                    w.el("text")
                        .attr("x", from.as_str())
                        .attr("y", 30)
                        .text(&format!(
                            "{} {}–{}",
                            label.unwrap_or_default(),
                            time_label(o.from_ms),
                            time_label(o.to_ms)
                        ));
                });
            }
            let mut t = 0;
            while t <= end {
                let x = at_percent(t, end);
                let anchor = if t == 0 {
                    "start"
                } else if (end - t) * 20 < end {
                    "end"
                } else {
                    "middle"
                };
                w.el("g").attr("class", "tick").children(|w| {
                    w.el("line")
                        .attr("x1", x.as_str())
                        .attr("x2", x.as_str())
                        .attr("y1", 0)
                        .attr("y2", 4)
                        .end();
                    w.el("text")
                        .attr("x", x.as_str())
                        .attr("y", 14)
                        .attr("text-anchor", anchor)
                        .text(&time_label(t));
                });
                t += step;
            }
        });
    w.finish()
}

/// The store's outages in a service picture drawn in a `viewBox` `width` wide
/// and `height` tall, `x` placing a time in it: a shaded band each (the lanes'
/// band), under what the picture draws.
fn outage_bands(w: &mut Writer, outages: &[Span], x: impl Fn(u64) -> i64, width: i64, height: i64) {
    for o in outages {
        let (from, to) = (x(o.from_ms).min(width), x(o.to_ms).min(width));
        if to > from {
            w.el("g").attr("class", "band outage").children(|w| {
                w.el("rect")
                    .attr("x", from)
                    .attr("width", to - from)
                    .attr("y", 0)
                    .attr("height", height)
                    .end();
            });
        }
    }
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
pub fn attempts_strip(
    attempts: &[(u64, &Attempt)],
    rows_of: &[usize],
    end_ms: u64,
    outages: &[Span],
) -> Svg {
    let rows = rows_of.len().clamp(1, MAX_ROWS) as i64;
    let end = end_ms.max(1);
    let x = |t: u64| (u128::from(t.min(end)) * STRIP_WIDTH as u128 / u128::from(end)) as i64;
    let y = |c: u32| rows_of.get(c as usize).copied().unwrap_or(MAX_ROWS - 1) as i64 * ROW;
    let mut w = Writer::with_capacity(4096);
    strip_svg(&mut w, "attempts", rows, |w| {
        outage_bands(w, outages, x, STRIP_WIDTH, rows * ROW);
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

/// An `<svg>` in the attempts picture's `viewBox` (`rows` rows), stretched to its
/// box: the picture itself and the ring laid over it.
fn strip_svg(w: &mut Writer, class: &'static str, rows: i64, f: impl FnOnce(&mut Writer)) {
    w.el("svg")
        .attr("class", class)
        .attr(
            "viewBox",
            format!("0 0 {STRIP_WIDTH} {}", rows * ROW).as_str(),
        )
        .attr("preserveAspectRatio", "none")
        .attr("aria-hidden", "true")
        .children(f);
}

/// Lane `lane`'s attempts that `run` still holds, as `(index, attempt)` in index
/// order: what [`attempts_strip`], [`client_rows`] and [`attempt_at`] read.
pub fn held_attempts(run: &ServiceTimeline, lane: usize) -> Vec<(u64, &Attempt)> {
    run.retained(lane)
        .filter_map(|i| run.attempt(lane, i).map(|a| (i, a)))
        .collect()
}

/// The attempt a card follows when nobody chose one: lane `lane`'s first refused
/// attempt (of those held, in index order; always a first try, since a retry
/// only follows a refusal). `None` when nothing held was refused.
pub fn first_refused(run: &ServiceTimeline, lane: usize) -> Option<u64> {
    run.retained(lane)
        .find(|&i| run.attempt(lane, i).is_some_and(|a| !a.allowed))
}

/// What one attempt got, as the engine decided it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// 200, 429, or 503 (the store was down and the service failed closed).
    pub status: u16,
    /// Who decided: the limits, or the outage policy.
    pub decider: Decider,
    /// On a 429: `Retry-After`, whole seconds.
    pub retry_after_s: Option<u64>,
    /// The ids of the stacked limits that refused it (empty unless the limits did).
    pub refused_by: Vec<String>,
    /// An allowed attempt's wait (the leaky queue, nginx), ms.
    pub wait_ms: u64,
}

/// One attempt of a request's chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The attempt's index in the run.
    pub index: u64,
    /// When it arrived, ms.
    pub t: u64,
    /// What it got.
    pub response: Response,
}

/// What the client did after the followed attempt ([`AfterAttempt`], with the
/// retry's own time and response).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Allowed: the request is done.
    Done,
    /// The client sent this retry.
    Retried(Step),
    /// Refused at its last attempt: the client gave up.
    GaveUp,
    /// Refused, and the client's policy never retries.
    NeverRetries,
}

/// A followed attempt: which request it belongs to, what it got, what came
/// next, and the request's whole chain of attempts. Everything is read from the
/// engine's run ([`ServiceTimeline::attempt`], [`ServiceTimeline::after`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Followed {
    /// The attempt itself.
    pub step: Step,
    /// Its client (index into the service's clients).
    pub client: u32,
    /// 1 for a first try, 2 for the first retry, …
    pub attempt: u32,
    /// Attempts per request its client's policy allows.
    pub max_attempts: u32,
    /// The index of its request's first try.
    pub original: u64,
    /// What the client did next.
    pub next: Next,
    /// Every held attempt of its request, first try first (the followed one
    /// among them).
    pub chain: Vec<Step>,
}

/// What attempt `a` of `spec` got.
fn response(spec: &ServiceSpec, a: &Attempt) -> Response {
    let refused_by = (0..spec.limits.len())
        .filter(|&i| i < 16 && a.denied_by & (1 << i) != 0)
        .filter_map(|i| spec.limits.get(i).map(|l| l.lane.id.clone()))
        .collect();
    Response {
        status: a.status(),
        decider: a.decider,
        retry_after_s: a.retry_after_s,
        refused_by,
        wait_ms: a.wait_ms,
    }
}

/// Attempt `index` of lane `lane`, followed; `None` when the run does not hold it.
pub fn follow(run: &ServiceTimeline, lane: usize, index: u64) -> Option<Followed> {
    let spec = run.spec(lane)?;
    let a = run.attempt(lane, index)?;
    let step_at = |i: u64| {
        run.attempt(lane, i).map(|a| Step {
            index: i,
            t: a.t,
            response: response(spec, a),
        })
    };
    let next = match run.after(lane, index)? {
        AfterAttempt::Done => Next::Done,
        AfterAttempt::Retried(i) => Next::Retried(step_at(i)?),
        AfterAttempt::GaveUp => Next::GaveUp,
        AfterAttempt::NeverRetries => Next::NeverRetries,
    };
    // The chain from the first try, or from the followed attempt when the run no
    // longer holds its first try. A request makes at most MAX_ATTEMPTS attempts;
    // the bound only guards against a malformed chain.
    let original = u64::from(a.original);
    let mut at = Some(if run.attempt(lane, original).is_some() {
        original
    } else {
        index
    });
    let mut chain = Vec::new();
    while let Some(i) = at.filter(|_| chain.len() <= MAX_ATTEMPTS as usize) {
        let Some(s) = step_at(i) else { break };
        chain.push(s);
        at = run.attempt(lane, i).and_then(|a| a.retry).map(u64::from);
    }
    Some(Followed {
        step: step_at(index)?,
        client: a.client,
        attempt: a.attempt,
        max_attempts: spec
            .clients
            .get(a.client as usize)
            .map_or(1, |c| c.retry.max_attempts),
        original,
        next,
        chain,
    })
}

/// The held attempt nearest to a click on the attempts picture: in the client
/// row `row`, at the fraction `x` (0 to 1) of its width; `None` when that row has
/// no attempt within `slack` (a fraction of the width) of the click. Ties go to
/// the earlier attempt. `rows_of` and `end_ms` as drawn ([`attempts_strip`]).
pub fn attempt_at(
    attempts: &[(u64, &Attempt)],
    rows_of: &[usize],
    end_ms: u64,
    row: usize,
    x: f64,
    slack: f64,
) -> Option<u64> {
    let end = end_ms.max(1);
    // Drawing coordinates only: which tick is nearest, never a decision.
    let at = |t: u64| t.min(end) as f64 / end as f64;
    attempts
        .iter()
        .filter(|(_, a)| {
            rows_of
                .get(a.client as usize)
                .copied()
                .unwrap_or(MAX_ROWS - 1)
                == row
        })
        .map(|&(i, a)| (i, (at(a.t) - x).abs()))
        .filter(|&(_, d)| d <= slack)
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
        .map(|(i, _)| i)
}

/// A ring around the followed attempt's tick, in the attempts picture's
/// `viewBox` (laid over it, so that choosing an attempt does not redraw the
/// picture).
pub fn selected_mark(a: &Attempt, rows_of: &[usize], end_ms: u64) -> Svg {
    let rows = rows_of.len().clamp(1, MAX_ROWS) as i64;
    let end = end_ms.max(1);
    let x = (u128::from(a.t.min(end)) * STRIP_WIDTH as u128 / u128::from(end)) as i64;
    let row = rows_of
        .get(a.client as usize)
        .copied()
        .unwrap_or(MAX_ROWS - 1) as i64;
    let mut w = Writer::with_capacity(256);
    strip_svg(&mut w, "selected-attempt", rows, |w| {
        w.el("line")
            .attr("class", "at")
            .attr("x1", x)
            .attr("x2", x)
            .attr("y1", row * ROW)
            .attr("y2", row * ROW + ROW)
            .attr("vector-effect", "non-scaling-stroke")
            .end();
    });
    w.finish()
}

/// The words for a retry policy's style.
fn style(k: &KnobTexts, b: Backoff) -> &'static str {
    match b {
        Backoff::None => k.retry_none,
        Backoff::Immediately => k.retry_immediately,
        Backoff::Fixed { .. } => k.retry_fixed,
        Backoff::Exponential { .. } => k.retry_exponential,
        Backoff::FullJitter { .. } => k.retry_full_jitter,
        Backoff::RetryAfter { .. } => k.retry_retry_after,
    }
}

/// A response in short, as a chain lists it: `allowed`, `429, Retry-After: 1`,
/// or `503`.
pub fn outcome(t: &ServiceTexts, r: &Response) -> String {
    match (r.status, r.retry_after_s) {
        (200, _) => t.allowed.to_string(),
        (status, Some(s)) => format!("{status}, Retry-After: {s}"),
        (status, None) => status.to_string(),
    }
}

/// A response in full: the status line, `Retry-After`, who refused (which
/// stacked limits, the fallback, the store) or how it passed.
pub fn response_line(t: &ServiceTexts, r: &Response) -> String {
    let mut out = match r.status {
        200 => "200 OK".to_string(),
        429 => "429 Too Many Requests".to_string(),
        503 => "503 Service Unavailable".to_string(),
        other => other.to_string(),
    };
    if let Some(s) = r.retry_after_s {
        out.push_str(&format!(" · Retry-After: {s}"));
    }
    if !r.refused_by.is_empty() {
        out.push_str(&format!(" · {} {}", t.denied_by, r.refused_by.join(", ")));
    }
    match r.decider {
        Decider::Limits => {}
        Decider::FailOpen => out.push_str(&format!(" · {}: {}", t.store, t.fail_open)),
        Decider::Fallback => out.push_str(&format!(" · {}: {}", t.store, t.fallback)),
        Decider::FailClosed => out.push_str(&format!(" · {}", t.store_closed)),
    }
    if r.wait_ms > 0 {
        out.push_str(&format!(" · {} {}", t.wait, time_label(r.wait_ms)));
    }
    out
}

/// What the client did after the followed attempt.
pub fn next_line(t: &ServiceTexts, n: &Next) -> String {
    let what = match n {
        Next::Done => t.done.to_string(),
        Next::Retried(s) => format!(
            "{} {}: {}",
            t.retries_at,
            time_label(s.t),
            outcome(t, &s.response)
        ),
        Next::GaveUp => t.gives_up.to_string(),
        Next::NeverRetries => t.never_retries.to_string(),
    };
    format!("{}: {what}", t.then)
}

/// `data-next`: what followed, for tests and styles.
fn next_kind(n: &Next) -> &'static str {
    match n {
        Next::Done => "done",
        Next::Retried(_) => "retried",
        Next::GaveUp => "gave-up",
        Next::NeverRetries => "never",
    }
}

/// The followed attempt's panel body, as escaped HTML (one `inner_html`: as
/// Leptos elements, each line and chain button cost the service build tachys'
/// code per element and closure). `None`: the run refused nothing and nothing
/// was chosen. `client` is the client's name and policy. Each chain button
/// carries its attempt's index in `data-i`, for the panel's one click handler.
pub fn followed_html(
    f: Option<(&Followed, &str, Backoff)>,
    t: &ServiceTexts,
    k: &KnobTexts,
) -> Html {
    let mut w = Writer::with_capacity(1024);
    let Some((f, client, backoff)) = f else {
        w.el("p").attr("class", "none").text(t.no_refusal);
        return w.finish_html();
    };
    let mut which = format!(
        "{client} · {} · {} {} {} {} · #{}",
        time_label(f.step.t),
        t.attempt_n,
        f.attempt,
        t.of,
        f.max_attempts,
        f.step.index
    );
    if let Some(first) = f
        .chain
        .first()
        .filter(|c| c.index == f.original && f.attempt > 1)
    {
        which.push_str(&format!(
            " · {} {} (#{})",
            t.first_try_at,
            time_label(first.t),
            first.index
        ));
    }
    w.el("p").attr("class", "which").text(&which);
    w.el("p")
        .attr("class", "response")
        .attr("data-status", u64::from(f.step.response.status))
        .text(&format!(
            "{}: {}",
            t.response,
            response_line(t, &f.step.response)
        ));
    w.el("p").attr("class", "policy").text(&format!(
        "{}: {} ({} {})",
        t.refusal_policy,
        style(k, backoff),
        f.max_attempts,
        k.attempts
    ));
    w.el("p")
        .attr("class", "next")
        .attr("data-next", next_kind(&f.next))
        .text(&next_line(t, &f.next));
    w.el("p").attr("class", "chain-title").text(t.chain);
    w.el("ol").attr("class", "chain").children(|w| {
        for s in &f.chain {
            w.el("li").children(|w| {
                let b = w
                    .el("button")
                    .attr("type", "button")
                    .attr("data-i", s.index);
                let b = if s.index == f.step.index {
                    b.attr("aria-current", "true")
                } else {
                    b
                };
                b.text(&format!("{}: {}", time_label(s.t), outcome(t, &s.response)));
            });
        }
    });
    w.finish_html()
}

/// Thousandths as a percentage with one decimal, exactly: `125` → `"12.5 %"`.
pub fn percent(permille: u64) -> String {
    format!("{}.{} %", permille / 10, permille % 10)
}

#[cfg(test)]
mod tests;

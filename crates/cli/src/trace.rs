//! `ratelab trace`: each limiter's decisions as a trace table, one row per request,
//! straight from `Limiter::explain` (state before, the comparison made, the verdict,
//! state after). A sliding window counter's table has two more columns
//! (ratelab-sim's `counter_error`): the true count of its own admissions in the
//! real window `(t − W, t]` beside the estimate it decided on, and `wrong allow` /
//! `wrong block` where the two disagree.

use std::io::Write;

use ratelab_core::Algorithm;
use ratelab_core::Explanation;
use ratelab_sim::counter_error::{counter_marks, CounterMark};
use ratelab_sim::text::{fields, sanitize};
use ratelab_sim::{trace_each, Config, LaneTrace, ResolvedParams, TraceRow};

use crate::table::{render as table, Align};
use crate::Failure;

/// A long sliding log is shown as its first and last few entries and a count.
const LOG_HEAD: usize = 3;
const LOG_TAIL: usize = 2;

/// Writes the trace tables of `config`'s lanes (only those in `only`, if any) to
/// `out`, a lane at a time: memory holds one lane's rows (each bounded, long states
/// cut), never the whole trace.
pub fn render(config: &Config, only: &[String], out: &mut dyn Write) -> Result<(), Failure> {
    check_ids(config, only)?;
    let mut selected = config.clone();
    if !only.is_empty() {
        selected.lanes.retain(|l| only.contains(&l.id));
    }
    let keyed = selected.stream.requests.iter().any(|r| r.key != 0);
    let mut current: Option<(usize, LaneTrace, Vec<Vec<String>>)> = None;
    let mut failed: Option<std::io::Error> = None;
    // The counter lane being written: its marks, computed when it starts.
    let mut marks: Option<Vec<CounterMark>> = None;
    let mut marks_failed: Option<ratelab_sim::SimError> = None;
    let mut flush = |lane: Option<(usize, LaneTrace, Vec<Vec<String>>)>,
                     failed: &mut Option<std::io::Error>| {
        if let (Some((j, heading, rows)), None) = (lane, &*failed) {
            let mut text = String::new();
            if j > 0 {
                text.push('\n');
            }
            text.push_str(&self::heading(
                &heading.id,
                heading.algorithm,
                &heading.params,
            ));
            text.push('\n');
            let counter = heading.algorithm == Algorithm::SlidingWindowCounter.id();
            text.push_str(&self::rows(&rows, keyed, counter));
            if let Err(e) = out.write_all(text.as_bytes()) {
                *failed = Some(e);
            }
        }
    };
    // Empty streams still get their headings.
    if selected.stream.is_empty() {
        selected.validate()?;
        for (j, lane) in selected.lanes.iter().enumerate() {
            flush(Some((j, LaneTrace::heading(lane), Vec::new())), &mut failed);
        }
    }
    trace_each(&selected, |j, lane, row| {
        if current.as_ref().is_none_or(|(k, _, _)| *k != j) {
            flush(current.take(), &mut failed);
            current = Some((j, lane.clone(), Vec::new()));
            marks = None;
            if lane.algorithm == Algorithm::SlidingWindowCounter.id() {
                match counter_marks(&selected, j) {
                    Ok(m) => marks = Some(m),
                    Err(e) => marks_failed = marks_failed.take().or(Some(e)),
                }
            }
        }
        if let Some((_, _, rows)) = current.as_mut() {
            let i = rows.len();
            let mut c = cells(i, &row, keyed);
            if let Some(m) = marks.as_ref().and_then(|m| m.get(i)) {
                c.push(m.estimate.to_string());
                c.push(m.true_count.to_string());
                c.push(m.mark.label().to_string());
            }
            rows.push(c);
        }
    })?;
    flush(current.take(), &mut failed);
    if let Some(e) = marks_failed {
        return Err(e.into());
    }
    // A closed pipe (`ratelab trace | head`) is not an error worth reporting.
    match failed {
        Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure(format!("cannot write the trace: {e}")))
        }
        _ => Ok(()),
    }
}

/// `id (algorithm: N per W, burst B, delay D)`, the line above a lane's output (the
/// id sanitised: it comes from the input).
pub fn heading(id: &str, algorithm: &str, p: &ResolvedParams) -> String {
    let mut s = format!(
        "{} ({}: {} per {}",
        sanitize(id),
        algorithm,
        p.limit,
        crate::table::seconds(p.period_ms)
    );
    if let Some(b) = p.burst {
        s.push_str(&format!(", burst {b}"));
    }
    if let Some(d) = p.delay.filter(|&d| d > 0) {
        s.push_str(&format!(", delay {d}"));
    }
    if p.nodelay {
        s.push_str(", nodelay");
    }
    s.push(')');
    s
}

/// Every id `--limiter` named is one of `config`'s lanes (ids quoted sanitised).
pub fn check_ids(config: &Config, only: &[String]) -> Result<(), Failure> {
    for id in only {
        if !config.lanes.iter().any(|l| &l.id == id) {
            let ids: Vec<String> = config
                .lanes
                .iter()
                .map(|l| sanitize(&l.id).into_owned())
                .collect();
            return Err(Failure(format!(
                "--limiter: no limiter with id \"{}\" (ids: {})",
                sanitize(id),
                ids.join(", ")
            )));
        }
    }
    Ok(())
}

/// One row's cells: `#`, time, key (when the stream has keys), state before, the
/// check, verdict, state after. The key is sanitised (a key may hold control
/// characters) and long states are cut.
fn cells(i: usize, row: &TraceRow, keyed: bool) -> Vec<String> {
    let e = &row.explanation;
    let mut cells = vec![i.to_string(), e.at.to_string()];
    if keyed {
        cells.push(sanitize(&row.key).into_owned());
    }
    cells.extend([
        fields(&e.before, LOG_HEAD, LOG_TAIL),
        check(e),
        e.verdict.to_string(),
        fields(&e.after, LOG_HEAD, LOG_TAIL),
    ]);
    cells
}

/// The table; `counter` adds the estimate, the real window's count and the mark (the cells
/// [`render`] appended).
fn rows(rows: &[Vec<String>], keyed: bool, counter: bool) -> String {
    let mut header = vec!["#", "time"];
    if keyed {
        header.push("key");
    }
    header.extend(["state before", "check", "verdict", "state after"]);
    if counter {
        header.extend(["estimate", "true count in (t − W, t]", "error"]);
    }
    let mut align = vec![Align::Right, Align::Right];
    align.extend(std::iter::repeat_n(Align::Left, header.len() - 2));
    if counter {
        for a in align.iter_mut().rev().skip(1).take(2) {
            *a = Align::Right;
        }
    }
    table(&header, &align, rows)
}

/// The updates then the comparison: `tokens := min(5, 0.7 + 0.3 s · 0.5/s) = 0.85;
/// tokens 0.85 < 1`.
fn check(e: &Explanation) -> String {
    let mut parts: Vec<String> = e.steps.iter().map(ToString::to_string).collect();
    parts.push(e.test.to_string());
    parts.join("; ")
}

//! `ratelab trace`: each limiter's decisions as a trace table, one row per request,
//! straight from `Limiter::explain` (state before, the comparison made, the verdict,
//! state after).

use ratelab_core::Explanation;
use ratelab_sim::{trace, Config, LaneTrace, ResolvedParams};

use crate::table::{render as table, Align};
use crate::Failure;

/// The trace tables of `config`'s lanes (only those in `only`, if any).
pub fn render(config: &Config, only: &[String]) -> Result<String, Failure> {
    check_ids(config, only)?;
    let mut selected = config.clone();
    if !only.is_empty() {
        selected.lanes.retain(|l| only.contains(&l.id));
    }
    let lanes = trace(&selected)?;
    let keyed = selected.stream.requests.iter().any(|r| r.key != 0);
    let mut out = String::new();
    for (n, lane) in lanes.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        out.push_str(&heading(&lane.id, lane.algorithm, &lane.params));
        out.push('\n');
        out.push_str(&rows(lane, keyed));
    }
    Ok(out)
}

/// `id (algorithm: N per W, burst B, delay D)`, the line above a lane's output.
pub fn heading(id: &str, algorithm: &str, p: &ResolvedParams) -> String {
    let mut s = format!(
        "{} ({}: {} per {}",
        id,
        algorithm,
        p.limit,
        crate::labs::seconds(p.period_ms)
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

/// Every id `--limiter` named is one of `config`'s lanes.
pub fn check_ids(config: &Config, only: &[String]) -> Result<(), Failure> {
    for id in only {
        if !config.lanes.iter().any(|l| &l.id == id) {
            let ids: Vec<&str> = config.lanes.iter().map(|l| l.id.as_str()).collect();
            return Err(Failure(format!(
                "--limiter: no limiter with id \"{id}\" (ids: {})",
                ids.join(", ")
            )));
        }
    }
    Ok(())
}

fn rows(lane: &LaneTrace, keyed: bool) -> String {
    let mut header = vec!["#", "time"];
    if keyed {
        header.push("key");
    }
    header.extend(["state before", "check", "verdict", "state after"]);
    let mut align = vec![Align::Right, Align::Right];
    align.extend(std::iter::repeat_n(Align::Left, header.len() - 2));
    let rows: Vec<Vec<String>> = lane
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let e = &row.explanation;
            let mut cells = vec![i.to_string(), e.at.to_string()];
            if keyed {
                cells.push(row.key.clone());
            }
            cells.extend([
                Explanation::fields(&e.before),
                check(e),
                e.verdict.to_string(),
                Explanation::fields(&e.after),
            ]);
            cells
        })
        .collect();
    table(&header, &align, &rows)
}

/// The updates then the comparison: `tokens := min(5, 0.7 + 0.3 s · 0.5/s) = 0.85;
/// tokens 0.85 < 1`.
fn check(e: &Explanation) -> String {
    let mut parts: Vec<String> = e.steps.iter().map(ToString::to_string).collect();
    parts.push(e.test.to_string());
    parts.join("; ")
}

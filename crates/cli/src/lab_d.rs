//! Lab D's two tables (the sweep beside a sliding log, and judged on its own history), shared by `labs` and `lessons`.

use ratelab_learn::judge::Judged;
use ratelab_learn::lesson::{FactValue, Lang};
use ratelab_sim::sweep::Sweep;

use crate::table::{render as table, seconds};

/// `part` of `whole` as a percentage with two decimals, in integers.
fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "–".into();
    }
    let hundredths = (part as u128 * 10_000 + whole as u128 / 2) / whole as u128;
    format!("{}.{:02} %", hundredths / 100, hundredths % 100)
}

/// Lab D's second table: the counter next to an independent sliding log.
pub fn sweep_table(s: &Sweep) -> String {
    let mut out = format!(
        "Side by side with an independent sliding log ({} clients × {} min at {} per {} s each, seed {}): {} against {}, each on its own history:\n",
        s.clients,
        s.duration_ms / 60_000,
        s.limit,
        s.period_ms / 1000,
        s.seed,
        s.candidate,
        s.baseline
    );
    let rows: Vec<Vec<String>> = s
        .rows
        .iter()
        .map(|r| {
            vec![
                r.load.clone(),
                r.requests.to_string(),
                r.baseline_allowed.to_string(),
                r.candidate_allowed.to_string(),
                r.wrong_allows.to_string(),
                percent(r.wrong_allows, r.requests),
                r.wrong_blocks.to_string(),
                percent(r.wrong_blocks, r.requests),
            ]
        })
        .collect();
    out.push_str(&table(
        &[
            "load",
            "requests",
            "log allowed",
            "counter allowed",
            "wrong allows",
            "of requests",
            "wrong blocks",
            "of requests",
        ],
        &crate::table::label_then_numbers(7),
        &rows,
    ));
    out
}

/// Lab D judged on its own history, the article's columns.
pub fn judged_table(j: &Judged, lang: Lang) -> String {
    let pct = |f| FactValue::Share(f).text(lang);
    let mut out = format!(
        "Judged on its own history ({} clients × {} min at {} per {}, seed {}): each decision of the sliding window counter against an exact count of what it had itself admitted in the last window:\n",
        j.clients,
        j.duration_ms / 60_000,
        j.limit,
        seconds(j.period_ms),
        j.seed
    );
    let rows: Vec<Vec<String>> = j
        .rows
        .iter()
        .map(|r| {
            vec![
                r.load.clone(),
                r.requests.to_string(),
                pct(r.allowed_share()),
                pct(r.wrong_allow_share()),
                pct(r.wrong_block_share()),
                FactValue::ApproxShare(r.mean_error()).text(lang),
                r.worst_client_max.to_string(),
            ]
        })
        .collect();
    out.push_str(&table(
        &[
            "load",
            "requests",
            "allowed",
            "wrongly allowed",
            "wrongly blocked",
            "mean estimate error",
            "worst client, most in one window",
        ],
        &crate::table::label_then_numbers(6),
        &rows,
    ));
    out
}

//! `ratelab lessons` and `ratelab lesson ID [--json] [--lang en|vi]`: the guided
//! path as text, each statement filled with the numbers the engine computed.

use ratelab_sim::judge::Judged;
use ratelab_sim::lesson::{lesson, lesson_ids, FactValue, Lang, LESSONS};

use crate::labs::seconds;
use crate::table::{render as table, Align};
use crate::Failure;

/// The list: id, group, title, steps.
pub fn list(lang: Lang) -> String {
    let t = lang.texts();
    let rows: Vec<Vec<String>> = LESSONS
        .iter()
        .map(|l| {
            vec![
                l.id.to_string(),
                t.or_key(l.group.text_key()),
                t.or_key(&l.key("title")),
                l.steps.len().to_string(),
            ]
        })
        .collect();
    table(
        &["id", "group", "title", "steps"],
        &[Align::Left, Align::Left, Align::Left, Align::Right],
        &rows,
    )
}

/// One lesson, run.
pub fn show(id: &str, json: bool, lang: Lang) -> Result<String, Failure> {
    let l = lesson(id).ok_or_else(|| {
        Failure(format!(
            "lesson: unknown lesson \"{id}\" (expected one of {})",
            lesson_ids()
        ))
    })?;
    let run = l.run(lang)?;
    if json {
        return Ok(run.to_json() + "\n");
    }
    let mut out = format!("{}\n{}\n", run.title, run.intro);
    for s in &run.steps {
        out.push_str(&format!(
            "\n{}. {}\n   open:    ?{}\n   play to: {}{}\n   watch:   {}\n   proved:  {}\n",
            s.index + 1,
            s.title,
            s.query,
            seconds(s.play_to_ms),
            s.select
                .map_or(String::new(), |i| format!(", request #{i} selected")),
            s.watch,
            s.proved
        ));
        if let Some(j) = &s.judged {
            out.push('\n');
            out.push_str(&judged_table(j, lang));
        }
        if let Some(sw) = &s.report.sweep {
            out.push('\n');
            out.push_str(&crate::labs::sweep_table(sw));
        }
    }
    Ok(out)
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
                pct(r.mean_error()),
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
        &[
            Align::Left,
            Align::Right,
            Align::Right,
            Align::Right,
            Align::Right,
            Align::Right,
            Align::Right,
        ],
        &rows,
    ));
    out
}

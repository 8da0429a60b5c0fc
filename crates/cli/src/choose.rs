//! `ratelab choose`: "Which limiter?" (ratelab-learn's `chooser`) on the command
//! line: the flowchart asked on standard input or walked with `--answers a,b`,
//! ending on a limiter, its parameters and the lesson step that shows it; the
//! decision matrix and the two "what fits" tables with `--matrix`.

use std::io::{BufRead, Write};

use ratelab_learn::chooser::{
    self, letter, parse_answer, pick, question, Next, Pick, Walk, GOALS, MATRIX_COLUMNS,
    MATRIX_ROWS, SITUATIONS, START,
};
use ratelab_learn::lesson::Lang;

/// The link to a pick's lesson step: `base?lesson=ID&step=N`, or the query alone
/// after `?` when no base is given.
fn link(p: &Pick, base: Option<&str>) -> String {
    let base = base.map_or("", |b| b.split(['?', '#']).next().unwrap_or(b));
    format!("{base}?{}", p.query())
}

/// The note under a pick printed without `--base`.
const NO_BASE: &str = "(the link goes after the playground's address, e.g. http://127.0.0.1:8080/ from `trunk serve`; --base URL prints it whole)";

/// A pick as text: title, why, the limiter with its parameters, the other
/// limiters that fit, the lesson step and its link.
pub fn pick_text(p: &Pick, lang: Lang, base: Option<&str>) -> String {
    let t = lang.texts();
    let o = p.out(lang);
    let word = |k: &str| t.or_key(&format!("choose.word.{k}"));
    let algorithm = o.algorithms.first().copied().unwrap_or_default();
    let mut out = format!("→ {}\n  {}\n", o.title, o.why);
    out.push_str(&format!(
        "  {}: {algorithm}, {}\n",
        word("params"),
        o.params
    ));
    if o.algorithms.len() > 1 {
        out.push_str(&format!(
            "  {}: {}\n",
            word("also"),
            o.algorithms[1..].join(", ")
        ));
    }
    let step_title = t.or_key(&format!("lesson.{}.{}.title", p.lesson, p.step));
    let lesson_title = t.or_key(&format!("lesson.{}.title", p.lesson));
    out.push_str(&format!(
        "  {}: {lesson_title}, {} {}: {step_title}\n    {}\n",
        word("proved"),
        word("step"),
        o.step,
        link(p, base)
    ));
    if base.is_none() {
        out.push_str(&format!("    {NO_BASE}\n"));
    }
    out
}

/// A walk as text: each question with the answer given, then the pick.
pub fn walk_text(w: &Walk, lang: Lang, base: Option<&str>) -> String {
    let t = lang.texts();
    let mut out = format!("{}\n\n", t.or_key("choose.title"));
    for (n, (q, i)) in w.steps.iter().enumerate() {
        out.push_str(&format!(
            "{}. {}\n",
            n + 1,
            t.or_key(&format!("choose.{}.question", q.id))
        ));
        if let Some(a) = q.answers.get(*i) {
            out.push_str(&format!(
                "   {}) {}\n",
                letter(*i),
                t.or_key(&format!("choose.{}.{}", q.id, a.id))
            ));
        }
    }
    out.push('\n');
    out.push_str(&pick_text(&w.pick, lang, base));
    out
}

/// The flowchart asked on `input`: each question with its lettered answers, an
/// answer read (a line that is no choice is asked again), until a pick. When the
/// input ends first, a line says so and nothing is picked. `terminal`: a person is
/// typing (a prompt is shown).
pub fn ask(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    terminal: bool,
    lang: Lang,
    base: Option<&str>,
) -> std::io::Result<()> {
    let t = lang.texts();
    let word = |k: &str| t.or_key(&format!("choose.word.{k}"));
    writeln!(out, "{}\n", t.or_key("choose.title"))?;
    let mut id = START;
    for n in 1..=chooser::QUESTIONS.len() {
        let Some(q) = question(id) else { break };
        writeln!(
            out,
            "{n}. {}",
            t.or_key(&format!("choose.{}.question", q.id))
        )?;
        for (j, a) in q.answers.iter().enumerate() {
            writeln!(
                out,
                "   {}) {}",
                letter(j),
                t.or_key(&format!("choose.{}.{}", q.id, a.id))
            )?;
        }
        let last = letter(q.answers.len().saturating_sub(1));
        let chosen = loop {
            if terminal {
                write!(out, "{} (a–{last}): ", word("answer"))?;
            }
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out, "\n({})", word("unfinished"))?;
                return out.flush();
            }
            if let Some(j) = parse_answer(&line, q.answers.len()) {
                break j;
            }
            writeln!(out, "   ({} {last})", word("again"))?;
        };
        if !terminal {
            // Piped answers are not echoed by a terminal: show the one taken.
            writeln!(out, "   → {})", letter(chosen))?;
        }
        writeln!(out)?;
        match q.answers.get(chosen).map(|a| a.next) {
            Some(Next::Ask(next)) => id = next,
            Some(Next::Pick(p)) => {
                write!(out, "{}", pick_text(&p, lang, base))?;
                return out.flush();
            }
            None => break,
        }
    }
    out.flush()
}

/// The decision matrix (one block per limiter column, each with the link to the
/// lesson step that shows it), then the goals and the situations tables.
pub fn matrix(lang: Lang, base: Option<&str>) -> String {
    let t = lang.texts();
    let mut out = format!("{}\n", t.or_key("choose.matrix.title"));
    let labels: Vec<String> = MATRIX_ROWS
        .iter()
        .map(|r| t.or_key(&format!("choose.matrix.{r}")))
        .collect();
    let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    for (col, algorithms) in MATRIX_COLUMNS {
        let ids: Vec<&str> = algorithms.iter().map(|a| a.id()).collect();
        out.push_str(&format!(
            "\n{} ({})",
            t.or_key(&format!("choose.matrix.col.{col}")),
            ids.join(", ")
        ));
        if let Some(p) = pick(col) {
            out.push_str(&format!("  {}", link(&p, base)));
        }
        out.push('\n');
        for (row, label) in MATRIX_ROWS.iter().zip(&labels) {
            let pad = width - label.chars().count();
            out.push_str(&format!(
                "  {label}:{} {}\n",
                " ".repeat(pad),
                t.or_key(&format!("choose.matrix.{row}.{col}"))
            ));
        }
    }
    for (title, table, rows, why) in [
        ("choose.goals.title", "goal", GOALS, false),
        ("choose.situations.title", "situation", SITUATIONS, true),
    ] {
        out.push_str(&format!("\n{}\n", t.or_key(title)));
        for f in rows {
            let picks: Vec<String> = f
                .picks
                .iter()
                .filter_map(|id| pick(id))
                .map(|p| {
                    format!(
                        "{} ({})",
                        t.or_key(&format!("choose.pick.{}.title", p.id)),
                        link(&p, base)
                    )
                })
                .collect();
            out.push_str(&format!(
                "- {}\n  → {}\n",
                t.or_key(&format!("choose.{table}.{}", f.id)),
                picks.join("; ")
            ));
            if why {
                out.push_str(&format!(
                    "    {}\n",
                    t.or_key(&format!("choose.{table}.{}.why", f.id))
                ));
            }
        }
    }
    if base.is_none() {
        out.push_str(&format!("\n{NO_BASE}\n"));
    }
    out
}

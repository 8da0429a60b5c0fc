//! `ratelab lessons` and `ratelab lesson ID [--json] [--lang en|vi]`: the guided
//! path as text, each statement filled with the numbers the engine computed.

use ratelab_learn::lesson::{lesson, lesson_ids, Lang, LESSONS};

use crate::table::{render as table, seconds, Align};
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

/// One lesson, run. Each step's link is `base` followed by its query; without a
/// base, the query alone, under a line saying what it is relative to.
pub fn show(id: &str, json: bool, lang: Lang, base: Option<&str>) -> Result<String, Failure> {
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
    let base = match base {
        Some(b) => b.split(['?', '#']).next().unwrap_or(b).to_string(),
        None => {
            out.push_str("(Each step's link goes after the playground's address, e.g. http://127.0.0.1:8080/ from `trunk serve`; --base URL prints them whole.)\n");
            String::new()
        }
    };
    for s in &run.steps {
        out.push_str(&format!(
            "\n{}. {}\n   open:    {base}?{}\n   play to: {}{}\n   watch:   {}\n   proved:  {}\n",
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
            out.push_str(&crate::lab_d::judged_table(j, lang));
        }
        if let Some(sw) = &s.report.sweep {
            out.push('\n');
            out.push_str(&crate::lab_d::sweep_table(sw));
        }
    }
    Ok(out)
}

/// A translation as text: the lane, what it admits, the notes, every tool's config.
pub fn translation(t: &ratelab_learn::translate::Translation, lang: Lang) -> String {
    let r = t.lane.resolved();
    let mut out = format!(
        "{}: {} per {}",
        t.tool.name(),
        r.limit,
        seconds(r.period_ms)
    );
    out = format!(
        "{out} as {}{}{}{}{}\n",
        t.lane.algorithm.id(),
        r.burst.map_or(String::new(), |b| format!(", burst {b}")),
        r.delay
            .filter(|&d| d > 0)
            .map_or(String::new(), |d| format!(", delay {d}")),
        if r.nodelay { ", nodelay" } else { "" },
        if t.cost > 1 {
            format!(", each request costs {}", t.cost)
        } else {
            String::new()
        }
    );
    out.push_str(if t.exact {
        "exact: decides as the tool does\n"
    } else {
        "close: same rate and burst, decided a little differently\n"
    });
    for n in &t.notes {
        out.push_str(&format!("- {}\n", n.text(lang)));
    }
    out.push_str("\nThe same lane for each tool:\n");
    for e in ratelab_learn::translate::export(&t.lane) {
        let fit = match e.fit {
            ratelab_learn::translate::Fit::Exact => "exact",
            ratelab_learn::translate::Fit::Close => "close",
            ratelab_learn::translate::Fit::None => "none",
        };
        out.push_str(&format!(
            "\n{} ({fit}): {}\n",
            e.tool.name(),
            e.note.text(lang)
        ));
        if let Some(c) = e.config {
            for line in c.lines() {
                out.push_str(&format!("    {line}\n"));
            }
        }
    }
    out
}

/// The quiz asked on `input`, one question at a time: the question and its
/// lettered choices, then (an answer read) whether it was right, the right choice
/// and the engine's explanation. A line that is no choice is asked again; when
/// the input ends, the questions left are shown unanswered and the score so far.
/// `terminal`: the input is a person typing (a prompt is shown).
pub fn ask(
    questions: &[ratelab_learn::quiz::Question],
    input: &mut dyn std::io::BufRead,
    out: &mut dyn std::io::Write,
    terminal: bool,
    lang: Lang,
) -> std::io::Result<()> {
    let w = match lang {
        Lang::En => AskWords {
            prompt: "your answer",
            again: "answer with a letter, a to",
            right: "right",
            wrong: "is not it",
            is: "is",
            unanswered: "not answered",
            score: "right",
            left: "not answered: every answer is in",
        },
        Lang::Vi => AskWords {
            prompt: "câu trả lời của bạn",
            again: "trả lời bằng một chữ cái, từ a đến",
            right: "đúng",
            wrong: "chưa đúng",
            is: "mới đúng",
            unanswered: "chưa trả lời",
            score: "câu đúng",
            left: "câu chưa trả lời: mọi đáp án có trong",
        },
    };
    let letter = |j: usize| char::from(b'a' + (j % 26) as u8);
    let (mut right, mut asked) = (0, 0);
    let mut ended = false;
    for (i, q) in questions.iter().enumerate() {
        writeln!(out, "{}. {}", i + 1, q.question)?;
        for (j, c) in q.choices.iter().enumerate() {
            writeln!(out, "   {}) {c}", letter(j))?;
        }
        let last = letter(q.choices.len().saturating_sub(1));
        let chosen = loop {
            if ended {
                break None;
            }
            if terminal {
                write!(out, "{} (a–{last}): ", w.prompt)?;
            }
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                ended = true;
                break None;
            }
            let t = line.trim().to_ascii_lowercase();
            let j = match (t.parse::<usize>(), t.as_bytes()) {
                (Ok(n), _) => n.checked_sub(1),
                (_, &[b]) => b.checked_sub(b'a').map(usize::from),
                _ => None,
            };
            if let Some(j) = j.filter(|&j| j < q.choices.len()) {
                break Some(j);
            }
            writeln!(out, "   ({} {last})", w.again)?;
        };
        match chosen {
            Some(j) => {
                asked += 1;
                if j == q.correct {
                    right += 1;
                    writeln!(out, "   ✓ {}: {}", w.right, q.answer)?;
                } else {
                    writeln!(
                        out,
                        "   ✗ {}) {}; {}) {}: {}",
                        letter(j),
                        w.wrong,
                        letter(q.correct),
                        w.is,
                        q.answer
                    )?;
                    if let Some(Some(why)) = q.why_not.get(j) {
                        writeln!(out, "     {}) {why}", letter(j))?;
                    }
                }
            }
            None => writeln!(out, "   ({})", w.unanswered)?,
        }
        writeln!(out)?;
    }
    if asked < questions.len() {
        writeln!(
            out,
            "{right}/{asked} {}; {} {} (ratelab quiz --answers)",
            w.score,
            questions.len() - asked,
            w.left
        )?;
    } else {
        writeln!(out, "{right}/{} {}.", questions.len(), w.score)?;
    }
    out.flush()
}

/// The words of [`ask`] in one language.
struct AskWords {
    prompt: &'static str,
    again: &'static str,
    right: &'static str,
    wrong: &'static str,
    is: &'static str,
    unanswered: &'static str,
    score: &'static str,
    left: &'static str,
}

/// The quiz as text, answered (`ratelab quiz --answers`): each wrong choice
/// with why it is wrong under it.
pub fn quiz(questions: &[ratelab_learn::quiz::Question]) -> String {
    let mut out = String::new();
    for (i, q) in questions.iter().enumerate() {
        out.push_str(&format!("{}. {}\n", i + 1, q.question));
        for (j, c) in q.choices.iter().enumerate() {
            let mark = if j == q.correct { "*" } else { " " };
            out.push_str(&format!("   {mark} {c}\n"));
            if let Some(Some(why)) = q.why_not.get(j) {
                out.push_str(&format!("       {why}\n"));
            }
        }
        out.push_str(&format!("   → {}\n\n", q.answer));
    }
    out
}

//! "Which limiter?" as escaped HTML (see [`crate::view::learn::chooser`]): the
//! questions answered so far, the one asked now with its answers, or the limiter
//! it ends on with its parameters and the lesson step that shows it; then the
//! decision matrix. Every text goes through [`Writer`], which escapes it. Buttons
//! carry no handler: each names what it does in `data-choose` (an answer, a step
//! back, start over) or where it goes in `data-go` (a lesson step), and the
//! chooser has one click handler.

use ratelab_learn::chooser::{picks, Next, Pick, Question, MATRIX_COLUMNS, MATRIX_ROWS};
use ratelab_learn::lesson::Lang;
use ratelab_learn::texts::Texts;

use super::markup::{Html, Writer};

/// Where a way through the flowchart stands: each question asked with the answer
/// given (its index), and the question asked now or the pick it ended on.
pub struct Walked {
    /// The questions answered, with the answer's index.
    pub answered: Vec<(&'static Question, usize)>,
    /// The question asked now, if it has not ended.
    pub asking: Option<&'static Question>,
    /// The pick it ended on.
    pub pick: Option<Pick>,
}

/// Follows `answers` (indices) from the first question; an index that is no
/// answer ends the walk where it is.
pub fn walk(answers: &[usize]) -> Walked {
    let mut q = ratelab_learn::chooser::question(ratelab_learn::chooser::START);
    let mut answered = Vec::new();
    for &i in answers {
        let Some(now) = q else { break };
        let Some(a) = now.answers.get(i) else { break };
        answered.push((now, i));
        match a.next {
            Next::Ask(id) => q = ratelab_learn::chooser::question(id),
            Next::Pick(p) => {
                return Walked {
                    answered,
                    asking: None,
                    pick: Some(p),
                }
            }
        }
    }
    Walked {
        answered,
        asking: q,
        pick: None,
    }
}

/// The chooser at `walked`, in the words of `t` (the lessons' texts, fetched).
pub fn chooser(walked: &Walked, t: &Texts, lang: Lang) -> Html {
    let mut w = Writer::with_capacity(4096);
    let word = |key: &str| t.or_key(key);
    if !walked.answered.is_empty() {
        w.el("ol").attr("class", "answered").children(|w| {
            for (at, (q, i)) in walked.answered.iter().enumerate() {
                w.el("li").attr("data-question", q.id).children(|w| {
                    w.el("span")
                        .attr("class", "question")
                        .text(&word(&format!("choose.{}.question", q.id)));
                    w.text(" ");
                    let answer = q.answers.get(*i).map_or("", |a| a.id);
                    w.el("strong")
                        .text(&word(&format!("choose.{}.{answer}", q.id)));
                    w.text(" ");
                    w.el("button")
                        .attr("type", "button")
                        .attr("class", "change")
                        .attr("data-choose", format!("back:{at}").as_str())
                        .text(&word("choose.word.change"));
                });
            }
        });
    }
    if let Some(q) = walked.asking {
        w.el("fieldset")
            .attr("class", "asking")
            .attr("data-question", q.id)
            .children(|w| {
                w.el("legend")
                    .text(&word(&format!("choose.{}.question", q.id)));
                for (i, a) in q.answers.iter().enumerate() {
                    w.el("button")
                        .attr("type", "button")
                        .attr("class", "answer")
                        .attr("data-choose", format!("answer:{i}").as_str())
                        .text(&word(&format!("choose.{}.{}", q.id, a.id)));
                }
            });
    }
    if let Some(p) = walked.pick {
        w.el("div")
            .attr("class", "pick")
            .attr("data-pick", p.id)
            .attr("role", "status")
            .children(|w| {
                w.el("p")
                    .attr("class", "pick-title")
                    .text(&word(&format!("choose.pick.{}.title", p.id)));
                w.el("p").attr("class", "pick-params").children(|w| {
                    w.text(&word("choose.word.params"));
                    w.text(": ");
                    w.el("strong").text(&p.params_in(t, lang));
                });
                w.el("p")
                    .attr("class", "pick-why")
                    .text(&word(&format!("choose.pick.{}.why", p.id)));
                let go = crate::learn::OpenLesson::new(p.lesson, p.step).map(|o| o.key());
                if let Some(go) = go {
                    w.el("button")
                        .attr("type", "button")
                        .attr("class", "show")
                        .attr("data-go", go.as_str())
                        .attr("data-lesson", p.lesson)
                        .attr("data-step", p.step as u64)
                        .text(&word("choose.word.show"));
                }
            });
    }
    if !walked.answered.is_empty() {
        w.el("button")
            .attr("type", "button")
            .attr("class", "again")
            .attr("data-choose", "again")
            .text(&word("choose.word.restart"));
    }
    matrix(&mut w, t);
    w.finish_html()
}

/// The decision matrix: a row per property, a column per kind of limiter, each
/// column's title a button to the lesson step that shows that limiter at work.
fn matrix(w: &mut Writer, t: &Texts) {
    w.el("details").attr("class", "matrix").children(|w| {
        w.el("summary").text(&t.or_key("choose.matrix.title"));
        w.el("div").attr("class", "scroll").children(|w| {
            w.el("table").children(|w| {
                w.el("thead").children(|w| {
                    w.el("tr").children(|w| {
                        w.el("th").text("");
                        for (col, algorithms) in MATRIX_COLUMNS {
                            let title = t.or_key(&format!("choose.matrix.col.{col}"));
                            let go = picks()
                                .into_iter()
                                .find(|p| p.algorithms.iter().any(|a| algorithms.contains(a)))
                                .and_then(|p| crate::learn::OpenLesson::new(p.lesson, p.step));
                            w.el("th").attr("scope", "col").children(|w| match go {
                                Some(o) => w
                                    .el("button")
                                    .attr("type", "button")
                                    .attr("data-go", o.key().as_str())
                                    .text(&title),
                                None => w.text(&title),
                            });
                        }
                    });
                });
                w.el("tbody").children(|w| {
                    for row in MATRIX_ROWS {
                        w.el("tr").children(|w| {
                            w.el("th")
                                .attr("scope", "row")
                                .text(&t.or_key(&format!("choose.matrix.{row}")));
                            for (col, _) in MATRIX_COLUMNS {
                                w.el("td")
                                    .text(&t.or_key(&format!("choose.matrix.{row}.{col}")));
                            }
                        });
                    }
                });
            });
        });
    });
}

/// A status line (loading, or why the texts could not be had), escaped.
pub fn status(text: &str) -> Html {
    let mut w = Writer::with_capacity(text.len() + 32);
    w.el("p").attr("class", "status").text(text);
    w.finish_html()
}

//! The quiz as escaped HTML (see [`crate::view::learn::quiz`]): each question with
//! its choices as radio buttons and a button that commits the one picked; once
//! committed, whether it was right, the right choice, why the chosen one is wrong,
//! the engine's answer with its numbers, why each other wrong choice is wrong, and
//! buttons that show the run on the lanes. Every text goes through [`Writer`],
//! which escapes it. Buttons carry no handler: each names what it does in
//! `data-quiz` (`check:Q`, `again:Q`, `show:Q:K`), and the quiz has one click
//! handler.

use ratelab_learn::quiz::Question;
use ratelab_learn::texts::{render, Texts};

use super::markup::{Html, Writer};

/// Where the learner stands on each question.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answers {
    /// The choice picked (not yet committed, or committed), by question.
    pub picked: Vec<Option<usize>>,
    /// The choice committed, by question: the question is answered.
    pub committed: Vec<Option<usize>>,
    /// The question whose button was pressed with nothing picked.
    pub unpicked: Option<usize>,
}

impl Answers {
    fn at(v: &[Option<usize>], q: usize) -> Option<usize> {
        v.get(q).copied().flatten()
    }

    /// The choice picked on question `q`.
    pub fn picked(&self, q: usize) -> Option<usize> {
        Answers::at(&self.picked, q)
    }

    /// The choice committed on question `q`.
    pub fn committed(&self, q: usize) -> Option<usize> {
        Answers::at(&self.committed, q)
    }

    fn set(v: &mut Vec<Option<usize>>, q: usize, c: Option<usize>) {
        if v.len() <= q {
            v.resize(q + 1, None);
        }
        v[q] = c;
    }

    /// Picks choice `c` on question `q` (not committed).
    pub fn pick(&mut self, q: usize, c: usize) {
        Answers::set(&mut self.picked, q, Some(c));
        if self.unpicked == Some(q) {
            self.unpicked = None;
        }
    }

    /// Commits the choice picked on question `q`; with none picked, marks the
    /// question to say so. Returns whether it committed.
    pub fn commit(&mut self, q: usize) -> bool {
        match self.picked(q) {
            Some(c) => {
                Answers::set(&mut self.committed, q, Some(c));
                self.unpicked = None;
                true
            }
            None => {
                self.unpicked = Some(q);
                false
            }
        }
    }

    /// Asks question `q` again: nothing picked or committed.
    pub fn again(&mut self, q: usize) {
        Answers::set(&mut self.picked, q, None);
        Answers::set(&mut self.committed, q, None);
    }
}

/// The quiz `questions` at `answers`, in the words of `t` (the lessons' texts).
pub fn quiz(questions: &[Question], answers: &Answers, t: &Texts) -> Html {
    let mut w = Writer::with_capacity(8192);
    let word = |key: &str| t.or_key(key);
    w.el("p")
        .attr("class", "quiz-intro")
        .text(&word("quiz.word.intro"));
    w.el("ol").attr("class", "questions").children(|w| {
        for (i, q) in questions.iter().enumerate() {
            question(w, t, i, q, answers);
        }
    });
    let asked: Vec<(usize, usize)> = questions
        .iter()
        .enumerate()
        .filter_map(|(i, q)| answers.committed(i).map(|c| (c, q.correct)))
        .collect();
    if !asked.is_empty() {
        let right = asked.iter().filter(|(c, r)| c == r).count();
        let score = render(&word("quiz.word.score"), |slot| match slot {
            "right" => Some(right.to_string()),
            "asked" => Some(asked.len().to_string()),
            _ => None,
        })
        .unwrap_or_default();
        w.el("p").attr("class", "score").text(&score);
    }
    w.finish_html()
}

/// Question `i`: its choices, then its button or its result.
fn question(w: &mut Writer, t: &Texts, i: usize, q: &Question, answers: &Answers) {
    let word = |key: &str| t.or_key(key);
    let committed = answers.committed(i);
    let picked = answers.picked(i);
    let mut li = w
        .el("li")
        .attr("class", "question")
        .attr("data-question", q.id);
    if let Some(c) = committed {
        li = li.attr(
            "data-result",
            if c == q.correct { "right" } else { "wrong" },
        );
    }
    li.children(|w| {
        w.el("fieldset").children(|w| {
            w.el("legend").text(&q.question);
            let name = format!("quiz-{}", q.id);
            for (c, choice) in q.choices.iter().enumerate() {
                let mut label = w.el("label").attr("class", "choice");
                if committed.is_some() && c == q.correct {
                    label = label.attr("data-right", "");
                }
                if committed == Some(c) {
                    label = label.attr("data-chosen", "");
                }
                label.children(|w| {
                    let mut input = w
                        .el("input")
                        .attr("type", "radio")
                        .attr("name", name.as_str())
                        .attr("value", c as u64);
                    if picked == Some(c) {
                        input = input.attr("checked", "");
                    }
                    if committed.is_some() {
                        input = input.attr("disabled", "");
                    }
                    input.void();
                    w.el("span").text(choice);
                    if committed.is_some() && c == q.correct {
                        w.el("span").attr("class", "mark").text(" ✓");
                    } else if committed == Some(c) {
                        w.el("span").attr("class", "mark").text(" ✗");
                    }
                });
            }
        });
        match committed {
            None => {
                w.el("button")
                    .attr("type", "button")
                    .attr("class", "check")
                    .attr("data-quiz", format!("check:{i}").as_str())
                    .text(&word("quiz.word.check"));
                if answers.unpicked == Some(i) {
                    w.el("p")
                        .attr("class", "unpicked")
                        .attr("role", "alert")
                        .text(&word("quiz.word.pick"));
                }
            }
            Some(c) => result(w, t, i, q, c),
        }
    });
}

/// What a committed answer reveals.
fn result(w: &mut Writer, t: &Texts, i: usize, q: &Question, chosen: usize) {
    let word = |key: &str| t.or_key(key);
    let choice = |c: usize| q.choices.get(c).map_or("", String::as_str);
    let why_not = |c: usize| q.why_not.get(c).cloned().flatten();
    w.el("div")
        .attr("class", "result")
        .attr("role", "status")
        .children(|w| {
            w.el("p")
                .attr("class", "verdict")
                .attr("tabindex", "-1")
                .children(|w| {
                    if chosen == q.correct {
                        w.el("strong").text(&word("quiz.word.right"));
                    } else {
                        w.el("strong").text(&word("quiz.word.wrong"));
                        w.text(" ");
                        w.el("span").attr("class", "right").text(choice(q.correct));
                    }
                });
            if let Some(why) = why_not(chosen) {
                w.el("p").attr("class", "why-not").children(|w| {
                    w.el("strong").text(&format!(
                        "{} “{}”:",
                        word("quiz.word.why_not"),
                        choice(chosen)
                    ));
                    w.text(" ");
                    w.el("span").text(&why);
                });
            }
            w.el("p").attr("class", "answer").children(|w| {
                w.el("strong")
                    .text(&format!("{}:", word("quiz.word.answer")));
                w.text(" ");
                w.el("span").text(&q.answer);
            });
            let others: Vec<(usize, String)> = (0..q.choices.len())
                .filter(|&c| c != chosen)
                .filter_map(|c| why_not(c).map(|why| (c, why)))
                .collect();
            if !others.is_empty() {
                w.el("div").attr("class", "others").children(|w| {
                    w.el("p").children(|w| {
                        w.el("strong")
                            .text(&format!("{}:", word("quiz.word.others")));
                    });
                    w.el("dl").children(|w| {
                        for (c, why) in &others {
                            w.el("dt").attr("data-choice", *c as u64).text(choice(*c));
                            w.el("dd").attr("data-choice", *c as u64).text(why);
                        }
                    });
                });
            }
            w.el("div").attr("class", "actions").children(|w| {
                for (k, show) in q.show.iter().enumerate() {
                    w.el("button")
                        .attr("type", "button")
                        .attr("class", "show")
                        .attr("data-quiz", format!("show:{i}:{k}").as_str())
                        .attr("data-query", show.query.as_str())
                        .text(&show.label);
                }
                w.el("button")
                    .attr("type", "button")
                    .attr("class", "again")
                    .attr("data-quiz", format!("again:{i}").as_str())
                    .text(&word("quiz.word.again"));
            });
        });
}

/// A status line (loading, or why the texts could not be had), escaped.
pub fn status(text: &str) -> Html {
    super::chooser::status(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratelab_learn::quiz::quiz as questions;
    use ratelab_learn::texts::Lang;

    #[test]
    fn a_committed_answer_reveals_the_verdict_the_answer_and_why_not() {
        let t = Lang::En.texts();
        let qs = questions(Lang::En).unwrap();
        let esc = |s: &str| s.replace('\'', "&#39;").replace('"', "&quot;");
        let mut a = Answers::default();
        // Nothing committed: choices and a button, no answer shown.
        let html = quiz(&qs, &a, t);
        assert_eq!(html.as_str().matches("class=\"check\"").count(), qs.len());
        assert!(!html.as_str().contains(&esc(&qs[0].answer)));
        // The button with nothing picked says to pick first.
        assert!(!a.commit(0));
        assert!(quiz(&qs, &a, t).as_str().contains("Pick an answer first."));
        // A wrong choice: the right one named, why the chosen one is wrong, the
        // engine's answer, the other wrong choice explained, the run's button.
        a.pick(0, 0);
        assert!(a.commit(0));
        let html = quiz(&qs, &a, t);
        let s = html.as_str();
        assert!(s.contains("data-result=\"wrong\""), "{s}");
        assert!(s.contains("<span class=\"right\">10</span>"), "{s}");
        let why = esc(&qs[0].why_not[0].clone().unwrap());
        assert!(
            s.contains(&format!("<strong>Why not “5”:</strong> <span>{why}</span>")),
            "{s}"
        );
        assert!(s.contains(&esc(&qs[0].answer)));
        let other = esc(&qs[0].why_not[1].clone().unwrap());
        assert!(
            s.contains(&format!("<dd data-choice=\"1\">{other}</dd>")),
            "{s}"
        );
        assert!(s.contains("data-quiz=\"show:0:0\""), "{s}");
        assert!(s.contains("1 of 1 answered right") || s.contains("0 of 1 answered right"));
        assert!(
            s.contains(
                "<input type=\"radio\" name=\"quiz-q1\" value=\"0\" checked=\"\" disabled=\"\">"
            ),
            "{s}"
        );
        // Again: asked anew.
        a.again(0);
        assert_eq!(
            quiz(&qs, &a, t).as_str().matches("class=\"check\"").count(),
            qs.len()
        );
        // The right choice: no "why not" for it.
        a.pick(1, qs[1].correct);
        a.commit(1);
        let s = quiz(&qs, &a, t);
        assert!(s.as_str().contains("data-result=\"right\""));
        assert!(!s.as_str().contains("class=\"why-not\""));
        assert!(s.as_str().contains("1 of 1 answered right"));
    }

    #[test]
    fn texts_from_the_quiz_are_escaped() {
        let t = Lang::En.texts();
        let mut qs = questions(Lang::En).unwrap();
        qs[0].question = "<script>x</script>".into();
        qs[0].choices[0] = "\"><b>".into();
        let s = quiz(&qs, &Answers::default(), t);
        assert!(!s.as_str().contains("<script>") && !s.as_str().contains("\"><b>"));
    }
}

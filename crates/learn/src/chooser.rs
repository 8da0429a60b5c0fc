//! "Which limiter?": the long article's decision flowchart and matrix as data.
//!
//! The flowchart is a small tree of yes/no questions ([`QUESTIONS`], starting at
//! [`START`]); every answer leads to another question or to a [`Pick`], which opens a
//! preset: the lesson step that shows the chosen limiter at work. The words are in
//! the language files under `choose.`.
//!
//! ```
//! use ratelab_learn::chooser::{question, Next, START};
//!
//! let q = question(START).unwrap();
//! // "Must you never exceed N in any window W, with N small?" Yes: the sliding log.
//! let Next::Pick(p) = q.answers[0].next else { panic!() };
//! assert_eq!(p.algorithms[0].id(), "sliding_log");
//! assert!(p.link().is_some());
//! ```

use ratelab_core::Algorithm::{self, *};
use ratelab_core::Ms;
use serde::Serialize;

use crate::lesson::{lesson, FactValue};
use crate::texts::{render, Lang};
use ratelab_sim::share::Link;
use ratelab_sim::LaneSpec;

/// A question of the flowchart.
#[derive(Clone, Copy, Debug)]
pub struct Question {
    /// Its id (texts: `choose.<id>.question`).
    pub id: &'static str,
    /// Its answers (texts: `choose.<id>.<answer id>`).
    pub answers: &'static [Answer],
}

/// An answer and where it leads.
#[derive(Clone, Copy, Debug)]
pub struct Answer {
    /// Its id.
    pub id: &'static str,
    /// The next question or the pick.
    pub next: Next,
}

/// Where an answer leads.
#[derive(Clone, Copy, Debug)]
pub enum Next {
    /// Another question, by id.
    Ask(&'static str),
    /// A choice.
    Pick(Pick),
}

/// A chosen limiter and the preset that shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    /// Its id (texts: `choose.pick.<id>.title`, `.why`).
    pub id: &'static str,
    /// The limiter(s) chosen, the first being the one to use.
    pub algorithms: &'static [Algorithm],
    /// The lesson that shows it, and its step.
    pub lesson: &'static str,
    /// The step of that lesson.
    pub step: usize,
}

impl Pick {
    /// The preset: the page's link for that lesson step.
    pub fn link(&self) -> Option<Link> {
        Some(lesson(self.lesson)?.steps.get(self.step)?.link())
    }

    /// The page's query naming that lesson step: `lesson=ID&step=N`, N counting
    /// from 1 as the page's links do (always written, also for the first step).
    pub fn query(&self) -> String {
        format!("lesson={}&step={}", self.lesson, self.step + 1)
    }

    /// The chosen limiter with its parameters: the preset's first lane of
    /// `algorithms[0]`, as the lesson step runs it.
    pub fn lane(&self) -> Option<LaneSpec> {
        let link = self.link()?;
        let algorithm = *self.algorithms.first()?;
        link.setup
            .lanes
            .into_iter()
            .find(|l| l.algorithm == algorithm)
    }

    /// The parameters in words: `5 per 10 s`, `1 per 100 ms, burst 10` (texts:
    /// `choose.params`, `choose.params.burst`).
    pub fn params_text(&self, lang: Lang) -> String {
        self.params_in(lang.texts(), lang)
    }

    /// [`Pick::params_text`] with the words of `t` (the page's fetched texts: the
    /// page never compiles the text files in).
    pub fn params_in(&self, t: &crate::texts::Texts, lang: Lang) -> String {
        let Some(lane) = self.lane() else {
            return t.or_key("choose.params");
        };
        let r = lane.resolved();
        let key = if r.burst.is_some() {
            "choose.params.burst"
        } else {
            "choose.params"
        };
        render(&t.or_key(key), |slot| match slot {
            "limit" => Some(FactValue::Count(r.limit).text(lang)),
            "period" => Some(FactValue::Duration(Ms::from_ms(r.period_ms)).text(lang)),
            "burst" => r.burst.map(|b| FactValue::Count(b).text(lang)),
            _ => None,
        })
        .unwrap_or_else(|e| format!("[{key}: {e}]"))
    }
}

/// Every pick of the flowchart, in the order the questions reach them (each once).
pub fn picks() -> Vec<Pick> {
    let mut out: Vec<Pick> = Vec::new();
    for q in QUESTIONS {
        for a in q.answers {
            if let Next::Pick(p) = a.next {
                if !out.iter().any(|o| o.id == p.id) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// Looks a pick up by id.
pub fn pick(id: &str) -> Option<Pick> {
    picks().into_iter().find(|p| p.id == id)
}

/// A way through the flowchart: each question with the answer given (index into
/// its answers), and the pick it ended on.
#[derive(Clone, Debug)]
pub struct Walk {
    /// The questions asked and the answers chosen, in order.
    pub steps: Vec<(&'static Question, usize)>,
    /// Where it ended.
    pub pick: Pick,
}

/// Why a list of answers does not walk the flowchart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WalkError {
    /// Answer `at` (from 0) is not one of its question's choices.
    NotAChoice {
        /// Which answer, from 0.
        at: usize,
        /// The question's id.
        question: &'static str,
        /// How many choices it has.
        choices: usize,
    },
    /// The answers ran out before a pick; `question` is the next one to answer.
    TooFew {
        /// The question left unanswered.
        question: &'static str,
    },
    /// A pick was reached after `used` answers, and more were given.
    TooMany {
        /// How many answers the path took.
        used: usize,
    },
    /// The flowchart names a question it does not have (a test rules it out).
    Broken,
}

impl WalkError {
    /// One line, in English (the command line's error).
    pub fn text(&self) -> String {
        match self {
            WalkError::NotAChoice {
                at,
                question,
                choices,
            } => format!(
                "answer {}: not a choice of question \"{question}\" (expected a to {})",
                at + 1,
                letter(choices.saturating_sub(1))
            ),
            WalkError::TooFew { question } => {
                format!("the answers end before a limiter: question \"{question}\" is next")
            }
            WalkError::TooMany { used } => {
                format!("too many answers: the flowchart ends on a limiter after {used}")
            }
            WalkError::Broken => "the flowchart names a question it does not have".into(),
        }
    }
}

/// `0` → `a`, `1` → `b`, …: how answers are named.
pub fn letter(index: usize) -> char {
    char::from(b'a' + (index % 26) as u8)
}

/// Reads an answer to a question with `choices` answers: a letter (`a`, `B`) or a
/// number from 1, spaces around ignored.
pub fn parse_answer(text: &str, choices: usize) -> Option<usize> {
    let t = text.trim().to_ascii_lowercase();
    let i = match (t.parse::<usize>(), t.as_bytes()) {
        (Ok(n), _) => n.checked_sub(1)?,
        (_, &[b]) => usize::from(b.checked_sub(b'a')?),
        _ => return None,
    };
    (i < choices).then_some(i)
}

/// Walks the flowchart from [`START`] with `answers` (each as [`parse_answer`]
/// reads it). Exactly enough answers to reach a pick are accepted.
pub fn walk<S: AsRef<str>>(answers: &[S]) -> Result<Walk, WalkError> {
    let mut q = question(START).ok_or(WalkError::Broken)?;
    let mut steps = Vec::new();
    let mut given = answers.iter().enumerate();
    loop {
        let Some((at, text)) = given.next() else {
            return Err(WalkError::TooFew { question: q.id });
        };
        let i = parse_answer(text.as_ref(), q.answers.len()).ok_or(WalkError::NotAChoice {
            at,
            question: q.id,
            choices: q.answers.len(),
        })?;
        steps.push((q, i));
        match q.answers.get(i).map(|a| a.next) {
            Some(Next::Ask(next)) => q = question(next).ok_or(WalkError::Broken)?,
            Some(Next::Pick(pick)) => {
                if answers.len() > steps.len() {
                    return Err(WalkError::TooMany { used: steps.len() });
                }
                return Ok(Walk { steps, pick });
            }
            None => return Err(WalkError::Broken),
        }
    }
}

/// Every way through the flowchart, as the letters answered (`["b", "a"]`).
pub fn paths() -> Vec<Vec<String>> {
    fn from(id: &str, before: &[String], out: &mut Vec<Vec<String>>, depth: usize) {
        let Some(q) = question(id) else { return };
        if depth > QUESTIONS.len() {
            return;
        }
        for (i, a) in q.answers.iter().enumerate() {
            let mut path = before.to_vec();
            path.push(letter(i).to_string());
            match a.next {
                Next::Ask(next) => from(next, &path, out, depth + 1),
                Next::Pick(_) => out.push(path),
            }
        }
    }
    let mut out = Vec::new();
    from(START, &[], &mut out, 0);
    out
}

/// The first question.
pub const START: &str = "strict";

/// The flowchart (section 7 of the long article).
pub const QUESTIONS: &[Question] = &[
    Question {
        id: "strict",
        answers: &[
            Answer {
                id: "yes",
                next: Next::Pick(Pick {
                    id: "log",
                    algorithms: &[SlidingLog],
                    lesson: "golden",
                    step: 2,
                }),
            },
            Answer {
                id: "no",
                next: Next::Ask("outgoing"),
            },
        ],
    },
    Question {
        id: "outgoing",
        answers: &[
            Answer {
                id: "yes",
                next: Next::Pick(Pick {
                    id: "queue",
                    algorithms: &[LeakyQueue, Nginx],
                    lesson: "golden",
                    step: 5,
                }),
            },
            Answer {
                id: "no",
                next: Next::Ask("burst"),
            },
        ],
    },
    Question {
        id: "burst",
        answers: &[
            Answer {
                id: "yes",
                next: Next::Pick(Pick {
                    id: "bucket",
                    algorithms: &[Gcra, TokenBucket],
                    lesson: "lab-c",
                    step: 0,
                }),
            },
            Answer {
                id: "no",
                next: Next::Ask("boundary"),
            },
        ],
    },
    Question {
        id: "boundary",
        answers: &[
            Answer {
                id: "yes",
                next: Next::Pick(Pick {
                    id: "fixed",
                    algorithms: &[FixedWindow, FixedWindowAnchored],
                    lesson: "lab-a",
                    step: 0,
                }),
            },
            Answer {
                id: "no",
                next: Next::Pick(Pick {
                    id: "counter",
                    algorithms: &[SlidingWindowCounter],
                    lesson: "lab-e",
                    step: 0,
                }),
            },
        ],
    },
];

/// Looks a question up.
pub fn question(id: &str) -> Option<&'static Question> {
    QUESTIONS.iter().find(|q| q.id == id)
}

/// The decision matrix's rows (texts: `choose.matrix.<row>` and
/// `choose.matrix.<row>.<column>`).
pub const MATRIX_ROWS: &[&str] = &["accuracy", "memory", "redis", "burst", "users"];

/// Its columns, each with the limiters it stands for (texts:
/// `choose.matrix.col.<column>`).
pub const MATRIX_COLUMNS: &[(&str, &[Algorithm])] = &[
    ("fixed", &[FixedWindow, FixedWindowAnchored]),
    ("log", &[SlidingLog]),
    ("counter", &[SlidingWindowCounter]),
    ("bucket", &[TokenBucket, Gcra]),
    ("queue", &[LeakyQueue]),
];

/// A row of a "what fits" table: a goal or a situation, and the picks that fit it
/// (texts: `choose.<table>.<id>` and, for situations, `.why`).
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// Its id.
    pub id: &'static str,
    /// The picks that fit, by id, the first the usual one.
    pub picks: &'static [&'static str],
}

/// The words a face needs around the chooser (texts: `choose.word.<id>`): the
/// prompt, the nudge after an answer that is no choice, the labels of a pick's
/// parameters, its lesson step and the other limiters of the pick, and the note
/// when the answers run out.
pub const WORDS: &[&str] = &[
    "answer",
    "again",
    "params",
    "proved",
    "step",
    "also",
    "unfinished",
];

/// The short article's quick comparison: goal → limiter (texts: `choose.goal.<id>`).
pub const GOALS: &[Fit] = &[
    Fit {
        id: "burst",
        picks: &["bucket"],
    },
    Fit {
        id: "shape",
        picks: &["queue"],
    },
    Fit {
        id: "strict",
        picks: &["log", "counter"],
    },
    Fit {
        id: "quota",
        picks: &["fixed"],
    },
];

/// The demo article's table: situation → limiter, and why (texts:
/// `choose.situation.<id>`, `choose.situation.<id>.why`).
pub const SITUATIONS: &[Fit] = &[
    Fit {
        id: "ceiling",
        picks: &["log"],
    },
    Fit {
        id: "page",
        picks: &["bucket"],
    },
    Fit {
        id: "keys",
        picks: &["fixed"],
    },
    Fit {
        id: "login",
        picks: &["log"],
    },
];

/// A pick as the faces show it: title, why, parameters and the lesson step.
#[derive(Clone, Debug, Serialize)]
pub struct PickOut {
    /// The pick's id.
    pub id: &'static str,
    /// Its title.
    pub title: String,
    /// Why it fits.
    pub why: String,
    /// The limiters, by id, the first the one to use.
    pub algorithms: Vec<&'static str>,
    /// The chosen limiter's lane as the lesson step runs it (the JSON format's lane).
    pub lane: Option<serde_json::Value>,
    /// Its parameters in words.
    pub params: String,
    /// The lesson that proves it.
    pub lesson: &'static str,
    /// Its step, from 1 (as in the link).
    pub step: usize,
    /// The page's query for that step, `lesson=ID&step=N`.
    pub query: String,
}

impl Pick {
    /// Its texts in `lang`, its lane and its link.
    pub fn out(&self, lang: Lang) -> PickOut {
        let t = lang.texts();
        PickOut {
            id: self.id,
            title: t.or_key(&format!("choose.pick.{}.title", self.id)),
            why: t.or_key(&format!("choose.pick.{}.why", self.id)),
            algorithms: self.algorithms.iter().map(|a| a.id()).collect(),
            lane: self.lane().and_then(|l| {
                // The JSON format's own writer: a config of this one lane.
                let config =
                    ratelab_sim::Config::new(ratelab_sim::Stream::default(), vec![l], None);
                let mut v: serde_json::Value = serde_json::from_str(&config.to_json()).ok()?;
                Some(v.get_mut("limiters")?.get_mut(0)?.take())
            }),
            params: self.params_text(lang),
            lesson: self.lesson,
            step: self.step + 1,
            query: self.query(),
        }
    }
}

/// A walk as JSON (`ratelab choose --answers … --json`): `{"answers": [{"question",
/// "answer", "letter"}], "pick": PickOut}`.
pub fn walk_json(walk: &Walk, lang: Lang) -> String {
    #[derive(Serialize)]
    struct Step {
        id: &'static str,
        question: String,
        letter: String,
        answer: String,
    }
    #[derive(Serialize)]
    struct Out {
        answers: Vec<Step>,
        pick: PickOut,
    }
    let t = lang.texts();
    let out = Out {
        answers: walk
            .steps
            .iter()
            .map(|(q, i)| Step {
                id: q.id,
                question: t.or_key(&format!("choose.{}.question", q.id)),
                letter: letter(*i).to_string(),
                answer: q.answers.get(*i).map_or_else(String::new, |a| {
                    t.or_key(&format!("choose.{}.{}", q.id, a.id))
                }),
            })
            .collect(),
        pick: walk.pick.out(lang),
    };
    serde_json::to_string(&out).unwrap_or_default()
}

/// The whole chooser as JSON in `lang` (`ratelab choose --json`): the questions
/// (each answer leading to a question id or a pick id), the picks, the decision
/// matrix (each column with the pick it links to), the goals and situations.
pub fn to_json(lang: Lang) -> String {
    #[derive(Serialize)]
    struct AnswerOut {
        letter: String,
        text: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        ask: Option<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pick: Option<&'static str>,
    }
    #[derive(Serialize)]
    struct QuestionOut {
        id: &'static str,
        question: String,
        answers: Vec<AnswerOut>,
    }
    #[derive(Serialize)]
    struct Column {
        id: &'static str,
        title: String,
        algorithms: Vec<&'static str>,
        pick: Option<&'static str>,
        query: Option<String>,
    }
    #[derive(Serialize)]
    struct Row {
        id: &'static str,
        title: String,
        cells: Vec<String>,
    }
    #[derive(Serialize)]
    struct FitOut {
        id: &'static str,
        text: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        why: Option<String>,
        picks: Vec<&'static str>,
    }
    #[derive(Serialize)]
    struct Out {
        lang: &'static str,
        title: String,
        start: &'static str,
        questions: Vec<QuestionOut>,
        picks: Vec<PickOut>,
        matrix: Matrix,
        goals: Vec<FitOut>,
        situations: Vec<FitOut>,
    }
    #[derive(Serialize)]
    struct Matrix {
        title: String,
        columns: Vec<Column>,
        rows: Vec<Row>,
    }
    let t = lang.texts();
    let fits = |table: &str, rows: &[Fit], why: bool| -> Vec<FitOut> {
        rows.iter()
            .map(|f| FitOut {
                id: f.id,
                text: t.or_key(&format!("choose.{table}.{}", f.id)),
                why: why.then(|| t.or_key(&format!("choose.{table}.{}.why", f.id))),
                picks: f.picks.to_vec(),
            })
            .collect()
    };
    let out = Out {
        lang: lang.id(),
        title: t.or_key("choose.title"),
        start: START,
        questions: QUESTIONS
            .iter()
            .map(|q| QuestionOut {
                id: q.id,
                question: t.or_key(&format!("choose.{}.question", q.id)),
                answers: q
                    .answers
                    .iter()
                    .enumerate()
                    .map(|(i, a)| AnswerOut {
                        letter: letter(i).to_string(),
                        text: t.or_key(&format!("choose.{}.{}", q.id, a.id)),
                        ask: match a.next {
                            Next::Ask(id) => Some(id),
                            Next::Pick(_) => None,
                        },
                        pick: match a.next {
                            Next::Pick(p) => Some(p.id),
                            Next::Ask(_) => None,
                        },
                    })
                    .collect(),
            })
            .collect(),
        picks: picks().iter().map(|p| p.out(lang)).collect(),
        matrix: Matrix {
            title: t.or_key("choose.matrix.title"),
            columns: MATRIX_COLUMNS
                .iter()
                .map(|(id, algorithms)| Column {
                    id,
                    title: t.or_key(&format!("choose.matrix.col.{id}")),
                    algorithms: algorithms.iter().map(|a| a.id()).collect(),
                    pick: pick(id).map(|p| p.id),
                    query: pick(id).map(|p| p.query()),
                })
                .collect(),
            rows: MATRIX_ROWS
                .iter()
                .map(|row| Row {
                    id: row,
                    title: t.or_key(&format!("choose.matrix.{row}")),
                    cells: MATRIX_COLUMNS
                        .iter()
                        .map(|(col, _)| t.or_key(&format!("choose.matrix.{row}.{col}")))
                        .collect(),
                })
                .collect(),
        },
        goals: fits("goal", GOALS, false),
        situations: fits("situation", SITUATIONS, true),
    };
    serde_json::to_string(&out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texts::Lang;

    #[test]
    fn the_flowchart_is_a_tree_of_questions_ending_in_presets() {
        let mut picks = Vec::new();
        let mut seen = Vec::new();
        let mut todo = vec![START];
        while let Some(id) = todo.pop() {
            assert!(!seen.contains(&id), "{id} is reached twice");
            seen.push(id);
            let q = question(id).unwrap_or_else(|| panic!("no question {id}"));
            for a in q.answers {
                match a.next {
                    Next::Ask(next) => todo.push(next),
                    Next::Pick(p) => picks.push(p),
                }
            }
        }
        assert_eq!(seen.len(), QUESTIONS.len(), "every question is reachable");
        assert_eq!(picks.len(), 5);
        for p in &picks {
            let state = p.link().unwrap_or_else(|| panic!("{}: no preset", p.id));
            // The preset shows the chosen limiter.
            assert!(
                state
                    .setup
                    .lanes
                    .iter()
                    .any(|l| l.algorithm == p.algorithms[0]),
                "{}: its preset does not show {}",
                p.id,
                p.algorithms[0].id()
            );
        }
    }

    #[test]
    fn every_word_is_in_both_languages() {
        for lang in Lang::ALL {
            let t = lang.texts();
            let mut keys = vec![
                "choose.title".to_string(),
                "choose.matrix.title".to_string(),
            ];
            for q in QUESTIONS {
                keys.push(format!("choose.{}.question", q.id));
                for a in q.answers {
                    keys.push(format!("choose.{}.{}", q.id, a.id));
                    if let Next::Pick(p) = a.next {
                        keys.push(format!("choose.pick.{}.title", p.id));
                        keys.push(format!("choose.pick.{}.why", p.id));
                    }
                }
            }
            for row in MATRIX_ROWS {
                keys.push(format!("choose.matrix.{row}"));
                for (col, _) in MATRIX_COLUMNS {
                    keys.push(format!("choose.matrix.{row}.{col}"));
                }
            }
            for (col, _) in MATRIX_COLUMNS {
                keys.push(format!("choose.matrix.col.{col}"));
            }
            for g in GOALS {
                keys.push(format!("choose.goal.{}", g.id));
            }
            for s in SITUATIONS {
                keys.push(format!("choose.situation.{}", s.id));
                keys.push(format!("choose.situation.{}.why", s.id));
            }
            for k in WORDS {
                keys.push(format!("choose.word.{k}"));
            }
            keys.push("choose.params".into());
            keys.push("choose.params.burst".into());
            keys.push("choose.goals.title".into());
            keys.push("choose.situations.title".into());
            for k in keys {
                assert!(t.get(&k).is_some(), "{}: no {k}", lang.id());
            }
        }
    }

    #[test]
    fn every_path_ends_on_a_lesson_step_that_exists() {
        let paths = paths();
        assert_eq!(paths.len(), 5, "one path per leaf: {paths:?}");
        for path in &paths {
            let w = walk(path).unwrap_or_else(|e| panic!("{path:?}: {}", e.text()));
            assert_eq!(w.steps.len(), path.len());
            let p = w.pick;
            // The lesson and step are in the catalog, and the query names them as the
            // page's links do (step from 1).
            let l = crate::lesson::lesson(p.lesson)
                .unwrap_or_else(|| panic!("{}: no lesson {}", p.id, p.lesson));
            assert!(
                p.step < l.steps.len(),
                "{}: {} has no step {}",
                p.id,
                p.lesson,
                p.step
            );
            assert_eq!(
                p.query(),
                format!("lesson={}&step={}", p.lesson, p.step + 1)
            );
            // It ends on a limiter with its parameters, as that step runs it.
            let lane = p.lane().unwrap_or_else(|| panic!("{}: no lane", p.id));
            assert_eq!(lane.algorithm, p.algorithms[0]);
            assert!(l.steps[p.step]
                .lanes
                .iter()
                .any(|d| d.spec().algorithm == lane.algorithm
                    && d.limit == lane.resolved().limit
                    && d.period_ms == lane.resolved().period_ms));
            for lang in Lang::ALL {
                let text = p.params_text(lang);
                assert!(!text.contains('['), "{}: {text}", p.id);
                assert!(text.contains(&lane.resolved().limit.to_string()), "{text}");
            }
        }
        // Every pick is reached by some path.
        let reached: Vec<&str> = paths.iter().map(|p| walk(p).unwrap().pick.id).collect();
        for p in picks() {
            assert!(reached.contains(&p.id), "{} is never reached", p.id);
        }
    }

    #[test]
    fn the_golden_parameters_and_a_walk_by_hand() {
        // No, no, yes: incoming traffic with bursts → the bucket, shown by lab C.
        let w = walk(&["b", "2", " A "]).unwrap();
        assert_eq!(w.pick.id, "bucket");
        assert_eq!(w.pick.query(), "lesson=lab-c&step=1");
        assert_eq!(
            w.steps.iter().map(|(q, _)| q.id).collect::<Vec<_>>(),
            ["strict", "outgoing", "burst"]
        );
        // Yes at once: the sliding log of the golden stream, 5 per 10 s.
        let w = walk(&["a"]).unwrap();
        assert_eq!(w.pick.params_text(Lang::En), "5 per 10 s");
        assert_eq!(w.pick.params_text(Lang::Vi), "5 mỗi 10 s");
    }

    #[test]
    fn wrong_answers_are_named() {
        assert_eq!(
            walk(&["c"]).unwrap_err(),
            WalkError::NotAChoice {
                at: 0,
                question: "strict",
                choices: 2
            }
        );
        assert_eq!(
            walk(&["b", "x"]).unwrap_err().text(),
            "answer 2: not a choice of question \"outgoing\" (expected a to b)"
        );
        assert_eq!(
            walk::<&str>(&[]).unwrap_err(),
            WalkError::TooFew { question: "strict" }
        );
        assert_eq!(
            walk(&["b", "b"]).unwrap_err(),
            WalkError::TooFew { question: "burst" }
        );
        assert_eq!(
            walk(&["a", "a"]).unwrap_err(),
            WalkError::TooMany { used: 1 }
        );
        assert_eq!(parse_answer("0", 2), None);
        assert_eq!(parse_answer("ab", 2), None);
        assert_eq!(parse_answer("", 2), None);
    }

    #[test]
    fn the_tables_name_picks_that_exist() {
        for f in GOALS.iter().chain(SITUATIONS) {
            assert!(!f.picks.is_empty());
            for id in f.picks {
                assert!(pick(id).is_some(), "{}: no pick {id}", f.id);
            }
        }
        for (col, algorithms) in MATRIX_COLUMNS {
            let p = pick(col).unwrap_or_else(|| panic!("column {col}: no pick"));
            assert!(p.algorithms.iter().any(|a| algorithms.contains(a)), "{col}");
        }
        for lang in Lang::ALL {
            let v: serde_json::Value = serde_json::from_str(&to_json(lang)).unwrap();
            assert_eq!(v["questions"].as_array().unwrap().len(), QUESTIONS.len());
            assert_eq!(v["picks"].as_array().unwrap().len(), 5);
            assert!(
                !to_json(lang).contains("[choose."),
                "{}: a missing text",
                lang.id()
            );
            let w = walk_json(&walk(&["b", "b", "b", "b"]).unwrap(), lang);
            assert!(!w.contains("[choose."), "{w}");
        }
    }
}

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

use crate::lesson::lesson;
use ratelab_sim::share::Link;

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
            for k in keys {
                assert!(t.get(&k).is_some(), "{}: no {k}", lang.id());
            }
        }
    }
}

//! The flowchart: its questions, their answers, and the picks they lead to.

use ratelab_core::Algorithm::{self, *};
use ratelab_core::Ms;

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

#[cfg(test)]
mod tests {
    use crate::chooser::*;

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
}

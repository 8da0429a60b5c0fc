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
//!
//! Inside: `flowchart.rs` (the questions and picks), `walk.rs` (a way through it
//! from the answers given), `matrix.rs` (the decision matrix and the "what fits"
//! tables), `json.rs` (all of it as JSON for the faces).

mod flowchart;
mod json;
mod matrix;
mod walk;

pub use flowchart::{pick, picks, question, Answer, Next, Pick, Question, QUESTIONS, START};
pub use json::{to_json, walk_json, PickOut};
pub use matrix::{Fit, GOALS, MATRIX_COLUMNS, MATRIX_ROWS, SITUATIONS, WORDS};
pub use walk::{letter, parse_answer, paths, walk, Walk, WalkError};

#[cfg(test)]
mod tests {
    use crate::chooser::*;
    use crate::texts::Lang;

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
}

//! A walk through the flowchart from the answers given, and every way through it.

use super::{question, Next, Pick, Question, QUESTIONS, START};

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

#[cfg(test)]
mod tests {
    use crate::chooser::*;
    use crate::texts::Lang;

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
}

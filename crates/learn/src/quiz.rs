//! The demo article's four check questions, each answered by running the engine.
//!
//! A question's choices are fixed words; which choice is right, and every number in
//! the answer, come from a run: the fixed window's count in question 1 is what the
//! engine's fixed window passes, question 2's right answer is the limiter whose most
//! in any 60 s stays at the limit, and so on.
//!
//! ```
//! use ratelab_learn::quiz::quiz;
//! use ratelab_learn::texts::Lang;
//!
//! let q = quiz(Lang::En).unwrap();
//! assert_eq!(q[0].choices[q[0].correct], "10");
//! assert!(q[0].answer.contains("10"));
//! ```

use ratelab_core::{Algorithm, Limiter};
use serde::Serialize;

use crate::lesson::FactValue;
use crate::texts::{render, Lang, Texts};
use ratelab_sim::run;
use ratelab_sim::scenario::lab_e;
use ratelab_sim::SimError;
use ratelab_sim::{Config, LaneSpec};
use ratelab_sim::{Request, Stream};

/// A question with its choices and the engine's answer.
#[derive(Clone, Debug, Serialize)]
pub struct Question {
    /// `q1` … `q4`.
    pub id: &'static str,
    /// The question.
    pub question: String,
    /// The choices, in order.
    pub choices: Vec<String>,
    /// Which choice is right (index into `choices`).
    pub correct: usize,
    /// The answer, with the numbers of the run.
    pub answer: String,
    /// Those numbers, by name.
    pub facts: Vec<(&'static str, String)>,
}

fn fill(texts: &Texts, key: &str, facts: &[(&'static str, String)]) -> Result<String, SimError> {
    let template = texts.or_key(key);
    render(&template, |name| {
        facts
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
    })
    .map_err(|e| SimError::at(key, e))
}

fn count(n: u64, lang: Lang) -> String {
    FactValue::Count(n).text(lang)
}

/// Builds one question from its key, its choices (text keys or literal numbers)
/// and the facts of its run.
fn question(
    texts: &Texts,
    id: &'static str,
    choices: Vec<String>,
    correct: usize,
    facts: Vec<(&'static str, String)>,
) -> Result<Question, SimError> {
    Ok(Question {
        id,
        question: fill(texts, &format!("quiz.{id}.question"), &facts)?,
        choices,
        correct,
        answer: fill(texts, &format!("quiz.{id}.answer"), &facts)?,
        facts,
    })
}

/// The four questions, answered, in the built-in texts of `lang`.
pub fn quiz(lang: Lang) -> Result<Vec<Question>, SimError> {
    quiz_in(lang.texts(), lang)
}

/// [`quiz`] with texts loaded elsewhere.
pub fn quiz_in(t: &Texts, lang: Lang) -> Result<Vec<Question>, SimError> {
    let mut out = Vec::with_capacity(4);

    // 1. Five requests at 9 s and five at 11 s against a fixed window of 5 per 10 s.
    let times = [9_000; 5].into_iter().chain([11_000; 5]);
    let stream = Stream::from_times(times);
    let fw = LaneSpec::simple(Algorithm::FixedWindow, 5, 10_000);
    let r = run(&Config::new(stream, vec![fw], None))?;
    let passed = r.results.first().map_or(0, |l| l.yardstick.passed);
    let options = [5u64, 6, 10];
    let correct = options
        .iter()
        .position(|&o| o == passed)
        .ok_or_else(|| SimError::at("quiz.q1", "no choice matches the engine"))?;
    out.push(question(
        t,
        "q1",
        options.iter().map(|&o| count(o, lang)).collect(),
        correct,
        vec![
            ("passed", count(passed, lang)),
            ("limit", count(5, lang)),
            (
                "in_2s",
                count(
                    r.results.first().map_or(0, |l| l.yardstick.max_in_window),
                    lang,
                ),
            ),
        ],
    )?);

    // 2. "Never more than 100 in any 60 s": run lab E's worst case through each.
    let choices = [
        Algorithm::FixedWindow,
        Algorithm::SlidingLog,
        Algorithm::TokenBucket,
        Algorithm::SlidingWindowCounter,
    ];
    let lanes: Vec<LaneSpec> = choices
        .iter()
        .map(|&a| LaneSpec::simple(a, 100, 60_000))
        .collect();
    let r = run(&Config::new(lab_e(), lanes, None))?;
    let maxima: Vec<u64> = r
        .results
        .iter()
        .map(|l| l.yardstick.max_in_window)
        .collect();
    let keeps: Vec<usize> = (0..maxima.len()).filter(|&i| maxima[i] <= 100).collect();
    let [correct] = keeps[..] else {
        return Err(SimError::at(
            "quiz.q2",
            "expected exactly one limiter to keep the limit",
        ));
    };
    let m = |i: usize| count(maxima.get(i).copied().unwrap_or(0), lang);
    out.push(question(
        t,
        "q2",
        choices
            .iter()
            .map(|a| t.or_key(&format!("quiz.algorithm.{}", a.id())))
            .collect(),
        correct,
        vec![("fw", m(0)), ("sl", m(1)), ("tb", m(2)), ("swc", m(3))],
    )?);

    // 3. An office behind one address: alice sends eight, bob and carol one each,
    // after her first six.
    let people = [
        "alice", "alice", "alice", "alice", "alice", "alice", "bob", "alice", "carol", "alice",
    ];
    let by_user = keyed_stream(&people, |p| p);
    let by_ip = keyed_stream(&people, |_| "203.0.113.7");
    let lane = || vec![LaneSpec::simple(Algorithm::SlidingLog, 5, 10_000)];
    let quiet = |s: &Stream, allowed: &[bool]| {
        s.requests
            .iter()
            .zip(allowed)
            .zip(&people)
            .filter(|((_, &ok), p)| ok && **p != "alice")
            .count() as u64
    };
    let ru = run(&Config::new(by_user.clone(), lane(), None))?;
    let ri = run(&Config::new(by_ip.clone(), lane(), None))?;
    let (qu, qi) = (
        quiet(&by_user, ru.results.first().map_or(&[][..], |l| &l.allowed)),
        quiet(&by_ip, ri.results.first().map_or(&[][..], |l| &l.allowed)),
    );
    out.push(question(
        t,
        "q3",
        ["quiz.q3.a", "quiz.q3.b", "quiz.q3.c"]
            .iter()
            .map(|k| t.or_key(k))
            .collect(),
        0,
        vec![
            ("quiet", count(2, lang)),
            ("by_user", count(qu, lang)),
            ("by_ip", count(qi, lang)),
        ],
    )?);

    // 4. What a refused request should say: the sliding log at 9.8 s of the golden
    // stream, as a server would send it.
    let mut log = LaneSpec::simple(Algorithm::SlidingLog, 5, 10_000)
        .build()
        .map_err(|e| SimError::param("", &e))?;
    for t in [2_000, 7_000, 8_000, 9_000, 9_500] {
        log.check(t, 1).map_err(|e| SimError::at("quiz.q4", e))?;
    }
    let h = log.headers(9_800).map_err(|e| SimError::at("quiz.q4", e))?;
    out.push(question(
        t,
        "q4",
        ["quiz.q4.a", "quiz.q4.b", "quiz.q4.c"]
            .iter()
            .map(|k| t.or_key(k))
            .collect(),
        0,
        vec![
            ("status", h.status_line().to_string()),
            (
                "retry",
                h.retry_after.map_or("–".to_string(), |s| s.to_string()),
            ),
            ("policy", h.policy.clone()),
            ("ratelimit", h.ratelimit.clone()),
        ],
    )?);
    Ok(out)
}

/// The questions as JSON: `[{"id", "question", "choices", "correct", "answer",
/// "facts": [[name, text], ...]}, ...]`.
pub fn to_json(questions: &[Question]) -> String {
    serde_json::to_string(questions).unwrap_or_default()
}

/// One request a second from `people`, keyed by `key(person)`.
fn keyed_stream(people: &[&'static str], key: impl Fn(&'static str) -> &'static str) -> Stream {
    let mut s = Stream::new();
    s.keys.clear();
    for (i, &p) in people.iter().enumerate() {
        let name = key(p);
        let k = match s.keys.iter().position(|n| n == name) {
            Some(k) => k,
            None => {
                s.keys.push(name.to_string());
                s.keys.len() - 1
            }
        };
        s.requests.push(Request::keyed(200 * i as u64, k as u32));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engine_answers_each_question() {
        for lang in Lang::ALL {
            let q = quiz(lang).unwrap();
            assert_eq!(q.len(), 4);
            assert_eq!(q[0].choices[q[0].correct], "10");
            // Only the sliding log keeps "never more than 100 in any 60 s".
            assert_eq!(q[1].correct, 1);
            for question in &q {
                assert!(!question.answer.contains('['), "{}", question.answer);
                assert!(!question.question.contains('['), "{}", question.question);
            }
        }
        let q = quiz(Lang::En).unwrap();
        let fact = |i: usize, n: &str| {
            q[i].facts
                .iter()
                .find(|(k, _)| *k == n)
                .map(|(_, v)| v.clone())
                .unwrap()
        };
        assert_eq!(
            (fact(2, "by_user"), fact(2, "by_ip")),
            ("2".into(), "0".into())
        );
        assert_eq!(fact(3, "retry"), "3");
        assert_eq!(fact(1, "sl"), "100");
        assert_eq!(fact(1, "tb"), "199");
    }
}

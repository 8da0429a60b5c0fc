//! The demo article's four check questions, each answered by running the engine.
//!
//! A question's choices are fixed words; which choice is right, and every number in
//! the answer, come from a run: the fixed window's count in question 1 is what the
//! engine's fixed window passes, question 2's right answer is the limiter whose most
//! in any 60 s stays at the limit, and so on.
//!
//! Each wrong choice has its own explanation (`why_not`), filled with numbers of
//! the same runs, and each question names where the page shows its run (`show`):
//! the page's link to a setup of the very lanes and stream the answer ran, its
//! moment and the request to read.
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
use ratelab_sim::scenario::{lab_e, ScenarioId, GOLDEN_TIMES};
use ratelab_sim::share::{normalise_ids, Link, Setup, View};
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
    /// Why each choice is wrong, in the order of `choices`: `None` for the right
    /// one, else its explanation with the numbers of the run.
    pub why_not: Vec<Option<String>>,
    /// Where the page shows the run that answers it (one or more setups).
    pub show: Vec<Show>,
}

/// A run the page can show: its label, and the page's link to it.
#[derive(Clone, Debug, Serialize)]
pub struct Show {
    /// The button's words.
    pub label: String,
    /// The page's link, without `?`: the setup, the moment to play to, the request
    /// to read ([`Link::to_query`]).
    pub query: String,
    /// The same link, as the page opens it.
    #[serde(skip)]
    pub link: Link,
}

impl Show {
    fn new(t: &Texts, label: &str, setup: Setup, t_ms: u64, selected: Option<usize>) -> Show {
        let link = Link {
            setup,
            view: View {
                t_ms,
                selected: selected.map(|s| s as u64),
                ..View::default()
            },
        };
        Show {
            label: t.or_key(label),
            query: link.to_query(),
            link,
        }
    }
}

/// The setup of `scenario` with `lanes` (labels made unique) and, for `custom`,
/// `requests`.
fn setup(scenario: ScenarioId, mut lanes: Vec<LaneSpec>, requests: Option<Stream>) -> Setup {
    let mut s = Setup::for_scenario(scenario);
    normalise_ids(&mut lanes);
    s.lanes = lanes;
    if let Some(r) = requests {
        s.requests = r;
    }
    s
}

/// The letter of choice `i` (`a`, `b`, …), as the texts' keys name it.
fn letter(i: usize) -> char {
    char::from(b'a' + (i % 26) as u8)
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

/// Builds one question from its key, its choices (text keys or literal numbers),
/// the facts of its run and where the page shows it. A wrong choice's explanation
/// is `quiz.<id>.wrong.<letter>`.
fn question(
    texts: &Texts,
    id: &'static str,
    choices: Vec<String>,
    correct: usize,
    facts: Vec<(&'static str, String)>,
    show: Vec<Show>,
) -> Result<Question, SimError> {
    let why_not = (0..choices.len())
        .map(|i| {
            (i != correct)
                .then(|| fill(texts, &format!("quiz.{id}.wrong.{}", letter(i)), &facts))
                .transpose()
        })
        .collect::<Result<_, _>>()?;
    Ok(Question {
        id,
        question: fill(texts, &format!("quiz.{id}.question"), &facts)?,
        choices,
        correct,
        answer: fill(texts, &format!("quiz.{id}.answer"), &facts)?,
        facts,
        why_not,
        show,
    })
}

/// The four questions, answered, in the built-in texts of `lang`.
pub fn quiz(lang: Lang) -> Result<Vec<Question>, SimError> {
    quiz_in(lang.texts(), lang)
}

/// [`quiz`] with texts loaded elsewhere.
pub fn quiz_in(t: &Texts, lang: Lang) -> Result<Vec<Question>, SimError> {
    let mut out = Vec::with_capacity(4);

    // 1. Five requests at 9 s and five at 11 s against a fixed window of 5 per 10 s;
    // beside it the sliding log and the token bucket, which the wrong choices are.
    let times = [9_000; 5].into_iter().chain([11_000; 5]);
    let stream = Stream::from_times(times);
    let lanes: Vec<LaneSpec> = [
        Algorithm::FixedWindow,
        Algorithm::SlidingLog,
        Algorithm::TokenBucket,
    ]
    .iter()
    .map(|&a| LaneSpec::simple(a, 5, 10_000))
    .collect();
    let r = run(&Config::new(stream.clone(), lanes.clone(), None))?;
    let passed_in = |j: usize| r.results.get(j).map_or(0, |l| l.yardstick.passed);
    let passed = passed_in(0);
    // The fixed window's passes in each of its windows, 0–10 s and 10–20 s.
    let by_window = |first: bool| {
        r.results.first().map_or(0, |l| {
            stream
                .requests
                .iter()
                .zip(&l.allowed)
                .filter(|(q, &ok)| ok && (q.t < 10_000) == first)
                .count() as u64
        })
    };
    let last = stream.requests.len().saturating_sub(1);
    let last_t = stream.requests.last().map_or(0, |q| q.t);
    let q1_show = vec![Show::new(
        t,
        "quiz.word.show",
        setup(ScenarioId::Custom, lanes, Some(stream.clone())),
        last_t,
        Some(last),
    )];
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
            ("sl", count(passed_in(1), lang)),
            ("tb", count(passed_in(2), lang)),
            ("refilled", count(passed_in(2).saturating_sub(5), lang)),
            ("first", count(by_window(true), lang)),
            ("second", count(by_window(false), lang)),
        ],
        q1_show,
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
    let r = run(&Config::new(lab_e(), lanes.clone(), None))?;
    let end = lab_e().requests.last().map_or(0, |q| q.t);
    let q2_show = vec![Show::new(
        t,
        "quiz.word.show",
        setup(ScenarioId::LabE, lanes, None),
        end,
        None,
    )];
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
        vec![
            ("fw", m(0)),
            ("sl", m(1)),
            ("tb", m(2)),
            ("swc", m(3)),
            ("limit", count(100, lang)),
        ],
        q2_show,
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
    // Where the page shows it: each stream with the sliding log, at the last
    // request, bob's request selected.
    let bob = people.iter().position(|&p| p == "bob");
    let q3_show = [("quiz.q3.show.user", &by_user), ("quiz.q3.show.ip", &by_ip)]
        .into_iter()
        .map(|(label, s)| {
            let last_t = s.requests.last().map_or(0, |q| q.t);
            Show::new(
                t,
                label,
                setup(ScenarioId::Custom, lane(), Some(s.clone())),
                last_t,
                bob,
            )
        })
        .collect();
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
        q3_show,
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
    let refused = GOLDEN_TIMES.iter().position(|&t| t == 9_800);
    let q4_show = vec![Show::new(
        t,
        "quiz.word.show",
        setup(
            ScenarioId::Golden,
            vec![LaneSpec::simple(Algorithm::SlidingLog, 5, 10_000)],
            None,
        ),
        9_800,
        refused,
    )];
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
        q4_show,
    )?);
    Ok(out)
}

/// The questions as JSON: `[{"id", "question", "choices", "correct", "answer",
/// "facts": [[name, text], ...], "why_not": [text or null, ...], "show": [{"label",
/// "query"}, ...]}, ...]`.
pub fn to_json(questions: &[Question]) -> String {
    serde_json::to_string(questions).unwrap_or_default()
}

/// One request a second from `people`, keyed by `key(person)`.
fn keyed_stream(people: &[&'static str], key: impl Fn(&'static str) -> &'static str) -> Stream {
    let mut s = Stream::new();
    // Key 0 stays the unnamed key, as a link reads the stream back.
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

    fn fact(q: &Question, name: &str) -> String {
        q.facts
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("{}: no fact {name}", q.id))
    }

    #[test]
    fn every_wrong_choice_explains_itself_with_the_runs_numbers() {
        for lang in Lang::ALL {
            for q in quiz(lang).unwrap() {
                assert_eq!(q.why_not.len(), q.choices.len(), "{}", q.id);
                for (i, why) in q.why_not.iter().enumerate() {
                    match why {
                        None => assert_eq!(i, q.correct, "{}: choice {i} unexplained", q.id),
                        Some(w) => {
                            assert_ne!(i, q.correct, "{}", q.id);
                            assert!(!w.is_empty() && !w.contains(['{', '[']), "{}: {w}", q.id);
                        }
                    }
                }
            }
        }
        let q = quiz(Lang::En).unwrap();
        // Question 1's wrong choices are what the sliding log and the token bucket
        // pass on the same stream, and the explanations say so.
        assert_eq!(
            (fact(&q[0], "sl"), fact(&q[0], "tb")),
            ("5".into(), "6".into())
        );
        assert_eq!(q[0].choices[0], fact(&q[0], "sl"));
        assert_eq!(q[0].choices[1], fact(&q[0], "tb"));
        assert_eq!(
            (
                fact(&q[0], "first"),
                fact(&q[0], "second"),
                fact(&q[0], "refilled")
            ),
            ("5".into(), "5".into(), "1".into())
        );
        let why = |i: usize, c: usize| q[i].why_not[c].clone().unwrap();
        assert!(
            why(0, 1).contains("6, the 5 of its full bucket and 1 refilled"),
            "{}",
            why(0, 1)
        );
        // Question 2: each wrong limiter's most in any 60 s, over the promise.
        for (c, name) in [(0, "fw"), (2, "tb"), (3, "swc")] {
            let n: u64 = fact(&q[1], name).parse().unwrap();
            assert!(n > 100, "{name}: {n}");
            assert!(
                why(1, c).contains(&format!("let {n} through")),
                "{}",
                why(1, c)
            );
        }
    }

    /// Each question's run, opened from its link as the page opens it, gives the
    /// answer's numbers; the link reads back as written.
    #[test]
    fn each_show_link_runs_the_answer() {
        use ratelab_sim::share::parse;
        for lang in Lang::ALL {
            for q in quiz(lang).unwrap() {
                assert!(!q.show.is_empty(), "{}", q.id);
                for s in &q.show {
                    let (link, notices) = parse(&s.query);
                    assert!(notices.is_empty(), "{}: {:?}", s.query, notices);
                    assert_eq!(link.setup, s.link.setup, "{}", s.query);
                    assert_eq!(link.view.t_ms, s.link.view.t_ms, "{}", s.query);
                    assert_eq!(link.view.selected, s.link.view.selected, "{}", s.query);
                    assert!(!s.label.is_empty() && !s.label.starts_with("quiz."));
                }
            }
        }
        let q = quiz(Lang::En).unwrap();
        let run_of = |s: &Show| run(&s.link.setup.to_config().unwrap()).unwrap();
        let last = |s: &Show| {
            s.link
                .setup
                .to_config()
                .unwrap()
                .stream
                .requests
                .last()
                .unwrap()
                .t
        };
        // 1: the fixed window, the sliding log and the token bucket pass the three
        // choices.
        let r = run_of(&q[0].show[0]);
        let passed: Vec<String> = r
            .results
            .iter()
            .map(|l| l.yardstick.passed.to_string())
            .collect();
        assert_eq!(
            passed,
            [fact(&q[0], "passed"), fact(&q[0], "sl"), fact(&q[0], "tb")]
        );
        assert_eq!(q[0].show[0].link.view.t_ms, last(&q[0].show[0]));
        // 2: lab E, each lane's most in any 60 s.
        let r = run_of(&q[1].show[0]);
        let most: Vec<String> = r
            .results
            .iter()
            .map(|l| l.yardstick.max_in_window.to_string())
            .collect();
        assert_eq!(
            most,
            [
                fact(&q[1], "fw"),
                fact(&q[1], "sl"),
                fact(&q[1], "tb"),
                fact(&q[1], "swc")
            ]
        );
        assert_eq!(q[1].show[0].link.view.t_ms, last(&q[1].show[0]));
        // 3: bob's request (selected) passes counted per user, not per address.
        let bob = |s: &Show| {
            let i = s.link.view.selected.unwrap() as usize;
            let c = s.link.setup.to_config().unwrap();
            assert_eq!(
                c.stream.key_name(c.stream.requests[i].key),
                Some(if s.label.contains("user") {
                    "bob"
                } else {
                    "203.0.113.7"
                })
            );
            run_of(s).results[0].allowed[i]
        };
        assert!(bob(&q[2].show[0]));
        assert!(!bob(&q[2].show[1]));
        // 4: the golden stream's request at 9.8 s, selected, refused by the log.
        let s = &q[3].show[0];
        let i = s.link.view.selected.unwrap() as usize;
        let c = s.link.setup.to_config().unwrap();
        assert_eq!((c.stream.requests[i].t, s.link.view.t_ms), (9_800, 9_800));
        assert!(!run_of(s).results[0].allowed[i]);
    }
}

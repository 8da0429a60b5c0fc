//! The lesson the page has open, as plain Rust: which lesson and step, how a link
//! names it (`?lesson=edge&step=2`), and how fast it plays to its moment. The
//! lessons themselves (setups, texts, the facts the engine computes) are
//! [`ratelab_learn::lesson`]; the panel that shows them is [`crate::view::learn`].
//!
//! Choices the issue leaves open:
//! - `step` in a link counts from 1, as a person counts (the texts' keys count
//!   from 0); it is left out for the first step.
//! - A link with `lesson=` and no `scenario=` opens the lesson's own setup and plays
//!   to its moment; a link with both (what the page itself writes) opens exactly
//!   the setup and view it names, with the lesson's panel beside it.
//! - The page's bare address (or one naming only `lang=`) opens the first lesson,
//!   playing to its moment: a newcomer starts on something that moves and says
//!   what to watch. Any other link opens what it names, as before.
//! - An unknown or hostile `lesson=`, or a `step=` out of range, is a one-line
//!   notice like every other link field's, and the rest of the link still opens.

use ratelab_learn::lesson::{lesson, lesson_ids, Lesson, Step, LESSONS};
use ratelab_sim::share::{decode, pairs, parse_count, shorten, Notice, SPEEDS_PERMILLE};

/// A lesson play that would take longer than this at the fastest speed jumps to
/// its moment instead (lab D's ten minutes, labs B and E's three).
const PLAY_WITHIN_MS: u64 = 7_000;

/// An open lesson step. Made only from a lesson that exists and a step it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenLesson {
    /// The lesson's id.
    pub id: &'static str,
    /// The step, from 0.
    pub step: usize,
}

impl OpenLesson {
    /// Step `step` of lesson `id`, if both exist.
    pub fn new(id: &str, step: usize) -> Option<OpenLesson> {
        let l = lesson(id)?;
        (step < l.steps.len()).then_some(OpenLesson { id: l.id, step })
    }

    /// The first step of the first lesson.
    pub fn first() -> Option<OpenLesson> {
        LESSONS.first().and_then(|l| OpenLesson::new(l.id, 0))
    }

    /// The lesson.
    pub fn lesson(&self) -> Option<&'static Lesson> {
        lesson(self.id)
    }

    /// The step's definition.
    pub fn def(&self) -> Option<&'static Step> {
        self.lesson().and_then(|l| l.steps.get(self.step))
    }

    /// How many steps the lesson has.
    pub fn steps(&self) -> usize {
        self.lesson().map_or(0, |l| l.steps.len())
    }

    /// The step after this one: the lesson's next, else the next lesson's first.
    pub fn next(&self) -> Option<OpenLesson> {
        if self.step + 1 < self.steps() {
            return OpenLesson::new(self.id, self.step + 1);
        }
        let i = LESSONS.iter().position(|l| l.id == self.id)?;
        LESSONS.get(i + 1).and_then(|l| OpenLesson::new(l.id, 0))
    }

    /// The step before this one: the lesson's previous, else the previous lesson's
    /// last.
    pub fn prev(&self) -> Option<OpenLesson> {
        if self.step > 0 {
            return OpenLesson::new(self.id, self.step - 1);
        }
        let i = LESSONS.iter().position(|l| l.id == self.id)?;
        let l = LESSONS.get(i.checked_sub(1)?)?;
        OpenLesson::new(l.id, l.steps.len().checked_sub(1)?)
    }

    /// Its place on the guided path, counting every step of every lesson from 0.
    /// The panel's memos hold this number rather than an `OpenLesson`: a memo of a
    /// type the page already has adds no code to the bundle.
    pub fn index(&self) -> u64 {
        let before: usize = LESSONS
            .iter()
            .take_while(|l| l.id != self.id)
            .map(|l| l.steps.len())
            .sum();
        (before + self.step) as u64
    }

    /// The step at place `index` on the guided path ([`OpenLesson::index`]).
    pub fn at(index: u64) -> Option<OpenLesson> {
        let mut left = usize::try_from(index).ok()?;
        for l in LESSONS {
            if left < l.steps.len() {
                return OpenLesson::new(l.id, left);
            }
            left -= l.steps.len();
        }
        None
    }

    /// Its name on the panel's buttons (`data-go="edge.1"`, step from 0): one
    /// click handler on the panel reads it ([`Go::parse`]).
    pub fn key(&self) -> String {
        format!("{}.{}", self.id, self.step)
    }

    /// The link's part for it: `lesson=edge` or `lesson=edge&step=2`.
    pub fn to_query(&self) -> String {
        if self.step == 0 {
            format!("lesson={}", self.id)
        } else {
            format!("lesson={}&step={}", self.id, self.step + 1)
        }
    }
}

/// Where a panel button goes: a lesson step, or closing the lesson. The panel has
/// one click handler for all its buttons (each names its target in `data-go`),
/// rather than one closure per button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Go {
    /// Open this step.
    Open(OpenLesson),
    /// Close the lesson.
    Close,
}

impl Go {
    /// The value of a button's `data-go`: `close`, or [`OpenLesson::key`]. Anything
    /// else (a step that does not exist) is `None`.
    pub fn parse(s: &str) -> Option<Go> {
        if s == "close" {
            return Some(Go::Close);
        }
        let (id, step) = s.rsplit_once('.')?;
        OpenLesson::new(id, step.parse().ok()?).map(Go::Open)
    }
}

/// What a link says about lessons.
#[derive(Debug, Default)]
pub struct LessonLink {
    /// The lesson step it names, if a valid one.
    pub open: Option<OpenLesson>,
    /// Whether the page should open the step's own setup and play to its moment
    /// (the link named a lesson but no scenario).
    pub play: bool,
    /// The link's other pairs, for [`ratelab_sim::share::parse_pairs`].
    pub rest: Vec<(String, String)>,
    /// What could not be used.
    pub notices: Vec<Notice>,
}

/// Takes `lesson` and `step` out of a query string (the last of each wins, as for
/// every other key).
pub fn from_query(query: &str) -> LessonLink {
    let mut out = LessonLink::default();
    let (mut id, mut step) = (None, None);
    for (k, v) in pairs(query) {
        match k.as_str() {
            "lesson" => id = Some(v),
            "step" => step = Some(v),
            _ => out.rest.push((k, v)),
        }
    }
    let note = |key: &str, raw: &str, reason: String| Notice {
        key: key.to_string(),
        value: shorten(&decode(raw)),
        reason,
    };
    let found = id.as_deref().and_then(|raw| {
        let l = lesson(decode(raw).trim());
        if l.is_none() {
            out.notices.push(note(
                "lesson",
                raw,
                format!("unknown lesson (expected one of {}); ignored", lesson_ids()),
            ));
        }
        l
    });
    let index = match (found, step.as_deref()) {
        (_, None) => 0,
        (None, Some(raw)) => {
            out.notices
                .push(note("step", raw, "only with a lesson; ignored".to_string()));
            0
        }
        (Some(l), Some(raw)) => {
            let n = l.steps.len();
            match parse_count(decode(raw).trim(), n as u64) {
                Ok(s) if s >= 1 => s as usize - 1,
                _ => {
                    out.notices.push(note(
                        "step",
                        raw,
                        format!("lesson {} has steps 1 to {n}; showing step 1", l.id),
                    ));
                    0
                }
            }
        }
    };
    out.open = found.and_then(|l| OpenLesson::new(l.id, index));
    out.play = out.open.is_some() && !out.rest.iter().any(|(k, _)| k == "scenario");
    // A link that names nothing but the language (the page's own address, as a
    // newcomer opens it) opens the first lesson, playing to its moment.
    if id.is_none() && step.is_none() && out.rest.iter().all(|(k, _)| k == "lang") {
        out.open = OpenLesson::first();
        out.play = out.open.is_some();
    }
    out
}

/// The speed at which playing from 0 to `to_ms` takes a few seconds (the slowest
/// such, from 1×), or `None` if even the fastest would take too long: then the
/// page jumps to the moment.
pub fn speed_for(to_ms: u64) -> Option<u32> {
    SPEEDS_PERMILLE
        .into_iter()
        .filter(|&s| s >= 1000)
        .find(|&s| to_ms.saturating_mul(1000) / u64::from(s) <= PLAY_WITHIN_MS)
}

/// The zoom level a step opens at on `sim` (its own setup's run): 1×, or, for a
/// step about the whole run, the closest level that shows all of it.
pub fn zoom_for(step: &Step, sim: &crate::model::Sim) -> u32 {
    if step.whole_run {
        sim.whole_run_zoom()
    } else {
        crate::model::ONE_X
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At a step's moment, what it talks about is on screen: the lanes' span at
    /// the zoom it opens at holds the moment, every request and moment its facts
    /// name, its selected request, and, when it states a count over the stream
    /// (passed, blocked, most in a window, a wait, a histogram), the run from its
    /// first request on.
    #[test]
    fn every_step_frames_what_it_talks_about() {
        use ratelab_learn::lesson::{Query, LESSONS};
        let mut off = Vec::new();
        for l in LESSONS {
            for (i, s) in l.steps.iter().enumerate() {
                let sim = crate::model::Sim::new(&s.link().setup).unwrap();
                let (from, to) = sim.zoomed_span(s.play_to_ms, zoom_for(s, &sim));
                let t_of = |r: usize| sim.request(r as u64).map(|r| r.t);
                let first = t_of(0).unwrap_or(0);
                let mut named = vec![("the moment".to_string(), s.play_to_ms)];
                named.extend(
                    s.select
                        .and_then(t_of)
                        .map(|t| ("the selected request".into(), t)),
                );
                for f in s.facts {
                    match f.query {
                        Query::Arrival(r) => {
                            named.extend(t_of(r).map(|t| (format!("{{{}}}", f.name), t)))
                        }
                        Query::Clock(t) => named.push((format!("{{{}}}", f.name), t)),
                        Query::Passed(_)
                        | Query::Blocked(_)
                        | Query::PassedMinus(..)
                        | Query::Requests
                        | Query::MaxInWindow(_)
                        | Query::MaxIn1s(_)
                        | Query::LongestWait(_)
                        | Query::Histogram(..) => named.push((
                            format!("{{{}}} (counted from the first request)", f.name),
                            first,
                        )),
                        _ => {}
                    }
                }
                // A step about the whole run plays to its end: no stretch of the
                // lanes is still ahead of the clock but the run's closing margin
                // (labs B and E once stopped at 180 s of 242).
                let margin = (sim.period() / 20).max(500);
                if s.whole_run && to.saturating_sub(s.play_to_ms) > margin {
                    off.push(format!(
                        "{} step {i}: the lanes show {from}–{to} ms, {} ms of it after the clock at {} ms",
                        l.id,
                        to - s.play_to_ms,
                        s.play_to_ms
                    ));
                }
                for (what, t) in named {
                    if !(from..=to).contains(&t) {
                        off.push(format!(
                            "{} step {i}: {what} at {t} ms, the lanes show {from}–{to} ms",
                            l.id
                        ));
                    }
                }
            }
        }
        assert!(off.is_empty(), "off screen at the step's moment: {off:#?}");
    }

    #[test]
    fn links_name_a_lesson_and_a_step() {
        let l = from_query("lesson=golden&step=3");
        assert_eq!(l.open, OpenLesson::new("golden", 2));
        assert!(l.play && l.notices.is_empty() && l.rest.is_empty());
        assert_eq!(
            l.open.map(|o| o.to_query()).as_deref(),
            Some("lesson=golden&step=3")
        );
        for bare in ["", "lang=vi"] {
            let l = from_query(bare);
            assert_eq!((l.open, l.play), (OpenLesson::first(), true), "{bare}");
        }
        for named in ["t=2s", "scenario=golden", "speed=16&lang=en"] {
            assert_eq!(from_query(named).open, None, "{named}");
        }
        let l = from_query("scenario=golden&lesson=edge&lang=vi");
        assert_eq!(l.open, OpenLesson::new("edge", 0));
        assert!(!l.play);
        assert_eq!(l.rest.len(), 2);
    }

    #[test]
    fn bad_lessons_and_steps_are_one_line_notices() {
        let l = from_query("lesson=%3Cscript%3Ealert(1)%3C%2Fscript%3E&t=1s");
        assert_eq!(l.open, None);
        assert!(!l.play);
        let n = l
            .notices
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>();
        assert_eq!(n.len(), 1);
        assert!(
            n[0].starts_with(
                "lesson=<script>alert(1)</script>: unknown lesson (expected one of edge, "
            ),
            "{n:?}"
        );
        assert!(!n[0].contains('\n'));
        for step in ["0", "9", "-1", "x", "1e3", "99999999999999999999999"] {
            let l = from_query(&format!("lesson=edge&step={step}"));
            assert_eq!(l.open, OpenLesson::new("edge", 0), "{step}");
            assert_eq!(l.notices.len(), 1, "{step}");
            assert!(l.notices[0].to_string().contains("has steps 1 to 2"));
        }
        let l = from_query("step=2");
        assert_eq!(
            l.notices[0].to_string(),
            "step=2: only with a lesson; ignored"
        );
        // A very long value is shortened, control characters escaped.
        let long = format!("lesson={}%0A", "a".repeat(500));
        let n = from_query(&long).notices[0].to_string();
        assert!(n.len() < 400 && !n.contains('\n'), "{n}");
    }

    #[test]
    fn next_and_prev_walk_every_step_of_every_lesson() {
        let mut all = vec![];
        let mut at = OpenLesson::first();
        while let Some(o) = at {
            all.push(o);
            at = o.next();
        }
        let steps: usize = LESSONS.iter().map(|l| l.steps.len()).sum();
        assert_eq!(all.len(), steps);
        let mut back = vec![];
        let mut at = all.last().copied();
        while let Some(o) = at {
            back.push(o);
            at = o.prev();
        }
        back.reverse();
        assert_eq!(all, back);
        for (i, o) in all.iter().enumerate() {
            assert_eq!((o.index(), OpenLesson::at(i as u64)), (i as u64, Some(*o)));
        }
        assert_eq!(OpenLesson::at(all.len() as u64), None);
    }

    #[test]
    fn buttons_name_where_they_go() {
        let o = OpenLesson::new("lab-d", 0).unwrap();
        assert_eq!(Go::parse(&o.key()), Some(Go::Open(o)));
        assert_eq!(Go::parse("close"), Some(Go::Close));
        for bad in ["", "edge", "edge.9", "edge.-1", "nope.0", "edge.1.0"] {
            assert_eq!(Go::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn no_step_asks_to_press_play_since_every_step_plays_itself() {
        // Opening a step plays the clock to its moment (or, with reduced motion,
        // shows it): a text asking the learner to press play would contradict the
        // page. The play button is "Play" and "Chạy".
        for (text, asks) in [
            (
                include_str!("../../learn/src/texts/en.txt"),
                ["press play", "click play"],
            ),
            (
                include_str!("../../learn/src/texts/vi.txt"),
                ["bấm chạy", "nhấn chạy"],
            ),
        ] {
            for line in text.lines().filter(|l| l.starts_with("lesson.")) {
                let said = line.to_lowercase();
                for a in asks {
                    assert!(!said.contains(a), "{line}");
                }
            }
        }
    }

    #[test]
    fn lessons_play_for_a_few_seconds_or_jump() {
        assert_eq!(speed_for(5_000), Some(1000));
        assert_eq!(speed_for(12_000), Some(2000));
        assert_eq!(speed_for(60_000), Some(16000));
        assert_eq!(speed_for(600_000), None);
    }
}

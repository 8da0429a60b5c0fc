//! The work budget's refusal line in the page's language.
//!
//! The engine refuses a run over its budget with one English line
//! ([`ratelab_sim::Cost::check`]): "too much for one run: about 80 MB of memory
//! (2000000 requests × 3 limiters), over the budget of 64 MB; use fewer requests or
//! limiters, or a smaller limit or period". [`Refusal::parse`] takes such a line
//! apart into its numbers, and [`Refusal::say`] says it again in a language: in
//! English the engine's line byte for byte (a test pins it), in Vietnamese the same
//! numbers, as the engine wrote them, in Vietnamese words. A line it does not know
//! is left to the caller, as written: an untranslated line beats a wrong one.

use super::{Lang, Tr};

/// The refusal's words (`{about}`, `{budget}`, `{shape}`, `{state}`, `{requests}`,
/// `{lanes}`, `{lane}`, `{numbers}` are filled in).
#[derive(Debug)]
#[allow(missing_docs)]
pub struct BudgetTexts {
    pub memory: &'static str,
    pub steps: &'static str,
    pub query: &'static str,
    pub shape_one: &'static str,
    pub shape: &'static str,
    pub state: &'static str,
}

/// The refusal's words in every language. The English ones are the engine's
/// (`crates/sim/src/cost.rs`): change both together (the tests below fail if not).
pub static BUDGET: Tr<BudgetTexts> = Tr {
    en: BudgetTexts {
        memory: "too much for one run: about {about} of memory ({shape}{state}), over the budget of {budget}; use fewer requests or limiters, or a smaller limit or period",
        steps: "too much for one run: about {about} million steps ({shape}{state}), over the budget of {budget} million; use fewer requests or limiters, or a smaller limit or period",
        query: "too much to look at: about {about} million steps to show one moment ({shape}{state}), over the budget of {budget} million; use a smaller limit or period",
        shape_one: "{requests} requests × {lanes} limiter",
        shape: "{requests} requests × {lanes} limiters",
        state: "; limiters[{lane}] alone keeps up to {numbers} numbers of state",
    },
    vi: BudgetTexts {
        memory: "quá nhiều cho một lần chạy: khoảng {about} bộ nhớ ({shape}{state}), vượt hạn mức {budget}; hãy dùng ít yêu cầu hoặc bộ giới hạn hơn, hoặc giới hạn hay chu kỳ nhỏ hơn",
        steps: "quá nhiều cho một lần chạy: khoảng {about} triệu bước ({shape}{state}), vượt hạn mức {budget} triệu bước; hãy dùng ít yêu cầu hoặc bộ giới hạn hơn, hoặc giới hạn hay chu kỳ nhỏ hơn",
        query: "quá nhiều để xem: khoảng {about} triệu bước để hiện một thời điểm ({shape}{state}), vượt hạn mức {budget} triệu bước; hãy dùng giới hạn hay chu kỳ nhỏ hơn",
        shape_one: "{requests} yêu cầu × {lanes} bộ giới hạn",
        shape: "{requests} yêu cầu × {lanes} bộ giới hạn",
        state: "; riêng limiters[{lane}] giữ tới {numbers} số trạng thái",
    },
};

/// Which budget a run is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Over {
    Memory,
    Steps,
    Query,
}

/// A refusal line taken apart: the numbers as the engine wrote them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal<'a> {
    over: Over,
    about: &'a str,
    budget: &'a str,
    requests: &'a str,
    lanes: &'a str,
    /// The lane with the largest state and how many numbers it keeps.
    state: Option<(&'a str, &'a str)>,
}

/// Digits only (a count), or `None`.
fn digits(s: &str) -> Option<&str> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then_some(s)
}

impl<'a> Refusal<'a> {
    /// The engine's refusal line (exactly as [`ratelab_sim::Cost::check`] writes
    /// it), or `None` for any other line.
    pub fn parse(line: &'a str) -> Option<Refusal<'a>> {
        let en = &BUDGET.en;
        let forms = [
            (Over::Memory, en.memory),
            (Over::Steps, en.steps),
            (Over::Query, en.query),
        ];
        forms.into_iter().find_map(|(over, template)| {
            // The template's fixed parts around its holes.
            let (head, rest) = template.split_once("{about}")?;
            let (mid, rest) = rest.split_once("({shape}{state})")?;
            let (mid2, tail) = rest.split_once("{budget}")?;
            let (about, rest) = line.strip_prefix(head)?.split_once(mid)?;
            let (inner, rest) = rest.strip_prefix('(')?.split_once(&format!("){mid2}"))?;
            let budget = rest.strip_suffix(tail)?;
            let (requests, lanes_etc) = inner.split_once(" requests × ")?;
            let (lanes, state) = match lanes_etc.split_once("; limiters[") {
                Some((lanes, st)) => {
                    let (lane, n) = st.split_once("] alone keeps up to ")?;
                    let n = n.strip_suffix(" numbers of state")?;
                    (lanes, Some((digits(lane)?, digits(n)?)))
                }
                None => (lanes_etc, None),
            };
            let lanes = lanes
                .strip_suffix(" limiters")
                .or_else(|| lanes.strip_suffix(" limiter"))?;
            let refusal = Refusal {
                over,
                about,
                budget,
                requests: digits(requests)?,
                lanes: digits(lanes)?,
                state,
            };
            // Only what says itself back exactly is taken as the engine's line.
            (refusal.say(Lang::En) == line).then_some(refusal)
        })
    }

    /// The refusal in `lang`.
    pub fn say(&self, lang: Lang) -> String {
        let t = BUDGET.get(lang);
        let template = match self.over {
            Over::Memory => t.memory,
            Over::Steps => t.steps,
            Over::Query => t.query,
        };
        let shape = if self.lanes == "1" {
            t.shape_one
        } else {
            t.shape
        };
        let shape = shape
            .replace("{requests}", self.requests)
            .replace("{lanes}", self.lanes);
        let state = match self.state {
            Some((lane, numbers)) => t
                .state
                .replace("{lane}", lane)
                .replace("{numbers}", numbers),
            None => String::new(),
        };
        // The numbers go in last: nothing in them is a hole.
        template
            .replace("{shape}", &shape)
            .replace("{state}", &state)
            .replace("{about}", self.about)
            .replace("{budget}", self.budget)
    }
}

/// `line` in `lang` if it is the engine's refusal, else `None`.
pub fn translate(line: &str, lang: Lang) -> Option<String> {
    Refusal::parse(line).map(|r| r.say(lang))
}

/// `line` in `lang` if it is, or ends with, the engine's refusal (an error shown
/// under the JSON box or the custom stream may carry a path before it), else as
/// written.
pub fn localise(line: &str, lang: Lang) -> String {
    for (at, _) in line.match_indices("too much ") {
        let (head, tail) = line.split_at(at);
        if let Some(said) = translate(tail, lang) {
            return format!("{head}{said}");
        }
    }
    line.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(not(target_arch = "wasm32"))]
    use proptest::prelude::*;
    use ratelab_sim::{Budget, Cost};

    /// The engine's line for `cost` over `budget` (every cost here is over).
    fn engine(cost: &Cost, budget: &Budget) -> String {
        String::from(cost.check(budget).expect_err("over the budget"))
    }

    fn cost(
        requests: u64,
        lanes: u64,
        bytes: u64,
        steps: u64,
        query: u64,
        state: Option<(usize, u64)>,
    ) -> Cost {
        Cost {
            requests,
            lanes,
            bytes,
            steps,
            query_steps: query,
            largest_state: state,
        }
    }

    /// The numbers in a line, in order (runs of digits, with a decimal point).
    fn numbers(line: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = String::new();
        for c in line.chars() {
            if c.is_ascii_digit() || (c == '.' && !cur.is_empty()) {
                cur.push(c);
            } else if !cur.is_empty() {
                out.push(std::mem::take(&mut cur).trim_end_matches('.').to_string());
            }
        }
        if !cur.is_empty() {
            out.push(cur);
        }
        out
    }

    #[test]
    fn each_kind_of_refusal_is_said_in_both_languages() {
        let p = Budget::PLAYGROUND;
        let lines = [
            engine(&cost(2_000_000, 3, 900 << 20, 1, 1, None), &p),
            engine(&cost(5, 1, 1, 90_000_000, 1, Some((0, 1_000_000))), &p),
            engine(&cost(10, 6, 1, 1, 7_000_000, Some((4, 999_999))), &p),
        ];
        for line in &lines {
            let r = Refusal::parse(line).unwrap_or_else(|| panic!("not parsed: {line}"));
            assert_eq!(r.say(Lang::En), *line);
            let vi = r.say(Lang::Vi);
            assert_ne!(vi, *line);
            assert!(!vi.contains("too much"), "{vi}");
            assert_eq!(numbers(&vi), numbers(line), "{vi}\n{line}");
        }
        assert!(
            lines[0].contains("2000000 requests × 3 limiters"),
            "{}",
            lines[0]
        );
        assert!(BUDGET.vi.memory.contains("bộ nhớ"));
    }

    #[test]
    fn other_lines_are_not_taken_for_refusals() {
        for line in [
            "",
            "too much",
            "too much for one run: about",
            "must be > 0",
            "too much for one run: about 80 MB of memory (x requests × 3 limiters), over the budget of 64 MB; use fewer requests or limiters, or a smaller limit or period",
            "too much for one run: about 80 MB of memory (2 requests × 3 limiters), over the budget of 64 MB; and more",
        ] {
            assert_eq!(translate(line, Lang::Vi), None, "{line}");
            assert_eq!(localise(line, Lang::Vi), line);
        }
    }

    #[test]
    fn a_refusal_after_a_path_or_in_a_notice_is_translated() {
        let line = engine(&cost(20, 2, 100 << 20, 1, 1, None), &Budget::PLAYGROUND);
        let with_path = format!("requests: {line}");
        let vi = localise(&with_path, Lang::Vi);
        assert!(
            vi.starts_with("requests: quá nhiều cho một lần chạy"),
            "{vi}"
        );
        assert_eq!(localise(&with_path, Lang::En), with_path);
        let notice = format!("scenario=custom: {line}; showing the scenario's defaults");
        let vi = super::super::errors::notice(&notice, Lang::Vi);
        assert!(vi.starts_with("scenario=custom: quá nhiều"), "{vi}");
        assert!(!vi.contains("too much"), "{vi}");
    }

    // (proptest is a native dev-dependency only.)
    #[cfg(not(target_arch = "wasm32"))]
    proptest! {
        /// Whatever the figures, English is the engine's line byte for byte and
        /// Vietnamese carries the same numbers.
        #[test]
        fn english_is_the_engines_line_and_vietnamese_has_its_numbers(
            requests in 0u64..=u64::MAX,
            lanes in 0u64..100,
            bytes in 0u64..=u64::MAX,
            steps in 0u64..=u64::MAX,
            query in 0u64..=u64::MAX,
            state in proptest::option::of((0usize..64, 0u64..=u64::MAX)),
            which in 0usize..3,
        ) {
            let budget = [Budget::PLAYGROUND, Budget::RUN, Budget::TRACE][which];
            if let Err(e) = cost(requests, lanes, bytes, steps, query, state).check(&budget) {
                let line = String::from(e);
                let Some(r) = Refusal::parse(&line) else {
                    return Err(TestCaseError::fail(format!("not parsed: {line}")));
                };
                prop_assert_eq!(r.say(Lang::En), line.clone());
                prop_assert_eq!(numbers(&r.say(Lang::Vi)), numbers(&line));
            }
        }
    }
}

//! Inline errors in the page's language, without the JSON format's paths.
//!
//! The engine words its messages for the JSON format and the CLI
//! (`limiters[2].burst: must be > 0`): right in a file, wrong under a field labelled
//! "capacity" on a page in Vietnamese. [`for_field`] takes such a line apart: the
//! path goes (or becomes the label of the field it names, when that is not the
//! field the message is shown under), and the messages the form can produce are
//! said in the page's language. A message it does not know is shown as the engine
//! wrote it, less the path: an untranslated line beats a wrong one.

use super::{Lang, Tr};

/// The form's error messages (`{value}`, `{max}`, `{got}` are filled in).
#[derive(Debug)]
#[allow(missing_docs)]
pub struct ErrorTexts {
    pub positive: &'static str,
    pub too_large: &'static str,
    pub too_large_period: &'static str,
    pub whole_nothing: &'static str,
    pub whole: &'static str,
    pub duration: &'static str,
    pub nginx_rate: &'static str,
    pub lane: &'static str,
}

/// The form's error messages in every language.
pub static ERRORS: Tr<ErrorTexts> = Tr {
    en: ErrorTexts {
        positive: "must be more than 0",
        too_large: "{value} is too large (at most {max})",
        too_large_period: "{value} is too large for this period (at most {max})",
        whole_nothing: "type a whole number",
        whole: "must be a whole number, not {got}",
        duration: "must be a duration like 10s, 500ms, 1.5s or 2m, not {got}",
        nginx_rate: "nginx needs at least 0.001 requests per second (limit ÷ period)",
        lane: "lane {value}",
    },
    vi: ErrorTexts {
        positive: "phải lớn hơn 0",
        too_large: "{value} quá lớn (tối đa {max})",
        too_large_period: "{value} quá lớn với chu kỳ này (tối đa {max})",
        whole_nothing: "hãy nhập một số nguyên",
        whole: "phải là số nguyên, không phải {got}",
        duration: "phải là khoảng thời gian như 10s, 500ms, 1.5s hoặc 2m, không phải {got}",
        nginx_rate: "nginx cần ít nhất 0,001 yêu cầu mỗi giây (giới hạn ÷ chu kỳ)",
        lane: "làn {value}",
    },
};

/// Where a message says it is: `limiters[2].burst: …` is `(Some(2), "burst")`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Named<'a> {
    /// The lane, when the message names one.
    pub lane: Option<usize>,
    /// The parameter as the JSON format names it (`limit`, `period_ms`, `burst`, `delay`).
    pub param: &'a str,
}

/// The parameters the engine's messages name.
const PARAMS: [&str; 4] = ["limit", "period_ms", "burst", "delay"];

/// Splits `limiters[2].burst: rest` or `burst: rest` into where and what.
pub fn split(raw: &str) -> (Option<Named<'_>>, &str) {
    let (lane, tail) = match raw
        .strip_prefix("limiters[")
        .and_then(|r| r.split_once("]."))
    {
        Some((k, tail)) => match k.parse::<usize>() {
            Ok(k) => (Some(k), tail),
            Err(_) => return (None, raw),
        },
        None => (None, raw),
    };
    match tail.split_once(": ") {
        Some((param, rest)) if PARAMS.contains(&param) => (Some(Named { lane, param }), rest),
        _ => (None, raw),
    }
}

fn fill(template: &str, value: &str, max: &str) -> String {
    template.replace("{value}", value).replace("{max}", max)
}

/// The engine's message `rest` (its path already split off) in `lang`.
pub fn translate(rest: &str, lang: Lang) -> String {
    if let Some(said) = super::budget::translate(rest, lang) {
        return said;
    }
    let t = ERRORS.get(lang);
    let quoted = |prefix: &str, template: &str| {
        rest.strip_prefix(prefix)
            .map(|got| template.replace("{got}", got))
    };
    if rest == "must be > 0" {
        return t.positive.to_string();
    }
    if rest == "must be a whole number, got nothing" {
        return t.whole_nothing.to_string();
    }
    if rest.starts_with("nginx needs a rate of at least") {
        return t.nginx_rate.to_string();
    }
    if let Some(s) = quoted("must be a whole number, got ", t.whole).or_else(|| {
        quoted(
            "must be a duration like 10s, 500ms, 1.5s or 2m, got ",
            t.duration,
        )
    }) {
        return s;
    }
    // "{value} is too large (at most {max})" and its "for this period_ms" variant.
    if let Some((value, tail)) = rest.split_once(" is too large") {
        let max = tail
            .split_once("(at most ")
            .map(|(_, m)| m.trim_end_matches(')'))
            .and_then(|m| m.split([',', ')']).next())
            .unwrap_or_default();
        if !max.is_empty() {
            let template = if tail.starts_with(" for this period_ms") {
                t.too_large_period
            } else {
                t.too_large
            };
            return fill(template, value, max);
        }
    }
    rest.to_string()
}

/// The message `raw` shown under a field, in `lang`. `label` names the field a
/// message points at (a lane and a JSON parameter name), or `None` when that is
/// the field the message is shown under, which needs no name.
pub fn for_field(raw: &str, lang: Lang, label: impl Fn(Named<'_>) -> Option<String>) -> String {
    let (named, rest) = split(raw);
    let said = translate(rest, lang);
    match named.and_then(label) {
        Some(who) => format!("{who}: {said}"),
        None => said,
    }
}

/// What the link parser says after a reason, in Vietnamese.
const VI_TAILS: [(&str, &str); 5] = [
    ("; using the default", "; dùng giá trị mặc định"),
    ("; showing the default", "; hiện thiết lập mặc định"),
    (
        "; showing the scenario's defaults",
        "; hiện giá trị mặc định của kịch bản",
    ),
    ("; ignored", "; bỏ qua"),
    ("; left out", "; bỏ ra"),
];

/// A notice about the link (`key=value: reason`, as `share::Notice` writes it) in
/// `lang`: the key and value as written, the reason translated where the page
/// knows its words (else as written).
pub fn notice(line: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return line.to_string();
    }
    let Some((what, reason)) = line
        .find('=')
        .and_then(|eq| line.get(eq..)?.find(": ").map(|i| eq + i))
        .and_then(|at| Some((line.get(..at)?, line.get(at + 2..)?)))
    else {
        return line.to_string();
    };
    let mut core = reason;
    let mut tails = Vec::new();
    while let Some((en, vi)) = VI_TAILS.iter().find(|(en, _)| core.ends_with(en)) {
        core = core.get(..core.len() - en.len()).unwrap_or(core);
        tails.insert(0, *vi);
    }
    let said = reason_vi(core).unwrap_or_else(|| {
        let (_, rest) = split(core);
        translate(rest, lang)
    });
    format!("{what}: {said}{}", tails.concat())
}

/// The link reader's and the lessons' own reasons (`share::parse`, `learn`), in
/// Vietnamese; `None` for an engine message, which [`translate`] says.
fn reason_vi(core: &str) -> Option<String> {
    // "(expected one of a, b)" / "(expected a, b)": the list as written.
    let expected = |tail: &str| {
        tail.strip_prefix("(expected one of ")
            .or_else(|| tail.strip_prefix("(expected "))
            .map(|l| l.trim_end_matches(')').to_string())
    };
    let not = |g: Option<&str>| g.map_or(String::new(), |g| format!(", không phải {g}"));
    if core == "unknown parameter" {
        return Some("tham số không có trong định dạng liên kết".to_string());
    }
    if let Some(i) = core.strip_prefix("there is no lane ") {
        return Some(format!("không có làn {i}"));
    }
    if let Some(s) = core.strip_prefix("not used by scenario ") {
        return Some(format!("kịch bản {s} không dùng tham số này"));
    }
    if let Some(rest) = core.strip_prefix("unknown scenario ") {
        let (list, shown) = rest.split_once("; showing ")?;
        return Some(format!(
            "không có kịch bản này (cần một trong: {}); hiện {shown}",
            expected(list)?
        ));
    }
    if let Some(shown) = core.strip_prefix("this build leaves the service model out; showing ") {
        return Some(format!(
            "bản dựng này không có mô hình dịch vụ; hiện {shown}"
        ));
    }
    if let Some(rest) = core.strip_prefix("unknown limiter ") {
        let (bad, list) = rest.split_once(" (expected ")?;
        return Some(format!(
            "không có bộ giới hạn {bad} (cần một trong: {})",
            list.trim_end_matches(')')
        ));
    }
    if let Some(rest) = core.strip_prefix("unknown lesson ") {
        return Some(format!(
            "không có bài học này (cần một trong: {})",
            expected(rest)?
        ));
    }
    if core == "only with a lesson" {
        return Some("chỉ dùng cùng lesson=".to_string());
    }
    if let Some(rest) = core.strip_prefix("lesson ") {
        let (id, n) = rest.split_once(" has steps 1 to ")?;
        let n = n.strip_suffix("; showing step 1")?;
        return Some(format!("bài học {id} có các bước 1 đến {n}; hiện bước 1"));
    }
    if let Some(rest) = core.strip_prefix("at most ") {
        if let Some((n, _)) = rest.split_once(" limiters at once; showing the first ") {
            return Some(format!(
                "tối đa {n} bộ giới hạn cùng lúc; hiện {n} bộ đầu tiên"
            ));
        }
        if let Some(n) = rest.strip_suffix(" spans") {
            return Some(format!("tối đa {n} khoảng"));
        }
    }
    if core == "no limiters given; showing the scenario's" {
        return Some("không có bộ giới hạn nào; hiện các bộ của kịch bản".to_string());
    }
    if let Some(last) = core.strip_prefix("lane numbers run from 0 to ") {
        return Some(format!("số làn chỉ từ 0 đến {last}"));
    }
    if let Some(rest) = core.strip_prefix("only scenario ") {
        let (s, other) = rest.split_once(" takes it (not ")?;
        return Some(format!(
            "chỉ kịch bản {s} dùng tham số này (không phải {})",
            other.trim_end_matches(')')
        ));
    }
    if let Some(rest) = core.strip_prefix("must be one of ") {
        let (list, g) = rest
            .rsplit_once(", got ")
            .map_or((rest, None), |(a, g)| (a, Some(g)));
        return Some(format!("phải là một trong: {list}{}", not(g)));
    }
    if let Some(g) = core.strip_prefix("must be 1 or 0, got ") {
        return Some(format!("phải là 1 hoặc 0, không phải {g}"));
    }
    if let Some(g) = core.strip_prefix("must be a multiple of the limit from 0.001 to 100, got ") {
        return Some(format!(
            "phải là một bội số của giới hạn, từ 0,001 đến 100, không phải {g}"
        ));
    }
    if let Some(g) = core.strip_prefix("must be a whole number of milliseconds, got ") {
        return Some(format!("phải là một số mili giây nguyên, không phải {g}"));
    }
    if let Some(rest) = core.strip_prefix("more than ") {
        let n = rest.strip_suffix(" requests (use the JSON import)")?;
        return Some(format!("hơn {n} yêu cầu (hãy dùng ô nhập JSON)"));
    }
    if let Some(rest) = core.strip_prefix("request ") {
        let (i, what) = rest.split_once(": ")?;
        let said = if let Some(t) =
            what.strip_suffix(" comes before the one before it (requests must be sorted by time)")
        {
            format!("{t} đến trước yêu cầu đứng trước nó (các yêu cầu phải xếp theo thời gian)")
        } else if let Some(n) = what
            .strip_prefix("a key must be at most ")
            .and_then(|r| r.strip_suffix(" characters"))
        {
            format!("khóa dài tối đa {n} ký tự")
        } else if what == "a cost must be > 0" {
            "chi phí phải lớn hơn 0".to_string()
        } else if let Some(e) = what.strip_prefix("cost ") {
            format!("chi phí {}", translate(e, Lang::Vi))
        } else if let Some(g) = what.strip_prefix("write t, t:key or t:key:cost, got ") {
            format!("hãy viết t, t:key hoặc t:key:cost, không phải {g}")
        } else {
            translate(what, Lang::Vi)
        };
        return Some(format!("yêu cầu {i}: {said}"));
    }
    if let Some(g) = core.strip_prefix("a span is FROM-TO, like 20s-40s, got ") {
        return Some(format!(
            "một khoảng viết là TỪ-ĐẾN, như 20s-40s, không phải {g}"
        ));
    }
    if let Some(part) = core
        .strip_prefix("spans must be in order and apart, ")
        .and_then(|r| r.strip_suffix(" is not after the one before"))
    {
        return Some(format!(
            "các khoảng phải theo thứ tự và tách rời nhau, {part} không nằm sau khoảng trước"
        ));
    }
    // "{algorithm} takes no {name} (only {who})".
    if let Some((who, rest)) = core.split_once(" takes no ") {
        let (name, only) = rest.split_once(" (only ")?;
        let only = only.trim_end_matches(')');
        let only = if only == "the buckets, GCRA, the queue and nginx" {
            "các xô token, GCRA, hàng đợi và nginx"
        } else {
            only
        };
        return Some(format!("{who} không nhận {name} (chỉ {only} nhận)"));
    }
    // An engine message about one lane's value: "{message} for {algorithm}".
    if let Some((message, who)) = core.rsplit_once(" for ") {
        if ratelab_core::Algorithm::from_id(who).is_some() {
            let (_, rest) = split(message);
            return Some(format!("{} (với {who})", translate(rest, Lang::Vi)));
        }
    }
    None
}

/// "lane 3" in `lang`.
pub fn lane_word(j: usize, lang: Lang) -> String {
    ERRORS
        .get(lang)
        .lane
        .replace("{value}", &(j + 1).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_go_and_messages_are_translated() {
        let own = |_: Named<'_>| None;
        assert_eq!(
            for_field("limiters[2].burst: must be > 0", Lang::En, own),
            "must be more than 0"
        );
        assert_eq!(
            for_field("limiters[2].burst: must be > 0", Lang::Vi, own),
            "phải lớn hơn 0"
        );
        assert_eq!(
            for_field("limit: 9 is too large (at most 5)", Lang::Vi, own),
            "9 quá lớn (tối đa 5)"
        );
        assert_eq!(
            for_field(
                "limiters[0].limit: 99 is too large for this period_ms (at most 7, so that limit · period_ms stays below 2^62)",
                Lang::En,
                own
            ),
            "99 is too large for this period (at most 7)"
        );
        assert_eq!(
            for_field("must be a whole number, got \"x\"", Lang::Vi, own),
            "phải là số nguyên, không phải \"x\""
        );
        // A message about another field names it by its label.
        let other = |n: Named<'_>| Some(format!("{:?} {}", n.lane, n.param));
        assert_eq!(
            for_field("limiters[1].burst: must be > 0", Lang::En, other),
            "Some(1) burst: must be more than 0"
        );
        // Unknown text is kept as written, and a path it cannot read stays.
        assert_eq!(translate("something new", Lang::Vi), "something new");
        assert_eq!(
            split("limiters[x].burst: y"),
            (None, "limiters[x].burst: y")
        );
    }

    #[test]
    fn link_notices_are_said_in_vietnamese() {
        let said = |q: &str| {
            ratelab_sim::share::parse(q)
                .1
                .iter()
                .map(|n| notice(&n.to_string(), Lang::Vi))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            said("limit=0"),
            ["limit=0: phải lớn hơn 0; dùng giá trị mặc định"]
        );
        assert_eq!(
            said("colour=red"),
            ["colour=red: tham số không có trong định dạng liên kết; bỏ qua"]
        );
        let en = ratelab_sim::share::parse("limit=0").1[0].to_string();
        assert_eq!(notice(&en, Lang::En), en);
    }

    /// English words a notice's own sentence uses; none may be left in Vietnamese
    /// (ids, quoted values and the link's own `key=value` are taken out first).
    const ENGLISH: &[&str] = &[
        "a",
        "after",
        "and",
        "apart",
        "at",
        "be",
        "before",
        "build",
        "buckets",
        "by",
        "characters",
        "comes",
        "cost",
        "default",
        "defaults",
        "expected",
        "first",
        "for",
        "from",
        "given",
        "got",
        "has",
        "ignored",
        "import",
        "in",
        "is",
        "it",
        "key",
        "lane",
        "large",
        "leaves",
        "left",
        "lesson",
        "like",
        "limit",
        "limiter",
        "limiters",
        "milliseconds",
        "model",
        "more",
        "most",
        "multiple",
        "must",
        "no",
        "not",
        "number",
        "numbers",
        "of",
        "once",
        "one",
        "only",
        "or",
        "order",
        "out",
        "parameter",
        "queue",
        "request",
        "requests",
        "run",
        "scenario",
        "service",
        "showing",
        "sorted",
        "span",
        "spans",
        "step",
        "steps",
        "takes",
        "than",
        "the",
        "there",
        "this",
        "time",
        "to",
        "too",
        "unknown",
        "use",
        "used",
        "using",
        "whole",
        "with",
        "write",
    ];

    /// The English words left in `said`, a notice shown in Vietnamese.
    fn english_in(said: &str) -> Vec<String> {
        // `key=value: ` is the link as written.
        let mut rest = said.split_once(": ").map_or(said, |(_, r)| r).to_string();
        // Quoted values and the ids the notices list are the link's own words.
        while let Some(a) = rest.find('"') {
            let b = rest[a + 1..].find('"').map_or(rest.len(), |b| a + b + 2);
            rest.replace_range(a..b, " ");
        }
        let mut ids: Vec<String> = ratelab_sim::scenario::ScenarioId::ALL
            .iter()
            .map(|s| s.to_string())
            .chain(
                ratelab_core::Algorithm::ALL
                    .iter()
                    .map(|a| a.id().to_string()),
            )
            .chain(
                ratelab_learn::lesson::LESSONS
                    .iter()
                    .map(|l| l.id.to_string()),
            )
            .collect();
        ids.sort_by_key(|s| std::cmp::Reverse(s.len()));
        for id in &ids {
            rest = rest.replace(id.as_str(), " ");
        }
        // A token with `:`, `=` or `_` is the link's syntax or a value's id
        // (`t:key:cost`, `lesson=`, `retry_after`); a Vietnamese word has letters
        // outside ASCII or is not on the list.
        rest.split_whitespace()
            .filter(|t| !t.contains([':', '=', '_']))
            .flat_map(|t| t.split(|c: char| !c.is_alphabetic() && c != '\''))
            .filter(|w| ENGLISH.contains(&w.to_ascii_lowercase().as_str()))
            .map(str::to_string)
            .collect()
    }

    /// Links with a bad value for each parameter the link reader knows, and the
    /// lessons' own; every notice they give is said in Vietnamese.
    #[test]
    fn every_bad_link_notice_is_vietnamese() {
        const BAD: &[&str] = &[
            "scenario=nope",
            "scenario=%3Cb%3E",
            "limiters=nope,gcra",
            "limiters=nope",
            "limiters=",
            "limiters=gcra,gcra,gcra,gcra,gcra,gcra,gcra,gcra,gcra",
            "limit=abc",
            "limit=0",
            "limit=99999999999999999999999",
            "period=abc",
            "period=0",
            "period=10x",
            "window=-1",
            "t=later",
            "speed=3",
            "lang=fr",
            "sel=x",
            "hl=maybe",
            "burst=x",
            "delay=x",
            "nodelay=perhaps",
            "colour=red",
            "scenario=golden&limiters=fixed_window,gcra&burst.0=3&delay.1=2&nodelay.0=1",
            "scenario=golden&limiters=gcra,nginx&burst.0=0&limit.1=0&period.1=1ms",
            "limit.9=3",
            "limit.x=3",
            "scenario=golden&limiters=gcra,sliding_log&limit.5=3",
            "scenario=golden&wat.0=1",
            "scenario=golden&seed=5&load=2&clients=3",
            "scenario=lab-d&load=x&seed=x&clients=0",
            "scenario=manual&requests=abc",
            "scenario=manual&requests=5,3",
            "scenario=manual&requests=1:k:0",
            "scenario=manual&requests=1:k:x",
            "scenario=manual&requests=1:k:1:9",
            "scenario=golden&noisy=3",
            "scenario=service&outage=zz",
            "scenario=service&outage=20s-40s,10s-15s",
            "scenario=service&key=zz&balance=zz&store=zz&retry=zz",
            "lesson=nope",
            "step=2",
            "lesson=edge&step=9",
            "lesson=edge&step=x",
        ];
        let mut english = Vec::new();
        let mut seen = 0;
        for q in BAD {
            let lessons = crate::learn::from_query(q);
            let (_, mut notices) = ratelab_sim::share::parse_pairs(&lessons.rest);
            notices.extend(lessons.notices);
            assert!(!notices.is_empty(), "{q}: no notice");
            for n in notices {
                let en = n.to_string();
                let said = notice(&en, Lang::Vi);
                seen += 1;
                let left = english_in(&said);
                if !left.is_empty() {
                    english.push(format!(
                        "{q}\n    en: {en}\n    vi: {said}\n    English: {left:?}"
                    ));
                }
            }
        }
        assert!(seen >= BAD.len(), "{seen} notices");
        assert!(
            english.is_empty(),
            "English in Vietnamese notices:\n{}",
            english.join("\n")
        );
    }
}

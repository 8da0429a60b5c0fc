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
    pub demand: &'static str,
    pub retries: &'static str,
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
        demand: "the clients would send about {value} requests, more than {max}: lower the clients, their demand or the duration",
        retries: "the retries would make more than {max} requests (by {got}): lower the clients or the attempts",
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
        demand: "các khách sẽ gửi khoảng {value} yêu cầu, quá mức {max}: hãy giảm số khách, nhu cầu mỗi khách hoặc thời lượng",
        retries: "các lần thử lại sẽ tạo hơn {max} yêu cầu (đến {got}): hãy giảm số khách hoặc số lần gửi",
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

/// `services[0].clients: rest` without the JSON format's path: on the page the
/// service's setup, not a path, says where.
pub fn without_path(raw: &str) -> &str {
    match raw.split_once(": ") {
        Some((path, rest)) if path.starts_with("services") && !path.contains(' ') => rest,
        _ => raw,
    }
}

/// Splits `limiters[2].burst: rest` or `burst: rest` into where and what.
pub fn split(raw: &str) -> (Option<Named<'_>>, &str) {
    let raw = without_path(raw);
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
    // The service model's two demand limits (`ServiceSpec::validate`, the run).
    if let Some((value, max)) = rest
        .strip_prefix("the demand would make about ")
        .and_then(|r| r.split_once(" requests, more than "))
    {
        let max = max.split(' ').next().unwrap_or(max);
        return t.demand.replace("{value}", value).replace("{max}", max);
    }
    if let Some((max, by)) = rest
        .strip_prefix("the retries would make more than ")
        .and_then(|r| r.split_once(" requests (by "))
    {
        let by = by.split([',', ')']).next().unwrap_or(by);
        return t.retries.replace("{max}", max).replace("{got}", by);
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
    let Some((what, reason)) = line
        .find('=')
        .and_then(|eq| line.get(eq..)?.find(": ").map(|i| eq + i))
        .and_then(|at| Some((line.get(..at)?, line.get(at + 2..)?)))
    else {
        return line.to_string();
    };
    if lang == Lang::En {
        return format!("{what}: {}", without_path(reason));
    }
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

/// The link reader's and the lessons' own reasons (`share::parse`, `learn`) and
/// their Vietnamese: `{}` is a part kept as written, `{t}` one said again by
/// [`translate`] (an engine message). The first that matches is used, so a longer
/// form comes before a shorter one.
const VI_REASONS: [(&str, &str); 34] = [
    (
        "expected light, dark or auto; following the page",
        "cần light, dark hoặc auto; theo trang chứa nó",
    ),
    (
        "unknown parameter",
        "tham số không có trong định dạng liên kết",
    ),
    ("there is no lane {}", "không có làn {}"),
    (
        "not used by scenario {}",
        "kịch bản {} không dùng tham số này",
    ),
    (
        "unknown scenario (expected one of {}); showing {}",
        "không có kịch bản này (cần một trong: {}); hiện {}",
    ),
    (
        "this build leaves the service model out; showing {}",
        "bản dựng này không có mô hình dịch vụ; hiện {}",
    ),
    (
        "unknown limiter {} (expected {})",
        "không có bộ giới hạn {} (cần một trong: {})",
    ),
    (
        "unknown lesson (expected one of {})",
        "không có bài học này (cần một trong: {})",
    ),
    ("only with a lesson", "chỉ dùng cùng lesson="),
    (
        "lesson {} has steps 1 to {}; showing step 1",
        "bài học {} có các bước 1 đến {}; hiện bước 1",
    ),
    (
        "at most {} limiters at once; showing the first {}",
        "tối đa {} bộ giới hạn cùng lúc; hiện {} bộ đầu tiên",
    ),
    ("at most {} spans", "tối đa {} khoảng"),
    (
        "no limiters given; showing the scenario's",
        "không có bộ giới hạn nào; hiện các bộ của kịch bản",
    ),
    ("lane numbers run from 0 to {}", "số làn chỉ từ 0 đến {}"),
    (
        "only scenario {} takes it (not {})",
        "chỉ kịch bản {} dùng tham số này (không phải {})",
    ),
    (
        "must be one of {}, got {}",
        "phải là một trong: {}, không phải {}",
    ),
    ("must be one of {}", "phải là một trong: {}"),
    ("must be 1 or 0, got {}", "phải là 1 hoặc 0, không phải {}"),
    (
        "must be a power of two from 1/4294967296 to 16, like 4 or 1/8, got {}",
        "phải là một lũy thừa của 2 từ 1/4294967296 đến 16, như 4 hay 1/8, không phải {}",
    ),
    (
        "must be open or folded, got {}",
        "phải là open (mở) hoặc folded (thu gọn), không phải {}",
    ),
    (
        "must be a multiple of the limit from 0.001 to 100, got {}",
        "phải là một bội số của giới hạn, từ 0,001 đến 100, không phải {}",
    ),
    (
        "must be a whole number of milliseconds, got {}",
        "phải là một số mili giây nguyên, không phải {}",
    ),
    (
        "more than {} requests (use the JSON import)",
        "hơn {} yêu cầu (hãy dùng ô nhập JSON)",
    ),
    (
        "request {}: {} comes before the one before it (requests must be sorted by time)",
        "yêu cầu {}: {} đến trước yêu cầu đứng trước nó (các yêu cầu phải xếp theo thời gian)",
    ),
    (
        "request {}: a key must be at most {} characters",
        "yêu cầu {}: khóa dài tối đa {} ký tự",
    ),
    (
        "request {}: a cost must be > 0",
        "yêu cầu {}: chi phí phải lớn hơn 0",
    ),
    (
        "request {}: write t, t:key or t:key:cost, got {}",
        "yêu cầu {}: hãy viết t, t:key hoặc t:key:cost, không phải {}",
    ),
    ("request {}: cost {t}", "yêu cầu {}: chi phí {}"),
    ("request {}: {t}", "yêu cầu {}: {}"),
    (
        "a span is FROM-TO, like 20s-40s, got {}",
        "một khoảng viết là TỪ-ĐẾN, như 20s-40s, không phải {}",
    ),
    (
        "spans must be in order and apart, {} is not after the one before",
        "các khoảng phải theo thứ tự và tách rời nhau, {} không nằm sau khoảng trước",
    ),
    (
        "{} takes no {} (only the buckets, GCRA, the queue and nginx)",
        "{} không nhận {} (chỉ các xô token, GCRA, hàng đợi và nginx nhận)",
    ),
    ("{} takes no {} (only {})", "{} không nhận {} (chỉ {} nhận)"),
    // A lane's value the engine refused: "{message} for {algorithm}".
    ("{t} for {a}", "{} (với {})"),
];

/// `core` said by the first of [`VI_REASONS`] whose English form it fits, or `None`.
fn reason_vi(core: &str) -> Option<String> {
    VI_REASONS
        .iter()
        .find_map(|(en, vi)| fit(en, core).map(|parts| fill_in(vi, &parts)))
}

/// The parts of `line` that fill the holes of `template`, if it fits: each hole
/// takes the text up to the first place its next literal piece fits (the last piece
/// must end the line); a `{t}` part is said by [`translate`]; an `{a}` part must
/// be an algorithm's id.
fn fit(template: &str, line: &str) -> Option<Vec<String>> {
    let mut pieces = template.split('{');
    let mut rest = line.strip_prefix(pieces.next()?)?;
    let mut parts = Vec::new();
    while let Some(piece) = pieces.next() {
        let (kind, literal) = piece.split_once('}')?;
        let part = if pieces.clone().next().is_none() {
            let part = rest.strip_suffix(literal)?;
            rest = "";
            part
        } else {
            // Before an algorithm's id (the line's end), the last place: the
            // message before it may hold the same words.
            let next = pieces.clone().next().and_then(|p| p.split_once('}'));
            let at = if next.is_some_and(|(k, _)| k == "a") {
                rest.rfind(literal)
            } else {
                rest.find(literal)
            }
            .filter(|_| !literal.is_empty())?;
            let part = rest.get(..at)?;
            rest = rest.get(at + literal.len()..)?;
            part
        };
        parts.push(match kind {
            "t" => translate(split(part).1, Lang::Vi),
            "a" if ratelab_core::Algorithm::from_id(part).is_none() => return None,
            _ => part.to_string(),
        });
    }
    rest.is_empty().then_some(parts)
}

/// `template` with its `{}` holes filled by `parts`, in order.
fn fill_in(template: &str, parts: &[String]) -> String {
    let mut out = String::new();
    let mut pieces = template.split("{}");
    out.push_str(pieces.next().unwrap_or_default());
    for (piece, part) in pieces.zip(parts) {
        out.push_str(part);
        out.push_str(piece);
    }
    out
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
    fn an_embed_s_own_options_are_said_in_vietnamese() {
        assert_eq!(
            notice(
                "theme=pink: expected light, dark or auto; following the page",
                Lang::Vi
            ),
            "theme=pink: cần light, dark hoặc auto; theo trang chứa nó"
        );
    }

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

    #[test]
    fn a_lanes_refused_value_names_its_limiter_once() {
        // The engine's message may say "for" itself: the limiter is the last one.
        assert_eq!(
            notice(
                "limit.0=99: 99 is too large for this period_ms (at most 7, so that limit · period_ms stays below 2^62) for gcra; using the default",
                Lang::Vi
            ),
            "limit.0=99: 99 quá lớn với chu kỳ này (tối đa 7) (với gcra); dùng giá trị mặc định"
        );
        // Not a limiter's id: not this form.
        assert!(reason_vi("made for you").is_none());
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
            "at=later",
            "speed=3",
            "lang=fr",
            "sel=x",
            "hl=maybe",
            "zoom=3",
            "zoom=1/3",
            "setup=closed",
            "catalog=",
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

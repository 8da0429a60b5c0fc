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
    let said = if core == "unknown parameter" {
        "tham số không có trong định dạng liên kết".to_string()
    } else if let Some(i) = core.strip_prefix("there is no lane ") {
        format!("không có làn {i}")
    } else if let Some(s) = core.strip_prefix("not used by scenario ") {
        format!("kịch bản {s} không dùng tham số này")
    } else {
        let (_, rest) = split(core);
        translate(rest, lang)
    };
    format!("{what}: {said}{}", tails.concat())
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
}

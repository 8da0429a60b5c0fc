//! JSON text → a compact tree borrowed from the text, checked while it is read.
//!
//! serde_json does the parsing (and its messages, `invalid JSON: trailing comma at
//! line 2 column 4`, are the format's); this visitor builds the tree and refuses, as
//! soon as it sees them, what no valid input holds:
//! - a key given twice in one object (`limiters[0].limit: given twice`): a
//!   `serde_json::Value` would keep the last silently;
//! - an array or object of more than [`MAX_ITEMS`] members: the rest is skipped
//!   without being stored, so a 60 MB array costs no more memory than a valid one.
//!
//! Numbers keep the text they were written with (found by a scan of the input
//! running alongside the parser), so that `1e3`, `5.0` and `-0` can be told from
//! `1000`, `5` and `0`, and messages quote a number as written.
//!
//! The tree is small: strings without escapes and every number are borrowed, and
//! an object is a vector of members, about a third of a `serde_json::Value`'s size
//! for the typical `{"t": 1000, "key": "a"}` request.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::error::SimError;
use crate::stream::MAX_REQUESTS;
use crate::text;

/// The most members one array or object may have: the request cap, which is the
/// largest any field allows.
pub(crate) const MAX_ITEMS: usize = MAX_REQUESTS;

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json<'a> {
    Null,
    Bool(bool),
    Number(Num<'a>),
    String(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    Object(Obj<'a>),
}

/// A number, as written.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Num<'a>(Cow<'a, str>);

/// What a number's text says it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum NumKind {
    /// Digits only: a whole number ≥ 0 (`None` when it does not fit in a u64).
    Unsigned(Option<u64>),
    /// A minus sign and digits: `-5`, and also `-0`.
    Negative,
    /// With a point or an exponent (`1.5`, `1e3`, `5.0`), and its value.
    Other(f64),
}

impl Num<'_> {
    /// The text as written.
    pub(crate) fn text(&self) -> &str {
        &self.0
    }

    /// How it is written, see [`NumKind`].
    pub(crate) fn kind(&self) -> NumKind {
        let t = self.text();
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if digits(t) {
            NumKind::Unsigned(t.parse().ok())
        } else if t.strip_prefix('-').is_some_and(digits) {
            NumKind::Negative
        } else {
            NumKind::Other(self.as_f64())
        }
    }

    /// Its value as a float (NaN if the text is not a number, which the parser does
    /// not let through).
    pub(crate) fn as_f64(&self) -> f64 {
        self.text().parse().unwrap_or(f64::NAN)
    }
}

/// An object's members, in the order written (keys are unique).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Obj<'a>(Vec<(Cow<'a, str>, Json<'a>)>);

impl<'a> Obj<'a> {
    /// The value of `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&Json<'a>> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Whether it has `key`.
    pub(crate) fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// A copy without the members named in `drop`.
    pub(crate) fn without(&self, drop: &[&str]) -> Obj<'a> {
        Obj(self
            .0
            .iter()
            .filter(|(k, _)| !drop.contains(&k.as_ref()))
            .cloned()
            .collect())
    }

    /// Whether it has no members.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The keys, in the order written.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> + '_ {
        self.0.iter().map(|(k, _)| k.as_ref())
    }
}

impl<'a> Json<'a> {
    /// `key` of an object (`None` for anything else).
    pub(crate) fn get(&self, key: &str) -> Option<&Json<'a>> {
        match self {
            Json::Object(o) => o.get(key),
            _ => None,
        }
    }

    /// The same tree from a parsed `serde_json::Value` (the JS API's input): strings
    /// borrowed, numbers written the way serde_json writes them (`5`, `-1`, `1.5`).
    pub(crate) fn from_value(v: &'a Value) -> Json<'a> {
        match v {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Number(Num(Cow::Owned(n.to_string()))),
            Value::String(s) => Json::String(Cow::Borrowed(s)),
            Value::Array(a) => Json::Array(a.iter().map(Json::from_value).collect()),
            Value::Object(m) => Json::Object(Obj(m
                .iter()
                .map(|(k, v)| (Cow::Borrowed(k.as_str()), Json::from_value(v)))
                .collect())),
        }
    }
}

/// Parses `text` (see the module docs).
pub(crate) fn parse(text: &str) -> Result<Json<'_>, SimError> {
    let ctx = Ctx {
        numbers: Cell::new(0),
        text,
        refusal: RefCell::new(None),
    };
    let mut de = serde_json::Deserializer::from_str(text);
    let result = Node {
        ctx: &ctx,
        path: Path::Root,
    }
    .deserialize(&mut de)
    .and_then(|v| de.end().map(|()| v));
    result.map_err(|e| {
        ctx.refusal
            .take()
            .unwrap_or_else(|| SimError::at("", format_args!("invalid JSON: {e}")))
    })
}

/// What the visitors share: the scan for number texts and the reason for a refusal
/// (serde's error type carries only text; the path-style message waits here).
struct Ctx<'a> {
    /// Where the scan for the next number starts.
    numbers: Cell<usize>,
    text: &'a str,
    refusal: RefCell<Option<SimError>>,
}

impl<'a> Ctx<'a> {
    /// The text of the next number in the input. The parser visits values in the
    /// order they are written, so the k-th number visited is the k-th number token
    /// outside a string.
    fn next_number(&self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let mut i = self.numbers.get();
        while let Some(&b) = bytes.get(i) {
            match b {
                b'"' => {
                    // Skip the string, escapes included.
                    i += 1;
                    while let Some(&c) = bytes.get(i) {
                        match c {
                            b'\\' => i += 2,
                            b'"' => break,
                            _ => i += 1,
                        }
                    }
                    i += 1;
                }
                b'-' | b'0'..=b'9' => {
                    let start = i;
                    while bytes.get(i).is_some_and(|c| {
                        matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                    }) {
                        i += 1;
                    }
                    self.numbers.set(i);
                    return self.text.get(start..i);
                }
                _ => i += 1,
            }
        }
        self.numbers.set(i);
        None
    }

    /// Records why the input is refused and gives serde an error to stop with.
    fn refuse<E: de::Error>(&self, error: SimError) -> E {
        let e = E::custom(error.as_str());
        *self.refusal.borrow_mut() = Some(error);
        e
    }
}

/// Where a value is, for messages: `limiters[0].limit`.
#[derive(Clone, Copy)]
enum Path<'p> {
    Root,
    Key(&'p Path<'p>, &'p str),
    Index(&'p Path<'p>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Path::Root => Ok(()),
            Path::Key(parent, key) => {
                if !matches!(parent, Path::Root) {
                    write!(f, "{parent}.")?;
                }
                if key.is_empty() {
                    f.write_str("\"\"")
                } else {
                    f.write_str(&text::shorten(key, 40))
                }
            }
            Path::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// Reads one value at `path`.
struct Node<'c, 'a, 'p> {
    ctx: &'c Ctx<'a>,
    path: Path<'p>,
}

impl<'de: 'a, 'a> DeserializeSeed<'de> for Node<'_, 'a, '_> {
    type Value = Json<'a>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Json<'a>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de: 'a, 'a> Visitor<'de> for Node<'_, 'a, '_> {
    type Value = Json<'a>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json<'a>, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json<'a>, E> {
        Ok(Json::Bool(b))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Json<'a>, E> {
        Ok(self.number(|| n.to_string()))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Json<'a>, E> {
        Ok(self.number(|| n.to_string()))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Json<'a>, E> {
        Ok(self.number(|| format!("{n:?}")))
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Json<'a>, E> {
        Ok(Json::String(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json<'a>, E> {
        Ok(Json::String(Cow::Owned(s.to_string())))
    }

    fn visit_string<E>(self, s: String) -> Result<Json<'a>, E> {
        Ok(Json::String(Cow::Owned(s)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'a>, A::Error> {
        let mut items = Vec::new();
        loop {
            let i = items.len();
            if i == MAX_ITEMS {
                // Count the rest without keeping it.
                let mut n = i;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    n += 1;
                }
                if n == i {
                    break;
                }
                return Err(self.ctx.refuse(too_many(&self.path, n)));
            }
            let node = Node {
                ctx: self.ctx,
                path: Path::Index(&self.path, i),
            };
            match seq.next_element_seed(node)? {
                Some(v) => items.push(v),
                None => break,
            }
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'a>, A::Error> {
        let mut members: Vec<(Cow<'a, str>, Json<'a>)> = Vec::new();
        // Duplicates are looked for in a sorted copy of the keys once an object is
        // large, so that a million keys cost n·log n, not n².
        let mut sorted: Option<std::collections::BTreeSet<Cow<'a, str>>> = None;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            let key: Cow<'a, str> = key;
            if members.len() == MAX_ITEMS {
                let mut n = members.len() + 1;
                let _ = map.next_value::<IgnoredAny>()?;
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {
                    n += 1;
                }
                return Err(self.ctx.refuse(too_many(&self.path, n)));
            }
            let seen = match &mut sorted {
                Some(set) => !set.insert(key.clone()),
                None => members.iter().any(|(k, _)| *k == key),
            };
            if seen {
                let at = Path::Key(&self.path, &key);
                return Err(self.ctx.refuse(SimError::at(
                    &at.to_string(),
                    "given twice (each field at most once)",
                )));
            }
            if sorted.is_none() && members.len() >= 32 {
                sorted = Some(
                    members
                        .iter()
                        .map(|(k, _)| k.clone())
                        .chain([key.clone()])
                        .collect(),
                );
            }
            let value = map.next_value_seed(Node {
                ctx: self.ctx,
                path: Path::Key(&self.path, &key),
            })?;
            members.push((key, value));
        }
        Ok(Json::Object(Obj(members)))
    }
}

impl<'a> Node<'_, 'a, '_> {
    fn number(&self, fallback: impl FnOnce() -> String) -> Json<'a> {
        let text = match self.ctx.next_number() {
            Some(t) => Cow::Borrowed(t),
            None => Cow::Owned(fallback()),
        };
        Json::Number(Num(text))
    }
}

/// `requests: 3000000 requests is too many (at most 2000000)`, or the same of any
/// other array or object.
fn too_many(path: &Path<'_>, n: usize) -> SimError {
    let at = path.to_string();
    let what = match at.as_str() {
        "requests" => "requests",
        "limiters" => "limiters",
        _ => "members",
    };
    SimError::at(
        &at,
        format_args!("{n} {what} is too many (at most {MAX_ITEMS})"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(text: &str) -> Vec<String> {
        fn walk(j: &Json<'_>, out: &mut Vec<String>) {
            match j {
                Json::Number(n) => out.push(n.text().to_string()),
                Json::Array(a) => a.iter().for_each(|v| walk(v, out)),
                Json::Object(o) => o.0.iter().for_each(|(_, v)| walk(v, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        walk(&parse(text).unwrap(), &mut out);
        out
    }

    #[test]
    fn numbers_keep_their_text_past_strings_and_escapes() {
        assert_eq!(
            numbers(r#"{"k-1": "2\"3\\", "t": [1e3, -0, 5.0, 7], "9": {"x": 1E-400}}"#),
            ["1e3", "-0", "5.0", "7", "1E-400"]
        );
        let kinds: Vec<NumKind> = ["7", "-0", "1e3", "99999999999999999999"]
            .map(|t| Num(Cow::Borrowed(t)).kind())
            .to_vec();
        assert_eq!(
            kinds,
            [
                NumKind::Unsigned(Some(7)),
                NumKind::Negative,
                NumKind::Other(1000.0),
                NumKind::Unsigned(None)
            ]
        );
    }

    #[test]
    fn keys_are_unique_per_object_and_paths_say_where() {
        let e = parse(r#"{"a": [{"b": 1}, {"c": 1, "c": 2}]}"#).unwrap_err();
        assert_eq!(e.as_str(), "a[1].c: given twice (each field at most once)");
        let e = parse(r#"{"": 1, "": 2}"#).unwrap_err();
        assert_eq!(e.as_str(), r#""": given twice (each field at most once)"#);
        // The same key in two objects is fine, and so are many keys.
        let many: Vec<String> = (0..100).map(|i| format!("\"k{i}\": {i}")).collect();
        assert!(parse(&format!("{{{}}}", many.join(","))).is_ok());
        let e = parse(&format!("{{{}, \"k7\": 0}}", many.join(","))).unwrap_err();
        assert_eq!(e.as_str(), "k7: given twice (each field at most once)");
        // serde_json's own messages are kept.
        assert_eq!(
            parse("[1,]").unwrap_err().as_str(),
            "invalid JSON: trailing comma at line 1 column 4"
        );
    }
}

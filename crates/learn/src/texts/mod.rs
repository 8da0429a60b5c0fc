//! The learning texts (lessons, the chooser, the quiz, the translator's notes) in
//! English and Vietnamese, as plain data files: `en.txt` and `vi.txt`.
//!
//! The format is one entry per line, `key = text`; blank lines and lines starting
//! with `#` are skipped. A text may hold slots, `{name}`, which a lesson fills with
//! numbers the engine computed ([`render`]); a text never types a result in itself
//! (a test checks that the "proved" texts hold no digit outside a slot).
//!
//! Why data files rather than Rust strings: the page can load a language's texts when
//! it is first needed instead of carrying both in its wasm, and the two files are
//! checked against each other (same keys, same slots) by the tests.

use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A language of the texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// English.
    En,
    /// Vietnamese.
    Vi,
}

impl Lang {
    /// Both, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Vi];

    /// `en` or `vi` (as in URLs and `<html lang>`).
    pub fn id(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Vi => "vi",
        }
    }

    /// Parses `en` / `vi`.
    pub fn from_id(id: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.id() == id)
    }

    /// The decimal separator numbers are written with: `.` in English, `,` in
    /// Vietnamese (as Vietnamese texts write 9,8 s).
    pub fn decimal(self) -> char {
        match self {
            Lang::En => '.',
            Lang::Vi => ',',
        }
    }

    /// This language's texts, as built into the crate.
    pub fn texts(self) -> &'static Texts {
        static EN: OnceLock<Texts> = OnceLock::new();
        static VI: OnceLock<Texts> = OnceLock::new();
        let (cell, source) = match self {
            Lang::En => (&EN, include_str!("en.txt")),
            Lang::Vi => (&VI, include_str!("vi.txt")),
        };
        // The built-in files are checked by the tests; a broken one yields no texts
        // (every lookup then reports the missing key) rather than a panic.
        cell.get_or_init(|| Texts::parse(source).unwrap_or_default())
    }
}

/// One language's texts: key → text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Texts {
    map: BTreeMap<String, String>,
}

impl Texts {
    /// Parses the `key = text` format. Errors name the line: `line 12: ...`.
    pub fn parse(source: &str) -> Result<Texts, String> {
        let mut map = BTreeMap::new();
        for (i, raw) in source.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((key, text)) = line.split_once(" = ") else {
                return Err(format!("line {}: expected `key = text`", i + 1));
            };
            let key = key.trim();
            if key.is_empty() || key.contains(char::is_whitespace) {
                return Err(format!("line {}: a key is one word", i + 1));
            }
            if map
                .insert(key.to_string(), text.trim().to_string())
                .is_some()
            {
                return Err(format!("line {}: {key} is defined twice", i + 1));
            }
        }
        Ok(Texts { map })
    }

    /// The text under `key`, if any.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.map.get(key).map(String::as_str)
    }

    /// The text under `key`, or the key itself in brackets (`[lesson.x.title]`) so
    /// that a missing text shows as what is missing rather than as nothing.
    pub fn or_key(&self, key: &str) -> String {
        self.get(key)
            .map_or_else(|| format!("[{key}]"), str::to_string)
    }

    /// Every key, sorted.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(String::as_str)
    }
}

/// The slot names in a text: `{a} and {b}` → `["a", "b"]`.
pub fn slots(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        out.push(&after[..close]);
        rest = &after[close + 1..];
    }
    out
}

/// Fills every `{name}` of `template` with `value(name)`. A slot nobody can fill is
/// an error naming it (the tests make sure the built-in texts have none).
pub fn render(template: &str, value: impl FnMut(&str) -> Option<String>) -> Result<String, String> {
    Ok(parts(template, value)?
        .into_iter()
        .map(|p| match p {
            Part::Words(w) => w,
            Part::Value { text, .. } => text,
        })
        .collect())
}

/// A piece of a filled text: words, or a slot's value (which the page marks, so
/// that a reader and a test can tell the engine's numbers from the words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Words of the text.
    Words(String),
    /// A slot and its value.
    Value {
        /// The slot's name.
        name: String,
        /// Its value as written.
        text: String,
    },
}

/// [`render`], but in pieces: the words between the slots and each slot's value.
pub fn parts(
    template: &str,
    mut value: impl FnMut(&str) -> Option<String>,
) -> Result<Vec<Part>, String> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            out.push(Part::Words(rest[..open].to_string()));
        }
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| "a `{` without its `}`".to_string())?;
        let name = &after[..close];
        let text = value(name).ok_or_else(|| format!("no value for {{{name}}}"))?;
        out.push(Part::Value {
            name: name.to_string(),
            text,
        });
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        out.push(Part::Words(rest.to_string()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_split_words_from_values() {
        let p = parts("a {n} b", |_| Some("5".into())).unwrap();
        assert_eq!(
            p,
            [
                Part::Words("a ".into()),
                Part::Value {
                    name: "n".into(),
                    text: "5".into()
                },
                Part::Words(" b".into())
            ]
        );
    }

    #[test]
    fn parses_and_renders() {
        let t = Texts::parse("# c\n\na.b = x {n} y\n").unwrap();
        assert_eq!(t.get("a.b"), Some("x {n} y"));
        assert_eq!(slots("x {n} y {m}"), ["n", "m"]);
        let r = render("x {n} y", |n| (n == "n").then(|| "5".to_string())).unwrap();
        assert_eq!(r, "x 5 y");
        assert_eq!(render("{zz}", |_| None).unwrap_err(), "no value for {zz}");
        assert_eq!(
            Texts::parse("a = 1\na = 2").unwrap_err(),
            "line 2: a is defined twice"
        );
        assert_eq!(
            Texts::parse("nope").unwrap_err(),
            "line 1: expected `key = text`"
        );
    }

    #[test]
    fn both_languages_have_the_same_keys_and_slots() {
        let en = Texts::parse(include_str!("en.txt")).unwrap();
        let vi = Texts::parse(include_str!("vi.txt")).unwrap();
        let ek: Vec<&str> = en.keys().collect();
        let vk: Vec<&str> = vi.keys().collect();
        let missing_vi: Vec<&&str> = ek.iter().filter(|k| !vk.contains(k)).collect();
        let missing_en: Vec<&&str> = vk.iter().filter(|k| !ek.contains(k)).collect();
        assert!(missing_vi.is_empty(), "not in vi.txt: {missing_vi:?}");
        assert!(missing_en.is_empty(), "not in en.txt: {missing_en:?}");
        for k in ek {
            let mut a = slots(en.get(k).unwrap_or_default());
            let mut b = slots(vi.get(k).unwrap_or_default());
            a.sort_unstable();
            b.sort_unstable();
            a.dedup();
            b.dedup();
            assert_eq!(a, b, "{k}: the two languages use different slots");
        }
    }
}

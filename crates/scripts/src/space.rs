//! Where a limiter's state lives: `<prefix>:{<lane>:<key>}`.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write as _;

use crate::ScriptError;

/// The prefix when none is given: the project and the layout's version, so that
/// keys of another layout are never read as this one's. v2 keeps each limiter's
/// state as a tag letter and little-endian doubles (v1 kept text such as `12:3`).
pub const DEFAULT_PREFIX: &str = "ratelab:v2";

/// The namespace of a deployment's keys.
///
/// A limiter key is `<prefix>:{<lane>:<key>}`: the lane (which limiter) and the key
/// (which client) inside braces, the hash tag, so that Redis Cluster puts all of a
/// limiter key's Redis keys (the sliding log has two) in one slot and a script can
/// touch them together, while different clients spread over the cluster. The lane
/// and the key are written with `%`, `:`, `{`, `}`, spaces and control characters
/// percent-encoded, so no two (lane, key) pairs share a name and the hash tag is
/// always the braces written here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeySpace {
    prefix: String,
}

impl Default for KeySpace {
    fn default() -> KeySpace {
        KeySpace {
            prefix: DEFAULT_PREFIX.into(),
        }
    }
}

impl KeySpace {
    /// A namespace under `prefix`: 1 to 64 characters, no braces (they would move the
    /// hash tag), no spaces or control characters.
    pub fn new(prefix: &str) -> Result<KeySpace, ScriptError> {
        let why = if prefix.is_empty() {
            Some("must not be empty")
        } else if prefix.chars().count() > 64 {
            Some("is longer than 64 characters")
        } else if prefix.contains(['{', '}']) {
            Some("must not contain { or } (they would move the cluster hash tag)")
        } else if prefix.chars().any(|c| c.is_whitespace() || c.is_control()) {
            Some("must not contain spaces or control characters")
        } else {
            None
        };
        match why {
            Some(why) => Err(ScriptError::Prefix {
                prefix: prefix.into(),
                why,
            }),
            None => Ok(KeySpace {
                prefix: prefix.into(),
            }),
        }
    }

    /// The prefix.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The main Redis key of `lane`'s limiter for `key`.
    pub fn key(&self, lane: &str, key: &str) -> String {
        let mut out = String::with_capacity(self.prefix.len() + lane.len() + key.len() + 4);
        out.push_str(&self.prefix);
        out.push_str(":{");
        escape_into(&mut out, lane);
        out.push(':');
        escape_into(&mut out, key);
        out.push('}');
        out
    }

    /// A `SCAN MATCH` pattern for every key under the prefix (glob characters in
    /// the prefix escaped).
    pub fn pattern(&self) -> String {
        let mut out = String::with_capacity(self.prefix.len() + 3);
        for c in self.prefix.chars() {
            if matches!(c, '*' | '?' | '[' | ']' | '\\') {
                out.push('\\');
            }
            out.push(c);
        }
        out.push_str(":*");
        out
    }
}

fn escape_into(out: &mut String, s: &str) {
    for c in s.chars() {
        if matches!(c, '%' | ':' | '{' | '}') || c.is_whitespace() || c.is_control() {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                let _ = write!(out, "%{b:02X}");
            }
        } else {
            out.push(c);
        }
    }
}

/// The Redis keys of a limiter key: its main key, and for the sliding log the
/// count beside it (`<main>:n`).
pub(crate) fn keys_of(space: &KeySpace, lane: &str, key: &str, two: bool) -> Vec<String> {
    let main = space.key(lane, key);
    if two {
        let count = alloc::format!("{main}:n");
        alloc::vec![main, count]
    } else {
        alloc::vec![main]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unambiguous_and_tagged() {
        let s = KeySpace::default();
        assert_eq!(s.key("gcra", "alice"), "ratelab:v2:{gcra:alice}");
        assert_ne!(s.key("a:b", "c"), s.key("a", "b:c"));
        assert_eq!(s.key("a:b", "c"), "ratelab:v2:{a%3Ab:c}");
        assert_eq!(s.key("x", "{}% \n"), "ratelab:v2:{x:%7B%7D%25%20%0A}");
        assert_eq!(s.key("x", "é"), "ratelab:v2:{x:é}");
        assert_eq!(s.key("x", ""), "ratelab:v2:{x:}");
        assert!(KeySpace::new("a{b").is_err());
        assert!(KeySpace::new("").is_err());
        assert!(KeySpace::new("has space").is_err());
        assert_eq!(KeySpace::new("t*[1]").unwrap().pattern(), "t\\*\\[1\\]:*");
    }
}

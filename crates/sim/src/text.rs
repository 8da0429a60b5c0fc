//! Text from a person, made safe to echo: every face that shows input back (error
//! lines, link notices, the command line's tables and traces, the page) passes it
//! through [`sanitize`] first.
//!
//! Two things are neutralised, each written as a visible escape:
//! - **control characters** (C0, DEL, C1) and the Unicode line and paragraph
//!   separators: a key holding `ESC ] 0 ; title BEL` would set a terminal's title, a
//!   `\n` would split a table row or an error line in two. Written as Rust escapes
//!   (`\n`, `\t`, `\u{1b}`).
//! - **bidirectional formatting** (U+202A–U+202E embeddings and overrides, U+2066–
//!   U+2069 isolates, U+200E/U+200F/U+061C marks): a U+202E in a link would reverse
//!   the rest of the notice line it is quoted in. Written as `\u{202e}`.
//!
//! Everything else (letters of any script, emoji, combining marks) is left alone.

use std::borrow::Cow;
use std::fmt::Write;

#[cfg(doc)]
use ratelab_core::Explanation;
use ratelab_core::{Field, Value};

/// Whether `c` must not be echoed as itself.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' // line and paragraph separators
                | '\u{061c}' | '\u{200e}' | '\u{200f}' // bidi marks
                | '\u{202a}'..='\u{202e}' // embeddings, overrides
                | '\u{2066}'..='\u{2069}' // isolates
        )
}

/// `text` with every character of [`is_unsafe`] written as an escape (`\n`,
/// `\u{202e}`); borrowed when there is none (the common case).
pub fn sanitize(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    push_sanitized(&mut out, text);
    Cow::Owned(out)
}

/// Appends `text` to `out`, sanitised.
pub fn push_sanitized(out: &mut String, text: &str) {
    for c in text.chars() {
        if !is_unsafe(c) {
            out.push(c);
        } else if c.is_control() {
            // `\n`, `\t`, `\r`, `\0`, `\u{1b}`: what a programmer reads.
            out.extend(c.escape_debug());
        } else {
            out.extend(c.escape_unicode());
        }
    }
}

/// `text` sanitised and cut to at most `max` characters of the input (then `…`):
/// how a value is quoted back in a message.
pub fn shorten(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        let mut buf = [0u8; 4];
        push_sanitized(&mut out, c.encode_utf8(&mut buf));
    }
    out
}

/// State fields as `name = value, ...` (as [`Explanation::fields`] writes them), with
/// a long sliding log cut to its first `head` and last `tail` entries and a count of
/// the rest: `log = [2 s, 7 s, 8 s, … 95 more, 19.5 s, 20 s]`. A trace row of a log of
/// a million entries stays one short line.
pub fn fields(fields: &[Field], head: usize, tail: usize) -> String {
    fields_in(fields, head, tail, "more")
}

/// [`fields`] with the count of the cut entries followed by `more`, the words of
/// the reader's language (`… 95 more`, `… 95 mục nữa`).
pub fn fields_in(fields: &[Field], head: usize, tail: usize, more: &str) -> String {
    let mut out = String::new();
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(f.name);
        out.push_str(" = ");
        match &f.value {
            Value::Log(entries) if entries.len() > head + tail + 1 => {
                let shown = |part: &[_]| Value::Log(part.to_vec()).to_string();
                let first = shown(entries.get(..head).unwrap_or_default());
                let last = shown(entries.get(entries.len() - tail..).unwrap_or_default());
                // `[a, b]` and `[y, z]` around the count: `[a, b, … 95 more, y, z]`.
                out.push_str(first.trim_end_matches(']'));
                if head > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "… {} {more}", entries.len() - head - tail);
                if tail > 0 {
                    out.push_str(", ");
                    out.push_str(last.trim_start_matches('['));
                } else {
                    out.push(']');
                }
            }
            value => {
                let _ = write!(out, "{value}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratelab_core::Explanation;

    #[test]
    fn controls_and_bidi_become_escapes() {
        assert_eq!(sanitize("plain ü 漢字 🙂"), "plain ü 漢字 🙂");
        assert!(matches!(sanitize("plain"), Cow::Borrowed(_)));
        assert_eq!(sanitize("a\nb\tc\r"), "a\\nb\\tc\\r");
        assert_eq!(sanitize("\u{1b}]0;owned\u{7}"), "\\u{1b}]0;owned\\u{7}");
        assert_eq!(sanitize("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(
            sanitize("\u{2066}x\u{2069}\u{200f}"),
            "\\u{2066}x\\u{2069}\\u{200f}"
        );
        assert_eq!(sanitize("\u{85}\u{2028}"), "\\u{85}\\u{2028}");
        assert_eq!(sanitize("\u{7f}"), "\\u{7f}");
    }

    #[test]
    fn long_logs_are_cut_with_a_count() {
        use ratelab_core::Ms;
        let log = |n: u64| Value::Log((1..=n).map(|i| (Ms::from_ms(i * 500), 1)).collect());
        let f = [
            Field::new("log", log(100)),
            Field::new("len", Value::Count(3)),
        ];
        assert_eq!(
            fields(&f, 3, 2),
            "log = [0.5, 1, 1.5, … 95 more, 49.5, 50], len = 3"
        );
        let short = [Field::new("log", log(6))];
        assert_eq!(fields(&short, 3, 2), "log = [0.5, 1, 1.5, 2, 2.5, 3]");
        assert_eq!(fields(&short, 3, 2), Explanation::fields(&short));
        assert_eq!(
            fields(&[Field::new("log", log(9))], 0, 0),
            "log = [… 9 more]"
        );
    }

    #[test]
    fn shortening_counts_input_characters() {
        assert_eq!(shorten("abcdef", 3), "abc…");
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(shorten("a\u{202e}b", 2), "a\\u{202e}…");
    }
}

//! SVG (and the lessons panel's HTML) markup that is escaped by construction.
//!
//! [`Svg`] and [`Html`] are the only markup the page sets as `innerHTML`, and only
//! the [`Writer`] below makes them: element and attribute names are `&'static str`
//! written in this crate's code, and every value and every text goes through
//! [`escape`] as it is written. There is no way to turn a `String` into an `Svg`,
//! so text from a person (a request's key, a message quoting a link) can only ever
//! become text.

use std::fmt::Write as _;
use std::sync::Arc;

/// A piece of SVG markup made by [`Writer`]. Cheap to clone (shared).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Svg(Arc<str>);

impl Svg {
    /// The markup, for an element's `inner_html`.
    pub fn markup(&self) -> Arc<str> {
        self.0.clone()
    }

    /// The markup as text (for tests).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A piece of HTML made by [`Writer`] (the lessons panel's texts and lists, see
/// [`crate::draw::lesson`]). Cheap to clone (shared).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Html(Arc<str>);

impl Html {
    /// The markup, for an element's `inner_html`.
    pub fn markup(&self) -> Arc<str> {
        self.0.clone()
    }

    /// The markup as text (for tests).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A value written into an attribute: numbers as they are, text escaped.
pub(in crate::draw) trait AttrValue {
    fn write_to(&self, out: &mut String);
}

impl AttrValue for i64 {
    fn write_to(&self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

impl AttrValue for i32 {
    fn write_to(&self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

impl AttrValue for u64 {
    fn write_to(&self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

/// A number of half px, written as px (`7` is `3.5`): the one fractional value the
/// drawings write, without float formatting (its code would stay in the first
/// module for this alone).
pub(in crate::draw) struct Halves(pub i64);

impl AttrValue for Halves {
    fn write_to(&self, out: &mut String) {
        let n = self.0;
        if n < 0 {
            out.push('-');
        }
        let m = n.unsigned_abs();
        let _ = write!(out, "{}", m / 2);
        if m % 2 == 1 {
            out.push_str(".5");
        }
    }
}

impl AttrValue for &str {
    fn write_to(&self, out: &mut String) {
        escape(self, out);
    }
}

/// Writes markup. Used only by the drawing module.
pub(in crate::draw) struct Writer {
    out: String,
}

/// An element being written: attributes, then [`Open::end`], [`Open::text`] or
/// [`Open::children`].
pub(in crate::draw) struct Open<'a> {
    w: &'a mut Writer,
    tag: &'static str,
}

impl Writer {
    /// A writer with room for `bytes`.
    pub fn with_capacity(bytes: usize) -> Writer {
        Writer {
            out: String::with_capacity(bytes),
        }
    }

    /// Starts element `tag`.
    pub fn el(&mut self, tag: &'static str) -> Open<'_> {
        self.out.push('<');
        self.out.push_str(tag);
        Open { w: self, tag }
    }

    /// The markup written.
    pub fn finish(self) -> Svg {
        Svg(self.out.into())
    }

    /// The markup written, as HTML (only elements ended with [`Open::text`],
    /// [`Open::children`] or, for a void element, [`Open::void`]: HTML has no `/>`).
    pub fn finish_html(self) -> Html {
        Html(self.out.into())
    }

    /// Text (escaped) between elements.
    pub fn text(&mut self, text: &str) {
        escape(text, &mut self.out);
    }
}

impl Open<'_> {
    /// An attribute, its value escaped.
    pub fn attr(self, name: &'static str, value: impl AttrValue) -> Self {
        let out = &mut self.w.out;
        out.push(' ');
        out.push_str(name);
        out.push_str("=\"");
        value.write_to(out);
        out.push('"');
        self
    }

    /// Ends the element with no content.
    pub fn end(self) {
        self.w.out.push_str("/>");
    }

    /// Ends an HTML void element (`input`), which has no content and no end tag.
    pub fn void(self) {
        self.w.out.push('>');
    }

    /// Ends the element with `text` (escaped) as its content.
    pub fn text(self, text: &str) {
        let out = &mut self.w.out;
        out.push('>');
        escape(text, out);
        close(out, self.tag);
    }

    /// Ends the element with the children `f` writes.
    pub fn children(self, f: impl FnOnce(&mut Writer)) {
        self.w.out.push('>');
        f(self.w);
        close(&mut self.w.out, self.tag);
    }
}

fn close(out: &mut String, tag: &str) {
    out.push_str("</");
    out.push_str(tag);
    out.push('>');
}

/// Escapes text for element content and attribute values.
fn escape(s: &str, out: &mut String) {
    // The runs between the five characters are copied whole: most values (numbers,
    // a strip's thousand points) have none of them, and a push per character was a
    // tenth of drawing a lane. They are ASCII, so where one is is a char boundary.
    let mut from = 0;
    for (i, b) in s.bytes().enumerate() {
        let entity = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        out.push_str(s.get(from..i).unwrap_or_default());
        out.push_str(entity);
        from = i + 1;
    }
    out.push_str(s.get(from..).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_text_are_escaped() {
        let mut w = Writer::with_capacity(64);
        w.el("g").attr("class", r#"a" onload="x"#).children(|w| {
            w.el("text").attr("x", 3i64).text("<script>&'");
            w.el("rect").attr("width", 7u64).end();
        });
        assert_eq!(
            w.finish().as_str(),
            r#"<g class="a&quot; onload=&quot;x"><text x="3">&lt;script&gt;&amp;&#39;</text><rect width="7"/></g>"#
        );
    }

    #[test]
    fn text_around_the_five_characters_is_kept_whole() {
        for (text, escaped) in [
            ("", ""),
            ("plain", "plain"),
            ("<", "&lt;"),
            ("giới hạn<ả>&\"tệp'", "giới hạn&lt;ả&gt;&amp;&quot;tệp&#39;"),
            ("&&x&", "&amp;&amp;x&amp;"),
            ("🚦<🚦", "🚦&lt;🚦"),
        ] {
            let mut out = String::new();
            escape(text, &mut out);
            assert_eq!(out, escaped);
        }
    }
}

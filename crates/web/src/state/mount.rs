//! How a playground is mounted: its options (a link's pairs, `compact`, the
//! theme) and the zoom and moment rules the link and the page share.

use ratelab_sim::share::{self, Link, Notice};

use crate::learn::{self, OpenLesson};

/// An embed's colours (`theme=`; the page itself follows the OS).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// The host page's `color-scheme`, or the OS's preference if it declares none.
    #[default]
    Auto,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl Theme {
    /// The value of `theme=` (`light`, `dark`, `auto`), or `None` for anything else.
    pub fn parse(value: &str) -> Option<Theme> {
        match value {
            "auto" | "" => Some(Theme::Auto),
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }
}

/// How a playground is mounted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MountOptions {
    /// Inside another page (custom element, iframe, JS `mount`): no global keyboard
    /// handlers (keys work when the playground has focus), no URL writes.
    pub embed: bool,
    /// The compact variant: the clock and the lanes, each one line over its timeline
    /// with its other parts behind a disclosure (docs/embedding.md).
    pub compact: bool,
    /// The colours: forced light or dark, or the host's.
    pub theme: Theme,
    /// The setup and view to open, from [`share::parse`].
    pub link: Link,
    /// What the parser ignored, shown once.
    pub notices: Vec<Notice>,
    /// The lesson step the link names (the page only: see [`crate::learn`]).
    pub lesson: Option<OpenLesson>,
    /// Whether to open that step's own setup and play to its moment.
    pub play_lesson: bool,
    /// Whether the link (`t=`) or the element (`at`) names the moment to open at;
    /// if not, a stream that starts late opens just before its first request
    /// ([`crate::model::Sim::opening`]).
    pub moment: bool,
    /// Play from the opening moment at once (the element's `autoplay`).
    pub autoplay: bool,
}

/// A link's zoom exponent ([`share::parse_zoom`]) as the page's level.
pub fn zoom_level(exp: i8) -> u32 {
    (i64::from(crate::model::ONE_X) + i64::from(exp)).clamp(0, i64::from(crate::model::MAX_ZOOM))
        as u32
}

/// The page's zoom level as a link's exponent.
pub fn zoom_exp(level: u32) -> i8 {
    (i64::from(level) - i64::from(crate::model::ONE_X)).clamp(
        i64::from(share::MIN_ZOOM_EXP),
        i64::from(share::MAX_ZOOM_EXP),
    ) as i8
}

/// Whether `pairs` (a link's or an element's, values still percent-encoded) name
/// the moment: a `t` or `at` whose value is a duration.
pub fn names_moment(pairs: &[(String, String)]) -> bool {
    pairs
        .iter()
        .any(|(k, v)| (k == "t" || k == "at") && share::parse_duration(&share::decode(v)).is_ok())
}

impl MountOptions {
    /// The full page from a query string (`location.search`).
    pub fn page(query: &str) -> MountOptions {
        let lessons = learn::from_query(query);
        let (link, mut notices) = share::parse_pairs(&lessons.rest);
        notices.extend(lessons.notices);
        MountOptions {
            embed: false,
            compact: false,
            theme: Theme::Auto,
            link,
            notices,
            moment: names_moment(&lessons.rest),
            autoplay: false,
            lesson: lessons.open,
            play_lesson: lessons.play,
        }
    }
}

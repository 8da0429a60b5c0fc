//! The page's words, in English and Vietnamese.
//!
//! Each part of the page has its own file here with one struct of `&'static str`
//! fields and one [`Tr`] value holding that struct in every language. `Tr` is a
//! struct literal with a field per language, so a text left out in one language, or
//! a language added without its texts, is a compile error, never a silent fallback.
//! A new panel adds its own file (and one `pub mod` line below).
//!
//! Components read a text with [`crate::view::text`], which follows the page's
//! language reactively.

pub mod algorithms;
pub mod budget;
pub mod chunks;
pub mod common;
pub mod controls;
pub mod errors;
pub mod json;
pub mod lanes;
pub mod learn;
pub mod page;
pub mod production;
pub mod scenarios;
pub mod service;
pub mod setup;
pub mod sweep;
pub mod trace;
pub mod yardstick;

/// A language of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Tiếng Việt.
    Vi,
}

impl Lang {
    /// Every language, in the order the switch lists them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Vi];

    /// The code in URLs (`lang=vi`) and `lang` attributes.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Vi => "vi",
        }
    }

    /// The language's own name, for the switch.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Vi => "Tiếng Việt",
        }
    }

    /// From a code; English for anything else (the link parser has already said
    /// so with a notice).
    pub fn from_code(code: &str) -> Lang {
        Lang::ALL
            .into_iter()
            .find(|l| l.code() == code)
            .unwrap_or_default()
    }
}

/// The same text (or struct of texts) in every language.
#[derive(Debug)]
pub struct Tr<T: 'static> {
    /// English.
    pub en: T,
    /// Tiếng Việt.
    pub vi: T,
}

impl<T> Tr<T> {
    /// The text in `lang`.
    pub const fn get(&self, lang: Lang) -> &T {
        match lang {
            Lang::En => &self.en,
            Lang::Vi => &self.vi,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for l in Lang::ALL {
            assert_eq!(Lang::from_code(l.code()), l);
        }
        assert_eq!(Lang::from_code("fr"), Lang::En);
        // The link parser and the page agree on the languages.
        assert_eq!(
            Lang::ALL.map(Lang::code),
            ratelab_sim::share::LANGS,
            "share::LANGS and texts::Lang list different languages"
        );
    }
}

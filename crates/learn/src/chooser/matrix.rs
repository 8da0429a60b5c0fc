//! The decision matrix and the "what fits" tables (goals, situations).

use ratelab_core::Algorithm::{self, *};

/// The decision matrix's rows (texts: `choose.matrix.<row>` and
/// `choose.matrix.<row>.<column>`).
pub const MATRIX_ROWS: &[&str] = &["accuracy", "memory", "redis", "burst", "users"];

/// Its columns, each with the limiters it stands for (texts:
/// `choose.matrix.col.<column>`).
pub const MATRIX_COLUMNS: &[(&str, &[Algorithm])] = &[
    ("fixed", &[FixedWindow, FixedWindowAnchored]),
    ("log", &[SlidingLog]),
    ("counter", &[SlidingWindowCounter]),
    ("bucket", &[TokenBucket, Gcra]),
    ("queue", &[LeakyQueue]),
];

/// A row of a "what fits" table: a goal or a situation, and the picks that fit it
/// (texts: `choose.<table>.<id>` and, for situations, `.why`).
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// Its id.
    pub id: &'static str,
    /// The picks that fit, by id, the first the usual one.
    pub picks: &'static [&'static str],
}

/// The words a face needs around the chooser (texts: `choose.word.<id>`): the
/// prompt, the nudge after an answer that is no choice, the labels of a pick's
/// parameters, its lesson step and the other limiters of the pick, and the note
/// when the answers run out.
pub const WORDS: &[&str] = &[
    "answer",
    "again",
    "params",
    "proved",
    "step",
    "also",
    "unfinished",
];

/// The short article's quick comparison: goal → limiter (texts: `choose.goal.<id>`).
pub const GOALS: &[Fit] = &[
    Fit {
        id: "burst",
        picks: &["bucket"],
    },
    Fit {
        id: "shape",
        picks: &["queue"],
    },
    Fit {
        id: "strict",
        picks: &["log", "counter"],
    },
    Fit {
        id: "quota",
        picks: &["fixed"],
    },
];

/// The demo article's table: situation → limiter, and why (texts:
/// `choose.situation.<id>`, `choose.situation.<id>.why`).
pub const SITUATIONS: &[Fit] = &[
    Fit {
        id: "ceiling",
        picks: &["log"],
    },
    Fit {
        id: "page",
        picks: &["bucket"],
    },
    Fit {
        id: "keys",
        picks: &["fixed"],
    },
    Fit {
        id: "login",
        picks: &["log"],
    },
];

//! ratelab's learning content, as data the command line and the page share: the
//! guided lessons ([`lesson`]) and every sentence they, the chooser and the quiz
//! say ([`texts`], `en.txt` and `vi.txt`), lab D judged by the article's method
//! ([`judge`]), real configs translated to a lane and back ([`translate`]), the
//! decision flowchart ([`chooser`]), the demo article's quiz ([`quiz`]) and a client
//! retrying after each rounding of Retry-After ([`conformance`]), and why Redis's
//! bytes per key differ from the article's, with a keys × bytes sum ([`memory`]).
//!
//! Every number it shows is computed by running the simulator (`ratelab-sim`); no
//! result is typed into a text. Nothing in the simulator depends on this crate, so a
//! face that teaches nothing (the page's first load) leaves it out.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod chooser;
pub mod conformance;
pub mod judge;
pub mod lesson;
pub mod memory;
pub mod quiz;
pub mod texts;
pub mod translate;

//! The lessons panel's words before its texts are there. The lessons' texts
//! (titles, what to watch, what they proved) and the rest of the panel's words
//! (`panel.*`) are `ratelab-learn`'s `en.txt` / `vi.txt`, which the page fetches
//! when it first needs a language (see [`crate::view::learn`]): words the first
//! module does not carry.

use super::Tr;

/// The lessons panel's words.
#[derive(Debug)]
#[allow(missing_docs)]
pub struct Learn {
    pub lessons: &'static str,
    /// The "Which limiter?" fold's title (`view/choose.rs`).
    pub chooser: &'static str,
    /// The quiz's fold title (`view/choose.rs`).
    pub quiz: &'static str,
    pub loading: &'static str,
    pub unavailable: &'static str,
}

/// The lessons panel's words in every language.
pub static LEARN: Tr<Learn> = Tr {
    en: Learn {
        lessons: "Lessons",
        chooser: "Which limiter?",
        quiz: "Check yourself: the quiz",
        loading: "Loading the lessons…",
        unavailable: "The lessons could not be loaded; the playground itself works. Reason:",
    },
    vi: Learn {
        lessons: "Bài học",
        chooser: "Chọn bộ giới hạn nào?",
        quiz: "Tự kiểm tra: câu đố",
        loading: "Đang tải bài học…",
        unavailable: "Không tải được bài học; bản thân sân chơi vẫn hoạt động. Lý do:",
    },
};

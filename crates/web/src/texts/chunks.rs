//! What a panel fetched on demand says while its chunk loads, and if it cannot.

use super::Tr;

/// A chunk's two moments.
#[derive(Debug)]
#[allow(missing_docs)]
pub struct ChunkTexts {
    pub loading: &'static str,
    pub failed: &'static str,
}

/// The words in every language.
pub static CHUNKS: Tr<ChunkTexts> = Tr {
    en: ChunkTexts {
        loading: "Loading this part of the playground…",
        failed: "This part of the playground could not be loaded (offline, or blocked by the site); everything else keeps working. Reload the page to try again.",
    },
    vi: ChunkTexts {
        loading: "Đang tải phần này của playground…",
        failed: "Không tải được phần này của playground (mất mạng, hoặc trang chặn); mọi phần khác vẫn chạy. Hãy tải lại trang để thử lại.",
    },
};

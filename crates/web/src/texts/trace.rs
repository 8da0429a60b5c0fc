//! The trace table.

use super::Tr;

/// The trace table's words.
#[derive(Debug)]
#[allow(missing_docs)]
pub struct TraceTexts {
    pub trace: &'static str,
    pub no_request: &'static str,
    pub key: &'static str,
    pub lane: &'static str,
    pub before: &'static str,
    pub steps: &'static str,
    pub test: &'static str,
    pub verdict: &'static str,
    pub after: &'static str,
    pub more: &'static str,
}

/// The trace table's words in every language.
pub static TRACE: Tr<TraceTexts> = Tr {
    en: TraceTexts {
        trace: "Why? The selected request, limiter by limiter",
        no_request: "No request has arrived yet.",
        key: "key",
        lane: "Limiter",
        before: "before",
        steps: "updates",
        test: "test",
        verdict: "verdict",
        after: "after",
        more: "more",
    },
    vi: TraceTexts {
        trace: "Vì sao? Yêu cầu đang chọn, qua từng bộ giới hạn",
        no_request: "Chưa có yêu cầu nào đến.",
        key: "khóa",
        lane: "Bộ giới hạn",
        before: "trước",
        steps: "cập nhật",
        test: "phép thử",
        verdict: "kết luận",
        after: "sau",
        more: "mục nữa",
    },
};

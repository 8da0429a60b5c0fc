//! Lab D's sweep.

use super::Tr;

/// The sweep's words.
#[derive(Debug)]
#[allow(missing_docs)]
pub struct SweepTexts {
    pub sweep: &'static str,
    pub run: &'static str,
    pub running: &'static str,
    pub load: &'static str,
    pub requests: &'static str,
    pub wrong_allows: &'static str,
    pub wrong_blocks: &'static str,
    pub took: &'static str,
}

/// The sweep's words in every language.
pub static SWEEP: Tr<SweepTexts> = Tr {
    en: SweepTexts {
        sweep: "Lab D sweep: the estimate against the exact log",
        run: "Run the sweep (300 clients × 10 min × 6 loads)",
        running: "Running…",
        load: "load",
        requests: "requests",
        wrong_allows: "wrong allows",
        wrong_blocks: "wrong blocks",
        took: "computed in your browser in",
    },
    vi: SweepTexts {
        sweep: "Lab D: ước lượng so với nhật ký chính xác",
        run: "Chạy thử (300 client × 10 phút × 6 mức tải)",
        running: "Đang chạy…",
        load: "mức tải",
        requests: "yêu cầu",
        wrong_allows: "cho qua sai",
        wrong_blocks: "chặn sai",
        took: "tính ngay trong trình duyệt, mất",
    },
};

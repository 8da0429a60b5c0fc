//! The yardstick table.

use super::Tr;

/// The yardstick table's words.
#[derive(Debug)]
#[allow(missing_docs)]
pub struct YardstickTexts {
    pub yardstick: &'static str,
    pub lane: &'static str,
    pub passed: &'static str,
    pub blocked: &'static str,
    pub max_in: &'static str,
    pub max_in_1s: &'static str,
    pub longest_wait: &'static str,
    pub state_per_key: &'static str,
    pub numbers: &'static str,
    pub number: &'static str,
    pub by_departure: &'static str,
}

/// The yardstick table's words in every language.
pub static YARDSTICK: Tr<YardstickTexts> = Tr {
    en: YardstickTexts {
        yardstick: "The yardstick, so far",
        lane: "Limiter",
        passed: "passed",
        blocked: "blocked",
        max_in: "max in any",
        max_in_1s: "max in any 1 s",
        longest_wait: "longest wait",
        state_per_key: "state per key",
        numbers: "numbers",
        number: "number",
        by_departure: "by departure",
    },
    vi: YardstickTexts {
        yardstick: "Thước đo, tính đến lúc này",
        lane: "Bộ giới hạn",
        passed: "cho qua",
        blocked: "chặn",
        max_in: "tối đa trong mọi",
        max_in_1s: "tối đa trong mọi 1 s",
        longest_wait: "chờ lâu nhất",
        state_per_key: "trạng thái mỗi khóa",
        numbers: "con số",
        number: "con số",
        by_departure: "theo lúc đi ra",
    },
};

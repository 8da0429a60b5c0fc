//! The setup form: scenario, budget, lanes, the custom stream.

use super::Tr;

/// The setup form's words.
#[derive(Debug)]
#[allow(missing_docs)]
pub struct Setup {
    pub setup: &'static str,
    /// The folded form's summary.
    pub fold: &'static str,
    pub scenario: &'static str,
    pub budget: &'static str,
    /// Under the shared budget: what changing it does to the lanes.
    pub budget_hint: &'static str,
    pub limiters: &'static str,
    pub add_limiter: &'static str,
    pub remove: &'static str,
    pub custom_times: &'static str,
    pub custom_hint: &'static str,
    /// Instead of a stream too long for the box (`{n}` and `{max}` filled in).
    pub custom_too_many: &'static str,
    pub apply: &'static str,
}

/// The setup form's words in every language.
pub static SETUP: Tr<Setup> = Tr {
    en: Setup {
        setup: "Setup",
        fold: "Setup: the scenario, its limiters, the requests",
        scenario: "Scenario",
        budget: "Everyone's budget",
        budget_hint: "Sets every limiter's N and W below, over their own.",
        limiters: "Limiters",
        add_limiter: "Add a limiter",
        remove: "Remove",
        custom_times: "Request times",
        custom_hint: "Comma or space separated: 2s 7s 8.5s, or ms (2000); t:key:cost for more",
        custom_too_many: "{n} requests imported; too many to edit here (at most {max}): type a new stream to replace them, or export them as JSON below",
        apply: "Apply",
    },
    vi: Setup {
        setup: "Thiết lập",
        fold: "Thiết lập: kịch bản, các bộ giới hạn, các request",
        scenario: "Kịch bản",
        budget: "Hạn mức chung",
        budget_hint: "Đặt N và W cho mọi bộ giới hạn bên dưới, thay giá trị riêng.",
        limiters: "Bộ giới hạn",
        add_limiter: "Thêm bộ giới hạn",
        remove: "Bỏ",
        custom_times: "Thời điểm các yêu cầu",
        custom_hint: "Cách nhau bằng dấu phẩy hoặc khoảng trắng: 2s 7s 8.5s, hoặc ms (2000); t:khóa:chi phí nếu cần",
        custom_too_many: "Đã nhập {n} yêu cầu; quá nhiều để sửa ở đây (tối đa {max}): gõ một chuỗi mới để thay thế, hoặc xuất chúng thành JSON bên dưới",
        apply: "Áp dụng",
    },
};

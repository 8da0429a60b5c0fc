//! The masthead, the notices, the crash box.

use super::Tr;

/// The page's frame.
#[derive(Debug)]
#[allow(missing_docs)]
pub struct Page {
    pub title: &'static str,
    /// With `{limit}` and `{period}`: the first lane's ([`Page::tagline_for`]).
    pub tagline: &'static str,
    pub copy_link: &'static str,
    /// The clock bar's link button: a link to the view and to this place on the page.
    pub link_here: &'static str,
    pub link_copied: &'static str,
    pub shareable: &'static str,
    pub language: &'static str,
    pub notices: &'static str,
    pub notices_embed: &'static str,
    pub dismiss: &'static str,
    pub crash_title: &'static str,
    pub crash_reproduce: &'static str,
}

impl Page {
    /// The tagline for a limit of `limit` requests per `period` (the first
    /// lane's, so that lab B's page says "100 requests per 60 s").
    pub fn tagline_for(&self, limit: u64, period: &str) -> String {
        self.tagline
            .replace("{limit}", &limit.to_string())
            .replace("{period}", period)
    }
}

/// The page's frame in every language.
pub static PAGE: Tr<Page> = Tr {
    en: Page {
        title: "ratelab · a rate-limiting playground",
        copy_link: "Copy link",
        link_here: "Copy a link to this view, opening at this place on the page",
        link_copied: "Link copied",
        shareable: "The address holds the whole setup and the moment: share it to show what you see.",
        tagline: "“{limit} requests per {period}” means different things to different limiters. One stream of requests, several limiters side by side, every decision explained.",
        language: "Language",
        notices: "Some settings in the link were ignored",
        notices_embed: "Some of this playground's settings (its attributes or options) were ignored",
        dismiss: "Dismiss",
        crash_title: "ratelab stopped because of a bug",
        crash_reproduce: "This link reproduces the setup:",
    },
    vi: Page {
        title: "ratelab · sân chơi về giới hạn tần suất",
        copy_link: "Chép liên kết",
        link_here: "Chép liên kết tới khung nhìn này, mở ra đúng chỗ này trên trang",
        link_copied: "Đã chép liên kết",
        shareable: "Địa chỉ trang chứa toàn bộ thiết lập và thời điểm: gửi nó để người khác thấy đúng điều bạn thấy.",
        tagline: "“{limit} yêu cầu mỗi {period}” mang nghĩa khác nhau với mỗi bộ giới hạn. Một luồng yêu cầu, nhiều bộ giới hạn đặt cạnh nhau, mỗi quyết định đều được giải thích.",
        language: "Ngôn ngữ",
        notices: "Một số thiết lập trong liên kết đã bị bỏ qua",
        notices_embed: "Một số thiết lập của playground này (thuộc tính hoặc tùy chọn) đã bị bỏ qua",
        dismiss: "Đóng",
        crash_title: "ratelab đã dừng vì một lỗi",
        crash_reproduce: "Liên kết này tái hiện thiết lập:",
    },
};

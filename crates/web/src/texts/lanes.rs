//! The lanes: the legend, a lane's drawing and side panel, its "about" box.

use super::Tr;
use crate::model::Label;

/// The lanes' words.
#[derive(Debug)]
#[allow(missing_docs)]
pub struct LaneTexts {
    pub legend_allow: &'static str,
    pub legend_deny: &'static str,
    pub legend_delay: &'static str,
    pub legend_pending: &'static str,
    pub busiest: &'static str,
    pub dense: &'static str,
    pub response: &'static str,
    pub about: &'static str,
    pub promise: &'static str,
    pub fits: &'static str,
    pub misleads: &'static str,
    pub count: &'static str,
    pub in_log: &'static str,
    pub estimate: &'static str,
    pub tokens: &'static str,
    pub waiting: &'static str,
    pub excess: &'static str,
    pub window: &'static str,
    pub opened: &'static str,
    pub reset: &'static str,
    pub prev: &'static str,
    pub curr: &'static str,
    pub tat: &'static str,
    pub now_tau: &'static str,
    pub next_out: &'static str,
    pub over_time: &'static str,
}

impl LaneTexts {
    /// The words for a gauge's or a shape's label.
    pub fn label(&self, l: Label, common: &super::common::Common) -> &'static str {
        match l {
            Label::Count => self.count,
            Label::InLog => self.in_log,
            Label::Estimate => self.estimate,
            Label::Tokens => self.tokens,
            Label::Waiting => self.waiting,
            Label::Excess => self.excess,
            Label::Window => self.window,
            Label::Opened => self.opened,
            Label::Reset => self.reset,
            Label::Prev => self.prev,
            Label::Curr => self.curr,
            Label::Tat => self.tat,
            Label::NowTau => self.now_tau,
            Label::NextOut => self.next_out,
            Label::Limit => "N",
            Label::One => "1",
            Label::Capacity => common.capacity,
            Label::Burst => common.burst,
            Label::Delay => common.delay,
        }
    }
}

/// The lanes' words in every language.
pub static LANES: Tr<LaneTexts> = Tr {
    en: LaneTexts {
        legend_allow: "allowed",
        legend_deny: "denied",
        legend_delay: "delayed (line: wait until it leaves)",
        legend_pending: "not arrived yet",
        busiest: "busiest window",
        dense: "too many requests to draw one by one: columns count them",
        response: "What a request now would get",
        about: "About this limiter",
        promise: "Promises",
        fits: "Fits",
        misleads: "Misleads",
        count: "count",
        in_log: "in the log",
        estimate: "estimate",
        tokens: "tokens",
        waiting: "waiting",
        excess: "excess",
        window: "window",
        opened: "window opened by the first request",
        reset: "reset",
        prev: "previous window",
        curr: "current window",
        tat: "TAT",
        now_tau: "now + τ",
        next_out: "next departure",
        over_time: "the state for this key over time",
    },
    vi: LaneTexts {
        legend_allow: "cho qua",
        legend_deny: "từ chối",
        legend_delay: "bị hoãn (đường kẻ: chờ tới lúc đi ra)",
        legend_pending: "chưa đến",
        busiest: "cửa sổ đông nhất",
        dense: "quá nhiều yêu cầu để vẽ từng cái: các cột đếm chúng",
        response: "Một yêu cầu lúc này sẽ nhận được",
        about: "Về bộ giới hạn này",
        promise: "Lời hứa",
        fits: "Phù hợp",
        misleads: "Dễ gây hiểu lầm",
        count: "bộ đếm",
        in_log: "trong nhật ký",
        estimate: "ước lượng",
        tokens: "token",
        waiting: "đang chờ",
        excess: "phần dư",
        window: "cửa sổ",
        opened: "cửa sổ mở từ yêu cầu đầu tiên",
        reset: "đặt lại",
        prev: "cửa sổ trước",
        curr: "cửa sổ hiện tại",
        tat: "TAT",
        now_tau: "now + τ",
        next_out: "lần đi ra kế tiếp",
        over_time: "trạng thái của khóa này theo thời gian",
    },
};

//! The clock bar.

use super::Tr;

/// The clock bar's words.
#[derive(Debug)]
#[allow(missing_docs)]
pub struct Controls {
    pub play: &'static str,
    pub pause: &'static str,
    pub prev: &'static str,
    pub prev_short: &'static str,
    pub next: &'static str,
    pub next_short: &'static str,
    pub speed: &'static str,
    pub clock: &'static str,
    pub send: &'static str,
    pub highlight: &'static str,
    pub keys_hint: &'static str,
    pub zoom: &'static str,
    pub zoom_in: &'static str,
    pub zoom_out: &'static str,
    pub zoom_whole: &'static str,
    pub whole_at_1x: &'static str,
    pub whole_shown: &'static str,
}

/// The clock bar's words in every language.
pub static CONTROLS: Tr<Controls> = Tr {
    en: Controls {
        play: "Play",
        pause: "Pause",
        prev: "Previous request",
        prev_short: "← Prev",
        next: "Next request",
        next_short: "Next →",
        speed: "Speed",
        clock: "Virtual time",
        send: "Send a request",
        highlight: "Highlight each limiter's busiest window",
        keys_hint: "Keys: space play/pause, ← → step, R send (manual)",
        zoom: "Zoom the timelines",
        zoom_in: "Zoom in (a shorter stretch of time, following the clock)",
        zoom_out: "Zoom out (a longer stretch of time, up to the whole run)",
        zoom_whole: "whole run",
        whole_at_1x: "1× already shows the whole run: there is nothing more to zoom out to",
        whole_shown: "The whole run is shown",
    },
    vi: Controls {
        play: "Chạy",
        pause: "Dừng",
        prev: "Yêu cầu trước",
        prev_short: "← Trước",
        next: "Yêu cầu sau",
        next_short: "Sau →",
        speed: "Tốc độ",
        clock: "Thời gian ảo",
        send: "Gửi một yêu cầu",
        highlight: "Tô sáng cửa sổ đông nhất của mỗi bộ giới hạn",
        keys_hint: "Phím: space chạy/dừng, ← → từng bước, R gửi (thủ công)",
        zoom: "Phóng to dòng thời gian",
        zoom_in: "Phóng to (một đoạn thời gian ngắn hơn, đi theo đồng hồ)",
        zoom_out: "Thu nhỏ (một đoạn thời gian dài hơn, đến cả lượt chạy)",
        zoom_whole: "toàn bộ",
        whole_at_1x: "1× đã hiện cả lượt chạy: không còn gì để thu nhỏ thêm",
        whole_shown: "Đang hiện cả lượt chạy",
    },
};

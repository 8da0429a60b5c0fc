//! The page's words in English and Vietnamese: one struct of `&'static str` per
//! language, so a missing translation is a compile error and lookups cost nothing.
//! (Algorithm explanations are longer and live in [`crate::texts`].)

use ratelab_core::Algorithm;

/// A language of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Tiếng Việt.
    Vi,
}

impl Lang {
    /// The code in URLs (`lang=vi`) and `lang` attributes.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Vi => "vi",
        }
    }

    /// From a code; English for anything else.
    pub fn from_code(code: &str) -> Lang {
        if code == "vi" {
            Lang::Vi
        } else {
            Lang::En
        }
    }

    /// The page's words.
    pub fn words(self) -> &'static Words {
        match self {
            Lang::En => &EN,
            Lang::Vi => &VI,
        }
    }
}

/// Every label of the interface, named by what it labels (`play` is the play
/// button's text, `g_*` name gauges, `o_*` the shapes on a lane's time axis).
#[derive(Debug)]
#[allow(missing_docs)]
pub struct Words {
    pub tagline: &'static str,
    pub language: &'static str,
    pub setup: &'static str,
    pub scenario: &'static str,
    pub budget: &'static str,
    pub limit: &'static str,
    pub per: &'static str,
    pub duration_hint: &'static str,
    pub limiters: &'static str,
    pub add_limiter: &'static str,
    pub remove: &'static str,
    pub wrong_on_purpose: &'static str,
    pub capacity: &'static str,
    pub burst: &'static str,
    pub nginx_burst: &'static str,
    pub delay: &'static str,
    pub nodelay: &'static str,
    pub play: &'static str,
    pub pause: &'static str,
    pub prev: &'static str,
    pub prev_short: &'static str,
    pub next_short: &'static str,
    pub next: &'static str,
    pub speed: &'static str,
    pub clock: &'static str,
    pub send: &'static str,
    pub highlight: &'static str,
    pub keys_hint: &'static str,
    pub notices: &'static str,
    pub dismiss: &'static str,
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
    pub trace: &'static str,
    pub no_request: &'static str,
    pub request: &'static str,
    pub before: &'static str,
    pub steps: &'static str,
    pub test: &'static str,
    pub verdict: &'static str,
    pub after: &'static str,
    pub allow: &'static str,
    pub deny: &'static str,
    pub delay_for: &'static str,
    pub pending: &'static str,
    pub response: &'static str,
    pub about: &'static str,
    pub promise: &'static str,
    pub fits: &'static str,
    pub misleads: &'static str,
    pub custom_times: &'static str,
    pub custom_hint: &'static str,
    pub apply: &'static str,
    pub json: &'static str,
    pub export: &'static str,
    pub import: &'static str,
    pub copy: &'static str,
    pub copied: &'static str,
    pub sweep: &'static str,
    pub sweep_run: &'static str,
    pub sweep_running: &'static str,
    pub load: &'static str,
    pub requests: &'static str,
    pub wrong_allows: &'static str,
    pub wrong_blocks: &'static str,
    pub took: &'static str,
    pub legend_allow: &'static str,
    pub legend_deny: &'static str,
    pub legend_delay: &'static str,
    pub legend_pending: &'static str,
    pub busiest: &'static str,
    pub dense: &'static str,
    pub crash_title: &'static str,
    pub crash_reproduce: &'static str,
    // Gauge and overlay labels.
    pub g_count: &'static str,
    pub g_in_log: &'static str,
    pub g_estimate: &'static str,
    pub g_tokens: &'static str,
    pub g_waiting: &'static str,
    pub g_excess: &'static str,
    pub o_window: &'static str,
    pub o_opened: &'static str,
    pub o_reset: &'static str,
    pub o_prev: &'static str,
    pub o_curr: &'static str,
    pub o_tat: &'static str,
    pub o_now_tau: &'static str,
    pub o_next_out: &'static str,
}

impl Words {
    /// A gauge or overlay label by key (see [`crate::model`]).
    pub fn label(&self, key: &str) -> &'static str {
        match key {
            "count" => self.g_count,
            "in_log" => self.g_in_log,
            "estimate" => self.g_estimate,
            "tokens" => self.g_tokens,
            "waiting" => self.g_waiting,
            "excess" => self.g_excess,
            "window" => self.o_window,
            "opened" => self.o_opened,
            "reset" => self.o_reset,
            "prev" => self.o_prev,
            "curr" => self.o_curr,
            "tat" => self.o_tat,
            "now_tau" => self.o_now_tau,
            "next_out" => self.o_next_out,
            "limit" => "N",
            "one" => "1",
            "capacity" => self.capacity,
            "burst" => self.burst,
            "delay" => self.delay,
            _ => "",
        }
    }

    /// The verdict word (`allow`, `deny`, `delay`).
    pub fn verdict(&self, key: &str) -> &'static str {
        match key {
            "allow" => self.allow,
            "deny" => self.deny,
            "delay" => self.delay_for,
            _ => self.pending,
        }
    }

    /// What the `burst` field means for `a`.
    pub fn burst_label(&self, a: Algorithm) -> &'static str {
        match a {
            Algorithm::Nginx => self.nginx_burst,
            Algorithm::LeakyQueue => self.capacity,
            Algorithm::Gcra => self.burst,
            _ => self.capacity,
        }
    }
}

/// An algorithm's title.
pub fn title(a: Algorithm, lang: Lang) -> &'static str {
    use Algorithm::*;
    match lang {
        Lang::En => match a {
            FixedWindow => "Fixed window (clock)",
            FixedWindowAnchored => "Fixed window (anchored)",
            SlidingLog => "Sliding log",
            SlidingWindowCounter => "Sliding window counter",
            TokenBucket => "Token bucket",
            LeakyQueue => "Leaky bucket (queue)",
            Gcra => "GCRA",
            Nginx => "nginx limit_req",
            SlidingLogLogsBlocked => "Sliding log that logs denials",
            TokenBucketF64 => "Token bucket with f64",
        },
        Lang::Vi => match a {
            FixedWindow => "Cửa sổ cố định (theo đồng hồ)",
            FixedWindowAnchored => "Cửa sổ cố định (neo theo yêu cầu đầu)",
            SlidingLog => "Nhật ký trượt (sliding log)",
            SlidingWindowCounter => "Bộ đếm cửa sổ trượt",
            TokenBucket => "Xô token (token bucket)",
            LeakyQueue => "Xô rò (hàng đợi)",
            Gcra => "GCRA",
            Nginx => "nginx limit_req",
            SlidingLogLogsBlocked => "Sliding log ghi cả yêu cầu bị từ chối",
            TokenBucketF64 => "Xô token dùng f64",
        },
    }
}

/// English.
pub const EN: Words = Words {
    tagline: "“5 requests per 10 seconds” means different things to different limiters. One stream of requests, several limiters side by side, every decision explained.",
    language: "Language",
    setup: "Setup",
    scenario: "Scenario",
    budget: "Everyone's budget",
    limit: "limit N",
    per: "per W",
    duration_hint: "e.g. 10s, 500ms, 1m",
    limiters: "Limiters",
    add_limiter: "Add a limiter",
    remove: "Remove",
    wrong_on_purpose: "wrong on purpose",
    capacity: "capacity",
    burst: "burst",
    nginx_burst: "extra admitted at once (burst)",
    delay: "delay after",
    nodelay: "nodelay",
    play: "Play",
    pause: "Pause",
    prev: "Previous request",
    prev_short: "← Prev",
    next_short: "Next →",
    next: "Next request",
    speed: "Speed",
    clock: "Virtual time",
    send: "Send a request",
    highlight: "Highlight each limiter's busiest window",
    keys_hint: "Keys: space play/pause, ← → step, R send (manual)",
    notices: "Some settings in the link were ignored",
    dismiss: "Dismiss",
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
    trace: "Why? The selected request, limiter by limiter",
    no_request: "No request has arrived yet.",
    request: "Request",
    before: "before",
    steps: "updates",
    test: "test",
    verdict: "verdict",
    after: "after",
    allow: "allowed",
    deny: "denied (429)",
    delay_for: "delayed",
    pending: "not yet",
    response: "What a request now would get",
    about: "About this limiter",
    promise: "Promises",
    fits: "Fits",
    misleads: "Misleads",
    custom_times: "Request times",
    custom_hint: "Comma or space separated: 2s 7s 8.5s, or ms (2000); t:key:cost for more",
    apply: "Apply",
    json: "JSON (the command line's format)",
    export: "Export current setup",
    import: "Import",
    copy: "Copy",
    copied: "Copied",
    sweep: "Lab D sweep: the estimate against the exact log",
    sweep_run: "Run the sweep (300 clients × 10 min × 6 loads)",
    sweep_running: "Running…",
    load: "load",
    requests: "requests",
    wrong_allows: "wrong allows",
    wrong_blocks: "wrong blocks",
    took: "computed in your browser in",
    legend_allow: "allowed",
    legend_deny: "denied",
    legend_delay: "delayed (line: wait until it leaves)",
    legend_pending: "not arrived yet",
    busiest: "busiest window",
    dense: "too many requests to draw one by one: columns count them",
    crash_title: "ratelab stopped because of a bug",
    crash_reproduce: "This link reproduces the setup:",
    g_count: "count",
    g_in_log: "in the log",
    g_estimate: "estimate",
    g_tokens: "tokens",
    g_waiting: "waiting",
    g_excess: "excess",
    o_window: "window",
    o_opened: "window opened by the first request",
    o_reset: "reset",
    o_prev: "previous window",
    o_curr: "current window",
    o_tat: "TAT",
    o_now_tau: "now + τ",
    o_next_out: "next departure",
};

/// Tiếng Việt.
pub const VI: Words = Words {
    tagline: "“5 yêu cầu mỗi 10 giây” mang nghĩa khác nhau với mỗi bộ giới hạn. Một luồng yêu cầu, nhiều bộ giới hạn đặt cạnh nhau, mỗi quyết định đều được giải thích.",
    language: "Ngôn ngữ",
    setup: "Thiết lập",
    scenario: "Kịch bản",
    budget: "Hạn mức chung",
    limit: "giới hạn N",
    per: "mỗi W",
    duration_hint: "ví dụ 10s, 500ms, 1m",
    limiters: "Bộ giới hạn",
    add_limiter: "Thêm bộ giới hạn",
    remove: "Bỏ",
    wrong_on_purpose: "cố ý sai",
    capacity: "sức chứa",
    burst: "burst",
    nginx_burst: "số yêu cầu thêm được nhận cùng lúc (burst)",
    delay: "hoãn sau",
    nodelay: "nodelay",
    play: "Chạy",
    pause: "Dừng",
    prev: "Yêu cầu trước",
    prev_short: "← Trước",
    next_short: "Sau →",
    next: "Yêu cầu sau",
    speed: "Tốc độ",
    clock: "Thời gian ảo",
    send: "Gửi một yêu cầu",
    highlight: "Tô sáng cửa sổ đông nhất của mỗi bộ giới hạn",
    keys_hint: "Phím: space chạy/dừng, ← → từng bước, R gửi (thủ công)",
    notices: "Một số thiết lập trong liên kết đã bị bỏ qua",
    dismiss: "Đóng",
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
    trace: "Vì sao? Yêu cầu đang chọn, qua từng bộ giới hạn",
    no_request: "Chưa có yêu cầu nào đến.",
    request: "Yêu cầu",
    before: "trước",
    steps: "cập nhật",
    test: "phép thử",
    verdict: "kết luận",
    after: "sau",
    allow: "cho qua",
    deny: "từ chối (429)",
    delay_for: "bị hoãn",
    pending: "chưa đến",
    response: "Một yêu cầu lúc này sẽ nhận được",
    about: "Về bộ giới hạn này",
    promise: "Lời hứa",
    fits: "Phù hợp",
    misleads: "Dễ gây hiểu lầm",
    custom_times: "Thời điểm các yêu cầu",
    custom_hint: "Cách nhau bằng dấu phẩy hoặc khoảng trắng: 2s 7s 8.5s, hoặc ms (2000); t:khóa:chi phí nếu cần",
    apply: "Áp dụng",
    json: "JSON (định dạng của dòng lệnh)",
    export: "Xuất thiết lập hiện tại",
    import: "Nhập",
    copy: "Sao chép",
    copied: "Đã sao chép",
    sweep: "Lab D: ước lượng so với nhật ký chính xác",
    sweep_run: "Chạy thử (300 client × 10 phút × 6 mức tải)",
    sweep_running: "Đang chạy…",
    load: "mức tải",
    requests: "yêu cầu",
    wrong_allows: "cho qua sai",
    wrong_blocks: "chặn sai",
    took: "tính ngay trong trình duyệt, mất",
    legend_allow: "cho qua",
    legend_deny: "từ chối",
    legend_delay: "bị hoãn (đường kẻ: chờ tới lúc đi ra)",
    legend_pending: "chưa đến",
    busiest: "cửa sổ đông nhất",
    dense: "quá nhiều yêu cầu để vẽ từng cái: các cột đếm chúng",
    crash_title: "ratelab đã dừng vì một lỗi",
    crash_reproduce: "Liên kết này tái hiện thiết lập:",
    g_count: "bộ đếm",
    g_in_log: "trong nhật ký",
    g_estimate: "ước lượng",
    g_tokens: "token",
    g_waiting: "đang chờ",
    g_excess: "phần dư",
    o_window: "cửa sổ",
    o_opened: "cửa sổ mở từ yêu cầu đầu tiên",
    o_reset: "đặt lại",
    o_prev: "cửa sổ trước",
    o_curr: "cửa sổ hiện tại",
    o_tat: "TAT",
    o_now_tau: "now + τ",
    o_next_out: "lần đi ra kế tiếp",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_every_algorithm_has_a_title() {
        for l in [Lang::En, Lang::Vi] {
            assert_eq!(Lang::from_code(l.code()), l);
            for a in Algorithm::ALL {
                assert!(!title(a, l).is_empty());
            }
        }
        assert_eq!(Lang::from_code("fr"), Lang::En);
        assert_ne!(EN.play, VI.play);
    }
}

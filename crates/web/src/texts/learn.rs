//! The lessons panel's own words. The lessons' texts (titles, what to watch, what
//! they proved) are not here: they are `ratelab-sim`'s `en.txt` / `vi.txt`, which
//! the page fetches when it first needs a language (see [`crate::view::learn`]).

use super::Tr;

/// The lessons panel's words.
#[derive(Debug)]
#[allow(missing_docs)]
pub struct Learn {
    pub lessons: &'static str,
    /// The "Which limiter?" fold's title (`view/choose.rs`).
    pub chooser: &'static str,
    pub intro: &'static str,
    pub all: &'static str,
    pub loading: &'static str,
    pub unavailable: &'static str,
    pub running: &'static str,
    /// `{n}` and `{total}` are replaced.
    pub step: &'static str,
    pub watch: &'static str,
    pub proved: &'static str,
    pub numbers: &'static str,
    /// Followed by the moment's time.
    pub replay: &'static str,
    pub prev: &'static str,
    pub next: &'static str,
    pub close: &'static str,
    pub changed: &'static str,
    pub reopen: &'static str,
    pub judged: &'static str,
    pub load: &'static str,
    pub allowed: &'static str,
    pub wrong_allows: &'static str,
    pub wrong_blocks: &'static str,
    pub error: &'static str,
    pub worst: &'static str,
}

/// The lessons panel's words in every language.
pub static LEARN: Tr<Learn> = Tr {
    en: Learn {
        lessons: "Lessons",
        chooser: "Which limiter?",
        intro: "A path through the articles' results. Each lesson sets up the lanes, plays to the moment that shows the point, and says what the engine found.",
        all: "All lessons",
        loading: "Loading the lessons…",
        unavailable: "The lessons could not be loaded; the playground itself works. Reason:",
        running: "The engine is running this lesson…",
        step: "Step {n} of {total}",
        watch: "What to watch",
        proved: "What it proved",
        numbers: "The highlighted numbers were computed by the engine in this page, on this very setup.",
        replay: "Play again to",
        prev: "← Previous",
        next: "Next →",
        close: "Close",
        changed: "You changed the setup since: the numbers above are for the lesson's own.",
        reopen: "Reopen this step",
        judged: "The counter judged on its own history",
        load: "Load",
        allowed: "Allowed",
        wrong_allows: "Wrongly allowed",
        wrong_blocks: "Wrongly blocked",
        error: "Mean estimate error",
        worst: "Worst client, most in one window",
    },
    vi: Learn {
        lessons: "Bài học",
        chooser: "Chọn bộ giới hạn nào?",
        intro: "Một lộ trình qua các kết quả của bài viết. Mỗi bài học dựng sẵn các làn, chạy đến đúng thời điểm cho thấy vấn đề, rồi cho biết bộ máy tìm ra điều gì.",
        all: "Tất cả bài học",
        loading: "Đang tải bài học…",
        unavailable: "Không tải được bài học; bản thân sân chơi vẫn hoạt động. Lý do:",
        running: "Bộ máy đang chạy bài học này…",
        step: "Bước {n} / {total}",
        watch: "Cần để ý",
        proved: "Điều đã chứng minh",
        numbers: "Các số được tô đậm do bộ máy tính ngay trong trang này, trên đúng thiết lập này.",
        replay: "Chạy lại đến",
        prev: "← Trước",
        next: "Tiếp →",
        close: "Đóng",
        changed: "Bạn đã đổi thiết lập: các con số ở trên là của thiết lập gốc của bài học.",
        reopen: "Mở lại bước này",
        judged: "Bộ đếm được chấm theo chính lịch sử của nó",
        load: "Mức tải",
        allowed: "Cho qua",
        wrong_allows: "Cho qua sai",
        wrong_blocks: "Chặn sai",
        error: "Sai số ước lượng trung bình",
        worst: "Client tệ nhất, nhiều nhất trong một cửa sổ",
    },
};

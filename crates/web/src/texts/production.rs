//! The lanes' "run it in production" box.

use super::Tr;

/// The production box's words.
#[derive(Debug)]
#[allow(missing_docs)]
pub struct ProductionTexts {
    pub title: &'static str,
    /// Above a Redis script.
    pub redis: &'static str,
    /// Above the nginx lane's lines.
    pub nginx: &'static str,
    /// When nginx's rate cannot be the engine's exactly.
    pub nginx_inexact: &'static str,
    /// Above a teaching lane's wrong script.
    pub teaching: &'static str,
    pub call: &'static str,
    pub memory: &'static str,
    pub bytes: &'static str,
    pub keys: &'static str,
    /// The same for one key.
    pub key: &'static str,
    pub checked: &'static str,
    /// What goes wrong with each teaching script, by its id.
    pub float_seconds: &'static str,
    pub zadd_first: &'static str,
    /// Why no script: the parameters are beyond what Lua's numbers hold.
    pub refused: &'static str,
    /// While the script is being fetched.
    pub loading: &'static str,
    /// When the script could not be fetched.
    pub unavailable: &'static str,
}

/// The production box's words in every language.
pub static PRODUCTION: Tr<ProductionTexts> = Tr {
    en: ProductionTexts {
        title: "Run it in production",
        redis: "This limiter as a Redis Lua script: the same decisions as this lane, request for request. Load it once, then call it per request with the server's clock.",
        nginx: "This lane is nginx's limit_req; these lines configure it:",
        nginx_inexact: "nginx writes rates in whole requests per second or per minute: the nearest it can keep is shown, and it decides slightly differently from this lane.",
        teaching: "Wrong on purpose: the script this lane stands for, as it is often published. Do not deploy it.",
        call: "How to call it",
        memory: "Memory per client key (Redis MEMORY USAGE, measured by the tests)",
        bytes: "bytes",
        keys: "Redis keys",
        key: "Redis key",
        checked: "Checked against",
        float_seconds: "Seconds in floating point cannot hold 0.1 exactly: at 10 per second with burst 1, a request every 100 ms is refused at 0.3 s with 0.9999999999999998 tokens.",
        zadd_first: "It adds every request to the log before counting, denials too: a client that keeps sending is blocked for ever.",
        refused: "No script for these parameters",
        loading: "Loading the script…",
        unavailable: "The script could not be loaded",
    },
    vi: ProductionTexts {
        title: "Chạy trong môi trường thật",
        redis: "Bộ giới hạn này dưới dạng script Lua cho Redis: quyết định giống hệt làn này, từng yêu cầu một. Nạp một lần, rồi gọi cho mỗi yêu cầu với đồng hồ của máy chủ.",
        nginx: "Làn này là limit_req của nginx; các dòng sau cấu hình nó:",
        nginx_inexact: "nginx chỉ viết tốc độ theo số yêu cầu nguyên mỗi giây hoặc mỗi phút: đây là giá trị gần nhất nó giữ được, và nó quyết định hơi khác làn này.",
        teaching: "Cố ý sai: script mà làn này đại diện, như thường thấy trên mạng. Đừng triển khai nó.",
        call: "Cách gọi",
        memory: "Bộ nhớ cho mỗi khóa của một client (MEMORY USAGE của Redis, do các bài kiểm thử đo)",
        bytes: "byte",
        keys: "khóa Redis",
        key: "khóa Redis",
        checked: "Đã kiểm tra với",
        float_seconds: "Số thực dấu phẩy động không biểu diễn chính xác 0,1 giây: với 10 yêu cầu mỗi giây, burst 1 và một yêu cầu mỗi 100 ms, yêu cầu ở 0,3 s bị từ chối vì chỉ còn 0,9999999999999998 token.",
        zadd_first: "Nó ghi mọi yêu cầu vào log trước khi đếm, kể cả yêu cầu bị từ chối: client cứ tiếp tục gửi sẽ bị chặn mãi mãi.",
        refused: "Không có script cho các tham số này",
        loading: "Đang tải script…",
        unavailable: "Không tải được script",
    },
};

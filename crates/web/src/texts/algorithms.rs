//! Each algorithm's name and three short paragraphs, written for this page: what it
//! promises, where it fits, where it misleads. The claims with numbers are checked
//! against the engine by the tests below.

use ratelab_core::Algorithm;

use super::Tr;

/// An algorithm's name and explanation.
#[derive(Debug, PartialEq, Eq)]
pub struct AlgorithmText {
    /// Its name on the page.
    pub title: &'static str,
    /// One line: what it guarantees.
    pub promise: &'static str,
    /// Where it is the right tool.
    pub fits: &'static str,
    /// How it can mislead.
    pub misleads: &'static str,
}

/// The texts of `algorithm`.
pub fn algorithm_text(algorithm: Algorithm) -> &'static Tr<AlgorithmText> {
    use Algorithm::*;
    match algorithm {
        FixedWindow => &Tr {
            en: AlgorithmText {
                title: "Fixed window (clock)",
                promise: "At most N requests in each clock window [k·W, (k+1)·W). Two numbers per client: the window and its count.",
                fits: "Quotas people read off a clock: \"1000 calls per calendar hour\", billing, daily limits. Cheap and easy to explain.",
                misleads: "The count resets on the clock, not on the client. N requests just before the boundary and N just after all pass: up to 2N in any W. On the golden stream it lets 9 through in 10 s with a limit of 5.",
            },
            vi: AlgorithmText {
                title: "Cửa sổ cố định (theo đồng hồ)",
                promise: "Tối đa N yêu cầu trong mỗi cửa sổ theo đồng hồ [k·W, (k+1)·W). Mỗi client chỉ cần hai số: cửa sổ hiện tại và bộ đếm.",
                fits: "Hạn mức đọc theo đồng hồ: \"1000 lệnh gọi mỗi giờ\", tính cước, giới hạn theo ngày. Rẻ và dễ giải thích.",
                misleads: "Bộ đếm về 0 theo đồng hồ chứ không theo client. N yêu cầu ngay trước ranh giới và N yêu cầu ngay sau đều lọt: tới 2N trong một khoảng W bất kỳ. Với luồng mẫu, nó cho 9 yêu cầu qua trong 10 giây dù giới hạn là 5.",
            },
        },
        FixedWindowAnchored => &Tr {
            en: AlgorithmText {
                title: "Fixed window (anchored)",
                promise: "At most N requests per window; the window opens at the client's first request and lasts W.",
                fits: "Per-user limits where \"your hour starts when you start\" feels fairer than the clock (Laravel's limiter works this way).",
                misleads: "It is still a fixed window: a client who waits for its window to end can send N at its end and N at the start of the next one. It only moves the boundary to where the client put it.",
            },
            vi: AlgorithmText {
                title: "Cửa sổ cố định (neo theo yêu cầu đầu)",
                promise: "Tối đa N yêu cầu mỗi cửa sổ; cửa sổ mở ra ở yêu cầu đầu tiên của client và kéo dài W.",
                fits: "Giới hạn theo người dùng, khi \"giờ của bạn bắt đầu lúc bạn bắt đầu\" công bằng hơn so với đồng hồ (bộ giới hạn của Laravel làm như vậy).",
                misleads: "Vẫn là cửa sổ cố định: client đợi cửa sổ sắp hết có thể gửi N yêu cầu cuối cửa sổ và N yêu cầu đầu cửa sổ sau. Nó chỉ dời ranh giới tới chỗ client chọn.",
            },
        },
        SlidingLog => &Tr {
            en: AlgorithmText {
                title: "Sliding log",
                promise: "Never more than N allowed in any window (t − W, t], exactly. It remembers the time of every allowed request still inside the window.",
                fits: "When the promise must hold to the letter: low limits, expensive operations, login attempts, contracts.",
                misleads: "Its memory grows with the limit: N timestamps per client. At 10 000 per hour that is 10 000 numbers per key. It is also strict: after a burst, nothing passes until the oldest entry expires.",
            },
            vi: AlgorithmText {
                title: "Nhật ký trượt (sliding log)",
                promise: "Không bao giờ quá N yêu cầu được cho qua trong bất kỳ khoảng (t − W, t] nào, chính xác tuyệt đối. Nó nhớ thời điểm của từng yêu cầu đã được cho qua còn nằm trong cửa sổ.",
                fits: "Khi lời hứa phải đúng từng chữ: giới hạn nhỏ, thao tác tốn kém, số lần đăng nhập, cam kết trong hợp đồng.",
                misleads: "Bộ nhớ tăng theo giới hạn: N mốc thời gian cho mỗi client. Với 10 000 mỗi giờ là 10 000 con số cho mỗi khóa. Nó cũng rất nghiêm: sau một đợt dồn, không gì lọt qua cho tới khi mục cũ nhất hết hạn.",
            },
        },
        SlidingWindowCounter => &Tr {
            en: AlgorithmText {
                title: "Sliding window counter",
                promise: "About N per sliding window: it estimates the count as prev · (1 − elapsed) + curr from two clock-window counters. Three numbers per client.",
                fits: "Large-scale APIs where an estimate is good enough and memory must stay tiny (Cloudflare described it in 2017).",
                misleads: "The estimate assumes the previous window's requests were spread evenly. If they came late, it allows more than N in a real sliding window; if they came early, it blocks too soon. Lab D measures how often.",
            },
            vi: AlgorithmText {
                title: "Bộ đếm cửa sổ trượt",
                promise: "Khoảng N yêu cầu mỗi cửa sổ trượt: nó ước lượng số đếm bằng prev · (1 − elapsed) + curr từ hai bộ đếm theo đồng hồ. Ba con số cho mỗi client.",
                fits: "API quy mô lớn, nơi ước lượng là đủ tốt và bộ nhớ phải thật nhỏ (Cloudflare mô tả cách này năm 2017).",
                misleads: "Ước lượng giả định các yêu cầu của cửa sổ trước rải đều. Nếu chúng đến muộn, nó cho quá N yêu cầu trong một cửa sổ trượt thật; nếu chúng đến sớm, nó chặn quá sớm. Lab D đo xem điều đó xảy ra thường đến mức nào.",
            },
        },
        TokenBucket => &Tr {
            en: AlgorithmText {
                title: "Token bucket",
                promise: "A bucket of b tokens refilled at r per second; each request takes one. Never more than b + r·T in any interval T. Here tokens are exact fractions: one token is one token.",
                fits: "APIs that should absorb short bursts (a page loading 12 resources) while holding a long-run average. Two numbers per client.",
                misleads: "\"100 per minute\" with b = 100 allows 100 at once and then one more every 0.6 s as tokens refill: close to 200 within a single minute (b + r·T). The burst is the capacity, and it is a separate promise from the rate.",
            },
            vi: AlgorithmText {
                title: "Xô token (token bucket)",
                promise: "Một cái xô chứa b token, được nạp lại r token mỗi giây; mỗi yêu cầu lấy một token. Không bao giờ quá b + r·T trong khoảng thời gian T. Ở đây token là phân số chính xác: một token đúng là một token.",
                fits: "API cần chịu được những đợt dồn ngắn (một trang tải 12 tài nguyên cùng lúc) mà vẫn giữ tốc độ trung bình dài hạn. Hai con số cho mỗi client.",
                misleads: "\"100 mỗi phút\" với b = 100 cho 100 yêu cầu qua ngay lập tức, rồi cứ 0,6 giây thêm một yêu cầu khi token được nạp lại: gần 200 yêu cầu trong cùng một phút (b + r·T). Sức chứa (burst) là một lời hứa riêng, khác với tốc độ.",
            },
        },
        LeakyQueue => &Tr {
            en: AlgorithmText {
                title: "Leaky bucket (queue)",
                promise: "Requests queue up and leave evenly, one every 1/r; at most `capacity` wait. Departures are never closer than 1/r. It shapes traffic instead of refusing it.",
                fits: "Protecting a backend that needs a smooth, steady flow (a payment gateway, a slow database, an SMS provider).",
                misleads: "The price is latency, not rejection: on the golden stream one request waits 9.8 s. A client that times out after 5 s experiences a queue as an outage.",
            },
            vi: AlgorithmText {
                title: "Xô rò (hàng đợi)",
                promise: "Các yêu cầu xếp hàng và đi ra đều đặn, mỗi 1/r một yêu cầu; tối đa `capacity` yêu cầu chờ. Hai lần đi ra không bao giờ gần nhau hơn 1/r. Nó nắn dòng lưu lượng thay vì từ chối.",
                fits: "Bảo vệ một hệ thống phía sau cần dòng yêu cầu đều và ổn định (cổng thanh toán, cơ sở dữ liệu chậm, nhà cung cấp SMS).",
                misleads: "Cái giá là độ trễ chứ không phải lời từ chối: với luồng mẫu có yêu cầu phải chờ 9,8 giây. Client hết thời gian chờ sau 5 giây sẽ thấy hàng đợi như một sự cố.",
            },
        },
        Gcra => &Tr {
            en: AlgorithmText {
                title: "GCRA",
                promise: "One number per client: the theoretical arrival time TAT. A request passes if TAT − now ≤ τ. It makes exactly the token bucket's decisions, without the refill arithmetic.",
                fits: "High-performance limiters and shared stores (Redis): one timestamp per key, one comparison, no background refill.",
                misleads: "Its parameters (T, τ) are harder to read than \"b tokens, r per second\"; \"burst\" in GCRA libraries means the bucket's capacity, not extra requests on top of the rate.",
            },
            vi: AlgorithmText {
                title: "GCRA",
                promise: "Mỗi client một con số: thời điểm đến lý thuyết TAT. Yêu cầu được qua nếu TAT − bây giờ ≤ τ. Nó ra quyết định giống hệt token bucket, mà không cần phép tính nạp token.",
                fits: "Bộ giới hạn hiệu năng cao và kho dùng chung (Redis): mỗi khóa một mốc thời gian, một phép so sánh, không cần nạp lại chạy nền.",
                misleads: "Tham số (T, τ) khó đọc hơn \"b token, r mỗi giây\"; \"burst\" trong các thư viện GCRA nghĩa là sức chứa của xô, không phải số yêu cầu thêm ngoài tốc độ.",
            },
        },
        Nginx => &Tr {
            en: AlgorithmText {
                title: "nginx limit_req",
                promise: "nginx's limit_req: an excess counter in thousandths of a request, drained at the rate. Requests beyond the burst get 503/429; the ones within are delayed, unless nodelay (or only those beyond delay=N).",
                fits: "Edge protection in front of an app you don't control. With nodelay and a whole number of requests per second it decides exactly as GCRA with a burst one larger.",
                misleads: "burst=5 admits 6 requests at once: the first one is free. Without nodelay the \"allowed\" requests can wait seconds. The rate is rounded to thousandths per second, so 100r/m drains slightly slower than 100 per minute.",
            },
            vi: AlgorithmText {
                title: "nginx limit_req",
                promise: "limit_req của nginx: một bộ đếm phần dư tính bằng phần nghìn yêu cầu, rút dần theo tốc độ. Yêu cầu vượt quá burst bị trả 503/429; những yêu cầu trong burst bị hoãn lại, trừ khi có nodelay (hoặc chỉ hoãn những yêu cầu vượt delay=N).",
                fits: "Bảo vệ ở tầng biên, trước một ứng dụng bạn không kiểm soát. Với nodelay và tốc độ là số nguyên yêu cầu mỗi giây, nó quyết định giống hệt GCRA có burst lớn hơn một.",
                misleads: "burst=5 cho 6 yêu cầu qua cùng lúc: yêu cầu đầu tiên là miễn phí. Không có nodelay thì những yêu cầu \"được cho qua\" có thể phải chờ vài giây. Tốc độ được làm tròn tới phần nghìn mỗi giây, nên 100r/m rút chậm hơn 100 mỗi phút một chút.",
            },
        },
        SlidingLogLogsBlocked => &Tr {
            en: AlgorithmText {
                title: "Sliding log that logs denials",
                promise: "Wrong on purpose: a sliding log that also records the requests it denies.",
                fits: "Nowhere. It is here because snippets do it, and to show the consequence.",
                misleads: "A client that keeps sending faster than the limit is blocked forever: its own denied requests keep the log full, so nothing ever expires fast enough. Compare it with the real sliding log on lab B.",
            },
            vi: AlgorithmText {
                title: "Sliding log ghi cả yêu cầu bị từ chối",
                promise: "Cố ý sai: một sliding log ghi cả những yêu cầu mà nó từ chối.",
                fits: "Không ở đâu cả. Nó có mặt vì nhiều đoạn mã mẫu làm vậy, và để cho thấy hậu quả.",
                misleads: "Client cứ gửi nhanh hơn giới hạn sẽ bị chặn mãi mãi: chính những yêu cầu bị từ chối giữ cho log luôn đầy, nên không mục nào kịp hết hạn. Hãy so sánh với sliding log đúng trong lab B.",
            },
        },
        TokenBucketF64 => &Tr {
            en: AlgorithmText {
                title: "Token bucket with f64",
                promise: "Wrong on purpose: the token bucket as common snippets write it, with f64 tokens.",
                fits: "Nowhere a decision matters. It shows why decisions need exact arithmetic.",
                misleads: "In IEEE 754, 0.8499999999999999 + 0.15 is 0.9999999999999999, not 1. On the golden stream plus a request at 11.0 s, the exact bucket finds one token and allows; this one denies.",
            },
            vi: AlgorithmText {
                title: "Xô token dùng f64",
                promise: "Cố ý sai: token bucket viết theo kiểu các đoạn mã mẫu phổ biến, với số token kiểu f64.",
                fits: "Không dùng ở đâu có quyết định quan trọng. Nó cho thấy vì sao quyết định cần số học chính xác.",
                misleads: "Theo IEEE 754, 0.8499999999999999 + 0.15 bằng 0.9999999999999999, không phải 1. Với luồng mẫu thêm một yêu cầu lúc 11,0 giây, xô chính xác thấy đúng một token và cho qua; xô này từ chối.",
            },
        },
    }
}

/// The name of `algorithm` in `lang`.
pub fn title(algorithm: Algorithm, lang: super::Lang) -> &'static str {
    algorithm_text(algorithm).get(lang).title
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texts::Lang;
    use ratelab_sim::{run, simulate_json};

    #[test]
    fn every_algorithm_has_both_languages() {
        for a in Algorithm::ALL {
            let t = algorithm_text(a);
            for lang in Lang::ALL {
                let t = t.get(lang);
                assert!(
                    !t.title.is_empty()
                        && !t.promise.is_empty()
                        && !t.fits.is_empty()
                        && !t.misleads.is_empty()
                );
            }
            assert_ne!(t.en, t.vi);
            assert_eq!(
                a.is_teaching(),
                t.en.promise.starts_with("Wrong on purpose")
            );
        }
    }

    /// The numbers the texts quote, from the engine.
    #[test]
    fn the_quoted_numbers_are_the_engines() {
        let golden =
            ratelab_sim::scenario(ratelab_sim::ScenarioId::Golden, &Default::default()).unwrap();
        let report = run(&golden).unwrap();
        let lane = |id: &str| report.results.iter().find(|r| r.id == id).unwrap();
        // "it lets 9 through in 10 s with a limit of 5"
        assert_eq!(lane("fixed_window").yardstick.max_in_window, 9);
        // "one request waits 9.8 s"
        assert_eq!(lane("leaky_queue").yardstick.longest_wait_ms, 9_800);
        // "the golden stream plus a request at 11.0 s: exact allows, f64 denies"
        let out = simulate_json(
            r#"{"requests": [2000, 7000, 8000, 9000, 9500, 9800, 10100, 10400, 10700, 11000],
                "limiters": [{"algorithm": "token_bucket", "limit": 5, "period_ms": 10000},
                             {"algorithm": "token_bucket_f64", "limit": 5, "period_ms": 10000}]}"#,
        )
        .unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["results"][0]["allowed"][9], true);
        assert_eq!(v["results"][1]["allowed"][9], false);
        // "burst=5 admits 6 requests at once"
        let out = simulate_json(
            r#"{"requests": [0, 0, 0, 0, 0, 0, 0],
                "limiters": [{"algorithm": "nginx", "limit": 1, "period_ms": 1000, "burst": 5, "nodelay": true}]}"#,
        )
        .unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["results"][0]["passed"], 6);
        // The logging variant, faster than the limit (lab B, 2x): blocked for good.
        let lab_b = ratelab_sim::scenario(
            ratelab_sim::ScenarioId::LabB,
            &ratelab_sim::Overrides {
                limiters: Some(vec![
                    ratelab_sim::LaneSpec::simple(Algorithm::SlidingLog, 100, 60_000),
                    ratelab_sim::LaneSpec::simple(Algorithm::SlidingLogLogsBlocked, 100, 60_000),
                ]),
                ..Default::default()
            },
        )
        .unwrap();
        let r = run(&lab_b).unwrap();
        assert_eq!(r.results[1].yardstick.passed, 100);
        assert!(r.results[0].yardstick.passed > 200);
    }
}

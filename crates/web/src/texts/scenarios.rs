//! The scenarios' names and one-line descriptions, as the page shows them. The
//! simulator's registry has its own English lines for the command line and the
//! API; these are written for the page (they explain what to watch for).

use ratelab_sim::ScenarioId;

use super::Tr;

/// A scenario's name and description.
#[derive(Debug)]
pub struct ScenarioText {
    /// The name in the scenario picker.
    pub title: &'static str,
    /// What it shows, under the picker.
    pub description: &'static str,
}

macro_rules! scenario {
    ($en_title:expr, $en:expr, $vi_title:expr, $vi:expr $(,)?) => {
        &Tr {
            en: ScenarioText {
                title: $en_title,
                description: $en,
            },
            vi: ScenarioText {
                title: $vi_title,
                description: $vi,
            },
        }
    };
}

/// The texts of scenario `id` (a match with no fallback: a scenario added to the
/// registry without its texts does not compile).
pub fn scenario_text(id: ScenarioId) -> &'static Tr<ScenarioText> {
    use ScenarioId::*;
    match id {
        EdgeBurstDemo => scenario!(
            "Edge burst (the demo article's)",
            "The demo article's spacing: N over 0.8W to W, N over W to 1.2W; at 5 per 10 s the fixed window passes 10, the sliding log 5, the token bucket 6.",
            "Dồn sát mép cửa sổ (của bài demo)",
            "Cách rải của bài demo: N yêu cầu từ 0,8W tới W, N yêu cầu từ W tới 1,2W; với 5 mỗi 10 s cửa sổ cố định cho qua 10, cửa sổ trượt 5, xô token 6.",
        ),
        PerSecond => scenario!(
            "One a second for a minute",
            "One request every second for 60 s: at 5 per 10 s the windows pass 30, the token bucket 34.",
            "Mỗi giây một request trong một phút",
            "Mỗi giây một yêu cầu trong 60 s: với 5 mỗi 10 s các cửa sổ cho qua 30, xô token 34.",
        ),
        SwcLate => scenario!(
            "Counter: previous window bunched late",
            "Five requests at the end of a window, then a steady trickle: the sliding window counter underestimates and lets 9 through in 10 s against 5.",
            "Bộ đếm: cửa sổ trước dồn về cuối",
            "Năm yêu cầu ở cuối một cửa sổ, rồi một dòng đều: bộ đếm cửa sổ trượt ước lượng thấp và cho 9 yêu cầu qua trong 10 s với giới hạn 5.",
        ),
        SwcEarly => scenario!(
            "Counter: previous window bunched early",
            "Five requests at the start of a window, then a few more: the sliding window counter overestimates and refuses requests the window has room for.",
            "Bộ đếm: cửa sổ trước dồn về đầu",
            "Năm yêu cầu ở đầu một cửa sổ, rồi vài yêu cầu nữa: bộ đếm cửa sổ trượt ước lượng cao và từ chối những yêu cầu cửa sổ còn chỗ.",
        ),
        TenAtOnce => scenario!(
            "N at once (nginx burst, nodelay, delay)",
            "N requests at the same moment (10 against 10 per second): nginx's burst=5 admits 6, delayed, at once with nodelay, or partly delayed with delay=3.",
            "N request cùng lúc (burst, nodelay, delay của nginx)",
            "N yêu cầu cùng một lúc (10 với 10 mỗi giây): burst=5 của nginx nhận 6, bắt chờ, cho đi ngay với nodelay, hoặc chờ một phần với delay=3.",
        ),
        FloatEdge => scenario!(
            "The float bucket's edge",
            "The golden stream with its tenth request at 11.0 s, where the bucket holds exactly one token: a float bucket refuses, the exact bucket and GCRA allow.",
            "Biên của xô số thực",
            "Luồng mẫu với yêu cầu thứ mười lúc 11,0 s, khi xô còn đúng một token: xô số thực từ chối, xô chính xác và GCRA cho qua.",
        ),
        EdgeBurst => scenario!(
            "Edge burst",
            "A burst of 2N split around a window boundary: N in the last tenth of the first window, N in the first tenth of the next. Tighter than the demo article's burst (a fifth of W each side), so the token bucket has less time to refill and passes one fewer than the article says; its own stream is \u{201c}Edge burst (the demo article's)\u{201d}.",
            "Dồn ở ranh giới cửa sổ",
            "Một đợt dồn 2N chia đôi quanh ranh giới cửa sổ: N yêu cầu trong một phần mười cuối của cửa sổ đầu, N trong một phần mười đầu của cửa sổ sau. Sát hơn đợt dồn của bài demo (mỗi bên một phần năm W), nên xô token ít thời gian nạp lại hơn và cho qua ít hơn bài viết một yêu cầu; luồng của chính bài viết là \u{201c}Dồn sát mép cửa sổ (của bài demo)\u{201d}.",
        ),
        TwiceTheRate => scenario!(
            "2x rate",
            "A steady stream at twice the allowed rate for three windows.",
            "Gấp đôi tốc độ",
            "Một luồng đều với tốc độ gấp đôi mức cho phép trong ba cửa sổ.",
        ),
        BurstThenDrip => scenario!(
            "Burst then drip",
            "A full burst of N at once, then one request every 2W/N (half the rate) until 4W.",
            "Dồn rồi nhỏ giọt",
            "Một đợt dồn N yêu cầu cùng lúc, rồi cứ 2W/N lại một yêu cầu (nửa tốc độ) cho tới 4W.",
        ),
        Manual => scenario!(
            "Manual",
            "No requests: send them yourself, one click at a time.",
            "Thủ công",
            "Không có yêu cầu nào: tự gửi từng yêu cầu bằng nút bấm.",
        ),
        Golden => scenario!(
            "The golden stream",
            "Twelve requests between 2 s and 19.5 s against 5 per 10 s: a burst close to the 10 s boundary, then a few stragglers. Each limiter decides them differently.",
            "Luồng mẫu (golden)",
            "Mười hai yêu cầu từ 2 s tới 19,5 s với hạn mức 5 mỗi 10 s: một đợt dồn sát ranh giới 10 s, rồi vài yêu cầu lẻ. Mỗi bộ giới hạn quyết định chúng một kiểu.",
        ),
        LabA => scenario!(
            "Lab A: boundary attack",
            "100 per minute: one request at 0 s, 100 just before 60 s, 100 just after; the fixed window lets 199 through in 2 s.",
            "Lab A: tấn công ranh giới",
            "100 mỗi phút: một yêu cầu lúc 0 s, 100 ngay trước 60 s, 100 ngay sau; cửa sổ cố định cho 199 yêu cầu qua trong 2 s.",
        ),
        LabB => scenario!(
            "Lab B: sustained overload",
            "100 per minute, one request every 300 ms for 3 minutes: the windows pass in bursts, then go silent (34 33 33 0 0 0 per 10 s).",
            "Lab B: quá tải kéo dài",
            "100 mỗi phút, cứ 300 ms một yêu cầu trong 3 phút: các cửa sổ cho qua từng đợt rồi im lặng (34 33 33 0 0 0 mỗi 10 s).",
        ),
        LabC => scenario!(
            "Lab C: page load",
            "12 simultaneous requests against \"10 per second\": a bucket of 1 blocks 11, a bucket of 20 none, a queue delays them.",
            "Lab C: tải một trang",
            "12 yêu cầu cùng lúc với \"10 mỗi giây\": xô chứa 1 chặn 11, xô chứa 20 không chặn, hàng đợi thì hoãn chúng.",
        ),
        LabD => scenario!(
            "Lab D: estimate against exact",
            "Seeded Poisson traffic, 300 clients × 10 min at 0.5x to 4x of 100 per minute: how often the sliding window counter wrongly allows or blocks.",
            "Lab D: ước lượng so với chính xác",
            "Lưu lượng Poisson có seed, 300 client × 10 phút ở mức 0,5x tới 4x của 100 mỗi phút: bộ đếm cửa sổ trượt cho qua sai hay chặn sai thường đến đâu.",
        ),
        LabE => scenario!(
            "Lab E: worst case",
            "100 per minute: 100 requests in the last 0.1 s of the first minute, then 10 per second for two minutes.",
            "Lab E: trường hợp xấu nhất",
            "100 mỗi phút: 100 yêu cầu trong 0,1 s cuối của phút đầu, rồi 10 mỗi giây trong hai phút.",
        ),
        Poisson => scenario!(
            "Poisson traffic",
            "Seeded random traffic from many clients, each at load × the limit on average.",
            "Lưu lượng Poisson",
            "Lưu lượng ngẫu nhiên có seed từ nhiều client, mỗi client trung bình bằng mức tải × giới hạn.",
        ),
        Custom => scenario!(
            "Custom",
            "Your own requests (typed, pasted or imported as JSON) and limiters.",
            "Tự nhập",
            "Yêu cầu và bộ giới hạn của bạn (gõ, dán, hoặc nhập JSON).",
        ),
        NoisyNeighbour => scenario!(
            "Noisy neighbour",
            "Four clients at 2 per second and one at 16: a 10 per second limit per client only slows the noisy one; the same limit on one global key refuses everyone.",
            "Hàng xóm ồn ào",
            "Bốn khách gửi 2 yêu cầu mỗi giây, một khách gửi 16: giới hạn 10 mỗi giây theo từng khách chỉ làm chậm khách ồn ào; cùng giới hạn đó trên một khóa chung thì từ chối tất cả mọi người.",
        ),
        RetryStorm => scenario!(
            "Retry storm",
            "50 users load a page of 5 at once against 50 per second: retrying at once or exactly at Retry-After makes waves of refusals; a little jitter lets them in.",
            "Cơn bão thử lại",
            "50 người dùng cùng tải một trang 5 yêu cầu với giới hạn 50 mỗi giây: thử lại ngay, hay đúng lúc Retry-After, tạo ra từng đợt bị từ chối; thêm một chút ngẫu nhiên (jitter) thì mọi người đều vào được.",
        ),
        Instances => scenario!(
            "Three instances",
            "A client at 40 per second, 10 per second allowed: three instances with their own counters really allow 30; one shared store allows 10.",
            "Ba instance",
            "Một khách gửi 40 mỗi giây, cho phép 10 mỗi giây: ba instance tự đếm riêng thật ra cho qua 30; một kho chung cho qua 10.",
        ),
        StoreOutage => scenario!(
            "Store outage",
            "The shared store is down from 20 s to 40 s: fail open lets everything through, fail closed nothing, a local fallback its own budget.",
            "Kho chung ngừng hoạt động",
            "Kho chung ngừng từ giây 20 đến giây 40: mở cửa (fail-open) cho qua hết, đóng cửa (fail-closed) không cho gì qua, dự phòng cục bộ cho qua đúng hạn mức riêng của nó.",
        ),
        PageLoad => scenario!(
            "Page load, with retries",
            "Users load a page of 12 requests at once against 10 per second: a bucket of 1 makes them retry (and wait), a bucket of 20 lets the page through.",
            "Tải trang, có thử lại",
            "Người dùng tải một trang 12 yêu cầu cùng lúc với giới hạn 10 mỗi giây: xô chứa 1 buộc họ thử lại (và phải chờ), xô chứa 20 cho cả trang qua.",
        ),
        StackedLimits => scenario!(
            "Stacked limits",
            "10 per second and 100 per minute, alone and together: each catches what the other lets through; the report says which one refused.",
            "Chồng giới hạn",
            "10 mỗi giây và 100 mỗi phút, riêng từng cái và cùng lúc: giới hạn này chặn được thứ giới hạn kia bỏ lọt; báo cáo cho biết giới hạn nào đã từ chối.",
        ),
        ExpensiveRoute => scenario!(
            "An expensive route",
            "Exports cost 5 reads: counted as 1 they pass like reads; costing 5 they use the budget they really take; their own tight limit keeps reads untouched.",
            "Một route đắt",
            "Một lần xuất dữ liệu tốn bằng 5 lần đọc: tính là 1 thì nó qua như một lần đọc; tính là 5 thì nó dùng đúng phần hạn mức nó tốn; một giới hạn chặt riêng cho nó thì các lần đọc không bị ảnh hưởng.",
        ),
        Service => scenario!(
            "Your service",
            "Clients that retry, a key, instances, a store that fails: chosen in the setup, around each lane's limiter.",
            "Dịch vụ của bạn",
            "Khách thử lại, khóa đếm, số instance, kho chung bị sự cố: chọn trong phần thiết lập, bao quanh bộ giới hạn của từng làn.",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_edge_burst_says_why_its_token_bucket_passes_one_fewer_than_the_article() {
        let passed = |q: &str| {
            let sim = crate::model::Sim::new(&ratelab_sim::share::parse(q).0.setup).unwrap();
            let j = sim
                .lanes()
                .iter()
                .position(|l| l.id == "token_bucket")
                .unwrap();
            (0..sim.len())
                .filter(|&i| sim.outcome(j, i) == Some(crate::model::Decision::Allow))
                .count()
        };
        assert_eq!(
            passed("scenario=edge-burst") + 1,
            passed("scenario=edge-burst-demo"),
            "the description says \"one fewer\""
        );
        assert!(scenario_text(ScenarioId::EdgeBurst)
            .en
            .description
            .contains("one fewer"));
    }

    #[test]
    fn the_page_names_scenarios_as_the_registry_does() {
        for s in ratelab_sim::SCENARIOS {
            let t = scenario_text(s.id);
            assert_eq!(t.en.title, s.title, "{}", s.id);
            for text in [&t.en, &t.vi] {
                assert!(!text.title.is_empty() && !text.description.is_empty());
                assert!(!text.description.contains("SPEC"), "{}", s.id);
            }
        }
    }
}

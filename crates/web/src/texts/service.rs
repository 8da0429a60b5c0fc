//! The service view (a service scenario's lanes) and the "clients and service"
//! setup of the `service` scenario.

use super::Tr;

/// The service view's words.
#[derive(Debug)]
#[allow(missing_docs)]
pub struct ServiceTexts {
    pub heading: &'static str,
    pub intro: &'static str,
    pub demand: &'static str,
    pub demand_help: &'static str,
    pub offered: &'static str,
    pub offered_help: &'static str,
    pub amplification: &'static str,
    pub passed: &'static str,
    pub refused_429: &'static str,
    pub refused_503: &'static str,
    pub goodput: &'static str,
    pub first_try: &'static str,
    pub after_retry: &'static str,
    pub gave_up: &'static str,
    pub latency: &'static str,
    pub latency_help: &'static str,
    pub wait: &'static str,
    pub max_1s: &'static str,
    pub max_1s_key: &'static str,
    pub denied_by: &'static str,
    pub store: &'static str,
    pub fail_open: &'static str,
    pub fallback: &'static str,
    pub per_second: &'static str,
    pub busiest_second: &'static str,
    pub per_second_help: &'static str,
    pub allowed: &'static str,
    pub refused: &'static str,
    pub first_tries: &'static str,
    pub attempts: &'static str,
    pub attempts_help: &'static str,
    pub others: &'static str,
    pub clients: &'static str,
    pub client: &'static str,
    pub share: &'static str,
    pub rate_429: &'static str,
    pub none: &'static str,
    pub seconds: &'static str,
    /// The followed attempt's box: its title and help, its buttons, "attempt n
    /// of m", its request's first try, "response", the outage's words, "then",
    /// what the client did next, its request's chain, and a run with no refusal.
    pub refusal: &'static str,
    pub refusal_help: &'static str,
    pub earlier: &'static str,
    pub later: &'static str,
    pub to_first_refusal: &'static str,
    pub attempt_n: &'static str,
    pub of: &'static str,
    pub first_try_at: &'static str,
    pub response: &'static str,
    pub store_closed: &'static str,
    pub refusal_policy: &'static str,
    pub then: &'static str,
    pub done: &'static str,
    pub retries_at: &'static str,
    pub gives_up: &'static str,
    pub never_retries: &'static str,
    pub chain: &'static str,
    pub no_refusal: &'static str,
}

/// The service view's words in every language.
pub static SERVICE: Tr<ServiceTexts> = Tr {
    en: ServiceTexts {
        heading: "The service around the limiter",
        intro: "Each card is one variant of the service, run on the same first tries from the same seed; only what the service does with them differs. Every number is the engine's, over the whole run.",
        demand: "demand",
        demand_help: "first tries: what the clients wanted",
        offered: "offered",
        offered_help: "every attempt, retries included",
        amplification: "retry amplification",
        passed: "allowed",
        refused_429: "429 Too Many Requests",
        refused_503: "503 (store down, failing closed)",
        goodput: "requests that succeeded",
        first_try: "at the first try",
        after_retry: "after retrying",
        gave_up: "gave up",
        latency: "end-to-end latency",
        latency_help: "from a request's first try until it got through, retries included",
        wait: "queue wait",
        max_1s: "most allowed in any 1 s",
        max_1s_key: "for one key",
        denied_by: "refused by",
        store: "while the store was down",
        fail_open: "let through unchecked",
        fallback: "decided by the local fallback",
        per_second: "Attempts per second",
        busiest_second: "the busiest second had",
        per_second_help: "Bars: attempts that arrived each second, allowed (bottom) and refused (top). Line: first tries. Where the bars stand above the line, retries are adding load.",
        allowed: "allowed",
        refused: "refused",
        first_tries: "first tries",
        attempts: "Every attempt, by client",
        attempts_help: "One row per client, time from left to right. An arc joins a refused attempt to the retry the client sent after it. Click an attempt to follow it below; a ring marks the one followed.",
        others: "others",
        clients: "Per client",
        client: "client",
        share: "share of allowed",
        rate_429: "429 rate",
        none: "–",
        refusal: "One attempt, followed",
        refusal_help: "Click an attempt in the picture above, or step through them, to see what it got and what its client did next. It opens on the run's first refused request.",
        earlier: "◀ earlier attempt",
        later: "later attempt ▶",
        to_first_refusal: "first refusal",
        attempt_n: "attempt",
        of: "of",
        first_try_at: "its request's first try",
        response: "response",
        store_closed: "the store was down and the service fails closed",
        refusal_policy: "its client's retry policy",
        then: "then",
        done: "nothing more: the request succeeded",
        retries_at: "retries at",
        gives_up: "gives up: that was its last attempt",
        never_retries: "none: this client never retries",
        chain: "its request's attempts",
        no_refusal: "Nothing was refused in this run; click an attempt above to follow it.",
        seconds: "s",
    },
    vi: ServiceTexts {
        heading: "Dịch vụ bao quanh bộ giới hạn",
        intro: "Mỗi thẻ là một biến thể của dịch vụ, chạy trên cùng những lần gửi đầu tiên từ cùng một seed; chỉ khác ở cách dịch vụ xử lý chúng. Mọi con số đều do engine tính, trên toàn bộ lượt chạy.",
        demand: "nhu cầu",
        demand_help: "lần gửi đầu tiên: thứ khách thật sự muốn",
        offered: "tải thực gửi",
        offered_help: "mọi lần gửi, tính cả thử lại",
        amplification: "hệ số khuếch đại do thử lại",
        passed: "cho qua",
        refused_429: "429 Too Many Requests",
        refused_503: "503 (kho chung ngừng, đóng cửa)",
        goodput: "yêu cầu thành công",
        first_try: "ngay lần đầu",
        after_retry: "sau khi thử lại",
        gave_up: "bỏ cuộc",
        latency: "độ trễ đầu cuối",
        latency_help: "từ lần gửi đầu tiên của một yêu cầu đến khi nó qua được, tính cả thử lại",
        wait: "thời gian chờ trong hàng",
        max_1s: "cho qua nhiều nhất trong 1 s bất kỳ",
        max_1s_key: "cho một khóa",
        denied_by: "bị từ chối bởi",
        store: "khi kho chung ngừng",
        fail_open: "cho qua không kiểm tra",
        fallback: "do bộ dự phòng cục bộ quyết định",
        per_second: "Số lần gửi mỗi giây",
        busiest_second: "giây đông nhất có",
        per_second_help: "Cột: số lần gửi đến trong mỗi giây, phần cho qua (dưới) và bị từ chối (trên). Đường: lần gửi đầu tiên. Chỗ nào cột cao hơn đường, thử lại đang làm tăng tải.",
        allowed: "cho qua",
        refused: "từ chối",
        first_tries: "lần gửi đầu",
        attempts: "Mọi lần gửi, theo khách",
        attempts_help: "Mỗi hàng là một khách, thời gian từ trái sang phải. Một cung nối lần gửi bị từ chối với lần thử lại khách gửi sau đó. Bấm vào một lần gửi để theo dõi nó ở phía dưới; một vòng đánh dấu lần đang theo dõi.",
        others: "khác",
        clients: "Theo từng khách",
        client: "khách",
        share: "phần được cho qua",
        rate_429: "tỉ lệ 429",
        none: "–",
        refusal: "Theo dõi một lần gửi",
        refusal_help: "Bấm vào một lần gửi trong hình phía trên, hoặc lần lượt chuyển qua, để xem nó nhận được gì và khách của nó làm gì tiếp theo. Lúc mở, ô này theo request đầu tiên bị từ chối.",
        earlier: "◀ lần gửi trước",
        later: "lần gửi sau ▶",
        to_first_refusal: "lần từ chối đầu tiên",
        attempt_n: "lần gửi",
        of: "trên",
        first_try_at: "lần gửi đầu của request này",
        response: "phản hồi",
        store_closed: "kho chung ngừng và dịch vụ đóng cửa",
        refusal_policy: "chính sách thử lại của khách",
        then: "sau đó",
        done: "không còn gì: request đã thành công",
        retries_at: "thử lại lúc",
        gives_up: "bỏ cuộc: đó là lần gửi cuối cùng của nó",
        never_retries: "không: khách này không bao giờ thử lại",
        chain: "các lần gửi của request này",
        no_refusal: "Lần chạy này không từ chối request nào; bấm vào một lần gửi phía trên để theo dõi nó.",
        seconds: "s",
    },
};

/// The "clients and service" setup's words.
#[derive(Debug)]
#[allow(missing_docs)]
pub struct KnobTexts {
    pub legend: &'static str,
    pub clients: &'static str,
    pub load: &'static str,
    pub load_hint: &'static str,
    pub duration: &'static str,
    pub noisy: &'static str,
    pub retry: &'static str,
    pub backoff: &'static str,
    pub attempts: &'static str,
    pub key: &'static str,
    pub instances: &'static str,
    pub balance: &'static str,
    pub store: &'static str,
    pub outage: &'static str,
    pub outage_hint: &'static str,
    pub on_outage: &'static str,
    pub fallback: &'static str,
    pub fallback_hint: &'static str,
    pub retry_none: &'static str,
    pub retry_immediately: &'static str,
    pub retry_fixed: &'static str,
    pub retry_exponential: &'static str,
    pub retry_full_jitter: &'static str,
    pub retry_retry_after: &'static str,
    pub key_client: &'static str,
    pub key_global: &'static str,
    pub key_client_route: &'static str,
    pub balance_round_robin: &'static str,
    pub balance_random: &'static str,
    pub store_shared: &'static str,
    pub store_local: &'static str,
    pub outage_fail_open: &'static str,
    pub outage_fail_closed: &'static str,
    pub outage_fallback: &'static str,
}

/// The "clients and service" setup's words in every language.
pub static KNOBS: Tr<KnobTexts> = Tr {
    en: KnobTexts {
        legend: "Clients and service",
        clients: "clients",
        load: "each client's demand, × the limit",
        load_hint: "0.4",
        duration: "for",
        noisy: "client 0 sends × as much",
        retry: "after a 429",
        backoff: "delay (first delay, most jitter)",
        attempts: "attempts per request",
        key: "count by",
        instances: "app instances",
        balance: "balancer",
        store: "counters live",
        outage: "store down",
        outage_hint: "20s-40s",
        on_outage: "while it is down",
        fallback: "fallback limit per instance",
        fallback_hint: "the lane's",
        retry_none: "give up",
        retry_immediately: "retry at once",
        retry_fixed: "retry after a fixed delay",
        retry_exponential: "exponential backoff",
        retry_full_jitter: "exponential, full jitter",
        retry_retry_after: "wait for Retry-After (+ jitter)",
        key_client: "client",
        key_global: "one global key",
        key_client_route: "client and route",
        balance_round_robin: "round robin",
        balance_random: "random",
        store_shared: "in one shared store",
        store_local: "in each instance's memory",
        outage_fail_open: "fail open (let all in)",
        outage_fail_closed: "fail closed (503)",
        outage_fallback: "local fallback limiter",
    },
    vi: KnobTexts {
        legend: "Khách và dịch vụ",
        clients: "số khách",
        load: "nhu cầu mỗi khách, × giới hạn",
        load_hint: "0.4",
        duration: "trong",
        noisy: "khách 0 gửi gấp",
        retry: "sau một 429",
        backoff: "độ trễ (trễ đầu, jitter tối đa)",
        attempts: "số lần gửi mỗi yêu cầu",
        key: "đếm theo",
        instances: "số instance",
        balance: "bộ cân bằng tải",
        store: "bộ đếm nằm",
        outage: "kho chung ngừng",
        outage_hint: "20s-40s",
        on_outage: "khi kho ngừng",
        fallback: "giới hạn dự phòng mỗi instance",
        fallback_hint: "của làn",
        retry_none: "bỏ cuộc",
        retry_immediately: "thử lại ngay",
        retry_fixed: "thử lại sau một khoảng cố định",
        retry_exponential: "lùi theo cấp số nhân",
        retry_full_jitter: "cấp số nhân, jitter toàn phần",
        retry_retry_after: "chờ theo Retry-After (+ jitter)",
        key_client: "từng khách",
        key_global: "một khóa chung",
        key_client_route: "khách và route",
        balance_round_robin: "lần lượt (round robin)",
        balance_random: "ngẫu nhiên",
        store_shared: "trong một kho chung",
        store_local: "trong bộ nhớ từng instance",
        outage_fail_open: "mở cửa (cho qua hết)",
        outage_fail_closed: "đóng cửa (503)",
        outage_fallback: "bộ giới hạn dự phòng cục bộ",
    },
};

/// What to compare in each service scenario's cards, one sentence (none for a
/// scenario that is not a service one).
pub fn compare(id: ratelab_sim::ScenarioId, lang: super::Lang) -> Option<&'static str> {
    use ratelab_sim::ScenarioId as S;
    let (en, vi) = match id {
        S::NoisyNeighbour => (
            "Compare the quiet clients' 429 rate under “Per client”: with a key per client only the noisy one is refused; with one global key the quiet ones are refused for its traffic.",
            "Hãy so sánh tỉ lệ 429 của các khách yên lặng trong “Theo từng khách”: khi mỗi khách một khóa, chỉ khách ồn ào bị từ chối; khi dùng một khóa chung, khách yên lặng bị từ chối vì lưu lượng của nó.",
        ),
        S::RetryStorm => (
            "Compare “offered” with “demand” and the bars above the first tries' line after the page loads: retrying at once multiplies the load, waiting for Retry-After with jitter spreads it out.",
            "Hãy so sánh “tải thực gửi” với “nhu cầu” và các cột vượt trên đường lần gửi đầu sau lúc tải trang: thử lại ngay nhân tải lên nhiều lần, chờ theo Retry-After có jitter thì dàn tải ra.",
        ),
        S::Instances => (
            "Compare “most allowed in any 1 s”: instances counting each in their own memory let the client through above its limit; instances sharing one store hold it to the limit.",
            "Hãy so sánh “cho qua nhiều nhất trong 1 s bất kỳ”: các instance đếm trong bộ nhớ riêng cho khách qua vượt giới hạn; các instance dùng chung một kho giữ khách đúng giới hạn.",
        ),
        S::StoreOutage => (
            "Compare the shaded span, while the store is down: failing open lets every attempt through, failing closed answers 503 to all, the local fallback keeps a limit in each instance.",
            "Hãy so sánh đoạn được tô, khi kho chung ngừng: mở cửa cho mọi lần gửi qua, đóng cửa trả 503 cho tất cả, bộ dự phòng cục bộ giữ một giới hạn trong từng instance.",
        ),
        S::PageLoad => (
            "Compare the end-to-end latency and the retries of each page load: a burst of 1 refuses most of a page and makes it retry, a burst of 20 lets a whole page through at once.",
            "Hãy so sánh độ trễ đầu cuối và số lần thử lại của mỗi lần tải trang: burst 1 từ chối phần lớn trang và buộc nó thử lại, burst 20 cho cả trang qua một lúc.",
        ),
        S::StackedLimits => (
            "Compare “refused by”: the per-second limit stops the burst, the per-minute limit the total over the minute; stacked, each refuses what the other lets through.",
            "Hãy so sánh “bị từ chối bởi”: giới hạn mỗi giây chặn đợt dồn, giới hạn mỗi phút chặn tổng trong phút; chồng lên nhau, mỗi giới hạn từ chối thứ mà giới hạn kia cho qua.",
        ),
        S::ExpensiveRoute => (
            "Compare the exporter's row under “Per client”: an export that costs 5 spends its budget five times as fast, and a limit of its own caps exports without touching its reads.",
            "Hãy so sánh hàng của khách xuất dữ liệu trong “Theo từng khách”: một lần export tốn 5 tiêu ngân sách nhanh gấp năm, còn một giới hạn riêng chặn export mà không đụng đến lượt đọc.",
        ),
        S::Service => (
            "One card per limiter you chose, serving the same clients: change the clients and service in the setup, and compare the refusals, the retries and the latency.",
            "Mỗi bộ giới hạn bạn chọn là một thẻ, phục vụ cùng những khách: đổi khách và dịch vụ trong phần thiết lập, rồi so sánh số bị từ chối, số lần thử lại và độ trễ.",
        ),
        _ => return None,
    };
    Some(match lang {
        super::Lang::En => en,
        super::Lang::Vi => vi,
    })
}

/// The service scenarios' variant and limit names (as the engine labels them)
/// in Vietnamese; English is the label itself.
const NAMES_VI: &[(&str, &str)] = &[
    ("per-client key", "mỗi khách một khóa"),
    ("one global key", "một khóa chung"),
    ("retry at once", "thử lại ngay"),
    ("Retry-After", "chờ theo Retry-After"),
    ("Retry-After + 0–5 s", "chờ theo Retry-After + 0–5 s"),
    ("full jitter", "jitter toàn phần"),
    ("3 local, round robin", "3 instance đếm riêng, lần lượt"),
    ("3 local, random", "3 instance đếm riêng, ngẫu nhiên"),
    ("3 sharing a store", "3 instance dùng chung một kho"),
    ("fail open", "mở cửa"),
    ("fail closed", "đóng cửa"),
    ("local fallback", "dự phòng cục bộ"),
    ("burst 1, full jitter", "burst 1, jitter toàn phần"),
    ("burst 1, Retry-After", "burst 1, chờ theo Retry-After"),
    ("burst 20, full jitter", "burst 20, jitter toàn phần"),
    ("10/s alone", "chỉ 10/s"),
    ("100/min alone", "chỉ 100/phút"),
    ("10/s and 100/min", "10/s và 100/phút"),
    ("100/min", "100/phút"),
    ("export costs 1", "export tốn 1"),
    ("export costs 5", "export tốn 5"),
    ("exports: own limit", "export có giới hạn riêng"),
    ("exports 1/s", "export 1/s"),
    ("local 5/s", "cục bộ 5/s"),
];

/// A variant's or a limit's label in `lang` (as the engine wrote it when it is
/// not one of the scenarios' own).
pub fn name(label: &str, lang: super::Lang) -> &str {
    match lang {
        super::Lang::En => label,
        super::Lang::Vi => NAMES_VI
            .iter()
            .find(|(en, _)| *en == label)
            .map_or(label, |(_, vi)| vi),
    }
}

/// A client's name in `lang`: the scenarios' `quiet-0`, `user-3`, `reader-1`,
/// `noisy`, `exporter` in words (an unknown name as it is).
pub fn client_name(label: &str, lang: super::Lang) -> std::borrow::Cow<'_, str> {
    const VI: &[(&str, &str)] = &[
        ("quiet", "khách yên lặng"),
        ("noisy", "khách ồn ào"),
        ("user", "người dùng"),
        ("reader", "khách đọc"),
        ("exporter", "khách xuất dữ liệu"),
        ("client", "khách"),
    ];
    if lang == super::Lang::En {
        return label.into();
    }
    let (stem, n) = match label.rsplit_once('-') {
        Some((stem, n)) if n.bytes().all(|b| b.is_ascii_digit()) => (stem, Some(n)),
        _ => (label, None),
    };
    match VI.iter().find(|(en, _)| *en == stem) {
        Some((_, vi)) => match n {
            Some(n) => format!("{vi} {n}").into(),
            None => (*vi).into(),
        },
        None => label.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texts::Lang;
    use ratelab_sim::service::service_scenario;
    use ratelab_sim::ScenarioId;

    #[test]
    fn every_service_scenario_says_what_to_compare_and_names_its_variants_in_vi() {
        let mut scenarios = 0;
        for id in ScenarioId::ALL {
            let Some(specs) = service_scenario(id, 1) else {
                continue;
            };
            scenarios += 1;
            for lang in [Lang::En, Lang::Vi] {
                assert!(compare(id, lang).is_some(), "{id:?} {lang:?}");
            }
            for s in &specs {
                assert_ne!(name(&s.id, Lang::Vi), s.id, "{id:?}: {}", s.id);
                for l in &s.limits {
                    let id = &l.lane.id;
                    // Numbers, "/s" and "burst" (a word the vi texts keep) need no words.
                    let bare = id.replace("burst", "");
                    let same = bare.bytes().all(|b| !b.is_ascii_alphabetic() || b == b's');
                    assert!(same || name(id, Lang::Vi) != id, "limit {id}");
                }
                for c in &s.clients {
                    assert_ne!(client_name(&c.name, Lang::Vi), c.name.as_str());
                }
            }
        }
        assert_eq!(scenarios, 7);
        assert!(compare(ScenarioId::Service, Lang::Vi).is_some());
        assert_eq!(compare(ScenarioId::Golden, Lang::En), None);
        assert_eq!(client_name("user-12", Lang::Vi), "người dùng 12");
        assert_eq!(client_name("acme", Lang::Vi), "acme");
    }
}

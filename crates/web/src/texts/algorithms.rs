//! Each algorithm's name on the page. What each promises, where it fits and where
//! it misleads (three short paragraphs, written for this page) are in
//! `web/about/{en,vi}.txt`, fetched by the "about" box the first time it is opened
//! (`view::lanes::about`): text the first module does not carry. The claims with
//! numbers are checked against the engine by the tests below.

use ratelab_core::Algorithm;

use super::Lang;

/// The name of `algorithm` in `lang` (a match with no fallback: an algorithm
/// added to the engine without its name does not compile).
pub fn title(algorithm: Algorithm, lang: Lang) -> &'static str {
    use Algorithm::*;
    match lang {
        Lang::En => match algorithm {
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
        Lang::Vi => match algorithm {
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

/// The parts of the "about" box, in order: each algorithm's
/// `ALGORITHM.part` entries in `web/about/*.txt`.
pub const ABOUT_PARTS: [&str; 3] = ["promise", "fits", "misleads"];

#[cfg(test)]
mod tests {
    use super::*;
    use ratelab_sim::{run, simulate_json};

    /// The about box's texts, as the page fetches them.
    fn about(lang: Lang) -> ratelab_learn::texts::Texts {
        let source = match lang {
            Lang::En => include_str!("../../../../web/about/en.txt"),
            Lang::Vi => include_str!("../../../../web/about/vi.txt"),
        };
        ratelab_learn::texts::Texts::parse(source).unwrap()
    }

    #[test]
    fn every_algorithm_has_both_languages() {
        let (en, vi) = (about(Lang::En), about(Lang::Vi));
        for a in Algorithm::ALL {
            assert!(!title(a, Lang::En).is_empty() && !title(a, Lang::Vi).is_empty());
            for part in ABOUT_PARTS {
                let key = format!("{}.{part}", a.id());
                let (e, v) = (en.get(&key), vi.get(&key));
                assert!(e.is_some_and(|t| !t.is_empty()), "en {key}");
                assert!(v.is_some_and(|t| !t.is_empty()), "vi {key}");
                assert_ne!(e, v, "{key}");
            }
            assert_eq!(
                a.is_teaching(),
                en.get(&format!("{}.promise", a.id()))
                    .is_some_and(|t| t.starts_with("Wrong on purpose"))
            );
        }
        // The box's own reader finds what the parser finds.
        for (lang, texts) in [(Lang::En, &en), (Lang::Vi, &vi)] {
            let file = match lang {
                Lang::En => include_str!("../../../../web/about/en.txt"),
                Lang::Vi => include_str!("../../../../web/about/vi.txt"),
            };
            for key in texts.keys() {
                assert_eq!(
                    crate::view::lanes::about::entry(file, key),
                    texts.get(key).unwrap()
                );
            }
            assert_eq!(
                crate::view::lanes::about::entry(file, "gcra.nope"),
                "[gcra.nope]"
            );
        }
        // Nothing else: a key for no algorithm is a typo.
        for texts in [&en, &vi] {
            assert_eq!(
                texts.keys().count(),
                Algorithm::ALL.len() * ABOUT_PARTS.len()
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

//! `ratelab respond`: the response each limiter would send a request arriving at a
//! given time, after every request of the stream up to then: the status line, the
//! rate-limit headers in both dialects and, on a 429, `Content-Type` and the JSON
//! body: `ratelab_core::Headers::response_text`, the one text the page's full
//! response shows too. After a 429, why 429 and not 503 (ratelab-learn's texts).

use ratelab_learn::lesson::Lang;
use ratelab_sim::{Config, Timeline};

use crate::trace::heading;
use crate::Failure;

/// Each lane's response (only those in `only`, if any) to a request of cost 1 from
/// `key` at `at` ms.
pub fn render(
    config: &Config,
    only: &[String],
    at: u64,
    key: &str,
    lang: Lang,
) -> Result<String, Failure> {
    crate::trace::check_ids(config, only)?;
    // The playground's timeline, held to its budget (a huge sliding log is refused
    // with one line before the work).
    let timeline = Timeline::from_config(config)?;
    let mut out = String::new();
    let mut refused = false;
    for (j, lane) in config.lanes.iter().enumerate() {
        if !only.is_empty() && !only.contains(&lane.id) {
            continue;
        }
        let h = timeline.headers_at(j, key, at)?;
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&heading(&lane.id, lane.algorithm.id(), &lane.resolved()));
        out.push_str(&format!(
            " at {}{}\n",
            crate::table::seconds(at),
            if key.is_empty() {
                String::new()
            } else {
                format!(", key {key:?}")
            }
        ));
        out.push_str(&h.response_text());
        refused |= h.status == 429;
    }
    if refused {
        let t = lang.texts();
        out.push_str(&format!(
            "\n{}\n{}\n",
            t.or_key("response.why_429"),
            t.or_key("response.standards")
        ));
    }
    Ok(out)
}

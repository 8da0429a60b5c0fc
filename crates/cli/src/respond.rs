//! `ratelab respond`: the response each limiter would send a request arriving at a
//! given time, after every request of the stream up to then: the status line, the
//! rate-limit headers in both dialects and, on a 429, the JSON body. Everything is
//! `ratelab_core::Headers`, as the playground shows it.

use ratelab_core::Dialect;
use ratelab_sim::{Config, Timeline};

use crate::trace::heading;
use crate::Failure;

/// Each lane's response (only those in `only`, if any) to a request of cost 1 from
/// `key` at `at` ms.
pub fn render(config: &Config, only: &[String], at: u64, key: &str) -> Result<String, Failure> {
    crate::trace::check_ids(config, only)?;
    // The playground's timeline, held to its budget (a huge sliding log is refused
    // with one line before the work).
    let timeline = Timeline::from_config(config)?;
    let mut out = String::new();
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
            crate::labs::seconds(at),
            if key.is_empty() {
                String::new()
            } else {
                format!(", key {key:?}")
            }
        ));
        out.push_str(&format!("HTTP/1.1 {}\n", h.status_line()));
        let mut fields = h.fields(Dialect::Ietf);
        // Retry-After once, then the common dialect's three.
        fields.extend(
            h.fields(Dialect::Common)
                .into_iter()
                .filter(|(name, _)| *name != "Retry-After"),
        );
        for (name, value) in fields {
            out.push_str(&format!("{name}: {value}\n"));
        }
        if let Some(body) = h.body() {
            out.push_str(&format!("\n{body}\n"));
        }
    }
    Ok(out)
}

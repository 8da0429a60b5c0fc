//! The same lane in code: the smallest Rust (a `ratelab-tower` layer) and
//! JavaScript (`limiter(config).check(…)` of ratelab.js) lines, both from the
//! lane's limiter object in the JSON format. One function for the command line
//! (`ratelab lua`'s notes) and the playground's production box.

use alloc::format;
use alloc::string::String;

use ratelab_core::{Algorithm, Params};

/// A lane as code: its limiter object and the lines that use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeLines {
    /// The lane's limiter object, as the JSON format's `limiters` read it:
    /// `{"algorithm": "gcra", "limit": 100, "period_ms": 60000, "burst": 20}`
    /// (the options given, no more).
    pub json: String,
    /// A `ratelab-tower` layer with that limit (keyed by the client's address),
    /// for axum's `Router::layer` or any tower service.
    pub rust: String,
    /// A live limiter of ratelab.js with that limit, asked about one request.
    pub js: String,
}

/// The lines for `algorithm` with `params` (as the lane has them: options unset
/// stay unset). The engine's teaching variants get none: they are not for
/// production.
pub fn code_lines(algorithm: Algorithm, params: &Params) -> Option<CodeLines> {
    if matches!(
        algorithm,
        Algorithm::SlidingLogLogsBlocked | Algorithm::TokenBucketF64
    ) {
        return None;
    }
    let mut json = format!(
        "{{\"algorithm\": \"{}\", \"limit\": {}, \"period_ms\": {}",
        algorithm.id(),
        params.limit,
        params.period_ms
    );
    if let Some(b) = params.burst {
        json.push_str(&format!(", \"burst\": {b}"));
    }
    if algorithm == Algorithm::Nginx {
        if params.nodelay {
            json.push_str(", \"nodelay\": true");
        } else if let Some(d) = params.delay {
            json.push_str(&format!(", \"delay\": {d}"));
        }
    }
    json.push('}');
    let rust = format!(
        "let layer = ratelab_tower::RateLimitLayer::builder()\n    \
         .limit(ratelab_tower::Limit::from_json(r#\"{json}\"#)?)\n    \
         .build()?; // then Router::layer(layer), or any tower service\n"
    );
    let js = format!(
        "import {{ load }} from './ratelab.js';\n\
         const limit = (await load()).limiter({json});\n\
         const {{ status, headers, body }} = limit.check(Math.floor(performance.now()), 1, \"client-42\");\n"
    );
    Some(CodeLines { json, rust, js })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_name_the_lane() {
        let p = Params {
            burst: Some(20),
            ..Params::new(100, 60_000)
        };
        let c = code_lines(Algorithm::Gcra, &p).unwrap();
        assert_eq!(
            c.json,
            r#"{"algorithm": "gcra", "limit": 100, "period_ms": 60000, "burst": 20}"#
        );
        assert!(c
            .rust
            .contains(&format!("Limit::from_json(r#\"{}\"#)?", c.json)));
        assert!(c.js.contains(&format!("limiter({})", c.json)));
        let n = Params {
            delay: Some(2),
            burst: Some(5),
            ..Params::new(5, 10_000)
        };
        assert!(code_lines(Algorithm::Nginx, &n)
            .unwrap()
            .json
            .ends_with(r#""burst": 5, "delay": 2}"#));
        assert!(code_lines(Algorithm::TokenBucketF64, &p).is_none());
    }
}

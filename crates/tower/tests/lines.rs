//! The Rust lines `ratelab lua` and the playground's production box show for a
//! lane (`ratelab_scripts::code`) build a layer: here written out as code, with
//! the JSON the lines name, and compared with the text the lines are.

use ratelab_core::{Algorithm, Params};
use ratelab_scripts::code::code_lines;

/// The lines for GCRA at 100 per minute with a burst of 20, as code.
fn the_lines() -> Result<axum::Router, Box<dyn std::error::Error>> {
    let layer = ratelab_tower::RateLimitLayer::builder()
        .limit(ratelab_tower::Limit::from_json(
            r#"{"algorithm": "gcra", "limit": 100, "period_ms": 60000, "burst": 20}"#,
        )?)
        .build()?; // then Router::layer(layer), or any tower service
    let app = axum::Router::new()
        .route("/", axum::routing::get(|| async { "hello" }))
        .layer(layer);
    Ok(app)
}

#[test]
fn the_rust_lines_are_this_code() {
    let _app: axum::Router = the_lines().unwrap();
    let p = Params {
        burst: Some(20),
        ..Params::new(100, 60_000)
    };
    let c = code_lines(Algorithm::Gcra, &p).unwrap();
    assert_eq!(
        c.rust,
        "let layer = ratelab_tower::RateLimitLayer::builder()\n    \
         .limit(ratelab_tower::Limit::from_json(r#\"{\"algorithm\": \"gcra\", \"limit\": 100, \"period_ms\": 60000, \"burst\": 20}\"#)?)\n    \
         .build()?; // then Router::layer(layer), or any tower service\n"
    );
}

#[test]
fn every_limiters_lines_build_its_layer() {
    let lanes = [
        (Algorithm::FixedWindow, Params::new(5, 10_000)),
        (Algorithm::FixedWindowAnchored, Params::new(5, 10_000)),
        (Algorithm::SlidingLog, Params::new(5, 10_000)),
        (Algorithm::SlidingWindowCounter, Params::new(5, 10_000)),
        (
            Algorithm::TokenBucket,
            Params {
                burst: Some(8),
                ..Params::new(5, 10_000)
            },
        ),
        (Algorithm::LeakyQueue, Params::new(5, 10_000)),
        (
            Algorithm::Gcra,
            Params {
                burst: Some(3),
                ..Params::new(5, 10_000)
            },
        ),
        (
            Algorithm::Nginx,
            Params {
                burst: Some(4),
                delay: Some(2),
                ..Params::new(10, 1_000)
            },
        ),
        (
            Algorithm::Nginx,
            Params {
                burst: Some(4),
                nodelay: true,
                ..Params::new(10, 1_000)
            },
        ),
    ];
    for (a, p) in lanes {
        let c = code_lines(a, &p).unwrap();
        let limit = ratelab_tower::Limit::from_json(&c.json).unwrap();
        // The lane the JSON names is the lane the lines were made from.
        assert_eq!(limit.spec().algorithm, a, "{}", c.json);
        assert_eq!(limit.spec().params, p, "{}", c.json);
        ratelab_tower::RateLimitLayer::builder()
            .limit(limit)
            .build()
            .unwrap();
        assert!(c.rust.contains(&format!("r#\"{}\"#", c.json)));
    }
    assert!(code_lines(Algorithm::SlidingLogLogsBlocked, &Params::new(5, 10_000)).is_none());
}

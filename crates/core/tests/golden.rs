//! SPEC.md's golden table, exactly: decisions, passed, max in 10 s, the leaky-queue
//! waits, and the token values per row.

use ratelab_core::{Algorithm, AnyLimiter, Limiter, Ms, Params, Snapshot};

const STREAM_MS: [u64; 12] = [
    2000, 7000, 8000, 9000, 9500, 9800, 10_100, 10_400, 10_700, 11_200, 15_000, 19_500,
];

fn golden(algorithm: Algorithm) -> AnyLimiter {
    let params = Params {
        burst: Some(5),
        ..Params::new(5, 10_000)
    };
    AnyLimiter::new(algorithm, &params).unwrap()
}

/// Max allowed arrivals in any window `(t − w, t]`.
fn max_in_window(times: &[u64], w: u64) -> usize {
    times
        .iter()
        .map(|&end| times.iter().filter(|&&t| t <= end && t + w > end).count())
        .max()
        .unwrap_or(0)
}

fn run(algorithm: Algorithm) -> (String, usize, usize) {
    let mut l = golden(algorithm);
    let mut marks = String::new();
    let mut allowed = vec![];
    for t in STREAM_MS {
        let d = l.check(t, 1).unwrap();
        marks.push(if d.allowed() { '✓' } else { '✗' });
        if d.allowed() {
            allowed.push(t);
        }
    }
    (marks, allowed.len(), max_in_window(&allowed, 10_000))
}

#[test]
fn the_golden_table() {
    let table = [
        (Algorithm::FixedWindow, "✓✓✓✓✓✗✓✓✓✓✓✗", 10, 9),
        (Algorithm::FixedWindowAnchored, "✓✓✓✓✓✗✗✗✗✗✓✓", 7, 5),
        (Algorithm::SlidingLog, "✓✓✓✓✓✗✗✗✗✗✓✓", 7, 5),
        (Algorithm::SlidingWindowCounter, "✓✓✓✓✓✗✓✗✗✗✓✓", 8, 6),
        (Algorithm::TokenBucket, "✓✓✓✓✓✓✓✗✗✓✓✓", 10, 8),
        (Algorithm::LeakyQueue, "✓✓✓✓✓✓✓✓✗✓✓✓", 11, 9),
        (Algorithm::Gcra, "✓✓✓✓✓✓✓✗✗✓✓✓", 10, 8),
    ];
    for (algorithm, marks, passed, max10) in table {
        assert_eq!(
            run(algorithm),
            (marks.to_string(), passed, max10),
            "{}",
            algorithm.id()
        );
    }
}

#[test]
fn leaky_queue_waits() {
    let mut q = golden(Algorithm::LeakyQueue);
    let waits: Vec<Option<Ms>> = STREAM_MS
        .iter()
        .map(|&t| {
            let d = q.check(t, 1).unwrap();
            d.allowed().then_some(d.wait())
        })
        .collect();
    let expected_s = [
        Some("0 s"),
        Some("0 s"),
        Some("1 s"),
        Some("2 s"),
        Some("3.5 s"),
        Some("5.2 s"),
        Some("6.9 s"),
        Some("8.6 s"),
        None,
        Some("9.8 s"),
        Some("8 s"),
        Some("5.5 s"),
    ];
    let shown: Vec<Option<String>> = waits.iter().map(|w| w.map(|w| w.to_string())).collect();
    let expected: Vec<Option<String>> = expected_s.iter().map(|w| w.map(String::from)).collect();
    assert_eq!(shown, expected);
}

/// Tokens after refill, before taking: 5 5 4.5 4 3.25 2.4 1.55 0.7 0.85 1.1 2 3.25, and
/// GCRA's `min(b, (t + τ + T − TAT) / T)` gives the same numbers, row by row.
#[test]
fn token_values_per_row_agree() {
    let expected = [
        "5", "5", "4.5", "4", "3.25", "2.4", "1.55", "0.7", "0.85", "1.1", "2", "3.25",
    ];
    let mut tb = golden(Algorithm::TokenBucket);
    let mut gcra = golden(Algorithm::Gcra);
    for (t, want) in STREAM_MS.iter().zip(expected) {
        let tokens_tb = match tb.snapshot(*t) {
            Snapshot::TokenBucket { tokens, .. } => tokens,
            s => panic!("{s:?}"),
        };
        let tokens_gcra = match gcra.snapshot(*t) {
            Snapshot::Gcra { tokens, .. } => tokens,
            s => panic!("{s:?}"),
        };
        assert_eq!(tokens_tb.to_string(), want, "token bucket at {t} ms");
        assert_eq!(tokens_tb, tokens_gcra, "GCRA at {t} ms");
        tb.check(*t, 1).unwrap();
        gcra.check(*t, 1).unwrap();
    }
}

/// The float snippet blocks the request at 11.0 s that finds exactly one token.
#[test]
fn the_float_bucket_blocks_where_the_exact_one_allows() {
    let mut exact = golden(Algorithm::TokenBucket);
    let mut float = golden(Algorithm::TokenBucketF64);
    let stream = [
        2000, 7000, 8000, 9000, 9500, 9800, 10_100, 10_400, 10_700, 11_000,
    ];
    let mut differ = vec![];
    for t in stream {
        let e = exact.explain(t, 1).unwrap();
        let a = exact.check(t, 1).unwrap().allowed();
        let f = float.explain(t, 1).unwrap();
        let b = float.check(t, 1).unwrap().allowed();
        if a != b {
            differ.push((t, e.to_string(), f.to_string()));
        }
    }
    assert_eq!(
        differ,
        vec![(
            11_000,
            "11 s: tokens := min(5, 0.85 + 0.3 s · 5/10 s) = 1; tokens 1 ≥ 1 → allow".to_string(),
            "11 s: tokens := min(5.0, 0.8499999999999999 + 0.3 · 0.5) = 0.9999999999999999; \
             tokens 0.9999999999999999 < 1.0 → deny"
                .to_string()
        )]
    );
}

/// nginx's `burst=5` admits 6 at once; requests beyond are rejected, and without
/// `nodelay` the admitted ones leave evenly.
#[test]
fn nginx_burst_means_admitted_at_once_minus_one() {
    let mut n = AnyLimiter::new(
        Algorithm::Nginx,
        &Params {
            burst: Some(5),
            nodelay: true,
            ..Params::new(1, 1000)
        },
    )
    .unwrap();
    let admitted = (0..12).filter(|_| n.check(0, 1).unwrap().allowed()).count();
    assert_eq!(admitted, 6);
}

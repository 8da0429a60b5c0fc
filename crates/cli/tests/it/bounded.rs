//! Bounded work on the command line (issue 17): the input is capped and read in
//! chunks, a trace's output and memory grow linearly (long states cut), runs over
//! their budget exit 2 with one line, and text echoed from the input cannot drive
//! the terminal or reverse a line.

use std::process::Output;

use crate::support;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// One line on stderr, `error: …`, and status 2.
fn refused(o: &Output) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.starts_with("error: ") && e.ends_with('\n'), "{e:?}");
    assert_eq!(e.lines().count(), 1, "{e:?}");
    e
}

/// `ratelab simulate /dev/zero` stops at the cap instead of reading forever.
#[test]
fn endless_input_stops_at_the_cap() {
    for command in ["simulate", "trace"] {
        let o = support::ratelab(&[command, "/dev/zero"], b"");
        assert_eq!(
            refused(&o),
            "error: /dev/zero: more than 67108864 bytes of input (at most 64 MiB)\n"
        );
    }
    // Standard input too, refused as soon as the cap is passed.
    let big = vec![b' '; (64 << 20) + 1];
    let o = support::ratelab(&["simulate"], &big);
    assert_eq!(
        refused(&o),
        "error: standard input: more than 67108864 bytes of input (at most 64 MiB)\n"
    );
    // Not UTF-8.
    let o = support::ratelab(&["simulate"], b"{\"scenario\": \"\xff\"}");
    assert_eq!(
        refused(&o),
        "error: standard input: not UTF-8 text (invalid byte at offset 14)\n"
    );
}

/// Requests at every ms against a sliding log that never fills: each row's state
/// is the whole log.
fn big_log(n: usize) -> String {
    let times: Vec<String> = (0..n).map(|t| t.to_string()).collect();
    format!(
        r#"{{"requests": [{}], "limiters": [{{"algorithm": "sliding_log", "limit": 1000000, "period_ms": 9007199254740991}}]}}"#,
        times.join(",")
    )
}

/// 3 000 requests against a big log printed 93 MB; the rows now cut the log to a
/// few entries and a count, so the output grows linearly.
#[test]
fn a_trace_of_a_big_log_is_bounded() {
    let o = support::ratelab(&["trace"], big_log(3_000).as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out.lines().count(), 3_000 + 2);
    assert!(out.len() < 600_000, "{} bytes", out.len());
    let last = out.lines().last().unwrap();
    assert!(
        last.contains("log = [0, 0.001, 0.002, … 2994 more, 2.997, 2.998]")
            && last.contains("log = [0, 0.001, 0.002, … 2995 more, 2.998, 2.999]"),
        "{last}"
    );
}

/// 20 000 requests (200 million log entries to show) aborted with "memory
/// allocation failed" (status 134); now the estimate refuses them first.
#[test]
fn a_trace_over_its_budget_exits_2() {
    let o = support::ratelab(&["trace"], big_log(20_000).as_bytes());
    let e = refused(&o);
    assert!(
        e.starts_with("error: too much for one run: about ")
            && e.contains("(20000 requests × 1 limiter"),
        "{e}"
    );
    // The same stream simulates: a run holds decisions, not traces.
    let o = support::ratelab(&["simulate"], big_log(20_000).as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A key that would set the terminal's title, a key with a line break and an id with
/// a right-to-left override are printed as escapes.
#[test]
fn text_from_the_input_cannot_drive_the_terminal() {
    let input = r#"{"requests": [{"t": 0, "key": "\u001b]0;owned\u0007"}, {"t": 1, "key": "a\nb"}],
        "limiters": [{"algorithm": "gcra", "id": "x\u202ey", "limit": 2, "period_ms": 1000}]}"#;
    let o = support::ratelab(&["trace"], input.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        !out.chars()
            .any(|c| ratelab_sim::text::is_unsafe(c) && c != '\n'),
        "{out:?}"
    );
    assert_eq!(out.lines().count(), 4, "{out}");
    assert!(out.starts_with("x\\u{202e}y (gcra: 2 per 1 s"), "{out}");
    assert!(out.contains("\\u{1b}]0;owned\\u{7}"), "{out}");
    assert!(out.contains("a\\nb"), "{out}");
    // In an error line too (`--limiter` echoes the id it was given).
    let o = support::ratelab(
        &["trace", "--limiter", "\u{202e}\u{1b}[2J"],
        input.as_bytes(),
    );
    let e = refused(&o);
    assert!(e.contains("\"\\u{202e}\\u{1b}[2J\""), "{e}");
    assert!(e.contains("ids: x\\u{202e}y"), "{e}");
}

/// `respond` builds the playground's timeline, so it is held to the playground's
/// budget: six huge sliding logs over 100 000 distinct times are refused with one
/// line, before the work.
#[test]
fn respond_is_held_to_the_playgrounds_budget() {
    let times: Vec<String> = (0..100_000).map(|t| t.to_string()).collect();
    let lane = r#"{"algorithm": "sliding_log", "limit": 1000000, "period_ms": 9007199254740991}"#;
    let input = format!(
        r#"{{"requests": [{}], "limiters": [{}]}}"#,
        times.join(","),
        [lane; 6].join(",")
    );
    let o = support::ratelab(&["respond", "--at", "0"], input.as_bytes());
    let e = refused(&o);
    assert!(
        e.starts_with("error: too much for one run: about ")
            && e.contains("(100000 requests × 6 limiters"),
        "{e}"
    );
}

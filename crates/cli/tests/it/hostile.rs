//! Every kind of bad input SPEC lists, through the built binary: exit status 2,
//! nothing on stdout, and exactly one line on stderr, `error: <the same message
//! simulate_json gives>` (the table is ratelab-sim's, shared with its errors.rs).

use std::process::Output;

#[path = "../../../sim/tests/it/support/bad_inputs.rs"]
mod bad_inputs;
use crate::support;

fn ratelab(args: &[&str], stdin: &str) -> Output {
    support::ratelab(args, stdin.as_bytes())
}

/// Status 2, no output, `error: <message>` and a newline on stderr.
fn refused(args: &[&str], input: &str) -> Result<String, String> {
    let o = ratelab(args, input);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    if o.status.code() != Some(2) || !o.stdout.is_empty() {
        return Err(format!(
            "status {:?}, stdout {} bytes",
            o.status.code(),
            o.stdout.len()
        ));
    }
    match err
        .strip_prefix("error: ")
        .and_then(|e| e.strip_suffix('\n'))
    {
        Some(line) if !line.contains('\n') => Ok(line.to_string()),
        _ => Err(format!("not one `error: ` line: {err:?}")),
    }
}

#[test]
fn every_kind_of_bad_input_exits_2_with_its_line() {
    let mut wrong = Vec::new();
    for (what, input, message) in bad_inputs::cases() {
        for args in [&["simulate"][..], &["trace"]] {
            match refused(args, &input) {
                Ok(line) if line == message => {}
                Ok(line) => wrong.push(format!(
                    "{what} ({args:?}): expected {message}\n  got {line}"
                )),
                Err(e) => wrong.push(format!("{what} ({args:?}): {e}")),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn ten_million_requests_on_stdin_exit_2() {
    let input = format!(
        r#"{{"requests": [{}0], "limiters": [{{"algorithm": "gcra", "limit": 5, "period_ms": 1000}}]}}"#,
        "0,".repeat(10_000_000)
    );
    assert_eq!(
        refused(&["simulate"], &input).unwrap(),
        "requests: 10000001 requests is too many (at most 2000000)"
    );
}

#[test]
fn bytes_that_are_not_text_exit_2() {
    let o = support::ratelab(&["simulate"], &[0xff, 0xfe, b'{', b'}', b'\n', 0x00]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.starts_with("error: ") && err.lines().count() == 1,
        "{err:?}"
    );
}

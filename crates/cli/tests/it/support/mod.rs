//! Running the built `ratelab` binary, for the integration tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `ratelab args...` with `stdin` as its input and waits for it.
pub fn ratelab(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ratelab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the ratelab binary starts");
    let mut input = child.stdin.take().expect("a piped stdin");
    // The binary may reject its arguments or its input and exit before reading
    // all of it: a broken pipe then is expected, anything else is not.
    if let Err(e) = input.write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    drop(input);
    child
        .wait_with_output()
        .expect("the ratelab binary finishes")
}

//! Helpers the command-line test binaries share (each `tests/*.rs` is its own crate and
//! includes this module).

use std::process::{Command, Output};

/// Runs the `cwndlab` binary under test with `args`.
pub fn cwndlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cwndlab"))
        .args(args)
        .output()
        .expect("run cwndlab")
}

/// Its standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

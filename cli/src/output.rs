//! Writing a command's whole output to stdout or stderr.
//!
//! Both go through `anstream`, which strips colours when the stream is not a
//! terminal (or `--color never` / `NO_COLOR`). A reader that goes away early
//! (`toolsmith lint | head`) is not an error: the rest is dropped, as ripgrep does.

use std::io::{ErrorKind, Write};

/// Writes `text` to stdout.
pub fn stdout(text: &str) -> std::io::Result<()> {
    quiet_on_broken_pipe(write_all(anstream::stdout().lock(), text))
}

/// Writes `text` to stdout byte for byte (generated code: never strip anything).
pub fn stdout_raw(text: &str) -> std::io::Result<()> {
    quiet_on_broken_pipe(write_all(std::io::stdout().lock(), text))
}

/// Writes `text` to stderr.
pub fn stderr(text: &str) -> std::io::Result<()> {
    quiet_on_broken_pipe(write_all(anstream::stderr().lock(), text))
}

fn write_all(mut stream: impl Write, text: &str) -> std::io::Result<()> {
    stream.write_all(text.as_bytes())?;
    stream.flush()
}

fn quiet_on_broken_pipe(result: std::io::Result<()>) -> std::io::Result<()> {
    match result {
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

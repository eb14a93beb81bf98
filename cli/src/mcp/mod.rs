//! `toolsmith serve --mcp`: every tool of the given manifests offered to MCP
//! hosts through the same runtime and policy as `toolsmith run`, over the
//! official Rust SDK (`rmcp`).
//!
//! * [`toolset`]: the paths loaded into runtimes, and the `tools/list`
//!   entries (`toolsmith export --to mcp` plus risk annotations).
//! * [`server`]: the `ServerHandler`: calls on blocking threads, refusals
//!   and failures as `isError` results, cancellation, list-changed peers.
//! * [`watch`]: `--watch`, polling the manifests' files.
//! * [`http`]: `--http`, the streamable HTTP transport (loopback by default).
//! * [`client`]: the other side: `toolsmith lint --mcp-command` asks a
//!   server for its tool list with rmcp's client.

pub mod client;
pub mod http;
pub mod server;
pub mod toolset;
pub mod watch;

/// Writes one line on stderr, ignoring errors: a host that closed the
/// server's stderr must not make it panic (as `eprintln!` would).
pub fn log(line: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

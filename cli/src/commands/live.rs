//! `toolsmith lint --mcp-command -- PROGRAM ARGS…` (and `--save FILE`): lint
//! the tool list a live MCP server publishes. The list is written,
//! pretty-printed, to `--save FILE` (else to a temporary file whose name the
//! output gives) and linted there as the `mcp` dialect, so that findings
//! point into it; a server that cannot be asked gets a finding of its own
//! (`mcp/server-*`).

use crate::mcp::client::{self, Failure};
use std::path::PathBuf;
use std::time::Duration;
use toolsmith_manifest::Diagnostic;
use toolsmith_manifest::dialect::mcp;
use toolsmith_manifest::lint::{Input, detached};

/// The flags of `lint` that ask a live server.
#[derive(Debug, Clone, clap::Args)]
pub struct LiveArgs {
    /// Start a stdio MCP server and lint the tool list it publishes: the
    /// program and its arguments follow `--` (`--mcp-command -- npx -y server`).
    #[arg(long, requires = "server_argv", conflicts_with = "mcp_url")]
    pub mcp_command: bool,
    /// Ask the streamable-HTTP MCP server at this URL for its tool list and
    /// lint it (`--mcp-url http://127.0.0.1:8080/mcp`; plain `http` only:
    /// this build has no TLS).
    #[arg(long, value_name = "URL")]
    pub mcp_url: Option<String>,
    /// The server's program and arguments (after `--`, with `--mcp-command`);
    /// without `--mcp-command`, the words after `--` are paths to lint (so
    /// `toolsmith lint -- -odd-name.json` works as with any command).
    #[arg(last = true, value_name = "PROGRAM ARGS")]
    pub server_argv: Vec<String>,
    /// Write the tool list the server published here (pretty-printed JSON);
    /// findings point into it.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Seconds the whole session (start, `initialize`, every page of
    /// `tools/list`) may take before the server is stopped.
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    pub mcp_timeout: u64,
}

/// What asking the server gave: a saved list to lint, or the finding that
/// says why there is none.
#[derive(Debug)]
pub enum Asked {
    /// The saved file (lint it as `--dialect mcp`).
    Saved(Input),
    /// The server could not be asked.
    Failed(Diagnostic),
}

impl LiveArgs {
    /// True when a live server is asked for.
    pub fn requested(&self) -> bool {
        self.mcp_command || self.mcp_url.is_some()
    }

    /// True when `--mcp-command` takes the words after `--`.
    pub fn takes_trailing(&self) -> bool {
        self.mcp_command
    }

    /// How the server is named in findings and messages.
    fn display(&self) -> String {
        match &self.mcp_url {
            Some(url) => format!("mcp-url: {url}"),
            None => format!("mcp-command: {}", self.server_argv.join(" ")),
        }
    }

    /// The server as the user named it.
    fn named(&self) -> String {
        match &self.mcp_url {
            Some(url) => url.clone(),
            None => self.server_argv.join(" "),
        }
    }

    /// Asks the server and saves its list; `Err` for a file that cannot be written.
    pub fn ask(&self) -> Result<Asked, crate::error::Error> {
        let timeout = Duration::from_secs(self.mcp_timeout.max(1));
        let fetched = match &self.mcp_url {
            Some(url) => client::fetch_url(url, timeout),
            None => client::fetch_command(&self.server_argv, timeout),
        };
        let document = match fetched {
            Ok(document) => document,
            Err(failure) => return Ok(Asked::Failed(self.finding(failure))),
        };
        let path = match &self.save {
            Some(path) => path.clone(),
            None => std::env::temp_dir().join(format!(
                "toolsmith-{}-{}.mcp-tools.json",
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_millis())
            )),
        };
        let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
        text.push('\n');
        std::fs::write(&path, text).map_err(|source| crate::error::Error::Write {
            path: path.clone(),
            source,
        })?;
        if self.save.is_none() {
            anstream::eprintln!(
                "toolsmith: the tool list of `{}` was saved to {}",
                self.named(),
                path.display()
            );
        }
        Ok(Asked::Saved(Input::new(path)))
    }

    fn finding(&self, failure: Failure) -> Diagnostic {
        let display = self.display();
        let (rule, message) = match failure {
            Failure::Start(why) => (&mcp::SERVER_START, why),
            Failure::Timeout { stage, secs } => (
                &mcp::SERVER_TIMEOUT,
                if self.mcp_url.is_some() {
                    format!(
                        "the server did not answer {stage} within {secs} s; the session was closed"
                    )
                } else {
                    format!(
                        "the server did not answer {stage} within {secs} s; it was stopped (its whole process group)"
                    )
                },
            ),
            Failure::Exit {
                stage,
                status,
                stderr,
            } => {
                let status = status.map_or(String::new(), |s| format!(" ({s})"));
                let stderr = stderr.trim();
                let stderr = if stderr.is_empty() {
                    String::new()
                } else {
                    format!("; its stderr ends: {stderr:?}")
                };
                (
                    &mcp::SERVER_EXIT,
                    format!("the server exited{status} before answering {stage}{stderr}"),
                )
            }
            Failure::Garbage { line } => (
                &mcp::SERVER_GARBAGE,
                format!(
                    "the server wrote {line:?} on stdout, which is not JSON-RPC: an MCP stdio server writes only protocol messages there (logs go to stderr)"
                ),
            ),
            Failure::Protocol(why) => (&mcp::SERVER_PROTOCOL, why),
        };
        detached(&display, rule, message)
    }
}

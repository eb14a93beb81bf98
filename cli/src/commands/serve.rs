//! `toolsmith serve --mcp PATH...`: an MCP server (stdio, or streamable HTTP
//! with `--http`) offering every tool of the manifests through the runtime,
//! with `toolsmith run`'s options.

use crate::mcp::log;
use crate::mcp::server::{Server, SessionOptions, Shared};
use crate::mcp::toolset::{Config, ToolSet};
use crate::mcp::{http, watch};
use rmcp::ServiceExt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use toolsmith::RiskPolicy;

/// How long shutdown waits for the calls in flight to be killed and reaped.
const SHUTDOWN_BOUND: Duration = Duration::from_secs(10);

/// Arguments of `toolsmith serve`.
#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// Speak the Model Context Protocol (the only protocol served).
    #[arg(long, required = true)]
    pub mcp: bool,
    /// Manifests, skill directories (`tools.json`), directories of skills,
    /// or directories of self-describing executables.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
    /// Serve streamable HTTP at `http://ADDR/mcp` instead of stdio, e.g.
    /// `127.0.0.1:8080` (port 0 picks a free one; the address is printed).
    #[arg(long, value_name = "ADDR")]
    pub http: Option<String>,
    /// Let `--http` bind a non-loopback address (and accept any `Host`).
    #[arg(long, requires = "http")]
    pub allow_remote: bool,
    /// Reload when a manifest changes and send `notifications/tools/list_changed`.
    #[arg(long)]
    pub watch: bool,
    /// The risk policy (JSON): which tools are safe, and the autorun mode.
    /// Calls it wants confirmed are refused, since MCP gives the server no
    /// way to ask; without it every tool is risky.
    #[arg(long, value_name = "FILE")]
    pub risk: Option<PathBuf>,
    /// Run the calls the risk policy wants confirmed: the MCP host's own
    /// approval of each call stands in for the confirmation.
    #[arg(long)]
    pub autorun: bool,
    #[command(flatten)]
    pub call: super::policy_args::PolicyArgs,
}

/// Exit codes: 0 when the client closed the session (stdio) or on
/// SIGTERM/SIGINT; 1 refused to start (invalid option, unloadable manifest,
/// tool name declared twice); 2 the transport failed (address in use).
pub fn run(args: &ServeArgs) -> ExitCode {
    let shown = args.call.redaction();
    let (config, options) = match settings(args) {
        Ok(settings) => settings,
        Err(message) => return refused(&shown.redacted(&message)),
    };
    let address = match &args.http {
        Some(text) => match http::parse_address(text, args.allow_remote) {
            Ok(addr) => Some(addr),
            Err(message) => return refused(&message),
        },
        None => None,
    };
    let loaded = match ToolSet::load(&args.paths, &config) {
        Ok(loaded) => loaded,
        Err(message) => return refused(&shown.redacted(&message)),
    };
    for w in &loaded.warnings {
        log(format!("warning: {w}"));
    }
    if loaded.set.listed.is_empty() {
        log("warning: no tools found in the PATHs given: the server offers none");
    }
    for name in config.risk.tools.keys() {
        if !loaded.set.listed.iter().any(|t| t.name == name.as_str()) {
            log(format!(
                "warning: the risk policy names `{name}`, which no manifest served declares"
            ));
        }
    }
    let shared = Arc::new(Shared::new(loaded.set, options));
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            log(format!("toolsmith: cannot start the async runtime: {e}"));
            return ExitCode::from(2);
        }
    };
    let status = runtime.block_on(async {
        if args.watch {
            tokio::spawn(watch::run(
                Arc::clone(&shared),
                args.paths.clone(),
                config.clone(),
            ));
        }
        let served = match address {
            Some(addr) => http::serve(Arc::clone(&shared), addr, args.allow_remote, terminated())
                .await
                .map_err(|e| format!("cannot serve HTTP on {addr}: {e}")),
            None => tokio::select! {
                served = serve_stdio(Arc::clone(&shared)) => served,
                () = terminated() => Ok(()),
            },
        };
        // Whatever ended the server, no tool outlives it.
        shared.cancel_all(SHUTDOWN_BOUND).await;
        match served {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                log(format!("toolsmith: {e}"));
                ExitCode::from(2)
            }
        }
    });
    // A blocking read of stdin may still be pending: do not wait for it.
    runtime.shutdown_background();
    status
}

/// The tool-set configuration and session options from the flags.
fn settings(args: &ServeArgs) -> Result<(Config, SessionOptions), String> {
    let policy = args.call.policy()?;
    let risk = match &args.risk {
        Some(path) => risk_policy(path)?,
        None => RiskPolicy::default(),
    };
    let config = Config {
        policy,
        risk: risk.clone(),
        audit: args.call.audit.clone(),
    };
    let options = SessionOptions {
        risk,
        autorun: args.autorun,
        watch: args.watch,
        redact: args.call.redact.clone(),
    };
    Ok((config, options))
}

/// Reads a `--risk` file.
fn risk_policy(path: &Path) -> Result<RiskPolicy, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read --risk {}: {e}", path.display()))?;
    RiskPolicy::from_json(&text).map_err(|e| {
        format!(
            "--risk {}: not a risk policy: {e} (expected {{\"mode\": \"autorun_all\", \"tools\": {{\"NAME\": {{\"risk\": \"safe\"}}}}}})",
            path.display()
        )
    })
}

/// One session over stdin and stdout, until the client closes it.
async fn serve_stdio(shared: Arc<Shared>) -> Result<(), String> {
    log(format!(
        "toolsmith: serving {} tools over MCP on stdio",
        shared.tools().listed.len()
    ));
    let running = Server::new(shared)
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| format!("the MCP session did not start: {e}"))?;
    running
        .waiting()
        .await
        .map(drop)
        .map_err(|e| format!("the MCP session failed: {e}"))
}

/// Resolves on SIGTERM or SIGINT (never, if the handlers cannot be installed).
async fn terminated() {
    use tokio::signal::unix::{SignalKind, signal};
    match (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) {
        (Ok(mut term), Ok(mut int)) => {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
        }
        (Err(e), _) | (_, Err(e)) => {
            log(format!(
                "toolsmith: warning: cannot handle SIGTERM/SIGINT: {e}"
            ));
            std::future::pending::<()>().await;
        }
    }
}

fn refused(message: &str) -> ExitCode {
    log(format!("toolsmith: refused: {message}"));
    ExitCode::from(1)
}

//! `toolsmith run PATH TOOL 'ARGS_JSON'`: one tool call through the runtime.

use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use toolsmith::policy::MAX_TIMEOUT;
use toolsmith::{Audit, CancelToken, Catalog, Policy, Refusal, Runtime};

/// Arguments of `toolsmith run`.
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// The manifest: a chai or agentcli `tools.json` (or its directory), a
    /// describe file, or a directory of self-describing executables.
    pub path: PathBuf,
    /// The tool to call.
    pub tool: String,
    /// The call's arguments as a JSON object.
    pub args_json: String,
    /// Default timeout in seconds (a tool's `timeoutSec` overrides it).
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Bytes retained per output stream (head and tail).
    #[arg(long, value_name = "BYTES")]
    pub max_output: Option<usize>,
    /// Allow `resolveCommand` scripts from the skill's `scripts/` folder.
    #[arg(long)]
    pub allow_scripts: bool,
    /// Set a variable for the tool (repeatable), e.g. `--env TOOLSMITH_STUB=1`.
    #[arg(long = "env", value_name = "NAME=VALUE")]
    pub env: Vec<String>,
    /// Append audit events (JSON Lines) to this file.
    #[arg(long, value_name = "FILE")]
    pub audit: Option<PathBuf>,
    /// A secret replaced by `[REDACTED]` in every audit record and in a
    /// printed refusal (repeatable).
    #[arg(long, value_name = "VALUE")]
    pub redact: Vec<String>,
}

/// Exit codes: 0 success, 1 refused (unknown tool, not allowed, invalid
/// arguments, unloadable manifest), 2 the tool ran and failed, timed out or
/// was cancelled by SIGTERM/SIGINT (or could not be started).
pub fn run(args: &RunArgs) -> ExitCode {
    // Refusal texts can quote the secrets (an argument value, an option).
    let shown = Policy {
        redact: args.redact.clone(),
        ..Policy::default()
    };
    let refused = |kind: &str, message: &str| refused(kind, &shown.redacted(message));
    let policy = match policy(args.timeout, args.max_output, args.allow_scripts, &args.env) {
        Ok(p) => Policy {
            redact: args.redact.clone(),
            ..p
        },
        Err(msg) => return refused("invalid_option", &msg),
    };
    let mut rt = match load(&args.path, policy) {
        Ok(rt) => rt,
        Err(msg) => return refused("invalid_manifest", &msg),
    };
    for w in rt.warnings() {
        eprintln!("warning: {w}");
    }
    if let Some(path) = &args.audit {
        match Audit::append_to(path) {
            Ok(a) => rt = rt.with_audit(a),
            Err(e) => {
                return refused(
                    "invalid_option",
                    &format!("cannot open audit file {}: {e}", path.display()),
                );
            }
        }
    }
    // SIGTERM/SIGINT cancel the call: the tool's group is killed and the
    // outcome (`cancelled`, exit 2) printed as for any other ending.
    let cancel = CancelToken::new();
    if let Err(e) = super::signals::cancel_on_termination(cancel.clone()) {
        eprintln!("toolsmith: warning: cannot handle SIGTERM/SIGINT: {e}");
    }
    match rt.dispatch_with(&args.tool, &args.args_json, &cancel) {
        Ok(outcome) => {
            print_line(&outcome.to_json().to_string());
            if outcome.is_success() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            }
        }
        Err(refusal @ Refusal::Spawn { .. }) => {
            let message = shown.redacted(&refusal.to_string());
            eprintln!("toolsmith: {message}");
            print_line(&json!({"status": "spawn_failed", "error": message}).to_string());
            ExitCode::from(2)
        }
        Err(refusal) => refused(refusal.kind(), &refusal.to_string()),
    }
}

fn refused(kind: &str, message: &str) -> ExitCode {
    eprintln!("toolsmith: refused: {message}");
    print_line(&json!({"status": "refused", "kind": kind, "error": message}).to_string());
    ExitCode::from(1)
}

/// The policy from the command-line options (shared with `discover`).
pub(crate) fn policy(
    timeout: Option<f64>,
    max_output: Option<usize>,
    allow_scripts: bool,
    env: &[String],
) -> Result<Policy, String> {
    let mut policy = Policy {
        allow_scripts,
        ..Policy::default()
    };
    if let Some(secs) = timeout {
        let t = timeout_option(secs)?;
        policy.default_timeout = t;
        policy.helper_timeout = policy.helper_timeout.min(t);
    }
    if let Some(max) = max_output {
        policy.max_output = max;
    }
    for pair in env {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("--env expects NAME=VALUE, got {pair:?}"))?;
        if toolsmith::policy::is_denied_env(name) {
            return Err(format!(
                "environment variable {name} may not be set for a tool"
            ));
        }
        policy.set_env.insert(name.to_string(), value.to_string());
    }
    Ok(policy)
}

/// A `--timeout` in seconds: positive, finite and at most [`MAX_TIMEOUT`] (shared with `discover`).
pub(crate) fn timeout_option(secs: f64) -> Result<Duration, String> {
    // `{secs:?}` prints 1e300 as written, not as 301 digits.
    if secs > MAX_TIMEOUT.as_secs_f64() {
        return Err(format!(
            "invalid --timeout {secs:?}: at most {} seconds",
            MAX_TIMEOUT.as_secs()
        ));
    }
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| format!("invalid --timeout {secs:?}: expected a positive number of seconds"))
}

/// A manifest file or directory, or a directory (or file) of self-describing executables.
fn load(path: &Path, policy: Policy) -> Result<Runtime, String> {
    let is_manifest = if path.is_dir() {
        path.join("tools.json").is_file()
    } else {
        path.extension().is_some_and(|e| e == "json")
    };
    if is_manifest {
        return Runtime::load(path, policy).map_err(|e| e.to_string());
    }
    let (dir, only) = if path.is_dir() {
        (path.to_path_buf(), None)
    } else {
        // The directory the user named, not the symlink target's: `./shell`
        // -> /bin/sh must not make /usr/bin the catalog. A file that resolves
        // outside it is refused before anything runs.
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let root = dir
            .canonicalize()
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        let canonical = path
            .canonicalize()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if canonical.parent() != Some(root.as_path()) {
            return Err(format!(
                "{} resolves to {}, outside {}: only the executables of the directory named are discovered",
                path.display(),
                canonical.display(),
                root.display()
            ));
        }
        (root, Some(canonical))
    };
    let mut catalog =
        Catalog::discover_with(&dir, &policy).map_err(|e| format!("{}: {e}", dir.display()))?;
    for w in &catalog.warnings {
        eprintln!("warning: {w}");
    }
    if let Some(only) = only {
        catalog.entries.retain(|e| e.path == only);
    }
    let mut rt = Runtime::new(policy);
    rt.add_catalog(&catalog);
    Ok(rt)
}

/// Prints one line on stdout; a closed pipe (`| head`) is not an error.
pub(crate) fn print_line(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

//! The flags that make the policy of a tool call, shared by `run` and
//! `serve --mcp` (and, for `--timeout`/`--env`, `discover`).

use std::path::PathBuf;
use std::time::Duration;
use toolsmith::policy::MAX_TIMEOUT;
use toolsmith::{Policy, Sandbox};

/// Timeouts, output, environment, path sandbox, audit, redaction and
/// confinement of the calls.
#[derive(clap::Args, Debug, Clone)]
pub struct PolicyArgs {
    /// Default timeout in seconds (a tool's `timeoutSec` overrides it).
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Bytes retained per output stream (head and tail).
    #[arg(long, value_name = "BYTES")]
    pub max_output: Option<usize>,
    /// Allow `resolveCommand` scripts from the skill's `scripts/` folder.
    #[arg(long)]
    pub allow_scripts: bool,
    /// Set a variable for the tools (repeatable), e.g. `--env TOOLSMITH_STUB=1`.
    #[arg(long = "env", value_name = "NAME=VALUE")]
    pub env: Vec<String>,
    /// Append audit events (JSON Lines) of every call to this file.
    #[arg(long, value_name = "FILE")]
    pub audit: Option<PathBuf>,
    /// A root of the path sandbox (repeatable): chai `readPath`/`writePath`/
    /// `workingdir` values must resolve inside one. The first is where
    /// relative paths start and the default working directory.
    #[arg(long, value_name = "DIR")]
    pub sandbox: Vec<PathBuf>,
    /// Honour chai's `unsafePath` (parameters that skip every path check).
    #[arg(long)]
    pub allow_unsafe_path: bool,
    /// A secret replaced by `[REDACTED]` in every audit record and in the
    /// refusal texts shown (repeatable).
    #[arg(long, value_name = "VALUE")]
    pub redact: Vec<String>,
    #[command(flatten)]
    pub confine: super::confine::ConfineArgs,
}

impl PolicyArgs {
    /// A policy that only redacts: for texts shown before the real policy
    /// exists (an invalid option can quote a secret).
    pub fn redaction(&self) -> Policy {
        Policy {
            redact: self.redact.clone(),
            ..Policy::default()
        }
    }

    /// The policy of the calls; `Err` names the invalid option.
    pub fn policy(&self) -> Result<Policy, String> {
        let mut policy = base_policy(self.timeout, self.max_output, self.allow_scripts, &self.env)?;
        policy.redact = self.redact.clone();
        if !self.sandbox.is_empty() {
            policy.sandbox = Sandbox::new(&self.sandbox).map_err(|e| format!("--sandbox: {e}"))?;
        }
        policy.allow_unsafe_path = self.allow_unsafe_path;
        self.confine.apply(&mut policy)?;
        Ok(policy)
    }
}

/// The policy of `--timeout`, `--max-output`, `--allow-scripts` and `--env`
/// (also `discover`'s).
pub(crate) fn base_policy(
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

/// A `--timeout` in seconds: positive, finite and at most [`MAX_TIMEOUT`] (also `discover`'s).
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

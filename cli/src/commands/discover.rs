//! `toolsmith discover DIR`: the catalog of the self-describing tools in a directory.

use std::path::PathBuf;
use std::process::ExitCode;
use toolsmith::Catalog;

/// Arguments of `toolsmith discover`.
#[derive(clap::Args, Debug, Clone)]
pub struct DiscoverArgs {
    /// The directory of executables.
    pub dir: PathBuf,
    /// Timeout of each `--describe` run, in seconds.
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Set a variable for the tools (repeatable), e.g. `--env TOOLSMITH_STUB=1`.
    #[arg(long = "env", value_name = "NAME=VALUE")]
    pub env: Vec<String>,
}

/// Prints the catalog (a JSON array) on stdout and a warning on stderr for
/// every skipped executable. Exit 0, or 1 when DIR cannot be read.
pub fn run(args: &DiscoverArgs) -> ExitCode {
    let mut policy = match super::policy_args::base_policy(None, None, false, &args.env) {
        Ok(p) => p,
        Err(msg) => {
            eprintln!("toolsmith: {msg}");
            return ExitCode::from(1);
        }
    };
    if let Some(secs) = args.timeout {
        match super::policy_args::timeout_option(secs) {
            Ok(t) => policy.helper_timeout = t,
            Err(msg) => {
                eprintln!("toolsmith: {msg}");
                return ExitCode::from(1);
            }
        }
    }
    let catalog = match Catalog::discover_with(&args.dir, &policy) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("toolsmith: discover: {}: {e}", args.dir.display());
            return ExitCode::from(1);
        }
    };
    for w in &catalog.warnings {
        eprintln!("warning: {w}");
    }
    match serde_json::to_string_pretty(&catalog.to_json()) {
        Ok(text) => super::run::print_line(&text),
        Err(e) => {
            eprintln!("toolsmith: {e}");
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

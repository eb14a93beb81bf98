//! `toolsmith run PATH TOOL 'ARGS_JSON'`: one tool call through the runtime.

use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
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
    #[command(flatten)]
    pub call: super::policy_args::PolicyArgs,
    /// Print what the call would run (the plan) instead of running it.
    #[arg(long)]
    pub dry_run: bool,
    /// With --dry-run: `json` (default) or `human`.
    #[arg(long, value_name = "FORMAT", default_value = "json", value_parser = ["json", "human"])]
    pub format: String,
    /// With --dry-run: run `resolveCommand` steps (a side effect) instead of showing them.
    #[arg(long)]
    pub run_resolvers: bool,
    /// With --dry-run: apply the output pipeline to this text as the program's output.
    #[arg(long, value_name = "TEXT")]
    pub simulated_output: Option<String>,
    /// With --simulated-output: the exit code to simulate (default 0).
    #[arg(long, value_name = "CODE", default_value_t = 0)]
    pub simulated_exit: i32,
    /// With --simulated-output: run the `postProcess` program too.
    #[arg(long)]
    pub run_post_process: bool,
}

/// Exit codes: 0 success, 1 refused (unknown tool, not allowed, invalid
/// arguments, unloadable manifest), 2 the tool ran and failed, timed out or
/// was cancelled by SIGTERM/SIGINT (or could not be started).
pub fn run(args: &RunArgs) -> ExitCode {
    // Refusal texts can quote the secrets (an argument value, an option).
    let shown = args.call.redaction();
    let refused = |kind: &str, message: &str| refused(kind, &shown.redacted(message));
    let policy = match args.call.policy() {
        Ok(p) => p,
        Err(msg) => return refused("invalid_option", &msg),
    };
    let mut rt = match load(&args.path, policy) {
        Ok(rt) => rt,
        Err(msg) => return refused("invalid_manifest", &msg),
    };
    for w in rt.warnings() {
        eprintln!("warning: {w}");
    }
    if let Some(path) = &args.call.audit {
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
    if args.dry_run {
        return dry_run(&rt, args);
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

/// `--dry-run`: the plan as JSON (or for a person), exit 0; a refusal as `run` prints it.
fn dry_run(rt: &Runtime, args: &RunArgs) -> ExitCode {
    let plan = match rt.plan_dispatch(&args.tool, &args.args_json, args.run_resolvers) {
        Ok(plan) => plan,
        Err(refusal) => return refused(refusal.kind(), &refusal.to_string()),
    };
    let simulated = args.simulated_output.as_ref().map(|text| {
        let result = rt.simulate(&plan, text, args.simulated_exit, args.run_post_process);
        json!({
            "exit_code": args.simulated_exit,
            "success": result.is_some(),
            "result": result,
        })
    });
    if args.format == "human" {
        let mut text = plan.to_human();
        if let Some(sim) = &simulated {
            match sim["result"].as_str() {
                Some(result) => text.push_str(&format!("simulated result:\n{result}\n")),
                None => text.push_str("simulated result: failure (exit code not a success)\n"),
            }
        }
        print!("{text}");
        return ExitCode::SUCCESS;
    }
    let mut out = plan.to_json();
    if let (Some(sim), Some(o)) = (simulated, out.as_object_mut()) {
        o.insert("simulated".into(), sim);
    }
    print_line(&serde_json::to_string_pretty(&out).unwrap_or_default());
    ExitCode::SUCCESS
}

fn refused(kind: &str, message: &str) -> ExitCode {
    eprintln!("toolsmith: refused: {message}");
    print_line(&json!({"status": "refused", "kind": kind, "error": message}).to_string());
    ExitCode::from(1)
}

/// A manifest file or directory, or a directory (or file) of self-describing executables.
fn load(path: &Path, policy: Policy) -> Result<Runtime, String> {
    if is_manifest(path) {
        return Runtime::load(path, policy).map_err(|e| e.to_string());
    }
    let catalog = discover(path, &policy)?;
    for w in &catalog.warnings {
        eprintln!("warning: {w}");
    }
    let mut rt = Runtime::new(policy);
    rt.add_catalog(&catalog);
    Ok(rt)
}

/// Whether `path` names a manifest (a `.json` file, or a directory with a
/// `tools.json`) rather than self-describing executables (shared with `serve`).
pub(crate) fn is_manifest(path: &Path) -> bool {
    if path.is_dir() {
        path.join("tools.json").is_file()
    } else {
        path.extension().is_some_and(|e| e == "json")
    }
}

/// The self-describing executables of a directory, or the one executable
/// named (shared with `serve`).
pub(crate) fn discover(path: &Path, policy: &Policy) -> Result<Catalog, String> {
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
        Catalog::discover_with(&dir, policy).map_err(|e| format!("{}: {e}", dir.display()))?;
    if let Some(only) = only {
        catalog.entries.retain(|e| e.path == only);
    }
    Ok(catalog)
}

/// Prints one line on stdout; a closed pipe (`| head`) is not an error.
pub(crate) fn print_line(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

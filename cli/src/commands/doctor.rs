//! `toolsmith doctor`: what this machine can enforce, and what a policy
//! would get here.

use super::confine::read_policy;
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use toolsmith::confine::{Confinement, Mechanisms};

/// Arguments of `toolsmith doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// A confinement policy file to check (default: what `toolsmith run`
    /// enforces without flags).
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// `human` (default) or `json`.
    #[arg(long, value_name = "FORMAT", default_value = "human", value_parser = ["human", "json"])]
    pub format: String,
}

/// Exit 0 when the policy can be enforced in full here, 1 when not, 2 when
/// the policy file cannot be read.
pub fn run(args: &DoctorArgs) -> ExitCode {
    let policy = match &args.policy {
        Some(path) => match read_policy(path) {
            // As `toolsmith run` reads it: on unless it says `"enabled": false`.
            Ok(mut p) => {
                p.enabled.get_or_insert(true);
                p
            }
            Err(e) => {
                eprintln!("toolsmith: {e}");
                return ExitCode::from(2);
            }
        },
        None => Confinement {
            enabled: Some(true),
            ..Confinement::default()
        },
    };
    let m = Mechanisms::probe();
    let missing = m.missing(&policy);
    if args.format == "json" {
        let report = json!({
            "mechanisms": m,
            "policy": policy,
            "enforceable": missing.is_empty(),
            "missing": missing,
        });
        println!("{report}");
    } else {
        let yes = |b: bool| if b { "available" } else { "unavailable" };
        println!(
            "landlock: {}",
            match m.landlock_abi {
                0 => "unavailable".to_string(),
                v => format!("ABI {v} (files)"),
            }
        );
        println!("seccomp: {} (network)", yes(m.seccomp));
        println!(
            "cgroup: {} (memory and processes of the whole tree)",
            m.cgroup
                .map_or("none that toolsmith may create".to_string(), |v| {
                    format!("{v}, toolsmith may create groups")
                })
        );
        println!(
            "subreaper: {} (no descendant outlives a call)",
            yes(m.subreaper)
        );
        if missing.is_empty() {
            println!("the policy can be enforced in full");
        } else {
            for line in &missing {
                println!("cannot enforce: {line}");
            }
        }
    }
    if missing.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

//! `toolsmith rules`: every rule with its default severity, dialect and summary.

use crate::error::{Error, Status};
use crate::output;
use std::fmt::Write as _;
use toolsmith_manifest::registry;

/// Arguments of `toolsmith rules` (none yet).
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Prints the rule table: `id  severity  dialect  summary`, sorted by id.
pub fn run(_args: &Args) -> Result<Status, Error> {
    // The lint rules, then the generator's own (`toolsmith gen`, `tools!`).
    let mut all = registry::all();
    all.extend(toolsmith_codegen::issue::RULES.iter().copied());
    all.sort_by_key(|r| r.id);
    let width = all.iter().map(|r| r.id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for rule in all {
        let _ = writeln!(
            out,
            "{:width$}  {:7}  {:8}  {}",
            rule.id,
            rule.severity.to_string(),
            rule.dialect,
            rule.summary
        );
    }
    output::stdout(&out)?;
    Ok(Status::Ok)
}

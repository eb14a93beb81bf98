//! `toolsmith schema KIND`: the JSON Schema (draft 2020-12) of one kind of
//! file, for editors (completion, hover, squiggles without a language
//! server). The schemas are built by
//! [`toolsmith_manifest::editor_schema`] from the linter's own key tables.

use crate::error::{Error, Status};
use crate::output;
use toolsmith_manifest::editor_schema::FileKind;

/// Arguments of `toolsmith schema`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The kind of file: chai (tools.json), chai-execution (execution.json),
    /// chai-allowlist (allowlist.json), agentcli (tools.json), describe
    /// (*.describe.json), mcp (a tools/list result), config (toolsmith.toml).
    #[arg(value_name = "KIND", value_parser = parse_kind)]
    pub kind: FileKind,
}

fn parse_kind(name: &str) -> Result<FileKind, String> {
    FileKind::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = FileKind::ALL.iter().map(|k| k.name()).collect();
        format!("the kinds are {}", names.join(", "))
    })
}

/// Prints the schema as pretty JSON.
pub fn run(args: &Args) -> Result<Status, Error> {
    let schema = args.kind.schema();
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    output::stdout_raw(&text)?;
    Ok(Status::Ok)
}

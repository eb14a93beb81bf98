//! `toolsmith export PATH... --to TARGET [--strict] [--skip-incompatible]`:
//! print the tool list as a provider's request fragment (JSON on stdout);
//! the findings of the provider's rules go to stderr.

use crate::error::{Error, Status};
use crate::output;
use crate::render::{self, Format};
use crate::walk;
use std::path::PathBuf;
use toolsmith_manifest::lint::{self, Options};
use toolsmith_manifest::model::Tool;
use toolsmith_manifest::provider::export::{self, Request, Target, UnknownTarget};

/// Arguments of `toolsmith export`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Manifests or directories (walked as `lint` walks them).
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
    /// The provider format: openai-chat, openai-responses, anthropic, gemini, ollama, mcp.
    #[arg(long, value_name = "TARGET", value_parser = parse_target)]
    pub to: Target,
    /// Rewrite the schemas into the provider's strict form (openai-chat,
    /// openai-responses: optional properties become required and nullable,
    /// every object closed; anthropic: `strict: true` within its limits).
    #[arg(long)]
    pub strict: bool,
    /// Leave out the tools the provider would refuse instead of printing nothing.
    #[arg(long)]
    pub skip_incompatible: bool,
    /// Exit with status 1 on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
}

/// Parses a `--to` value; an unknown name lists the valid ones.
pub fn parse_target(name: &str) -> Result<Target, String> {
    name.trim()
        .parse()
        .map_err(|e: UnknownTarget| e.to_string())
}

/// Runs `toolsmith export`.
pub fn run(args: &Args) -> Result<Status, Error> {
    let request = Request {
        target: args.to,
        strict: args.strict,
        skip_incompatible: args.skip_incompatible,
    };
    if args.strict && !args.to.has_strict() {
        anstream::eprintln!("toolsmith: {}", export::NoStrictMode(args.to));
        return Ok(Status::ToolError);
    }
    let found = walk::collect(&args.paths, &walk::Exclude::default());
    for e in &found.errors {
        anstream::eprintln!("toolsmith: {e}");
    }
    if !found.errors.is_empty() {
        return Ok(Status::ToolError);
    }
    let report = match lint::lint(&found.inputs, &Options::default()) {
        Ok(report) => report,
        Err(source) => {
            anstream::eprintln!("toolsmith: cannot read a manifest: {source}");
            return Ok(Status::ToolError);
        }
    };
    let color = render::color_enabled(&std::io::stderr());
    let run = render::Run {
        files: report.files,
        ..render::Run::default()
    };
    if report.diagnostics.has_errors() {
        // A manifest with errors of its own is not exported.
        let text = render::render(Format::Human, &report.diagnostics, &run, color);
        output::stderr(&text)?;
        return Ok(Status::Findings);
    }
    let tools: Vec<&Tool> = report.manifests.iter().flat_map(|m| &m.tools).collect();
    let exported = match export::export(&tools, request) {
        Ok(exported) => exported,
        Err(e) => {
            anstream::eprintln!("toolsmith: {e}");
            return Ok(Status::ToolError);
        }
    };
    let mut diagnostics = report.diagnostics;
    diagnostics.0.extend(exported.diagnostics);
    diagnostics.sort();
    if !diagnostics.0.is_empty() {
        let text = render::render(Format::Human, &diagnostics, &run, color);
        output::stderr(&text)?;
    }
    if exported.counts.refused > 0 && !args.skip_incompatible {
        anstream::eprintln!(
            "toolsmith: {} of {} tools would be refused by {}; nothing exported (--skip-incompatible leaves them out)",
            exported.counts.refused,
            tools.len(),
            args.to
        );
    }
    if let Some(fragment) = &exported.fragment {
        let mut text = serde_json::to_string_pretty(fragment).unwrap_or_default();
        text.push('\n');
        output::stdout_raw(&text)?;
    }
    Ok(
        if diagnostics.has_errors() || (args.deny_warnings && diagnostics.warnings() > 0) {
            Status::Findings
        } else {
            Status::Ok
        },
    )
}

//! `toolsmith gen PATH [-o FILE]`: the code the `tools!` macro generates, formatted.
//!
//! On success the code goes to stdout (or FILE) and any warnings (lint
//! warnings, schemas generated as `serde_json::Value`) to stderr. When the manifest has errors
//! the diagnostics are rendered as `toolsmith lint` renders them (human) on
//! stderr, so that stdout never holds half a file, and the status is 1.

use crate::error::{Error, Status};
use crate::output;
use crate::render;
use std::path::PathBuf;

/// Arguments of `toolsmith gen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The manifest: a tools.json, a directory with chai's split files, or a describe file.
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
    /// Write the code to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Runs `toolsmith gen`.
pub fn run(args: &Args) -> Result<Status, Error> {
    if let Err(source) = std::fs::metadata(&args.path) {
        return Err(Error::Read {
            path: args.path.clone(),
            source,
        });
    }
    match toolsmith_codegen::generate_with_warnings(&args.path) {
        Ok(toolsmith_codegen::Generated { code, warnings }) => {
            if !warnings.0.is_empty() {
                let color = render::color_enabled(&std::io::stderr());
                output::stderr(&render::human::render_diagnostics(&warnings, color))?;
            }
            match &args.output {
                Some(path) => std::fs::write(path, code).map_err(|source| Error::Write {
                    path: path.clone(),
                    source,
                })?,
                None => output::stdout_raw(&code)?,
            }
            Ok(Status::Ok)
        }
        Err(diagnostics) => {
            let color = render::color_enabled(&std::io::stderr());
            let mut text = render::human::render_diagnostics(&diagnostics, color);
            text.push_str(&format!(
                "{} generating code for `{}`\n",
                match diagnostics.errors() {
                    1 => "1 error".to_string(),
                    n => format!("{n} errors"),
                },
                args.path.display()
            ));
            output::stderr(&text)?;
            Ok(Status::Findings)
        }
    }
}

//! The `toolsmith` command: lint LLM tool manifests, list the rules, print
//! the code the `tools!` macro generates.
//!
//! Adding a subcommand is one variant of [`Command`] plus one module in
//! `commands/` with an `Args` struct and a `run` function.
//!
//! The command is a library with a one-line binary (`src/bin/toolsmith.rs`)
//! so that the repository root can build it too: pre-commit's
//! `language: rust` runs `cargo install --path .` there.

mod atomic;
mod baseline;
mod commands;
mod config;
mod error;
mod fix;
mod mcp;
mod output;
mod render;
mod walk;

use clap::{Parser, Subcommand};

/// The allocator of the command (and of the pre-commit hook's copy of it):
/// linting allocates many small, short-lived values, where mimalloc is
/// faster than glibc's malloc (measured in the README's Speed section).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::process::ExitCode;

/// Make LLM tool manifests safe to ship.
#[derive(Debug, Parser)]
#[command(name = "toolsmith", version, about, propagate_version = true)]
struct Cli {
    #[command(flatten)]
    color: colorchoice_clap::Color,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Lint manifests (tools.json, allowlist.json, execution.json, *.describe.json, SKILL.md).
    Lint(commands::lint::Args),
    /// List every rule: id, default severity, dialect, explanation.
    Rules(commands::rules::Args),
    /// Show the settings toolsmith.toml gives a file (`--print PATH`).
    Config(commands::config::Args),
    /// Print the JSON Schema of a kind of file, for editors (completion and hover).
    Schema(commands::schema::Args),
    /// Print the Rust code the `tools!` macro generates for a manifest.
    Gen(commands::generate::Args),
    /// Run one tool call and print its outcome as JSON.
    Run(Box<commands::run::RunArgs>),
    /// Print the tool list as a provider's request fragment (JSON).
    Export(commands::export::Args),
    /// Print the catalog of the self-describing tools in a directory.
    Discover(commands::discover::DiscoverArgs),
    /// Show which confinement mechanisms this machine offers and what a policy would get.
    Doctor(commands::doctor::DoctorArgs),
    /// Serve the tools of manifests to MCP hosts (stdio, or streamable HTTP).
    Serve(Box<commands::serve::ServeArgs>),
}

/// Runs the command line of this process.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    cli.color.write_global();
    let outcome = match cli.command {
        Command::Lint(args) => commands::lint::run(&args),
        Command::Rules(args) => commands::rules::run(&args),
        Command::Config(args) => commands::config::run(&args),
        Command::Schema(args) => commands::schema::run(&args),
        Command::Gen(args) => commands::generate::run(&args),
        Command::Export(args) => commands::export::run(&args),
        Command::Run(args) => return commands::run::run(&args),
        Command::Discover(args) => return commands::discover::run(&args),
        Command::Doctor(args) => return commands::doctor::run(&args),
        Command::Serve(args) => return commands::serve::run(&args),
    };
    match outcome {
        Ok(status) => status.into(),
        Err(e) => {
            anstream::eprintln!("toolsmith: {e}");
            error::Status::ToolError.into()
        }
    }
}

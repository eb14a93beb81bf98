//! The `toolsmith` command.

mod commands;

use clap::{Parser, Subcommand};

/// Make LLM tool manifests safe to ship.
#[derive(Parser, Debug)]
#[command(name = "toolsmith", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run one tool call and print its outcome as JSON.
    Run(commands::run::RunArgs),
    /// Print the catalog of the self-describing tools in a directory.
    Discover(commands::discover::DiscoverArgs),
}

fn main() -> std::process::ExitCode {
    match Cli::parse().command {
        Command::Run(args) => commands::run::run(&args),
        Command::Discover(args) => commands::discover::run(&args),
    }
}

//! Subcommands.

pub mod discover;
pub mod run;

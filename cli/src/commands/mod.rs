//! One module per subcommand: its clap `Args` and its `run`.

pub mod discover;
pub mod generate;
pub mod lint;
pub mod rules;
pub mod run;
pub mod signals;

//! One module per subcommand: its clap `Args` and its `run`.

pub mod config;
pub mod confine;
pub mod discover;
pub mod doctor;
pub mod export;
pub mod generate;
pub mod lint;
pub mod live;
pub mod policy_args;
pub mod rules;
pub mod run;
pub mod schema;
pub mod serve;
pub mod signals;

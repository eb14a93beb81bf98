//! [`Refusal`]: why a call did not run (or could not start).

use crate::plan::Plan;
use crate::sandbox::PathError;
use crate::tool::{ArgvError, CallError};
use std::path::PathBuf;

/// Why a call was refused before any process started, or could not be started.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Refusal {
    /// Unknown tool, arguments that are not JSON, or schema violations (all of them).
    #[error(transparent)]
    Call(#[from] CallError),
    /// The arguments cannot be turned into argv (leading dash, NUL byte, size, missing positional).
    #[error(transparent)]
    Argv(#[from] ArgvError),
    /// The binary (and subcommand) is not in the allowlist.
    #[error("not allowlisted: {binary}{}", subcommand.as_deref().map(|s| format!(" {s}")).unwrap_or_default())]
    NotAllowlisted {
        /// The binary.
        binary: String,
        /// The subcommand, for chai tools.
        subcommand: Option<String>,
    },
    /// The program resolves outside the directory it must stay in (`tools/bin`, `scripts/`), symlinks included.
    #[error("path escapes {}: {} resolves to {}", root.display(), path.display(), resolved.display())]
    EscapingPath {
        /// The path as written.
        path: PathBuf,
        /// Where it resolves to.
        resolved: PathBuf,
        /// The directory it must stay in.
        root: PathBuf,
    },
    /// A relative program path without a base directory to resolve it against.
    #[error("relative program path {0:?} cannot be resolved (give the manifest directory)")]
    RelativeProgram(String),
    /// The program was not found or is not an executable file.
    #[error("program not found: {program} ({reason})")]
    ProgramNotFound {
        /// The program as written.
        program: String,
        /// Why.
        reason: String,
    },
    /// A passthrough environment name that is never passed (`PATH`, `LD_*`, `BASH_ENV`, …).
    #[error("environment variable {0} may not be passed to a tool")]
    DeniedEnv(String),
    /// A describe tool name with a path separator or `..`.
    #[error("invalid tool name {0:?}")]
    InvalidName(String),
    /// The tool's schema does not compile.
    #[error("tool {tool}: its parameter schema is invalid: {message}")]
    InvalidSchema {
        /// The tool.
        tool: String,
        /// The compiler's message.
        message: String,
    },
    /// A risky call was not confirmed; the plan of what it would have run,
    /// for showing to the person asked.
    #[error("tool {tool}: call not confirmed")]
    NotConfirmed {
        /// The tool.
        tool: String,
        /// What the call would run, when it could be planned.
        plan: Option<Box<Plan>>,
    },
    /// A path parameter outside the sandbox, or a value that looks like a path
    /// where the manifest does not declare one.
    #[error(transparent)]
    Path(#[from] PathError),
    /// chai's own call-time refusals: no execution spec matches, a deny
    /// pattern matches, a resolver failed, a missing stdin or temp-file value.
    #[error("{message}")]
    Rejected {
        /// The tool.
        tool: String,
        /// What is wrong.
        message: String,
    },
    /// The program changed on disk between planning and running.
    #[error("program {0} changed on disk after the call was planned")]
    ProgramChanged(PathBuf),
    /// argv and the environment together exceed what `execve` accepts.
    #[error("argv and environment total {total} bytes, above the limit of {limit} bytes")]
    ArgvTooLarge {
        /// The bytes `execve` would count (strings, NULs and pointers).
        total: usize,
        /// The limit (see the runtime documentation).
        limit: usize,
    },
    /// The operating system could not start the program.
    #[error("cannot start {program}: {message}")]
    Spawn {
        /// The program.
        program: String,
        /// The OS error.
        message: String,
    },
}

impl Refusal {
    /// A short machine-readable kind (`unknown_tool`, `not_allowlisted`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Refusal::Call(CallError::UnknownTool(_)) => "unknown_tool",
            Refusal::Call(CallError::InvalidJson { .. }) => "invalid_json",
            Refusal::Call(_) => "invalid_arguments",
            Refusal::Argv(ArgvError::LeadingDash { .. }) => "leading_dash",
            Refusal::Argv(ArgvError::NulByte { .. }) => "nul_byte",
            Refusal::Argv(ArgvError::TooLong { .. }) => "argument_too_long",
            Refusal::Argv(_) => "invalid_arguments",
            Refusal::NotAllowlisted { .. } => "not_allowlisted",
            Refusal::EscapingPath { .. } => "escaping_path",
            Refusal::RelativeProgram(_) => "relative_program",
            Refusal::ProgramNotFound { .. } => "program_not_found",
            Refusal::DeniedEnv(_) => "denied_env",
            Refusal::InvalidName(_) => "invalid_name",
            Refusal::InvalidSchema { .. } => "invalid_schema",
            Refusal::NotConfirmed { .. } => "not_confirmed",
            Refusal::Path(_) => "path",
            Refusal::Rejected { .. } => "rejected",
            Refusal::ProgramChanged(_) => "program_changed",
            Refusal::ArgvTooLarge { .. } => "argv_too_large",
            Refusal::Spawn { .. } => "spawn_failed",
        }
    }
}

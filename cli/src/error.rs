//! Tool errors (not findings) and the exit statuses they map to.

use std::path::PathBuf;
use std::process::ExitCode;

/// How a command ended; becomes the process exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// 0: nothing failed.
    Ok,
    /// 1: at least one error finding (or a warning under `--deny-warnings`).
    Findings,
    /// 2: usage error, or a path that cannot be read or written.
    ToolError,
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        ExitCode::from(match status {
            Status::Ok => 0,
            Status::Findings => 1,
            Status::ToolError => 2,
        })
    }
}

/// An error of the tool itself: printed on stderr, exit status 2.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A path named on the command line (or found by the walk) cannot be read.
    #[error("cannot read `{}`: {source}", path.display())]
    Read {
        /// The path as given.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A manifest found in a directory (or a sibling it needs) cannot be read.
    #[error("cannot read a manifest in `{}`: {source}", dir.display())]
    Lint {
        /// The directory of the manifests.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The `--exclude` patterns cannot be compiled together.
    #[error("--exclude: {0}")]
    Exclude(#[from] globset::Error),
    /// The directory walk failed on some entry.
    #[error("{0}")]
    Walk(#[from] ignore::Error),
    /// An output file cannot be written.
    #[error("cannot write `{}`: {source}", path.display())]
    Write {
        /// The output path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A config or baseline file that cannot be used.
    #[error("cannot use `{}`: {message}", path.display())]
    Config {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// Writing to stdout failed.
    #[error("cannot write output: {0}")]
    Output(#[from] std::io::Error),
}

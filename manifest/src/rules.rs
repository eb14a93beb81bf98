//! What a rule is: its id, default severity, dialect and summary.
//!
//! A rule is declared once, as a `static` next to the code that checks it
//! (`dialect/chai/args.rs`, `dialect/agentcli/command.rs`, …); the table of
//! all of them is [`crate::registry`]. This module depends on nothing else in
//! the crate, so every front end and dialect can declare rules.

use std::fmt;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Fails `toolsmith lint` and the build.
    Error,
    /// Reported, fails only with `--deny-warnings`.
    Warning,
    /// Information (a file nothing references, a permission worth a look);
    /// never fails a run.
    Note,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        })
    }
}

/// A lint rule.
#[derive(Debug, PartialEq, Eq)]
pub struct Rule {
    /// Stable id, `dialect/kebab-name`.
    pub id: &'static str,
    /// Default severity.
    pub severity: Severity,
    /// Dialect (or `input`, `json`, `yaml` for the front ends).
    pub dialect: &'static str,
    /// One line of explanation.
    pub summary: &'static str,
}

impl Rule {
    /// An error-by-default rule.
    pub const fn error(id: &'static str, dialect: &'static str, summary: &'static str) -> Self {
        Rule {
            id,
            severity: Severity::Error,
            dialect,
            summary,
        }
    }

    /// A note-by-default rule.
    pub const fn note(id: &'static str, dialect: &'static str, summary: &'static str) -> Self {
        Rule {
            id,
            severity: Severity::Note,
            dialect,
            summary,
        }
    }

    /// A warning-by-default rule.
    pub const fn warning(id: &'static str, dialect: &'static str, summary: &'static str) -> Self {
        Rule {
            id,
            severity: Severity::Warning,
            dialect,
            summary,
        }
    }
}

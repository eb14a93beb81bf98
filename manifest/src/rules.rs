//! The rule registry: every rule's id, default severity, dialect and summary.
//!
//! A rule is declared once, as a `static` next to the code that checks it
//! (`dialect/chai/rules.rs`, `dialect/agentcli.rs`, …), and listed here so that
//! `toolsmith rules`, SARIF output and the macro share one table.

use crate::diagnostic::Severity;

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

/// Every rule, sorted by id.
///
/// ```
/// let rules = toolsmith_manifest::rules::all();
/// assert!(rules.iter().any(|r| r.id == "json/syntax"));
/// assert!(rules.windows(2).all(|w| w[0].id < w[1].id));
/// ```
pub fn all() -> Vec<&'static Rule> {
    let mut rules: Vec<&'static Rule> = [
        crate::input::RULES,
        crate::cap::RULES,
        crate::json::RULES,
        crate::frontmatter::RULES,
        crate::yaml::RULES,
        crate::schema::RULES,
        crate::dialect::RULES,
        crate::dialect::chai::RULES,
        crate::dialect::agentcli::RULES,
        crate::dialect::describe::RULES,
        crate::dialect::skill::RULES,
    ]
    .concat();
    rules.sort_by_key(|r| r.id);
    rules
}

/// Looks a rule up by id.
pub fn find(id: &str) -> Option<&'static Rule> {
    all().into_iter().find(|r| r.id == id)
}

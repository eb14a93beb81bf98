//! What the generator itself reports: its rules, and findings that are
//! positioned later (see [`crate::locate`]).

use toolsmith_manifest::rules::Rule;

/// Two manifest names become the same Rust name after case conversion.
pub static NAME_COLLISION: Rule = Rule::error(
    "codegen/name-collision",
    "codegen",
    "two names become the same Rust identifier after case conversion",
);
/// A schema construct has no Rust type; it becomes `serde_json::Value`.
pub static UNREPRESENTABLE: Rule = Rule::warning(
    "codegen/unrepresentable",
    "codegen",
    "a schema has no Rust type of its own and is generated as serde_json::Value",
);

/// The generator's rules (for `toolsmith rules`).
pub static RULES: &[&Rule] = &[&NAME_COLLISION, &UNREPRESENTABLE];

/// Where a finding of the generator points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// Inside the schema of tool `tool` (or, for a skill, part `tool`: 0 params, 1 returns).
    Schema {
        /// Tool index in the manifest.
        tool: usize,
        /// JSON pointer below the schema root.
        pointer: String,
    },
    /// The `name` of tool `tool`.
    ToolName {
        /// Tool index.
        tool: usize,
    },
    /// Argument mapping `index` of tool `tool`'s execution spec.
    Mapping {
        /// Tool index.
        tool: usize,
        /// Index in `args`.
        index: usize,
    },
}

/// An unpositioned finding of the generator.
#[derive(Debug, Clone)]
pub struct Issue {
    /// The rule.
    pub rule: &'static Rule,
    /// Message naming the offending values.
    pub message: String,
    /// Where.
    pub place: Place,
}

impl Issue {
    /// A finding of `rule` at `place`.
    pub fn new(rule: &'static Rule, place: Place, message: impl Into<String>) -> Self {
        Issue {
            rule,
            message: message.into(),
            place,
        }
    }
}

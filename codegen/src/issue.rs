//! What the generator itself reports: its rules, and findings that are
//! positioned from the model ([`Issue::locate`]): every tool, schema and
//! mapping remembers where it was written, so no file is read again.

use std::sync::Arc;
use toolsmith_manifest::diagnostic::{Diagnostic, Finding};
use toolsmith_manifest::model::{Execution, Origin, Tool};
use toolsmith_manifest::rules::Rule;
use toolsmith_manifest::source::{Source, Span};

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

/// A tool the manifest declares has no model the generator can bind, although
/// no error names it: it would vanish from the bindings without a word.
pub static UNSUPPORTED_TOOL: Rule = Rule::error(
    "codegen/unsupported-tool",
    "codegen",
    "a declared tool cannot be bound; `skip_unsupported` leaves it out on purpose",
);

/// The generator's rules (for `toolsmith rules`).
pub static RULES: &[&Rule] = &[&NAME_COLLISION, &UNREPRESENTABLE, &UNSUPPORTED_TOOL];

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
    /// Argument mapping `index` of execution spec `spec` of tool `tool`.
    Mapping {
        /// Tool index.
        tool: usize,
        /// Spec index (chai: a tool may have several).
        spec: usize,
        /// Index in `args`.
        index: usize,
    },
}

/// What the places of the findings index into.
#[derive(Debug, Clone, Copy)]
pub enum Subject<'a> {
    /// A tool manifest's tools.
    Tools(&'a [Tool]),
    /// A skill's `metadata.params` (part 0) and `metadata.returns` (part 1).
    Skill([&'a Origin; 2]),
}

impl Subject<'_> {
    fn find(&self, place: &Place) -> Option<(&Arc<Source>, Span, String)> {
        match (self, place) {
            (Subject::Tools(tools), Place::ToolName { tool }) => {
                let origin = &tools.get(*tool)?.origin;
                let name = origin.name.as_ref()?;
                Some((origin.source.as_ref()?, name.span, name.pointer()))
            }
            (Subject::Tools(tools), Place::Schema { tool, pointer }) => {
                let origin = &tools.get(*tool)?.origin;
                let (span, pointer) = origin.schema_at(pointer)?;
                Some((origin.source.as_ref()?, span, pointer))
            }
            (Subject::Tools(tools), Place::Mapping { tool, spec, index }) => {
                let Execution::Chai(specs) = &tools.get(*tool)?.execution else {
                    return None;
                };
                let spec = specs.get(*spec)?;
                let mapping = spec.args.get(*index)?;
                Some((spec.source.as_ref()?, mapping.span, mapping.pointer.clone()))
            }
            (Subject::Skill(parts), Place::Schema { tool, pointer }) => {
                let origin = parts.get(*tool)?;
                let (span, pointer) = origin.schema_at(pointer)?;
                Some((origin.source.as_ref()?, span, pointer))
            }
            (Subject::Skill(_), _) => None,
        }
    }
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

    /// The positioned diagnostic; a place the model has no position for
    /// (a tool built in code) is reported at the start of `fallback`.
    pub fn locate(self, subject: Subject<'_>, fallback: &str) -> Diagnostic {
        let found = subject.find(&self.place);
        let (source, span, pointer) = match found {
            Some((source, span, pointer)) => (Arc::clone(source), span, pointer),
            None => (
                Arc::new(Source::new(fallback, "")),
                Span::default(),
                String::new(),
            ),
        };
        Finding::new(self.rule, span, pointer, self.message).locate_shared(&source)
    }
}

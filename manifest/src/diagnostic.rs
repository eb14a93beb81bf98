//! Findings: what a rule reports, with its position.

use crate::options::Profiles;
use crate::rules::Rule;
use crate::source::{Position, Source, Span};
use std::fmt;
use std::sync::Arc;

pub use crate::rules::Severity;

/// One finding in one file, positioned and ready to render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file, as given on the command line joined with the path below it.
    pub file: String,
    /// Stable rule id, e.g. `chai/binary-not-allowlisted`.
    pub rule: &'static str,
    /// Severity after profile adjustments.
    pub severity: Severity,
    /// The message; it names the offending value.
    pub message: String,
    /// Optional advice on how to fix it.
    pub help: Option<String>,
    /// Byte range of the offending key or value.
    pub span: Span,
    /// Start of the range (1-based).
    pub start: Position,
    /// End of the range (1-based, exclusive column).
    pub end: Position,
    /// JSON pointer of the offending value (`""` for the document).
    pub pointer: String,
    /// The dialect version the file was read as, where the verdict depends
    /// on it (`chai-legacy`, `chai-v0.5`); `None` for other dialects.
    pub dialect: Option<&'static str>,
    /// The skill profiles the file was checked under (skill files only).
    pub profile: Option<Profiles>,
    /// The file's text, shared by all its diagnostics, so that renderers show
    /// excerpts without reading the file again.
    pub source: Arc<Source>,
}

impl Diagnostic {
    /// Sort key: position first, then rule, then message.
    pub fn sort_key(&self) -> (&str, Position, &str, &str) {
        (&self.file, self.start, self.rule, &self.message)
    }
}

impl fmt::Display for Diagnostic {
    /// `path:line:col: severity[rule]: message`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}[{}]: {}",
            self.file, self.start.line, self.start.column, self.severity, self.rule, self.message
        )
    }
}

/// A finding before it is positioned: what rules produce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule that fired.
    pub rule: &'static Rule,
    /// Severity (the rule's default unless a profile changed it).
    pub severity: Severity,
    /// Message naming the offending value.
    pub message: String,
    /// How to fix it, when known.
    pub help: Option<String>,
    /// Where.
    pub span: Span,
    /// JSON pointer of the offending value.
    pub pointer: String,
    /// The dialect version the file was read as (`chai-legacy`, `chai-v0.5`).
    pub dialect: Option<&'static str>,
    /// The skill profiles the file was checked under (skill files only).
    pub profile: Option<Profiles>,
}

impl Finding {
    /// A finding of `rule` at `span` / `pointer`, with the rule's default severity.
    pub fn new(
        rule: &'static Rule,
        span: Span,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Finding {
            rule,
            severity: rule.severity,
            message: message.into(),
            help: None,
            span,
            pointer: pointer.into(),
            dialect: None,
            profile: None,
        }
    }

    /// Names the dialect version the file was read as (kept when already set).
    pub fn with_dialect(mut self, dialect: &'static str) -> Self {
        self.dialect.get_or_insert(dialect);
        self
    }

    /// Adds a `help:` line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Overrides the severity (profiles).
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// Positions the finding in `source` (copies the source; see [`Finding::locate_shared`]).
    pub fn locate(self, source: &Source) -> Diagnostic {
        self.locate_shared(&Arc::new(source.clone()))
    }

    /// Positions the finding in a shared `source`.
    pub fn locate_shared(self, source: &Arc<Source>) -> Diagnostic {
        Diagnostic {
            file: source.path().to_string(),
            rule: self.rule.id,
            severity: self.severity,
            message: self.message,
            help: self.help,
            span: self.span,
            start: source.position(self.span.start),
            end: source.position(self.span.end),
            pointer: self.pointer,
            dialect: self.dialect,
            profile: self.profile,
            source: Arc::clone(source),
        }
    }
}

/// All diagnostics of a run, sorted by file and position.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Number of errors.
    pub fn errors(&self) -> usize {
        self.0
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }
    /// Number of warnings.
    pub fn warnings(&self) -> usize {
        self.0
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count()
    }
    /// Number of notes.
    pub fn notes(&self) -> usize {
        self.0
            .iter()
            .filter(|d| d.severity == Severity::Note)
            .count()
    }
    /// True when at least one error is present.
    pub fn has_errors(&self) -> bool {
        self.errors() > 0
    }
    /// Sorts by (file, position, rule, message) and removes exact duplicates.
    pub fn sort(&mut self) {
        self.0.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        self.0.dedup();
    }
    /// Iterates over the diagnostics.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

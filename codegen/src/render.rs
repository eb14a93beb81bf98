//! The text of a compile error: `path:line:col: message [rule]`, the source
//! line and a caret under the offending range, then `help:`.

use std::fmt::Write;
use toolsmith_manifest::diagnostic::Diagnostic;

/// Renders one diagnostic; `line` is the text of its start line, when known.
///
/// ```
/// use toolsmith_manifest::{diagnostic::Finding, json, source::Source};
/// let text = "{\"a\": 1,}";
/// let finding = json::parse(text).findings.remove(0);
/// let d = finding.locate(&Source::new("tools.json", text));
/// let out = toolsmith_codegen::render::message(&d, Some(text));
/// assert!(out.starts_with("tools.json:1:9: "));
/// assert!(out.contains("[json/syntax]"));
/// assert!(out.contains("1 | {\"a\": 1,}\n  |         ^"));
/// ```
pub fn message(d: &Diagnostic, line: Option<&str>) -> String {
    let mut out = format!(
        "{}:{}:{}: {} [{}]",
        d.file, d.start.line, d.start.column, d.message, d.rule
    );
    if let Some(line) = line.filter(|l| !l.trim().is_empty()) {
        let number = d.start.line.to_string();
        let gutter = " ".repeat(number.len());
        let start = d.start.column.saturating_sub(1);
        let width = if d.end.line == d.start.line && d.end.column > d.start.column {
            d.end.column - d.start.column
        } else {
            1
        };
        // Keep tabs so that the caret lines up under the same characters.
        let pad: String = line
            .chars()
            .take(start)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let available = line.chars().count().saturating_sub(start).max(1);
        let carets = "^".repeat(width.min(available));
        let _ = write!(
            out,
            "\n{gutter} |\n{number} | {line}\n{gutter} | {pad}{carets}"
        );
    }
    if let Some(help) = &d.help {
        let _ = write!(out, "\nhelp: {help}");
    }
    out
}

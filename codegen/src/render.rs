//! The text of a compile error: `path:line:col: message [rule]`, the source
//! line and a caret under the offending range, then `help:`.

use std::fmt::Write;
use toolsmith_manifest::diagnostic::Diagnostic;

/// Renders one diagnostic with the text of its start line (from the source
/// the diagnostic carries).
///
/// ```
/// use toolsmith_manifest::{diagnostic::Finding, json, source::Source};
/// let text = "{\"a\": 1,}";
/// let finding = json::parse(text).findings.remove(0);
/// let d = finding.locate(&Source::new("tools.json", text));
/// let out = toolsmith_codegen::render::message(&d);
/// let caret = format!("1 | {text}\n  | {}^", " ".repeat(d.start.column - 1));
/// assert!(out.starts_with(&format!("tools.json:1:{}: ", d.start.column)));
/// assert!(out.contains("[json/syntax]"));
/// assert!(out.contains(&caret), "{out}");
/// ```
pub fn message(d: &Diagnostic) -> String {
    let line = Some(d.source.line_text(d.start.line));
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

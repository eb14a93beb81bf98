//! `--format json`: one object, `{"diagnostics":[…],"summary":{…}}`.

use serde::Serialize;
use toolsmith_manifest::{Diagnostics, Severity};

#[derive(Serialize)]
struct Output<'a> {
    diagnostics: Vec<Entry<'a>>,
    summary: Summary,
}

#[derive(Serialize)]
struct Entry<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    severity: Severity,
    rule: &'a str,
    message: &'a str,
    pointer: &'a str,
    /// The dialect version a chai file was read as; absent for other dialects.
    #[serde(skip_serializing_if = "Option::is_none")]
    dialect: Option<&'a str>,
}

#[derive(Serialize)]
struct Summary {
    files: usize,
    errors: usize,
    warnings: usize,
}

/// Renders the diagnostics as one pretty-printed JSON object and a newline.
pub fn render(diagnostics: &Diagnostics, files: usize) -> String {
    let output = Output {
        diagnostics: diagnostics
            .iter()
            .map(|d| Entry {
                file: &d.file,
                line: d.start.line,
                column: d.start.column,
                end_line: d.end.line,
                end_column: d.end.column,
                severity: d.severity,
                rule: d.rule,
                message: &d.message,
                pointer: &d.pointer,
                dialect: d.dialect,
            })
            .collect(),
        summary: Summary {
            files,
            errors: diagnostics.errors(),
            warnings: diagnostics.warnings(),
        },
    };
    // Serialising plain structs of strings and integers cannot fail.
    let mut text = serde_json::to_string_pretty(&output).unwrap_or_default();
    text.push('\n');
    text
}

//! `--format json`: one object, `{"diagnostics":[…],"summary":{…}}`.

use super::Run;
use serde::Serialize;
use std::collections::BTreeMap;
use toolsmith_manifest::{Diagnostics, Severity};

#[derive(Serialize)]
struct Output<'a> {
    diagnostics: Vec<Entry<'a>>,
    summary: Summary<'a>,
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
    /// The skill profiles a skill file was checked under (`claude-code`,
    /// `claude-code,copilot`); absent for other files.
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<String>,
}

#[derive(Serialize)]
struct Summary<'a> {
    files: usize,
    errors: usize,
    warnings: usize,
    #[serde(skip_serializing_if = "is_zero")]
    notes: usize,
    /// Files left out by `--exclude`.
    #[serde(skip_serializing_if = "is_zero")]
    skipped: usize,
    /// Skill files per profile.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    profiles: &'a BTreeMap<String, usize>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Renders the diagnostics as one pretty-printed JSON object and a newline.
pub fn render<'a>(diagnostics: &'a Diagnostics, run: &'a Run) -> String {
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
                profile: d.profile.map(|p| p.to_string()),
            })
            .collect(),
        summary: Summary {
            files: run.files,
            errors: diagnostics.errors(),
            warnings: diagnostics.warnings(),
            notes: diagnostics.notes(),
            skipped: run.skipped,
            profiles: &run.profiles,
        },
    };
    // Serialising plain structs of strings and integers cannot fail.
    let mut text = serde_json::to_string_pretty(&output).unwrap_or_default();
    text.push('\n');
    text
}

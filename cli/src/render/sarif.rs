//! `--format sarif`: a SARIF 2.1.0 log for GitHub code scanning.
//!
//! Hand-written structs (`serde-sarif` 0.8.0 does not build as a lone
//! dependency: it never enables serde's `derive`). One run; the driver's rules
//! table is [`registry::all`], results refer to it by `ruleIndex`; columns are
//! Unicode code points (`columnKind`), `endColumn` exclusive; relative paths
//! are relative to `%SRCROOT%`.

use serde::Serialize;
use std::collections::HashMap;
use toolsmith_manifest::registry;
use toolsmith_manifest::rules::Rule;
use toolsmith_manifest::{Diagnostic, Diagnostics, Severity};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const INFORMATION_URI: &str = "https://github.com/toolsmith-rs/toolsmith";

#[derive(Serialize)]
struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    tool: Tool,
    results: Vec<SarifResult>,
    column_kind: &'static str,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    information_uri: &'static str,
    rules: Vec<ReportingDescriptor>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReportingDescriptor {
    id: &'static str,
    name: String,
    short_description: Text,
    full_description: Text,
    help: Text,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties {
    tags: Vec<&'static str>,
    precision: &'static str,
    #[serde(rename = "problem.severity")]
    problem_severity: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: Vec<Location>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

fn descriptor(rule: &Rule) -> ReportingDescriptor {
    ReportingDescriptor {
        id: rule.id,
        // A readable PascalCase-free name: the id after the dialect.
        name: rule.id.rsplit('/').next().unwrap_or(rule.id).to_string(),
        short_description: Text {
            text: rule.summary.to_string(),
        },
        full_description: Text {
            text: rule.summary.to_string(),
        },
        help: Text {
            text: format!("{} (dialect: {})", rule.summary, rule.dialect),
        },
        default_configuration: Configuration {
            level: level(rule.severity),
        },
        properties: RuleProperties {
            tags: vec![rule.dialect],
            precision: "very-high",
            problem_severity: level(rule.severity),
        },
    }
}

/// Renders the diagnostics as a SARIF log (pretty-printed, with a newline).
pub fn render(diagnostics: &Diagnostics) -> String {
    let all = registry::all();
    let index: HashMap<&str, usize> = all.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
    let results = diagnostics
        .iter()
        .filter_map(|d| Some(result(d, *index.get(d.rule)?)))
        .collect();
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "toolsmith",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    information_uri: INFORMATION_URI,
                    rules: all.into_iter().map(descriptor).collect(),
                },
            },
            results,
            column_kind: "unicodeCodePoints",
        }],
    };
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_default();
    text.push('\n');
    text
}

fn result(d: &Diagnostic, rule_index: usize) -> SarifResult {
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let (uri, uri_base_id) = uri(&d.file);
    // SARIF regions need end ≥ start; an empty range still covers one column.
    let end_column = if d.end.line == d.start.line {
        d.end.column.max(d.start.column + 1)
    } else {
        d.end.column.max(1)
    };
    SarifResult {
        rule_id: d.rule,
        rule_index,
        level: level(d.severity),
        message: Text { text: message },
        locations: vec![Location {
            physical_location: PhysicalLocation {
                artifact_location: ArtifactLocation { uri, uri_base_id },
                region: Region {
                    start_line: d.start.line,
                    start_column: d.start.column,
                    end_line: d.end.line.max(d.start.line),
                    end_column,
                },
            },
        }],
    }
}

/// A display path as a URI reference: relative paths (without `./`) against
/// `%SRCROOT%`, absolute ones as `file://` URIs; `/` separators, percent-encoded.
fn uri(display: &str) -> (String, Option<&'static str>) {
    let path = display.replace('\\', "/");
    let mut rel = path.as_str();
    while let Some(rest) = rel.strip_prefix("./") {
        rel = rest;
    }
    if path.starts_with('/') {
        (format!("file://{}", encode(&path)), None)
    } else {
        (encode(rel), Some("%SRCROOT%"))
    }
}

fn encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(
            uri("./a b/tools.json"),
            ("a%20b/tools.json".into(), Some("%SRCROOT%"))
        );
        assert_eq!(uri("/tmp/é.json").0, "file:///tmp/%C3%A9.json");
    }
}

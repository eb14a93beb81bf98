//! Provider compatibility: snapshot tests over `fixtures/provider/` and
//! golden tests of `export`, with the strict rewrite checked by validating
//! generated instances against both schemas.
//!
//! Layout: `fixtures/provider/<provider>/<case>/` holds manifests the
//! provider is documented to refuse; they are linted with `--provider
//! <provider>` and compared with `<case>/expected.txt`.
//! `fixtures/provider/export/<case>/` holds manifests and one golden
//! `expected/<target>[-strict].json` per export (fragment, counts, findings).
//! `UPDATE_SNAPSHOTS=1` rewrites both (then review the diff).

use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use toolsmith_manifest::lint::{Input, Options, classify, lint};
use toolsmith_manifest::model::Tool;
use toolsmith_manifest::provider::export::{Request, Target, export};
use toolsmith_manifest::provider::{Provider, strict};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/provider")
}

fn update() -> bool {
    std::env::var_os("UPDATE_SNAPSHOTS").is_some()
}

fn subdirs(path: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(path)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

fn inputs(case: &Path) -> Vec<Input> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(case)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| classify(p).is_some())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| Input {
            display: path.file_name().unwrap().to_string_lossy().into_owned(),
            path,
        })
        .collect()
}

fn compare(path: &Path, actual: &str, failures: &mut Vec<String>) {
    if update() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected != actual {
        failures.push(format!(
            "{}: differs\n--- expected\n{expected}--- actual\n{actual}",
            path.display()
        ));
    }
}

#[test]
fn every_provider_has_fixtures_and_each_case_has_its_refusal() {
    let mut failures = Vec::new();
    let mut seen = Vec::new();
    for provider_dir in subdirs(&dir()) {
        let name = provider_dir
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if name == "export" {
            continue;
        }
        let provider: Provider = name.parse().unwrap_or_else(|e| panic!("{e}"));
        seen.push(provider);
        for case in subdirs(&provider_dir) {
            let options = Options {
                providers: vec![provider],
                ..Options::default()
            };
            let report = lint(&inputs(&case), &options).unwrap();
            let mut text = String::new();
            for d in report.diagnostics.iter() {
                text.push_str(&d.to_string());
                text.push('\n');
            }
            let own: Vec<_> = report
                .diagnostics
                .iter()
                .filter(|d| d.rule.starts_with("provider/"))
                .collect();
            // Ollama drops keywords, MCP names are a SHOULD and the
            // Responses API's `oneOf` refusal is unconfirmed: warnings.
            if own.is_empty() {
                failures.push(format!("{}: no provider refusal\n{text}", case.display()));
            }
            // Every finding names the provider.
            for d in &own {
                let names = ["OpenAI", "Anthropic", "Gemini", "Ollama", "MCP"];
                if !names.iter().any(|n| d.message.contains(n)) {
                    failures.push(format!(
                        "{}: message names no provider: {d}",
                        case.display()
                    ));
                }
                if d.help.is_none() && !d.rule.contains("near-limit") {
                    failures.push(format!("{}: no help on {d}", case.display()));
                }
            }
            compare(&case.join("expected.txt"), &text, &mut failures);
        }
    }
    seen.sort();
    assert_eq!(seen, Provider::ALL, "a fixture folder per provider");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn without_providers_no_provider_rule_runs() {
    let case = dir().join("openai-strict/keywords");
    let report = lint(&inputs(&case), &Options::default()).unwrap();
    assert!(
        report
            .diagnostics
            .iter()
            .all(|d| !d.rule.starts_with("provider/"))
    );
}

fn tools_of(case: &Path) -> Vec<Tool> {
    let report = lint(&inputs(case), &Options::default()).unwrap();
    report.manifests.into_iter().flat_map(|m| m.tools).collect()
}

#[test]
fn exports_match_their_goldens() {
    let mut failures = Vec::new();
    for case in subdirs(&dir().join("export")) {
        let tools = tools_of(&case);
        assert!(!tools.is_empty(), "{}", case.display());
        let refs: Vec<&Tool> = tools.iter().collect();
        for target in Target::ALL {
            for strict in [false, true] {
                if strict && !target.has_strict() {
                    continue;
                }
                let request = Request {
                    target,
                    strict,
                    skip_incompatible: true,
                };
                let out = export(&refs, request).unwrap();
                let golden = json!({
                    "counts": {
                        "exported": out.counts.exported,
                        "rewritten": out.counts.rewritten,
                        "refused": out.counts.refused,
                    },
                    "findings": out.diagnostics.iter().map(ToString::to_string).collect::<Vec<_>>(),
                    "fragment": out.fragment,
                });
                let name = format!(
                    "{}{}.json",
                    target.name(),
                    if strict { "-strict" } else { "" }
                );
                let text = serde_json::to_string_pretty(&golden).unwrap() + "\n";
                compare(&case.join("expected").join(&name), &text, &mut failures);
                // Without --skip-incompatible a refusal leaves no fragment.
                let strict_out = export(
                    &refs,
                    Request {
                        skip_incompatible: false,
                        ..request
                    },
                )
                .unwrap();
                assert_eq!(
                    strict_out.fragment.is_none(),
                    out.counts.refused > 0,
                    "{} {name}",
                    case.display()
                );
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn strict_without_a_strict_mode_is_refused() {
    let tools = tools_of(&dir().join("export/typical"));
    let refs: Vec<&Tool> = tools.iter().collect();
    for target in [Target::Gemini, Target::Ollama, Target::Mcp] {
        let request = Request {
            target,
            strict: true,
            skip_incompatible: false,
        };
        let err = export(&refs, request).unwrap_err();
        assert!(err.to_string().contains("has no strict mode"), "{err}");
    }
}

// --- the strict rewrite, checked with instances -------------------------

/// A value of `schema` (`full`: every property given; else only the required ones).
fn instance(schema: &Value, defs: &Value, full: bool) -> Value {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.rsplit('/').next().unwrap();
        return instance(&defs[name], defs, full);
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values[0].clone();
    }
    let ty = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts
            .iter()
            .find_map(|t| t.as_str().filter(|t| *t != "null"))
            .unwrap(),
        _ => "null",
    };
    match ty {
        "string" => {
            if schema.get("format").and_then(Value::as_str) == Some("date") {
                json!("2026-11-24")
            } else {
                json!("x")
            }
        }
        "integer" => json!(3),
        "number" => json!(1.5),
        "boolean" => json!(true),
        "array" => json!([instance(&schema["items"], defs, full)]),
        "object" => {
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut out = Map::new();
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (k, v) in props {
                    if full || required.contains(&k.as_str()) {
                        out.insert(k.clone(), instance(v, defs, full));
                    }
                }
            }
            Value::Object(out)
        }
        _ => Value::Null,
    }
}

/// The instance a strict-mode model sends: every absent optional as `null`.
fn with_nulls(schema: &Value, defs: &Value, value: &Value) -> Value {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.rsplit('/').next().unwrap();
        return with_nulls(&defs[name], defs, value);
    }
    match value {
        Value::Object(members) => {
            let mut out = Map::new();
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (k, sub) in props {
                    out.insert(
                        k.clone(),
                        members
                            .get(k)
                            .map_or(Value::Null, |v| with_nulls(sub, defs, v)),
                    );
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| with_nulls(&schema["items"], defs, v))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[test]
fn the_strict_rewrite_accepts_what_the_original_accepts_with_nulls_for_absent_optionals() {
    let tools = tools_of(&dir().join("export/typical"));
    let mut checked = 0;
    for tool in &tools {
        let original = &tool.parameters;
        let rewritten = strict::rewrite(original);
        let defs = original.get("$defs").cloned().unwrap_or(json!({}));
        let before = jsonschema::validator_for(original).unwrap();
        let after = jsonschema::validator_for(&rewritten).unwrap();
        for full in [true, false] {
            let sent = instance(original, &defs, full);
            assert!(before.is_valid(&sent), "{}: {sent}", tool.name);
            let strict_sent = with_nulls(original, &defs, &sent);
            assert!(
                after.is_valid(&strict_sent),
                "{}: rewritten schema refuses {strict_sent}: {rewritten:#}",
                tool.name
            );
            if !full && strict_sent != sent {
                // Strict mode needs every property: leaving one out is refused.
                assert!(!after.is_valid(&sent), "{}: {sent}", tool.name);
            }
            checked += 1;
        }
        // Closed objects: an extra argument is refused after the rewrite.
        let mut extra = with_nulls(original, &defs, &instance(original, &defs, true));
        extra
            .as_object_mut()
            .unwrap()
            .insert("unexpected".into(), json!(1));
        assert!(!after.is_valid(&extra), "{}: {extra}", tool.name);
    }
    assert!(checked >= 4);
}

#[test]
fn the_strict_rewrite_passes_the_strict_rules() {
    let tools = tools_of(&dir().join("export/typical"));
    for tool in &tools {
        let mut rewritten = tool.clone();
        rewritten.parameters = strict::rewrite(&tool.parameters);
        let checks = toolsmith_manifest::provider::check(Provider::OpenAiStrict, &[&rewritten]);
        let errors: Vec<_> = checks
            .iter()
            .filter(|c| c.finding.severity == toolsmith_manifest::Severity::Error)
            .map(|c| c.finding.message.clone())
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", tool.name);
    }
}

#[test]
fn list_limits_are_reported_once_per_file_with_the_count_and_the_limit() {
    let dir =
        std::env::temp_dir().join(format!("toolsmith-provider-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut props = Map::new();
    for i in 0..2600 {
        props.insert(format!("p{i:04}"), json!({"type": "string"}));
    }
    let values: Vec<String> = (0..1001)
        .map(|i| format!("{i:04}{}", "v".repeat(120)))
        .collect();
    let tool = |name: &str| {
        json!({"name": name, "description": "many", "parameters": {
            "type": "object", "additionalProperties": false,
            "required": props.keys().collect::<Vec<_>>(), "properties": props}})
    };
    let mut with_enum = tool("b");
    with_enum["parameters"]["properties"]["p0000"] = json!({"type": "string", "enum": values});
    let file = dir.join("tools.describe.json");
    std::fs::write(
        &file,
        serde_json::to_string(&json!([tool("a"), with_enum])).unwrap(),
    )
    .unwrap();
    let options = Options {
        providers: vec![Provider::OpenAiStrict],
        ..Options::default()
    };
    let report = lint(&[Input::new(&file)], &options).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let limits: Vec<String> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule.starts_with("provider/openai-limit"))
        .map(|d| format!("{}: {}", d.rule, d.message))
        .collect();
    assert_eq!(
        limits,
        [
            "provider/openai-limit-characters: this file's tools have 150,124 characters of property names, definition names and enum values in total, over OpenAI strict mode's limit of 120,000 per request (passed here)",
            "provider/openai-limit-enum: this file's tools have 1,001 enum values in total, over OpenAI strict mode's limit of 1,000 per request (passed here)",
            "provider/openai-limit-properties: this file's tools have 5,200 object properties in total, over OpenAI strict mode's limit of 5,000 per request (passed here)",
        ]
    );
}

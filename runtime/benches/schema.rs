//! `cargo bench -p toolsmith --bench schema`: toolsmith's own draft 2020-12
//! validator (`toolsmith::schema`) on fixture schemas — compiling a tool's
//! schema (done once per tool, at its first call) and validating one call's
//! arguments, valid and invalid (every violation listed).
//!
//! * `github_issue`: `fixtures/examples/describe-tools/github_issue.describe.json`
//!   (a `pattern`, `minLength`, `required`, `additionalProperties: false`).
//! * `rich`: a schema using `$ref`, `$defs`, `anyOf`, `if`/`then`, `enum`,
//!   `uniqueItems`, `patternProperties` and `unevaluatedProperties`.

use serde_json::{Value, json};
use std::path::Path;
use toolsmith::schema::Schema;

fn main() {
    divan::main();
}

fn github_issue() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/examples/describe-tools/github_issue.describe.json");
    let text = std::fs::read_to_string(path).expect("fixture");
    let tool: Value = serde_json::from_str(&text).expect("fixture JSON");
    tool["parameters"].clone()
}

fn rich() -> Value {
    json!({
        "type": "object",
        "$defs": {
            "label": {"type": "string", "minLength": 1, "maxLength": 50, "pattern": "^[a-z][a-z0-9-]*$"},
            "size": {"anyOf": [{"type": "integer", "minimum": 1}, {"enum": ["small", "large"]}]}
        },
        "properties": {
            "name": {"$ref": "#/$defs/label"},
            "labels": {"type": "array", "items": {"$ref": "#/$defs/label"}, "uniqueItems": true, "maxItems": 10},
            "size": {"$ref": "#/$defs/size"},
            "mode": {"enum": ["fast", "safe", "dry-run"]},
            "ratio": {"type": "number", "multipleOf": 0.01, "exclusiveMaximum": 1}
        },
        "patternProperties": {"^x-": {"type": "string"}},
        "if": {"properties": {"mode": {"const": "safe"}}, "required": ["mode"]},
        "then": {"properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]},
        "required": ["name"],
        "unevaluatedProperties": false
    })
}

fn valid_rich() -> Value {
    json!({"name": "build", "labels": ["a", "b-2"], "size": 3, "mode": "safe", "confirm": true, "ratio": 0.25, "x-note": "hi"})
}

fn invalid_rich() -> Value {
    json!({"name": "Build", "labels": ["a", "a", ""], "size": "huge", "mode": "safe", "ratio": 1.005, "other": 1})
}

#[divan::bench]
fn compile_github_issue(bencher: divan::Bencher) {
    let schema = github_issue();
    bencher.bench(|| Schema::compile(divan::black_box(&schema)).expect("compiles"));
}

#[divan::bench]
fn compile_rich(bencher: divan::Bencher) {
    let schema = rich();
    bencher.bench(|| Schema::compile(divan::black_box(&schema)).expect("compiles"));
}

#[divan::bench]
fn validate_github_issue_valid(bencher: divan::Bencher) {
    let schema = Schema::compile(&github_issue()).expect("compiles");
    let args = json!({"repo": "toolsmith-rs/toolsmith", "title": "A bug", "body": "Steps: …"});
    assert!(schema.is_valid(&args));
    bencher.bench(|| schema.validate(divan::black_box(&args)));
}

#[divan::bench]
fn validate_github_issue_invalid(bencher: divan::Bencher) {
    let schema = Schema::compile(&github_issue()).expect("compiles");
    let args = json!({"repo": "no slash", "title": "", "labels": []});
    assert_eq!(schema.validate(&args).len(), 3);
    bencher.bench(|| schema.validate(divan::black_box(&args)));
}

#[divan::bench]
fn validate_rich_valid(bencher: divan::Bencher) {
    let schema = Schema::compile(&rich()).expect("compiles");
    let args = valid_rich();
    assert!(schema.is_valid(&args), "{:?}", schema.validate(&args));
    bencher.bench(|| schema.validate(divan::black_box(&args)));
}

#[divan::bench]
fn validate_rich_invalid(bencher: divan::Bencher) {
    let schema = Schema::compile(&rich()).expect("compiles");
    let args = invalid_rich();
    assert!(
        schema.validate(&args).len() >= 6,
        "{:?}",
        schema.validate(&args)
    );
    bencher.bench(|| schema.validate(divan::black_box(&args)));
}

/// Compile and validate, as the first call of a tool does (parse included).
#[divan::bench]
fn first_call_github_issue(bencher: divan::Bencher) {
    let schema = github_issue();
    let text = r#"{"repo": "toolsmith-rs/toolsmith", "title": "A bug"}"#;
    bencher.bench(|| {
        let compiled = Schema::compile(divan::black_box(&schema)).expect("compiles");
        let args: Value = serde_json::from_str(divan::black_box(text)).expect("JSON");
        compiled.validate(&args)
    });
}

//! Robustness: every value of the valid chai fixtures replaced, one at a
//! time, by a value of each JSON type. The checks must never panic, and a
//! replacement that breaks a required string must be reported as an error.

use serde_json::Value;
use std::path::Path;
use toolsmith_manifest::Document;
use toolsmith_manifest::dialect::chai::{check_legacy, check_split};
use toolsmith_manifest::lint::Options;

fn fixture(case: &str, file: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/chai/valid")
        .join(case)
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, format!("{at}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                pointers(
                    v,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        _ => {}
    }
    out.push(at);
}

fn replacements() -> Vec<Value> {
    vec![
        Value::Null,
        Value::from(-1),
        Value::from(1.5),
        Value::from("../x.y"),
        Value::from(true),
        Value::Array(vec![Value::from(1)]),
        serde_json::json!({"param": 1, "kind": "flagIfBoolean"}),
    ]
}

fn doc(name: &str, value: &Value) -> Document {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    let mut doc = Document::from_text(name, Path::new("/skill").join(name).as_path(), &text);
    doc.parse_json();
    doc
}

fn mutations(value: &Value) -> Vec<(String, Value)> {
    let mut at = Vec::new();
    pointers(value, String::new(), &mut at);
    let mut out = Vec::new();
    for pointer in at.iter().filter(|p| !p.is_empty()) {
        for replacement in replacements() {
            let mut copy = value.clone();
            if let Some(slot) = copy.pointer_mut(pointer) {
                *slot = replacement;
                out.push((pointer.clone(), copy));
            }
        }
    }
    out
}

#[test]
fn legacy_mutations_never_panic() {
    for case in ["legacy-basic", "legacy-all-kinds", "legacy-warnings"] {
        let original = fixture(case, "tools.json");
        for (pointer, value) in mutations(&original) {
            let mut d = doc("tools.json", &value);
            let manifest = check_legacy(&mut d, &Options::default());
            assert!(manifest.is_some(), "{case} {pointer}: no model");
            if pointer.ends_with("/binary") || pointer.ends_with("/name") {
                // A binary or tool name that is no longer a string.
                let is_string = value.pointer(&pointer).is_some_and(Value::is_string);
                assert!(
                    is_string || d.has_errors(),
                    "{case} {pointer}: replacement not reported"
                );
            }
        }
    }
}

#[test]
fn split_mutations_never_panic() {
    let tools = fixture("split-basic", "tools.json");
    let allowlist = fixture("split-basic", "allowlist.json");
    let execution = fixture("split-basic", "execution.json");
    let run = |t: &Value, a: &Value, e: &Value| {
        let mut td = doc("tools.json", t);
        let mut ad = doc("allowlist.json", a);
        let mut ed = doc("execution.json", e);
        if td.root.as_ref().is_some_and(|r| r.as_array().is_some()) {
            check_split(&mut td, Some(&mut ad), Some(&mut ed), &Options::default());
        }
        td.has_errors() || ad.has_errors() || ed.has_errors()
    };
    assert!(
        !run(&tools, &allowlist, &execution),
        "split-basic has errors"
    );
    for (pointer, t) in mutations(&tools) {
        let errors = run(&t, &allowlist, &execution);
        if pointer.ends_with("/name") {
            assert!(errors, "tools.json {pointer}: replacement not reported");
        }
    }
    for (pointer, a) in mutations(&allowlist) {
        assert!(
            run(&tools, &a, &execution),
            "allowlist.json {pointer}: not reported"
        );
    }
    for (pointer, e) in mutations(&execution) {
        let errors = run(&tools, &allowlist, &e);
        if pointer.ends_with("/binary") || pointer.ends_with("/tool") {
            assert!(errors, "execution.json {pointer}: replacement not reported");
        }
    }
}

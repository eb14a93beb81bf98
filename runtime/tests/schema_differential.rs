//! `toolsmith::schema` against the `jsonschema` crate (a dev-dependency
//! only): on a table of schema/instance pairs covering every keyword, and on
//! every tool schema of the shared corpus (skipped with a notice when it is
//! absent) with generated valid and invalid instances, both validators must
//! give the same verdict and the same set of violation pointers.
//!
//! `jsonschema` is pinned to draft 2020-12 and linear-time regexes, as the
//! runtime used it. Known, deliberate differences are not compared:
//! `additionalItems` (not a 2020-12 keyword; jsonschema applies it),
//! references to the bundled meta-schemas (toolsmith refuses them: it
//! fetches and bundles nothing), and `$schema` naming another draft
//! (toolsmith pins 2020-12, as the linter does).

use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::Path;
use toolsmith::schema::Schema;

fn reference(schema: &Value) -> Option<jsonschema::Validator> {
    let schema = schema.clone();
    std::panic::catch_unwind(move || {
        jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .with_pattern_options(jsonschema::PatternOptions::regex())
            .build(&schema)
            .ok()
    })
    .ok()
    .flatten()
}

/// The verdict and pointer set of both validators, or a description of the
/// disagreement.
fn compare(ours: &Schema, theirs: &jsonschema::Validator, instance: &Value) -> Result<(), String> {
    let mine: BTreeSet<String> = ours
        .validate(instance)
        .into_iter()
        .map(|v| v.pointer)
        .collect();
    let their: BTreeSet<String> = theirs
        .iter_errors(instance)
        .map(|e| e.instance_path().as_str().to_owned())
        .collect();
    let verdicts = (ours.is_valid(instance), theirs.is_valid(instance));
    if mine == their && verdicts.0 == verdicts.1 && verdicts.0 == mine.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "instance {instance}: toolsmith {mine:?} (valid: {}), jsonschema {their:?} (valid: {})",
            verdicts.0, verdicts.1
        ))
    }
}

/// Schema/instances pairs: every keyword of draft 2020-12, valid and invalid.
fn table() -> Vec<(Value, Vec<Value>)> {
    let scalars = || {
        vec![
            json!(null),
            json!(true),
            json!(0),
            json!(1),
            json!(1.0),
            json!(1.5),
            json!(-7),
            json!(""),
            json!("abc"),
            json!("é😀x"),
            json!([]),
            json!({}),
        ]
    };
    let arrays = || {
        vec![
            json!([]),
            json!([1]),
            json!([1, 1.0]),
            json!([1, "a", null]),
            json!(["a", "b", "c", "d"]),
            json!([{"a": 1}, {"a": 1.0}]),
            json!([[1], [true]]),
            json!([1, 2, 3, 4, 5]),
            json!("not an array"),
        ]
    };
    let objects = || {
        vec![
            json!({}),
            json!({"a": 1}),
            json!({"a": "x", "b": 2}),
            json!({"a": 1, "b": "x", "c": null}),
            json!({"foo": 1, "fob": "x", "bar": []}),
            json!({"a": {"b": {"c": 1}}}),
            json!({"a": [1, "x"], "d": true}),
            json!({"kind": "x", "x": 1}),
            json!({"kind": "y", "y": "s", "z": 1}),
            json!(42),
        ]
    };
    let mut t: Vec<(Value, Vec<Value>)> = Vec::new();
    for schema in [
        json!({"type": "integer"}),
        json!({"type": "number"}),
        json!({"type": ["string", "null"]}),
        json!({"type": ["integer", "boolean", "array"]}),
        json!({"type": "object"}),
        json!({"enum": [1, "abc", null, [], {}]}),
        json!({"enum": ["a", "b", "c", "d", "e"]}),
        json!({"const": 1}),
        json!({"const": {"a": [1]}}),
        json!({"multipleOf": 0.5}),
        json!({"multipleOf": 3}),
        json!({"multipleOf": 0.01}),
        json!({"maximum": 1}),
        json!({"minimum": 1.0}),
        json!({"exclusiveMaximum": 1}),
        json!({"exclusiveMinimum": 0}),
        json!({"maxLength": 2}),
        json!({"minLength": 3}),
        json!({"pattern": "^a"}),
        json!({"pattern": "\\d"}),
        json!({"pattern": "^[\\p{L}]+$"}),
        json!(true),
        json!(false),
        json!({"not": {"type": "string"}}),
        json!({"allOf": [{"type": "number"}, {"minimum": 1}]}),
        json!({"anyOf": [{"type": "string"}, {"minimum": 1}]}),
        json!({"oneOf": [{"type": "number"}, {"minimum": 1}]}),
        json!({"if": {"type": "number"}, "then": {"minimum": 1}, "else": {"type": "string"}}),
        json!({"if": {"type": "number"}, "then": {"minimum": 1}}),
        json!({"then": {"minimum": 1}}),
    ] {
        t.push((schema, scalars()));
    }
    for schema in [
        json!({"maxItems": 2}),
        json!({"minItems": 2}),
        json!({"uniqueItems": true}),
        json!({"uniqueItems": false}),
        json!({"items": {"type": "integer"}}),
        json!({"items": false}),
        json!({"prefixItems": [{"type": "integer"}, {"type": "string"}]}),
        json!({"prefixItems": [{"type": "integer"}], "items": false}),
        json!({"prefixItems": [{"type": "integer"}], "items": {"type": "string"}}),
        json!({"contains": {"type": "integer"}}),
        json!({"contains": {"type": "integer"}, "minContains": 2}),
        json!({"contains": {"type": "integer"}, "maxContains": 1}),
        json!({"contains": {"type": "integer"}, "minContains": 0}),
        json!({"contains": {"type": "integer"}, "minContains": 2, "maxContains": 3}),
        json!({"minContains": 2}),
        json!({"prefixItems": [true], "unevaluatedItems": false}),
        json!({"unevaluatedItems": {"type": "integer"}}),
        json!({"allOf": [{"prefixItems": [true]}], "unevaluatedItems": false}),
        json!({"anyOf": [{"prefixItems": [{"type": "integer"}]}, {"prefixItems": [true, true]}], "unevaluatedItems": false}),
        json!({"contains": {"type": "integer"}, "unevaluatedItems": false}),
        json!({"if": {"prefixItems": [{"const": 1}]}, "then": {"prefixItems": [true, true]}, "unevaluatedItems": false}),
        json!({"items": {"type": "array", "items": {"type": "integer"}}}),
    ] {
        t.push((schema, arrays()));
    }
    for schema in [
        json!({"maxProperties": 1}),
        json!({"minProperties": 2}),
        json!({"required": ["a", "b"]}),
        json!({"dependentRequired": {"a": ["b", "c"]}}),
        json!({"dependencies": {"a": ["b"], "b": {"required": ["c"]}}}),
        json!({"dependentSchemas": {"a": {"properties": {"b": {"type": "string"}}}}}),
        json!({"properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}),
        json!({"properties": {"a": false}}),
        json!({"properties": {"a": {"type": "integer"}}, "additionalProperties": false}),
        json!({"properties": {"a": true}, "additionalProperties": {"type": "string"}}),
        json!({"patternProperties": {"^f": {"type": "integer"}, "o$": {"minimum": 1}}}),
        json!({"patternProperties": {"^f": true}, "additionalProperties": false}),
        json!({"propertyNames": {"maxLength": 1}}),
        json!({"propertyNames": {"pattern": "^[a-c]$"}}),
        json!({"propertyNames": false}),
        json!({"properties": {"a": true}, "unevaluatedProperties": false}),
        json!({"unevaluatedProperties": {"type": "integer"}}),
        json!({"allOf": [{"properties": {"a": true}}], "unevaluatedProperties": false}),
        json!({"anyOf": [{"properties": {"a": {"type": "integer"}}, "required": ["a"]}, {"properties": {"b": true}}], "unevaluatedProperties": false}),
        json!({"oneOf": [{"properties": {"a": true}, "required": ["a"]}, {"properties": {"b": true}, "required": ["b"]}], "unevaluatedProperties": false}),
        json!({"if": {"properties": {"kind": {"const": "x"}}, "required": ["kind"]}, "then": {"properties": {"x": true}}, "else": {"properties": {"y": true}}, "unevaluatedProperties": false}),
        json!({"dependentSchemas": {"a": {"properties": {"d": true}}}, "properties": {"a": true}, "unevaluatedProperties": false}),
        json!({"$ref": "#/$defs/a", "$defs": {"a": {"properties": {"a": true}}}, "unevaluatedProperties": false}),
        json!({"properties": {"a": {"unevaluatedProperties": false, "properties": {"b": true}}}}),
        json!({"patternProperties": {"^f": true}, "unevaluatedProperties": false}),
        json!({"additionalProperties": true, "unevaluatedProperties": false}),
        json!({"not": {"required": ["a"]}}),
        json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "object", "properties": {"c": {"type": "string"}}}}}}}),
        json!({"properties": {"a": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "integer"}}]}}}),
        json!({"properties": {"a": {"$ref": "#/definitions/n"}}, "definitions": {"n": {"type": "string"}}}),
        json!({"properties": {"a": {"$ref": "#/$defs/n%20x"}}, "$defs": {"n x": {"type": "string"}}}),
        json!({"properties": {"a": {"$ref": "#n"}}, "$defs": {"n": {"$anchor": "n", "type": "string"}}}),
        json!({"$id": "https://example.com/r", "properties": {"a": {"$ref": "other"}}, "$defs": {"o": {"$id": "other", "type": "string"}}}),
        json!({"$id": "https://example.com/t", "$dynamicAnchor": "node", "properties": {"a": {"$dynamicRef": "#node"}, "b": {"type": "integer"}}}),
        json!({
            "$id": "https://example.com/strict",
            "$dynamicAnchor": "node",
            "$ref": "tree",
            "unevaluatedProperties": false,
            "$defs": {"tree": {"$id": "tree", "$dynamicAnchor": "node", "type": "object",
                "properties": {"a": {"$dynamicRef": "#node"}, "b": true, "kind": true}}}
        }),
        json!({"properties": {"a": {"format": "email"}, "b": {"format": "date-time"}}}),
    ] {
        t.push((schema, objects()));
    }
    t
}

#[test]
fn every_keyword_agrees_with_jsonschema() {
    let mut failures = Vec::new();
    let mut compared = 0;
    for (schema, instances) in table() {
        let ours = Schema::compile(&schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
        let theirs = reference(&schema).unwrap_or_else(|| panic!("jsonschema refuses {schema}"));
        for instance in &instances {
            compared += 1;
            if let Err(e) = compare(&ours, &theirs, instance) {
                failures.push(format!("schema {schema}: {e}"));
            }
        }
    }
    assert!(compared > 900, "{compared}");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every object under a key that holds a tool schema in some dialect.
fn schemas_in(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if matches!(
                    key.as_str(),
                    "parameters" | "schema" | "inputSchema" | "input_schema" | "params" | "returns"
                ) && v.is_object()
                {
                    out.push(v.clone());
                }
                schemas_in(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| schemas_in(v, out)),
        _ => {}
    }
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json" || e == "snap") {
            out.push(path);
        }
    }
}

/// A deterministic instance the schema should accept (best effort: `pattern`
/// and `format` are not honoured), following local `$ref`s a few levels.
fn sample(root: &Value, schema: &Value, depth: usize) -> Value {
    let Value::Object(s) = schema else {
        return json!({});
    };
    if depth > 6 {
        return Value::Null;
    }
    if let Some(r) = s.get("$ref").and_then(Value::as_str)
        && let Some(target) = r.strip_prefix('#').and_then(|p| root.pointer(p))
    {
        return sample(root, target, depth + 1);
    }
    if let Some(c) = s.get("const") {
        return c.clone();
    }
    if let Some(first) = s
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(first) = s.get(key).and_then(Value::as_array).and_then(|e| e.first())
            && !s.contains_key("type")
            && !s.contains_key("properties")
        {
            return sample(root, first, depth + 1);
        }
    }
    let ty = match s.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts.first().and_then(Value::as_str).unwrap_or("null"),
        _ if s.contains_key("properties") => "object",
        _ if s.contains_key("items") => "array",
        _ => "string",
    };
    match ty {
        "object" => {
            let mut out = serde_json::Map::new();
            if let Some(Value::Object(props)) = s.get("properties") {
                for (name, p) in props {
                    out.insert(name.clone(), sample(root, p, depth + 1));
                }
            }
            Value::Object(out)
        }
        "array" => {
            let item = s
                .get("items")
                .map_or(json!("x"), |i| sample(root, i, depth + 1));
            let n = s
                .get("minItems")
                .and_then(Value::as_u64)
                .unwrap_or(1)
                .min(3);
            Value::Array(vec![item; usize::try_from(n).unwrap_or(1).max(1)])
        }
        "integer" => s.get("minimum").cloned().unwrap_or(json!(1)),
        "number" => s.get("minimum").cloned().unwrap_or(json!(1.5)),
        "boolean" => json!(true),
        "null" => Value::Null,
        _ => {
            let n = s
                .get("minLength")
                .and_then(Value::as_u64)
                .unwrap_or(3)
                .min(50);
            json!("x".repeat(usize::try_from(n).unwrap_or(3)))
        }
    }
}

/// The sample and its mutations: each property dropped, replaced by values
/// of every type and by boundary values, unknown keys added, nested values
/// mutated one level down.
fn instances(root: &Value) -> Vec<Value> {
    let base = sample(root, root, 0);
    let mut out = vec![base.clone(), json!({}), json!(null), json!([]), json!("s")];
    let replacements = [
        json!(null),
        json!(true),
        json!(-1),
        json!(0),
        json!(2.5),
        json!(1e12),
        json!(""),
        json!("a much longer string value with spaces and ünïcödé, 1234567890 — and more text"),
        json!([]),
        json!([1, 1]),
        json!(["x", 2]),
        json!({}),
        json!({"zz_unknown": 1}),
    ];
    let Value::Object(map) = &base else {
        return out;
    };
    let mut extra = map.clone();
    extra.insert("zz_unknown".into(), json!(1));
    out.push(Value::Object(extra));
    for (name, value) in map {
        let mut dropped = map.clone();
        dropped.remove(name);
        out.push(Value::Object(dropped));
        for r in &replacements {
            let mut m = map.clone();
            m.insert(name.clone(), r.clone());
            out.push(Value::Object(m));
        }
        if let Value::Object(inner) = value {
            for (inner_name, _) in inner {
                for r in [json!(null), json!(7), json!("s")] {
                    let mut i = inner.clone();
                    i.insert(inner_name.clone(), r);
                    let mut m = map.clone();
                    m.insert(name.clone(), Value::Object(i));
                    out.push(Value::Object(m));
                }
            }
        }
        if let Value::Array(items) = value {
            for r in [json!(null), json!(7), json!("s"), json!({})] {
                let mut m = map.clone();
                let mut a = items.clone();
                a.push(r);
                m.insert(name.clone(), Value::Array(a));
                out.push(Value::Object(m));
            }
        }
    }
    out
}

/// Another draft named by `$schema`, a reference to a bundled meta-schema,
/// or `additionalItems` anywhere: not compared (see the module docs).
fn deliberately_different(schema: &Value) -> bool {
    let text = schema.to_string();
    text.contains("\"additionalItems\"")
        || text.contains("json-schema.org/draft-0")
        || text.contains("json-schema.org/schema")
        || (text.contains("\"$ref\":\"http") && text.contains("json-schema.org"))
}

#[test]
fn corpus_tool_schemas_agree_with_jsonschema() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if !corpus.is_dir() {
        eprintln!(
            "notice: {} is absent; corpus differential test skipped",
            corpus.display()
        );
        return;
    }
    let mut paths = Vec::new();
    files(&corpus, &mut paths);
    let mut schemas = Vec::new();
    for path in &paths {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        if let Ok(value) = serde_json::from_str::<Value>(&text) {
            schemas_in(&value, &mut schemas);
        }
    }
    let unique: BTreeSet<String> = schemas.iter().map(Value::to_string).collect();
    let (mut compared, mut skipped, mut instances_checked) = (0, 0, 0);
    let mut failures = Vec::new();
    for text in &unique {
        let schema: Value = serde_json::from_str(text).unwrap();
        if deliberately_different(&schema) {
            skipped += 1;
            continue;
        }
        let theirs = reference(&schema);
        let ours = Schema::compile(&schema);
        let (ours, theirs) = match (ours, theirs) {
            (Ok(o), Some(t)) => (o, t),
            (Err(_), None) => {
                skipped += 1;
                continue;
            }
            (Ok(_), None) => {
                failures.push(format!(
                    "schema {text}: jsonschema refuses it, toolsmith compiles it"
                ));
                continue;
            }
            (Err(e), Some(_)) => {
                failures.push(format!(
                    "schema {text}: toolsmith refuses it ({e}), jsonschema compiles it"
                ));
                continue;
            }
        };
        compared += 1;
        for instance in instances(&schema) {
            instances_checked += 1;
            if let Err(e) = compare(&ours, &theirs, &instance) {
                failures.push(format!("schema {text}: {e}"));
            }
        }
    }
    eprintln!(
        "corpus: {} distinct schemas, {compared} compared on {instances_checked} instances, {skipped} skipped",
        unique.len()
    );
    assert!(compared > 100, "{compared} schemas compared");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

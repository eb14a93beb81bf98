//! The structural meta-schema pass (`schema/invalid`) agrees with the
//! `jsonschema` crate's draft 2020-12 meta-schema validation (with format
//! assertions, as `jsonschema` checks a schema before compiling it): on a
//! table of schemas exercising every keyword, and on every tool schema of the
//! corpus (`shared/corpus`, skipped with a notice when absent). References
//! (`schema/unresolved-ref`) are compared with compiling the schema.

use serde_json::{Value, json};
use std::sync::LazyLock;
use toolsmith_manifest::json::parse;
use toolsmith_manifest::schema::{SchemaCheck, check};

/// toolsmith's verdicts: (meta-schema valid, every `$ref` resolves).
fn ours(schema: &Value) -> (bool, bool) {
    let text = json!({ "p": schema }).to_string();
    let root = parse(&text).root.expect("serialized JSON parses");
    let mut findings = Vec::new();
    check(
        root.get("p").expect("has p"),
        &SchemaCheck::default(),
        &mut findings,
    );
    let meta = !findings.iter().any(|f| f.rule.id == "schema/invalid");
    let refs = !findings
        .iter()
        .any(|f| f.rule.id == "schema/unresolved-ref");
    (meta, refs)
}

/// The jsonschema crate's verdicts.
fn reference(schema: &Value) -> (bool, bool) {
    static META: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
        jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&referencing::meta::DRAFT202012)
            .expect("the meta-schema compiles")
    });
    let meta = META.is_valid(schema);
    let refs = !meta || jsonschema::draft202012::options().build(schema).is_ok();
    (meta, refs)
}

fn cases() -> Vec<Value> {
    vec![
        json!(true),
        json!({}),
        json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}}, "required": ["a"]}),
        json!({"type": "strin"}),
        json!({"type": []}),
        json!({"type": ["string", "string"]}),
        json!({"type": 5}),
        json!({"properties": {"a": 5}}),
        json!({"properties": []}),
        json!({"items": [{}]}),
        json!({"items": {"type": "string"}, "prefixItems": [{}]}),
        json!({"prefixItems": []}),
        json!({"allOf": []}),
        json!({"anyOf": [{}, 3]}),
        json!({"oneOf": {}}),
        json!({"not": "x"}),
        json!({"if": true, "then": false, "else": {}}),
        json!({"minLength": -1}),
        json!({"minLength": 1.0}),
        json!({"minLength": 1.5}),
        json!({"maxItems": "3"}),
        json!({"minimum": "one"}),
        json!({"maximum": 1e300}),
        json!({"multipleOf": 0}),
        json!({"multipleOf": -2}),
        json!({"multipleOf": 0.5}),
        json!({"pattern": "(("}),
        json!({"pattern": "^(?=a)b$"}),
        json!({"pattern": "\\p{L}+"}),
        json!({"pattern": 5}),
        json!({"patternProperties": {"((": {}}}),
        json!({"patternProperties": {"^a": 1}}),
        json!({"required": ["a", "a"]}),
        json!({"required": [1]}),
        json!({"required": "a"}),
        json!({"dependentRequired": {"a": ["b", "b"]}}),
        json!({"dependentRequired": {"a": "b"}}),
        json!({"dependentSchemas": {"a": 1}}),
        json!({"dependencies": {"a": ["b"], "c": {"type": "string"}}}),
        json!({"dependencies": {"a": 1}}),
        json!({"enum": 1}),
        json!({"enum": []}),
        json!({"const": null}),
        json!({"uniqueItems": "yes"}),
        json!({"deprecated": 1}),
        json!({"title": 1}),
        json!({"description": null}),
        json!({"format": 5}),
        json!({"examples": {}}),
        json!({"$comment": []}),
        json!({"$id": "http://example.com/s#frag"}),
        json!({"$id": "http://example.com/s#"}),
        json!({"$id": "s.json"}),
        json!({"$id": "http://exa mple.com"}),
        json!({"$schema": "not a uri"}),
        json!({"$schema": "http://json-schema.org/draft-07/schema#"}),
        json!({"$anchor": "1abc"}),
        json!({"$anchor": "a-b.c_d"}),
        json!({"$dynamicAnchor": "meta"}),
        json!({"$vocabulary": {"https://example.com/v": true}}),
        json!({"$vocabulary": {"https://example.com/v": 1}}),
        json!({"$vocabulary": {"not a uri": true}}),
        json!({"$defs": {"a": {"type": "string"}}, "$ref": "#/$defs/a"}),
        json!({"$defs": {"a": 5}}),
        json!({"definitions": {"a": "x"}}),
        json!({"$ref": "#/$defs/missing"}),
        json!({"$ref": "#/properties/a%20b", "properties": {"a b": {}}}),
        json!({"$ref": "#/definitions/a~1b", "definitions": {"a/b": {}}}),
        json!({"$ref": "#"}),
        json!({"$ref": "https://example.com/s.json"}),
        json!({"$ref": "other.json"}),
        json!({"$ref": "#foo", "$defs": {"x": {"$anchor": "foo"}}}),
        json!({"$ref": "#bar", "$defs": {"x": {"$anchor": "foo"}}}),
        json!({"$id": "http://example.com/root.json", "$ref": "item.json", "$defs": {"i": {"$id": "item.json", "type": "string"}}}),
        json!({"$id": "http://example.com/root.json", "$ref": "http://example.com/item.json#/type", "$defs": {"i": {"$id": "item.json", "type": "string"}}}),
        json!({"$ref": "https://json-schema.org/draft/2020-12/schema"}),
        json!({"$ref": 5}),
        json!({"$ref": "a b"}),
        json!({"unevaluatedProperties": 1, "unevaluatedItems": false}),
        json!({"contentSchema": []}),
        json!({"contentEncoding": "base64", "contentMediaType": 1}),
        json!({"propertyNames": {"pattern": "^a"}}),
        json!({"x-custom": {"$ref": 1}, "readOnly": true}),
        json!({"default": {"$ref": "#/nowhere"}}),
        json!({"const": {"type": 5}}),
    ]
}

#[test]
fn agrees_with_the_jsonschema_crate_on_every_keyword() {
    let mut disagreements = Vec::new();
    for case in cases() {
        let (ours, theirs) = (ours(&case), reference(&case));
        if ours != theirs {
            disagreements.push(format!("{case}: toolsmith {ours:?}, jsonschema {theirs:?}"));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

/// Every object below a key that holds a tool schema in some dialect.
fn tool_schemas(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if matches!(
                    key.as_str(),
                    "parameters" | "schema" | "inputSchema" | "input_schema" | "outputSchema"
                ) && v.is_object()
                {
                    out.push(v.clone());
                }
                tool_schemas(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| tool_schemas(v, out)),
        _ => {}
    }
}

#[test]
fn agrees_with_the_jsonschema_crate_on_the_corpus() {
    let Some(corpus) = toolsmith_manifest::corpus::locate() else {
        eprintln!("corpus not found (../shared/corpus or $TOOLSMITH_CORPUS): skipping");
        return;
    };
    let mut schemas = Vec::new();
    let mut stack = vec![corpus];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "json")
                && let Ok(text) = std::fs::read_to_string(&path)
                && let Ok(value) = serde_json::from_str::<Value>(&text)
            {
                tool_schemas(&value, &mut schemas);
            }
        }
    }
    let mut disagreements = Vec::new();
    for schema in &schemas {
        let (ours, theirs) = (ours(schema), reference(schema));
        if ours != theirs {
            disagreements.push(format!(
                "{schema}: toolsmith {ours:?}, jsonschema {theirs:?}"
            ));
        }
    }
    eprintln!("{} corpus schemas compared", schemas.len());
    assert!(schemas.len() > 100, "too few schemas found in the corpus");
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

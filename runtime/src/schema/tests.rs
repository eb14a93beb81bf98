//! Behaviour the differential test against `jsonschema` cannot show: what
//! toolsmith refuses at compile time, bounded validation, and semantics
//! checked against the draft's own text.

use super::*;
use serde_json::json;

fn pointers(schema: &Value, instance: &Value) -> Vec<String> {
    let s = Schema::compile(schema).unwrap();
    let v = s.validate(instance);
    assert_eq!(s.is_valid(instance), v.is_empty(), "{schema} {instance}");
    v.into_iter().map(|v| v.pointer).collect()
}

fn valid(schema: Value, instance: Value) -> bool {
    pointers(&schema, &instance).is_empty()
}

#[test]
fn malformed_keywords_are_compile_errors_with_their_location() {
    for (schema, pointer) in [
        (json!({"type": 5}), "/type"),
        (json!({"type": "integr"}), "/type"),
        (
            json!({"properties": {"a": {"minimum": "1"}}}),
            "/properties/a/minimum",
        ),
        (json!({"properties": {"a": 3}}), "/properties/a"),
        (json!({"multipleOf": 0}), "/multipleOf"),
        (json!({"maxLength": -1}), "/maxLength"),
        (json!({"required": "a"}), "/required"),
        (json!({"pattern": "(?<=a)b"}), "/pattern"),
        (
            json!({"patternProperties": {"(a)\\1": {}}}),
            "/patternProperties/(a)\\1",
        ),
        (json!({"items": [{}]}), "/items"),
        (json!({"allOf": []}), "/allOf"),
        (json!({"$ref": "#/$defs/missing"}), ""),
        (json!({"$ref": "https://example.com/s.json"}), ""),
        (
            json!({"$ref": "https://json-schema.org/draft/2020-12/schema"}),
            "",
        ),
        (json!({"$ref": "#nope"}), ""),
        (json!({"$anchor": "1x"}), ""),
    ] {
        let e = Schema::compile(&schema).unwrap_err();
        assert_eq!(e.pointer, pointer, "{schema}: {e}");
    }
    assert!(Schema::compile(&json!(3)).is_err());
    let mut deep = json!({"type": "string"});
    for _ in 0..600 {
        deep = json!({"items": deep});
    }
    let e = Schema::compile(&deep).unwrap_err();
    assert!(e.message.contains("deeper than 512"), "{e}");
}

#[test]
fn integers_numbers_and_equality() {
    assert!(valid(json!({"type": "integer"}), json!(1.0)));
    assert!(!valid(json!({"type": "integer"}), json!(1.5)));
    assert!(valid(json!({"enum": [1, "a"]}), json!(1.0)));
    assert!(valid(json!({"const": {"a": [1]}}), json!({"a": [1.0]})));
    assert!(!valid(json!({"const": 1}), json!(true)));
    assert!(valid(json!({"multipleOf": 0.1}), json!(0.3)));
    assert!(!valid(json!({"multipleOf": 0.1}), json!(0.35)));
    assert!(valid(
        json!({"maximum": 9007199254740992u64}),
        json!(9007199254740992.0)
    ));
    assert!(!valid(
        json!({"maximum": 9007199254740992.0}),
        json!(9007199254740993u64)
    ));
    assert!(!valid(json!({"exclusiveMinimum": 0}), json!(0.0)));
    assert!(valid(json!({"maxLength": 2}), json!("é😀")));
    assert!(!valid(json!({"maxLength": 1}), json!("é😀")));
    assert!(!valid(
        json!({"uniqueItems": true}),
        json!([{"a": 1}, {"a": 1.0}])
    ));
}

#[test]
fn patterns_are_ecma_and_unanchored() {
    assert!(valid(json!({"pattern": "^\\d+$"}), json!("123")));
    assert!(
        !valid(json!({"pattern": "^\\d+$"}), json!("١٢٣")),
        "\\d is ASCII in ECMA-262"
    );
    assert!(valid(json!({"pattern": "b"}), json!("abc")));
    // A pathological pattern for backtracking engines runs in linear time.
    let long = format!("{}!", "a".repeat(100_000));
    assert!(!valid(json!({"pattern": "^(a+)+$"}), json!(long)));
}

#[test]
fn unevaluated_properties_see_through_applicators() {
    let schema = json!({
        "properties": {"a": true},
        "allOf": [{"properties": {"b": true}}],
        "anyOf": [{"properties": {"c": true}, "required": ["c"]}, {"properties": {"d": true}}],
        "if": {"properties": {"kind": {"const": "x"}}, "required": ["kind"]},
        "then": {"properties": {"x": true}},
        "else": {"properties": {"y": true}},
        "dependentSchemas": {"a": {"properties": {"e": true}}},
        "$ref": "#/$defs/f",
        "$defs": {"f": {"properties": {"f": true}}},
        "unevaluatedProperties": false
    });
    assert!(valid(
        schema.clone(),
        json!({"a": 1, "b": 1, "c": 1, "d": 1, "e": 1, "f": 1, "kind": "x", "x": 1})
    ));
    assert_eq!(pointers(&schema, &json!({"kind": "z", "x": 1})), [""]);
    assert!(valid(schema.clone(), json!({"y": 1})));
    // A failed `if` contributes nothing: `kind` is unevaluated.
    assert_eq!(pointers(&schema, &json!({"kind": "z", "y": 1})), [""]);
    // `e` is evaluated only when `a` is present.
    assert_eq!(pointers(&schema, &json!({"e": 1})), [""]);
    // A failed branch of anyOf contributes nothing.
    let s = json!({"anyOf": [{"properties": {"a": true}, "required": ["b"]}, true], "unevaluatedProperties": false});
    assert!(!valid(s, json!({"a": 1})));
    // Nested unevaluatedProperties sees only its own subschema's evaluation.
    let s = json!({"properties": {"a": true}, "allOf": [{"unevaluatedProperties": false}]});
    assert!(!valid(s, json!({"a": 1})));
}

#[test]
fn unevaluated_items_see_prefix_items_items_and_contains() {
    let schema = json!({
        "prefixItems": [{"type": "string"}],
        "allOf": [{"contains": {"type": "integer"}}],
        "unevaluatedItems": false
    });
    assert!(valid(schema.clone(), json!(["a", 1, 2])));
    assert_eq!(pointers(&schema, &json!(["a", 1, true])), [""]);
    assert!(valid(
        json!({"items": true, "unevaluatedItems": false}),
        json!([1, 2])
    ));
    assert!(valid(
        json!({"unevaluatedItems": {"type": "integer"}}),
        json!([1, 2])
    ));
}

#[test]
fn references_resources_anchors_and_pointers() {
    let schema = json!({
        "$id": "https://example.com/root.json",
        "properties": {
            "a": {"$ref": "item.json"},
            "b": {"$ref": "#num"},
            "c": {"$ref": "#/$defs/with%25percent"},
            "d": {"$ref": "#/$defs/with~1slash"},
            "e": {"$ref": "urn:example:x"}
        },
        "$defs": {
            "item": {"$id": "item.json", "type": "string"},
            "n": {"$anchor": "num", "type": "number"},
            "with%percent": {"type": "boolean"},
            "with/slash": {"type": "null"},
            "x": {"$id": "urn:example:x", "$ref": "#/$defs/y", "$defs": {"y": {"const": 1}}}
        }
    });
    assert!(valid(
        schema.clone(),
        json!({"a": "s", "b": 1, "c": true, "d": null, "e": 1})
    ));
    assert_eq!(
        pointers(&schema, &json!({"a": 1, "b": "s", "c": 1, "d": 1, "e": 2})),
        ["/a", "/b", "/c", "/d", "/e"]
    );
}

#[test]
fn dynamic_references_follow_the_dynamic_scope() {
    // The draft's own example: a generic tree whose node type the outer
    // schema overrides.
    let schema = json!({
        "$id": "https://example.com/strict-tree",
        "$dynamicAnchor": "node",
        "$ref": "tree",
        "unevaluatedProperties": false,
        "$defs": {
            "tree": {
                "$id": "tree",
                "$dynamicAnchor": "node",
                "type": "object",
                "properties": {
                    "data": true,
                    "children": {"type": "array", "items": {"$dynamicRef": "#node"}}
                }
            }
        }
    });
    assert!(valid(schema.clone(), json!({"children": [{"data": 1}]})));
    assert_eq!(
        pointers(&schema, &json!({"children": [{"daat": 1}]})),
        ["/children/0"]
    );
}

#[test]
fn recursion_is_bounded_and_reported() {
    for schema in [
        json!({"$ref": "#"}),
        json!({"anyOf": [{"$ref": "#"}]}),
        json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}),
    ] {
        let s = Schema::compile(&schema).unwrap();
        let v = s.validate(&json!({"x": 1}));
        assert_eq!(v.len(), 1, "{v:?}");
        assert!(v[0].message.contains("validation stopped"), "{v:?}");
        assert!(!s.is_valid(&json!(1)));
    }
    // Recursion that descends into the instance is fine.
    let tree = json!({"type": "object", "properties": {"next": {"$ref": "#"}}});
    let mut deep = json!({});
    for _ in 0..100 {
        deep = json!({"next": deep});
    }
    assert!(valid(tree, deep));
}

#[test]
fn shared_references_under_any_of_cannot_blow_up() {
    // Each level doubles the paths to the bottom: 2^40 without a budget.
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        defs.insert(
            format!("d{i}"),
            json!({"anyOf": [{"$ref": format!("#/$defs/d{}", i + 1), "minimum": 1}, {"$ref": format!("#/$defs/d{}", i + 1)}]}),
        );
    }
    defs.insert("d40".into(), json!({"type": "string"}));
    let schema = json!({"$defs": defs, "$ref": "#/$defs/d0"});
    let s = Schema::compile(&schema).unwrap();
    let v = s.validate(&json!(0));
    assert!(!v.is_empty());
    assert!(
        v.iter().any(|v| v.message.contains("validation stopped")),
        "{v:?}"
    );
}

#[test]
fn messages_match_jsonschema() {
    let s = Schema::compile(&json!({
        "type": "object",
        "properties": {
            "n": {"type": "string"},
            "e": {"enum": ["a", "b", "c", "d"]},
            "m": {"type": ["integer", "null"]}
        },
        "required": ["r"],
        "additionalProperties": false
    }))
    .unwrap();
    let v = s.validate(&json!({"n": null, "e": "x", "m": "s", "z": 1, "y": 2}));
    let messages: Vec<&str> = v.iter().map(|v| v.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "\"r\" is a required property",
            "null is not of type \"string\"",
            "\"x\" is not one of \"a\", \"b\" or 2 other candidates",
            "\"s\" is not of types \"integer\", \"null\"",
            "Additional properties are not allowed ('z', 'y' were unexpected)",
        ]
    );
}

#[test]
fn format_is_an_annotation() {
    assert!(valid(json!({"format": "email"}), json!("not an email")));
    assert!(valid(json!({"format": "date-time"}), json!("yesterday")));
}

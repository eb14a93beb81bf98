//! Gemini function declarations: `parameters` is Gemini's `Schema` message,
//! an OpenAPI 3.0 subset whose fields are the whole allowlist; any other key
//! fails the whole request (provider-formats.md §7).

use super::openai_strict::display;
use super::walk::{Via, walk_except};
use super::{Check, Fix, finding, name_finding, show};
use crate::model::Tool;
use crate::rules::Rule;
use crate::tree::index_pointer;
use serde_json::Value;

macro_rules! rule {
    ($name:ident, $sev:ident, $id:literal, $summary:literal) => {
        #[doc = concat!("`", $id, "` (", stringify!($sev), "): ", $summary)]
        pub static $name: Rule = Rule::$sev($id, "provider", $summary);
    };
}

rule!(
    NAME,
    error,
    "provider/gemini-name",
    "Gemini needs function names of a letter or `_`, then `a-z A-Z 0-9 _ -`, at most 64 characters"
);
rule!(
    KEYWORD,
    error,
    "provider/gemini-keyword",
    "Gemini refuses schema keys outside its `Schema` fields (`Unknown name \"…\": Cannot find field`)"
);
rule!(
    TYPE_LIST,
    error,
    "provider/gemini-type-list",
    "Gemini refuses `type` as a list (`Proto field is not repeating`); a nullable type is `type` plus `nullable: true`"
);
rule!(
    ENUM_TYPE,
    error,
    "provider/gemini-enum-type",
    "Gemini refuses `enum` values that are not strings"
);
rule!(
    TUPLE_ITEMS,
    error,
    "provider/gemini-tuple-items",
    "Gemini refuses `items` as an array (a tuple)"
);
rule!(
    PROPERTY_NAME,
    error,
    "provider/gemini-property-name",
    "Gemini needs parameter names of a letter or `_`, then `a-z A-Z 0-9 _`, at most 64 characters"
);
rule!(
    PROPERTIES_NON_OBJECT,
    error,
    "provider/gemini-properties-non-object",
    "Gemini allows `properties` and `required` only on an object (`only allowed for OBJECT type`)"
);
rule!(
    EMPTY_PROPERTIES,
    warning,
    "provider/gemini-empty-properties",
    "Gemini refused an object with empty `properties` in 2025-02 (reported accepted in 2026-03)"
);

/// The rules of this file.
pub static RULES: &[&Rule] = &[
    &NAME,
    &KEYWORD,
    &TYPE_LIST,
    &ENUM_TYPE,
    &TUPLE_ITEMS,
    &PROPERTY_NAME,
    &PROPERTIES_NON_OBJECT,
    &EMPTY_PROPERTIES,
];

/// The fields of Gemini's `Schema` message (js-genai `types.Schema`; Vertex AI REST v1).
pub const FIELDS: [&str; 22] = [
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "items",
    "minItems",
    "maxItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "default",
    "example",
    "anyOf",
    "propertyOrdering",
];

/// Keys the exporter drops because they only annotate the schema.
pub const DROPPED_BY_EXPORT: [&str; 1] = ["$schema"];

/// Longest function and parameter name.
pub const MAX_NAME: usize = 64;

fn gemini_name(name: &str, extra: &[u8]) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= MAX_NAME
        && (bytes[0].is_ascii_alphabetic() || bytes[0] == b'_')
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'_' || extra.contains(b))
}

/// True for a function name Gemini accepts (the rule of every reference version).
pub fn name_ok(name: &str) -> bool {
    gemini_name(name, b"-")
}

/// True for a parameter name Gemini accepts.
pub fn property_name_ok(name: &str) -> bool {
    gemini_name(name, b"")
}

/// For a `type` list, the one non-null type when the list is `[T]` or `[T, "null"]`.
pub fn nullable_type(types: &[Value]) -> Option<(&str, bool)> {
    let names: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
    if names.len() != types.len() {
        return None;
    }
    let non_null: Vec<&str> = names.iter().copied().filter(|t| *t != "null").collect();
    match non_null.as_slice() {
        [one] => Some((one, names.len() > 1)),
        _ => None,
    }
}

/// Gemini's checks.
pub fn check(tools: &[&Tool]) -> Vec<Check> {
    let mut out = Vec::new();
    for (i, tool) in tools.iter().enumerate() {
        let name = &tool.name;
        let mut push = |f: crate::Finding, fix| {
            out.push(Check {
                finding: f,
                tool: i,
                fix,
            })
        };
        if !name_ok(name) {
            push(
                name_finding(&NAME, tool, format!("Gemini refuses the function name `{name}`: it must start with a letter or `_`, then use only `a-z A-Z 0-9 _ -`, at most {MAX_NAME} characters"))
                    .with_help(super::openai::suggest_name(name)),
                Fix::None,
            );
        }
        walk_except(
            &tool.parameters,
            &[
                "$defs",
                "definitions",
                "not",
                "if",
                "then",
                "else",
                "oneOf",
                "allOf",
                "patternProperties",
                "dependentSchemas",
                "additionalProperties",
                "unevaluatedProperties",
                "propertyNames",
                "contains",
                "prefixItems",
                "additionalItems",
                "unevaluatedItems",
                "contentSchema",
            ],
            &mut |v| {
                let Some(members) = v.value.as_object() else {
                    push(
                    finding(&KEYWORD, tool, &v.pointer, format!("Gemini refuses the boolean schema {} at `{}` in `{name}`: a `Schema` is an object", show(v.value), display(&v.pointer)))
                        .with_help("write the schema out as an object with a `type`"),
                    Fix::None,
                );
                    return;
                };
                let at = display(&v.pointer);
                for (key, value) in members {
                    if FIELDS.contains(&key.as_str()) {
                        continue;
                    }
                    let fix = if DROPPED_BY_EXPORT.contains(&key.as_str()) {
                        Fix::Export
                    } else {
                        Fix::None
                    };
                    let help = match key.as_str() {
                    "$schema" => "remove it (`toolsmith export --to gemini` drops it)".to_string(),
                    "additionalProperties" => "remove it and check extra arguments when the call arrives".to_string(),
                    "const" => format!("write `\"enum\": [{}]`", show(value)),
                    "exclusiveMinimum" | "exclusiveMaximum" => "use `minimum`/`maximum` and say that the bound is exclusive in the description".to_string(),
                    "$ref" | "$defs" | "definitions" => "inline the referenced schema".to_string(),
                    "oneOf" => "write `anyOf`".to_string(),
                    _ => "remove it and say the constraint in the description".to_string(),
                };
                    push(
                    finding(&KEYWORD, tool, &v.key_pointer(key), format!("Gemini refuses `{key}` at `{at}` in `{name}`: `Unknown name \"{key}\": Cannot find field`"))
                        .with_help(help),
                    fix,
                );
                }
                if let Some(Value::Array(types)) = members.get("type") {
                    let (fix, help) = match nullable_type(types) {
                        Some((t, true)) => (
                            Fix::Export,
                            format!(
                                "write `\"type\": \"{t}\", \"nullable\": true` (`toolsmith export --to gemini` does)"
                            ),
                        ),
                        Some((t, false)) => (
                            Fix::Export,
                            format!(
                                "write `\"type\": \"{t}\"` (`toolsmith export --to gemini` does)"
                            ),
                        ),
                        None => (
                            Fix::None,
                            "use `anyOf` with one schema per type".to_string(),
                        ),
                    };
                    push(
                    finding(&TYPE_LIST, tool, &v.key_pointer("type"), format!("Gemini refuses `type: {}` at `{at}` in `{name}`: `Proto field is not repeating, cannot start list`", show(&Value::Array(types.clone()))))
                        .with_help(help),
                    fix,
                );
                }
                if let Some(Value::Array(values)) = members.get("enum") {
                    for (k, value) in values.iter().enumerate() {
                        if !value.is_string() {
                            push(
                            finding(&ENUM_TYPE, tool, &index_pointer(&v.key_pointer("enum"), k), format!("Gemini refuses the enum value {} at `{at}` in `{name}`: enum values must be strings", show(value)))
                                .with_help("use string values (and convert them when the call arrives), or a `minimum`/`maximum` range"),
                            Fix::None,
                        );
                        }
                    }
                }
                if let Some(Value::Array(_)) = members.get("items") {
                    push(
                    finding(&TUPLE_ITEMS, tool, &v.key_pointer("items"), format!("Gemini refuses tuple `items` at `{at}` in `{name}`"))
                        .with_help("describe the elements with one schema, or use an object with named properties"),
                    Fix::None,
                );
                }
                let types = super::walk::type_names(v.value);
                if !types.is_empty() && !types.contains(&"object") {
                    for key in ["properties", "required"] {
                        if members.contains_key(key) {
                            push(
                            finding(&PROPERTIES_NON_OBJECT, tool, &v.key_pointer(key), format!("Gemini refuses `{key}` at `{at}` in `{name}`: `only allowed for OBJECT type`, and the type is {}", show(&members["type"])))
                                .with_help("remove it, or make the node `\"type\": \"object\"`"),
                            Fix::None,
                        );
                        }
                    }
                }
                if let Some(Value::Object(props)) = members.get("properties")
                    && props.is_empty()
                    && v.via != Via::Root
                {
                    push(
                        finding(&EMPTY_PROPERTIES, tool, &v.key_pointer("properties"), format!("Gemini refused empty `properties` (at `{at}` in `{name}`) in 2025-02: `should be non-empty for OBJECT type`"))
                            .with_help("remove the empty `properties`, or give the object a property"),
                        Fix::None,
                    );
                }
                if let Via::Property { name: prop, .. } = &v.via
                    && !property_name_ok(prop)
                {
                    push(
                        finding(&PROPERTY_NAME, tool, &v.pointer, format!("Gemini refuses the parameter name `{prop}` in `{name}`: it must start with a letter or `_`, then use only `a-z A-Z 0-9 _`, at most {MAX_NAME} characters"))
                            .with_help("rename the parameter (and its argument mapping)"),
                        Fix::None,
                    );
                }
            },
        );
    }
    out
}

//! The strict rewrite (provider-formats.md §4): every object closed
//! (`additionalProperties: false`) with every property required, and each
//! property that was optional made nullable, so that a strict-mode model
//! sends `null` where it would have left the argument out.
//!
//! The rewrite assumes [`openai_strict::check`](super::openai_strict::check)
//! found nothing it cannot repair (a free-form map, a refused keyword, an
//! untyped node); `toolsmith export --strict` leaves such tools out or fails.

use super::walk::{MAX_DEPTH, is_object_schema};
use serde_json::{Map, Value, json};

/// The schema in OpenAI's strict form.
///
/// ```
/// use serde_json::json;
/// let schema = json!({"type": "object", "required": ["path"], "properties": {
///     "path": {"type": "string"}, "lines": {"type": "integer"}}});
/// assert_eq!(toolsmith_manifest::provider::strict::rewrite(&schema), json!({
///     "type": "object", "required": ["path", "lines"], "additionalProperties": false,
///     "properties": {"path": {"type": "string"}, "lines": {"type": ["integer", "null"]}}}));
/// ```
pub fn rewrite(schema: &Value) -> Value {
    node(schema, 0)
}

fn node(schema: &Value, depth: usize) -> Value {
    let Some(members) = schema.as_object() else {
        return schema.clone();
    };
    if depth >= MAX_DEPTH {
        return schema.clone();
    }
    let mut out = Map::with_capacity(members.len() + 2);
    for (key, value) in members {
        let value = match (key.as_str(), value) {
            ("items", Value::Object(_)) => node(value, depth + 1),
            ("anyOf", Value::Array(alternatives)) => {
                Value::Array(alternatives.iter().map(|a| node(a, depth + 1)).collect())
            }
            ("$defs" | "definitions", Value::Object(defs)) => Value::Object(
                defs.iter()
                    .map(|(k, d)| (k.clone(), node(d, depth + 1)))
                    .collect(),
            ),
            _ => value.clone(),
        };
        out.insert(key.clone(), value);
    }
    if is_object_schema(schema) {
        let required: Vec<&str> = match members.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let properties: Map<String, Value> = match members.get("properties") {
            Some(Value::Object(props)) => props
                .iter()
                .map(|(name, sub)| {
                    let sub = node(sub, depth + 1);
                    let sub = if required.contains(&name.as_str()) {
                        sub
                    } else {
                        nullable(sub)
                    };
                    (name.clone(), sub)
                })
                .collect(),
            _ => Map::new(),
        };
        let names: Vec<Value> = properties.keys().cloned().map(Value::String).collect();
        out.insert("properties".into(), Value::Object(properties));
        out.insert("required".into(), Value::Array(names));
        out.insert("additionalProperties".into(), Value::Bool(false));
    }
    Value::Object(out)
}

/// True when the schema already accepts `null`.
pub fn accepts_null(schema: &Value) -> bool {
    let null_type = match schema.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
        _ => false,
    };
    let null_enum = schema
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|vs| vs.iter().any(Value::is_null));
    let null_alternative = schema
        .get("anyOf")
        .and_then(Value::as_array)
        .is_some_and(|alts| alts.iter().any(accepts_null));
    null_type || null_enum || null_alternative || schema.get("const") == Some(&Value::Null)
}

/// The schema, accepting `null` too (provider-formats.md §4 step 2).
///
/// ```
/// use serde_json::json;
/// use toolsmith_manifest::provider::strict::nullable;
/// assert_eq!(nullable(json!({"type": "string", "enum": ["a"]})),
///     json!({"type": ["string", "null"], "enum": ["a", null]}));
/// assert_eq!(nullable(json!({"$ref": "#/$defs/x"})),
///     json!({"anyOf": [{"$ref": "#/$defs/x"}, {"type": "null"}]}));
/// ```
pub fn nullable(schema: Value) -> Value {
    if accepts_null(&schema) {
        return schema;
    }
    let Value::Object(mut members) = schema else {
        return schema;
    };
    let typed = match members.get_mut("type") {
        Some(Value::String(t)) => {
            let t = std::mem::take(t);
            members.insert("type".into(), json!([t, "null"]));
            true
        }
        Some(Value::Array(ts)) => {
            ts.push(Value::String("null".into()));
            true
        }
        _ => false,
    };
    let has_enum = match members.get_mut("enum") {
        Some(Value::Array(values)) => {
            values.push(Value::Null);
            true
        }
        _ => false,
    };
    if typed || has_enum {
        return Value::Object(members);
    }
    json!({"anyOf": [Value::Object(members), {"type": "null"}]})
}

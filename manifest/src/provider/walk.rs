//! Visiting every subschema of a tool's schema, with its pointer, how it was
//! reached and how deeply objects nest there. The provider rules are
//! callbacks over this walk.

use crate::tree::{child_pointer, index_pointer};
use serde_json::Value;

/// Subschemas deeper than this are not visited (the JSON front end already
/// bounds nesting; this keeps a model built in code from overflowing the stack).
pub const MAX_DEPTH: usize = 128;

/// Keywords whose value is an object of named subschemas.
pub const SCHEMA_MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Keywords whose value is one subschema.
pub const SCHEMA_VALUES: [&str; 11] = [
    "additionalProperties",
    "unevaluatedProperties",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "additionalItems",
    "unevaluatedItems",
    "contentSchema",
];

/// Keywords whose value is an array of subschemas (`items` too, in its tuple form).
pub const SCHEMA_ARRAYS: [&str; 4] = ["anyOf", "oneOf", "allOf", "prefixItems"];

/// How a subschema was reached from its parent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    /// The schema itself.
    Root,
    /// `properties/NAME`; `required` when the parent lists it.
    Property {
        /// The property name.
        name: String,
        /// Listed in the parent's `required`.
        required: bool,
    },
    /// `items` (one schema).
    Items,
    /// Any other keyword (`anyOf/0`, `$defs/x`, `not`, tuple `items/0`, …).
    Keyword(String),
}

/// One subschema.
#[derive(Debug)]
pub struct Visit<'a> {
    /// The subschema (an object, or a boolean schema).
    pub value: &'a Value,
    /// Its pointer below the tool's schema (`""` for the schema itself).
    pub pointer: String,
    /// How it was reached.
    pub via: Via,
    /// Object schemas on the path from the root, this one included.
    pub object_depth: usize,
}

impl Visit<'_> {
    /// The member `key` of this subschema.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.value.get(key)
    }

    /// The pointer of the member `key`.
    pub fn key_pointer(&self, key: &str) -> String {
        child_pointer(&self.pointer, key)
    }

    /// True when the subschema describes objects (`type` names `object`, or
    /// it has `properties`).
    pub fn is_object(&self) -> bool {
        is_object_schema(self.value)
    }

    /// True for a property that its parent does not list in `required`.
    pub fn is_optional_property(&self) -> bool {
        matches!(
            self.via,
            Via::Property {
                required: false,
                ..
            }
        )
    }
}

/// True when `schema` describes objects (`type` names `object`, or it has `properties`).
pub fn is_object_schema(schema: &Value) -> bool {
    type_names(schema).contains(&"object") || schema.get("properties").is_some()
}

/// The names in `type` (a string or an array of strings).
pub fn type_names(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Calls `f` on `schema` and every subschema below it, parents first, in
/// document order.
///
/// ```
/// use toolsmith_manifest::provider::walk::{walk, Via};
/// let schema = serde_json::json!({"type": "object", "required": ["a"],
///     "properties": {"a": {"type": "array", "items": {"type": "object", "properties": {"b": {}}}}}});
/// let mut seen = Vec::new();
/// walk(&schema, &mut |v| seen.push((v.pointer.clone(), v.object_depth)));
/// assert_eq!(seen, [("".into(), 1), ("/properties/a".into(), 1),
///     ("/properties/a/items".into(), 2), ("/properties/a/items/properties/b".into(), 2)]);
/// ```
pub fn walk<'a>(schema: &'a Value, f: &mut dyn FnMut(&Visit<'a>)) {
    walk_except(schema, &[], f);
}

/// Like [`walk`], but does not descend into the values of the keywords in
/// `except` (a provider that refuses a keyword reports it once, not every
/// node below it).
pub fn walk_except<'a>(schema: &'a Value, except: &[&str], f: &mut dyn FnMut(&Visit<'a>)) {
    visit(
        Visit {
            value: schema,
            pointer: String::new(),
            via: Via::Root,
            object_depth: usize::from(is_object_schema(schema)),
        },
        0,
        except,
        f,
    );
}

fn visit<'a>(node: Visit<'a>, depth: usize, except: &[&str], f: &mut dyn FnMut(&Visit<'a>)) {
    f(&node);
    let Some(members) = node.value.as_object() else {
        return;
    };
    if depth >= MAX_DEPTH {
        return;
    }
    let required: Vec<&str> = match members.get("required") {
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let mut child = |value: &'a Value, pointer: String, via: Via| {
        let object_depth = node.object_depth + usize::from(is_object_schema(value));
        visit(
            Visit {
                value,
                pointer,
                via,
                object_depth,
            },
            depth + 1,
            except,
            f,
        );
    };
    for (key, value) in members {
        if except.contains(&key.as_str()) {
            continue;
        }
        let pointer = child_pointer(&node.pointer, key);
        if SCHEMA_MAPS.contains(&key.as_str()) {
            let Some(map) = value.as_object() else {
                continue;
            };
            for (name, sub) in map {
                let via = if key == "properties" {
                    Via::Property {
                        name: name.clone(),
                        required: required.contains(&name.as_str()),
                    }
                } else {
                    Via::Keyword(key.clone())
                };
                child(sub, child_pointer(&pointer, name), via);
            }
        } else if SCHEMA_VALUES.contains(&key.as_str()) {
            if value.is_object() || value.is_boolean() {
                child(value, pointer, Via::Keyword(key.clone()));
            }
        } else if SCHEMA_ARRAYS.contains(&key.as_str()) || key == "items" {
            match value {
                Value::Array(items) => {
                    for (i, sub) in items.iter().enumerate() {
                        child(sub, index_pointer(&pointer, i), Via::Keyword(key.clone()));
                    }
                }
                Value::Object(_) | Value::Bool(_) if key == "items" => {
                    child(value, pointer, Via::Items);
                }
                _ => {}
            }
        }
    }
}

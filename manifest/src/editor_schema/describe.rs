//! `--describe` output and catalogs (`*.describe.json`), from the keys of
//! [`crate::dialect::describe`]. Unknown keys pass (the linter warns:
//! `describe/unknown-key`).

use super::{array, described, document, object};
use crate::dialect::describe::{CATALOG_KEYS, REQUIRED};
use serde_json::{Map, Value, json};

pub(super) fn schema() -> Value {
    let entry = |keys: &[&str]| {
        let mut properties = Map::new();
        for key in keys {
            properties.insert(key.to_string(), described(value(key), description(key)));
        }
        object(properties, &REQUIRED, false)
    };
    document(
        "toolsmith describe",
        "What a self-describing executable prints for `--describe` (one object), or a catalog of such entries (an array, each with an optional `path`).",
        json!({
            "oneOf": [
                described(entry(&REQUIRED), Some("One tool's `--describe` output.")),
                described(array(entry(&CATALOG_KEYS)), Some("A catalog of tools.")),
            ]
        }),
    )
}

fn value(key: &str) -> Value {
    match key {
        "name" => json!({"type": "string", "minLength": 1}),
        "description" | "path" => json!({"type": "string"}),
        "parameters" => json!({"type": "object"}),
        _ => json!({}),
    }
}

fn description(key: &str) -> Option<&'static str> {
    Some(match key {
        "name" => "The tool's name: the executable's file name without its extension.",
        "description" => "What the tool does, for the model.",
        "parameters" => "JSON Schema of the arguments (an object schema).",
        "path" => "Catalog only: the executable, relative to the catalog's directory.",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_typed_and_described() {
        for key in CATALOG_KEYS {
            assert!(description(key).is_some(), "no description: {key}");
            assert_ne!(value(key), json!({}), "no type: {key}");
        }
    }
}

//! agentcli (goagent) `tools.json`, from goagent's `ToolSpec` keys
//! ([`crate::dialect::agentcli::fields::TOOL_FIELDS`]).
//!
//! Go ignores unknown keys and matches keys case-insensitively, so unknown
//! keys pass and the required `name` and `command` are required in any case
//! (the linter warns on both: `agentcli/unknown-key`, `agentcli/key-case`).

use super::{array, described, document, object};
use crate::dialect::agentcli::fields::TOOL_FIELDS;
use serde_json::{Map, Value, json};

/// The keys goagent's `LoadManifest` requires.
const REQUIRED: [&str; 2] = ["name", "command"];

pub(super) fn schema() -> Value {
    let mut properties = Map::new();
    for key in TOOL_FIELDS {
        properties.insert(key.to_string(), described(value(key), description(key)));
    }
    let mut tool = object(properties, &[], false);
    let required: Vec<Value> = REQUIRED.iter().map(|k| present(k)).collect();
    if let Value::Object(members) = &mut tool {
        members.insert("allOf".into(), Value::Array(required));
    }
    let mut root = Map::new();
    root.insert(
        "tools".into(),
        described(
            array(tool),
            Some("The tools: each runs `command` with the call's JSON arguments on stdin."),
        ),
    );
    document(
        "agentcli tools.json",
        "goagent's tools.json: `{\"tools\": [ToolSpec, …]}`. goagent ignores unknown keys and matches keys case-insensitively.",
        object(root, &[], false),
    )
}

/// "Some key spells `name` in any case" (Go's case-insensitive match).
fn present(name: &str) -> Value {
    let pattern: String = name
        .chars()
        .map(|c| {
            let (l, u) = (c.to_ascii_lowercase(), c.to_ascii_uppercase());
            if l == u {
                c.to_string()
            } else {
                format!("[{l}{u}]")
            }
        })
        .collect();
    json!({
        "not": {"propertyNames": {"not": {"pattern": format!("^{pattern}$")}}},
        "description": format!("`{name}` is required.")
    })
}

fn value(key: &str) -> Value {
    match key {
        "name" => json!({"type": "string"}),
        "description" => json!({"type": ["string", "null"]}),
        "command" => json!({"type": "array", "items": {"type": "string"}, "minItems": 1}),
        "timeoutSec" => json!({"type": ["integer", "null"]}),
        "envPassthrough" => json!({"type": ["array", "null"], "items": {"type": "string"}}),
        _ => json!({}),
    }
}

/// goagent's tools-manifest.md, shortened.
fn description(key: &str) -> Option<&'static str> {
    Some(match key {
        "name" => "Unique tool name (required, non-empty).",
        "description" => "Short human description.",
        "schema" => "JSON Schema for the tool parameters (passed to the model as `parameters`).",
        "command" => {
            "Argv vector (required, at least the program). A relative program must start with `./tools/bin/NAME`; it is resolved against this file's directory. The call's JSON arguments go to stdin."
        }
        "timeoutSec" => "Per-call timeout in seconds; 0 or absent: the CLI's `-timeout`.",
        "envPassthrough" => {
            "Environment variables passed from the parent (names are upper-cased and must match `[A-Z_][A-Z0-9_]*`)."
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_typed_and_described() {
        for key in TOOL_FIELDS {
            assert!(description(key).is_some(), "no description: {key}");
            assert!(key == "schema" || value(key) != json!({}), "no type: {key}");
        }
        for key in REQUIRED {
            assert!(TOOL_FIELDS.contains(&key));
        }
    }
}

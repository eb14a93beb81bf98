//! An MCP `tools/list` result (specification 2025-11-25): the tools a
//! server offers. Unknown keys pass (the specification lets them through;
//! `_meta` carries extensions).

use super::{array, described, document, object};
use serde_json::{Map, Value, json};

/// The keys of an MCP `Tool`, with their schemas and descriptions.
const TOOL: &[(&str, &str)] = &[
    (
        "name",
        "Unique name of the tool (SHOULD be 1–128 characters of `[A-Za-z0-9_.-]`).",
    ),
    ("title", "A human-readable name for display."),
    ("description", "What the tool does, for the model."),
    (
        "inputSchema",
        "JSON Schema (an object schema, never null) of the arguments; draft 2020-12 without `$schema`.",
    ),
    (
        "outputSchema",
        "JSON Schema of `structuredContent` in the result.",
    ),
    (
        "annotations",
        "Hints about the tool's behaviour (untrusted unless the server is trusted).",
    ),
    ("icons", "Icons for display."),
    ("_meta", "Extension metadata."),
];
/// The keys of `annotations`.
const ANNOTATIONS: &[(&str, &str)] = &[
    ("title", "A human-readable name for display."),
    (
        "readOnlyHint",
        "The tool does not modify its environment (default false).",
    ),
    (
        "destructiveHint",
        "The tool may perform destructive updates (default true; meaningful only when not read-only).",
    ),
    (
        "idempotentHint",
        "Calling it again with the same arguments has no further effect (default false).",
    ),
    (
        "openWorldHint",
        "The tool interacts with an open world of external entities (default true).",
    ),
];
/// The keys that must be present in a `Tool`.
const REQUIRED: [&str; 2] = ["name", "inputSchema"];

pub(super) fn schema() -> Value {
    let mut tool = Map::new();
    for (key, text) in TOOL {
        tool.insert(key.to_string(), described(value(key), Some(text)));
    }
    let mut root = Map::new();
    root.insert(
        "tools".into(),
        described(
            array(object(tool, &REQUIRED, false)),
            Some("The tools the server offers."),
        ),
    );
    root.insert(
        "nextCursor".into(),
        json!({"type": "string", "description": "An opaque token for the next page, when there is one."}),
    );
    root.insert("_meta".into(), json!({"type": "object"}));
    document(
        "MCP tools/list result",
        "The `result` of an MCP `tools/list` response: the tools, with their input and output schemas and annotations.",
        object(root, &["tools"], false),
    )
}

fn value(key: &str) -> Value {
    let object_schema = json!({
        "type": "object",
        "properties": {"type": {"const": "object"}},
        "required": ["type"]
    });
    match key {
        "name" | "title" | "description" => json!({"type": "string"}),
        "inputSchema" | "outputSchema" => object_schema,
        "annotations" => {
            let mut properties = Map::new();
            for (k, text) in ANNOTATIONS {
                let ty = if *k == "title" { "string" } else { "boolean" };
                properties.insert(k.to_string(), json!({"type": ty, "description": text}));
            }
            object(properties, &[], false)
        }
        "icons" => array(json!({
            "type": "object",
            "properties": {
                "src": {"type": "string"},
                "mimeType": {"type": "string"},
                "sizes": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["src"]
        })),
        _ => json!({"type": "object"}),
    }
}

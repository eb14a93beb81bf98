//! Ollama `/api/chat`: the server decodes `parameters` into a fixed Go struct
//! and silently drops every other keyword, so the model never sees it and
//! nothing enforces it (provider-formats.md §6). Warnings, not errors.

use super::openai_strict::display;
use super::walk::MAX_DEPTH;
use super::{Check, Fix, finding};
use crate::model::Tool;
use crate::rules::Rule;
use crate::tree::{child_pointer, index_pointer};
use serde_json::Value;

/// `provider/ollama-dropped-keyword` (warning).
pub static DROPPED_KEYWORD: Rule = Rule::warning(
    "provider/ollama-dropped-keyword",
    "provider",
    "Ollama silently drops this keyword: the model does not see it and Ollama does not enforce it",
);

/// The rules of this file.
pub static RULES: &[&Rule] = &[&DROPPED_KEYWORD];

/// What Ollama keeps of `parameters` (its `items` and `$defs` are kept verbatim).
pub const ROOT_KEYS: [&str; 5] = ["type", "$defs", "items", "required", "properties"];
/// What Ollama keeps of a property (newer servers: `anyOf` and nested `properties`).
pub const PROPERTY_KEYS: [&str; 6] = [
    "type",
    "items",
    "description",
    "enum",
    "anyOf",
    "properties",
];

/// One warning per keyword Ollama drops, at the keyword.
pub fn check(tools: &[&Tool]) -> Vec<Check> {
    let mut out = Vec::new();
    for (i, tool) in tools.iter().enumerate() {
        let mut push = |pointer: &str, key: &str, at: &str| {
            out.push(Check {
                finding: finding(
                    &DROPPED_KEYWORD,
                    tool,
                    pointer,
                    format!(
                        "Ollama drops `{key}` at `{}` in `{}`: the model will not see it",
                        display(at),
                        tool.name
                    ),
                )
                .with_help(help(key)),
                tool: i,
                fix: Fix::None,
            })
        };
        let Some(root) = tool.parameters.as_object() else {
            continue;
        };
        for key in root.keys() {
            if !ROOT_KEYS.contains(&key.as_str()) {
                push(&child_pointer("", key), key, "");
            }
        }
        if let Some(Value::Object(props)) = root.get("properties") {
            for (name, prop) in props {
                property(prop, &child_pointer("/properties", name), 0, &mut push);
            }
        }
    }
    out
}

fn property(schema: &Value, pointer: &str, depth: usize, push: &mut dyn FnMut(&str, &str, &str)) {
    let Some(members) = schema.as_object() else {
        return;
    };
    if depth >= MAX_DEPTH {
        return;
    }
    for key in members.keys() {
        if !PROPERTY_KEYS.contains(&key.as_str()) {
            push(&child_pointer(pointer, key), key, pointer);
        }
    }
    if let Some(Value::Object(props)) = members.get("properties") {
        let base = child_pointer(pointer, "properties");
        for (name, prop) in props {
            property(prop, &child_pointer(&base, name), depth + 1, push);
        }
    }
    if let Some(Value::Array(alternatives)) = members.get("anyOf") {
        let base = child_pointer(pointer, "anyOf");
        for (k, alt) in alternatives.iter().enumerate() {
            property(alt, &index_pointer(&base, k), depth + 1, push);
        }
    }
}

fn help(key: &str) -> &'static str {
    match key {
        "default" => {
            "say the default in the description; the tool applies it when the argument is absent"
        }
        "required" => {
            "Ollama keeps `required` only at the top level: say in the description which nested fields are needed"
        }
        "description" | "title" => "put what the model must know into the tool's description",
        _ => {
            "say the constraint in the description if the model must know it; toolsmith's runtime still validates the arguments"
        }
    }
}

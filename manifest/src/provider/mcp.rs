//! MCP hosts (`tools/list`, specification 2025-11-25): the tool name rule
//! (a SHOULD, so a warning; rmcp only warns too) and the object root of
//! `inputSchema` (provider-formats.md §1).

use super::{Check, Fix, finding, name_finding, show};
use crate::model::Tool;
use crate::rules::Rule;
use serde_json::Value;

/// `provider/mcp-name` (warning).
pub static NAME: Rule = Rule::warning(
    "provider/mcp-name",
    "provider",
    "MCP tool names SHOULD be 1–128 characters of `A-Z a-z 0-9 _ . -`",
);

/// `provider/mcp-input-schema` (error).
pub static INPUT_SCHEMA: Rule = Rule::error(
    "provider/mcp-input-schema",
    "provider",
    "an MCP `inputSchema` MUST be an object schema (`type: \"object\"`)",
);

/// The rules of this file.
pub static RULES: &[&Rule] = &[&NAME, &INPUT_SCHEMA];

/// Longest tool name.
pub const MAX_NAME: usize = 128;

/// True for a name the MCP specification recommends.
pub fn name_ok(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// MCP's checks.
pub fn check(tools: &[&Tool]) -> Vec<Check> {
    let mut out = Vec::new();
    for (i, tool) in tools.iter().enumerate() {
        if !name_ok(&tool.name) {
            out.push(Check {
                finding: name_finding(
                    &NAME,
                    tool,
                    format!(
                        "the tool name `{}` breaks MCP's name rule: 1–{MAX_NAME} characters of `A-Z a-z 0-9 _ . -` (hosts may refuse or rename it)",
                        tool.name
                    ),
                )
                .with_help(super::openai::suggest_name(&tool.name)),
                tool: i,
                fix: Fix::None,
            });
        }
        let schema = &tool.parameters;
        if schema.get("type").and_then(Value::as_str) != Some("object") {
            let found = schema
                .get("type")
                .map_or("no `type`".to_string(), |t| format!("`type: {}`", show(t)));
            out.push(Check {
                finding: finding(
                    &INPUT_SCHEMA,
                    tool,
                    if schema.get("type").is_some() { "/type" } else { "" },
                    format!(
                        "MCP needs the `inputSchema` of `{}` to be `type: \"object\"`, found {found}",
                        tool.name
                    ),
                )
                .with_help("wrap the arguments in an object: {\"type\": \"object\", \"properties\": {…}}"),
                tool: i,
                fix: Fix::None,
            });
        }
    }
    out
}

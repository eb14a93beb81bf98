//! One MCP `Tool` object (specification 2025-11-25, `schema.ts`): its
//! fields, name, description, annotations and schemas.

use super::{
    ANNOTATION_TYPE, DESCRIPTION_MISSING, DUPLICATE_NAME, LIST_SHAPE, MISSING_FIELD,
    NAME_CHARACTERS, NAME_LENGTH, WRONG_TYPE, at, describe, schema,
};
use crate::cap::Findings;
use crate::model::{DescribeExecution, Execution, Origin, Tool};
use crate::tree::Node;
use std::collections::HashMap;

/// Longest tool name the specification recommends (2025-11-25).
pub const MAX_NAME: usize = 128;

/// The boolean hints of `ToolAnnotations` (2025-06-18 and later).
pub const HINTS: [&str; 4] = [
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

/// Checks one entry of a tool list; returns the tool when it has no error.
/// `seen` maps the names met so far to the pointer of their first entry.
pub fn check(
    node: &Node,
    seen: &mut HashMap<String, String>,
    findings: &mut Findings,
) -> Option<Tool> {
    let before = findings.errors();
    if node.as_object().is_none() {
        findings.push(
            at(
                &LIST_SHAPE,
                node,
                format!(
                    "a tool is an object with `name` and `inputSchema`, found {}",
                    describe(node)
                ),
            )
            .with_help("each element of `tools` is one MCP `Tool` object"),
        );
        return None;
    }
    let name = name(node, seen, findings);
    string(node, "title", findings);
    let description = description(node, findings);
    annotations(node, findings);
    for key in ["_meta", "execution"] {
        if let Some(value) = node.get(key)
            && value.as_object().is_none()
        {
            findings.push(at(
                &WRONG_TYPE,
                value,
                format!("`{key}` must be an object, found {}", describe(value)),
            ));
        }
    }
    if let Some(icons) = node.get("icons")
        && icons.as_array().is_none()
    {
        findings.push(at(
            &WRONG_TYPE,
            icons,
            format!(
                "`icons` must be an array of icon objects, found {}",
                describe(icons)
            ),
        ));
    }
    let input = schema_field(node, "inputSchema", true, findings);
    schema_field(node, "outputSchema", false, findings);
    let name = name?;
    let input = input?;
    if findings.errors() > before {
        return None;
    }
    Some(Tool {
        origin: Origin {
            source: None,
            span: node.span,
            name: node.get("name").cloned(),
            schema: Some(input.clone()),
        },
        name,
        description,
        parameters: input.to_value(),
        // An MCP tool runs on its server; this model never executes it
        // (`lint::load` refuses MCP lists). The exporters and provider rules
        // read only the name, description and schema.
        execution: Execution::Describe(DescribeExecution {
            program: Default::default(),
        }),
    })
}

/// A field that must be a string when present; `Some` with its value.
fn string<'n>(node: &'n Node, key: &str, findings: &mut Findings) -> Option<&'n str> {
    let value = node.get(key)?;
    match value.as_str() {
        Some(s) => Some(s),
        None => {
            findings.push(at(
                &WRONG_TYPE,
                value,
                format!("`{key}` must be a string, found {}", describe(value)),
            ));
            None
        }
    }
}

/// The name: present, a string, 1–128 characters of `A-Za-z0-9_.-`, unique.
fn name(
    node: &Node,
    seen: &mut HashMap<String, String>,
    findings: &mut Findings,
) -> Option<String> {
    let Some(value) = node.get("name") else {
        findings.push(
            at(&MISSING_FIELD, node, "this tool has no `name`")
                .with_help("every MCP tool has a `name`, the identifier a host calls it by"),
        );
        return None;
    };
    let name = string(node, "name", findings)?;
    let length = name.chars().count();
    if length == 0 || length > MAX_NAME {
        findings.push(
            at(
                &NAME_LENGTH,
                value,
                if length == 0 {
                    "the tool name is empty; MCP names SHOULD be 1–128 characters".to_string()
                } else {
                    format!(
                        "the tool name `{}…` is {length} characters long; MCP names SHOULD be at most {MAX_NAME}",
                        name.chars().take(32).collect::<String>()
                    )
                },
            )
            .with_help("give the tool a short name; hosts may refuse or truncate longer ones"),
        );
    }
    let bad: Vec<char> = name
        .chars()
        .filter(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .fold(Vec::new(), |mut acc, c| {
            if !acc.contains(&c) {
                acc.push(c);
            }
            acc
        });
    if !bad.is_empty() {
        let shown: Vec<String> = bad.iter().map(|c| format!("{c:?}")).collect();
        findings.push(
            at(
                &NAME_CHARACTERS,
                value,
                format!(
                    "the tool name {name:?} contains {}, outside the characters MCP names SHOULD use (`A-Z a-z 0-9 _ - .`)",
                    shown.join(", ")
                ),
            )
            .with_help(format!(
                "rename it, e.g. `{}`",
                name.chars()
                    .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '_' })
                    .take(MAX_NAME)
                    .collect::<String>()
            )),
        );
    }
    match seen.get(name) {
        Some(first) => findings.push(
            at(
                &DUPLICATE_NAME,
                value,
                format!("duplicate tool name {name:?}: the tool at `{first}` has it already"),
            )
            .with_help("names SHOULD be unique within a server; a host calling this name reaches only one of them"),
        ),
        None => {
            seen.insert(name.to_string(), node.pointer());
        }
    }
    Some(name.to_string())
}

/// The description: a warning when missing or empty, an error when not a string.
fn description(node: &Node, findings: &mut Findings) -> Option<String> {
    if node.get("description").is_none() {
        let at_name = node.get("name").unwrap_or(node);
        findings.push(
            at(&DESCRIPTION_MISSING, at_name, "this tool has no `description`")
                .with_help("describe what the tool does and when to use it: a model picks tools by their description"),
        );
        return None;
    }
    let text = string(node, "description", findings)?;
    if text.trim().is_empty() {
        if let Some(value) = node.get("description") {
            findings.push(
                at(&DESCRIPTION_MISSING, value, "the tool's `description` is empty")
                    .with_help("describe what the tool does and when to use it: a model picks tools by their description"),
            );
        }
        return None;
    }
    Some(text.to_string())
}

/// `annotations`: an object whose hints are booleans and `title` a string.
fn annotations(node: &Node, findings: &mut Findings) {
    let Some(annotations) = node.get("annotations") else {
        return;
    };
    let Some(members) = annotations.as_object() else {
        findings.push(at(
            &WRONG_TYPE,
            annotations,
            format!(
                "`annotations` must be an object, found {}",
                describe(annotations)
            ),
        ));
        return;
    };
    for m in members {
        let key = m.key.as_str();
        let value = &m.value;
        if HINTS.contains(&key) && value.as_bool().is_none() {
            let help = match value.as_str() {
                Some("true" | "false") => format!(
                    "write the boolean without quotes: `\"{key}\": {}`",
                    value.as_str().unwrap_or_default()
                ),
                _ => format!("`{key}` is `true` or `false` (or left out for its default)"),
            };
            findings.push(
                at(
                    &ANNOTATION_TYPE,
                    value,
                    format!(
                        "the annotation `{key}` must be a boolean, found {}",
                        describe(value)
                    ),
                )
                .with_help(help),
            );
        } else if key == "title" && value.as_str().is_none() {
            findings.push(at(
                &ANNOTATION_TYPE,
                value,
                format!(
                    "the annotation `title` must be a string, found {}",
                    describe(value)
                ),
            ));
        }
    }
}

/// `inputSchema` (required) or `outputSchema` (optional): an object schema.
fn schema_field<'n>(
    node: &'n Node,
    key: &str,
    required: bool,
    findings: &mut Findings,
) -> Option<&'n Node> {
    let Some(value) = node.get(key) else {
        if required {
            findings.push(
                at(&MISSING_FIELD, node.get("name").unwrap_or(node), format!("this tool has no `{key}`"))
                    .with_help("a tool without arguments has `\"inputSchema\": {\"type\": \"object\", \"additionalProperties\": false}`"),
            );
        }
        return None;
    };
    if value.as_object().is_none() {
        findings.push(
            at(
                &WRONG_TYPE,
                value,
                format!(
                    "`{key}` must be a JSON Schema object, found {}",
                    describe(value)
                ),
            )
            .with_help(
                "MCP schemas are objects with `\"type\": \"object\"`; `null` is not allowed",
            ),
        );
        return None;
    }
    schema::check(value, key, findings);
    Some(value)
}

//! Tool specs (`tools[]`): names, duplicate names, `parameters`.

use super::fields::{first_char, show};
use crate::cap::Findings;
use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::schema::{self, SchemaCheck};
use crate::source::Span;
use crate::tree::{Member, Node};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

pub static DUPLICATE_TOOL: Rule = Rule::error(
    "chai/duplicate-tool",
    "chai",
    "two tools have the same name (both are advertised; only one execution spec can match)",
);
pub static PARAMETERS_MISSING: Rule = Rule::warning(
    "chai/parameters-missing",
    "chai",
    "a tool has no `parameters` (or `null`); providers and MCP expect an object schema",
);

/// What a tool declares, as far as the checks of its mappings need it.
#[derive(Debug, Clone)]
pub struct ToolInfo {
    /// `tools[i]`.
    pub index: usize,
    /// The name.
    pub name: String,
    /// The `parameters` node; `None` when absent or `null`.
    pub parameters: Option<Node>,
    /// `parameters` for the model (an empty object schema when absent).
    pub schema: Value,
    /// `description`.
    pub description: Option<String>,
    /// The span of the tool's entry.
    pub span: Span,
    /// The `name` value.
    pub name_node: Node,
    /// Property name → (position in `properties`, listed in `required`);
    /// `None` when `parameters` is not an object with an object `properties`.
    index_of: Option<HashMap<String, (usize, bool)>>,
}

/// How a tool's `parameters` describe one property.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Property<'a> {
    /// `parameters` is not an object with an object `properties`: nothing can be said.
    Unknown,
    /// No such property.
    Absent,
    /// The property schema, and whether `required` lists it.
    Present(&'a Node, bool),
}

impl ToolInfo {
    /// Looks up a property of `parameters`.
    pub fn property(&self, name: &str) -> Property<'_> {
        let (Some(index_of), Some(members)) = (&self.index_of, self.properties()) else {
            return match self.index_of {
                None => Property::Unknown,
                Some(_) => Property::Absent,
            };
        };
        match index_of
            .get(name)
            .and_then(|&(i, req)| Some((members.get(i)?, req)))
        {
            Some((member, required)) => Property::Present(&member.value, required),
            None => Property::Absent,
        }
    }

    /// The members of `parameters.properties`.
    pub fn properties(&self) -> Option<&[Member]> {
        self.parameters.as_ref()?.get("properties")?.as_object()
    }

    /// The names of `parameters.properties` (for did-you-mean).
    pub fn property_names(&self) -> Vec<&str> {
        self.properties()
            .map(|ms| ms.iter().map(|m| m.key.as_str()).collect())
            .unwrap_or_default()
    }
}

/// Indexes `parameters.properties` (the last duplicate wins, as in serde_json).
fn index_properties(parameters: Option<&Node>) -> Option<HashMap<String, (usize, bool)>> {
    let Some(params) = parameters else {
        return Some(HashMap::new());
    };
    params.as_object()?;
    let members = match params.get("properties") {
        None => return Some(HashMap::new()),
        Some(p) => p.as_object()?,
    };
    let required: HashSet<&str> = params
        .get("required")
        .and_then(Node::as_array)
        .unwrap_or_default()
        .iter()
        .filter_map(Node::as_str)
        .collect();
    Some(
        members
            .iter()
            .enumerate()
            .map(|(i, m)| (m.key.clone(), (i, required.contains(m.key.as_str()))))
            .collect(),
    )
}

/// Checks the tool specs (their keys and types are checked by `fields`) and
/// returns the named ones.
pub fn check(items: &[Node], findings: &mut Findings) -> Vec<ToolInfo> {
    let mut infos: Vec<ToolInfo> = Vec::new();
    let mut first_index: HashMap<&str, usize> = HashMap::new();
    for (index, item) in items.iter().enumerate() {
        if item.as_object().is_none() {
            continue;
        }
        let name_node = item.get("name").filter(|n| n.as_str().is_some());
        let name = name_node.and_then(Node::as_str);
        if let (Some(node), Some(name)) = (name_node, name)
            && let Some(&first) = first_index.get(name)
        {
            findings.push(
                Finding::new(
                    &DUPLICATE_TOOL,
                    node.span,
                    node.pointer(),
                    format!("tools[{index}]: duplicate name {}", show(name)),
                )
                .with_help(format!(
                    "tools[{first}] has the same name; rename or remove one of them"
                )),
            );
        }
        let parameters = item.get("parameters");
        match parameters {
            Some(p) if !p.is_null() => schema::check(
                p,
                &SchemaCheck {
                    object_root: true,
                    allow_resolve: false,
                },
                findings,
            ),
            _ => {
                let (span, pointer) = match (parameters, name_node) {
                    (Some(null), _) => (null.span, null.pointer()),
                    (None, Some(n)) => (n.span, n.pointer()),
                    (None, None) => (first_char(item), item.pointer()),
                };
                findings.push(parameters_missing(
                    span,
                    pointer,
                    name,
                    parameters.is_some(),
                ));
            }
        }
        let (Some(name), Some(name_node)) = (name, name_node) else {
            continue;
        };
        first_index.entry(name).or_insert(index);
        let parameters = parameters.filter(|p| !p.is_null());
        infos.push(ToolInfo {
            index_of: index_properties(parameters),
            index,
            name: name.to_string(),
            span: item.span,
            name_node: name_node.clone(),
            parameters: parameters.cloned(),
            schema: match parameters {
                Some(p) => p.to_value(),
                None => serde_json::json!({"type": "object", "properties": {}}),
            },
            description: item
                .get("description")
                .and_then(Node::as_str)
                .map(str::to_string),
        });
    }
    infos
}

fn parameters_missing(span: Span, pointer: String, name: Option<&str>, null: bool) -> Finding {
    let what = name.map_or_else(|| "this tool".to_string(), |n| format!("tool {}", show(n)));
    let message = if null {
        format!("{what} has `parameters: null`; chai exports it as is")
    } else {
        format!("{what} has no `parameters`; chai exports `null`")
    };
    Finding::new(&PARAMETERS_MISSING, span, pointer, message).with_help(
        r#"providers expect an object schema: write "parameters": {"type": "object", "properties": {}}"#,
    )
}

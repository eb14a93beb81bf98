//! Dialect detection and the per-dialect rule sets.

pub mod agentcli;
pub mod chai;
pub mod describe;
pub mod mcp;
pub mod skill;

use crate::diagnostic::Finding;
use crate::model::Dialect;
use crate::rules::Rule;
use crate::tree::Node;

pub static UNKNOWN: Rule = Rule::error(
    "dialect/unknown",
    "dialect",
    "the file's shape matches no known manifest dialect",
);

/// Dialect-level rules.
pub static RULES: &[&Rule] = &[&UNKNOWN];

/// Tells a `tools.json` dialect from the shape of its root.
///
/// * an MCP tool list ([`mcp::looks_like_mcp`]: a JSON-RPC response, an
///   object with `inputSchema` or `nextCursor`, tools with `inputSchema`) ⇒ mcp;
/// * object with `allowlist` or `execution`, or whose tools carry `parameters` ⇒ chai (legacy);
/// * object whose tools carry `command`, `schema`, `timeoutSec` or `envPassthrough` ⇒ agentcli;
/// * array next to `allowlist.json` / `execution.json` ⇒ chai (split); an array
///   whose elements look like describe output and that has no siblings ⇒ chai
///   split as well (the split layout then reports the missing files).
///
/// ```
/// use toolsmith_manifest::{dialect::detect, json::parse, model::Dialect};
/// let root = parse(r#"{"tools":[{"name":"a","command":["./tools/bin/a"]}]}"#).root.unwrap();
/// assert_eq!(detect(&root, false), Some(Dialect::Agentcli));
/// let root = parse(r#"{"tools":[],"allowlist":{},"execution":[]}"#).root.unwrap();
/// assert_eq!(detect(&root, false), Some(Dialect::ChaiLegacy));
/// let root = parse(r#"{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}"#).root.unwrap();
/// assert_eq!(detect(&root, false), Some(Dialect::Mcp));
/// ```
pub fn detect(root: &Node, has_split_siblings: bool) -> Option<Dialect> {
    if mcp::looks_like_mcp(root) {
        return Some(Dialect::Mcp);
    }
    if root.as_array().is_some() {
        return Some(Dialect::ChaiSplit);
    }
    root.as_object()?;
    if root.get("allowlist").is_some() || root.get("execution").is_some() {
        return Some(Dialect::ChaiLegacy);
    }
    let tools = root.get("tools");
    let elements = tools.and_then(Node::as_array).unwrap_or_default();
    let has = |keys: &[&str]| {
        elements.iter().any(|t| {
            t.as_object().is_some_and(|ms| {
                ms.iter()
                    .any(|m| keys.iter().any(|k| m.key.eq_ignore_ascii_case(k)))
            })
        })
    };
    if has(&["command", "schema", "timeoutSec", "envPassthrough"]) {
        return Some(Dialect::Agentcli);
    }
    if has(&["parameters"]) || has_split_siblings {
        return Some(Dialect::ChaiLegacy);
    }
    if tools.is_some() {
        return Some(Dialect::Agentcli);
    }
    None
}

/// The finding for a file whose dialect cannot be told.
pub fn unknown_dialect(root: &Node) -> Finding {
    Finding::new(
        &UNKNOWN,
        root.span,
        "",
        format!(
            "cannot tell the manifest dialect of this {}: expected a chai object (`tools`, `allowlist`, `execution`), an agentcli object (`tools` with `command`), a chai tools array, or an MCP tool list (tools with `inputSchema`)",
            root.type_name()
        ),
    )
    .with_help("name the dialect with `--dialect chai|agentcli|describe|skill|mcp`")
}

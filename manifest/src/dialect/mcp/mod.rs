//! The `mcp` dialect: the tool list an MCP server publishes.
//!
//! Four shapes are read ([`shape`]): a `tools/list` result (`{"tools": […]}`,
//! with or without `nextCursor`), the JSON-RPC response that carries it
//! (`{"jsonrpc": "2.0", "id": …, "result": {…}}`), a JSON array of tools, or
//! one tool object (github-mcp-server's `__toolsnaps__/*.snap`). Each tool is
//! checked against the MCP specification ([`tool`]); its schemas under the
//! JSON Schema dialect the revision names ([`schema`]).
//!
//! Revisions: 2025-06-18 (`outputSchema`, `title`, annotations) and
//! 2025-11-25 (the current one: the tool-name rule of SEP-986, JSON Schema
//! 2020-12 as the default dialect of SEP-1613, `icons`). The README's
//! "MCP tool lists" section cites the revision of every rule.
//!
//! An MCP tool runs on its server, not here: [`crate::lint::load`] refuses an
//! MCP list, so neither the runtime nor `serve` ever executes one.

pub mod schema;
pub mod shape;
pub mod tool;

use crate::cap::Findings;
use crate::diagnostic::Finding;
use crate::document::Document;
use crate::model::{Dialect, Manifest};
use crate::options::Options;
use crate::rules::Rule;
use crate::tree::Node;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// `mcp/list-shape` (error).
pub static LIST_SHAPE: Rule = Rule::error(
    "mcp/list-shape",
    "mcp",
    "the document is not an MCP tool list: a `tools/list` result, its JSON-RPC response, an array of tools or one tool",
);
/// `mcp/jsonrpc-error` (error).
pub static JSONRPC_ERROR: Rule = Rule::error(
    "mcp/jsonrpc-error",
    "mcp",
    "the JSON-RPC response carries an `error` instead of a `tools/list` result",
);
/// `mcp/next-page` (note).
pub static NEXT_PAGE: Rule = Rule::note(
    "mcp/next-page",
    "mcp",
    "the list is one page of a paged `tools/list` (`nextCursor`): tools of later pages are not checked",
);
/// `mcp/missing-field` (error).
pub static MISSING_FIELD: Rule = Rule::error(
    "mcp/missing-field",
    "mcp",
    "a tool lacks a field the specification requires (`name`, `inputSchema`)",
);
/// `mcp/wrong-type` (error).
pub static WRONG_TYPE: Rule = Rule::error(
    "mcp/wrong-type",
    "mcp",
    "a field of a tool has the wrong JSON type (`name`, `title`, `description` strings; `inputSchema`, `outputSchema`, `annotations`, `_meta` objects; `icons` an array)",
);
/// `mcp/name-length` (warning).
pub static NAME_LENGTH: Rule = Rule::warning(
    "mcp/name-length",
    "mcp",
    "a tool name SHOULD be 1–128 characters long (2025-11-25)",
);
/// `mcp/name-characters` (warning).
pub static NAME_CHARACTERS: Rule = Rule::warning(
    "mcp/name-characters",
    "mcp",
    "a tool name SHOULD use only `A-Z a-z 0-9 _ - .` (2025-11-25)",
);
/// `mcp/duplicate-name` (error).
pub static DUPLICATE_NAME: Rule = Rule::error(
    "mcp/duplicate-name",
    "mcp",
    "two tools of one list have the same name; a host calls tools by name",
);
/// `mcp/schema-type` (error).
pub static SCHEMA_TYPE: Rule = Rule::error(
    "mcp/schema-type",
    "mcp",
    "`inputSchema` and `outputSchema` must have `type: \"object\"` at the root",
);
/// `mcp/schema-dialect` (warning).
pub static SCHEMA_DIALECT: Rule = Rule::warning(
    "mcp/schema-dialect",
    "mcp",
    "a schema's `$schema` names a dialect other than JSON Schema 2020-12, the default of MCP 2025-11-25",
);
/// `mcp/annotation-type` (error).
pub static ANNOTATION_TYPE: Rule = Rule::error(
    "mcp/annotation-type",
    "mcp",
    "a tool annotation has the wrong type (`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint` booleans; `title` a string)",
);
/// `mcp/description-missing` (warning).
pub static DESCRIPTION_MISSING: Rule = Rule::warning(
    "mcp/description-missing",
    "mcp",
    "a tool has no description, or an empty one: the model chooses tools by their description",
);

/// `mcp/runs-on-server` (error).
pub static RUNS_ON_SERVER: Rule = Rule::error(
    "mcp/runs-on-server",
    "mcp",
    "an MCP tool list cannot be loaded to run or serve (`toolsmith run`, `serve`, the runtime): its tools run on their server",
);

/// `mcp/server-start` (error).
pub static SERVER_START: Rule = Rule::error(
    "mcp/server-start",
    "mcp",
    "`lint --mcp-command`/`--mcp-url`: the server could not be started or reached",
);
/// `mcp/server-timeout` (error).
pub static SERVER_TIMEOUT: Rule = Rule::error(
    "mcp/server-timeout",
    "mcp",
    "`lint --mcp-command`/`--mcp-url`: the server did not answer within the timeout (`--mcp-timeout`); it was stopped",
);
/// `mcp/server-exit` (error).
pub static SERVER_EXIT: Rule = Rule::error(
    "mcp/server-exit",
    "mcp",
    "`lint --mcp-command`/`--mcp-url`: the server exited or closed the connection before sending its tool list",
);
/// `mcp/server-garbage` (error).
pub static SERVER_GARBAGE: Rule = Rule::error(
    "mcp/server-garbage",
    "mcp",
    "`lint --mcp-command`: the server wrote something that is not JSON-RPC on stdout (logs belong on stderr)",
);
/// `mcp/server-protocol` (error).
pub static SERVER_PROTOCOL: Rule = Rule::error(
    "mcp/server-protocol",
    "mcp",
    "`lint --mcp-command`/`--mcp-url`: the server broke the protocol (a refused `initialize`, a cursor repeated, endless pages)",
);

/// The rules of the `mcp` dialect.
pub static RULES: &[&Rule] = &[
    &LIST_SHAPE,
    &JSONRPC_ERROR,
    &NEXT_PAGE,
    &MISSING_FIELD,
    &WRONG_TYPE,
    &NAME_LENGTH,
    &NAME_CHARACTERS,
    &DUPLICATE_NAME,
    &SCHEMA_TYPE,
    &SCHEMA_DIALECT,
    &ANNOTATION_TYPE,
    &DESCRIPTION_MISSING,
    &RUNS_ON_SERVER,
    &SERVER_START,
    &SERVER_TIMEOUT,
    &SERVER_EXIT,
    &SERVER_GARBAGE,
    &SERVER_PROTOCOL,
];

/// True when `root` has the shape of an MCP tool list: a JSON-RPC response,
/// an object with `inputSchema` (one tool) or `nextCursor`, or tools (in
/// `tools` or a root array) of which one has `inputSchema`.
///
/// ```
/// use toolsmith_manifest::{dialect::mcp::looks_like_mcp, json::parse};
/// let root = parse(r#"{"name": "a", "inputSchema": {"type": "object"}}"#).root.unwrap();
/// assert!(looks_like_mcp(&root));
/// let root = parse(r#"[{"name": "a", "inputSchema": {}}]"#).root.unwrap();
/// assert!(looks_like_mcp(&root));
/// let root = parse(r#"{"tools": [{"name": "a", "command": ["./a"]}]}"#).root.unwrap();
/// assert!(!looks_like_mcp(&root));
/// ```
pub fn looks_like_mcp(root: &Node) -> bool {
    let has_input_schema = |tools: &[Node]| tools.iter().any(|t| t.get("inputSchema").is_some());
    if let Some(elements) = root.as_array() {
        return has_input_schema(elements);
    }
    if root.as_object().is_none() {
        return false;
    }
    if root.get("jsonrpc").is_some()
        || root.get("inputSchema").is_some()
        || root.get("nextCursor").is_some()
    {
        return true;
    }
    root.get("tools")
        .and_then(Node::as_array)
        .is_some_and(has_input_schema)
}

/// Checks one MCP tool list and returns its model: every tool without an
/// error of its own, in list order; `None` when the document holds no list.
pub fn check(doc: &mut Document, options: &Options) -> Option<Manifest> {
    let _ = options;
    let root = doc.root.as_ref()?;
    let mut findings = Findings::new();
    let list = shape::read(root, &mut findings);
    let mut tools = Vec::new();
    let mut unusable = Vec::new();
    if let Some(list) = &list {
        let mut seen: HashMap<String, String> = HashMap::new();
        for entry in &list.tools {
            match tool::check(entry, &mut seen, &mut findings) {
                Some(mut t) => {
                    t.origin.source = Some(Arc::clone(&doc.source));
                    tools.push(t);
                }
                None => unusable.extend(
                    entry
                        .get("name")
                        .and_then(Node::as_str)
                        .filter(|n| !n.is_empty())
                        .map(str::to_string),
                ),
            }
        }
    }
    doc.findings.append(findings);
    list.map(|_| Manifest {
        dialect: Dialect::Mcp,
        path: doc.path.clone(),
        inputs: vec![doc.path.clone()],
        tools,
        allowlist: BTreeMap::new(),
        unusable,
    })
}

/// A short rendering of a node for messages: its type and up to 40 characters.
pub(crate) fn describe(node: &Node) -> String {
    if node.is_null() {
        return "null".to_string();
    }
    let text = node.to_value().to_string();
    let short: String = text.chars().take(40).collect();
    let short = if short.len() < text.len() {
        format!("{short}…")
    } else {
        short
    };
    format!("{} {short}", node.type_name())
}

/// A finding at `node`.
pub(crate) fn at(rule: &'static Rule, node: &Node, message: impl Into<String>) -> Finding {
    Finding::new(rule, node.span, node.pointer(), message)
}

#[cfg(test)]
mod tests {
    use crate::lint::{Input, lint, load};
    use crate::model::Dialect;
    use crate::options::Options;

    const TOOL: &str =
        r#"{"name": "ping", "description": "Ping.", "inputSchema": {"type": "object"}}"#;

    fn lint_text(name: &str, text: &str) -> crate::lint::Report {
        let dir = std::env::temp_dir().join(format!("toolsmith-mcp-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let report = lint(&[Input::new(&path)], &Options::default()).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        report
    }

    #[test]
    fn the_four_shapes_give_the_same_tool() {
        let shapes = [
            ("one.snap", TOOL.to_string()),
            ("array.json", format!("[{TOOL}]")),
            ("result.json", format!(r#"{{"tools": [{TOOL}]}}"#)),
            (
                "paged.json",
                format!(r#"{{"tools": [{TOOL}], "nextCursor": "2"}}"#),
            ),
            (
                "response.json",
                format!(r#"{{"jsonrpc": "2.0", "id": 1, "result": {{"tools": [{TOOL}]}}}}"#),
            ),
        ];
        for (name, text) in shapes {
            let report = lint_text(name, &text);
            assert_eq!(report.manifests.len(), 1, "{name}");
            assert_eq!(report.manifests[0].dialect, Dialect::Mcp, "{name}");
            assert_eq!(report.manifests[0].tools[0].name, "ping", "{name}");
            assert!(
                !report.diagnostics.has_errors(),
                "{name}: {}",
                report.diagnostics
            );
        }
    }

    #[test]
    fn load_refuses_an_mcp_list_because_it_runs_on_its_server() {
        let dir = std::env::temp_dir().join(format!("toolsmith-mcp-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("github.mcp-tools.json");
        std::fs::write(&path, format!(r#"{{"tools": [{TOOL}]}}"#)).unwrap();
        let failure = load(&path, "github.mcp-tools.json", &Options::default()).unwrap_err();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(failure.diagnostics.0[0].rule, "mcp/runs-on-server");
        assert!(
            failure.diagnostics.0[0]
                .message
                .contains("its tools run on their server"),
            "{}",
            failure.diagnostics
        );
    }
}

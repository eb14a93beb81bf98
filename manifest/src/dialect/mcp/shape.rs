//! The four shapes of an MCP tool list, unwrapped to the tools.

use super::{JSONRPC_ERROR, LIST_SHAPE, NEXT_PAGE, WRONG_TYPE, at, describe};
use crate::cap::Findings;
use crate::diagnostic::Finding;
use crate::tree::Node;

/// The tools of a document, whatever its shape.
#[derive(Debug)]
pub struct List<'a> {
    /// The tool entries in list order (not yet checked to be objects).
    pub tools: Vec<&'a Node>,
}

/// Unwraps `root` to its tools, adding findings for a shape that is none of
/// the four; `None` when no tool list can be found in it.
///
/// ```
/// use toolsmith_manifest::{cap::Findings, dialect::mcp::shape::read, json::parse};
/// let root = parse(r#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a"}]}}"#).root.unwrap();
/// let mut findings = Findings::new();
/// assert_eq!(read(&root, &mut findings).unwrap().tools.len(), 1);
/// assert!(findings.is_empty());
/// let root = parse(r#"{"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}"#).root.unwrap();
/// assert!(read(&root, &mut findings).is_none());
/// assert_eq!(findings[0].rule.id, "mcp/jsonrpc-error");
/// ```
pub fn read<'a>(root: &'a Node, findings: &mut Findings) -> Option<List<'a>> {
    if let Some(elements) = root.as_array() {
        return Some(List {
            tools: elements.iter().collect(),
        });
    }
    if root.as_object().is_none() {
        findings.push(not_a_list(root));
        return None;
    }
    if root.get("jsonrpc").is_some() {
        return envelope(root, findings);
    }
    if root.get("tools").is_some() || root.get("nextCursor").is_some() {
        return result(root, findings);
    }
    if root.get("inputSchema").is_some() || root.get("name").is_some() {
        return Some(List { tools: vec![root] });
    }
    findings.push(not_a_list(root));
    None
}

fn not_a_list(root: &Node) -> Finding {
    at(
        &LIST_SHAPE,
        root,
        format!(
            "expected an MCP tool list, found {}",
            describe(root)
        ),
    )
    .with_help(
        "give a `tools/list` result `{\"tools\": […]}`, the JSON-RPC response carrying it, an array of tools or one tool object with `name` and `inputSchema`",
    )
}

/// A JSON-RPC 2.0 response: its `result` is the `tools/list` result.
fn envelope<'a>(root: &'a Node, findings: &mut Findings) -> Option<List<'a>> {
    if let Some(version) = root.get("jsonrpc")
        && version.as_str() != Some("2.0")
    {
        findings.push(
            at(
                &LIST_SHAPE,
                version,
                format!(
                    "a JSON-RPC response has `\"jsonrpc\": \"2.0\"`, found {}",
                    describe(version)
                ),
            )
            .with_help("MCP speaks JSON-RPC 2.0: set `\"jsonrpc\": \"2.0\"`"),
        );
    }
    if let Some(error) = root.get("error") {
        let code = error
            .get("code")
            .map(|c| c.to_value().to_string())
            .unwrap_or_else(|| "no code".to_string());
        let message = error
            .get("message")
            .and_then(Node::as_str)
            .unwrap_or("no message");
        findings.push(
            at(
                &JSONRPC_ERROR,
                error,
                format!("the server answered `tools/list` with JSON-RPC error {code}: {message:?}"),
            )
            .with_help("save the response of a successful `tools/list` call"),
        );
        return None;
    }
    let Some(result) = root.get("result") else {
        findings.push(
            at(
                &LIST_SHAPE,
                root,
                "a JSON-RPC response without `result` or `error` holds no tool list",
            )
            .with_help("save the whole response to `tools/list`: `{\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {\"tools\": […]}}`"),
        );
        return None;
    };
    if result.as_object().is_none() || result.get("tools").is_none() {
        findings.push(
            at(
                &LIST_SHAPE,
                result,
                format!(
                    "the `result` of a `tools/list` response is an object with `tools`, found {}",
                    describe(result)
                ),
            )
            .with_help(
                "this is the response to another request; save the response to `tools/list`",
            ),
        );
        return None;
    }
    self::result(result, findings)
}

/// A `tools/list` result: `tools`, and `nextCursor` when there are more pages.
fn result<'a>(root: &'a Node, findings: &mut Findings) -> Option<List<'a>> {
    if let Some(cursor) = root.get("nextCursor") {
        match cursor.as_str() {
            Some(_) => findings.push(
                at(
                    &NEXT_PAGE,
                    cursor,
                    "this list is one page of a paged `tools/list`: the tools of later pages are not in this file, so names are checked for uniqueness within this page only",
                )
                .with_help("save every page (`toolsmith lint --mcp-command` pages through them all)"),
            ),
            None if cursor.is_null() => {}
            None => findings.push(at(
                &WRONG_TYPE,
                cursor,
                format!("`nextCursor` must be a string, found {}", describe(cursor)),
            )),
        }
    }
    let Some(tools) = root.get("tools") else {
        findings.push(
            at(&LIST_SHAPE, root, "a `tools/list` result without `tools`")
                .with_help("a `tools/list` result is `{\"tools\": […], \"nextCursor\": \"…\"}`"),
        );
        return None;
    };
    match tools.as_array() {
        Some(elements) => Some(List {
            tools: elements.iter().collect(),
        }),
        None => {
            findings.push(at(
                &LIST_SHAPE,
                tools,
                format!(
                    "`tools` must be an array of tools, found {}",
                    describe(tools)
                ),
            ));
            None
        }
    }
}

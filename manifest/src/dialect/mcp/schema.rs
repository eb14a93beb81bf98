//! An MCP tool's `inputSchema` / `outputSchema`: `type: "object"` at the
//! root (every revision's `schema.ts`), and valid under its JSON Schema
//! dialect: 2020-12 when `$schema` is absent (2025-11-25, SEP-1613), the
//! dialect `$schema` names otherwise.

use super::{SCHEMA_DIALECT, SCHEMA_TYPE, at, describe};
use crate::cap::Findings;
use crate::schema::SchemaCheck;
use crate::tree::Node;

/// The `$schema` URIs of JSON Schema 2020-12 (with and without the empty fragment).
const DRAFT_2020_12: [&str; 2] = [
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2020-12/schema#",
];

/// The dialects a `$schema` may name, other than 2020-12.
const OTHER_DRAFTS: [(&str, &str); 5] = [
    ("https://json-schema.org/draft/2019-09/schema", "2019-09"),
    ("http://json-schema.org/draft-07/schema", "draft-07"),
    ("http://json-schema.org/draft-06/schema", "draft-06"),
    ("http://json-schema.org/draft-04/schema", "draft-04"),
    ("http://json-schema.org/draft-03/schema", "draft-03"),
];

/// The draft a `$schema` URI names: `Some("2020-12")`, another draft's
/// name, or `None` for a URI that names no JSON Schema draft.
///
/// ```
/// use toolsmith_manifest::dialect::mcp::schema::draft;
/// assert_eq!(draft("https://json-schema.org/draft/2020-12/schema"), Some("2020-12"));
/// assert_eq!(draft("http://json-schema.org/draft-07/schema#"), Some("draft-07"));
/// assert_eq!(draft("https://example.com/my-schema"), None);
/// ```
pub fn draft(uri: &str) -> Option<&'static str> {
    if DRAFT_2020_12.contains(&uri) {
        return Some("2020-12");
    }
    let bare = uri.trim_end_matches('#');
    let https = bare.replacen("http://", "https://", 1);
    OTHER_DRAFTS
        .iter()
        .find(|(u, _)| {
            let u_https = u.replacen("http://", "https://", 1);
            *u == bare || u_https == https
        })
        .map(|(_, name)| *name)
}

/// Checks the schema object `node` held by `key` (`inputSchema`, `outputSchema`).
pub fn check(node: &Node, key: &str, findings: &mut Findings) {
    match node.get("type") {
        Some(t) if t.as_str() == Some("object") => {}
        Some(t) => findings.push(
            at(
                &SCHEMA_TYPE,
                t,
                format!(
                    "MCP requires `{key}` to have `\"type\": \"object\"`, found {}",
                    describe(t)
                ),
            )
            .with_help("wrap the value in an object: {\"type\": \"object\", \"properties\": {…}}"),
        ),
        None => findings.push(
            at(
                &SCHEMA_TYPE,
                node,
                format!("`{key}` has no `type`; MCP requires `\"type\": \"object\"` at its root"),
            )
            .with_help("add `\"type\": \"object\"` at the root of the schema"),
        ),
    }
    let declared = node.get("$schema");
    let dialect = match declared.map(|d| (d, d.as_str())) {
        None => Some("2020-12"),
        // A `$schema` that is not a string is reported by the meta-schema pass.
        Some((_, None)) => Some("2020-12"),
        Some((d, Some(uri))) => match draft(uri) {
            Some("2020-12") => Some("2020-12"),
            Some(other) => {
                findings.push(
                    at(
                        &SCHEMA_DIALECT,
                        d,
                        format!(
                            "`{key}` declares JSON Schema {other}; it is read as {other}, not as MCP's default 2020-12, so toolsmith's 2020-12 meta-schema pass does not apply and hosts that only know 2020-12 may read keywords such as `items` or `dependencies` differently"
                        ),
                    )
                    .with_help("write the schema in JSON Schema 2020-12 and drop `$schema` (or name https://json-schema.org/draft/2020-12/schema)"),
                );
                None
            }
            None => {
                findings.push(
                    at(
                        &SCHEMA_DIALECT,
                        d,
                        format!("`{key}` declares the unknown schema dialect {uri:?}; no host can be expected to validate it"),
                    )
                    .with_help("drop `$schema` (MCP's default is JSON Schema 2020-12) or name a JSON Schema draft"),
                );
                None
            }
        },
    };
    if dialect == Some("2020-12") {
        crate::schema::check(node, &SchemaCheck::default(), findings);
    }
}

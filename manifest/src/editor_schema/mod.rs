//! JSON Schemas (draft 2020-12) for editors: what VS Code and other editors
//! use for completion, hover and squiggles without a language server.
//!
//! Each schema is built from the tables the linter checks with — the chai
//! key tables ([`crate::dialect::chai::fields`]), agentcli's `ToolSpec` keys,
//! the describe keys and the `toolsmith.toml` keys and values — so a key the
//! linter learns appears in the schema too. A schema refuses unknown keys
//! only where the dialect does (legacy chai, `toolsmith.toml`); where the
//! reader ignores them (chai v0.5, agentcli, describe, MCP) it lists the
//! known keys for completion and lets others through, as the linter only
//! warns there.
//!
//! ```
//! use toolsmith_manifest::editor_schema::FileKind;
//! let schema = FileKind::Config.schema();
//! assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
//! assert!(schema["properties"]["exclude"].is_object());
//! assert_eq!(FileKind::from_name("chai-allowlist"), Some(FileKind::ChaiAllowlist));
//! ```

mod agentcli;
mod chai;
mod config;
mod describe;
mod mcp;

use serde_json::{Map, Value, json};

/// The dialect of JSON Schema every schema here is written in.
pub const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// A kind of file `toolsmith schema` has a schema for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// chai `tools.json`: the legacy single-file object or the v0.5 tools array.
    Chai,
    /// chai v0.5 `execution.json`.
    ChaiExecution,
    /// chai v0.5 `allowlist.json`.
    ChaiAllowlist,
    /// agentcli (goagent) `tools.json`.
    Agentcli,
    /// `--describe` output (`*.describe.json`): one object or a catalog array.
    Describe,
    /// An MCP `tools/list` result.
    Mcp,
    /// `toolsmith.toml` (as the JSON an editor's TOML extension maps it to).
    Config,
}

impl FileKind {
    /// Every kind, in the order `toolsmith schema` lists them.
    pub const ALL: [FileKind; 7] = [
        FileKind::Chai,
        FileKind::ChaiExecution,
        FileKind::ChaiAllowlist,
        FileKind::Agentcli,
        FileKind::Describe,
        FileKind::Mcp,
        FileKind::Config,
    ];

    /// The name on the command line (`chai-execution`).
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Chai => "chai",
            FileKind::ChaiExecution => "chai-execution",
            FileKind::ChaiAllowlist => "chai-allowlist",
            FileKind::Agentcli => "agentcli",
            FileKind::Describe => "describe",
            FileKind::Mcp => "mcp",
            FileKind::Config => "config",
        }
    }

    /// The kind of a command-line name.
    pub fn from_name(name: &str) -> Option<FileKind> {
        FileKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The JSON Schema of this kind of file.
    pub fn schema(self) -> Value {
        match self {
            FileKind::Chai => chai::tools(),
            FileKind::ChaiExecution => chai::execution(),
            FileKind::ChaiAllowlist => chai::allowlist(),
            FileKind::Agentcli => agentcli::schema(),
            FileKind::Describe => describe::schema(),
            FileKind::Mcp => mcp::schema(),
            FileKind::Config => config::schema(),
        }
    }
}

/// A root schema: `$schema`, `title` and `description` in front of `body`.
fn document(title: &str, description: &str, body: Value) -> Value {
    let mut out = Map::new();
    out.insert("$schema".into(), json!(DRAFT));
    out.insert("title".into(), json!(title));
    out.insert("description".into(), json!(description));
    if let Value::Object(members) = body {
        out.extend(members);
    }
    Value::Object(out)
}

/// Adds `description` to a schema object (kept when it is `None`).
fn described(mut schema: Value, description: Option<&str>) -> Value {
    if let (Value::Object(members), Some(d)) = (&mut schema, description) {
        members.insert("description".into(), json!(d));
    }
    schema
}

/// An object schema with these properties (in order), required keys and,
/// when `closed`, `additionalProperties: false`.
fn object(properties: Map<String, Value>, required: &[&str], closed: bool) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), json!("object"));
    out.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        out.insert("required".into(), json!(required));
    }
    if closed {
        out.insert("additionalProperties".into(), json!(false));
    }
    Value::Object(out)
}

/// `{"type": "array", "items": items}`.
fn array(items: Value) -> Value {
    json!({"type": "array", "items": items})
}

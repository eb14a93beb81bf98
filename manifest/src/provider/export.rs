//! A tool list as a provider's request fragment (provider-formats.md §1–§8):
//! `toolsmith export --to TARGET [--strict]`.
//!
//! Every export is checked with the rules of its provider first; a tool with
//! an error finding that the export does not repair is refused. The findings
//! come back positioned in the tools' files.

use super::{Check, Fix, Provider, check, gemini, openai, openai_strict, strict};
use crate::diagnostic::Finding;
use crate::diagnostic::{Diagnostic, Severity};
use crate::model::Tool;
use crate::source::Source;
use serde_json::{Map, Value, json};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// Where a tool list is exported to (`--to`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// OpenAI Chat Completions: `{"type": "function", "function": {…}}`.
    OpenAiChat,
    /// OpenAI Responses: `{"type": "function", "name": …}` (flat).
    OpenAiResponses,
    /// Anthropic Messages: `{"name", "description", "input_schema"}`.
    Anthropic,
    /// Gemini: `functionDeclarations` with Gemini's `Schema`.
    Gemini,
    /// Ollama `/api/chat` (the Chat Completions shape, no `strict`).
    Ollama,
    /// MCP `tools/list` result: `{"name", "description", "inputSchema"}`.
    Mcp,
}

impl Target {
    /// Every target, in the order `--to` lists them.
    pub const ALL: [Target; 6] = [
        Target::OpenAiChat,
        Target::OpenAiResponses,
        Target::Anthropic,
        Target::Gemini,
        Target::Ollama,
        Target::Mcp,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Target::OpenAiChat => "openai-chat",
            Target::OpenAiResponses => "openai-responses",
            Target::Anthropic => "anthropic",
            Target::Gemini => "gemini",
            Target::Ollama => "ollama",
            Target::Mcp => "mcp",
        }
    }

    /// True when the provider has a strict mode (`--strict`).
    pub fn has_strict(self) -> bool {
        matches!(
            self,
            Target::OpenAiChat | Target::OpenAiResponses | Target::Anthropic
        )
    }

    /// The provider whose rules an export checks.
    pub fn provider(self, strict: bool) -> Provider {
        match (self, strict) {
            (Target::OpenAiChat | Target::OpenAiResponses, false) => Provider::OpenAi,
            (Target::OpenAiChat | Target::OpenAiResponses, true) => Provider::OpenAiStrict,
            (Target::Anthropic, false) => Provider::Anthropic,
            (Target::Anthropic, true) => Provider::AnthropicStrict,
            (Target::Gemini, _) => Provider::Gemini,
            (Target::Ollama, _) => Provider::Ollama,
            (Target::Mcp, _) => Provider::Mcp,
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An export target name that is not one of [`Target::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown export target `{0}`; valid targets: {names}", names = Target::ALL.map(Target::name).join(", "))]
pub struct UnknownTarget(pub String);

impl FromStr for Target {
    type Err = UnknownTarget;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Target::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| UnknownTarget(s.to_string()))
    }
}

/// How an export was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    /// The provider format.
    pub target: Target,
    /// Rewrite into the provider's strict form (`--strict`).
    pub strict: bool,
    /// Leave refused tools out instead of failing (`--skip-incompatible`).
    pub skip_incompatible: bool,
}

/// `--strict` for a provider without a strict mode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` has no strict mode; --strict applies to openai-chat, openai-responses and anthropic"
)]
pub struct NoStrictMode(pub Target);

/// Counts of one export.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Tools in the fragment.
    pub exported: usize,
    /// Of those, tools whose schema the export changed (the strict rewrite,
    /// Gemini's nullable types, a dropped `$schema`); Gemini's upper-case
    /// type names are its spelling, not counted.
    pub rewritten: usize,
    /// Tools refused (left out with `--skip-incompatible`): those the
    /// provider refuses, and past a limit counted over the list, the surplus.
    pub refused: usize,
}

/// The result of an export.
#[derive(Debug, Clone)]
pub struct Export {
    /// The request fragment; `None` when a tool was refused and
    /// `--skip-incompatible` was not given.
    pub fragment: Option<Value>,
    /// Every finding of the provider's rules that the export does not
    /// repair, positioned in the tools' files.
    pub diagnostics: Vec<Diagnostic>,
    /// The counts.
    pub counts: Counts,
    /// The indexes (in the list exported) of the tools refused, in order.
    pub refused: Vec<usize>,
}

/// Exports `tools` (one request) as `request` asks.
///
/// ```
/// use toolsmith_manifest::model::{DescribeExecution, Execution, Tool};
/// use toolsmith_manifest::provider::export::{export, Request, Target};
/// let tool = Tool {
///     name: "read".into(),
///     description: Some("Read a file".into()),
///     parameters: serde_json::json!({"type": "object", "properties": {"path": {"type": "string"}}}),
///     execution: Execution::Describe(DescribeExecution { program: "read".into() }),
///     origin: Default::default(),
/// };
/// let request = Request { target: Target::OpenAiResponses, strict: true, skip_incompatible: false };
/// let out = export(&[&tool], request).unwrap();
/// assert_eq!(out.fragment.unwrap()["tools"][0]["parameters"]["required"], serde_json::json!(["path"]));
/// assert_eq!(out.counts.rewritten, 1);
/// ```
pub fn export(tools: &[&Tool], request: Request) -> Result<Export, NoStrictMode> {
    let Request {
        target,
        strict,
        skip_incompatible,
    } = request;
    if strict && !target.has_strict() {
        return Err(NoStrictMode(target));
    }
    let mut checks: Vec<Check> = check(target.provider(strict), tools)
        .into_iter()
        .map(|c| if strict { closes_map(c, tools) } else { c })
        .filter(|c| match c.fix {
            Fix::None => true,
            Fix::Strict => !strict,
            Fix::Export => false,
        })
        .collect();
    if target == Target::OpenAiResponses && !strict {
        for c in &mut checks {
            if c.finding.rule.id == openai::RESPONSES_ONEOF.id {
                c.finding.severity = Severity::Error;
            }
        }
    }
    if target == Target::OpenAiChat {
        checks.retain(|c| c.finding.rule.id != openai::RESPONSES_ONEOF.id);
    }
    let mut refused = vec![false; tools.len()];
    for c in &checks {
        if c.finding.severity == Severity::Error {
            // Over a list limit, the tool where it was passed and every
            // later one are the surplus (sent without them, the rest fits).
            let end = if super::is_list_limit(c.finding.rule) {
                tools.len()
            } else {
                c.tool + 1
            };
            for r in refused.iter_mut().take(end).skip(c.tool) {
                *r = true;
            }
        }
    }
    let mut counts = Counts::default();
    let mut entries = Vec::new();
    for (i, tool) in tools.iter().enumerate() {
        if refused[i] {
            counts.refused += 1;
            continue;
        }
        let (entry, rewritten) = shape(tool, target, strict);
        counts.exported += 1;
        counts.rewritten += usize::from(rewritten);
        entries.push(entry);
    }
    let fragment = (counts.refused == 0 || skip_incompatible).then(|| match target {
        Target::Gemini => json!({"tools": [{"functionDeclarations": entries}]}),
        _ => json!({"tools": entries}),
    });
    let mut diagnostics: Vec<Diagnostic> = checks
        .into_iter()
        .map(|c| {
            let source = tools
                .get(c.tool)
                .and_then(|t| t.origin.source.clone())
                .unwrap_or_else(|| Arc::new(Source::new("<code>", "")));
            c.finding.locate_shared(&source)
        })
        .collect();
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    Ok(Export {
        fragment,
        diagnostics,
        counts,
        refused: (0..tools.len()).filter(|&i| refused[i]).collect(),
    })
}

/// Under `--strict`, a free-form map the rewrite closes is no refusal but a
/// warning naming the property: the model may no longer send its keys.
fn closes_map(mut c: Check, tools: &[&Tool]) -> Check {
    if c.finding.rule.id != openai_strict::FREE_FORM.id || c.fix != Fix::Strict {
        return c;
    }
    let property = c
        .finding
        .pointer
        .rsplit_once('/')
        .map(|(_, last)| last.replace("~1", "/").replace("~0", "~"))
        .unwrap_or_default();
    let tool = tools.get(c.tool).map_or("", |t| t.name.as_str());
    c.finding = Finding {
        rule: &openai_strict::CLOSES_MAP,
        severity: openai_strict::CLOSES_MAP.severity,
        message: format!(
            "`--strict` closes the free-form map `{property}` of `{tool}` (`additionalProperties: false`, no properties): the model may now send only `{{}}` for it, where it could send any keys before"
        ),
        help: Some(format!(
            "list the keys `{property}` takes as `properties` to keep them, or export `{tool}` without --strict"
        )),
        ..c.finding
    };
    c.fix = Fix::None;
    c
}

/// One tool in `target`'s shape, and whether its schema was changed.
fn shape(tool: &Tool, target: Target, strict: bool) -> (Value, bool) {
    let mut entry = Map::new();
    let schema = &tool.parameters;
    let (schema_out, rewritten) = match target {
        Target::OpenAiChat | Target::OpenAiResponses if strict => {
            let s = strict::rewrite(schema);
            let changed = &s != schema;
            (s, changed)
        }
        Target::Gemini => {
            let s = gemini_schema(schema);
            let changed = lowercase_types(&s) != *schema;
            (s, changed)
        }
        _ => (schema.clone(), false),
    };
    let description = tool.description.clone().map(Value::String);
    match target {
        Target::OpenAiChat | Target::Ollama => {
            let mut function = Map::new();
            function.insert("name".into(), tool.name.clone().into());
            if let Some(d) = description {
                function.insert("description".into(), d);
            }
            function.insert("parameters".into(), schema_out);
            if target == Target::OpenAiChat {
                function.insert("strict".into(), strict.into());
            }
            entry.insert("type".into(), "function".into());
            entry.insert("function".into(), Value::Object(function));
        }
        Target::OpenAiResponses => {
            entry.insert("type".into(), "function".into());
            entry.insert("name".into(), tool.name.clone().into());
            if let Some(d) = description {
                entry.insert("description".into(), d);
            }
            entry.insert("parameters".into(), schema_out);
            entry.insert("strict".into(), strict.into());
        }
        Target::Anthropic => {
            entry.insert("name".into(), tool.name.clone().into());
            if let Some(d) = description {
                entry.insert("description".into(), d);
            }
            entry.insert("input_schema".into(), schema_out);
            if strict {
                entry.insert("strict".into(), true.into());
            }
        }
        Target::Gemini => {
            entry.insert("name".into(), tool.name.clone().into());
            if let Some(d) = description {
                entry.insert("description".into(), d);
            }
            let has_parameters = schema_out
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty());
            // A function without arguments omits `parameters` (§7).
            if has_parameters {
                entry.insert("parameters".into(), schema_out);
            }
        }
        Target::Mcp => {
            entry.insert("name".into(), tool.name.clone().into());
            if let Some(d) = description {
                entry.insert("description".into(), d);
            }
            entry.insert("inputSchema".into(), schema_out);
        }
    }
    (Value::Object(entry), rewritten)
}

/// A JSON Schema in Gemini's `Schema` spelling: upper-case type names,
/// `[T, "null"]` as `T` plus `nullable: true`, `$schema` dropped.
///
/// ```
/// use serde_json::json;
/// use toolsmith_manifest::provider::export::gemini_schema;
/// assert_eq!(
///     gemini_schema(&json!({"$schema": "x", "type": "object", "properties": {"n": {"type": ["integer", "null"]}}})),
///     json!({"type": "OBJECT", "properties": {"n": {"type": "INTEGER", "nullable": true}}}));
/// ```
pub fn gemini_schema(schema: &Value) -> Value {
    gemini_node(schema, 0)
}

fn gemini_node(schema: &Value, depth: usize) -> Value {
    let Some(members) = schema.as_object() else {
        return schema.clone();
    };
    if depth >= super::walk::MAX_DEPTH {
        return schema.clone();
    }
    let mut out = Map::with_capacity(members.len());
    for (key, value) in members {
        if gemini::DROPPED_BY_EXPORT.contains(&key.as_str()) {
            continue;
        }
        match (key.as_str(), value) {
            ("type", Value::String(t)) => {
                out.insert(key.clone(), t.to_uppercase().into());
            }
            ("type", Value::Array(ts)) => match gemini::nullable_type(ts) {
                Some((t, nullable)) => {
                    out.insert(key.clone(), t.to_uppercase().into());
                    if nullable {
                        out.insert("nullable".into(), true.into());
                    }
                }
                None => {
                    out.insert(key.clone(), value.clone());
                }
            },
            ("properties", Value::Object(props)) => {
                let props = props
                    .iter()
                    .map(|(k, v)| (k.clone(), gemini_node(v, depth + 1)))
                    .collect();
                out.insert(key.clone(), Value::Object(props));
            }
            ("items", Value::Object(_)) => {
                out.insert(key.clone(), gemini_node(value, depth + 1));
            }
            ("anyOf", Value::Array(alts)) => {
                let alts = alts.iter().map(|a| gemini_node(a, depth + 1)).collect();
                out.insert(key.clone(), Value::Array(alts));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    Value::Object(out)
}

/// Undoes the upper-casing of type names (to tell spelling from rewriting).
fn lowercase_types(schema: &Value) -> Value {
    match schema {
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| {
                    let v = match (k.as_str(), v) {
                        ("type", Value::String(t)) => Value::String(t.to_lowercase()),
                        ("enum" | "default" | "example" | "required", v) => v.clone(),
                        _ => lowercase_types(v),
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(lowercase_types).collect()),
        other => other.clone(),
    }
}

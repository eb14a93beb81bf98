//! Provider compatibility: will OpenAI, Anthropic, Gemini, Ollama or an MCP
//! host accept a manifest's tools as toolsmith exports them?
//!
//! The rules (`provider/…`) run on every tool of every dialect, only for the
//! providers asked for (`toolsmith lint --provider …`, [`Options::providers`](crate::Options)).
//! One file per provider: [`openai`] (both APIs, not strict), [`openai_strict`]
//! (structured outputs), [`anthropic`] (with its strict-tool limits),
//! [`gemini`], [`ollama`], [`mcp`]. [`walk`] visits the subschemas of a
//! schema, [`strict`] rewrites a schema into OpenAI's strict form and
//! [`export`] prints a tool list as a provider's request fragment.
//!
//! The formats, limits and refusal texts come from
//! `../shared/reference/provider-formats.md` (checked 2026-11-24); the README's
//! "Provider compatibility" section lists every rule with its source and date.

pub mod anthropic;
pub mod export;
pub mod gemini;
pub mod mcp;
pub mod ollama;
pub mod openai;
pub mod openai_strict;
pub mod strict;
pub mod walk;

use crate::diagnostic::Finding;
use crate::document::Document;
use crate::model::{Manifest, Tool};
use crate::rules::Rule;
use crate::source::Span;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// A provider whose acceptance rules `toolsmith lint --provider` checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Provider {
    /// OpenAI Chat Completions and Responses, `strict: false`.
    OpenAi,
    /// OpenAI with `strict: true` (structured outputs).
    OpenAiStrict,
    /// Anthropic Messages API.
    Anthropic,
    /// Anthropic with `strict: true` tools (per-request grammar limits).
    AnthropicStrict,
    /// Gemini function declarations (`parameters`, an OpenAPI 3.0 subset).
    Gemini,
    /// Ollama `/api/chat` (drops keywords silently).
    Ollama,
    /// An MCP host (`tools/list`).
    Mcp,
}

impl Provider {
    /// Every provider, in the order `--provider` lists them.
    pub const ALL: [Provider; 7] = [
        Provider::OpenAi,
        Provider::OpenAiStrict,
        Provider::Anthropic,
        Provider::AnthropicStrict,
        Provider::Gemini,
        Provider::Ollama,
        Provider::Mcp,
    ];

    /// The name on the command line (`openai-strict`).
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAi => "openai",
            Provider::OpenAiStrict => "openai-strict",
            Provider::Anthropic => "anthropic",
            Provider::AnthropicStrict => "anthropic-strict",
            Provider::Gemini => "gemini",
            Provider::Ollama => "ollama",
            Provider::Mcp => "mcp",
        }
    }

    /// The name in messages (`OpenAI strict mode`).
    pub fn title(self) -> &'static str {
        match self {
            Provider::OpenAi => "OpenAI",
            Provider::OpenAiStrict => "OpenAI strict mode",
            Provider::Anthropic => "Anthropic",
            Provider::AnthropicStrict => "Anthropic strict tools",
            Provider::Gemini => "Gemini",
            Provider::Ollama => "Ollama",
            Provider::Mcp => "MCP",
        }
    }

    /// The names of every provider, comma-separated (for usage errors).
    pub fn names() -> String {
        Provider::ALL.map(Provider::name).join(", ")
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A provider name that is not one of [`Provider::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown provider `{0}`; valid providers: {names}", names = Provider::names())]
pub struct UnknownProvider(pub String);

impl FromStr for Provider {
    type Err = UnknownProvider;

    /// Parses a name of [`Provider::name`].
    ///
    /// ```
    /// use toolsmith_manifest::provider::Provider;
    /// assert_eq!("openai-strict".parse(), Ok(Provider::OpenAiStrict));
    /// let err = "claude".parse::<Provider>().unwrap_err();
    /// assert!(err.to_string().starts_with("unknown provider `claude`; valid providers: openai, openai-strict,"));
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Provider::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| UnknownProvider(s.to_string()))
    }
}

/// Which export repairs a finding, so that `toolsmith export` leaves out
/// only the tools it cannot repair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fix {
    /// Nothing: the tool is refused as toolsmith exports it.
    None,
    /// The `--strict` rewrite (provider-formats.md §4) repairs it.
    Strict,
    /// Every export to the provider repairs it (a form the exporter converts).
    Export,
}

/// A finding of a provider rule about one tool of a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// The finding, positioned in the tool's file.
    pub finding: Finding,
    /// The index of the tool in the list that was checked.
    pub tool: usize,
    /// What repairs it.
    pub fix: Fix,
}

/// True for the rules of limits counted over a whole tool list (one
/// request): their finding sits at the tool where the count passed the
/// limit, and that tool and every later one are the surplus.
pub fn is_list_limit(rule: &Rule) -> bool {
    [
        &openai_strict::LIMIT_PROPERTIES,
        &openai_strict::LIMIT_ENUM,
        &openai_strict::LIMIT_CHARACTERS,
        &anthropic::STRICT_TOOLS,
        &anthropic::STRICT_OPTIONAL,
        &anthropic::STRICT_UNION,
    ]
    .iter()
    .any(|r| r.id == rule.id)
}

/// Checks the tools of one file (one request) against `provider`.
///
/// ```
/// use toolsmith_manifest::model::{Execution, DescribeExecution, Tool};
/// use toolsmith_manifest::provider::{check, Provider};
/// let tool = Tool {
///     name: "files.read".into(),
///     description: None,
///     parameters: serde_json::json!({"type": "object", "properties": {}}),
///     execution: Execution::Describe(DescribeExecution { program: "x".into() }),
///     origin: Default::default(),
/// };
/// let checks = check(Provider::OpenAi, &[&tool]);
/// assert_eq!(checks[0].finding.rule.id, "provider/openai-name");
/// assert!(check(Provider::Mcp, &[&tool]).is_empty());
/// ```
pub fn check(provider: Provider, tools: &[&Tool]) -> Vec<Check> {
    match provider {
        Provider::OpenAi => openai::check(tools, false),
        Provider::OpenAiStrict => {
            let mut out = openai::check(tools, true);
            out.extend(openai_strict::check(tools));
            out
        }
        Provider::Anthropic => anthropic::check(tools, false),
        Provider::AnthropicStrict => anthropic::check(tools, true),
        Provider::Gemini => gemini::check(tools),
        Provider::Ollama => ollama::check(tools),
        Provider::Mcp => mcp::check(tools),
    }
}

/// Runs the rules of `providers` on the tools of `manifests` and adds the
/// findings to the documents the tools were read from. Limits counted over a
/// tool list are counted per file.
pub fn check_documents(providers: &[Provider], manifests: &[Manifest], docs: &mut [Document]) {
    if providers.is_empty() {
        return;
    }
    for doc in docs.iter_mut() {
        let tools: Vec<&Tool> = manifests
            .iter()
            .flat_map(|m| &m.tools)
            .filter(|t| {
                t.origin
                    .source
                    .as_ref()
                    .is_some_and(|s| Arc::ptr_eq(s, &doc.source))
            })
            .collect();
        if tools.is_empty() {
            continue;
        }
        for &provider in providers {
            doc.findings
                .extend(check(provider, &tools).into_iter().map(|c| c.finding));
        }
    }
}

/// The span and document pointer of `pointer` below `tool`'s schema: the
/// nearest value that exists, else the tool's name, else its entry.
pub(crate) fn at(tool: &Tool, pointer: &str) -> (Span, String) {
    let mut p = pointer;
    loop {
        if let Some(found) = tool.origin.schema_at(p) {
            return found;
        }
        match p.rsplit_once('/') {
            Some((parent, _)) => p = parent,
            None => break,
        }
    }
    name_at(tool)
}

/// The span and pointer of `tool`'s name (else its entry).
pub(crate) fn name_at(tool: &Tool) -> (Span, String) {
    match &tool.origin.name {
        Some(node) => (node.span, node.pointer()),
        None => (tool.origin.span, String::new()),
    }
}

/// A finding of `rule` about `tool` at `pointer` below its schema.
pub(crate) fn finding(
    rule: &'static Rule,
    tool: &Tool,
    pointer: &str,
    message: impl Into<String>,
) -> Finding {
    let (span, pointer) = at(tool, pointer);
    Finding::new(rule, span, pointer, message)
}

/// A finding of `rule` at `tool`'s name.
pub(crate) fn name_finding(
    rule: &'static Rule,
    tool: &Tool,
    message: impl Into<String>,
) -> Finding {
    let (span, pointer) = name_at(tool);
    Finding::new(rule, span, pointer, message)
}

/// A short JSON rendering of a value for messages.
pub(crate) fn show(value: &serde_json::Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 40 {
        let cut: String = text.chars().take(37).collect();
        format!("{cut}…")
    } else {
        text
    }
}

/// `n` with thousands separators (`5,001`).
pub(crate) fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The pointer of the member `name` of the map at `pointer`.
pub(crate) fn walk_pointer(pointer: &str, name: &str) -> String {
    crate::tree::child_pointer(pointer, name)
}

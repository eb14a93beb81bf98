//! The request formats of the model providers: what a generated module's
//! `definitions_for(Provider::…)` returns its tool list in.
//!
//! One [`Provider`] per output of `toolsmith export --to TARGET [--strict]`
//! (provider-formats.md §1–§8): the JSON that `definitions_for` returns is
//! exactly what that command prints for the same manifest. The fragments are
//! computed when the bindings are generated (by the manifest crate's
//! exporter, which the lean runtime does not link) and embedded in the
//! generated module.
//!
//! A tool that a provider refuses (an error finding of its `provider/…`
//! rules that the export cannot repair, or the surplus past a limit counted
//! over the tool list) is left out of that provider's fragment, as
//! `toolsmith export --skip-incompatible` leaves it out; the generated
//! `refused_tools(provider)` names every tool left out, and
//! `tools!("x.json", providers = [gemini])` turns such a refusal into a
//! compile error instead.

use serde_json::Value;
use std::fmt;
use std::sync::OnceLock;

/// A provider's request format for tool definitions: one variant per
/// `toolsmith export --to TARGET [--strict]`.
///
/// ```
/// use toolsmith::Provider;
/// assert_eq!(Provider::OpenAiChatStrict.target(), "openai-chat");
/// assert!(Provider::OpenAiChatStrict.is_strict());
/// assert_eq!(Provider::OpenAiChatStrict.rules(), "openai-strict");
/// assert_eq!(Provider::OpenAiChatStrict.to_string(), "openai-chat-strict");
/// assert_eq!(Provider::ALL.len(), 9);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Provider {
    /// OpenAI Chat Completions, `strict: false`:
    /// `{"tools": [{"type": "function", "function": {…}}]}`.
    OpenAiChat,
    /// OpenAI Chat Completions with `strict: true`: every schema rewritten
    /// into the strict form (every object closed, every property required,
    /// optional ones nullable; the model then sends `null` for an argument it
    /// leaves out, which `ToolCall::parse` reads as absent).
    OpenAiChatStrict,
    /// OpenAI Responses, `strict: false`: `{"tools": [{"type": "function", "name": …}]}` (flat).
    OpenAiResponses,
    /// OpenAI Responses with `strict: true` (the strict rewrite, as
    /// [`Provider::OpenAiChatStrict`]).
    OpenAiResponsesStrict,
    /// Anthropic Messages: `{"tools": [{"name", "description", "input_schema"}]}`.
    Anthropic,
    /// Anthropic Messages with `strict: true` tools (within Anthropic's
    /// per-request limits; the schemas are not rewritten).
    AnthropicStrict,
    /// Gemini: `{"tools": [{"functionDeclarations": […]}]}` with Gemini's
    /// `Schema` spelling (upper-case types, `nullable`).
    Gemini,
    /// Ollama `/api/chat` (the Chat Completions shape without `strict`).
    Ollama,
    /// An MCP `tools/list` result: `{"tools": [{"name", "description", "inputSchema"}]}`.
    Mcp,
}

impl Provider {
    /// Every format, in the order of `toolsmith export --to`'s targets.
    pub const ALL: [Provider; 9] = [
        Provider::OpenAiChat,
        Provider::OpenAiChatStrict,
        Provider::OpenAiResponses,
        Provider::OpenAiResponsesStrict,
        Provider::Anthropic,
        Provider::AnthropicStrict,
        Provider::Gemini,
        Provider::Ollama,
        Provider::Mcp,
    ];

    /// The `--to` target of `toolsmith export` (`openai-chat`).
    pub fn target(self) -> &'static str {
        match self {
            Provider::OpenAiChat | Provider::OpenAiChatStrict => "openai-chat",
            Provider::OpenAiResponses | Provider::OpenAiResponsesStrict => "openai-responses",
            Provider::Anthropic | Provider::AnthropicStrict => "anthropic",
            Provider::Gemini => "gemini",
            Provider::Ollama => "ollama",
            Provider::Mcp => "mcp",
        }
    }

    /// Whether the format is the provider's strict mode (`--strict`).
    pub fn is_strict(self) -> bool {
        matches!(
            self,
            Provider::OpenAiChatStrict
                | Provider::OpenAiResponsesStrict
                | Provider::AnthropicStrict
        )
    }

    /// The rule set that decides which tools the format refuses: the name
    /// `toolsmith lint --provider` takes (`openai-strict`), which
    /// `tools!(…, providers = [openai_strict])` takes in snake case.
    pub fn rules(self) -> &'static str {
        match self {
            Provider::OpenAiChat | Provider::OpenAiResponses => "openai",
            Provider::OpenAiChatStrict | Provider::OpenAiResponsesStrict => "openai-strict",
            Provider::Anthropic => "anthropic",
            Provider::AnthropicStrict => "anthropic-strict",
            Provider::Gemini => "gemini",
            Provider::Ollama => "ollama",
            Provider::Mcp => "mcp",
        }
    }

    /// The format's name: the target, with `-strict` for a strict mode
    /// (`openai-chat-strict`). Generated tables are keyed by it.
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAiChat => "openai-chat",
            Provider::OpenAiChatStrict => "openai-chat-strict",
            Provider::OpenAiResponses => "openai-responses",
            Provider::OpenAiResponsesStrict => "openai-responses-strict",
            Provider::Anthropic => "anthropic",
            Provider::AnthropicStrict => "anthropic-strict",
            Provider::Gemini => "gemini",
            Provider::Ollama => "ollama",
            Provider::Mcp => "mcp",
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One entry of a generated module's provider table: the format's
/// [`Provider::name`], its request fragment as JSON text, and the tools it
/// leaves out.
pub type ProviderEntry = (&'static str, &'static str, &'static [&'static str]);

/// The provider fragments of one generated module (`definitions_for`,
/// `refused_tools`), parsed on first use. Not a stable API: generated code
/// is its only user.
#[derive(Debug)]
pub struct ProviderDefinitions {
    entries: &'static [ProviderEntry],
    parsed: OnceLock<Vec<Value>>,
}

impl ProviderDefinitions {
    /// The table the generator wrote.
    pub const fn new(entries: &'static [ProviderEntry]) -> Self {
        ProviderDefinitions {
            entries,
            parsed: OnceLock::new(),
        }
    }

    fn position(&self, provider: Provider) -> Option<usize> {
        self.entries
            .iter()
            .position(|(name, _, _)| *name == provider.name())
    }

    /// `provider`'s request fragment; `null` when the table has no entry for
    /// it (bindings written by a `toolsmith gen` older than the format:
    /// regenerate them).
    pub fn definitions(&self, provider: Provider) -> Value {
        let parsed = self.parsed.get_or_init(|| {
            self.entries
                .iter()
                .map(|(_, text, _)| serde_json::from_str(text).unwrap_or(Value::Null))
                .collect()
        });
        self.position(provider)
            .and_then(|i| parsed.get(i))
            .cloned()
            .unwrap_or(Value::Null)
    }

    /// The tools that `provider`'s fragment leaves out because the provider
    /// refuses them (empty without an entry).
    pub fn refused(&self, provider: Provider) -> &'static [&'static str] {
        self.position(provider).map_or(&[], |i| self.entries[i].2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static TABLE: ProviderDefinitions = ProviderDefinitions::new(&[
        ("mcp", r#"{"tools":[{"name":"a","inputSchema":{}}]}"#, &[]),
        (
            "gemini",
            r#"{"tools":[{"functionDeclarations":[]}]}"#,
            &["a"],
        ),
        ("ollama", "{", &[]),
    ]);

    #[test]
    fn entries_by_name() {
        assert_eq!(TABLE.definitions(Provider::Mcp)["tools"][0]["name"], "a");
        assert_eq!(TABLE.refused(Provider::Gemini), ["a"]);
        assert!(TABLE.refused(Provider::Mcp).is_empty());
        assert_eq!(TABLE.definitions(Provider::Ollama), Value::Null);
        assert_eq!(TABLE.definitions(Provider::Anthropic), Value::Null);
        assert!(TABLE.refused(Provider::Anthropic).is_empty());
    }

    #[test]
    fn names_are_distinct_and_match_target_and_strictness() {
        for p in Provider::ALL {
            let expected = if p.is_strict() {
                format!("{}-strict", p.target())
            } else {
                p.target().to_owned()
            };
            assert_eq!(p.name(), expected);
            assert_eq!(
                Provider::ALL
                    .iter()
                    .filter(|q| q.name() == p.name())
                    .count(),
                1
            );
        }
    }
}

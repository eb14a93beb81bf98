//! OpenAI (Chat Completions and Responses) without strict mode: the tool
//! name's pattern, the description length a relay refused, and `oneOf`,
//! which the Responses API refused even with `strict: false`
//! (provider-formats.md §2–§3).

use super::walk::walk;
use super::{Check, Fix, count, finding, name_finding};
use crate::model::Tool;
use crate::rules::Rule;

/// `provider/openai-name` (error).
pub static NAME: Rule = Rule::error(
    "provider/openai-name",
    "provider",
    "OpenAI refuses tool names outside `^[a-zA-Z0-9_-]+$` or longer than 64 characters (400 `invalid_value`)",
);

/// `provider/openai-description-length` (warning).
pub static DESCRIPTION_LENGTH: Rule = Rule::warning(
    "provider/openai-description-length",
    "provider",
    "a tool description over 1,024 characters was refused by an OpenAI-compatible relay (not confirmed for api.openai.com)",
);

/// `provider/openai-responses-oneof` (warning).
pub static RESPONSES_ONEOF: Rule = Rule::warning(
    "provider/openai-responses-oneof",
    "provider",
    "the Responses API refused a nested `oneOf` even with `strict: false` (`'oneOf' is not permitted`)",
);

/// The rules of this file.
pub static RULES: &[&Rule] = &[&NAME, &DESCRIPTION_LENGTH, &RESPONSES_ONEOF];

/// OpenAI's longest tool name.
pub const MAX_NAME: usize = 64;
/// The description length the relay refused above.
pub const MAX_DESCRIPTION: usize = 1024;

/// True for a name OpenAI accepts: `^[a-zA-Z0-9_-]{1,64}$`.
pub fn name_ok(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Name, description and (without strict mode) `oneOf` checks.
pub fn check(tools: &[&Tool], strict: bool) -> Vec<Check> {
    let title = if strict {
        "OpenAI strict mode"
    } else {
        "OpenAI"
    };
    let mut out = Vec::new();
    for (i, tool) in tools.iter().enumerate() {
        let push = |out: &mut Vec<Check>, finding| {
            out.push(Check {
                finding,
                tool: i,
                fix: Fix::None,
            })
        };
        if !name_ok(&tool.name) {
            let why = if tool.name.chars().count() > MAX_NAME {
                format!("is {} characters long", tool.name.chars().count())
            } else {
                "has characters outside `a-z A-Z 0-9 _ -`".to_string()
            };
            push(
                &mut out,
                name_finding(
                    &NAME,
                    tool,
                    format!(
                        "{title} refuses the tool name `{}`: it {why}; OpenAI requires `^[a-zA-Z0-9_-]+$`, at most {MAX_NAME} characters",
                        tool.name
                    ),
                )
                .with_help(suggest_name(&tool.name)),
            );
        }
        if let Some(description) = &tool.description {
            let n = description.chars().count();
            if n > MAX_DESCRIPTION {
                push(
                    &mut out,
                    name_finding(
                        &DESCRIPTION_LENGTH,
                        tool,
                        format!(
                            "the description of `{}` is {} characters; an OpenAI-compatible relay refused descriptions over {}",
                            tool.name,
                            count(n),
                            count(MAX_DESCRIPTION)
                        ),
                    )
                    .with_help("shorten the description, or move details into the parameters' descriptions"),
                );
            }
        }
        if !strict {
            walk(&tool.parameters, &mut |v| {
                if v.get("oneOf").is_some() {
                    push(
                        &mut out,
                        finding(
                            &RESPONSES_ONEOF,
                            tool,
                            &v.key_pointer("oneOf"),
                            format!(
                                "OpenAI's Responses API refused `oneOf` in `{}` even with `strict: false`",
                                tool.name
                            ),
                        )
                        .with_help("write `anyOf` instead (the alternatives must then not overlap, or the model may match several)"),
                    );
                }
            });
        }
    }
    out
}

/// Advice for a name outside `[A-Za-z0-9_-]{1,64}`: the name with every other
/// character replaced by `_`, cut to 64.
pub(crate) fn suggest_name(name: &str) -> String {
    let fixed: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(MAX_NAME)
        .collect();
    if fixed.is_empty() {
        "give the tool a name of letters, digits, `_` and `-`".to_string()
    } else {
        format!("rename it, e.g. `{fixed}`")
    }
}

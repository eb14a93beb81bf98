//! Tool names: goagent requires a non-empty `name` (`agentcli/name-required`)
//! that no earlier tool has (`agentcli/duplicate-name`, case-sensitive), and
//! accepts one that is only whitespace (`agentcli/name-whitespace`).
//!
//! The checks run in `Checker::tool` (`mod.rs`), where the name is read.

use crate::rules::Rule;

/// `agentcli/name-required` (error): every tool needs a non-empty `name`.
pub static NAME_REQUIRED: Rule = Rule::error(
    "agentcli/name-required",
    "agentcli",
    "every tool needs a non-empty `name`",
);
/// `agentcli/duplicate-name` (error): tool names must be unique (case-sensitive).
pub static DUPLICATE_NAME: Rule = Rule::error(
    "agentcli/duplicate-name",
    "agentcli",
    "tool names must be unique (case-sensitive)",
);
/// `agentcli/name-whitespace` (warning): a tool name is only whitespace (goagent accepts it).
pub static NAME_WHITESPACE: Rule = Rule::warning(
    "agentcli/name-whitespace",
    "agentcli",
    "a tool name is only whitespace (goagent accepts it)",
);

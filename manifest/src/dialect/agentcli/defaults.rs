//! Values goagent silently replaces by a default: a missing or `null`
//! `schema` (toolsmith exports an object schema without properties,
//! `agentcli/schema-missing`) and a negative `timeoutSec` (Go treats any value
//! ≤ 0 as "use the default", `agentcli/timeout-negative`). A present `schema`
//! must be a valid draft 2020-12 object schema (the `schema/…` rules).
//!
//! The checks run in `Checker::tool` (`mod.rs`), where the schema becomes the
//! model's parameters and the timeout the model's `timeout_sec`.

use crate::rules::Rule;

/// `agentcli/schema-missing` (warning): a tool has no `schema` (or `null`); toolsmith exports `{"type":"object","properties":{}}`.
pub static SCHEMA_MISSING: Rule = Rule::warning(
    "agentcli/schema-missing",
    "agentcli",
    "a tool has no `schema` (or `null`); toolsmith exports `{\"type\":\"object\",\"properties\":{}}`",
);
/// `agentcli/timeout-negative` (warning): a negative `timeoutSec` silently means the default timeout.
pub static TIMEOUT_NEGATIVE: Rule = Rule::warning(
    "agentcli/timeout-negative",
    "agentcli",
    "a negative `timeoutSec` silently means the default timeout",
);

//! The rule registry: every rule of every front end and dialect in one table,
//! so that `toolsmith rules`, SARIF output and the macro share it.

use crate::rules::Rule;

/// Every rule, sorted by id.
///
/// ```
/// let rules = toolsmith_manifest::registry::all();
/// assert!(rules.iter().any(|r| r.id == "json/syntax"));
/// assert!(rules.windows(2).all(|w| w[0].id < w[1].id));
/// ```
pub fn all() -> Vec<&'static Rule> {
    let mut rules: Vec<&'static Rule> = [
        crate::input::RULES,
        crate::cap::RULES,
        crate::json::RULES,
        crate::frontmatter::RULES,
        crate::yaml::RULES,
        crate::schema::RULES,
        crate::dialect::RULES,
        crate::dialect::chai::RULES,
        crate::dialect::agentcli::RULES,
        crate::dialect::describe::RULES,
        crate::dialect::skill::RULES,
        crate::dialect::mcp::RULES,
        crate::provider::openai::RULES,
        crate::provider::openai_strict::RULES,
        crate::provider::anthropic::RULES,
        crate::provider::gemini::RULES,
        crate::provider::ollama::RULES,
        crate::provider::mcp::RULES,
    ]
    .concat();
    rules.sort_by_key(|r| r.id);
    rules
}

/// Looks a rule up by id.
pub fn find(id: &str) -> Option<&'static Rule> {
    all().into_iter().find(|r| r.id == id)
}

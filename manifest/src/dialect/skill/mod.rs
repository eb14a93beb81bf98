//! `SKILL.md`, `skill.md` and `*.skill.md` frontmatter.

use crate::document::Document;
use crate::lint::Options;
use crate::rules::Rule;
use serde_json::Value;

/// skill rules.
pub static RULES: &[&Rule] = &[];

/// A skill as the `skill!` macro needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Skill {
    /// `name`.
    pub name: String,
    /// `description`.
    pub description: String,
    /// `allowed-tools`, normalized to a token list.
    pub allowed_tools: Vec<String>,
    /// The markdown after the frontmatter.
    pub body: String,
    /// `metadata.params` (a JSON Schema), if any.
    pub params: Option<Value>,
    /// `metadata.returns` (a JSON Schema), if any.
    pub returns: Option<Value>,
}

/// Checks a skill file. `tools_in_dir` lists the tools declared by a
/// tools.json in the same directory (`None` when there is none).
pub fn check(
    doc: &mut Document,
    options: &Options,
    tools_in_dir: Option<&[String]>,
) -> Option<Skill> {
    let _ = (doc, options, tools_in_dir);
    None
}

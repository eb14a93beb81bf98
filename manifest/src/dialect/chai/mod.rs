//! chai `tools.json`: the legacy single-file object and the split layout.

use crate::document::Document;
use crate::lint::Options;
use crate::model::Manifest;
use crate::rules::Rule;

pub static SPLIT_FILE_MISSING: Rule = Rule::error(
    "chai/split-file-missing",
    "chai",
    "a file of chai's three-file layout (tools.json, allowlist.json, execution.json) is missing",
);

/// chai rules.
pub static RULES: &[&Rule] = &[&SPLIT_FILE_MISSING];

/// Checks a legacy single-file `tools.json` (root object).
pub fn check_legacy(doc: &mut Document, options: &Options) -> Option<Manifest> {
    let _ = (doc, options);
    None
}

/// Checks the split layout; `tools` has an array root.
pub fn check_split(
    tools: &mut Document,
    allowlist: Option<&mut Document>,
    execution: Option<&mut Document>,
    options: &Options,
) -> Option<Manifest> {
    let _ = (tools, allowlist, execution, options);
    None
}

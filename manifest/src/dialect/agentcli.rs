//! agentcli (goagent) `tools.json`.

use crate::document::Document;
use crate::lint::Options;
use crate::model::Manifest;
use crate::rules::Rule;

/// agentcli rules.
pub static RULES: &[&Rule] = &[];

/// Checks an agentcli manifest.
pub fn check(doc: &mut Document, options: &Options) -> Option<Manifest> {
    let _ = (doc, options);
    None
}

//! The legacy single-file `tools.json` (chai 14ef265): one root object with
//! `tools`, `allowlist` and `execution`, every struct `deny_unknown_fields`.

use super::execution::{self, Targets};
use super::fields::{self, first_char};
use super::skill::ChaiSkill;
use super::version::{self, Chosen};
use super::{Files, Version, allowlist, assemble, tools};
use crate::cap::Findings;
use crate::diagnostic::Finding;
use crate::document::Document;
use crate::model::{Dialect, Manifest};
use crate::tree::Node;

/// Checks a single-file `tools.json` as `chosen.version` and returns its
/// model (also with errors, as far as it goes); `None` when the root is not
/// an object.
pub fn check(doc: &mut Document, chosen: &Chosen, skill: Option<&ChaiSkill>) -> Option<Manifest> {
    let root = doc.root.as_ref()?;
    root.as_object()?;
    let version = chosen.version;
    let mut findings = Findings::new();
    if version == Version::V05 {
        findings.push(version::deprecated(root, doc.source.path(), chosen));
    }
    fields::check_object(root, fields::ROOT, version, "", &mut findings);
    for key in ["tools", "allowlist", "execution"] {
        if root.get(key).is_none() {
            findings.push(Finding::new(
                &fields::MISSING_FIELD,
                first_char(root),
                "",
                format!("missing required key: {key}"),
            ));
        }
    }
    let tool_items = root.get("tools").and_then(Node::as_array);
    let tools = tool_items.map(|items| tools::check(items, &mut findings));
    let allowlist = root
        .get("allowlist")
        .filter(|a| a.as_object().is_some())
        .map(|a| allowlist::check(a, &mut findings));
    let skill_dir = doc.path.parent().unwrap_or(&doc.path).to_path_buf();
    let specs = root.get("execution").and_then(Node::as_array).map(|items| {
        let targets = Targets {
            tools: tools.as_deref(),
            allowlist: allowlist.as_ref(),
            skill,
            text: doc.source.text(),
        };
        execution::check(items, version, targets, &skill_dir, &mut findings)
    });
    if let (Some(items), Some(tools), Some(specs)) = (tool_items, &tools, &specs) {
        execution::check_coverage(items, tools, specs, &mut findings);
    }
    version::annotate(&mut findings, chosen);
    doc.findings.append(findings);
    Some(assemble(
        Dialect::ChaiLegacy,
        Files {
            path: doc.path.clone(),
            inputs: vec![doc.path.clone()],
            tools: &doc.source,
            execution: Some(&doc.source),
        },
        &tools.unwrap_or_default(),
        &specs.unwrap_or_default(),
        &allowlist.unwrap_or_default(),
        skill,
    ))
}

//! chai v0.5's three-file layout: `tools.json` (array), `allowlist.json`
//! (object) and `execution.json` (array) in one directory. Findings go into
//! the file they concern; a missing file is reported in `tools.json`.

use super::execution::{self, Targets};
use super::fields::{self, first_char};
use super::skill::ChaiSkill;
use super::version::{self, Chosen};
use super::{Files, Version, allowlist, assemble, tools};
use crate::cap::Findings;
use crate::diagnostic::Finding;
use crate::document::Document;
use crate::model::{Dialect, Manifest};
use crate::rules::Rule;
use crate::tree::Node;

pub static SPLIT_FILE_MISSING: Rule = Rule::error(
    "chai/split-file-missing",
    "chai",
    "a file of chai's three-file layout (tools.json, allowlist.json, execution.json) is missing",
);

/// The root of a part file when it has the expected shape; a wrong root type
/// is reported with `chai skill validate`'s message.
fn part_root<'a>(
    doc: Option<&'a Document>,
    name: &str,
    object: bool,
    findings: &mut Findings,
) -> Option<&'a Node> {
    let root = doc?.root.as_ref()?;
    let ok = if object {
        root.as_object().is_some()
    } else {
        root.as_array().is_some()
    };
    if !ok {
        let expected = if object { "object" } else { "array" };
        findings.push(Finding::new(
            &fields::INVALID_TYPE,
            first_char(root),
            "",
            format!(
                "{name}: root must be a JSON {expected}, got {}",
                root.type_name()
            ),
        ));
        return None;
    }
    Some(root)
}

fn missing_file(root: &Node, name: &str) -> Finding {
    Finding::new(
        &SPLIT_FILE_MISSING,
        first_char(root),
        "",
        format!("tools.json is present (new format) but {name} is missing"),
    )
    .with_help(format!(
        "create {name} next to tools.json; without it chai loads no tools from this skill"
    ))
}

/// Checks the three files and returns the model (as far as it goes); `None`
/// when `tools.json` has no array root.
pub fn check(
    tools_doc: &mut Document,
    allowlist_doc: Option<&mut Document>,
    execution_doc: Option<&mut Document>,
    chosen: &Chosen,
    skill: Option<&ChaiSkill>,
) -> Option<Manifest> {
    let mut tool_findings = Findings::new();
    let mut allow_findings = Findings::new();
    let mut exec_findings = Findings::new();
    let root = part_root(Some(tools_doc), "tools.json", false, &mut tool_findings);
    let Some(root) = root else {
        version::annotate(&mut tool_findings, chosen);
        tools_doc.findings.append(tool_findings);
        return None;
    };
    if chosen.version == Version::Legacy {
        // chai 14ef265 reads a root array as the sequence form of its
        // struct, `[tools, allowlist, execution]`: an array of tool objects fails.
        let at = root.as_array().and_then(<[Node]>::first).unwrap_or(root);
        if at.as_object().is_some() {
            tool_findings.push(
                fields::invalid_type(at, "a sequence").with_help(format!(
                    "{}; chai 14ef265 reads only the single-file object (tools, allowlist, execution): drop --chai-version legacy to read the three-file layout",
                    chosen.explain()
                )),
            );
        }
        version::annotate(&mut tool_findings, chosen);
        tools_doc.findings.append(tool_findings);
        return None;
    }
    let tool_items = root.as_array().unwrap_or_default();
    fields::check_items(
        tool_items,
        fields::TOOL,
        Version::V05,
        "tools",
        &mut tool_findings,
    );
    let tools = tools::check(tool_items, &mut tool_findings);

    if allowlist_doc.is_none() {
        tool_findings.push(missing_file(root, "allowlist.json"));
    }
    if execution_doc.is_none() {
        tool_findings.push(missing_file(root, "execution.json"));
    }
    let allow_root = part_root(
        allowlist_doc.as_deref(),
        "allowlist.json",
        true,
        &mut allow_findings,
    );
    let allowlist = allow_root.map(|r| allowlist::check(r, &mut allow_findings));

    let exec_root = part_root(
        execution_doc.as_deref(),
        "execution.json",
        false,
        &mut exec_findings,
    );
    let skill_dir = tools_doc
        .path
        .parent()
        .unwrap_or(&tools_doc.path)
        .to_path_buf();
    let specs = exec_root.and_then(Node::as_array).map(|items| {
        fields::check_items(
            items,
            fields::EXECUTION,
            Version::V05,
            "execution",
            &mut exec_findings,
        );
        let targets = Targets {
            tools: Some(&tools),
            allowlist: allowlist.as_ref(),
            skill,
            text: execution_doc.as_deref().map_or("", |d| d.source.text()),
        };
        execution::check(items, Version::V05, targets, &skill_dir, &mut exec_findings)
    });
    if let Some(specs) = &specs {
        execution::check_coverage(tool_items, &tools, specs, &mut tool_findings);
    }

    let mut inputs = vec![tools_doc.path.clone()];
    inputs.extend(allowlist_doc.as_deref().map(|d| d.path.clone()));
    inputs.extend(execution_doc.as_deref().map(|d| d.path.clone()));
    let manifest = assemble(
        Dialect::ChaiSplit,
        Files {
            path: tools_doc.path.clone(),
            inputs,
            tools: &tools_doc.source,
            execution: execution_doc.as_deref().map(|d| &d.source),
        },
        &tools,
        &specs.unwrap_or_default(),
        &allowlist.unwrap_or_default(),
        skill,
    );
    for (findings, doc) in [
        (tool_findings, Some(tools_doc)),
        (allow_findings, allowlist_doc),
        (exec_findings, execution_doc),
    ] {
        let mut findings = findings;
        version::annotate(&mut findings, chosen);
        if let Some(doc) = doc {
            doc.findings.append(findings);
        }
    }
    Some(manifest)
}

//! How chai v0.5 chooses between the specs of one tool (fb29f89,
//! `crates/lib/src/tools/generic/mod.rs`: one spec is used as is, otherwise
//! the one whose `paramCondition` matches, else the single spec without
//! one) and the parameters a spec names outside its mappings:
//! `condition.binGroup` against the `SKILL.md` OR-groups, `paramCondition`s
//! that cannot tell two specs apart, and `paramCondition` /
//! `sideRead.pathParam` / `hintConditions[].whenArg` naming parameters the
//! tool does not declare.

use super::fields::show;
use super::skill::{Bins, ChaiSkill};
use super::tools::{Property, ToolInfo};
use crate::cap::Findings;
use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::source::Span;
use crate::suggest::closest;
use crate::tree::Node;
use std::collections::HashMap;

pub static REFERENCE_NOT_IN_PARAMETERS: Rule = Rule::error(
    "chai/reference-not-in-parameters",
    "chai",
    "`paramCondition`, `sideRead.pathParam` or `hintConditions[].whenArg` names a parameter the tool does not declare (a call can never give it)",
);
pub static BIN_GROUP_OUT_OF_RANGE: Rule = Rule::error(
    "chai/bin-group-out-of-range",
    "chai",
    "`condition.binGroup` is not the index of one of the `SKILL.md` `metadata.requires.bins` OR-groups (the spec is never kept)",
);
pub static CONDITION_IGNORED: Rule = Rule::warning(
    "chai/condition-ignored",
    "chai",
    "a spec has `condition` but the skill's `metadata.requires.bins` is not a list of OR-groups: chai ignores the condition and keeps the spec",
);
pub static AMBIGUOUS_SPECS: Rule = Rule::error(
    "chai/ambiguous-specs",
    "chai",
    "two specs of one tool have the same `paramCondition` (and `condition`): no call can tell them apart",
);

/// The `condition.binGroup` that decides whether a spec exists, when it
/// does decide: with OR-groups in `SKILL.md`, or when no `SKILL.md` was
/// found (then the groups are unknown and the condition is taken at its word).
pub fn bin_group(spec: &Node, skill: Option<&ChaiSkill>) -> Option<u64> {
    let group = spec
        .get("condition")
        .and_then(|c| c.get("binGroup"))
        .and_then(|g| g.to_value().as_u64())?;
    match skill.map(|s| &s.bins) {
        None | Some(Bins::Groups(_)) => Some(group),
        Some(_) => None,
    }
}

/// Checks `condition.binGroup` against the skill's OR-groups.
pub fn check_bin_group(
    spec: &Node,
    label: &str,
    skill: Option<&ChaiSkill>,
    findings: &mut Findings,
) {
    let (Some(skill), Some(condition)) = (skill, spec.member("condition")) else {
        return;
    };
    if condition.value.is_null() {
        return;
    }
    let group_node = condition.value.get("binGroup");
    match &skill.bins {
        Bins::Groups(groups) => {
            let Some((node, index)) = group_node.and_then(|n| Some((n, n.to_value().as_u64()?)))
            else {
                return;
            };
            if usize::try_from(index).is_ok_and(|i| i < groups.len()) {
                return;
            }
            let listed: Vec<String> = groups
                .iter()
                .enumerate()
                .map(|(i, g)| format!("{i}: [{}]", g.join(", ")))
                .collect();
            findings.push(
                Finding::new(
                    &BIN_GROUP_OUT_OF_RANGE,
                    node.span,
                    node.pointer(),
                    format!(
                        "{label}: condition.binGroup {index} is out of range: SKILL.md metadata.requires.bins has {} OR-group(s) ({}); chai never keeps this spec",
                        groups.len(),
                        listed.join("; ")
                    ),
                )
                .with_help(format!(
                    "use an index from 0 to {}, or add the OR-group to SKILL.md",
                    groups.len().saturating_sub(1)
                )),
            );
        }
        bins => {
            let what = match bins {
                Bins::Flat(_) => "a flat list (all required)",
                _ => "absent",
            };
            findings.push(
                Finding::new(
                    &CONDITION_IGNORED,
                    condition.key_span,
                    condition.value.pointer(),
                    format!(
                        "{label}: `condition` is ignored: SKILL.md metadata.requires.bins is {what}, so chai keeps this spec whatever binGroup says"
                    ),
                )
                .with_help("write bins as OR-groups (`bins: [[\"a\"], [\"b\"]]`), or remove `condition`"),
            );
        }
    }
}

/// Reports a parameter name the tool does not declare.
fn undeclared(
    span: Span,
    pointer: &str,
    name: &str,
    what: &str,
    tool: &ToolInfo,
    findings: &mut Findings,
) {
    if tool.property(name) != Property::Absent {
        return;
    }
    let f = Finding::new(
        &REFERENCE_NOT_IN_PARAMETERS,
        span,
        pointer,
        format!(
            "{what} names parameter {} which tool {} does not declare; a call can never give it",
            show(name),
            show(&tool.name)
        ),
    );
    findings.push(match closest(name, tool.property_names()) {
        Some(s) => f.with_help(format!("did you mean {}?", show(s))),
        None => f.with_help(format!(
            "declare it in tools[{}].parameters.properties, or name a declared parameter",
            tool.index
        )),
    });
}

/// Checks the parameter names of `paramCondition`, `sideRead.pathParam` and
/// `hintConditions[].whenArg` against the tool's schema.
pub fn check_references(
    spec: &Node,
    label: &str,
    tool: Option<&ToolInfo>,
    findings: &mut Findings,
) {
    let Some(tool) = tool else {
        return;
    };
    if let Some(pc) = spec.get("paramCondition") {
        for key in ["present", "absent"] {
            for node in pc.get(key).and_then(Node::as_array).unwrap_or_default() {
                if let Some(name) = node.as_str() {
                    let what = format!("{label}.paramCondition.{key}");
                    undeclared(node.span, &node.pointer(), name, &what, tool, findings);
                }
            }
        }
    }
    if let Some(node) = spec.get("sideRead").and_then(|s| s.get("pathParam"))
        && let Some(name) = node.as_str()
    {
        let what = format!("{label}.sideRead.pathParam");
        undeclared(node.span, &node.pointer(), name, &what, tool, findings);
    }
    let hints = spec
        .get("hintConditions")
        .and_then(Node::as_array)
        .unwrap_or_default();
    for (k, hint) in hints.iter().enumerate() {
        let members = hint
            .get("whenArg")
            .and_then(Node::as_object)
            .unwrap_or_default();
        for m in members {
            let what = format!("{label}.hintConditions[{k}].whenArg");
            undeclared(
                m.key_span,
                &m.value.pointer(),
                &m.key,
                &what,
                tool,
                findings,
            );
        }
    }
}

/// A spec's `paramCondition`, normalised (sorted `present`, sorted `absent`).
fn param_condition(spec: &Node) -> Option<(Vec<String>, Vec<String>)> {
    let pc = spec.get("paramCondition").filter(|p| !p.is_null())?;
    let names = |key: &str| {
        let mut v: Vec<String> = pc
            .get(key)
            .and_then(Node::as_array)
            .unwrap_or_default()
            .iter()
            .filter_map(|n| n.as_str().map(str::to_string))
            .collect();
        v.sort();
        v.dedup();
        v
    };
    Some((names("present"), names("absent")))
}

/// Reports specs of one tool whose `paramCondition` (and effective
/// `condition`) equal an earlier spec's: chai's selection cannot tell them
/// apart (several match, `multiple execution specs match`).
pub fn check_ambiguous(items: &[Node], skill: Option<&ChaiSkill>, findings: &mut Findings) {
    type Key = (String, Option<u64>, Vec<String>, Vec<String>);
    let mut first: HashMap<Key, usize> = HashMap::new();
    for (i, spec) in items.iter().enumerate() {
        let (Some(tool), Some((present, absent))) = (
            spec.get("tool").and_then(Node::as_str),
            param_condition(spec),
        ) else {
            continue;
        };
        let key = (tool.to_string(), bin_group(spec, skill), present, absent);
        match first.get(&key) {
            None => {
                first.insert(key, i);
            }
            Some(&earlier) => {
                let at = spec.member("paramCondition");
                let (span, pointer) = at.map_or((spec.span, spec.pointer()), |m| {
                    (m.key_span, m.value.pointer())
                });
                findings.push(
                    Finding::new(
                        &AMBIGUOUS_SPECS,
                        span,
                        pointer,
                        format!(
                            "execution[{i}]: paramCondition of tool {} is the same as execution[{earlier}]'s; a call that satisfies one satisfies both, and chai fails it with \"multiple execution specs match\"",
                            show(tool)
                        ),
                    )
                    .with_help("make the conditions exclusive (a parameter `present` in one and `absent` in the other), or merge the specs"),
                );
            }
        }
    }
}

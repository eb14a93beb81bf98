//! Execution specs (`execution[]`) and the cross-checks between tools,
//! execution specs and the allowlist, with `chai skill validate`'s messages.

use super::Version;
use super::allowlist::Allowlist;
use super::args::{self, Context, Mapped};
use super::fields::show;
use super::resolver;
use super::skill::ChaiSkill;
use super::tools::ToolInfo;
use super::{conditions, output};
use crate::cap::Findings;
use crate::diagnostic::Finding;
use crate::model::{ChaiExecution, ChaiVersion, ParamCondition, PostProcess};
use crate::rules::Rule;
use crate::tree::{Kind, Node};
use std::collections::{HashMap, HashSet};
use std::path::Path;

pub static MISSING_EXECUTION: Rule = Rule::error(
    "chai/missing-execution",
    "chai",
    "a tool has no execution spec (it is advertised, but every call fails with `unknown tool`)",
);
pub static UNKNOWN_TOOL: Rule = Rule::error(
    "chai/unknown-tool",
    "chai",
    "an execution spec names a tool that `tools` does not declare (it can never be called)",
);
pub static DUPLICATE_EXECUTION: Rule = Rule::error(
    "chai/duplicate-execution",
    "chai",
    "two execution specs run the same tool (chai keeps the last; v0.5 needs `paramCondition` to choose)",
);
pub static PARAM_NOT_MAPPED: Rule = Rule::warning(
    "chai/param-not-mapped",
    "chai",
    "a parameter of a tool's schema is used by none of its execution specs; chai silently ignores it",
);
pub static BINARY_WRAPPER_EMPTY: Rule = Rule::error(
    "chai/binary-wrapper-empty",
    "chai",
    "a v0.5 `binaryWrapper` is an empty array",
);

/// One execution spec as checked.
#[derive(Debug, Clone)]
pub struct SpecInfo {
    /// `tool`, when it is a string.
    pub tool: Option<String>,
    /// The spec has a `paramCondition` or `condition` (v0.5): it is not the tool's default spec.
    pub conditional: bool,
    /// The spec for the model; `None` when unusable or not expressible.
    pub execution: Option<ChaiExecution>,
    /// The parameter names the spec reads (mappings, `$name` arguments,
    /// conditions, `sideRead.pathParam`, `whenArg`).
    pub reads: Vec<String>,
}

/// Collects the parameter names a spec reads anywhere below `node`.
fn reads(node: &Node, key: Option<&str>, out: &mut Vec<String>) {
    match &node.kind {
        Kind::String(s) => {
            if matches!(key, Some("param" | "pathParam" | "present" | "absent")) {
                out.push(s.clone());
            } else if let Some(name) = s.strip_prefix('$') {
                out.push(name.to_string());
            }
        }
        Kind::Array(items) => items.iter().for_each(|i| reads(i, key, out)),
        Kind::Object(members) => {
            for m in members {
                if key == Some("whenArg") {
                    out.push(m.key.clone());
                }
                reads(&m.value, Some(&m.key), out);
            }
        }
        _ => {}
    }
}

/// The tools and allowlist the execution specs are checked against; `None`
/// when that part is missing or unusable (its problem is reported elsewhere,
/// and the cross-checks against it are skipped rather than repeated).
#[derive(Debug, Clone, Copy)]
pub struct Targets<'a> {
    /// Declared tools.
    pub tools: Option<&'a [ToolInfo]>,
    /// The allowlist.
    pub allowlist: Option<&'a Allowlist>,
    /// The skill's `SKILL.md`, when there is one.
    pub skill: Option<&'a ChaiSkill>,
    /// The text of the file holding the execution specs (positions inside strings).
    pub text: &'a str,
}

/// Checks the execution specs (keys and types are checked by `fields`).
pub fn check(
    items: &[Node],
    version: Version,
    targets: Targets<'_>,
    skill_dir: &Path,
    findings: &mut Findings,
) -> Vec<SpecInfo> {
    let mut specs: Vec<SpecInfo> = Vec::new();
    // First spec without `paramCondition` of each tool (and OR-group).
    let mut first_of: HashMap<(String, Option<u64>), usize> = HashMap::new();
    let declared = targets.tools.map(by_name);
    for (i, item) in items.iter().enumerate() {
        let label = format!("execution[{i}]");
        if item.as_object().is_none() {
            specs.push(SpecInfo {
                tool: None,
                conditional: false,
                execution: None,
                reads: Vec::new(),
            });
            continue;
        }
        let tool_node = item.get("tool").filter(|t| t.as_str().is_some());
        let tool_name = tool_node.and_then(Node::as_str);
        let tool = tool_name.and_then(|n| declared.as_ref()?.get(n).copied());
        if let (Some(node), Some(name), Some(tools), None) =
            (tool_node, tool_name, targets.tools, tool)
        {
            findings.push(unknown_tool(node, name, &label, tools));
        }
        // v0.5 chooses between specs of one tool by `paramCondition` (per
        // call) or `condition` (per installed binaries); in a legacy file
        // these keys are already unknown-field errors.
        let conditional = ["paramCondition", "condition"]
            .iter()
            .any(|k| item.get(k).is_some_and(|p| !p.is_null()));
        let has_param_condition = item.get("paramCondition").is_some_and(|p| !p.is_null());
        let group = match version {
            Version::V05 => conditions::bin_group(item, targets.skill),
            Version::Legacy => None,
        };
        if let (Some(node), Some(name), false) = (tool_node, tool_name, has_param_condition) {
            match first_of.get(&(name.to_string(), group)) {
                Some(&first) => findings.push(duplicate(node, name, &label, first, version)),
                None => {
                    first_of.insert((name.to_string(), group), i);
                }
            }
        }
        let binary = item.get("binary");
        let subcommand = item.get("subcommand");
        if let (Some(b), Some(allowlist)) = (binary, targets.allowlist) {
            allowlist.check_pair(b, subcommand, &label, findings);
        }
        if version == Version::V05 {
            conditions::check_references(item, &label, tool, findings);
            conditions::check_bin_group(item, &label, targets.skill, findings);
            output::check(item, &label, targets.text, findings);
            args::check_order(
                item.get("args")
                    .and_then(Node::as_array)
                    .unwrap_or_default(),
                &label,
                findings,
            );
            if let Some(w) = item.get("binaryWrapper")
                && w.as_array().is_some_and(<[Node]>::is_empty)
            {
                findings.push(Finding::new(
                    &BINARY_WRAPPER_EMPTY,
                    w.span,
                    w.pointer(),
                    format!("{label}: binaryWrapper must be a non-empty array"),
                ));
            }
        }
        let post_process = item
            .get("postProcess")
            .filter(|_| version == Version::V05)
            .and_then(|p| {
                let command = resolver::check(
                    p,
                    &format!("{label}.postProcess"),
                    version,
                    targets.allowlist,
                    findings,
                )?;
                Some(PostProcess {
                    command,
                    empty_is_result: p.get("emptyIsResult").and_then(Node::as_bool) == Some(true),
                })
            });
        let cx = Context {
            version,
            tool,
            allowlist: targets.allowlist,
            binary,
            text: targets.text,
            present: item
                .get("paramCondition")
                .and_then(|p| p.get("present"))
                .and_then(Node::as_array)
                .unwrap_or_default(),
        };
        let mut mappings = Vec::new();
        let mut usable = true;
        for (j, arg) in item
            .get("args")
            .and_then(Node::as_array)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            match args::check(arg, &format!("{label}.args[{j}]"), &cx, findings) {
                Mapped::Arg(m) => mappings.push(*m),
                Mapped::Broken => usable = false,
            }
        }
        let execution = match (
            binary.and_then(Node::as_str),
            subcommand.and_then(Node::as_str),
        ) {
            (Some(b), Some(s)) if usable => {
                let mut spec = ChaiExecution {
                    version: match version {
                        Version::Legacy => ChaiVersion::Legacy,
                        Version::V05 => ChaiVersion::V05,
                    },
                    binary: b.to_string(),
                    subcommand: s.to_string(),
                    args: mappings,
                    skill_dir: skill_dir.to_path_buf(),
                    pointer: item.pointer(),
                    span: item.span,
                    ..ChaiExecution::default()
                };
                if version == Version::V05 {
                    spec.post_process = post_process;
                    v05_fields(item, &mut spec);
                }
                Some(spec)
            }
            _ => None,
        };
        let mut read = Vec::new();
        reads(item, None, &mut read);
        specs.push(SpecInfo {
            tool: tool_name.map(str::to_string),
            conditional,
            execution,
            reads: read,
        });
    }
    if version == Version::V05 {
        conditions::check_ambiguous(items, targets.skill, findings);
    }
    specs
}

/// Reports every tool without an execution spec, and the schema parameters
/// no spec reads (`tool_items` holds the tool nodes
/// for positions). Only called when the execution specs are usable.
pub fn check_coverage(
    tool_items: &[Node],
    tools: &[ToolInfo],
    specs: &[SpecInfo],
    findings: &mut Findings,
) {
    let by_tool = by_tool(specs);
    let first = by_name(tools);
    for tool in tools {
        if first.get(tool.name.as_str()).map(|t| t.index) != Some(tool.index) {
            continue;
        }
        if let Some(own) = by_tool.get(tool.name.as_str()) {
            unmapped(tool, own, findings);
            continue;
        }
        let Some(name) = tool_items.get(tool.index).and_then(|t| t.get("name")) else {
            continue;
        };
        findings.push(
            Finding::new(
                &MISSING_EXECUTION,
                name.span,
                name.pointer(),
                format!("tool {} has no execution spec", show(&tool.name)),
            )
            .with_help(format!(
                "add an execution spec with \"tool\": {}, or remove the tool",
                show(&tool.name)
            )),
        );
    }
}

/// Warns about each schema property that no spec of `tool` reads (U14).
fn unmapped(tool: &ToolInfo, specs: &[&SpecInfo], findings: &mut Findings) {
    let reads: HashSet<&str> = specs
        .iter()
        .flat_map(|s| s.reads.iter().map(String::as_str))
        .collect();
    for property in tool.properties().unwrap_or_default() {
        if reads.contains(property.key.as_str()) {
            continue;
        }
        findings.push(
            Finding::new(
                &PARAM_NOT_MAPPED,
                property.key_span,
                property.value.pointer(),
                format!(
                    "tool {} schema parameter {} has no execution handler: the model can provide it but it is silently ignored",
                    show(&tool.name),
                    show(&property.key)
                ),
            )
            .with_help("map it in the tool's execution spec `args`, or remove it from `parameters`"),
        );
    }
}

/// The first tool of each name.
pub fn by_name(tools: &[ToolInfo]) -> HashMap<&str, &ToolInfo> {
    let mut map = HashMap::new();
    for tool in tools {
        map.entry(tool.name.as_str()).or_insert(tool);
    }
    map
}

/// The specs of each tool, in file order.
pub fn by_tool(specs: &[SpecInfo]) -> HashMap<&str, Vec<&SpecInfo>> {
    let mut map: HashMap<&str, Vec<&SpecInfo>> = HashMap::new();
    for spec in specs {
        if let Some(tool) = &spec.tool {
            map.entry(tool.as_str()).or_default().push(spec);
        }
    }
    map
}

fn unknown_tool(node: &Node, name: &str, label: &str, tools: &[ToolInfo]) -> Finding {
    let f = Finding::new(
        &UNKNOWN_TOOL,
        node.span,
        node.pointer(),
        format!("{label}: tool {} not in tools", show(name)),
    );
    match crate::suggest::closest(name, tools.iter().map(|t| t.name.as_str())) {
        Some(s) => f.with_help(format!("did you mean {}?", show(s))),
        None => f.with_help(format!(
            "declare a tool named {} in tools, or remove this execution spec",
            show(name)
        )),
    }
}

fn duplicate(node: &Node, name: &str, label: &str, first: usize, version: Version) -> Finding {
    let help = match version {
        Version::Legacy => format!(
            "execution[{first}] runs the same tool; chai silently keeps only the last spec: remove one"
        ),
        Version::V05 => format!(
            "execution[{first}] runs the same tool; give all but one spec a `paramCondition` (or each a `condition`) so chai can choose"
        ),
    };
    Finding::new(
        &DUPLICATE_EXECUTION,
        node.span,
        node.pointer(),
        format!("{label}: duplicate execution spec for tool {}", show(name)),
    )
    .with_help(help)
}

/// The v0.5 spec fields that need no cross-checks to be modelled (their keys
/// and JSON types are checked by `fields`; a value of the wrong shape is
/// reported there and left out here).
fn v05_fields(item: &Node, spec: &mut ChaiExecution) {
    let strings = |node: &Node| -> Vec<String> {
        node.as_array()
            .unwrap_or_default()
            .iter()
            .filter_map(|n| n.as_str().map(str::to_string))
            .collect()
    };
    let value = |key: &str| item.get(key).filter(|n| !n.is_null()).map(Node::to_value);
    if let Some(w) = item.get("binaryWrapper") {
        spec.binary_wrapper = strings(w);
    }
    spec.bin_group = item
        .get("condition")
        .and_then(|c| c.get("binGroup"))
        .and_then(|g| g.to_value().as_u64());
    spec.param_condition = item
        .get("paramCondition")
        .filter(|p| !p.is_null())
        .map(|p| ParamCondition {
            present: p.get("present").map(strings).unwrap_or_default(),
            absent: p.get("absent").map(strings).unwrap_or_default(),
        });
    spec.side_read = value("sideRead").and_then(|v| serde_json::from_value(v).ok());
    spec.success_exit_codes = value("successExitCodes")
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    spec.max_output_lines = value("maxOutputLines").and_then(|v| serde_json::from_value(v).ok());
    spec.truncation_hint = item
        .get("truncationHint")
        .and_then(Node::as_str)
        .map(str::to_string);
    spec.hint_conditions = value("hintConditions")
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
}

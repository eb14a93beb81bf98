//! chai `tools.json`: the legacy single-file object ([`legacy`]) and the
//! three-file layout of chai v0.5 ([`split`]).
//!
//! Both versions share the checks of their parts: [`fields`] (known keys,
//! JSON types, did-you-mean), [`tools`], [`allowlist`], [`execution`] (with
//! the cross-checks tool ↔ execution ↔ allowlist), [`args`] (argument
//! mappings) and [`resolver`] (`resolveCommand` and its v0.5 relatives).
//! Each rule is declared next to the code that checks it.

pub mod allowlist;
pub mod args;
pub mod conditions;
pub mod deny;
pub mod execution;
pub mod fields;
pub mod legacy;
pub mod output;
pub mod resolver;
pub mod skill;
pub mod split;
pub mod tools;
pub mod version;

use crate::document::Document;
use crate::model::{ChaiExecution, ChaiVersion, Dialect, Execution, Manifest, Origin, Tool};
use crate::options::Options;
use crate::rules::Rule;
use crate::source::Source;
use skill::ChaiSkill;
use std::sync::Arc;

pub use split::SPLIT_FILE_MISSING;

/// chai rules.
pub static RULES: &[&Rule] = &[
    &SPLIT_FILE_MISSING,
    &version::DEPRECATED_SINGLE_FILE,
    &skill::BINS_INVALID,
    &fields::UNKNOWN_FIELD,
    &fields::UNKNOWN_FIELD_IGNORED,
    &fields::INVALID_TYPE,
    &fields::MISSING_FIELD,
    &tools::DUPLICATE_TOOL,
    &tools::PARAMETERS_MISSING,
    &allowlist::BINARY_NOT_ALLOWLISTED,
    &allowlist::SUBCOMMAND_NOT_ALLOWLISTED,
    &execution::MISSING_EXECUTION,
    &execution::UNKNOWN_TOOL,
    &execution::DUPLICATE_EXECUTION,
    &execution::BINARY_WRAPPER_EMPTY,
    &execution::PARAM_NOT_MAPPED,
    &args::UNKNOWN_KIND,
    &args::PARAM_NOT_IN_PARAMETERS,
    &args::PARAM_FIXED_VALUE,
    &args::LITERAL_WITHOUT_VALUE,
    &args::SECOND_STDIN,
    &args::TEMPFILE_ORDER,
    &conditions::REFERENCE_NOT_IN_PARAMETERS,
    &conditions::BIN_GROUP_OUT_OF_RANGE,
    &conditions::CONDITION_IGNORED,
    &conditions::AMBIGUOUS_SPECS,
    &deny::DENY_PATTERN_INVALID,
    &deny::DENY_ALWAYS_RESOLVE_WITHOUT_COMMAND,
    &output::EXIT_CODE_RANGE,
    &output::TRUNCATION_HINT_VARIABLE,
    &output::TRUNCATION_HINT_PANIC,
    &output::HINT_NEVER_FIRES,
    &output::HINT_ALWAYS_FIRES,
    &args::FLAGIFBOOLEAN_NOT_BOOLEAN,
    &args::FLAGIFBOOLEAN_WITHOUT_FLAGS,
    &args::FLAGIFBOOLEAN_ABSENT_IS_FALSE,
    &args::POSITIONAL_OPTIONAL,
    &args::FLAG_DASHES,
    &args::NORMALIZE_NEWLINES_IGNORED,
    &resolver::RESOLVER_MODE,
    &resolver::SCRIPT_NAME,
    &resolver::SCRIPT_EXTENSION,
    &resolver::PARAM_SUBSTITUTION,
];

/// Which version of the chai format a file set is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// chai 14ef265: single root object, `deny_unknown_fields`, three kinds.
    Legacy,
    /// chai v0.5 (fb29f89): three files, unknown fields ignored, seven kinds.
    V05,
}

/// Checks a legacy single-file `tools.json` (root object).
///
/// ```
/// use toolsmith_manifest::{Document, lint::Options, dialect::chai::check_legacy};
/// let text = r#"{"tools":[{"name":"t","parameters":{"type":"object","properties":{}}}],
///   "allowlist":{"git":["status"]},
///   "execution":[{"tool":"t","binary":"git","subcommand":"log"}]}"#;
/// let mut doc = Document::from_text("tools.json", "tools.json".as_ref(), text);
/// doc.parse_json();
/// let manifest = check_legacy(&mut doc, &Options::default()).unwrap();
/// assert_eq!(manifest.tools.len(), 1);
/// assert_eq!(doc.findings[0].rule.id, "chai/subcommand-not-allowlisted");
/// ```
pub fn check_legacy(doc: &mut Document, options: &Options) -> Option<Manifest> {
    check_legacy_in_skill(doc, options, None)
}

/// [`check_legacy`] for a `tools.json` whose skill directory has a
/// `SKILL.md` (its `metadata.requires.bins` OR-groups go into the model and
/// bound `condition.binGroup`). The version is detected from the file
/// ([`version::of_single_file`]) unless `options.chai_version` names it.
pub fn check_legacy_in_skill(
    doc: &mut Document,
    options: &Options,
    skill: Option<&ChaiSkill>,
) -> Option<Manifest> {
    let root = doc.root.as_ref()?;
    root.as_object()?;
    let chosen = version::of_single_file(root, options);
    let manifest = legacy::check(doc, &chosen, skill);
    tag(doc, &chosen);
    manifest
}

/// Names the version on every finding of a chai file.
fn tag(doc: &mut Document, chosen: &version::Chosen) {
    let name = chosen.dialect_name();
    for f in &mut doc.findings {
        f.dialect.get_or_insert(name);
    }
}

/// Checks the split layout; `tools` has an array root. Missing or unusable
/// `allowlist.json` / `execution.json` are reported in `tools`.
pub fn check_split(
    tools: &mut Document,
    allowlist: Option<&mut Document>,
    execution: Option<&mut Document>,
    options: &Options,
) -> Option<Manifest> {
    check_split_in_skill(tools, allowlist, execution, options, None)
}

/// [`check_split`] for a skill directory with a `SKILL.md` (see
/// [`check_legacy_in_skill`]).
pub fn check_split_in_skill(
    tools: &mut Document,
    mut allowlist: Option<&mut Document>,
    mut execution: Option<&mut Document>,
    options: &Options,
    skill: Option<&ChaiSkill>,
) -> Option<Manifest> {
    let chosen = version::of_split(options);
    let manifest = split::check(
        tools,
        allowlist.as_deref_mut(),
        execution.as_deref_mut(),
        &chosen,
        skill,
    );
    tag(tools, &chosen);
    for doc in [allowlist, execution].into_iter().flatten() {
        tag(doc, &chosen);
    }
    manifest
}

/// Puts the checked parts together into the model: every tool whose
/// execution specs are usable, in file order (the first of duplicate names).
fn assemble(
    dialect: Dialect,
    files: Files<'_>,
    tools: &[tools::ToolInfo],
    specs: &[execution::SpecInfo],
    allowlist: &allowlist::Allowlist,
    skill: Option<&ChaiSkill>,
) -> Manifest {
    let bin_groups = skill.map(ChaiSkill::groups).unwrap_or_default().to_vec();
    let by_tool = execution::by_tool(specs);
    let mut model_tools: Vec<Tool> = Vec::new();
    let mut unusable = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for tool in tools {
        if !seen.insert(tool.name.as_str()) {
            continue;
        }
        let own = by_tool
            .get(tool.name.as_str())
            .map_or(&[][..], Vec::as_slice);
        // A tool is modelled when every spec that runs it is usable. Legacy
        // chai keeps the last of duplicate specs (a HashMap insert); v0.5
        // keeps them all and chooses per call (`model::select_spec`).
        if own.is_empty() || own.iter().any(|s| s.execution.is_none()) {
            unusable.push(tool.name.clone());
            continue;
        }
        let mut chosen: Vec<ChaiExecution> = own
            .iter()
            .filter_map(|s| s.execution.clone())
            .map(|mut e| {
                e.bin_groups.clone_from(&bin_groups);
                e.source = files.execution.cloned();
                e
            })
            .collect();
        if chosen.iter().all(|s| s.version == ChaiVersion::Legacy) {
            chosen.drain(..chosen.len() - 1);
        }
        model_tools.push(Tool {
            name: tool.name.clone(),
            description: tool.description.clone(),
            parameters: tool.schema.clone(),
            execution: Execution::Chai(chosen),
            origin: Origin {
                name: Some(tool.name_node.clone()),
                schema: tool.parameters.clone(),
                ..Origin::new(files.tools, tool.span)
            },
        });
    }
    Manifest {
        dialect,
        path: files.path,
        inputs: files.inputs,
        tools: model_tools,
        allowlist: allowlist.entries.clone(),
        unusable,
    }
}

/// The files of a chai manifest: the main one, every input, and the texts
/// its tools and execution specs were read from.
struct Files<'a> {
    path: std::path::PathBuf,
    inputs: Vec<std::path::PathBuf>,
    tools: &'a Arc<Source>,
    execution: Option<&'a Arc<Source>>,
}

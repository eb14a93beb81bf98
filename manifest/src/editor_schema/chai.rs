//! chai `tools.json`, `execution.json` and `allowlist.json`, from the key
//! tables of [`crate::dialect::chai::fields`] and the argument kinds of
//! [`crate::dialect::chai::args`].
//!
//! The single-file object is read as the linter reads it
//! ([`crate::dialect::chai::version::v05_marker`]): with a v0.5 key or kind
//! in an execution spec it is a chai v0.5 file, otherwise a legacy one. A
//! legacy file refuses unknown keys (chai's `deny_unknown_fields`); v0.5
//! files — the single file with a marker, the `tools.json` array and
//! `execution.json` — let unknown keys through, as chai v0.5 ignores them
//! (the linter warns: `chai/unknown-field-ignored`).

use super::{array, described, document, object};
use crate::dialect::chai::Version;
use crate::dialect::chai::args::{LEGACY_KINDS, V05_KINDS};
use crate::dialect::chai::fields::{ARG, EXECUTION, Field, ROOT, TOOL, Ty};
use crate::dialect::chai::version::V05_ONLY_KINDS;
use serde_json::{Map, Value, json};

/// How the objects of one file are read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Legacy chai: the legacy keys only, unknown keys refused.
    Legacy,
    /// chai v0.5: every key, unknown keys ignored.
    V05,
}

/// `tools.json`: the single-file object, or the v0.5 array of tools.
pub(super) fn tools() -> Value {
    document(
        "chai tools.json",
        "A chai skill's tools.json: the legacy single-file object (`tools`, `allowlist`, `execution`; chai rejects unknown keys) or the chai v0.5 array of tool specs next to allowlist.json and execution.json.",
        json!({
            "oneOf": [
                described(single_file(), Some("The single-file format (deprecated by chai v0.5, still loaded).")),
                described(array(table(TOOL, Layout::V05)), Some("chai v0.5: the tool specs; allowlist.json and execution.json sit next to this file.")),
            ]
        }),
    )
}

/// chai v0.5 `execution.json`.
pub(super) fn execution() -> Value {
    document(
        "chai execution.json",
        "chai v0.5 execution specs: how each tool runs (binary, subcommand, argument mappings, output handling).",
        array(table(EXECUTION, Layout::V05)),
    )
}

/// chai v0.5 `allowlist.json`.
pub(super) fn allowlist() -> Value {
    document(
        "chai allowlist.json",
        "chai v0.5 allowlist: binary name → the subcommands it may run. Only these (binary, subcommand) pairs are executed.",
        allowlist_map(),
    )
}

fn allowlist_map() -> Value {
    json!({
        "type": "object",
        "additionalProperties": {
            "type": "array",
            "items": {"type": "string"},
            "description": "The subcommands this binary may run."
        }
    })
}

/// The single-file object: a v0.5 file when an execution spec has a v0.5
/// key or kind, else a legacy one.
fn single_file() -> Value {
    let has_key = |fields: &'static [Field]| -> Vec<Value> {
        fields
            .iter()
            .filter(|f| f.since == Version::V05)
            .map(|f| json!({"required": [f.name]}))
            .collect()
    };
    let mut arg_markers = has_key(ARG);
    arg_markers
        .push(json!({"required": ["kind"], "properties": {"kind": {"enum": V05_ONLY_KINDS}}}));
    let mut spec_markers = has_key(EXECUTION);
    spec_markers.push(json!({
        "required": ["args"],
        "properties": {"args": {"type": "array", "contains": {"type": "object", "anyOf": arg_markers}}}
    }));
    json!({
        "type": "object",
        "if": {
            "required": ["execution"],
            "properties": {"execution": {"type": "array", "contains": {"type": "object", "anyOf": spec_markers}}}
        },
        "then": described(table(ROOT, Layout::V05), Some("Read as chai v0.5 (an execution spec uses a v0.5 key or kind): unknown keys are ignored.")),
        "else": described(table(ROOT, Layout::Legacy), Some("Read as legacy chai: unknown keys are refused.")),
    })
}

/// The object schema of one key table.
fn table(fields: &'static [Field], layout: Layout) -> Value {
    let known = |f: &&Field| f.since == Version::Legacy || layout == Layout::V05;
    let mut properties = Map::new();
    for field in fields.iter().filter(known) {
        let text = description(fields, field.name).map(|t| match field.since {
            Version::V05 => format!("{t} (chai v0.5)"),
            Version::Legacy => t.to_string(),
        });
        properties.insert(
            field.name.to_string(),
            described(value(field, layout), text.as_deref()),
        );
    }
    let required: Vec<&str> = fields
        .iter()
        .filter(known)
        .filter(|f| f.required)
        .map(|f| f.name)
        .collect();
    object(properties, &required, layout == Layout::Legacy)
}

/// The schema of one key's value.
fn value(field: &Field, layout: Layout) -> Value {
    if field.name == "kind" {
        let kinds = match layout {
            Layout::Legacy => LEGACY_KINDS,
            Layout::V05 => V05_KINDS,
        };
        return json!({"enum": kinds});
    }
    if field.name == "allowlist" {
        return allowlist_map();
    }
    let schema = match field.ty {
        Ty::String => json!({"type": "string"}),
        Ty::Bool => json!({"type": "boolean"}),
        Ty::Integer => json!({"type": "integer"}),
        Ty::Strings => array(json!({"type": "string"})),
        Ty::Integers => array(json!({"type": "integer"})),
        Ty::Map => json!({"type": "object"}),
        Ty::Any => return json!({}),
        Ty::Object(t) => table(t, layout),
        Ty::Objects(t) => array(table(t, layout)),
    };
    if field.nullable {
        json!({"anyOf": [schema, {"type": "null"}]})
    } else {
        schema
    }
}

/// The reference's description of a key (chai's TOOLS_SCHEMA.md tables).
fn description(fields: &'static [Field], key: &str) -> Option<&'static str> {
    let is = |t: &'static [Field]| std::ptr::eq(fields, t);
    Some(match key {
        "tools" if is(ROOT) => {
            "Tool definitions for the LLM (name, description, parameters schema)."
        }
        "allowlist" if is(ROOT) => {
            "Binary name → array of allowed subcommands. Only these (binary, subcommand) pairs may be run."
        }
        "execution" if is(ROOT) => {
            "Per-tool execution: how to run each tool (binary, subcommand, arg mapping)."
        }
        "name" if is(TOOL) => {
            "Tool name (e.g. `notesmd_cli_search`). Must match an execution spec."
        }
        "description" if is(TOOL) => "Short description for the model.",
        "parameters" if is(TOOL) => {
            "JSON Schema for the parameters (`type`, `properties`, `required`, …)."
        }
        "tool" if is(EXECUTION) => "Tool name (must match a `tools[].name`).",
        "binary" if is(EXECUTION) => {
            "Binary to run (e.g. `notesmd-cli`). Must be a key in the allowlist."
        }
        "subcommand" if is(EXECUTION) => {
            "Subcommand (e.g. `search`). Must be in `allowlist[binary]`."
        }
        "args" if is(EXECUTION) => {
            "Order of arguments: how each JSON parameter becomes a CLI argument."
        }
        "binaryWrapper" => {
            "Run `wrapper[0] wrapper[1..] binary subcommand… args…`; non-empty; the allowlist checks `binary`, not the wrapper."
        }
        "condition" => {
            "Keep this spec only when the SKILL.md `metadata.requires.bins` OR-group `binGroup` matched."
        }
        "binGroup" => "Index of the `metadata.requires.bins` OR-group.",
        "paramCondition" => {
            "Choose between specs of one tool: all `present` parameters non-null and all `absent` ones missing or null."
        }
        "present" => "Parameters that must be present and non-null.",
        "absent" => "Parameters that must be missing or null.",
        "postProcess" => "Pipe the output through a script or allowlisted command.",
        "emptyIsResult" => {
            "Keep an empty post-processed output instead of falling back to the input."
        }
        "sideRead" => {
            "Append `<pathParam value>/<filename>` to the result when it exists and is not blank."
        }
        "pathParam" => "The parameter holding the directory.",
        "filename" => "The file read in that directory.",
        "label" => "The heading of the appended text.",
        "oncePerSession" => "Append it only once per session.",
        "successExitCodes" => "Extra exit codes treated as success (e.g. `[0, 1]` for grep).",
        "maxOutputLines" => "Truncate the output to this many lines and append a notice.",
        "truncationHint" => {
            "Replaces the truncation notice; variables `{kept}`, `{total}`, `{omitted}`, `{next_start}`."
        }
        "hintConditions" => "Append `hint: …` lines when all given conditions hold.",
        "match" => "A substring the output must contain.",
        "exitCode" => "`\"nonzero\"` or an exit code.",
        "notEmpty" => "The output must not be empty.",
        "whenArg" => "Parameter → value the call must have.",
        "hint" => "The hint text; `{param}` placeholders, `{{`/`}}` escapes.",
        "param" => "JSON parameter name (e.g. `query`); required for every kind except `literal`.",
        "kind" => {
            "How the parameter becomes argv (default `positional`); legacy chai knows `positional`, `flag`, `flagifboolean`."
        }
        "flag" => {
            "For `kind: \"flag\"`, the flag name (`content` → `--content`); absent: the parameter name."
        }
        "flagIfTrue" => {
            "For `kind: \"flagifboolean\"`, the flag to emit when the parameter is true."
        }
        "flagIfFalse" => {
            "For `kind: \"flagifboolean\"`, the flag to emit when the parameter is false."
        }
        "normalizeNewlines" => {
            "Convert literal `\\n` and `\\t` in string values to real newlines and tabs (removed in chai v0.5)."
        }
        "resolveCommand" => {
            "Resolve the value by running a script or an allowlisted command; trimmed stdout becomes the new value."
        }
        "value" => "`literal` only: the token pushed verbatim.",
        "absentDefault" => "Used when the parameter is absent or null.",
        "optional" => "An absent or null parameter is skipped instead of failing the call.",
        "split" => "`positional`: split the value on whitespace into several tokens.",
        "disambiguateAfterSkippedPositionals" => {
            "`positional`: insert `--` before this value if an optional positional was skipped."
        }
        "readPath" => "Sandbox-check and canonicalise the value as a path to read.",
        "writePath" => "Sandbox-check and canonicalise the value as a path to write.",
        "unsafePath" => "Skip every path check (chai warns at startup).",
        "denyPattern" => "Reject the call if the raw value matches this Rust regex (unanchored).",
        "denyResolveCommand" => {
            "Supplies the value checked by `denyPattern` when the raw value is absent or empty."
        }
        "denyAlwaysResolve" => "Always check `denyResolveCommand`'s output against `denyPattern`.",
        "subcommandOverride" => {
            "`flagifboolean`: when true, run this subcommand instead (no argv)."
        }
        "script" => "A file in the skill's `scripts/` directory (no `..`, `/` or `\\`).",
        "binary" => "An allowlisted binary (instead of `script`).",
        "subcommand" => "Its allowlisted subcommand.",
        "args" => "Arguments; `$param` is replaced by the parameter's value.",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::chai::fields::{
        CONDITION, HINT, PARAM_CONDITION, POST_PROCESS, RESOLVE, SIDE_READ,
    };

    /// Every key of every table has a description, so hover never comes up empty.
    #[test]
    fn every_key_is_described() {
        for t in [
            ROOT,
            TOOL,
            EXECUTION,
            ARG,
            RESOLVE,
            POST_PROCESS,
            CONDITION,
            PARAM_CONDITION,
            SIDE_READ,
            HINT,
        ] {
            for f in t {
                assert!(
                    description(t, f.name).is_some(),
                    "no description: {}",
                    f.name
                );
            }
        }
    }

    #[test]
    fn kind_lists_the_v05_kinds() {
        let s = execution();
        let kinds = &s["items"]["properties"]["args"]["items"]["properties"]["kind"]["enum"];
        assert_eq!(kinds.as_array().map(Vec::len), Some(V05_KINDS.len()));
    }
}

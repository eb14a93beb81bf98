//! What toolsmith's model (`model::ChaiExecution`) can express. chai v0.5
//! kinds and fields that change how a call runs are not expressible yet; a
//! tool that uses one is left out of the model, with one warning per
//! execution spec. Output-only fields (`successExitCodes`, `maxOutputLines`,
//! `truncationHint`, `hintConditions`, `sideRead`) are dropped silently.

use super::fields::show;
use super::tools::ToolInfo;
use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::source::Span;
use crate::tree::Node;

pub static UNSUPPORTED_FEATURE: Rule = Rule::warning(
    "chai/unsupported-feature",
    "chai",
    "a chai v0.5 kind or field that toolsmith's code generator and runtime do not support yet; the tool is left out of the model",
);

/// v0.5 kinds the model cannot express.
pub const SPEC_FIELDS: &[&str] = &[
    "binaryWrapper",
    "condition",
    "paramCondition",
    "postProcess",
];
/// v0.5 mapping fields the model cannot express.
pub const ARG_FIELDS: &[&str] = &[
    "value",
    "absentDefault",
    "optional",
    "split",
    "disambiguateAfterSkippedPositionals",
    "readPath",
    "writePath",
    "unsafePath",
    "denyPattern",
    "denyResolveCommand",
    "denyAlwaysResolve",
    "subcommandOverride",
];

/// Where and what the model cannot express.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    /// The offending key or value.
    pub span: Span,
    /// Its pointer.
    pub pointer: String,
    /// `kind "stdin"` or ``field `binaryWrapper` ``.
    pub what: String,
}

/// The first non-null key of `node` among `fields`, in file order.
pub fn field_gap(node: &Node, fields: &[&str]) -> Option<Gap> {
    node.as_object()?
        .iter()
        .find(|m| fields.contains(&m.key.as_str()) && !m.value.is_null())
        .map(|m| Gap {
            span: m.key_span,
            pointer: m.value.pointer.clone(),
            what: format!("field `{}`", m.key),
        })
}

/// A kind the model cannot express.
pub fn kind_gap(kind: &Node) -> Gap {
    Gap {
        span: kind.span,
        pointer: kind.pointer.clone(),
        what: format!("kind {}", show(kind.as_str().unwrap_or("?"))),
    }
}

/// The warning for a spec with a gap.
pub fn unsupported(gap: Gap, label: &str, tool: &ToolInfo) -> Finding {
    Finding::new(
        &UNSUPPORTED_FEATURE,
        gap.span,
        gap.pointer,
        format!(
            "{label}: toolsmith's code generator and runtime do not support {} yet; tool {} is left out of the generated model",
            gap.what,
            show(&tool.name)
        ),
    )
    .with_help("`toolsmith lint` checks it fully; `toolsmith gen` and the runtime skip this tool")
}

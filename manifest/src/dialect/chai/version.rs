//! Which chai version a file set is read as: the three-file layout is v0.5;
//! a single-file object that uses a key or kind only v0.5 knows is v0.5 too
//! (chai v0.5 loads it with a deprecation warning); anything else is legacy.
//! `--chai-version` overrides the detection.

use super::Version;
use super::fields::{self, Field, first_char};
use crate::cap::Findings;
use crate::diagnostic::Finding;
use crate::model::ChaiVersion;
use crate::options::Options;
use crate::rules::Rule;
use crate::tree::Node;

pub static DEPRECATED_SINGLE_FILE: Rule = Rule::warning(
    "chai/deprecated-single-file",
    "chai",
    "a single-file tools.json that uses chai v0.5 keys or kinds: chai v0.5 loads it with a deprecation warning",
);

/// The kinds only chai v0.5 knows.
pub const V05_ONLY_KINDS: &[&str] = &["stdin", "workingdir", "tempfile", "literal"];

/// Why a file set is read as the version it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// `--chai-version`.
    Forced,
    /// The three-file layout.
    Layout,
    /// A single file without any v0.5 key or kind.
    NoV05Marker,
    /// A single file using this v0.5 key or kind (its chai-style label).
    Marker(String),
}

/// The version chosen for a file set, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    /// The version.
    pub version: Version,
    /// Why.
    pub reason: Reason,
}

impl Chosen {
    /// `chai-legacy` / `chai-v0.5`.
    pub fn dialect_name(&self) -> &'static str {
        model_version(self.version).dialect_name()
    }

    /// A sentence naming the version and why it was chosen.
    pub fn explain(&self) -> String {
        let name = self.dialect_name();
        match &self.reason {
            Reason::Forced => format!("read as {name} (--chai-version)"),
            Reason::Layout => format!("read as {name} (three-file layout)"),
            Reason::NoV05Marker => format!(
                "read as {name}: the file uses no chai v0.5 key or kind (--chai-version v0.5 reads it as v0.5)"
            ),
            Reason::Marker(what) => format!("read as {name}: it uses {what}"),
        }
    }
}

/// The model's name for a version.
pub fn model_version(version: Version) -> ChaiVersion {
    match version {
        Version::Legacy => ChaiVersion::Legacy,
        Version::V05 => ChaiVersion::V05,
    }
}

/// The lint's name for a model version.
pub fn lint_version(version: ChaiVersion) -> Version {
    match version {
        ChaiVersion::Legacy => Version::Legacy,
        ChaiVersion::V05 => Version::V05,
    }
}

/// The version of a single-file (root object) `tools.json`.
pub fn of_single_file(root: &Node, options: &Options) -> Chosen {
    if let Some(v) = options.chai_version {
        return Chosen {
            version: lint_version(v),
            reason: Reason::Forced,
        };
    }
    match v05_marker(root) {
        Some(what) => Chosen {
            version: Version::V05,
            reason: Reason::Marker(what),
        },
        None => Chosen {
            version: Version::Legacy,
            reason: Reason::NoV05Marker,
        },
    }
}

/// The version of the three-file layout.
pub fn of_split(options: &Options) -> Chosen {
    match options.chai_version {
        Some(v) => Chosen {
            version: lint_version(v),
            reason: Reason::Forced,
        },
        None => Chosen {
            version: Version::V05,
            reason: Reason::Layout,
        },
    }
}

fn v05_key(node: &Node, table: &[Field]) -> Option<String> {
    node.as_object()?.iter().find_map(|m| {
        table
            .iter()
            .any(|f| f.name == m.key && f.since == Version::V05)
            .then(|| m.key.clone())
    })
}

/// The first key or kind of `root` that only v0.5 knows, described for a
/// message (`` `optional` in execution[0].args[1] ``).
pub fn v05_marker(root: &Node) -> Option<String> {
    let specs = root
        .get("execution")
        .and_then(Node::as_array)
        .unwrap_or_default();
    for (i, spec) in specs.iter().enumerate() {
        if let Some(key) = v05_key(spec, fields::EXECUTION) {
            return Some(format!("`{key}` in execution[{i}]"));
        }
        let args = spec
            .get("args")
            .and_then(Node::as_array)
            .unwrap_or_default();
        for (j, arg) in args.iter().enumerate() {
            if let Some(key) = v05_key(arg, fields::ARG) {
                return Some(format!("`{key}` in execution[{i}].args[{j}]"));
            }
            if let Some(kind) = arg
                .get("kind")
                .and_then(Node::as_str)
                .filter(|k| V05_ONLY_KINDS.contains(k))
            {
                return Some(format!("kind `{kind}` in execution[{i}].args[{j}]"));
            }
        }
    }
    None
}

/// chai v0.5's deprecation warning for a single-file `tools.json`, with its exact text.
pub fn deprecated(root: &Node, path: &str, chosen: &Chosen) -> Finding {
    Finding::new(
        &DEPRECATED_SINGLE_FILE,
        first_char(root),
        "",
        format!(
            "deprecated: {path} uses the legacy single-file format (root object with tools/allowlist/execution keys) — migrate to the three-file format (tools.json as array, allowlist.json, execution.json)"
        ),
    )
    .with_help(format!(
        "{}; move `tools` to a tools.json array, `allowlist` to allowlist.json and `execution` to execution.json",
        chosen.explain()
    ))
}

/// Rules whose verdict depends on the version: the first of their findings
/// names the version.
const VERSION_SENSITIVE: &[&str] = &[
    "chai/unknown-field",
    "chai/unknown-field-ignored",
    "chai/unknown-kind",
];

/// Names the version in the message of the first version-sensitive finding
/// (by position) of `findings`, and tags every finding with the dialect name.
pub fn annotate(findings: &mut Findings, chosen: &Chosen) {
    let name = chosen.dialect_name();
    let first = findings
        .iter_mut()
        .filter(|f| VERSION_SENSITIVE.contains(&f.rule.id))
        .min_by_key(|f| f.span.start);
    if let Some(f) = first {
        f.message = format!("{} [{}]", f.message, chosen.explain());
    }
    for f in findings.iter_mut() {
        f.dialect.get_or_insert(name);
    }
}

//! The dialect-neutral model: what a manifest declares once its findings are
//! known. The code generator and the runtime consume this, never the raw files.

use crate::source::{Source, Span};
use crate::tree::Node;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Which dialect a file (or file set) is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    /// chai `tools.json`, single root object (`tools` + `allowlist` + `execution`).
    ChaiLegacy,
    /// chai split layout: `tools.json` array + `allowlist.json` + `execution.json`.
    ChaiSplit,
    /// goagent / agentcli `tools.json` (tools with `command`).
    Agentcli,
    /// `--describe` JSON of a self-describing executable (object or catalog array).
    Describe,
    /// `SKILL.md` / `skill.md` / `*.skill.md` frontmatter.
    Skill,
    /// An MCP server's tool list (`tools/list` result, its JSON-RPC response,
    /// an array of tools or one tool). Its tools run on their server, not here.
    Mcp,
}

impl Dialect {
    /// The name used by `--dialect` and in rule ids.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::ChaiLegacy | Dialect::ChaiSplit => "chai",
            Dialect::Agentcli => "agentcli",
            Dialect::Describe => "describe",
            Dialect::Skill => "skill",
            Dialect::Mcp => "mcp",
        }
    }
}

/// A validated set of tools from one manifest.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    /// The dialect it was read as.
    pub dialect: Dialect,
    /// The manifest file (for the split layout: its `tools.json`).
    pub path: PathBuf,
    /// Every input file read (for rebuild tracking in the macro).
    pub inputs: Vec<PathBuf>,
    /// The tools, in file order.
    pub tools: Vec<Tool>,
    /// chai allowlist: binary → allowed subcommands (empty for other dialects).
    pub allowlist: BTreeMap<String, Vec<String>>,
    /// Tools the file declares that are not in `tools` because their own
    /// definition has an error (only a failed load has any), by name, in
    /// file order.
    pub unusable: Vec<String>,
}

/// One tool the model may call.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// The wire name.
    pub name: String,
    /// Description for the model.
    pub description: Option<String>,
    /// The JSON Schema of the arguments (an object schema; `{"type":"object","properties":{}}` when absent).
    pub parameters: Value,
    /// How the tool runs.
    pub execution: Execution,
    /// Where the tool was declared (empty for a tool built in code).
    pub origin: Origin,
}

/// Where a tool was declared: its file, its entry, its name and its schema
/// as positioned nodes, so that whatever consumes the model (the code
/// generator, the runtime) reports positions without reading the file again.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Origin {
    /// The file's text; `None` for a tool built in code.
    pub source: Option<Arc<Source>>,
    /// The span of the tool's entry (the whole object).
    pub span: Span,
    /// The `name` value.
    pub name: Option<Node>,
    /// The schema (`parameters`, `schema`, `metadata.params`) as written;
    /// `None` when absent.
    pub schema: Option<Node>,
}

impl Origin {
    /// A tool declared by the entry at `span` of `source`.
    pub fn new(source: &Arc<Source>, span: Span) -> Self {
        Origin {
            source: Some(Arc::clone(source)),
            span,
            name: None,
            schema: None,
        }
    }

    /// The span and pointer of the value at `pointer` below the schema: the
    /// key of a property when its parent is an object (where a reader looks),
    /// else the value. `None` when the schema has no such value.
    ///
    /// ```
    /// use toolsmith_model::model::Origin;
    /// use toolsmith_model::source::Span;
    /// use toolsmith_model::tree::{Kind, Member, Node};
    /// let leaf = Node { kind: Kind::Null, span: Span { start: 8, end: 12 }, pointer: "/p/a".into() };
    /// let schema = Node {
    ///     kind: Kind::Object(vec![Member { key: "a".into(), key_span: Span { start: 3, end: 6 }, value: leaf }]),
    ///     span: Span { start: 0, end: 13 },
    ///     pointer: "/p".into(),
    /// };
    /// let origin = Origin { schema: Some(schema), ..Origin::default() };
    /// assert_eq!(origin.schema_at("/a"), Some((Span { start: 3, end: 6 }, "/p/a".to_string())));
    /// assert_eq!(origin.schema_at(""), Some((Span { start: 0, end: 13 }, "/p".to_string())));
    /// assert_eq!(origin.schema_at("/b"), None);
    /// ```
    pub fn schema_at(&self, pointer: &str) -> Option<(Span, String)> {
        let schema = self.schema.as_ref()?;
        let target = schema.at_pointer(pointer)?;
        if let Some((parent, last)) = pointer.rsplit_once('/') {
            let key = last.replace("~1", "/").replace("~0", "~");
            if let Some(member) = schema.at_pointer(parent).and_then(|p| p.member(&key)) {
                return Some((member.key_span, target.pointer.clone()));
            }
        }
        Some((target.span, target.pointer.clone()))
    }
}

/// How a tool is executed.
#[derive(Debug, Clone, PartialEq)]
pub enum Execution {
    /// chai: `binary subcommand args…` built from an argument mapping. One
    /// spec, or several that `paramCondition` chooses between per call
    /// ([`select_spec`]); never empty.
    Chai(Vec<ChaiExecution>),
    /// agentcli: a fixed argv; the call's JSON arguments go to stdin.
    Command(CommandExecution),
    /// A self-describing executable, called as `program '<json>'`.
    Describe(DescribeExecution),
}

/// Which version of chai's format a spec was written in; it decides argv
/// details (flag formatting, resolver substitution, what a failing resolver does).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChaiVersion {
    /// chai 14ef265: single root object, three kinds.
    #[default]
    Legacy,
    /// chai v0.5 (fb29f89): three-file layout, seven kinds, many more fields.
    #[serde(rename = "v0.5")]
    V05,
}

impl ChaiVersion {
    /// The name in `--chai-version` and in JSON output (`chai-legacy`, `chai-v0.5`).
    pub fn dialect_name(self) -> &'static str {
        match self {
            ChaiVersion::Legacy => "chai-legacy",
            ChaiVersion::V05 => "chai-v0.5",
        }
    }
}

/// chai execution spec (`execution[]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ChaiExecution {
    /// The format version the spec was read as.
    pub version: ChaiVersion,
    /// Program name (an allowlist key).
    pub binary: String,
    /// Subcommand as written (in the allowlist for `binary`); see
    /// [`ChaiExecution::subcommand_tokens`] for what reaches argv.
    pub subcommand: String,
    /// Argument mappings, in argv order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<ArgMapping>,
    /// The skill directory (for `resolveCommand` / `postProcess` scripts).
    #[serde(skip)]
    pub skill_dir: PathBuf,
    /// The JSON pointer of the spec in its file (`/execution/3`, or `/3` in `execution.json`).
    #[serde(skip)]
    pub pointer: String,
    /// The file the spec was read from (`tools.json` or `execution.json`).
    #[serde(skip)]
    pub source: Option<Arc<Source>>,
    /// The span of the spec in that file.
    #[serde(skip)]
    pub span: Span,
    /// `binaryWrapper`: tokens run before the binary (`["env", "GIT_EDITOR=true"]`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub binary_wrapper: Vec<String>,
    /// `condition.binGroup`: the spec exists only when that `metadata.requires.bins` OR-group matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bin_group: Option<u64>,
    /// The skill's `metadata.requires.bins` OR-groups (from its `SKILL.md`),
    /// which `bin_group` indexes; empty when the skill has none or a flat list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bin_groups: Vec<Vec<String>>,
    /// `paramCondition`: when several specs run one tool, which one a call selects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub param_condition: Option<ParamCondition>,
    /// `postProcess`: pipe the output through an allowlisted program or script.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub post_process: Option<PostProcess>,
    /// `sideRead`: append a file next to a path parameter to the result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side_read: Option<SideRead>,
    /// `successExitCodes`: exit codes besides 0 that count as success.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub success_exit_codes: Vec<i32>,
    /// `maxOutputLines`: truncate the result to this many lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_output_lines: Option<usize>,
    /// `truncationHint`: the truncation notice template.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncation_hint: Option<String>,
    /// `hintConditions`: hints appended to the result when their conditions hold.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hint_conditions: Vec<HintCondition>,
}

impl ChaiExecution {
    /// The argv tokens of the subcommand: v0.5 splits it on whitespace; an
    /// empty subcommand gives no token in every version (the seed-era
    /// executor passes an empty argument there, a bug toolsmith does not copy).
    ///
    /// ```
    /// use toolsmith_model::model::ChaiExecution;
    /// let mut e = ChaiExecution { subcommand: "skill list".into(), ..Default::default() };
    /// assert_eq!(e.subcommand_tokens(), ["skill", "list"]);
    /// e.subcommand = String::new();
    /// assert!(e.subcommand_tokens().is_empty());
    /// ```
    pub fn subcommand_tokens(&self) -> Vec<&str> {
        self.subcommand.split_whitespace().collect()
    }
}

/// `paramCondition`: all `present` parameters non-null, all `absent` ones missing or null.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ParamCondition {
    /// Parameters that must be given (non-null).
    pub present: Vec<String>,
    /// Parameters that must be missing or null.
    pub absent: Vec<String>,
}

impl ParamCondition {
    /// True when `args` satisfies the condition.
    pub fn matches(&self, args: &Map<String, Value>) -> bool {
        let given = |p: &String| args.get(p).is_some_and(|v| !v.is_null());
        self.present.iter().all(given) && !self.absent.iter().any(given)
    }
}

/// Chooses the spec a call runs (chai v0.5 at fb29f89,
/// `crates/lib/src/tools/generic/mod.rs`): one spec is used as is;
/// otherwise the one whose `paramCondition` matches, else the single spec
/// without one. The error text is chai's.
///
/// ```
/// use toolsmith_model::model::{select_spec, ChaiExecution, ParamCondition};
/// let plain = ChaiExecution { subcommand: "rebase".into(), ..Default::default() };
/// let cont = ChaiExecution {
///     subcommand: "rebase --continue".into(),
///     param_condition: Some(ParamCondition { present: vec!["continue".into()], absent: vec![] }),
///     ..Default::default()
/// };
/// let specs = [plain, cont];
/// let args = serde_json::json!({"continue": true});
/// assert_eq!(select_spec("git_rebase", &specs, args.as_object().unwrap()).unwrap().subcommand, "rebase --continue");
/// let none = serde_json::Map::new();
/// assert_eq!(select_spec("git_rebase", &specs, &none).unwrap().subcommand, "rebase");
/// ```
pub fn select_spec<'a>(
    tool: &str,
    specs: &'a [ChaiExecution],
    args: &Map<String, Value>,
) -> Result<&'a ChaiExecution, String> {
    if let [only] = specs {
        return Ok(only);
    }
    let matching: Vec<&ChaiExecution> = specs
        .iter()
        .filter(|s| s.param_condition.as_ref().is_some_and(|c| c.matches(args)))
        .collect();
    match matching.as_slice() {
        [one] => return Ok(one),
        [] => {}
        several => {
            let given = |p: &&String| args.get(p.as_str()).is_some_and(|v| !v.is_null());
            let conditions: Vec<String> = several
                .iter()
                .filter_map(|s| s.param_condition.as_ref())
                .map(|c| {
                    let present: Vec<&str> =
                        c.present.iter().filter(given).map(String::as_str).collect();
                    if present.is_empty() {
                        format!("absent: [{}]", c.absent.join(", "))
                    } else {
                        format!("present: [{}]", present.join(", "))
                    }
                })
                .collect();
            return Err(format!(
                "tool {tool}: multiple execution specs match the given parameters (matching conditions: {})",
                conditions.join("; ")
            ));
        }
    }
    let defaults: Vec<&ChaiExecution> = specs
        .iter()
        .filter(|s| s.param_condition.is_none())
        .collect();
    if let [one] = defaults.as_slice() {
        return Ok(one);
    }
    let mut hints: Vec<String> = specs
        .iter()
        .filter_map(|s| s.param_condition.as_ref())
        .filter_map(|c| {
            let (given, missing): (Vec<&String>, Vec<&String>) = c
                .present
                .iter()
                .partition(|p| args.get(p.as_str()).is_some_and(|v| !v.is_null()));
            (!given.is_empty() && !missing.is_empty()).then(|| {
                let quote = |v: &[&String]| {
                    v.iter()
                        .map(|p| format!("'{p}'"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                format!(
                    "parameter(s) {} must be provided together with {}",
                    quote(&missing),
                    quote(&given)
                )
            })
        })
        .collect();
    hints.sort();
    hints.dedup();
    let mut message = format!("tool {tool}: no execution spec matches the given parameters");
    for hint in hints {
        message.push_str("; ");
        message.push_str(&hint);
    }
    Err(message)
}

/// How one parameter becomes argv tokens (or stdin, a working directory, a temp file).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ArgMapping {
    /// The parameter name (empty for a `literal`).
    pub param: String,
    /// The kind.
    pub kind: ArgKind,
    /// `kind: flag`/`tempfile`: the flag name (legacy: without the `--` chai
    /// adds; v0.5: leading dashes stripped, one character gives `-x`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    /// `kind: flagifboolean`: emitted verbatim when true.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flag_if_true: Option<String>,
    /// `kind: flagifboolean`: emitted verbatim when false or absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flag_if_false: Option<String>,
    /// Legacy: turn the two-character sequences `\n` and `\t` into real ones.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub normalize_newlines: bool,
    /// Resolve the value by running a command first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolve_command: Option<ResolveCommand>,
    /// `kind: literal`: the token pushed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Used when the parameter is absent or null.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub absent_default: Option<Value>,
    /// An absent parameter is skipped instead of failing the call.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// `positional`: split the value on whitespace into several tokens.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub split: bool,
    /// `positional`: insert `--` when an optional positional before it was skipped.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub disambiguate_after_skipped_positionals: bool,
    /// The value is a path read inside the sandbox's roots.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub read_path: bool,
    /// The value is a path written inside the sandbox's roots.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub write_path: bool,
    /// No path checks at all (toolsmith honours it only when the policy allows).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unsafe_path: bool,
    /// A regular expression the value must not match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deny_pattern: Option<String>,
    /// Supplies the value the deny pattern checks when the call gives none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deny_resolve_command: Option<ResolveCommand>,
    /// Always check the deny pattern against `denyResolveCommand`'s output.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deny_always_resolve: bool,
    /// `flagifboolean`: a true value selects this subcommand instead of the spec's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subcommand_override: Option<String>,
    /// The JSON pointer of the mapping in its file.
    #[serde(skip)]
    pub pointer: String,
    /// The span of the mapping in its spec's file ([`ChaiExecution::source`]).
    #[serde(skip)]
    pub span: Span,
}

impl ArgMapping {
    /// A mapping of `param` as `kind`, every other field unset.
    pub fn new(param: impl Into<String>, kind: ArgKind) -> Self {
        ArgMapping {
            param: param.into(),
            kind,
            ..ArgMapping::default()
        }
    }

    /// True for a `readPath`/`writePath` positional or flag, and for every
    /// `workingdir`, unless `unsafePath` is set (chai v0.5's path args,
    /// `crates/lib/src/tools/generic/sandbox.rs`).
    pub fn is_path(&self) -> bool {
        !self.unsafe_path
            && match self.kind {
                ArgKind::Positional | ArgKind::Flag => self.read_path || self.write_path,
                ArgKind::WorkingDir => true,
                _ => false,
            }
    }
}

/// Argument mapping kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ArgKind {
    /// The value itself.
    #[default]
    Positional,
    /// `--flag value`, omitted when the value is absent.
    Flag,
    /// `flagIfTrue` / `flagIfFalse` (or a `subcommandOverride`).
    FlagIfBoolean,
    /// The value is written to the program's stdin.
    Stdin,
    /// The value (a sandboxed path) is the program's working directory.
    WorkingDir,
    /// The value is written to a private temporary file; its path follows the flag.
    TempFile,
    /// `value`, verbatim.
    Literal,
}

impl ArgKind {
    /// chai's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ArgKind::Positional => "positional",
            ArgKind::Flag => "flag",
            ArgKind::FlagIfBoolean => "flagifboolean",
            ArgKind::Stdin => "stdin",
            ArgKind::WorkingDir => "workingdir",
            ArgKind::TempFile => "tempfile",
            ArgKind::Literal => "literal",
        }
    }
}

/// `resolveCommand` (and `denyResolveCommand`): a script from the skill's
/// `scripts/` folder, or an allowlisted command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ResolveCommand {
    /// `scripts/<name>` run with `sh`.
    Script {
        /// Script name (no path separators, no `..`).
        script: String,
        /// Arguments; `$param` (and in v0.5 `$name`) are substituted.
        args: Vec<String>,
    },
    /// An allowlisted binary and subcommand.
    Command {
        /// Binary (an allowlist key).
        binary: String,
        /// Subcommand.
        subcommand: String,
        /// Arguments; `$param` (and in v0.5 `$name`) are substituted.
        args: Vec<String>,
    },
}

/// `postProcess`: the result is piped through a script or an allowlisted command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PostProcess {
    /// The program (a `Script` or `Command`); each argument starting with `$`
    /// is replaced by that call parameter.
    pub command: ResolveCommand,
    /// An empty output replaces the result (otherwise the input is kept).
    #[serde(default)]
    pub empty_is_result: bool,
}

/// `sideRead`: append `<pathParam value>/<filename>` to the result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SideRead {
    /// The parameter holding a directory.
    pub path_param: String,
    /// The file name inside it (no separators, no `..`).
    pub filename: String,
    /// The label in the appended block (defaults to `filename`).
    pub label: Option<String>,
    /// Append it once per session only.
    #[serde(default)]
    pub once_per_session: bool,
}

/// One `hintConditions` entry: `hint` is appended when every given condition holds.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct HintCondition {
    /// A case-sensitive substring of the result.
    #[serde(rename = "match")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matches: Option<String>,
    /// `"nonzero"` or an exact code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<HintExitCode>,
    /// `true`: the result is non-empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_empty: Option<bool>,
    /// Parameters and the values they must have.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when_arg: Option<Map<String, Value>>,
    /// The hint template (`{param}` placeholders, `{{`/`}}` escapes).
    pub hint: String,
}

/// `hintConditions[].exitCode`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum HintExitCode {
    /// An exact exit code.
    Code(i32),
    /// `"nonzero"` (any other string never matches).
    Text(String),
}

/// agentcli execution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandExecution {
    /// `command` as written: program then fixed arguments.
    pub command: Vec<String>,
    /// The program resolved against the manifest directory (absolute, not canonicalized).
    pub program: PathBuf,
    /// Per-call timeout in seconds, when set and positive.
    pub timeout_sec: Option<u64>,
    /// Environment variable names to pass through (normalized: trimmed, upper-cased, de-duplicated).
    pub env_passthrough: Vec<String>,
}

/// describe execution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescribeExecution {
    /// The executable (derived from the file name `NAME.describe.json` → `NAME`, or a catalog entry's `path`).
    pub program: PathBuf,
}

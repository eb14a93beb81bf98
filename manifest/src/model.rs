//! The dialect-neutral model: what a manifest declares once its findings are
//! known. The code generator and the runtime consume this, never the raw files.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

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
}

impl Dialect {
    /// The name used by `--dialect` and in rule ids.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::ChaiLegacy | Dialect::ChaiSplit => "chai",
            Dialect::Agentcli => "agentcli",
            Dialect::Describe => "describe",
            Dialect::Skill => "skill",
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
}

/// How a tool is executed.
#[derive(Debug, Clone, PartialEq)]
pub enum Execution {
    /// chai: `binary subcommand args…` built from an argument mapping.
    Chai(ChaiExecution),
    /// agentcli: a fixed argv; the call's JSON arguments go to stdin.
    Command(CommandExecution),
    /// A self-describing executable, called as `program '<json>'`.
    Describe(DescribeExecution),
}

/// chai execution spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChaiExecution {
    /// Program name (an allowlist key).
    pub binary: String,
    /// Subcommand (in the allowlist for `binary`).
    pub subcommand: String,
    /// Argument mappings, in argv order.
    pub args: Vec<ArgMapping>,
    /// The skill directory (for `resolveCommand` scripts).
    pub skill_dir: PathBuf,
}

/// How one parameter becomes argv tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgMapping {
    /// The parameter name.
    pub param: String,
    /// The kind.
    pub kind: ArgKind,
    /// `kind: flag`: the flag name without dashes (defaults to `param`).
    pub flag: Option<String>,
    /// `kind: flagifboolean`: emitted verbatim when true.
    pub flag_if_true: Option<String>,
    /// `kind: flagifboolean`: emitted verbatim when false or absent.
    pub flag_if_false: Option<String>,
    /// Turn the two-character sequences `\n` and `\t` into real ones.
    pub normalize_newlines: bool,
    /// Resolve the value by running a command first.
    pub resolve_command: Option<ResolveCommand>,
}

impl ArgMapping {
    /// A mapping of `param` as `kind`, with no flag names, no newline
    /// normalization and no resolver.
    pub fn new(param: impl Into<String>, kind: ArgKind) -> Self {
        ArgMapping {
            param: param.into(),
            kind,
            flag: None,
            flag_if_true: None,
            flag_if_false: None,
            normalize_newlines: false,
            resolve_command: None,
        }
    }
}

/// Argument mapping kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgKind {
    /// The value itself.
    Positional,
    /// `--flag value`, omitted when the value is absent.
    Flag,
    /// `flagIfTrue` / `flagIfFalse`.
    FlagIfBoolean,
}

/// `resolveCommand`: a script from the skill's `scripts/` folder, or an allowlisted command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResolveCommand {
    /// `scripts/<name>` run with `sh`, only when scripts are allowed.
    Script {
        /// Script name (no path separators, no `..`).
        script: String,
        /// Arguments; `$param` is substituted.
        args: Vec<String>,
    },
    /// An allowlisted binary and subcommand.
    Command {
        /// Binary (an allowlist key).
        binary: String,
        /// Subcommand.
        subcommand: String,
        /// Arguments; `$param` is substituted.
        args: Vec<String>,
    },
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

//! What generated code implements: [`Tool`], and the [`Invocation`] it builds.
//!
//! The code that `tools!` generates stays small: the argv rules, schema
//! validation and the provider definition live here, in [`argv`] and [`call`],
//! a generated module's tools are one table ([`bindings::Bindings`]), and
//! generated types reach JSON through [`object`] instead of a serde derive
//! each; generated code uses them through the hidden [`__codegen`] module.

pub mod argv;
pub mod bindings;
pub mod call;
pub mod chai;
pub mod object;

use std::path::PathBuf;
use std::time::Duration;
pub use toolsmith_model::model::ResolveCommand;

/// A typed tool-argument struct generated from a manifest.
pub trait Tool {
    /// The wire name of the tool.
    const NAME: &'static str;
    /// The description given to the model.
    const DESCRIPTION: &'static str;
    /// The tool's JSON Schema, parsed once.
    fn parameters() -> &'static serde_json::Value;
    /// How to run this call.
    fn invocation(&self) -> Result<Invocation, ArgvError>;

    /// The tool as a model expects it (OpenAI function-tool shape):
    /// `{"type":"function","function":{"name","description"?,"parameters"}}`;
    /// the description is left out when empty.
    fn definition() -> serde_json::Value
    where
        Self: Sized,
    {
        call::definition(Self::NAME, Self::DESCRIPTION, Self::parameters())
    }
}

/// A typed tool-argument struct generated from an MCP tool list
/// (`tools!("github.mcp-tools.json")`). The tool runs on its MCP server, not
/// here: unlike [`Tool`] there is no invocation, no argv, and it is no
/// [`Call`] (`Runtime::run_call` does not accept it). Send
/// [`McpTool::to_mcp_arguments`] as the `arguments` of a `tools/call`
/// request for [`McpTool::NAME`].
pub trait McpTool {
    /// The wire name of the tool (the `name` of `tools/call`).
    const NAME: &'static str;
    /// The description given to the model.
    const DESCRIPTION: &'static str;
    /// The tool's `inputSchema`, parsed once.
    fn parameters() -> &'static serde_json::Value;
    /// The arguments as the JSON object of an MCP `tools/call` request:
    /// every required field, the optional ones that are set.
    fn to_mcp_arguments(&self) -> serde_json::Map<String, serde_json::Value>;

    /// The tool as a model expects it (OpenAI function-tool shape), as
    /// [`Tool::definition`].
    fn definition() -> serde_json::Value
    where
        Self: Sized,
    {
        call::definition(Self::NAME, Self::DESCRIPTION, Self::parameters())
    }
}

/// A tool call that can be planned and run: every generated `…Args` type
/// (through [`Tool`]) and every generated `ToolCall` enum. Object-safe.
pub trait Call {
    /// The tool's wire name.
    fn name(&self) -> &str;
    /// How to run this call.
    fn invocation(&self) -> Result<Invocation, ArgvError>;
}

impl<T: Tool> Call for T {
    fn name(&self) -> &str {
        T::NAME
    }
    fn invocation(&self) -> Result<Invocation, ArgvError> {
        Tool::invocation(self)
    }
}

/// A chai call: the tool's execution specs and the call's arguments. The
/// runtime chooses the spec, applies the path sandbox and builds argv, stdin
/// and temp files from it ([`Runtime::plan`](crate::Runtime::plan)).
#[derive(Debug, Clone, PartialEq)]
pub struct ChaiCall {
    /// The tool's execution specs (several are chosen between by `paramCondition`).
    pub specs: Vec<toolsmith_model::model::ChaiExecution>,
    /// The call's arguments (a JSON object).
    pub arguments: serde_json::Map<String, serde_json::Value>,
}

/// Everything needed to run one tool call, before policy checks.
#[derive(Debug, Clone, PartialEq)]
pub struct Invocation {
    /// The tool's wire name.
    pub tool: String,
    /// The program (a bare allowlisted name for chai, a path for agentcli and describe).
    pub program: String,
    /// The arguments after the program.
    pub args: Vec<String>,
    /// Bytes written to stdin (agentcli: the JSON of the arguments); `None` for a null stdin.
    pub stdin: Option<Vec<u8>>,
    /// Environment variable names to pass through from the parent.
    pub env_passthrough: Vec<String>,
    /// Per-call timeout, when the manifest sets one.
    pub timeout: Option<Duration>,
    /// `resolveCommand` steps still to run, each replacing one argument.
    pub resolve: Vec<PendingResolve>,
    /// chai: the subcommand, which the allowlist is checked against (also `args[0]`).
    pub subcommand: Option<String>,
    /// chai: the specs and arguments the runtime builds the command from
    /// (then `args`, `stdin` and `resolve` are unused).
    pub chai: Option<ChaiCall>,
    /// The manifest's directory as recorded when `tools!` expanded (on the
    /// build machine; `None` in `toolsmith gen` output). A manifest-relative
    /// `program` (`./tools/bin/x`, `./get_weather`) and a chai tool's skill
    /// directory are resolved against the runtime's root
    /// ([`Runtime::with_root`](crate::Runtime::with_root)), and against this
    /// directory only when the runtime has none.
    pub manifest_dir: Option<PathBuf>,
}

impl Invocation {
    /// `program args…` for tool `tool`: no stdin, no passthrough, no timeout.
    pub fn new(tool: &str, program: &str, args: Vec<String>) -> Self {
        Invocation {
            tool: tool.to_owned(),
            program: program.to_owned(),
            args,
            stdin: None,
            env_passthrough: Vec::new(),
            timeout: None,
            resolve: Vec::new(),
            subcommand: None,
            chai: None,
            manifest_dir: None,
        }
    }

    /// The invocation with [`Invocation::manifest_dir`] set (generated code
    /// passes its `MANIFEST_DIR`).
    pub fn with_manifest_dir(mut self, dir: Option<&str>) -> Self {
        self.manifest_dir = dir.map(PathBuf::from);
        self
    }

    /// The invocation of a chai call: the runtime builds the command from
    /// the specs and the arguments.
    pub fn chai(
        tool: &str,
        specs: Vec<toolsmith_model::model::ChaiExecution>,
        arguments: serde_json::Map<String, serde_json::Value>,
    ) -> Self {
        let program = specs.first().map(|s| s.binary.clone()).unwrap_or_default();
        Invocation {
            chai: Some(ChaiCall { specs, arguments }),
            ..Invocation::new(tool, &program, Vec::new())
        }
    }

    /// `[program, args…]`.
    pub fn argv(&self) -> Vec<String> {
        let mut argv = Vec::with_capacity(self.args.len() + 1);
        argv.push(self.program.clone());
        argv.extend(self.args.iter().cloned());
        argv
    }
}

/// A `resolveCommand` step: run the resolver with `$param` replaced by the
/// value; its trimmed stdout replaces `args[arg_index]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingResolve {
    /// Index into [`Invocation::args`] of the value to replace.
    pub arg_index: usize,
    /// The parameter name.
    pub param: String,
    /// The resolver.
    pub resolver: ResolveCommand,
}

/// Why arguments cannot be turned into argv.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgvError {
    /// A positional value begins with `-` and would be read as an option.
    #[error("parameter `{param}`: value {value:?} begins with `-` and would be read as an option")]
    LeadingDash {
        /// The parameter.
        param: String,
        /// The value.
        value: String,
    },
    /// A value contains a NUL byte, which cannot be passed in argv.
    #[error("parameter `{param}`: value contains a NUL byte")]
    NulByte {
        /// The parameter.
        param: String,
    },
    /// A single argument is over the size limit: it must be shorter than
    /// [`MAX_ARG_BYTES`], which Linux's `MAX_ARG_STRLEN` counts the terminating NUL in.
    #[error("parameter `{param}`: value is {len} bytes, over the limit of {limit} bytes")]
    TooLong {
        /// The parameter.
        param: String,
        /// Its length in bytes.
        len: usize,
        /// The longest argument allowed: [`MAX_ARG_BYTES`] − 1 bytes.
        limit: usize,
    },
    /// A positional parameter has no value.
    #[error("missing parameter: {param}")]
    Missing {
        /// The parameter.
        param: String,
    },
    /// A value is not a string, number or boolean.
    #[error("parameter {param} must be a string, number, or boolean")]
    NotScalar {
        /// The parameter.
        param: String,
    },
    /// The call would be refused by chai's rules (no execution spec matches,
    /// a deny pattern, a path outside the sandbox, …).
    #[error("{message}")]
    Refused {
        /// Why.
        message: String,
    },
    /// The arguments could not be serialized to JSON (agentcli stdin, describe argument).
    #[error("arguments cannot be serialized to JSON: {message}")]
    Serialize {
        /// serde_json's message.
        message: String,
    },
}

/// Why a model's tool call cannot be turned into a typed value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// No tool of that name.
    #[error("unknown tool: {0}")]
    UnknownTool(String),
    /// The arguments are not JSON.
    #[error("tool {tool}: arguments are not valid JSON: {message}")]
    InvalidJson {
        /// The tool.
        tool: String,
        /// serde_json's message.
        message: String,
    },
    /// The arguments violate the tool's schema; every violation is listed.
    #[error("tool {tool}: invalid arguments: {}", violations.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("; "))]
    InvalidArguments {
        /// The tool.
        tool: String,
        /// Every violation.
        violations: Vec<Violation>,
    },
    /// Valid by the schema but not deserializable into the generated type.
    #[error("tool {tool}: {message}")]
    Deserialize {
        /// The tool.
        tool: String,
        /// serde's message.
        message: String,
    },
    /// The tool's own schema could not be compiled into a validator.
    #[error("tool {tool}: its parameter schema cannot be compiled: {message}")]
    InvalidSchema {
        /// The tool.
        tool: String,
        /// Why (with its location in the schema).
        message: String,
    },
}

/// One schema violation in a tool call's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// JSON pointer into the arguments (`""` for the root).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "at {}: {}", self.pointer, self.message)
        }
    }
}

/// Linux's limit for one argument (`MAX_ARG_STRLEN`, 128 KiB), which counts
/// the terminating NUL: an argument must be shorter than this, or `execve`
/// fails with `E2BIG`.
pub const MAX_ARG_BYTES: usize = 128 * 1024;

/// What generated code uses; not a stable API.
#[doc(hidden)]
pub mod __codegen {
    pub use super::argv::{ArgValue, ArgvBuilder, command_invocation, describe_invocation};
    pub use super::bindings::Bindings;
    pub use super::call::{CompiledSchema, SchemaText, parse_call, to_arguments};
    pub use super::chai::{ChaiSpecs, chai_argv, chai_invocation};
    pub use super::object::mcp_arguments;
    pub use super::object::{
        JsonObject, Object, deny_unknown, deserialize_enum, deserialize_object, enum_index,
        object_value, put, put_some, serialize_object, take, take_or, take_some,
    };
    pub use super::{ArgvError, Call, CallError, Invocation, McpTool, ResolveCommand, Tool};
    pub use crate::outcome::Outcome;
    pub use crate::plan::Plan;
    pub use crate::policy::Policy;
    pub use crate::provider::{Provider, ProviderDefinitions};
    pub use crate::refusal::Refusal;
    pub use crate::runtime::Runtime;
    pub use serde::{Deserialize, Deserializer, Serialize, Serializer};
    pub use serde_json;
    pub use std::option::Option::{self, None, Some};
    pub use std::result::Result::{self, Err, Ok};
    pub use std::string::String;
    pub use std::vec::Vec;
}

//! The run-time table of one generated module: every tool's name,
//! description, parameter schema and execution, embedded as one JSON text
//! and read on first use.
//!
//! Generated code holds one `static` [`Bindings`] per manifest and reaches
//! it by tool index, so that what does not depend on a tool's Rust type —
//! schema text, call parsing and validation, invocations, definitions — is
//! compiled once here instead of once per tool in the user's crate.

use super::call::{self, CompiledSchema};
use super::object::Object;
use super::{ArgvError, CallError, Invocation, argv, chai};
use serde::Deserialize;
use serde_json::Value;
use std::sync::OnceLock;
use toolsmith_model::model::ChaiExecution;

/// One tool of the table (the JSON the generator writes).
#[derive(Debug, Deserialize)]
struct Entry {
    name: String,
    #[serde(default)]
    description: String,
    parameters: Value,
    run: Run,
}

/// How a tool runs.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Run {
    /// chai: the execution specs; the runtime builds the command.
    Chai(Vec<ChaiExecution>),
    /// agentcli: the program (manifest-relative or absolute), the fixed
    /// arguments, the `command` array as declared, env passthrough, timeout.
    Command {
        program: String,
        args: Vec<String>,
        command: Vec<String>,
        #[serde(default)]
        env: Vec<String>,
        #[serde(default)]
        timeout: Option<u64>,
    },
    /// describe: the executable; the arguments are one JSON argument.
    Describe { program: String },
    /// An MCP tool: it runs on its server. Generated code has no invocation
    /// for it; [`Bindings::invocation`] refuses it.
    Mcp,
}

#[derive(Debug)]
struct Table {
    entries: Vec<Entry>,
    validators: Vec<CompiledSchema>,
}

/// The table of a generated module (see the module documentation). Not a
/// stable API: generated code is its only user.
#[derive(Debug)]
pub struct Bindings {
    text: &'static str,
    manifest_dir: Option<&'static str>,
    table: OnceLock<Table>,
}

/// The parameter schema of an index outside the table (never for generated code).
static EMPTY_SCHEMA: OnceLock<Value> = OnceLock::new();

fn corrupt(index: usize) -> ArgvError {
    ArgvError::Refused {
        message: format!("the generated bindings have no tool #{index}; regenerate them"),
    }
}

impl Bindings {
    /// The table of the JSON `text` the generator wrote; `manifest_dir` is
    /// the module's `MANIFEST_DIR`.
    pub const fn new(text: &'static str, manifest_dir: Option<&'static str>) -> Self {
        Bindings {
            text,
            manifest_dir,
            table: OnceLock::new(),
        }
    }

    /// The parsed table (the generator wrote valid JSON; anything else reads
    /// as no tool, and every call is refused).
    fn table(&self) -> &Table {
        self.table.get_or_init(|| {
            let entries: Vec<Entry> = serde_json::from_str(self.text).unwrap_or_default();
            let validators = entries.iter().map(|_| CompiledSchema::new()).collect();
            Table {
                entries,
                validators,
            }
        })
    }

    fn entry(&self, index: usize) -> Result<&Entry, ArgvError> {
        self.table()
            .entries
            .get(index)
            .ok_or_else(|| corrupt(index))
    }

    /// Tool `index`'s parameter schema.
    pub fn parameters(&self, index: usize) -> &Value {
        match self.table().entries.get(index) {
            Some(entry) => &entry.parameters,
            None => EMPTY_SCHEMA.get_or_init(|| Value::Object(Object::new())),
        }
    }

    /// The tools as a model expects them (the OpenAI function-tool shape).
    pub fn definitions(&self) -> Value {
        Value::Array(
            self.table()
                .entries
                .iter()
                .map(|e| call::definition(&e.name, &e.description, &e.parameters))
                .collect(),
        )
    }

    /// Parses a model's call of tool `name`: the tool's index and the
    /// arguments object, checked against the tool's schema (the `validate`
    /// feature); the caller deserializes the object into the tool's type and
    /// hands the result to [`Bindings::typed`].
    ///
    /// # Errors
    ///
    /// An unknown tool, arguments that are not JSON, schema violations, or
    /// arguments that are not an object.
    pub fn parse(&self, name: &str, arguments: &str) -> Result<(usize, Object), CallError> {
        let table = self.table();
        let Some(index) = table.entries.iter().position(|e| e.name == name) else {
            return Err(CallError::UnknownTool(name.to_owned()));
        };
        let entry = &table.entries[index];
        let value = call::check_arguments(
            &entry.name,
            arguments,
            &entry.parameters,
            &table.validators[index],
            matches!(entry.run, Run::Chai(_)),
        )?;
        match value {
            Value::Object(object) => Ok((index, object)),
            other => Err(call::deserialize_error(
                &entry.name,
                &format!("invalid type: {}, expected a JSON object", kind(&other)),
            )),
        }
    }

    /// The typed call of tool `index`, or why its arguments do not fit the
    /// tool's type.
    ///
    /// # Errors
    ///
    /// The deserialization error, with the tool's name.
    pub fn typed<T>(
        &self,
        index: usize,
        typed: Result<T, serde_json::Error>,
    ) -> Result<T, CallError> {
        typed.map_err(|e| {
            let name = self
                .table()
                .entries
                .get(index)
                .map_or("", |e| e.name.as_str());
            call::deserialize_error(name, &e.to_string())
        })
    }

    /// The error for an index without a typed variant (unreachable: every
    /// index of the table has one); takes the arguments so that a module
    /// without tools uses them.
    pub fn no_tool(object: Object) -> serde_json::Error {
        drop(object);
        serde::de::Error::custom("the generated bindings have no type for this tool")
    }

    /// The invocation of tool `index` with the arguments `arguments` (the
    /// typed arguments' object).
    ///
    /// # Errors
    ///
    /// Arguments without a JSON form, or (describe) a JSON argument over
    /// the size limit.
    pub fn invocation(
        &self,
        index: usize,
        arguments: Result<Object, serde_json::Error>,
    ) -> Result<Invocation, ArgvError> {
        let entry = self.entry(index)?;
        let arguments = arguments.map_err(|e| ArgvError::Serialize {
            message: e.to_string(),
        })?;
        let dir = self.manifest_dir;
        match &entry.run {
            Run::Chai(specs) => {
                Ok(Invocation::chai(&entry.name, specs.clone(), arguments).with_manifest_dir(dir))
            }
            Run::Command {
                program,
                args,
                env,
                timeout,
                ..
            } => {
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let env: Vec<&str> = env.iter().map(String::as_str).collect();
                argv::command_invocation(
                    &entry.name,
                    program,
                    &args,
                    &arguments,
                    &env,
                    *timeout,
                    dir,
                )
            }
            Run::Describe { program } => {
                argv::describe_invocation(&entry.name, program, &arguments, dir)
            }
            Run::Mcp => Err(runs_on_server(&entry.name)),
        }
    }

    /// What generated `argv()` returns for tool `index`: chai, the command
    /// without a policy; agentcli, the `command` array as declared (the
    /// arguments go to stdin); describe, `[path, json]`.
    ///
    /// # Errors
    ///
    /// As [`Bindings::invocation`], and chai's refusals.
    pub fn argv(
        &self,
        index: usize,
        arguments: Result<Object, serde_json::Error>,
    ) -> Result<Vec<String>, ArgvError> {
        if let Run::Command { command, .. } = &self.entry(index)?.run {
            return Ok(command.clone());
        }
        chai::chai_argv(&self.invocation(index, arguments)?)
    }
}

/// The refusal of an MCP tool's invocation.
fn runs_on_server(tool: &str) -> ArgvError {
    ArgvError::Refused {
        message: format!(
            "tool `{tool}` comes from an MCP tool list and runs on its MCP server: send `to_mcp_arguments()` in a `tools/call` request; toolsmith does not run it"
        ),
    }
}

/// The JSON type of a value, for messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static TABLE: Bindings = Bindings::new(
        r#"[
            {"name": "ls", "description": "List.", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
             "run": {"chai": [{"binary": "ls", "subcommand": "", "args": [{"param": "path", "kind": "positional"}]}]}},
            {"name": "weather", "parameters": {"type": "object"},
             "run": {"command": {"program": "./tools/bin/weather", "args": ["--json"], "command": ["tools/bin/weather", "--json"], "env": ["TZ"], "timeout": 5}}},
            {"name": "echo", "parameters": {"type": "object"}, "run": {"describe": {"program": "./echo"}}},
            {"name": "get_me", "parameters": {"type": "object"}, "run": "mcp"}
        ]"#,
        Some("/build/manifest"),
    );

    fn object(v: Value) -> Object {
        match v {
            Value::Object(o) => o,
            _ => Object::new(),
        }
    }

    #[test]
    fn definitions_and_parameters() {
        let defs = TABLE.definitions();
        assert_eq!(defs[0]["function"]["name"], "ls");
        assert_eq!(defs[0]["function"]["description"], "List.");
        assert!(defs[1]["function"].get("description").is_none());
        assert_eq!(TABLE.parameters(0)["required"][0], "path");
        assert_eq!(TABLE.parameters(9), &serde_json::json!({}));
    }

    #[test]
    fn parse_finds_the_tool_and_checks_the_object() {
        let (index, args) = TABLE.parse("weather", r#"{"city": "Oslo"}"#).unwrap();
        assert_eq!((index, args["city"].as_str()), (1, Some("Oslo")));
        assert_eq!(TABLE.parse("echo", "  ").unwrap(), (2, Object::new()));
        assert!(matches!(TABLE.parse("rm", "{}"), Err(CallError::UnknownTool(n)) if n == "rm"));
        assert!(matches!(
            TABLE.parse("echo", "{"),
            Err(CallError::InvalidJson { .. })
        ));
        assert!(TABLE.parse("echo", "[1]").is_err());
        #[cfg(feature = "validate")]
        assert!(matches!(
            TABLE.parse("ls", "{}"),
            Err(CallError::InvalidArguments { .. })
        ));
        let e: Result<(), _> = Err(serde::de::Error::missing_field("path"));
        let err = TABLE.typed(0, e).unwrap_err();
        assert!(err.to_string().contains("tool ls"), "{err}");
        assert!(err.to_string().contains("missing field `path`"), "{err}");
    }

    #[test]
    fn invocations_of_the_three_kinds() {
        let args = || Ok(object(serde_json::json!({"path": "a"})));
        let chai = TABLE.invocation(0, args()).unwrap();
        assert_eq!(chai.program, "ls");
        assert_eq!(
            chai.manifest_dir.as_deref(),
            Some(std::path::Path::new("/build/manifest"))
        );
        assert_eq!(TABLE.argv(0, args()).unwrap(), ["ls", "a"]);
        let command = TABLE.invocation(1, args()).unwrap();
        assert_eq!(command.program, "./tools/bin/weather");
        assert_eq!(command.args, ["--json"]);
        assert_eq!(command.stdin.as_deref(), Some(&br#"{"path":"a"}"#[..]));
        assert_eq!(command.env_passthrough, ["TZ"]);
        assert_eq!(command.timeout, Some(std::time::Duration::from_secs(5)));
        assert_eq!(
            TABLE.argv(1, args()).unwrap(),
            ["tools/bin/weather", "--json"]
        );
        let describe = TABLE.invocation(2, args()).unwrap();
        assert_eq!(describe.argv(), ["./echo", r#"{"path":"a"}"#]);
        assert!(TABLE.invocation(7, args()).is_err());
    }

    #[test]
    fn an_mcp_tool_parses_but_has_no_invocation() {
        assert_eq!(TABLE.parse("get_me", "{}").unwrap(), (3, Object::new()));
        assert_eq!(TABLE.definitions()[3]["function"]["name"], "get_me");
        for err in [
            TABLE.invocation(3, Ok(Object::new())).unwrap_err(),
            TABLE.argv(3, Ok(Object::new())).unwrap_err(),
        ] {
            let ArgvError::Refused { message } = err else {
                panic!("not a refusal: {err:?}");
            };
            assert!(
                message.contains("tool `get_me`") && message.contains("runs on its MCP server"),
                "{message}"
            );
        }
    }

    #[test]
    fn corrupt_text_reads_as_no_tool() {
        static BROKEN: Bindings = Bindings::new("[{", None);
        assert_eq!(BROKEN.definitions(), serde_json::json!([]));
        assert!(BROKEN.invocation(0, Ok(Object::new())).is_err());
        assert!(matches!(
            BROKEN.parse("x", "{}"),
            Err(CallError::UnknownTool(_))
        ));
    }
}

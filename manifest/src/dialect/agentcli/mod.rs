//! agentcli (goagent) `tools.json`: `{"tools": [{name, description, schema,
//! command, timeoutSec, envPassthrough}]}` (dialects.md §3).
//!
//! Every rule of goagent's `LoadManifest` is reproduced with its exact message
//! (Go `%q` quoting included), but all findings are collected instead of the
//! first only. [`REFERENCE_RULES`] lists those rules in the reference's check
//! order and [`reference_error`] picks, from a run's diagnostics, the error
//! goagent itself would print. Beyond the reference: `schema` must be a valid
//! draft 2020-12 object schema, an absolute `command[0]` is a warning, keys Go
//! ignores or matches only case-insensitively are warnings, and names that
//! toolsmith's runtime never passes through `envPassthrough` are errors.

pub mod env;
pub mod go;
pub mod program;

use crate::diagnostic::{Diagnostic, Finding};
use crate::document::Document;
use crate::model::{CommandExecution, Dialect, Execution, Manifest, Tool};
use crate::options::Options;
use crate::rules::{Rule, Severity};
use crate::schema::{self, SchemaCheck};
use crate::suggest::closest;
use crate::tree::{Member, Node};
use go::{GoType, quote};
use program::Program;
use serde_json::json;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// `agentcli/decode` (error): a value has a JSON type goagent's Go structs cannot hold (`parse manifest: json: cannot unmarshal …`).
pub static DECODE: Rule = Rule::error(
    "agentcli/decode",
    "agentcli",
    "a value has a JSON type goagent's Go structs cannot hold (`parse manifest: json: cannot unmarshal …`)",
);
/// `agentcli/name-required` (error): every tool needs a non-empty `name`.
pub static NAME_REQUIRED: Rule = Rule::error(
    "agentcli/name-required",
    "agentcli",
    "every tool needs a non-empty `name`",
);
/// `agentcli/duplicate-name` (error): tool names must be unique (case-sensitive).
pub static DUPLICATE_NAME: Rule = Rule::error(
    "agentcli/duplicate-name",
    "agentcli",
    "tool names must be unique (case-sensitive)",
);
/// `agentcli/command-empty` (error): `command` needs at least the program.
pub static COMMAND_EMPTY: Rule = Rule::error(
    "agentcli/command-empty",
    "agentcli",
    "`command` needs at least the program",
);
/// `agentcli/env-empty` (error): an `envPassthrough` entry is empty after trimming.
pub static ENV_EMPTY: Rule = Rule::error(
    "agentcli/env-empty",
    "agentcli",
    "an `envPassthrough` entry is empty after trimming",
);
/// `agentcli/env-invalid` (error): an `envPassthrough` entry is not an environment variable name (`[A-Z_][A-Z0-9_]*` after upper-casing).
pub static ENV_INVALID: Rule = Rule::error(
    "agentcli/env-invalid",
    "agentcli",
    "an `envPassthrough` entry is not an environment variable name (`[A-Z_][A-Z0-9_]*` after upper-casing)",
);
/// `agentcli/command-parent` (error): a relative `command[0]` starts with `..` after cleaning.
pub static COMMAND_PARENT: Rule = Rule::error(
    "agentcli/command-parent",
    "agentcli",
    "a relative `command[0]` starts with `..` after cleaning",
);
/// `agentcli/command-escapes-bin` (error): a `command[0]` written under ./tools/bin leaves it after cleaning.
pub static COMMAND_ESCAPES_BIN: Rule = Rule::error(
    "agentcli/command-escapes-bin",
    "agentcli",
    "a `command[0]` written under ./tools/bin leaves it after cleaning",
);
/// `agentcli/command-not-in-bin` (error): a relative `command[0]` must start with ./tools/bin/.
pub static COMMAND_NOT_IN_BIN: Rule = Rule::error(
    "agentcli/command-not-in-bin",
    "agentcli",
    "a relative `command[0]` must start with ./tools/bin/",
);
/// `agentcli/command-resolve` (error): `command[0]` cannot be made absolute.
pub static COMMAND_RESOLVE: Rule = Rule::error(
    "agentcli/command-resolve",
    "agentcli",
    "`command[0]` cannot be made absolute",
);
/// `agentcli/absolute-command` (warning): an absolute `command[0]` is accepted by goagent (meant for tests) but ties the manifest to one machine.
pub static ABSOLUTE_COMMAND: Rule = Rule::warning(
    "agentcli/absolute-command",
    "agentcli",
    "an absolute `command[0]` is accepted by goagent (meant for tests) but ties the manifest to one machine",
);
/// `agentcli/unknown-key` (warning): a key goagent does not know is silently ignored.
pub static UNKNOWN_KEY: Rule = Rule::warning(
    "agentcli/unknown-key",
    "agentcli",
    "a key goagent does not know is silently ignored",
);
/// `agentcli/key-case` (warning): a key matches a field only case-insensitively (Go accepts it, other readers may not).
pub static KEY_CASE: Rule = Rule::warning(
    "agentcli/key-case",
    "agentcli",
    "a key matches a field only case-insensitively (Go accepts it, other readers may not)",
);
/// `agentcli/name-whitespace` (warning): a tool name is only whitespace (goagent accepts it).
pub static NAME_WHITESPACE: Rule = Rule::warning(
    "agentcli/name-whitespace",
    "agentcli",
    "a tool name is only whitespace (goagent accepts it)",
);
/// `agentcli/schema-missing` (warning): a tool has no `schema` (or `null`); toolsmith exports `{"type":"object","properties":{}}`.
pub static SCHEMA_MISSING: Rule = Rule::warning(
    "agentcli/schema-missing",
    "agentcli",
    "a tool has no `schema` (or `null`); toolsmith exports `{\"type\":\"object\",\"properties\":{}}`",
);
/// `agentcli/timeout-negative` (warning): a negative `timeoutSec` silently means the default timeout.
pub static TIMEOUT_NEGATIVE: Rule = Rule::warning(
    "agentcli/timeout-negative",
    "agentcli",
    "a negative `timeoutSec` silently means the default timeout",
);
/// `agentcli/env-duplicate` (warning): an `envPassthrough` entry repeats an earlier one after normalization.
pub static ENV_DUPLICATE: Rule = Rule::warning(
    "agentcli/env-duplicate",
    "agentcli",
    "an `envPassthrough` entry repeats an earlier one after normalization",
);
/// `agentcli/env-denied` (error): `envPassthrough` names a variable toolsmith never passes to a tool (PATH, IFS, LD_*, DYLD_*, BASH_ENV, ENV, PROMPT_COMMAND).
pub static ENV_DENIED: Rule = Rule::error(
    "agentcli/env-denied",
    "agentcli",
    "`envPassthrough` names a variable toolsmith never passes to a tool (PATH, IFS, LD_*, DYLD_*, BASH_ENV, ENV, PROMPT_COMMAND)",
);
/// `agentcli/env-risky` (warning): `envPassthrough` names a variable that changes how shell scripts run (SHELLOPTS, BASHOPTS, PS4).
pub static ENV_RISKY: Rule = Rule::warning(
    "agentcli/env-risky",
    "agentcli",
    "`envPassthrough` names a variable that changes how shell scripts run (SHELLOPTS, BASHOPTS, PS4)",
);
/// `agentcli/no-tools` (warning): the manifest declares no tools.
pub static NO_TOOLS: Rule = Rule::warning(
    "agentcli/no-tools",
    "agentcli",
    "the manifest declares no tools",
);

/// The rules of goagent's `LoadManifest`, in its check order: decoding first,
/// then per tool (by index) name, duplicate, command, envPassthrough entries,
/// `command[0]`.
pub static REFERENCE_RULES: &[&Rule] = &[
    &DECODE,
    &NAME_REQUIRED,
    &DUPLICATE_NAME,
    &COMMAND_EMPTY,
    &ENV_EMPTY,
    &ENV_INVALID,
    &COMMAND_PARENT,
    &COMMAND_ESCAPES_BIN,
    &COMMAND_NOT_IN_BIN,
    &COMMAND_RESOLVE,
];

/// agentcli rules.
pub static RULES: &[&Rule] = &[
    &DECODE,
    &NAME_REQUIRED,
    &DUPLICATE_NAME,
    &COMMAND_EMPTY,
    &ENV_EMPTY,
    &ENV_INVALID,
    &COMMAND_PARENT,
    &COMMAND_ESCAPES_BIN,
    &COMMAND_NOT_IN_BIN,
    &COMMAND_RESOLVE,
    &ABSOLUTE_COMMAND,
    &UNKNOWN_KEY,
    &KEY_CASE,
    &NAME_WHITESPACE,
    &SCHEMA_MISSING,
    &TIMEOUT_NEGATIVE,
    &ENV_DUPLICATE,
    &ENV_DENIED,
    &ENV_RISKY,
    &NO_TOOLS,
];

/// The JSON field names of goagent's `ToolSpec`.
const TOOL_FIELDS: [&str; 6] = [
    "name",
    "description",
    "schema",
    "command",
    "timeoutSec",
    "envPassthrough",
];

/// Checks an agentcli manifest. Returns the model of the tools that could be
/// read (tools with errors of their own are left out); `None` when the root is
/// not an object.
pub fn check(doc: &mut Document, options: &Options) -> Option<Manifest> {
    let _ = options;
    let root = doc.root.as_ref()?;
    let mut checker = Checker {
        text: doc.source.text(),
        dir: doc.path.parent().unwrap_or(Path::new("")),
        findings: Vec::new(),
    };
    let tools = checker.manifest(root);
    let findings = checker.findings;
    doc.findings.extend(findings);
    let tools = tools?;
    Some(Manifest {
        dialect: Dialect::Agentcli,
        path: doc.path.clone(),
        inputs: vec![doc.path.clone()],
        tools,
        allowlist: BTreeMap::new(),
    })
}

/// The error goagent's `LoadManifest` would report for a file: among the
/// error diagnostics of [`REFERENCE_RULES`], the first in the reference's
/// order — decoding errors first (by position, as Go reports the earliest),
/// then by tool index, rule order, and position.
///
/// Its message is the reference's message verbatim (goagent prints
/// `parse manifest: …` for decoding errors exactly like this).
pub fn reference_error(diagnostics: &[Diagnostic]) -> Option<&Diagnostic> {
    let rank = |d: &Diagnostic| REFERENCE_RULES.iter().position(|r| r.id == d.rule);
    diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .filter_map(|d| rank(d).map(|r| (d, r)))
        .min_by_key(|(d, r)| {
            let tool = if *r == 0 {
                0
            } else {
                d.pointer
                    .split('/')
                    .nth(2)
                    .and_then(|t| t.parse::<usize>().ok())
                    .unwrap_or(0)
            };
            (*r != 0, tool, *r, d.span.start)
        })
        .map(|(d, _)| d)
}

struct Checker<'a> {
    text: &'a str,
    dir: &'a Path,
    findings: Vec<Finding>,
}

/// One `ToolSpec` field: every member that sets it (Go decodes them all, the last wins).
struct Field<'a> {
    members: Vec<&'a Member>,
}

impl<'a> Field<'a> {
    fn value(&self) -> Option<&'a Node> {
        self.members.last().map(|m| &m.value)
    }
}

/// A string slice as Go decodes it: `null` elements become `""`.
struct Strings<'a> {
    /// The array (or `null`) node, when present.
    node: Option<&'a Node>,
    /// Element values with their nodes.
    items: Vec<(String, &'a Node)>,
    /// False when any member or element had a type error.
    ok: bool,
}

impl<'a> Checker<'a> {
    fn push(&mut self, f: Finding) {
        self.findings.push(f);
    }

    /// Reports a decoding error for `node` into `ty`; true when it fits.
    fn decode(&mut self, node: &Node, ty: GoType, field: Option<(&str, &str)>) -> bool {
        match go::type_error(node, self.text, ty, field) {
            Some(message) => {
                self.push(Finding::new(
                    &DECODE,
                    node.span,
                    node.pointer.clone(),
                    format!("parse manifest: {message}"),
                ));
                false
            }
            None => true,
        }
    }

    /// Matches the members of `obj` to Go fields; warns on unknown keys and case mismatches.
    fn fields(&mut self, obj: &'a Node, names: &[&str], what: &str) -> Vec<Field<'a>> {
        let mut fields: Vec<Field<'a>> = names.iter().map(|_| Field { members: vec![] }).collect();
        for m in obj.as_object().unwrap_or_default() {
            let pointer = m.value.pointer.clone();
            match names.iter().position(|n| go::key_matches(&m.key, n)) {
                Some(i) => {
                    if m.key != names[i] {
                        self.push(
                            Finding::new(
                                &KEY_CASE,
                                m.key_span,
                                pointer,
                                format!(
                                    "key `{}` is read as `{}`: goagent matches keys case-insensitively, other readers do not",
                                    m.key, names[i]
                                ),
                            )
                            .with_help(format!("spell it `{}`", names[i])),
                        );
                    }
                    if let Some(f) = fields.get_mut(i) {
                        f.members.push(m);
                    }
                }
                None => {
                    let f = Finding::new(
                        &UNKNOWN_KEY,
                        m.key_span,
                        pointer,
                        format!("unknown key `{}` in {what} is ignored by goagent", m.key),
                    );
                    self.push(match closest(&m.key, names.iter().copied()) {
                        Some(s) => f.with_help(format!("did you mean `{s}`?")),
                        None => f.with_help(format!("the known keys are `{}`", names.join("`, `"))),
                    });
                }
            }
        }
        fields
    }

    /// The root object; `None` when it is not one.
    fn manifest(&mut self, root: &'a Node) -> Option<Vec<Tool>> {
        if root.is_null() {
            return Some(Vec::new());
        }
        if !self.decode(root, GoType::Manifest, None) {
            return None;
        }
        let fields = self.fields(root, &["tools"], "the manifest");
        let mut elements: &[Node] = &[];
        let mut tools_node = None;
        let mut broken = false;
        for m in fields
            .first()
            .map(|f| f.members.as_slice())
            .unwrap_or_default()
        {
            if self.decode(&m.value, GoType::ToolSpecSlice, Some(("Manifest", "tools"))) {
                elements = m.value.as_array().unwrap_or_default();
                tools_node = Some(&m.value);
            } else {
                broken = true;
            }
        }
        if elements.is_empty() && !broken {
            let (span, pointer) =
                tools_node.map_or((root.span, String::new()), |n| (n.span, n.pointer.clone()));
            self.push(Finding::new(
                &NO_TOOLS,
                span,
                pointer,
                "the manifest declares no tools (`tools` is absent or empty)",
            ));
        }
        let mut seen: HashMap<String, usize> = HashMap::new();
        let mut tools = Vec::new();
        for (i, element) in elements.iter().enumerate() {
            if let Some(tool) = self.tool(i, element, &mut seen) {
                tools.push(tool);
            }
        }
        Some(tools)
    }

    fn string(&mut self, field: &Field<'a>, path: &str) -> (Option<String>, bool) {
        let mut ok = true;
        for m in &field.members {
            ok &= self.decode(&m.value, GoType::String, Some(("ToolSpec", path)));
        }
        let value = field.value().and_then(Node::as_str).map(str::to_string);
        (value, ok)
    }

    fn strings(&mut self, field: &Field<'a>, path: &str) -> Strings<'a> {
        let mut ok = true;
        for m in &field.members {
            if !self.decode(&m.value, GoType::StringSlice, Some(("ToolSpec", path))) {
                ok = false;
                continue;
            }
            for item in m.value.as_array().unwrap_or_default() {
                ok &= self.decode(item, GoType::String, Some(("ToolSpec", path)));
            }
        }
        let node = field.value();
        let items = node
            .and_then(Node::as_array)
            .unwrap_or_default()
            .iter()
            .map(|n| (n.as_str().unwrap_or_default().to_string(), n))
            .collect();
        Strings { node, items, ok }
    }

    fn tool(
        &mut self,
        i: usize,
        node: &'a Node,
        seen: &mut HashMap<String, usize>,
    ) -> Option<Tool> {
        if node.is_null() {
            // Go decodes `null` into an empty ToolSpec.
            self.push(Finding::new(
                &NAME_REQUIRED,
                node.span,
                node.pointer.clone(),
                format!("tool[{i}]: name is required"),
            ));
            return None;
        }
        if !self.decode(node, GoType::ToolSpec, Some(("Manifest", "tools"))) {
            return None;
        }
        let what = format!("tool[{i}]");
        let fields = self.fields(node, &TOOL_FIELDS, &what);
        let [name_f, description_f, schema_f, command_f, timeout_f, env_f] = fields.as_slice()
        else {
            return None;
        };
        let (name, name_ok) = self.string(name_f, "tools.name");
        let name = name.unwrap_or_default();
        let (description, _) = self.string(description_f, "tools.description");
        let command = self.strings(command_f, "tools.command");
        let env = self.strings(env_f, "tools.envPassthrough");
        let mut timeout = None;
        for m in &timeout_f.members {
            if self.decode(
                &m.value,
                GoType::Int,
                Some(("ToolSpec", "tools.timeoutSec")),
            ) {
                let literal = self.text.get(m.value.span.start..m.value.span.end);
                timeout = literal.and_then(go::parse_int).map(|t| (t, &m.value));
            }
        }
        let errors_before = self.error_count();

        // The reference rules, in order.
        let anchor = name_f.value().unwrap_or(node);
        let prefix = format!("tool[{i}] {}", quote(&name));
        if name.is_empty() && name_ok {
            self.push(
                Finding::new(
                    &NAME_REQUIRED,
                    anchor.span,
                    anchor.pointer.clone(),
                    format!("tool[{i}]: name is required"),
                )
                .with_help("give the tool a non-empty `name`: it is what the model calls"),
            );
        } else if !name.is_empty() {
            if name.trim().is_empty() {
                self.push(Finding::new(
                    &NAME_WHITESPACE,
                    anchor.span,
                    anchor.pointer.clone(),
                    format!("{prefix}: the name is only whitespace"),
                ));
            }
            match seen.get(&name) {
                Some(first) => self.push(
                    Finding::new(
                        &DUPLICATE_NAME,
                        anchor.span,
                        anchor.pointer.clone(),
                        format!("{prefix}: duplicate name"),
                    )
                    .with_help(format!(
                        "tool names must be unique; the first {} is tool[{first}]",
                        quote(&name)
                    )),
                ),
                None => {
                    seen.insert(name.clone(), i);
                }
            }
        }
        if command.items.is_empty() && command.ok {
            let at = command.node.unwrap_or(anchor);
            self.push(
                Finding::new(
                    &COMMAND_EMPTY,
                    at.span,
                    at.pointer.clone(),
                    format!("{prefix}: command must have at least program name"),
                )
                .with_help("`command` is the argv: the program, then fixed arguments, e.g. [\"./tools/bin/NAME\"]"),
            );
        }
        let env_passthrough = self.env(&prefix, &env);
        let program = match command.items.first() {
            Some((cmd0, cmd0_node)) if cmd0_node.as_str().is_some() => {
                self.program(&prefix, cmd0, cmd0_node)
            }
            _ => None,
        };

        // Beyond the reference.
        match schema_f.value() {
            Some(s) if !s.is_null() => schema::check(
                s,
                &SchemaCheck {
                    object_root: true,
                    allow_resolve: false,
                },
                &mut self.findings,
            ),
            other => {
                let at = other.unwrap_or(anchor);
                self.push(
                    Finding::new(
                        &SCHEMA_MISSING,
                        at.span,
                        at.pointer.clone(),
                        format!("{prefix}: no `schema`; toolsmith exports `{{\"type\":\"object\",\"properties\":{{}}}}` (no arguments)"),
                    )
                    .with_help("declare the arguments as a JSON Schema with `\"type\": \"object\"`"),
                );
            }
        }
        if let Some((t, at)) = timeout
            && t < 0
        {
            self.push(Finding::new(
                &TIMEOUT_NEGATIVE,
                at.span,
                at.pointer.clone(),
                format!("{prefix}: timeoutSec {t} is negative, so the default timeout applies"),
            ));
        }

        if self.error_count() > errors_before || name.is_empty() || !name_ok {
            return None;
        }
        let parameters = match schema_f.value() {
            Some(s) if s.as_object().is_some() => s.to_value(),
            _ => json!({"type": "object", "properties": {}}),
        };
        Some(Tool {
            name,
            description: description.filter(|d| !d.is_empty()),
            parameters,
            execution: Execution::Command(CommandExecution {
                command: command.items.iter().map(|(s, _)| s.clone()).collect(),
                program: program?,
                timeout_sec: timeout
                    .and_then(|(t, _)| u64::try_from(t).ok())
                    .filter(|t| *t > 0),
                env_passthrough,
            }),
        })
    }

    fn error_count(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count()
    }

    /// Rules 4a/4b and toolsmith's deny list; returns the normalized names.
    fn env(&mut self, prefix: &str, env: &Strings<'a>) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for (j, (entry, node)) in env.items.iter().enumerate() {
            if node.as_str().is_none() && !node.is_null() {
                continue; // a decoding error already
            }
            let name = match env::normalize_name(entry) {
                Ok(name) => name,
                Err(env::EnvNameError::Empty) => {
                    self.push(
                        Finding::new(
                            &ENV_EMPTY,
                            node.span,
                            node.pointer.clone(),
                            format!("{prefix}: envPassthrough[{j}]: empty name"),
                        )
                        .with_help("remove the empty entry"),
                    );
                    continue;
                }
                Err(env::EnvNameError::Invalid) => {
                    self.push(
                        Finding::new(
                            &ENV_INVALID,
                            node.span,
                            node.pointer.clone(),
                            format!(
                                "{prefix}: envPassthrough[{j}]: invalid name {} (must match [A-Z_][A-Z0-9_]*)",
                                quote(entry)
                            ),
                        )
                        .with_help("environment variable names are letters, digits and `_`, not starting with a digit"),
                    );
                    continue;
                }
            };
            if names.contains(&name) {
                self.push(Finding::new(
                    &ENV_DUPLICATE,
                    node.span,
                    node.pointer.clone(),
                    format!("{prefix}: envPassthrough[{j}]: {} repeats `{name}` (names are trimmed and upper-cased)", quote(entry)),
                ).with_help("remove the duplicate"));
                continue;
            }
            match env::danger(&name) {
                Some(env::Danger::Denied) => self.push(
                    Finding::new(
                        &ENV_DENIED,
                        node.span,
                        node.pointer.clone(),
                        format!("{prefix}: envPassthrough[{j}]: `{name}` is never passed to a tool: it decides which program runs or what it loads"),
                    )
                    .with_help("toolsmith's runtime sets a fixed PATH and refuses PATH, IFS, LD_*, DYLD_*, BASH_ENV, ENV and PROMPT_COMMAND; remove the entry"),
                ),
                Some(env::Danger::Risky) => self.push(Finding::new(
                    &ENV_RISKY,
                    node.span,
                    node.pointer.clone(),
                    format!("{prefix}: envPassthrough[{j}]: `{name}` changes how shell scripts run"),
                )),
                None => {}
            }
            names.push(name);
        }
        names
    }

    /// Rules 5–8 on `command[0]`; returns the resolved program.
    fn program(&mut self, prefix: &str, cmd0: &str, node: &Node) -> Option<PathBuf> {
        let finding = |rule: &'static Rule, message: String| {
            Finding::new(rule, node.span, node.pointer.clone(), message)
        };
        let norm = match program::check(cmd0) {
            Program::Absolute => {
                self.push(
                    finding(
                        &ABSOLUTE_COMMAND,
                        format!("{prefix}: command[0] {} is absolute; goagent accepts it unchecked (meant for tests)", quote(cmd0)),
                    )
                    .with_help("ship the program next to the manifest under ./tools/bin/"),
                );
                return Some(PathBuf::from(cmd0));
            }
            Program::Ok { norm } => norm,
            Program::Parent => {
                self.push(finding(
                    &COMMAND_PARENT,
                    format!("{prefix}: command[0] must not start with '..' or escape tools/bin (got {})", quote(cmd0)),
                ).with_help("keep the program inside ./tools/bin/ next to tools.json"));
                return None;
            }
            Program::EscapesBin { norm } => {
                self.push(finding(
                    &COMMAND_ESCAPES_BIN,
                    format!(
                        "{prefix}: command[0] escapes ./tools/bin after normalization (got {} -> {})",
                        quote(cmd0),
                        quote(&norm)
                    ),
                ).with_help("name a file directly inside ./tools/bin/, without `..`"));
                return None;
            }
            Program::NotInBin { norm } => {
                let base = norm.rsplit('/').next().unwrap_or(&norm);
                self.push(finding(
                    &COMMAND_NOT_IN_BIN,
                    format!("{prefix}: relative command[0] must start with ./tools/bin/"),
                ).with_help(format!(
                    "relative programs live under ./tools/bin/ next to tools.json, e.g. \"./tools/bin/{base}\""
                )));
                return None;
            }
        };
        let relative = norm.trim_start_matches("./");
        match std::path::absolute(self.dir.join(relative)) {
            Ok(path) => Some(path),
            Err(e) => {
                self.push(finding(
                    &COMMAND_RESOLVE,
                    format!("{prefix}: resolve command[0]: {e}"),
                ));
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> (Document, Option<Manifest>) {
        let mut doc = Document::from_text("tools.json", Path::new("/m/tools.json"), text);
        doc.parse_json();
        let manifest = check(&mut doc, &Options::default());
        (doc, manifest)
    }

    fn first(text: &str) -> Option<String> {
        let (doc, _) = run(text);
        reference_error(&doc.diagnostics()).map(|d| d.message.clone())
    }

    #[test]
    fn reference_order_is_decode_then_tool_index_then_rule() {
        // The command comes first in the text, the env entry first in the reference's order.
        assert_eq!(
            first(r#"{"tools":[{"command":["echo"],"name":"a","envPassthrough":["1BAD"]},{"command":[]}]}"#).as_deref(),
            Some(r#"tool[0] "a": envPassthrough[0]: invalid name "1BAD" (must match [A-Z_][A-Z0-9_]*)"#)
        );
        // Tool 0 before tool 1, whatever the rule.
        assert_eq!(
            first(r#"{"tools":[{"name":"a","command":["echo"]},{"command":["./tools/bin/b"]}]}"#)
                .as_deref(),
            Some(r#"tool[0] "a": relative command[0] must start with ./tools/bin/"#)
        );
        // A decoding error anywhere fails the whole file first.
        assert_eq!(
            first(r#"{"tools":[{"name":"a","command":["echo"]},{"name":"b","command":["./tools/bin/b"],"timeoutSec":1.5}]}"#).as_deref(),
            Some("parse manifest: json: cannot unmarshal number 1.5 into Go struct field ToolSpec.tools.timeoutSec of type int")
        );
        // Warnings and toolsmith-only errors are never the reference's error.
        assert_eq!(
            first(
                r#"{"tools":[{"name":"a","command":["/bin/a"],"schema":{"type":"strin"},"envPassthrough":["PATH"]}]}"#
            ),
            None
        );
    }

    #[test]
    fn collects_every_reference_error_not_only_the_first() {
        let (doc, _) = run(
            r#"{"tools":[{"command":[]},{"name":"x","command":["../x"]},{"name":"x","command":["./tools/bin/../x"]}]}"#,
        );
        let rules: Vec<&str> = doc
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .map(|f| f.rule.id)
            .collect();
        assert_eq!(
            rules,
            vec![
                "agentcli/name-required",
                "agentcli/command-empty",
                "agentcli/command-parent",
                "agentcli/duplicate-name",
                "agentcli/command-escapes-bin",
            ]
        );
    }

    #[test]
    fn builds_the_command_model() {
        let (doc, manifest) = run(
            r#"{"TOOLS":[{"name":"t","description":"","command":["./tools//bin/t","-v"],"timeoutSec":7,"envPassthrough":["tz"," TZ","oai_key"],"schema":{"type":"object","properties":{"a":{"type":"string"}}}},{"name":"u","command":["/usr/bin/u"],"timeoutSec":-3}]}"#,
        );
        assert!(!doc.has_errors(), "{:?}", doc.findings);
        let manifest = manifest.expect("a model");
        assert_eq!(manifest.dialect, Dialect::Agentcli);
        let [t, u] = manifest.tools.as_slice() else {
            panic!("two tools expected: {:?}", manifest.tools);
        };
        assert_eq!(t.description, None);
        assert_eq!(t.parameters["properties"]["a"]["type"], "string");
        let Execution::Command(c) = &t.execution else {
            panic!("command execution expected");
        };
        assert_eq!(c.command, vec!["./tools//bin/t", "-v"]);
        assert_eq!(c.program, PathBuf::from("/m/tools/bin/t"));
        assert_eq!(c.timeout_sec, Some(7));
        assert_eq!(c.env_passthrough, vec!["TZ", "OAI_KEY"]);
        assert_eq!(u.parameters, json!({"type": "object", "properties": {}}));
        let Execution::Command(c) = &u.execution else {
            panic!("command execution expected");
        };
        assert_eq!(c.program, PathBuf::from("/usr/bin/u"));
        assert_eq!(c.timeout_sec, None);
    }

    #[test]
    fn tools_with_errors_are_left_out_of_the_model() {
        let (_, manifest) = run(
            r#"{"tools":[{"name":"ok","command":["./tools/bin/ok"]},{"name":"bad","command":["bad"]}]}"#,
        );
        let names: Vec<String> = manifest
            .expect("a model")
            .tools
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(names, vec!["ok"]);
        let (doc, manifest) = run("[]");
        assert!(manifest.is_none());
        assert_eq!(
            doc.findings[0].message,
            "parse manifest: json: cannot unmarshal array into Go value of type tools.Manifest"
        );
    }
}

//! agentcli (goagent) `tools.json`: `{"tools": [{name, description, schema,
//! command, timeoutSec, envPassthrough}]}`, as goagent's `LoadManifest`
//! (`internal/tools/manifest.go`) reads it.
//!
//! Every rule of goagent's `LoadManifest` is reproduced with its exact message
//! (Go `%q` quoting included), but all findings are collected instead of the
//! first only. [`REFERENCE_RULES`] lists those rules in the reference's check
//! order and [`reference_error`] picks, from a run's diagnostics, the error
//! goagent itself would print. Beyond the reference: `schema` must be a valid
//! draft 2020-12 object schema, an absolute `command[0]` is a warning, keys Go
//! ignores or matches only case-insensitively are warnings, and names that
//! toolsmith's runtime never passes through `envPassthrough` are errors.
//!
//! This file is the driver: it walks the manifest and each tool
//! ([`check`]) and builds the model. The rules live by family, each file
//! with its `Rule` statics and checks: [`fields`] (Go decoding, unknown and
//! case-mismatched keys), [`name`], [`command`] (with the lexical algorithm
//! in [`program`]), [`env`](mod@env) (`envPassthrough`) and [`defaults`] (`schema`,
//! `timeoutSec`); `agentcli/no-tools` is checked here.

mod checker;
pub mod command;
pub mod defaults;
pub mod env;
pub mod fields;
pub mod go;
pub mod name;
pub mod program;
pub mod scanner;

use crate::diagnostic::{Diagnostic, Finding};
use crate::document::Document;
use crate::model::{CommandExecution, Dialect, Execution, Manifest, Origin, Tool};
use crate::options::Options;
use crate::rules::{Rule, Severity};
use crate::schema::{self, SchemaCheck};
use crate::tree::Node;
use checker::Checker;
use fields::TOOL_FIELDS;
use go::{GoType, quote};
use serde_json::json;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

pub use command::{
    ABSOLUTE_COMMAND, COMMAND_EMPTY, COMMAND_ESCAPES_BIN, COMMAND_NOT_IN_BIN, COMMAND_PARENT,
    COMMAND_RESOLVE,
};
pub use defaults::{SCHEMA_MISSING, TIMEOUT_NEGATIVE};
pub use env::{ENV_DENIED, ENV_DUPLICATE, ENV_EMPTY, ENV_INVALID, ENV_RISKY};
pub use fields::{DECODE, KEY_CASE, UNKNOWN_KEY};
pub use name::{DUPLICATE_NAME, NAME_REQUIRED, NAME_WHITESPACE};

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
    &fields::DECODE,
    &name::NAME_REQUIRED,
    &name::DUPLICATE_NAME,
    &command::COMMAND_EMPTY,
    &env::ENV_EMPTY,
    &env::ENV_INVALID,
    &command::COMMAND_PARENT,
    &command::COMMAND_ESCAPES_BIN,
    &command::COMMAND_NOT_IN_BIN,
    &command::COMMAND_RESOLVE,
];

/// agentcli rules.
pub static RULES: &[&Rule] = &[
    &fields::DECODE,
    &name::NAME_REQUIRED,
    &name::DUPLICATE_NAME,
    &command::COMMAND_EMPTY,
    &env::ENV_EMPTY,
    &env::ENV_INVALID,
    &command::COMMAND_PARENT,
    &command::COMMAND_ESCAPES_BIN,
    &command::COMMAND_NOT_IN_BIN,
    &command::COMMAND_RESOLVE,
    &command::ABSOLUTE_COMMAND,
    &fields::UNKNOWN_KEY,
    &fields::KEY_CASE,
    &name::NAME_WHITESPACE,
    &defaults::SCHEMA_MISSING,
    &defaults::TIMEOUT_NEGATIVE,
    &env::ENV_DUPLICATE,
    &env::ENV_DENIED,
    &env::ENV_RISKY,
    &NO_TOOLS,
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
        limiter: Default::default(),
        errors_left_out: 0,
    };
    let tools = checker.manifest(root);
    let mut findings = checker.findings;
    findings.extend(checker.limiter.summaries());
    doc.findings.extend(findings);
    let mut tools = tools?;
    for tool in &mut tools {
        tool.origin.source = Some(Arc::clone(&doc.source));
    }
    let unusable = unusable(root, &tools);
    Some(Manifest {
        dialect: Dialect::Agentcli,
        path: doc.path.clone(),
        inputs: vec![doc.path.clone()],
        tools,
        allowlist: BTreeMap::new(),
        unusable,
    })
}

/// Adds goagent's own text to the finding that refuses a file as JSON, for an
/// agentcli manifest: goagent decodes with Go's `encoding/json`, whose
/// scanner words its errors differently (`parse manifest: invalid character
/// '"' after object key:value pair`, `parse manifest: unexpected end of JSON
/// input`). The first error of `json/syntax`, `input/bom`, `input/binary`
/// or `input/empty` gets ``(goagent: `parse manifest: …`)`` appended when Go's
/// scanner refuses the text too. Nothing is added when Go accepts the text
/// (toolsmith is stricter about lone surrogate escapes and control
/// characters) or when the text is not the whole file (invalid UTF-8, over
/// the size limit).
///
/// ```
/// use toolsmith_manifest::dialect::agentcli::annotate_syntax_error;
/// use toolsmith_manifest::document::Document;
/// let mut doc = Document::from_bytes("tools.json", "tools.json".as_ref(), b"{\"tools\": [}", 1024);
/// doc.parse_json();
/// annotate_syntax_error(&mut doc);
/// assert!(doc.findings[0].message.ends_with(
///     "(goagent: `parse manifest: invalid character '}' looking for beginning of value`)"
/// ));
/// ```
pub fn annotate_syntax_error(doc: &mut Document) {
    const PARTIAL: &[&str] = &["input/invalid-utf8", "input/too-large", "input/unreadable"];
    const REFUSALS: &[&str] = &["json/syntax", "input/bom", "input/binary", "input/empty"];
    if doc.findings.iter().any(|f| PARTIAL.contains(&f.rule.id)) {
        return;
    }
    let Some((_, message)) = scanner::syntax_error(doc.source.text().as_bytes()) else {
        return;
    };
    let refusal = doc
        .findings
        .iter_mut()
        .filter(|f| REFUSALS.contains(&f.rule.id) && f.severity == Severity::Error)
        .min_by_key(|f| f.span.start);
    if let Some(f) = refusal {
        f.message = format!("{} (goagent: `parse manifest: {message}`)", f.message);
    }
}

/// True when text that did not parse still looks like an agentcli manifest:
/// it starts with `{` and has a `tools` key and a `command` or `schema` key
/// (ASCII case ignored, as Go matches keys), but no `execution`,
/// `allowlist` or `parameters` key (chai and describe files). Keys are found
/// by a tolerant scan: a string followed by `:`.
///
/// ```
/// use toolsmith_manifest::dialect::agentcli::looks_like_agentcli;
/// assert!(looks_like_agentcli(r#"{"tools": [{"name": "a", "command": ["x"] "schema": {}}]}"#));
/// assert!(!looks_like_agentcli(r#"{"tools": [{"name": "a", "parameters": {}],}"#));
/// ```
pub fn looks_like_agentcli(text: &str) -> bool {
    let text = text.trim_start_matches('\u{feff}').trim_start();
    if !text.starts_with('{') {
        return false;
    }
    let bytes = text.as_bytes();
    let (mut tools, mut agentcli, mut other) = (false, false, false);
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'"' {
            i += 1;
            continue;
        }
        let start = i + 1;
        let mut j = start;
        while j < bytes.len() && bytes[j] != b'"' {
            j += if bytes[j] == b'\\' { 2 } else { 1 };
        }
        let key = &bytes[start..j.min(bytes.len())];
        i = j + 1;
        let is_key = bytes
            .get(i..)
            .and_then(|rest| rest.iter().find(|b| !b.is_ascii_whitespace()))
            == Some(&b':');
        if !is_key {
            continue;
        }
        let is = |name: &str| key.eq_ignore_ascii_case(name.as_bytes());
        tools |= is("tools");
        agentcli |= is("command") || is("schema");
        other |= is("execution") || is("allowlist") || is("parameters");
    }
    tools && agentcli && !other
}

/// The names of declared tools that are not in `tools` (keys matched as Go
/// matches them, [`go::key_matches`]; the last duplicate key wins).
fn unusable(root: &Node, tools: &[Tool]) -> Vec<String> {
    fn get<'n>(node: &'n Node, key: &str) -> Option<&'n Node> {
        node.as_object()?
            .iter()
            .rev()
            .find(|m| go::key_matches(&m.key, key))
            .map(|m| &m.value)
    }
    let elements = get(root, "tools")
        .and_then(Node::as_array)
        .unwrap_or_default();
    let mut names: Vec<String> = Vec::new();
    for name in elements.iter().filter_map(|e| get(e, "name")?.as_str()) {
        if !name.is_empty()
            && !tools.iter().any(|t| t.name == name)
            && !names.iter().any(|n| n == name)
        {
            names.push(name.to_string());
        }
    }
    names
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

impl<'a> Checker<'a> {
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
                tools_node.map_or((root.span, String::new()), |n| (n.span, n.pointer()));
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
                node.pointer(),
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
        let before = (self.findings.len(), self.errors_left_out);

        // The reference rules, in order.
        let anchor = name_f.value().unwrap_or(node);
        let prefix = format!("tool[{i}] {}", quote(&name));
        if name.is_empty() && name_ok {
            self.push(
                Finding::new(
                    &NAME_REQUIRED,
                    anchor.span,
                    anchor.pointer(),
                    format!("tool[{i}]: name is required"),
                )
                .with_help("give the tool a non-empty `name`: it is what the model calls"),
            );
        } else if !name.is_empty() {
            if name.trim().is_empty() {
                self.push(Finding::new(
                    &NAME_WHITESPACE,
                    anchor.span,
                    anchor.pointer(),
                    format!("{prefix}: the name is only whitespace"),
                ));
            }
            match seen.get(&name) {
                Some(first) => self.push(
                    Finding::new(
                        &DUPLICATE_NAME,
                        anchor.span,
                        anchor.pointer(),
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
                    at.pointer(),
                    format!("{prefix}: command must have at least program name"),
                )
                .with_help("`command` is the argv: the program, then fixed arguments, e.g. [\"./tools/bin/NAME\"]"),
            );
        }
        let env_passthrough = self.env(&prefix, &env);
        let program = match command.items.first() {
            // A `null` element is Go's "" (see `Strings`) and is checked as such.
            Some((cmd0, cmd0_node)) if cmd0_node.as_str().is_some() || cmd0_node.is_null() => {
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
                        at.pointer(),
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
                at.pointer(),
                format!("{prefix}: timeoutSec {t} is negative, so the default timeout applies"),
            ));
        }

        if self.errors_left_out > before.1
            || self.findings[before.0..]
                .iter()
                .any(|f| f.severity == Severity::Error)
            || name.is_empty()
            || !name_ok
        {
            return None;
        }
        let parameters = match schema_f.value() {
            Some(s) if s.as_object().is_some() => s.to_value(),
            _ => json!({"type": "object", "properties": {}}),
        };
        let origin = Origin {
            source: None,
            span: node.span,
            name: name_f.value().cloned(),
            schema: schema_f
                .value()
                .filter(|s| s.as_object().is_some())
                .cloned(),
        };
        Some(Tool {
            origin,
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

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
    fn a_null_program_is_the_empty_string_as_in_go() {
        // Go decodes `null` into a string element as "", which cleans to `.`.
        assert_eq!(
            first(r#"{"tools":[{"name":"a","command":[null]}]}"#).as_deref(),
            Some(r#"tool[0] "a": relative command[0] must start with ./tools/bin/"#)
        );
        assert_eq!(
            first(r#"{"tools":[{"name":"a","command":[""]}]}"#),
            first(r#"{"tools":[{"name":"a","command":[null]}]}"#)
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

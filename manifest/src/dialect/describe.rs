//! `--describe` output of self-describing executables (shellclaw's
//! `lib/discover.sh` and `docs/PHASE5_SPEC.md`):
//! `NAME.describe.json` holding one `{name, description, parameters}` object,
//! or a catalog array of them (as `discover_tools` prints; entries may carry a
//! `path` to the executable).
//!
//! shellclaw checks only that the three keys are present; toolsmith also
//! checks their types, that `parameters` is a valid object schema, that names
//! are unique across the directory, and warns when a name is not what
//! shellclaw's `dispatch_tool` would find for the file.
//!
//! **Name and file stem.** The stem is the file name without `.describe.json`
//! (`get_weather.sh.describe.json` → `get_weather.sh`). `dispatch_tool DIR NAME`
//! runs the first executable among `DIR/NAME` and `DIR/NAME.*`, so a name
//! matches its stem when the stem is `NAME` or `NAME.` followed by any
//! extension (`get_weather` matches `get_weather.sh`, `get_weather.py`, …).

use crate::cap::Findings;
use crate::diagnostic::Finding;
use crate::document::Document;
use crate::model::{DescribeExecution, Dialect, Execution, Manifest, Origin, Tool};
use crate::options::Options;
use crate::rules::Rule;
use crate::schema::{self, SchemaCheck};
use crate::suggest::closest;
use crate::tree::Node;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `describe/not-an-object` (error): `--describe` output must be a JSON object (or a catalog array of objects).
pub static NOT_AN_OBJECT: Rule = Rule::error(
    "describe/not-an-object",
    "describe",
    "`--describe` output must be a JSON object (or a catalog array of objects)",
);
/// `describe/missing-field` (error): `name`, `description` and `parameters` are required (shellclaw skips the tool otherwise).
pub static MISSING_FIELD: Rule = Rule::error(
    "describe/missing-field",
    "describe",
    "`name`, `description` and `parameters` are required (shellclaw skips the tool otherwise)",
);
/// `describe/wrong-type` (error): `name` and `description` are strings, `parameters` an object schema, a catalog `path` a string.
pub static WRONG_TYPE: Rule = Rule::error(
    "describe/wrong-type",
    "describe",
    "`name` and `description` are strings, `parameters` an object schema, a catalog `path` a string",
);
/// `describe/empty-name` (error): a tool name is empty or only whitespace.
pub static EMPTY_NAME: Rule = Rule::error(
    "describe/empty-name",
    "describe",
    "a tool name is empty or only whitespace",
);
/// `describe/duplicate-name` (error): two describe files (or catalog entries) of one directory declare the same tool name.
pub static DUPLICATE_NAME: Rule = Rule::error(
    "describe/duplicate-name",
    "describe",
    "two describe files (or catalog entries) of one directory declare the same tool name",
);
/// `describe/name-not-stem` (warning): the described name is not the file's stem, so shellclaw's `dispatch_tool NAME` will not find the executable.
pub static NAME_NOT_STEM: Rule = Rule::warning(
    "describe/name-not-stem",
    "describe",
    "the described name is not the file's stem, so shellclaw's `dispatch_tool NAME` will not find the executable",
);
/// `describe/unknown-key` (warning): a key other than `name`, `description`, `parameters` (and `path` in a catalog) is ignored.
pub static UNKNOWN_KEY: Rule = Rule::warning(
    "describe/unknown-key",
    "describe",
    "a key other than `name`, `description`, `parameters` (and `path` in a catalog) is ignored",
);

/// describe rules.
pub static RULES: &[&Rule] = &[
    &NOT_AN_OBJECT,
    &MISSING_FIELD,
    &WRONG_TYPE,
    &EMPTY_NAME,
    &DUPLICATE_NAME,
    &NAME_NOT_STEM,
    &UNKNOWN_KEY,
];

/// The keys of `--describe` output (all required).
pub const REQUIRED: [&str; 3] = ["name", "description", "parameters"];
/// The keys of a catalog entry (`path` is optional).
pub const CATALOG_KEYS: [&str; 4] = ["name", "description", "parameters", "path"];

/// Checks the describe files of one directory together (duplicate names across files).
///
/// Returns one manifest for the directory (its `path` is the file when there
/// is one, else the directory), with every tool whose entry has no error;
/// `None` when no file could be parsed.
pub fn check(docs: &mut [Document], options: &Options) -> Option<Manifest> {
    let _ = options;
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut tools = Vec::new();
    let mut unusable: Vec<String> = Vec::new();
    let mut parsed = 0;
    for doc in docs.iter_mut() {
        let Some(root) = doc.root.as_ref() else {
            continue;
        };
        parsed += 1;
        let mut file = File {
            path: &doc.path,
            display: doc.source.path(),
            findings: Findings::new(),
            seen: &mut seen,
        };
        let entries = match root.as_array() {
            Some(entries) => entries.iter().map(|e| (e, true)).collect(),
            None => vec![(root, false)],
        };
        for (entry, catalog) in entries {
            match file.entry(entry, catalog) {
                Some(mut tool) => {
                    tool.origin.source = Some(Arc::clone(&doc.source));
                    tools.push(tool);
                }
                None => unusable.extend(
                    entry
                        .get("name")
                        .and_then(Node::as_str)
                        .filter(|n| !n.is_empty())
                        .map(str::to_string),
                ),
            }
        }
        let findings = file.findings;
        doc.findings.append(findings);
    }
    if parsed == 0 {
        return None;
    }
    let path = match docs {
        [one] => one.path.clone(),
        _ => docs
            .first()
            .and_then(|d| d.path.parent())
            .map(Path::to_path_buf)
            .unwrap_or_default(),
    };
    Some(Manifest {
        dialect: Dialect::Describe,
        path,
        inputs: docs.iter().map(|d| d.path.clone()).collect(),
        tools,
        allowlist: BTreeMap::new(),
        unusable,
    })
}

/// The file name without `.describe.json` (or `.json`).
///
/// ```
/// use toolsmith_manifest::dialect::describe::stem;
/// assert_eq!(stem("tools/get_weather.sh.describe.json".as_ref()), "get_weather.sh");
/// assert_eq!(stem("catalog.json".as_ref()), "catalog");
/// ```
pub fn stem(path: &Path) -> &str {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.strip_suffix(".describe.json")
        .or_else(|| name.strip_suffix(".json"))
        .unwrap_or(name)
}

/// Whether shellclaw's `dispatch_tool` finds a file with this stem for `name`
/// (`DIR/NAME` or `DIR/NAME.*`).
///
/// ```
/// use toolsmith_manifest::dialect::describe::name_matches_stem;
/// assert!(name_matches_stem("get_weather", "get_weather.sh"));
/// assert!(name_matches_stem("get_weather", "get_weather"));
/// assert!(!name_matches_stem("weather", "get_weather.sh"));
/// assert!(!name_matches_stem("get", "get_weather"));
/// ```
pub fn name_matches_stem(name: &str, stem: &str) -> bool {
    stem == name
        || stem
            .strip_prefix(name)
            .is_some_and(|rest| rest.starts_with('.'))
}

struct File<'a> {
    path: &'a Path,
    display: &'a str,
    findings: Findings,
    seen: &'a mut HashMap<String, String>,
}

fn describe(node: &Node) -> String {
    let text = node.to_value().to_string();
    let short: String = text.chars().take(40).collect();
    let short = if short.len() < text.len() {
        format!("{short}…")
    } else {
        short
    };
    format!("{} {short}", node.type_name())
}

impl File<'_> {
    fn push(&mut self, f: Finding) {
        self.findings.push(f);
    }

    fn errors(&self) -> usize {
        self.findings.errors()
    }

    /// One tool description; returns the tool when it has no errors.
    fn entry(&mut self, node: &Node, catalog: bool) -> Option<Tool> {
        let before = self.errors();
        let what = if catalog {
            "a catalog entry"
        } else {
            "`--describe` output"
        };
        let Some(members) = node.as_object() else {
            self.push(Finding::new(
                &NOT_AN_OBJECT,
                node.span,
                node.pointer(),
                format!(
                    "{what} must be a JSON object with `name`, `description` and `parameters`, found {}",
                    describe(node)
                ),
            ));
            return None;
        };
        let allowed: &[&str] = if catalog { &CATALOG_KEYS } else { &REQUIRED };
        for m in members {
            if allowed.contains(&m.key.as_str()) {
                continue;
            }
            let f = Finding::new(
                &UNKNOWN_KEY,
                m.key_span,
                m.value.pointer(),
                format!("unknown key `{}` in {what} is ignored", m.key),
            );
            self.push(match closest(&m.key, allowed.iter().copied()) {
                Some(s) => f.with_help(format!("did you mean `{s}`?")),
                None => f,
            });
        }
        for key in REQUIRED {
            if node.get(key).is_none() {
                self.push(
                    Finding::new(
                        &MISSING_FIELD,
                        node.span,
                        node.pointer(),
                        format!("{what} is missing the required field `{key}`"),
                    )
                    .with_help(
                        "shellclaw skips this tool: `--describe missing required fields (name, description, parameters)`",
                    ),
                );
            }
        }
        let name = self.string(node, "name");
        let description = self.string(node, "description");
        if let Some((name, at)) = &name {
            self.name(name, at, catalog);
        }
        let parameters = node.get("parameters");
        if let Some(p) = parameters {
            if p.as_object().is_some() {
                let check = SchemaCheck {
                    object_root: true,
                    allow_resolve: false,
                };
                schema::check(p, &check, &mut self.findings);
            } else {
                self.push(Finding::new(
                    &WRONG_TYPE,
                    p.span,
                    p.pointer(),
                    format!(
                        "`parameters` must be an object schema (`\"type\": \"object\"`), found {}",
                        describe(p)
                    ),
                ));
            }
        }
        let path = if catalog {
            self.string(node, "path").map(|(p, _)| p)
        } else {
            None
        };
        let (name, _) = name?;
        if self.errors() > before {
            return None;
        }
        let program = self.program(&name, path.as_deref(), catalog);
        Some(Tool {
            origin: Origin {
                source: None,
                span: node.span,
                name: node.get("name").cloned(),
                schema: parameters.cloned(),
            },
            name,
            description: description.map(|(d, _)| d),
            parameters: parameters.map(Node::to_value).unwrap_or_default(),
            execution: Execution::Describe(DescribeExecution { program }),
        })
    }

    /// A string field, reporting a wrong type.
    fn string<'n>(&mut self, node: &'n Node, key: &str) -> Option<(String, &'n Node)> {
        let value = node.get(key)?;
        match value.as_str() {
            Some(s) => Some((s.to_string(), value)),
            None => {
                self.push(Finding::new(
                    &WRONG_TYPE,
                    value.span,
                    value.pointer(),
                    format!("`{key}` must be a string, found {}", describe(value)),
                ));
                None
            }
        }
    }

    fn name(&mut self, name: &str, at: &Node, catalog: bool) {
        if name.trim().is_empty() {
            self.push(Finding::new(
                &EMPTY_NAME,
                at.span,
                at.pointer(),
                format!("tool name {name:?} is empty or only whitespace"),
            ));
            return;
        }
        if let Some(first) = self.seen.get(name) {
            let f = Finding::new(
                &DUPLICATE_NAME,
                at.span,
                at.pointer(),
                format!("duplicate tool name \"{name}\": {first} already describes it"),
            )
            .with_help("tool names must be unique in a directory: the model calls tools by name");
            self.push(f);
        } else {
            self.seen.insert(name.to_string(), self.display.to_string());
        }
        let stem = stem(self.path);
        let file = self
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(stem);
        if !catalog && !name_matches_stem(name, stem) {
            self.push(
                Finding::new(
                    &NAME_NOT_STEM,
                    at.span,
                    at.pointer(),
                    format!(
                        "tool name \"{name}\" does not match the file name `{file}`: shellclaw's dispatch_tool looks for `{name}` or `{name}.*`"
                    ),
                )
                .with_help(format!("rename the executable to `{name}` (or `{name}.<ext>`), or describe it as \"{}\"", stem.split('.').next().unwrap_or(stem))),
            );
        }
    }

    /// The executable: the file path without `.describe.json`, a catalog
    /// entry's `path` (relative to the catalog's directory), or the directory + name.
    fn program(&self, name: &str, path: Option<&str>, catalog: bool) -> PathBuf {
        let dir = self.path.parent().unwrap_or(Path::new(""));
        let program = match (catalog, path) {
            (false, _) => dir.join(stem(self.path)),
            (true, Some(p)) => dir.join(p),
            (true, None) => dir.join(name),
        };
        std::path::absolute(&program).unwrap_or(program)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(path: &str, text: &str) -> Document {
        let mut d = Document::from_text(path, Path::new(path), text);
        d.parse_json();
        d
    }

    const PARAMS: &str = r#""parameters": {"type": "object", "properties": {}}"#;

    #[test]
    fn one_manifest_per_directory_with_the_program_of_each_tool() {
        let mut docs = vec![
            doc(
                "/d/get_weather.sh.describe.json",
                &format!(r#"{{"name": "get_weather", "description": "w", {PARAMS}}}"#),
            ),
            doc(
                "/d/catalog.describe.json",
                &format!(
                    r#"[{{"name": "a", "description": "a", {PARAMS}, "path": "bin/a.py"}}, {{"name": "b", "description": "b", {PARAMS}}}]"#
                ),
            ),
        ];
        let m = check(&mut docs, &Options::default()).expect("a manifest");
        assert!(
            docs.iter().all(|d| d.findings.is_empty()),
            "{:?}",
            docs[0].findings
        );
        assert_eq!(m.dialect, Dialect::Describe);
        assert_eq!(m.path, PathBuf::from("/d"));
        let programs: Vec<(String, PathBuf)> = m
            .tools
            .iter()
            .map(|t| match &t.execution {
                Execution::Describe(d) => (t.name.clone(), d.program.clone()),
                other => panic!("describe execution expected, got {other:?}"),
            })
            .collect();
        assert_eq!(
            programs,
            vec![
                ("get_weather".into(), PathBuf::from("/d/get_weather.sh")),
                ("a".into(), PathBuf::from("/d/bin/a.py")),
                ("b".into(), PathBuf::from("/d/b")),
            ]
        );
    }

    #[test]
    fn duplicates_across_files_and_stem_mismatches() {
        let mut docs = vec![
            doc(
                "/d/x.describe.json",
                &format!(r#"{{"name": "x", "description": "x", {PARAMS}}}"#),
            ),
            doc(
                "/d/y.describe.json",
                &format!(r#"{{"name": "x", "description": "x", {PARAMS}}}"#),
            ),
        ];
        let m = check(&mut docs, &Options::default()).expect("a manifest");
        assert!(docs[0].findings.is_empty());
        let rules: Vec<&str> = docs[1].findings.iter().map(|f| f.rule.id).collect();
        assert_eq!(
            rules,
            vec!["describe/duplicate-name", "describe/name-not-stem"]
        );
        assert_eq!(
            docs[1].findings[0].message,
            "duplicate tool name \"x\": /d/x.describe.json already describes it"
        );
        // The duplicate is an error: only the first tool is in the model.
        assert_eq!(m.tools.len(), 1);
    }

    #[test]
    fn nothing_parsed_means_no_manifest() {
        let mut docs = vec![doc("/d/z.describe.json", "{")];
        assert!(check(&mut docs, &Options::default()).is_none());
    }
}

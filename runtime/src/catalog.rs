//! Discovery of self-describing tools: `--describe` on every executable of a
//! directory, under the same limits as a call.

use crate::policy::Policy;
use crate::process::{self, CancelToken, Spec};
use crate::program;
use serde_json::{Value, json};
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use toolsmith_manifest::document::Document;
use toolsmith_model::model::{self, DescribeExecution, Execution};

/// One discovered tool.
#[derive(Debug, Clone, PartialEq)]
pub struct CatalogEntry {
    /// The described name (the name the model calls).
    pub name: String,
    /// The described description.
    pub description: String,
    /// The described parameter schema.
    pub parameters: Value,
    /// The canonical path of the executable.
    pub path: PathBuf,
}

impl CatalogEntry {
    /// The dialect-neutral model of this tool.
    pub fn to_tool(&self) -> model::Tool {
        model::Tool {
            name: self.name.clone(),
            description: Some(self.description.clone()),
            parameters: self.parameters.clone(),
            execution: Execution::Describe(DescribeExecution {
                program: self.path.clone(),
            }),
            origin: model::Origin::default(),
        }
    }
}

/// The tools discovered in one directory; only these can be dispatched (default-deny).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Catalog {
    /// The valid tools, in file-name order.
    pub entries: Vec<CatalogEntry>,
    /// One line per skipped executable, saying why.
    pub warnings: Vec<String>,
}

impl Catalog {
    /// Discovers the tools of `dir` with the default policy's limits.
    pub fn discover(dir: &Path) -> std::io::Result<Catalog> {
        Catalog::discover_with(dir, &Policy::default())
    }

    /// Discovers the tools of `dir`: runs `FILE --describe` on every
    /// executable regular file (no dotfiles; symlinks must stay inside `dir`)
    /// with the policy's helper timeout, output cap, cleared environment and
    /// no stdin; validates the output with the describe rules; skips broken
    /// tools with a warning.
    pub fn discover_with(dir: &Path, policy: &Policy) -> std::io::Result<Catalog> {
        let root = dir.canonicalize()?;
        let mut files: Vec<PathBuf> = std::fs::read_dir(&root)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| !n.to_string_lossy().starts_with('.'))
            })
            .collect();
        files.sort();
        let mut catalog = Catalog::default();
        for file in files {
            let executable = file
                .metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
            if !executable {
                continue;
            }
            let base = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match describe(&file, &root, policy) {
                Ok(entry) if catalog.entries.iter().any(|e| e.name == entry.name) => {
                    catalog.warnings.push(format!(
                        "skipping {base}: duplicate tool name {:?}",
                        entry.name
                    ))
                }
                Ok(entry) => catalog.entries.push(entry),
                Err(why) => catalog.warnings.push(format!("skipping {base} ({why})")),
            }
        }
        Ok(catalog)
    }

    /// The catalog as the JSON array `toolsmith discover` prints.
    pub fn to_json(&self) -> Value {
        Value::Array(
            self.entries
                .iter()
                .map(|e| json!({"name": e.name, "description": e.description, "parameters": e.parameters}))
                .collect(),
        )
    }

    /// The entry of a tool.
    pub fn get(&self, name: &str) -> Option<&CatalogEntry> {
        self.entries.iter().find(|e| e.name == name)
    }
}

/// Runs and validates one `--describe`.
fn describe(file: &Path, root: &Path, policy: &Policy) -> Result<CatalogEntry, String> {
    let path = program::resolve_within(file, root).map_err(|e| e.to_string())?;
    let mut env = vec![("PATH".to_string(), OsString::from(&policy.path))];
    env.extend(
        policy
            .set_env
            .iter()
            .filter(|(k, _)| !crate::policy::is_denied_env(k))
            .map(|(k, v)| (k.clone(), OsString::from(v))),
    );
    let spec = Spec {
        program: path.clone(),
        args: vec!["--describe".into()],
        env,
        stdin: None,
        cwd: policy.working_dir.clone(),
        home: policy.home.clone(),
        timeout: policy.helper_timeout,
        max_output: policy.max_output,
        drain: policy.drain(),
        kill_group_on_exit: policy.kill_group_on_exit,
        confine: policy.confine.clone(),
        read_roots: Vec::new(),
        write_roots: Vec::new(),
    };
    let outcome =
        process::execute(&spec, &CancelToken::new(), &mut |_| {}).map_err(|e| e.to_string())?;
    if !outcome.is_success() {
        return Err(format!("--describe {}", outcome.failure_text()));
    }
    if outcome.truncated {
        return Err("--describe output too large".into());
    }
    if outcome.stdout.trim().is_empty() {
        return Err("--describe returned empty output".into());
    }
    check_rules(file, &outcome.stdout)?;
    let value: Value = serde_json::from_str(&outcome.stdout)
        .map_err(|e| format!("--describe output is not valid JSON: {e}"))?;
    let name = value.get("name").and_then(Value::as_str);
    let description = value.get("description").and_then(Value::as_str);
    let parameters = value.get("parameters").filter(|p| p.is_object());
    let (Some(name), Some(description), Some(parameters)) = (name, description, parameters) else {
        return Err("--describe missing required fields (name, description, parameters)".into());
    };
    if name.is_empty() || name.contains(['/', '\\', '\0']) || name.contains("..") {
        return Err(format!("invalid tool name {name:?}"));
    }
    Ok(CatalogEntry {
        name: name.to_string(),
        description: description.to_string(),
        parameters: parameters.clone(),
        path,
    })
}

/// Applies the linter's describe rules to the output; errors skip the tool.
fn check_rules(file: &Path, text: &str) -> Result<(), String> {
    let stem = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let virtual_path = file.with_file_name(format!("{stem}.describe.json"));
    let display = format!("{stem} --describe");
    let mut docs = vec![Document::from_text(&display, &virtual_path, text)];
    if let Some(doc) = docs.first_mut() {
        doc.parse_json();
    }
    let _ = toolsmith_manifest::dialect::describe::check(&mut docs, &Default::default());
    let errors: Vec<String> = docs
        .iter()
        .flat_map(|d| d.diagnostics())
        .filter(|d| d.severity == toolsmith_manifest::diagnostic::Severity::Error)
        .map(|d| d.to_string())
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

//! The tools `toolsmith serve` offers: the manifests and catalogs named on
//! the command line, each loaded into a [`Runtime`] of its own (a chai
//! allowlist stays with its skill), listed in the shape of
//! `toolsmith export --to mcp` with annotations from the risk policy.

use crate::commands::run::{discover, is_manifest};
use crate::render::{self, Format};
use crate::walk;
use rmcp::model::{Tool as McpTool, ToolAnnotations};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use toolsmith::manifest::diagnostic::Diagnostics;
use toolsmith::manifest::lint::{self, FileKind, classify};
use toolsmith::manifest::provider::export::{self, Request, Target};
use toolsmith::model::model::Tool;
use toolsmith::{Audit, LoadError, Policy, Risk, RiskPolicy, Runtime};

/// How every runtime of a tool set is made.
#[derive(Debug, Clone)]
pub struct Config {
    /// The policy from the command-line options (each manifest adds its allowlist to a copy).
    pub policy: Policy,
    /// Which calls need a confirmation; also the source of the annotations.
    pub risk: RiskPolicy,
    /// The audit file (`--audit`), opened in append mode by every runtime.
    pub audit: Option<PathBuf>,
}

/// The loaded tools: what `tools/list` returns and which runtime runs each.
#[derive(Debug)]
pub struct ToolSet {
    /// The `tools/list` entries, in command-line and file order.
    pub listed: Vec<McpTool>,
    /// Tool name → index in `runtimes`.
    routes: HashMap<String, usize>,
    runtimes: Vec<Arc<Runtime>>,
    /// A runtime without tools: a call of an unknown name is refused (and
    /// audited) by it, as `toolsmith run` refuses one.
    fallback: Arc<Runtime>,
    /// The files and directories whose change means a reload (`--watch`).
    pub watched: Vec<PathBuf>,
}

/// A loaded tool set and what to tell the user about it (on stderr).
#[derive(Debug)]
pub struct Loaded {
    /// The tools.
    pub set: ToolSet,
    /// Warnings: passthrough variables, skipped executables, tools that the
    /// MCP rules leave out (rendered findings).
    pub warnings: Vec<String>,
}

/// Where tools come from.
enum Source {
    /// A chai, agentcli or describe manifest file.
    Manifest(PathBuf),
    /// A directory (or one file) of self-describing executables.
    Catalog(PathBuf),
}

impl ToolSet {
    /// Loads every path: a manifest file, a skill directory (`tools.json`),
    /// a directory of skills (every `tools.json` and `*.tools.json` below
    /// it), or a directory (or file) of self-describing executables. Any
    /// manifest with an error, or a tool name declared twice, fails the load.
    pub fn load(paths: &[PathBuf], config: &Config) -> Result<Loaded, String> {
        let mut warnings = Vec::new();
        let mut watched: Vec<PathBuf> = Vec::new();
        let mut runtimes: Vec<Runtime> = Vec::new();
        // Tool, runtime index, where it was declared.
        let mut tools: Vec<(Tool, usize, String)> = Vec::new();
        for path in paths {
            if path.is_dir() {
                watched.push(path.clone());
            }
            for source in sources(path)? {
                let Part {
                    rt,
                    tools: found,
                    files,
                    warnings: skipped,
                } = match source {
                    Source::Manifest(file) => load_manifest(&file, &config.policy)?,
                    Source::Catalog(dir) => load_catalog(&dir, &config.policy)?,
                };
                watched.extend(files);
                warnings.extend(skipped);
                warnings.extend(rt.warnings().iter().cloned());
                let origin = path.display().to_string();
                tools.extend(
                    found
                        .into_iter()
                        .map(|t| (t, runtimes.len(), origin.clone())),
                );
                runtimes.push(rt);
            }
        }
        let mut routes = HashMap::new();
        for (tool, index, origin) in &tools {
            if let Some(&other) = routes.get(&tool.name) {
                let first = tools
                    .iter()
                    .find(|(t, i, _)| t.name == tool.name && *i == other)
                    .map_or("", |(_, _, o)| o.as_str());
                return Err(format!(
                    "the tool name `{}` is declared twice (in {first} and in {origin}); an MCP server's tool names must be unique: rename one or serve them separately",
                    tool.name
                ));
            }
            routes.insert(tool.name.clone(), *index);
        }
        let models: Vec<&Tool> = tools.iter().map(|(t, _, _)| t).collect();
        let (listed, findings) = mcp_list(&models, &config.risk)?;
        warnings.extend(findings);
        // Tools the MCP rules leave out are not callable either.
        routes.retain(|name, _| listed.iter().any(|t| t.name == name.as_str()));
        let audited = |rt: Runtime| -> Result<Arc<Runtime>, String> {
            let rt = rt.with_risk(config.risk.clone());
            Ok(Arc::new(match &config.audit {
                Some(path) => rt.with_audit(
                    Audit::append_to(path)
                        .map_err(|e| format!("cannot open audit file {}: {e}", path.display()))?,
                ),
                None => rt,
            }))
        };
        let runtimes = runtimes
            .into_iter()
            .map(audited)
            .collect::<Result<Vec<_>, _>>()?;
        let fallback = audited(Runtime::new(config.policy.clone()))?;
        watched.sort();
        watched.dedup();
        Ok(Loaded {
            set: ToolSet {
                listed,
                routes,
                runtimes,
                fallback,
                watched,
            },
            warnings,
        })
    }

    /// The runtime that runs `name`, or the one that refuses it as unknown.
    pub fn runtime_for(&self, name: &str) -> (Arc<Runtime>, bool) {
        match self.routes.get(name).and_then(|&i| self.runtimes.get(i)) {
            Some(rt) => (Arc::clone(rt), true),
            None => (Arc::clone(&self.fallback), false),
        }
    }
}

/// The sources a command-line path names.
fn sources(path: &Path) -> Result<Vec<Source>, String> {
    if !path.exists() {
        return Err(format!("{}: no such file or directory", path.display()));
    }
    if is_manifest(path) {
        let file = if path.is_dir() {
            path.join("tools.json")
        } else {
            path.to_path_buf()
        };
        return Ok(vec![Source::Manifest(file)]);
    }
    if !path.is_dir() {
        return Ok(vec![Source::Catalog(path.to_path_buf())]);
    }
    let found = walk::collect(
        std::slice::from_ref(&path.to_path_buf()),
        &walk::Exclude::default(),
    );
    if let Some(e) = found.errors.first() {
        return Err(e.to_string());
    }
    let manifests: Vec<Source> = found
        .inputs
        .into_iter()
        .filter(|input| classify(&input.path) == Some(FileKind::Tools))
        .map(|input| Source::Manifest(input.path))
        .collect();
    if manifests.is_empty() {
        Ok(vec![Source::Catalog(path.to_path_buf())])
    } else {
        Ok(manifests)
    }
}

/// What one source gives.
struct Part {
    /// Its runtime.
    rt: Runtime,
    /// Its tools.
    tools: Vec<Tool>,
    /// The files and directories it was read from.
    files: Vec<PathBuf>,
    /// Executables skipped, and why.
    warnings: Vec<String>,
}

/// A manifest file.
fn load_manifest(file: &Path, policy: &Policy) -> Result<Part, String> {
    let display = file.display().to_string();
    let loaded = lint::load(file, &display, &Default::default()).map_err(|f| {
        LoadError {
            path: display,
            diagnostics: f.diagnostics.0,
        }
        .to_string()
    })?;
    let manifest = loaded.manifest;
    let mut rt = Runtime::new(policy.clone());
    rt.add_manifest(&manifest);
    let mut files = manifest.inputs.clone();
    files.push(file.to_path_buf());
    if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
        files.push(dir.to_path_buf());
    }
    Ok(Part {
        rt,
        tools: manifest.tools,
        files,
        warnings: Vec::new(),
    })
}

/// A directory (or file) of self-describing executables.
fn load_catalog(path: &Path, policy: &Policy) -> Result<Part, String> {
    let catalog = discover(path, policy)?;
    let mut rt = Runtime::new(policy.clone());
    rt.add_catalog(&catalog);
    let mut files: Vec<PathBuf> = catalog.entries.iter().map(|e| e.path.clone()).collect();
    files.push(path.to_path_buf());
    let tools = catalog.entries.iter().map(|e| e.to_tool()).collect();
    Ok(Part {
        rt,
        tools,
        files,
        warnings: catalog.warnings,
    })
}

/// The `tools/list` entries: `toolsmith export --to mcp` (a tool the MCP
/// rules refuse is left out, its finding returned as a warning), with
/// annotations from the risk policy.
fn mcp_list(tools: &[&Tool], risk: &RiskPolicy) -> Result<(Vec<McpTool>, Vec<String>), String> {
    let request = Request {
        target: Target::Mcp,
        strict: false,
        skip_incompatible: true,
    };
    let exported = export::export(tools, request).map_err(|e| e.to_string())?;
    let mut warnings = Vec::new();
    if !exported.diagnostics.is_empty() {
        let files = exported
            .diagnostics
            .iter()
            .map(|d| d.file.as_str())
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        let text = render::render(
            Format::Human,
            &Diagnostics(exported.diagnostics),
            &render::Run {
                files,
                ..render::Run::default()
            },
            false,
        );
        warnings.push(text.trim_end().to_string());
    }
    let entries = exported
        .fragment
        .as_ref()
        .and_then(|f| f.get("tools"))
        .and_then(|t| t.as_array())
        .cloned()
        .unwrap_or_default();
    let mut listed = Vec::with_capacity(entries.len());
    for entry in entries {
        let mut tool: McpTool = serde_json::from_value(entry)
            .map_err(|e| format!("internal error: an MCP export entry does not parse: {e}"))?;
        tool.annotations = Some(annotations(risk.risk(&tool.name)));
        listed.push(tool);
    }
    Ok((listed, warnings))
}

/// The hints a risk level gives: a tool the risk policy marks `safe` is
/// announced read-only; every other tool (unlisted tools are risky) may be
/// destructive. Hints only: the policy, not the host, decides what runs.
pub fn annotations(risk: Risk) -> ToolAnnotations {
    match risk {
        Risk::Safe => ToolAnnotations::new().read_only(true).destructive(false),
        Risk::Risky => ToolAnnotations::new().read_only(false).destructive(true),
    }
}

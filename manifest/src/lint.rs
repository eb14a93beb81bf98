//! Running the rules over a set of files: grouping by directory (split chai
//! layouts, describe catalogs, skills next to their tools), then sorting.

use crate::diagnostic::{Diagnostic, Diagnostics, Finding};
use crate::dialect::{self, agentcli, chai, describe, mcp, skill};
use crate::document::Document;
use crate::input;
use crate::model::{Dialect, Manifest};
use crate::rules::Severity;
use crate::source::{Source, Span};
use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use crate::options::{DialectChoice, Options, Profile};

/// A file to lint: its real path and the path to print.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Input {
    /// Printed in diagnostics (the command-line path joined with the path below it).
    pub display: String,
    /// Where to read it.
    pub path: PathBuf,
}

impl Input {
    /// An input printed as its own path.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        Input {
            display: path.display().to_string(),
            path,
        }
    }
}

/// The outcome of a run.
#[derive(Debug, Default)]
pub struct Report {
    /// All findings, sorted.
    pub diagnostics: Diagnostics,
    /// Number of files read.
    pub files: usize,
    /// The models of the manifests that were read (also those with errors, as far as they go).
    pub manifests: Vec<Manifest>,
    /// The skills that were read.
    pub skills: Vec<skill::Skill>,
    /// Skill files per profile set they were checked under (`claude-code` → 3).
    pub profiles: BTreeMap<String, usize>,
    /// The text of every skill file read, named by its display path (what
    /// a caller reads suppression comments from, without reading the file
    /// again).
    pub skill_sources: Vec<Arc<Source>>,
}

/// What a file name says a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FileKind {
    /// `tools.json`, `*.tools.json` or `*.mcp-tools.json`: chai, agentcli
    /// or an MCP tool list, told apart by shape (`*.mcp-tools.json` is
    /// always read as MCP).
    Tools,
    /// chai split layout `allowlist.json`.
    Allowlist,
    /// chai split layout `execution.json`.
    Execution,
    /// `*.describe.json`.
    Describe,
    /// `SKILL.md`, `skill.md`, `*.skill.md`.
    Skill,
}

/// Classifies a path by its file name; `None` for files toolsmith does not lint.
///
/// ```
/// use toolsmith_manifest::lint::{classify, FileKind};
/// assert_eq!(classify("a/SKILL.md".as_ref()), Some(FileKind::Skill));
/// assert_eq!(classify("x.skill.md".as_ref()), Some(FileKind::Skill));
/// assert_eq!(classify("web.tools.json".as_ref()), Some(FileKind::Tools));
/// assert_eq!(classify("github.mcp-tools.json".as_ref()), Some(FileKind::Tools));
/// assert_eq!(classify("get_weather.describe.json".as_ref()), Some(FileKind::Describe));
/// assert_eq!(classify("package.json".as_ref()), None);
/// ```
pub fn classify(path: &Path) -> Option<FileKind> {
    let name = path.file_name()?.to_str()?;
    match name {
        "tools.json" => Some(FileKind::Tools),
        "allowlist.json" => Some(FileKind::Allowlist),
        "execution.json" => Some(FileKind::Execution),
        "SKILL.md" | "skill.md" => Some(FileKind::Skill),
        _ if name.ends_with(".tools.json") || name.ends_with(".mcp-tools.json") => {
            Some(FileKind::Tools)
        }
        _ if name.ends_with(".describe.json") => Some(FileKind::Describe),
        _ if name.ends_with(".skill.md") => Some(FileKind::Skill),
        _ => None,
    }
}

/// Lints files. Files are grouped by directory so that the split chai layout,
/// describe catalogs and skills next to a `tools.json` are checked together;
/// siblings that a file needs are read from disk even when not listed.
///
/// Returns an error only for a listed file that cannot be read.
pub fn lint(inputs: &[Input], options: &Options) -> Result<Report, std::io::Error> {
    lint_in(inputs, options, &Run::default())
}

/// What one lint run looks up on disk once for all the directories it
/// lints: the host profile of each directory above a skill file
/// ([`skill::hosts::Detector`]). A program that lints many directories
/// (one [`lint_in`] call each, from several threads) shares one; keep it
/// for one run, since it does not notice files created or removed after
/// they were first looked up.
#[derive(Debug, Default)]
pub struct Run {
    /// Host profiles by directory.
    pub hosts: skill::hosts::Detector,
}

/// [`lint`] as part of `run`, which carries what earlier calls of the same
/// run found on disk.
pub fn lint_in(inputs: &[Input], options: &Options, run: &Run) -> Result<Report, std::io::Error> {
    let mut by_dir: BTreeMap<PathBuf, Vec<Input>> = BTreeMap::new();
    for input in inputs {
        let dir = input
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        by_dir.entry(dir).or_default().push(input.clone());
    }
    let mut report = Report::default();
    let mut diagnostics = Vec::new();
    for (dir, mut files) in by_dir {
        files.sort();
        files.dedup();
        let group = lint_dir(&dir, &files, options, run)?;
        report.files += group.docs.len();
        for doc in &group.docs {
            diagnostics.extend(doc.diagnostics());
        }
        report.manifests.extend(group.manifests);
        report.skills.extend(group.skills);
        report.skill_sources.extend(group.skill_sources);
        for (profile, n) in group.profiles {
            *report.profiles.entry(profile).or_default() += n;
        }
    }
    report.diagnostics = Diagnostics(diagnostics);
    report.diagnostics.sort();
    Ok(report)
}

struct Group {
    docs: Vec<Document>,
    manifests: Vec<Manifest>,
    skills: Vec<skill::Skill>,
    profiles: BTreeMap<String, usize>,
    skill_sources: Vec<Arc<Source>>,
}

/// The display path of a sibling `name` of `input`.
fn sibling(input: &Input, name: &str) -> Input {
    let path = input.path.with_file_name(name);
    let display = match input.display.rfind(['/', '\\']) {
        Some(i) => format!("{}{name}", &input.display[..=i]),
        None => name.to_string(),
    };
    Input { display, path }
}

fn kind_of(input: &Input, options: &Options) -> Option<FileKind> {
    let by_name = classify(&input.path);
    match options.dialect {
        Some(DialectChoice::Skill) => Some(FileKind::Skill),
        Some(DialectChoice::Describe) => Some(FileKind::Describe),
        Some(DialectChoice::Chai | DialectChoice::Agentcli | DialectChoice::Mcp) => match by_name {
            Some(FileKind::Allowlist | FileKind::Execution) => by_name,
            _ => Some(FileKind::Tools),
        },
        None => by_name.or(Some(FileKind::Tools)),
    }
}

fn lint_dir(
    dir: &Path,
    files: &[Input],
    options: &Options,
    run: &Run,
) -> Result<Group, std::io::Error> {
    let mut group = Group {
        docs: Vec::new(),
        manifests: Vec::new(),
        skills: Vec::new(),
        profiles: BTreeMap::new(),
        skill_sources: Vec::new(),
    };
    let mut tools_files = Vec::new();
    let mut split_parts = Vec::new();
    let mut describe_files = Vec::new();
    let mut skill_files = Vec::new();
    for input in files {
        match kind_of(input, options) {
            Some(FileKind::Tools) => tools_files.push(input.clone()),
            Some(FileKind::Allowlist | FileKind::Execution) => split_parts.push(input.clone()),
            Some(FileKind::Describe) => describe_files.push(input.clone()),
            Some(FileKind::Skill) => skill_files.push(input.clone()),
            None => {}
        }
    }
    // An allowlist.json / execution.json listed without its tools.json: lint the set.
    if let (true, Some(part)) = (tools_files.is_empty(), split_parts.first()) {
        let tools = sibling(part, "tools.json");
        if tools.path.is_file() {
            tools_files.push(tools);
        } else {
            for part in &split_parts {
                let mut doc = Document::read_json(&part.display, &part.path, options.max_size)?;
                doc.findings.push(Finding::new(
                    &chai::SPLIT_FILE_MISSING,
                    Span::default(),
                    "",
                    "this file belongs to chai's three-file layout, but tools.json is missing next to it",
                ));
                group.docs.push(doc);
            }
        }
    }
    let mut tool_names: Vec<String> = Vec::new();
    let mut chai_dir = false;
    for input in &tools_files {
        let mut doc = Document::read_json(&input.display, &input.path, options.max_size)?;
        let Some(root) = &doc.root else {
            if options.dialect == Some(DialectChoice::Agentcli)
                || (options.dialect.is_none() && agentcli::looks_like_agentcli(doc.source.text()))
            {
                agentcli::annotate_syntax_error(&mut doc);
            }
            group.docs.push(doc);
            continue;
        };
        let allowlist = sibling(input, "allowlist.json");
        let execution = sibling(input, "execution.json");
        let has_split_siblings = input.path.file_name().is_some_and(|n| n == "tools.json")
            && (allowlist.path.is_file() || execution.path.is_file());
        let forced = options.dialect;
        let dialect = match forced {
            Some(DialectChoice::Mcp) => Some(Dialect::Mcp),
            None if is_mcp_name(&input.path) => Some(Dialect::Mcp),
            Some(DialectChoice::Agentcli) => Some(Dialect::Agentcli),
            Some(DialectChoice::Chai) if root.as_array().is_some() => Some(Dialect::ChaiSplit),
            Some(DialectChoice::Chai) => Some(Dialect::ChaiLegacy),
            _ => dialect::detect(root, has_split_siblings),
        };
        let is_chai = matches!(dialect, Some(Dialect::ChaiLegacy | Dialect::ChaiSplit));
        let skill = is_chai
            .then(|| chai::skill::near(&input.path, options.max_size))
            .flatten();
        chai_dir |= is_chai;
        let manifest = match dialect {
            Some(Dialect::ChaiLegacy) => {
                chai::check_legacy_in_skill(&mut doc, options, skill.as_ref())
            }
            Some(Dialect::Agentcli) => {
                agentcli::annotate_syntax_error(&mut doc);
                agentcli::check(&mut doc, options)
            }
            Some(Dialect::ChaiSplit) => {
                let mut allow = read_optional(&allowlist, options)?;
                let mut exec = read_optional(&execution, options)?;
                let m = chai::check_split_in_skill(
                    &mut doc,
                    allow.as_mut(),
                    exec.as_mut(),
                    options,
                    skill.as_ref(),
                );
                group.docs.extend(allow);
                group.docs.extend(exec);
                m
            }
            Some(Dialect::Mcp) => mcp::check(&mut doc, options),
            Some(Dialect::Describe | Dialect::Skill) | None => {
                doc.findings.push(dialect::unknown_dialect(root));
                None
            }
        };
        if let Some(m) = manifest {
            tool_names.extend(m.tools.iter().map(|t| t.name.clone()));
            group.manifests.push(m);
        }
        group.docs.push(doc);
    }
    if !describe_files.is_empty() {
        let mut docs = Vec::new();
        for input in &describe_files {
            docs.push(Document::read_json(
                &input.display,
                &input.path,
                options.max_size,
            )?);
        }
        if let Some(m) = describe::check(&mut docs, options) {
            tool_names.extend(m.tools.iter().map(|t| t.name.clone()));
            group.manifests.push(m);
        }
        group.docs.extend(docs);
    }
    crate::provider::check_documents(&options.providers, &group.manifests, &mut group.docs);
    let siblings = (!tools_files.is_empty()).then_some(tool_names.as_slice());
    // The entries of the directory, read once for its folder skills.
    let listing = OnceCell::new();
    for input in &skill_files {
        let mut doc = Document::read(&input.display, &input.path, options.max_size)?;
        // `chai::skill::relax` drops and re-grades findings: the per-rule
        // limit applies to what it leaves.
        doc.findings.suspend();
        let folder = skill::SkillFile::of(&input.path) == skill::SkillFile::Folder;
        let entries = folder.then(|| listing.get_or_init(|| skill::directory::Listing::read(dir)));
        let profiles = skill::profiles_listed(&input.path, options, &run.hosts, entries);
        let mut checked = skill::check_under(&mut doc, profiles, siblings, entries);
        // A SKILL.md of a chai skill is read as chai reads it.
        if folder
            && (chai_dir
                || chai::skill::uses_chai_keys(&doc)
                || chai_manifest_beside(&input.path, entries, options.max_size))
        {
            chai::skill::check(&mut doc);
            chai::skill::relax(&mut doc, options);
            if let (Some(s), Some(name)) = (checked.as_mut(), chai::skill::name(&input.path)) {
                s.name = name;
            }
        }
        doc.findings.resume();
        if let Some(s) = checked {
            group.skills.push(s);
        }
        // Every finding of a skill file names the profiles it was checked under.
        for f in &mut doc.findings {
            f.profile.get_or_insert(profiles);
        }
        *group.profiles.entry(profiles.to_string()).or_default() += 1;
        group.skill_sources.push(Arc::clone(&doc.source));
        group.docs.push(doc);
    }
    Ok(group)
}

/// True for `*.mcp-tools.json`, always read as an MCP tool list.
fn is_mcp_name(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".mcp-tools.json"))
}

/// True when a chai manifest sits next to `skill_md` (the skill is linted or
/// generated alone, as `skill!` does): the split layout's files, or a
/// `tools.json` object with `execution` or `allowlist`.
/// `listing` holds the entries of the directory of `skill_md`, when read.
fn chai_manifest_beside(
    skill_md: &Path,
    listing: Option<&skill::directory::Listing>,
    max_size: u64,
) -> bool {
    let is_file = |name: &str| match listing {
        Some(l) => l.is_file(name),
        None => skill_md.with_file_name(name).is_file(),
    };
    if ["allowlist.json", "execution.json"]
        .into_iter()
        .any(&is_file)
    {
        return true;
    }
    // No tools.json (the common case) needs no attempt to open one.
    if listing.is_some() && !is_file("tools.json") {
        return false;
    }
    let tools = skill_md.with_file_name("tools.json");
    crate::input::read_bounded(&tools, max_size)
        .ok()
        .and_then(Result::ok)
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
        .is_some_and(|v| v.get("execution").is_some() || v.get("allowlist").is_some())
}

/// Reads a sibling file that may be absent.
fn read_optional(input: &Input, options: &Options) -> Result<Option<Document>, std::io::Error> {
    if !input.path.is_file() {
        return Ok(None);
    }
    Document::read_json(&input.display, &input.path, options.max_size).map(Some)
}

/// A manifest model with its warnings, as [`load`] returns it.
#[derive(Debug)]
pub struct Loaded {
    /// The model.
    pub manifest: Manifest,
    /// Warnings (never errors).
    pub warnings: Diagnostics,
}

/// A load that failed: every finding, and the part of the model that could
/// still be read.
#[derive(Debug)]
pub struct LoadFailure {
    /// Every finding, errors and warnings, sorted.
    pub diagnostics: Diagnostics,
    /// The tools that could be read (with their positions) when the file
    /// parsed; `None` after a syntax error or when it is no tool manifest.
    /// Tools with errors of their own may be in it: compare their
    /// [`Origin`](crate::model::Origin) with the diagnostics' spans.
    pub partial: Option<Box<Manifest>>,
}

impl std::fmt::Display for LoadFailure {
    /// The diagnostics, one per line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.diagnostics.fmt(f)
    }
}

impl From<LoadFailure> for Diagnostics {
    fn from(failure: LoadFailure) -> Self {
        failure.diagnostics
    }
}

/// Loads one manifest for execution or code generation: a `tools.json`
/// (chai legacy or agentcli), a directory holding chai's split files, or a
/// describe file or catalog. Any error finding fails the load; the failure
/// keeps the partial model.
///
/// An MCP tool list is refused (`mcp/runs-on-server`): its tools run on
/// their server, so there is nothing to execute. Typed bindings of an MCP
/// list (`tools!`, `toolsmith gen`) load it with [`load_for_bindings`].
///
/// `display` is the path printed in diagnostics.
pub fn load(path: &Path, display: &str, options: &Options) -> Result<Loaded, LoadFailure> {
    let loaded = load_for_bindings(path, display, options);
    let model = match &loaded {
        Ok(loaded) => Some(&loaded.manifest),
        Err(failure) => failure.partial.as_deref(),
    };
    if let Some(m) = model.filter(|m| m.dialect == Dialect::Mcp) {
        let display = if path.is_dir() {
            format!("{}/tools.json", display.trim_end_matches('/'))
        } else {
            display.to_string()
        };
        let message = format!(
            "`{display}` is an MCP tool list ({} tools): its tools run on their server, so toolsmith cannot load them to run or serve \
             (`tools!`/`toolsmith gen` generate typed bindings for it, whose calls go to the server as `tools/call` arguments)",
            m.tools.len()
        );
        return Err(LoadFailure {
            diagnostics: Diagnostics(vec![detached(&display, &mcp::RUNS_ON_SERVER, message)]),
            partial: None,
        });
    }
    loaded
}

/// [`load`] for typed bindings (`tools!`, `toolsmith gen`): the same, except
/// that an MCP tool list is accepted (its model has
/// [`Dialect::Mcp`](crate::model::Dialect::Mcp); its tools' execution is a
/// placeholder that nothing may run). Errors of the list fail the load as
/// for every dialect.
pub fn load_for_bindings(
    path: &Path,
    display: &str,
    options: &Options,
) -> Result<Loaded, LoadFailure> {
    let (path, display) = if path.is_dir() {
        (
            path.join("tools.json"),
            format!("{}/tools.json", display.trim_end_matches('/')),
        )
    } else {
        (path.to_path_buf(), display.to_string())
    };
    let input = Input {
        display: display.clone(),
        path: path.clone(),
    };
    let failure = |d: Diagnostic| LoadFailure {
        diagnostics: Diagnostics(vec![d]),
        partial: None,
    };
    let report = match lint(std::slice::from_ref(&input), options) {
        Ok(r) => r,
        Err(e) => {
            let message = format!("cannot read `{display}`: {e}");
            return Err(failure(detached(&display, &input::UNREADABLE, message)));
        }
    };
    let mut manifests = report.manifests;
    let manifest = match manifests.pop() {
        Some(manifest) if manifests.is_empty() => Some(manifest),
        _ => None,
    };
    match manifest {
        Some(manifest) if !report.diagnostics.has_errors() => Ok(Loaded {
            manifest,
            warnings: report.diagnostics,
        }),
        partial if report.diagnostics.has_errors() => Err(LoadFailure {
            diagnostics: report.diagnostics,
            partial: partial.map(Box::new),
        }),
        _ => {
            let message =
                format!("`{display}` is not a tool manifest (chai, agentcli or describe)");
            Err(failure(detached(&display, &dialect::UNKNOWN, message)))
        }
    }
}

/// Positions a finding in a file that has no text (I/O errors).
pub fn detached(display: &str, rule: &'static crate::rules::Rule, message: String) -> Diagnostic {
    let src = crate::source::Source::new(display, "");
    Finding::new(rule, Span::default(), "", message)
        .with_severity(Severity::Error)
        .locate(&src)
}

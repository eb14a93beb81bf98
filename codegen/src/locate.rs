//! Positions for the generator's findings: the input files are parsed again
//! (only when there is something to report) and each [`Place`] is found in them.

use crate::issue::{Issue, Place};
use std::path::Path;
use std::sync::Arc;
use toolsmith_manifest::diagnostic::{Diagnostic, Diagnostics, Finding};
use toolsmith_manifest::document::Document;
use toolsmith_manifest::input::DEFAULT_MAX_SIZE;
use toolsmith_manifest::source::{Source, Span};
use toolsmith_manifest::tree::Node;

/// What the places refer to.
#[derive(Debug, Clone, Copy)]
pub enum Subject<'a> {
    /// A tool manifest: the tool names, by index.
    Tools(&'a [String]),
    /// A skill: schema part 0 is `metadata.params`, part 1 `metadata.returns`.
    Skill,
}

/// One input file, read for positioning.
#[derive(Debug)]
pub struct Located {
    doc: Document,
    source: Arc<Source>,
}

impl Located {
    /// Reads `path`, shown as `display`; JSON files are parsed, skills keep
    /// the frontmatter tree that the skill check builds.
    pub fn read(display: &str, path: &Path) -> Option<Located> {
        let is_json = path.extension().is_some_and(|e| e == "json");
        let mut doc = if is_json {
            Document::read_json(display, path, DEFAULT_MAX_SIZE).ok()?
        } else {
            let mut doc = Document::read(display, path, DEFAULT_MAX_SIZE).ok()?;
            let options = toolsmith_manifest::Options::default();
            toolsmith_manifest::dialect::skill::check(&mut doc, &options, None);
            doc
        };
        doc.findings.clear();
        let source = Arc::clone(&doc.source);
        Some(Located { doc, source })
    }
}

/// Objects that may be tool entries or execution specs: the root, the
/// elements of a root array, and the elements of root `tools` / `execution` arrays.
fn entries(root: &Node) -> Vec<&Node> {
    let mut out = Vec::new();
    match root.as_array() {
        Some(items) => out.extend(items),
        None => {
            out.push(root);
            for key in ["tools", "execution"] {
                if let Some(items) = root.get(key).and_then(Node::as_array) {
                    out.extend(items);
                }
            }
        }
    }
    out
}

/// A member by key, ASCII case ignored (agentcli keys are case-insensitive).
fn get_ci<'n>(node: &'n Node, key: &str) -> Option<&'n Node> {
    node.as_object()?
        .iter()
        .rev()
        .find(|m| m.key.eq_ignore_ascii_case(key))
        .map(|m| &m.value)
}

fn entry<'n>(root: &'n Node, key: &str, name: &str, needs: &[&str]) -> Option<&'n Node> {
    entries(root).into_iter().find(|e| {
        get_ci(e, key).and_then(Node::as_str) == Some(name)
            && needs.iter().any(|n| get_ci(e, n).is_some())
    })
}

/// The span of the node at `pointer` below `node`: a property's key when the
/// parent is an object, else the value.
fn span_at(node: &Node, pointer: &str) -> Option<(Span, String)> {
    let target = node.at_pointer(pointer)?;
    if let Some((parent_pointer, last)) = pointer.rsplit_once('/') {
        let parent = node.at_pointer(parent_pointer)?;
        let key = last.replace("~1", "/").replace("~0", "~");
        if let Some(member) = parent.member(&key) {
            return Some((member.key_span, target.pointer.clone()));
        }
    }
    Some((target.span, target.pointer.clone()))
}

fn find(place: &Place, subject: Subject<'_>, root: &Node) -> Option<(Span, String)> {
    match (subject, place) {
        (Subject::Tools(names), Place::ToolName { tool }) => {
            let tool = entry(root, "name", names.get(*tool)?, &["name"])?;
            let name = get_ci(tool, "name")?;
            Some((name.span, name.pointer.clone()))
        }
        (Subject::Tools(names), Place::Schema { tool, pointer }) => {
            let entry = entry(root, "name", names.get(*tool)?, &["parameters", "schema"])?;
            let schema = get_ci(entry, "parameters").or_else(|| get_ci(entry, "schema"))?;
            span_at(schema, pointer)
        }
        (Subject::Tools(names), Place::Mapping { tool, index }) => {
            let spec = entry(root, "tool", names.get(*tool)?, &["binary"])?;
            let arg = spec.get("args")?.as_array()?.get(*index)?;
            Some((arg.span, arg.pointer.clone()))
        }
        (Subject::Skill, Place::Schema { tool, pointer }) => {
            let part = if *tool == 0 { "params" } else { "returns" };
            let schema = root.get("metadata")?.get(part)?;
            span_at(schema, pointer)
        }
        (Subject::Skill, _) => None,
    }
}

/// Positions `issues` in `files` (the first file is the fallback).
pub fn locate(issues: Vec<Issue>, subject: Subject<'_>, files: &[Located]) -> Diagnostics {
    let mut out: Vec<Diagnostic> = Vec::new();
    for issue in issues {
        let found = files.iter().find_map(|f| {
            let root = f.doc.root.as_ref()?;
            find(&issue.place, subject, root).map(|at| (f, at))
        });
        let (file, span, pointer) = match found {
            Some((f, (span, pointer))) => (Some(f), span, pointer),
            None => (files.first(), Span::default(), String::new()),
        };
        let finding = Finding::new(issue.rule, span, pointer, issue.message);
        match file {
            Some(f) => out.push(finding.locate_shared(&f.source)),
            None => out.push(finding.locate(&Source::new("", ""))),
        }
    }
    let mut diagnostics = Diagnostics(out);
    diagnostics.sort();
    diagnostics
}

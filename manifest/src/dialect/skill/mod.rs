//! `SKILL.md`, `skill.md` and `*.skill.md` frontmatter.
//!
//! The file is split into frontmatter and body ([`crate::frontmatter`]), the
//! frontmatter is parsed into a positioned tree ([`crate::yaml`]), then:
//!
//! * [`agentskills`]: the Agent Skills specification, with the messages of the
//!   reference validator `skills-ref` (profiles: vendor and unknown fields are
//!   warnings by default, errors under `--profile strict`, as is flow style);
//! * [`allowed_tools`]: the `allowed-tools` token grammar and the cross-file
//!   check against the tools.json of the same directory;
//! * [`jsfw`]: the JS framework's extension fields under `metadata`, applied to
//!   `*.skill.md` files and to any skill that uses them.

pub mod agentskills;
pub mod allowed_tools;
pub mod jsfw;

use crate::diagnostic::{Finding, Severity};
use crate::document::Document;
use crate::frontmatter;
use crate::lint::{Options, Profile};
use crate::rules::Rule;
use crate::source::Span;
use crate::tree::{Kind, Node};
use crate::yaml;
use serde_json::Value;
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// skill rules.
pub static RULES: &[&Rule] = &[
    &agentskills::NOT_A_MAPPING,
    &agentskills::UNKNOWN_FIELD,
    &agentskills::VENDOR_FIELD,
    &agentskills::MISSING_FIELD,
    &agentskills::EMPTY_FIELD,
    &agentskills::NON_STRING_SCALAR,
    &agentskills::NAME_TOO_LONG,
    &agentskills::NAME_LOWERCASE,
    &agentskills::NAME_HYPHENS,
    &agentskills::NAME_CHARACTERS,
    &agentskills::NAME_DIRECTORY,
    &agentskills::NAME_NON_ASCII,
    &agentskills::DESCRIPTION_TOO_LONG,
    &agentskills::COMPATIBILITY_TYPE,
    &agentskills::COMPATIBILITY_TOO_LONG,
    &agentskills::COMPATIBILITY_EMPTY,
    &agentskills::METADATA_TYPE,
    &agentskills::METADATA_VALUE,
    &agentskills::FLOW_STYLE,
    &allowed_tools::TYPE,
    &allowed_tools::SYNTAX,
    &allowed_tools::SPECIFIER,
    &allowed_tools::FORM,
    &allowed_tools::UNMATCHED,
    &jsfw::NAME,
    &jsfw::ROLE,
    &jsfw::VISIBILITY,
    &jsfw::TAGS,
    &jsfw::TAG_FORM,
    &jsfw::ANNOTATION,
    &jsfw::NESTED_ANNOTATION,
    &jsfw::RESOLVE,
    &jsfw::DELEGATE,
];

/// A skill as the `skill!` macro needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Skill {
    /// `name`.
    pub name: String,
    /// `description`.
    pub description: String,
    /// `allowed-tools`, normalized to a token list.
    pub allowed_tools: Vec<String>,
    /// The markdown after the frontmatter.
    pub body: String,
    /// `metadata.params` (a JSON Schema), if any.
    pub params: Option<Value>,
    /// `metadata.returns` (a JSON Schema), if any.
    pub returns: Option<Value>,
}

/// What a file's name says about the skill in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkillFile {
    /// `SKILL.md` / `skill.md`: a folder skill; its name must equal the directory's.
    Folder,
    /// `*.skill.md`: a JS framework single-file skill.
    Single,
    /// The markdown payload of an `inline://markdown,…` delegate.
    Inline,
    /// Any other name (dialect forced with `--dialect skill`).
    Other,
}

impl SkillFile {
    /// Classifies a path by its file name.
    ///
    /// ```
    /// use toolsmith_manifest::dialect::skill::SkillFile;
    /// assert_eq!(SkillFile::of("a/SKILL.md".as_ref()), SkillFile::Folder);
    /// assert_eq!(SkillFile::of("b.skill.md".as_ref()), SkillFile::Single);
    /// ```
    pub fn of(path: &Path) -> SkillFile {
        match path.file_name().and_then(|n| n.to_str()) {
            Some("SKILL.md" | "skill.md") => SkillFile::Folder,
            Some(n) if n.ends_with(".skill.md") => SkillFile::Single,
            _ => SkillFile::Other,
        }
    }
}

/// The state of one skill check.
pub(crate) struct Ctx<'a> {
    /// The text the tree's spans point into.
    pub text: &'a str,
    /// The file kind.
    pub file: SkillFile,
    /// The file name as used in messages (`SKILL.md`).
    pub label: String,
    /// The skill file's path (directory name check, delegate paths).
    pub path: PathBuf,
    /// `--profile`.
    pub profile: Profile,
    /// The JS framework rules apply.
    pub jsfw: bool,
    /// Nesting of inline delegates.
    pub depth: usize,
    /// The opening `---` (findings about missing fields).
    pub open: Span,
    /// What was found.
    pub findings: Vec<Finding>,
}

impl Ctx<'_> {
    pub fn strict(&self) -> bool {
        self.profile == Profile::Strict
    }

    /// Pushes `f`, as an error under `--profile strict`.
    pub fn push_strict(&mut self, f: Finding) {
        let strict = self.strict();
        self.findings
            .push(if strict { f.with_severity(Severity::Error) } else { f });
    }

    /// The source text of a span.
    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.start..span.end).unwrap_or("")
    }

    /// A scalar read as text, the way strictyaml reads every scalar: strings
    /// as they are, numbers, booleans and `~`/`null` as written. `None` for
    /// collections.
    pub fn scalar_text<'n>(&'n self, node: &'n Node) -> Option<Cow<'n, str>> {
        match &node.kind {
            Kind::String(s) => Some(Cow::Borrowed(s)),
            Kind::Null | Kind::Bool(_) | Kind::Number(_) => Some(Cow::Borrowed(self.slice(node.span))),
            Kind::Array(_) | Kind::Object(_) => None,
        }
    }

    /// Where a string node's value starts verbatim in the text (plain or
    /// quoted single-line scalars without escapes), for positions inside it.
    pub fn verbatim_start(&self, node: &Node) -> Option<usize> {
        let value = node.as_str()?;
        let raw = self.slice(node.span);
        if raw == value {
            return Some(node.span.start);
        }
        let inner = raw.get(1..raw.len().saturating_sub(1))?;
        (raw.len() >= 2 && inner == value).then_some(node.span.start + 1)
    }
}

/// Checks a skill file. `tools_in_dir` lists the tools declared by a
/// tools.json in the same directory (`None` when there is none).
pub fn check(
    doc: &mut Document,
    options: &Options,
    tools_in_dir: Option<&[String]>,
) -> Option<Skill> {
    if !doc.decoded {
        return None;
    }
    let file = SkillFile::of(&doc.path);
    let label = match file {
        SkillFile::Folder | SkillFile::Single => doc
            .path
            .file_name()
            .map_or_else(|| "SKILL.md".to_string(), |n| n.to_string_lossy().into_owned()),
        _ => "SKILL.md".to_string(),
    };
    let mut ctx = Ctx {
        text: doc.source.text(),
        file,
        label,
        path: doc.path.clone(),
        profile: options.profile,
        jsfw: false,
        depth: 0,
        open: Span::default(),
        findings: Vec::new(),
    };
    let checked = check_text(&mut ctx);
    if let (Some((root, skill)), Some(tools)) = (&checked, tools_in_dir) {
        allowed_tools::cross_check(&mut ctx, root, &skill.allowed_tools, tools);
    }
    doc.findings.append(&mut ctx.findings);
    let (root, skill) = checked?;
    doc.root = Some(root);
    Some(skill)
}

/// Checks `ctx.text` as a skill file: frontmatter, YAML, then the rules.
pub(crate) fn check_text(ctx: &mut Ctx<'_>) -> Option<(Node, Skill)> {
    let fm = match frontmatter::split(ctx.text, &ctx.label) {
        Ok(fm) => fm,
        Err(f) => {
            ctx.findings.push(f);
            return None;
        }
    };
    ctx.open = fm.open;
    if let Some(span) = fm.inner_delimiter {
        let f = Finding::new(
            &frontmatter::INNER_DELIMITER,
            span,
            "",
            format!("`---` inside the frontmatter: skills-ref and chai end the frontmatter here, not at line {}", line_of(ctx.text, fm.close.start)),
        )
        .with_help("rephrase the value without `---` (for example `—`)");
        ctx.push_strict(f);
    }
    let parsed = yaml::parse(fm.yaml, fm.yaml_offset);
    ctx.findings.extend(parsed.findings);
    let root = parsed.root?;
    for flow in &parsed.flow {
        let what = if flow.mapping { "mapping `{…}`" } else { "sequence `[…]`" };
        let f = Finding::new(
            &agentskills::FLOW_STYLE,
            flow.span,
            flow.pointer.clone(),
            format!("flow-style {what}: strictyaml (skills-ref) rejects it (\"Found ugly disallowed JSONesque flow mapping\")"),
        )
        .with_help("use block style (`- item` lines, `key: value` lines), or quote the value if it is text");
        ctx.push_strict(f);
    }
    if root.as_object().is_none() {
        let span = if root.is_null() { fm.open } else { root.span };
        ctx.findings.push(Finding::new(
            &agentskills::NOT_A_MAPPING,
            span,
            "",
            format!("{} frontmatter must be a YAML mapping", ctx.label),
        ));
        return None;
    }
    ctx.jsfw = matches!(ctx.file, SkillFile::Single | SkillFile::Inline) || jsfw::uses_extensions(&root);
    let (name, description) = agentskills::check(ctx, &root);
    let allowed_tools = allowed_tools::check(ctx, root.get("allowed-tools"));
    if ctx.jsfw {
        jsfw::check(ctx, &root);
    }
    let metadata = root.get("metadata");
    let schema = |key: &str| metadata.and_then(|m| m.get(key)).map(Node::to_value);
    let skill = Skill {
        name,
        description,
        allowed_tools,
        body: fm.body.to_string(),
        params: schema("params"),
        returns: schema("returns"),
    };
    Some((root, skill))
}

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset).map_or(1, |t| t.matches('\n').count() + 1)
}

/// Levenshtein distance of two short strings (`None` when either is long).
pub(crate) fn edit_distance(a: &str, b: &str) -> Option<usize> {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len() > 64 || b.len() > 64 {
        return None;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev.last().copied()
}

/// The closest of `candidates` to `word`, if it is a plausible typo.
pub(crate) fn did_you_mean<'c>(word: &str, candidates: &[&'c str]) -> Option<&'c str> {
    candidates
        .iter()
        .filter_map(|c| Some((edit_distance(word, c)?, *c)))
        .filter(|(d, c)| *d > 0 && *d <= 2 && *d < c.len())
        .min()
        .map(|(_, c)| c)
}

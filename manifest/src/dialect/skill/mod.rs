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
//!   `*.skill.md` files and to any skill that uses them;
//! * [`hosts`]: the host profiles (`claude-code`, `claude-api`, `codex`,
//!   `copilot`, `cursor`): their fields, rules and what they ignore, the
//!   profile found from where the file lives, and the one table
//!   ([`hosts::POLICIES`]) of what each profile changes;
//! * [`directory`]: links and folder paths of the body must name files inside
//!   the skill directory.

pub mod agentskills;
pub mod allowed_tools;
pub mod directory;
pub mod hosts;
pub mod jsfw;

use crate::diagnostic::Finding;
use crate::document::Document;
use crate::frontmatter;
use crate::model::Origin;
use crate::options::{Options, Profile, Profiles};
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
    &jsfw::DELEGATE,
    &hosts::RESERVED_WORD,
    &hosts::XML_TAG,
    &hosts::AGENT_WITHOUT_FORK,
    &hosts::FIELD_TYPE,
    &hosts::BODY_TOO_LONG,
    &hosts::UNRESTRICTED_SHELL,
    &directory::BROKEN_LINK,
    &directory::MISSING_PATH,
    &directory::UNREFERENCED_FILE,
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
    /// Where `metadata.params` was written (its node, the file).
    pub params_origin: Origin,
    /// Where `metadata.returns` was written.
    pub returns_origin: Origin,
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
    /// The profiles in force (named with `--profile`, or found from the path).
    pub profiles: Profiles,
    /// The JS framework rules apply.
    pub jsfw: bool,
    /// Nesting of inline delegates.
    pub depth: usize,
    /// The opening `---` (findings about missing fields).
    pub open: Span,
    /// The entries of the skill's directory, when the run has read them.
    pub listing: Option<&'a directory::Listing>,
    /// What was found.
    pub findings: Vec<Finding>,
}

impl Ctx<'_> {
    /// True when `strict` is among the profiles.
    pub fn strict(&self) -> bool {
        self.profiles.contains(Profile::Strict)
    }

    /// Pushes `f` with its rule's default severity; the profiles' verdicts
    /// ([`hosts::POLICIES`]: an error under `strict`, …) are applied when the
    /// file is done.
    pub fn push_strict(&mut self, f: Finding) {
        self.findings.push(f);
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
            Kind::Null | Kind::Bool(_) | Kind::Number(_) => {
                Some(Cow::Borrowed(self.slice(node.span)))
            }
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
    let profiles = profiles_for(&doc.path, options);
    check_under(doc, profiles, tools_in_dir, None)
}

/// [`check`] under `profiles` already found (a lint run finds them once per
/// file with its [`hosts::Detector`]), with the entries of the file's
/// directory when the run has read them.
pub(crate) fn check_under(
    doc: &mut Document,
    profiles: Profiles,
    tools_in_dir: Option<&[String]>,
    listing: Option<&directory::Listing>,
) -> Option<Skill> {
    if !doc.decoded {
        return None;
    }
    let file = SkillFile::of(&doc.path);
    let label = match file {
        SkillFile::Folder | SkillFile::Single => doc.path.file_name().map_or_else(
            || "SKILL.md".to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
        _ => "SKILL.md".to_string(),
    };
    let mut ctx = Ctx {
        text: doc.source.text(),
        file,
        label,
        path: doc.path.clone(),
        profiles,
        jsfw: false,
        depth: 0,
        open: Span::default(),
        listing,
        findings: Vec::new(),
    };
    let checked = check_text(&mut ctx);
    if let (Some((root, skill)), Some(tools)) = (&checked, tools_in_dir) {
        allowed_tools::cross_check(&mut ctx, root, &skill.allowed_tools, tools);
    }
    doc.findings
        .extend(hosts::apply(std::mem::take(&mut ctx.findings), profiles));
    let (root, mut skill) = checked?;
    // Claude Code names a skill without `name` after its directory.
    if skill.name.is_empty()
        && file == SkillFile::Folder
        && profiles.contains(Profile::ClaudeCode)
        && root.get("name").is_none()
        && let Some(dir) = doc.path.parent().and_then(Path::file_name)
    {
        skill.name = dir.to_string_lossy().into_owned();
    }
    doc.root = Some(root);
    for origin in [&mut skill.params_origin, &mut skill.returns_origin] {
        origin.source = Some(std::sync::Arc::clone(&doc.source));
    }
    Some(skill)
}

/// The profiles a skill file is checked under: those named in `options`,
/// else the one found from where the file lives ([`hosts::detect`]).
pub fn profiles_for(path: &Path, options: &Options) -> Profiles {
    if options.profile.is_detect() {
        hosts::detect(path).into()
    } else {
        options.profile
    }
}

/// [`profiles_for`], detecting with `hosts` (one lint run's answers).
pub fn profiles_with(path: &Path, options: &Options, hosts: &hosts::Detector) -> Profiles {
    profiles_listed(path, options, hosts, None)
}

/// [`profiles_with`], with the entries of the file's directory when read.
pub(crate) fn profiles_listed(
    path: &Path,
    options: &Options,
    hosts: &hosts::Detector,
    listing: Option<&directory::Listing>,
) -> Profiles {
    if options.profile.is_detect() {
        hosts.detect_listed(path, listing).into()
    } else {
        options.profile
    }
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
    for span in frontmatter::trailing_whitespace(fm.yaml, fm.yaml_offset) {
        ctx.findings.push(
            Finding::new(
                &frontmatter::TRAILING_WHITESPACE,
                span,
                "",
                "trailing whitespace at the end of a frontmatter line",
            )
            .with_help("remove it"),
        );
    }
    let parsed = yaml::parse(fm.yaml, fm.yaml_offset);
    ctx.findings.extend(parsed.findings);
    let root = parsed.root?;
    for flow in &parsed.flow {
        let what = if flow.mapping {
            "mapping `{…}`"
        } else {
            "sequence `[…]`"
        };
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
    ctx.jsfw =
        matches!(ctx.file, SkillFile::Single | SkillFile::Inline) || jsfw::uses_extensions(&root);
    let (name, description) = agentskills::check(ctx, &root);
    let allowed_tools = allowed_tools::check(ctx, root.get("allowed-tools"));
    if ctx.jsfw {
        jsfw::check(ctx, &root);
    }
    if ctx.depth == 0 && ctx.file != SkillFile::Inline {
        hosts::check(ctx, &root, fm.body, fm.body_offset);
    }
    if ctx.depth == 0 && ctx.file == SkillFile::Folder {
        directory::check(ctx, fm.body, fm.body_offset);
    }
    let metadata = root.get("metadata");
    let schema = |key: &str| metadata.and_then(|m| m.get(key));
    let origin = |key: &str| Origin {
        schema: schema(key).cloned(),
        ..Origin::default()
    };
    let skill = Skill {
        name,
        description,
        allowed_tools,
        body: fm.body.to_string(),
        params: schema("params").map(Node::to_value),
        returns: schema("returns").map(Node::to_value),
        params_origin: origin("params"),
        returns_origin: origin("returns"),
    };
    Some((root, skill))
}

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .map_or(1, |t| t.matches('\n').count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::DEFAULT_MAX_SIZE;
    use crate::rules::Severity;

    fn run(
        path: &str,
        text: &str,
        profile: Profile,
        tools: Option<&[String]>,
    ) -> (Document, Option<Skill>) {
        let mut doc =
            Document::from_bytes(path, Path::new(path), text.as_bytes(), DEFAULT_MAX_SIZE);
        let options = Options {
            profile: profile.into(),
            ..Options::default()
        };
        let skill = check(&mut doc, &options, tools);
        (doc, skill)
    }

    fn found(doc: &Document) -> Vec<(&'static str, Severity)> {
        let mut v: Vec<_> = doc
            .findings
            .iter()
            .map(|f| (f.rule.id, f.severity))
            .collect();
        v.sort();
        v
    }

    const VENDOR: &str = "---\nname: demo\ndescription: Demo.\nargument-hint: [file]\n---\nBody\n";

    #[test]
    fn vendor_fields_and_flow_style_are_warnings_by_default_errors_under_strict() {
        let (doc, skill) = run("s/demo/SKILL.md", VENDOR, Profile::Default, None);
        assert_eq!(
            found(&doc),
            [
                ("skill/flow-style", Severity::Warning),
                ("skill/vendor-field", Severity::Warning)
            ]
        );
        assert_eq!(skill.unwrap().body, "Body\n");
        let (doc, _) = run("s/demo/SKILL.md", VENDOR, Profile::Strict, None);
        assert_eq!(
            found(&doc),
            [
                ("skill/flow-style", Severity::Error),
                ("skill/vendor-field", Severity::Error)
            ]
        );
    }

    #[test]
    fn every_scalar_is_text_as_in_strictyaml() {
        let text = "---\nname: 123\ndescription: true\n---\n";
        let (doc, skill) = run("s/123/SKILL.md", text, Profile::Strict, None);
        assert!(!doc.has_errors(), "{:?}", doc.findings);
        let skill = skill.unwrap();
        assert_eq!(
            (skill.name.as_str(), skill.description.as_str()),
            ("123", "true")
        );
        assert_eq!(
            found(&doc),
            [
                ("skill/non-string-scalar", Severity::Warning),
                ("skill/non-string-scalar", Severity::Warning)
            ]
        );
    }

    #[test]
    fn nfkc_names_match_their_directory() {
        // U+FF41 FULLWIDTH a normalizes to `a`.
        let text = "---\nname: \u{ff41}bc\ndescription: D.\n---\n";
        let (doc, skill) = run("s/abc/SKILL.md", text, Profile::Strict, None);
        assert!(!doc.has_errors(), "{:?}", doc.findings);
        assert_eq!(skill.unwrap().name, "\u{ff41}bc");
    }

    #[test]
    fn inner_delimiter_is_an_error_under_strict() {
        let text = "---\nname: a\ndescription: x --- y\n---\n";
        let (doc, _) = run("s/a/SKILL.md", text, Profile::Strict, None);
        assert_eq!(
            found(&doc),
            [("frontmatter/inner-delimiter", Severity::Error)]
        );
    }

    #[test]
    fn allowed_tools_are_normalized_and_checked_against_the_directory() {
        let text = "---\nname: a\ndescription: D.\nallowed-tools: git_* , Bash(npm run test:*) missing\n---\n";
        let tools = ["git_status".to_string(), "Bash".to_string()];
        let (doc, skill) = run("s/a/SKILL.md", text, Profile::Default, Some(&tools));
        assert_eq!(
            skill.unwrap().allowed_tools,
            ["git_*", "Bash(npm run test:*)", "missing"]
        );
        assert_eq!(
            found(&doc),
            [("skill/allowed-tool-unmatched", Severity::Warning)]
        );
        let f = &doc.findings[0];
        assert_eq!(&text[f.span.start..f.span.end], "missing");
        // Under strict the comma form is reported (a warning: skills-ref accepts it).
        let (doc, _) = run("s/a/SKILL.md", text, Profile::Strict, None);
        assert_eq!(
            found(&doc),
            [("skill/allowed-tools-form", Severity::Warning)]
        );
    }

    #[test]
    fn params_and_returns_are_returned_as_json() {
        let text = "---\nname: t\nmetadata:\n  params:\n    type: object\n    properties:\n      q:\n        type: string\n  returns:\n    type: string\n---\n";
        let (doc, skill) = run("s/t.skill.md", text, Profile::Default, None);
        assert!(!doc.has_errors(), "{:?}", doc.findings);
        let skill = skill.unwrap();
        assert_eq!(
            skill.params,
            Some(serde_json::json!({"type": "object", "properties": {"q": {"type": "string"}}}))
        );
        assert_eq!(skill.returns, Some(serde_json::json!({"type": "string"})));
    }

    #[test]
    fn oversized_files_are_refused_with_a_finding() {
        let mut doc =
            Document::from_bytes("SKILL.md", Path::new("SKILL.md"), b"---\nname: a\n---\n", 4);
        assert!(check(&mut doc, &Options::default(), None).is_none());
        assert_eq!(doc.findings[0].rule.id, "input/too-large");
    }

    #[test]
    fn base64_nesting_is_bounded() {
        use base64::Engine;
        let mut value = "inline://code,export default async function () {}".to_string();
        for _ in 0..20 {
            value = format!(
                "inline://base64,{}",
                base64::engine::general_purpose::STANDARD.encode(&value)
            );
        }
        let text = format!("---\nname: t\nmetadata:\n  delegate: \"{value}\"\n---\n");
        let (doc, _) = run("s/t.skill.md", &text, Profile::Default, None);
        assert_eq!(found(&doc), [("skill/jsfw-delegate", Severity::Error)]);
        assert!(doc.findings[0].message.contains("deeper than 8"));
    }
}

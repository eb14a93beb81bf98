//! A `SKILL.md` inside a chai skill directory, read the way chai v0.5 reads
//! it (fb29f89): `name` is not read (the directory is
//! authoritative), unknown keys and YAML errors are ignored, and
//! `metadata.requires.bins` is a flat list or a list of OR-groups whose
//! index `condition.binGroup` names.
//!
//! Its Agent Skills portability findings are warnings under the default
//! profile (chai loads the skill regardless); `--profile strict` keeps
//! skills-ref's verdicts.

use crate::diagnostic::Finding;
use crate::document::Document;
use crate::frontmatter;
use crate::options::{Options, Profile};
use crate::rules::{Rule, Severity};
use crate::tree::Node;
use crate::yaml;
use std::path::Path;

pub static BINS_INVALID: Rule = Rule::warning(
    "chai/skill-bins-invalid",
    "chai",
    "`metadata.requires.bins` in a chai skill's SKILL.md is neither a list of strings nor a list of OR-groups: chai drops the error silently and loads the skill unconditionally",
);

/// What chai reads from a skill's `SKILL.md` that matters to its tools.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChaiSkill {
    /// `metadata.requires.bins`.
    pub bins: Bins,
}

/// `metadata.requires.bins` as chai v0.5 parses it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Bins {
    /// Absent, empty, or unparsable (chai then loads the skill unconditionally).
    #[default]
    None,
    /// A list of strings: all required; `condition` is ignored (the spec is kept).
    Flat(Vec<String>),
    /// A list of lists: the first group whose binaries are all on `PATH` wins.
    Groups(Vec<Vec<String>>),
}

impl ChaiSkill {
    /// The OR-groups (empty unless `bins` is in OR-group form).
    pub fn groups(&self) -> &[Vec<String>] {
        match &self.bins {
            Bins::Groups(g) => g,
            _ => &[],
        }
    }
}

/// Reads the `SKILL.md` next to `tools_json`, if there is one (a file that
/// cannot be read or parsed gives the default, as in chai).
pub fn near(tools_json: &Path, max_size: u64) -> Option<ChaiSkill> {
    let path = tools_json.with_file_name("SKILL.md");
    let bytes = crate::input::read_bounded(&path, max_size).ok()?.ok()?;
    let text = String::from_utf8(bytes).ok()?;
    Some(read(&text))
}

/// Reads the frontmatter of a `SKILL.md` text.
///
/// ```
/// use toolsmith_manifest::dialect::chai::skill::{read, Bins};
/// let s = read("---\nmetadata:\n  requires:\n    bins: [[\"cargo\"], [\"nix\"]]\n---\n");
/// assert_eq!(s.bins, Bins::Groups(vec![vec!["cargo".into()], vec!["nix".into()]]));
/// assert_eq!(read("---\nname: x\n---\n").bins, Bins::None);
/// ```
pub fn read(text: &str) -> ChaiSkill {
    let Ok(fm) = frontmatter::split(text, "SKILL.md") else {
        return ChaiSkill::default();
    };
    let parsed = yaml::parse(fm.yaml, fm.yaml_offset);
    let bins = parsed
        .root
        .as_ref()
        .and_then(|r| r.get("metadata"))
        .and_then(|m| m.get("requires"))
        .and_then(|r| r.get("bins"))
        .map_or(Bins::None, bins);
    ChaiSkill { bins }
}

fn strings(node: &Node) -> Option<Vec<String>> {
    node.as_array()?
        .iter()
        .map(|n| n.as_str().map(str::to_string))
        .collect()
}

fn bins(node: &Node) -> Bins {
    let Some(items) = node.as_array() else {
        return Bins::None;
    };
    if items.is_empty() {
        return Bins::None;
    }
    if let Some(flat) = strings(node) {
        return Bins::Flat(flat);
    }
    let groups: Option<Vec<Vec<String>>> = items.iter().map(strings).collect();
    groups.map_or(Bins::None, Bins::Groups)
}

/// True when a parsed `SKILL.md` uses a top-level key only chai reads
/// (`capability_tier`, `variant_of`): a chai skill without tools.
pub fn uses_chai_keys(doc: &Document) -> bool {
    doc.root
        .as_ref()
        .is_some_and(|r| r.get("capability_tier").is_some() || r.get("variant_of").is_some())
}

/// chai's error for a `bins` value it cannot read, and the node it concerns.
fn bins_error(bins: &Node) -> Option<(&Node, String)> {
    let items = bins.as_array()?;
    let first = items.first()?;
    if first.as_str().is_some() {
        let bad = items.iter().find(|i| i.as_str().is_none())?;
        return Some((bad, "expected string in bins list".to_string()));
    }
    if first.as_array().is_none() {
        return Some((
            first,
            format!(
                "expected string or array in bins list, got {}",
                first.type_name()
            ),
        ));
    }
    for group in items {
        let Some(members) = group.as_array() else {
            return Some((group, "expected array in bins OR-group".to_string()));
        };
        if let Some(bad) = members.iter().find(|m| m.as_str().is_none()) {
            return Some((bad, "expected string in bins group".to_string()));
        }
    }
    None
}

/// Checks the chai-specific keys of a parsed chai `SKILL.md`: a `bins`
/// value chai cannot read.
pub fn check(doc: &mut Document) {
    let Some(bins) = doc
        .root
        .as_ref()
        .and_then(|r| r.get("metadata"))
        .and_then(|m| m.get("requires"))
        .and_then(|r| r.get("bins"))
    else {
        return;
    };
    let Some((node, error)) = bins_error(bins) else {
        return;
    };
    let finding = Finding::new(
        &BINS_INVALID,
        node.span,
        node.pointer(),
        format!("metadata.requires.bins: {error}; chai discards this error and loads the skill whatever binaries are installed (`condition` is then ignored)"),
    )
    .with_help("write a list of binaries (`bins: [\"git\"]`) or a list of OR-groups (`bins: [[\"cargo\"], [\"nix\"]]`)");
    doc.findings.push(finding);
}

/// The skill's name as chai reads it: its directory's name (`name` is not read).
pub fn name(skill_md: &Path) -> Option<String> {
    Some(skill_md.parent()?.file_name()?.to_str()?.to_string())
}

/// True for an Agent Skills finding about a key chai itself defines:
/// `capability_tier` and `variant_of` are not unknown to chai, and
/// `metadata.requires.bins` is a mapping holding a (flow-style) list in
/// chai's own documentation.
fn about_chai_keys(f: &Finding) -> bool {
    match f.rule.id {
        "skill/unknown-field" => matches!(f.pointer.as_str(), "/capability_tier" | "/variant_of"),
        "skill/metadata-value" => f.pointer == "/metadata/requires",
        "skill/flow-style" => f.pointer.starts_with("/metadata/requires/bins"),
        _ => false,
    }
}

/// Under every profile but `strict`, reads a `SKILL.md` in a chai skill
/// directory as chai does: findings about chai's own keys are dropped, and
/// the other Agent Skills errors become warnings (chai does not read
/// `name`, ignores unknown keys and loads the skill whatever skills-ref
/// says).
pub fn relax(doc: &mut Document, options: &Options) {
    if options.profile.contains(Profile::Strict) {
        return;
    }
    doc.findings.retain(|f| !about_chai_keys(f));
    for f in &mut doc.findings {
        if f.rule.dialect == "skill" && f.severity == Severity::Error {
            f.severity = Severity::Warning;
            let note = "chai loads this SKILL.md regardless (it reads only `description`, `capability_tier`, `variant_of` and `metadata.requires.bins`; the directory names the skill); this matters for other Agent Skills clients";
            f.help = Some(match f.help.take() {
                Some(h) => format!("{h} ({note})"),
                None => note.to_string(),
            });
        }
    }
}

//! Host profiles: what Claude Code, the Claude API upload, Codex, GitHub
//! Copilot and Cursor accept in a `SKILL.md`, on top of the Agent Skills
//! rules of [`super::agentskills`].
//!
//! Every check pushes its finding with the rule's default severity; then
//! [`apply`] looks each finding up in [`POLICIES`], the one table of what a
//! profile changes (a severity, or "not reported"), and with several
//! profiles at once keeps the most severe verdict and names the profiles
//! behind it. `toolsmith rules --profile NAME` prints the same table.
//!
//! Sources (read 2026-11-24; the hosts' pages cannot be fetched from this
//! machine, so the project's reference documents stand in for them):
//! `shared/reference/dialects.md` §6.1 (spec, body guidance), §6.4 (Claude
//! platform upload refusals), §6.5 (Claude Code extension fields), §9 D20/D27,
//! and issue 13 (Claude Code's changelog: `disallowed-tools`, `display-name`,
//! `default-enabled`, `fallback`; `agent` needs `context: fork`; a list in
//! `argument-hint` crashed Claude Code before 2.1.47; Codex ignores unknown
//! fields).

use super::Ctx;
use super::directory::Listing;
use crate::diagnostic::{Finding, Severity};
use crate::options::{Profile, Profiles};
use crate::rules::Rule;
use crate::source::Span;
use crate::tree::{Kind, Node};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};

pub static RESERVED_WORD: Rule = Rule::error(
    "skill/reserved-word",
    "skill",
    "the skill name holds a reserved word (`claude`, `anthropic`): the Claude platform refuses the upload (a warning under `claude-code`)",
);
pub static XML_TAG: Rule = Rule::error(
    "skill/xml-tag",
    "skill",
    "`name` or `description` holds an XML tag: the Claude platform refuses the upload (a warning under `claude-code`)",
);
pub static AGENT_WITHOUT_FORK: Rule = Rule::warning(
    "skill/agent-without-fork",
    "skill",
    "`agent` is set without `context: fork`: Claude Code ignores it",
);
pub static FIELD_TYPE: Rule = Rule::error(
    "skill/field-type",
    "skill",
    "a host field holds another YAML type than the host reads (a list where a string is read, a string where a boolean is read)",
);
pub static BODY_TOO_LONG: Rule = Rule::warning(
    "skill/body-too-long",
    "skill",
    "the body is longer than the documented guidance (500 lines)",
);
pub static UNRESTRICTED_SHELL: Rule = Rule::note(
    "skill/unrestricted-shell",
    "skill",
    "`allowed-tools` pre-approves a shell without restricting its commands (`Bash`, `Bash(*)`): the host runs any command without asking",
);

/// The documented body guidance: "under 500 lines" (dialects.md §6.1).
pub const MAX_BODY_LINES: usize = 500;

/// A YAML type a host reads for a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    /// A string.
    Text,
    /// `true` / `false`.
    Bool,
    /// A mapping.
    Map,
    /// A string or a list of strings.
    TextOrList,
    /// Documented, type not documented: not checked.
    Any,
}

impl FieldType {
    fn name(self) -> &'static str {
        match self {
            FieldType::Text => "a string",
            FieldType::Bool => "a boolean (`true` or `false`)",
            FieldType::Map => "a mapping",
            FieldType::TextOrList => "a string or a list of strings",
            FieldType::Any => "any value",
        }
    }
}

/// Claude Code's fields beyond the spec, with the types it reads
/// (dialects.md §6.5; the last four from its changelog, issue 13).
pub const CLAUDE_CODE_FIELDS: &[(&str, FieldType)] = &[
    ("argument-hint", FieldType::Text),
    ("disable-model-invocation", FieldType::Bool),
    ("user-invocable", FieldType::Bool),
    ("model", FieldType::Text),
    ("effort", FieldType::Text),
    ("context", FieldType::Text),
    ("agent", FieldType::Text),
    ("hooks", FieldType::Map),
    ("paths", FieldType::TextOrList),
    ("shell", FieldType::Text),
    ("when_to_use", FieldType::Text),
    ("disallowed-tools", FieldType::TextOrList),
    ("display-name", FieldType::Text),
    ("default-enabled", FieldType::Bool),
    ("fallback", FieldType::Any),
];

/// One host profile, as the README table and `toolsmith rules --profile` show it.
#[derive(Debug)]
pub struct Host {
    /// The profile.
    pub profile: Profile,
    /// Where the host finds skills (what auto-detection looks for).
    pub location: &'static str,
    /// The fields it reads beyond the spec's six.
    pub fields: &'static str,
    /// What it enforces, and what it ignores.
    pub rules: &'static str,
    /// Where this comes from, with the date it was read.
    pub source: &'static str,
}

/// The date the sources were read.
pub const READ_ON: &str = "2026-11-24";

/// Every profile, with its fields, rules and sources.
pub static HOSTS: &[Host] = &[
    Host {
        profile: Profile::Default,
        location: "anywhere else",
        fields: "the spec's six; Claude Code's fields are known (a `skill/vendor-field` warning)",
        rules: "the Agent Skills spec: violations are errors, unknown and vendor fields warnings, body over 500 lines a warning, unrestricted shell in `allowed-tools` a note (the spec calls them pre-approved)",
        source: "dialects.md §6.1, §6.2, §9 D20 (agentskills/agentskills:docs/specification.mdx)",
    },
    Host {
        profile: Profile::Strict,
        location: "never detected",
        fields: "the spec's six only",
        rules: "the verdict of `skills-ref validate`: unknown and vendor fields, flow-style YAML and an inner `---` are errors; the directory checks are warnings (skills-ref reads only the frontmatter)",
        source: "dialects.md §6.2 (skills-ref @ 69ef37e, a real run on the corpus)",
    },
    Host {
        profile: Profile::ClaudeCode,
        location: "`.claude/skills/`, or below a `.claude-plugin/plugin.json`",
        fields: "argument-hint, disable-model-invocation, user-invocable, model, effort, context, agent, hooks, paths, shell, when_to_use, disallowed-tools, display-name, default-enabled, fallback; `allowed-tools` also as a YAML list",
        rules: "field types checked (errors); `name` missing or not the directory's name a warning (the directory names the skill); reserved words and XML tags warnings; `agent` without `context: fork` a warning; unrestricted shell a note (`allowed-tools` run without asking)",
        source: "dialects.md §6.4, §6.5, §9 D27; issue 13 (Claude Code changelog: the four newer fields, `agent`/`context: fork`, the `argument-hint` list crash before 2.1.47)",
    },
    Host {
        profile: Profile::ClaudeApi,
        location: "never detected (uploads)",
        fields: "the spec's six; other fields are warnings",
        rules: "reserved words `claude`/`anthropic` in `name` and XML tags in `name`/`description` are errors (the upload refuses them); the spec's rules otherwise",
        source: "dialects.md §6.4, §8 (Claude platform rules)",
    },
    Host {
        profile: Profile::Codex,
        location: "`.codex/skills/`, `.agents/skills/`",
        fields: "the spec's six; others are ignored (warnings)",
        rules: "`name` and `description` required; the spec's rules",
        source: "issue 13 (Codex says it ignores unknown fields); dialects.md §6.1",
    },
    Host {
        profile: Profile::Copilot,
        location: "`.github/skills/`",
        fields: "the spec's six; others are ignored (warnings)",
        rules: "`name` and `description` required; the spec's rules",
        source: "issue 13; dialects.md §6.1",
    },
    Host {
        profile: Profile::Cursor,
        location: "`.cursor/`",
        fields: "the spec's six; others are ignored (warnings)",
        rules: "`name` and `description` required; the spec's rules",
        source: "issue 13; dialects.md §6.1",
    },
];

/// The entry of `profile` in [`HOSTS`].
pub fn host(profile: Profile) -> &'static Host {
    HOSTS
        .iter()
        .find(|h| h.profile == profile)
        .unwrap_or(&HOSTS[0])
}

const E: Option<Severity> = Some(Severity::Error);
const W: Option<Severity> = Some(Severity::Warning);
const N: Option<Severity> = Some(Severity::Note);
const OFF: Option<Severity> = None;

/// How the profiles change one rule.
#[derive(Debug)]
pub struct Policy {
    /// The rule id.
    pub rule: &'static str,
    /// Only findings about this field (matched on the pointer or the
    /// message's last word); `None` for all.
    pub field: Option<&'static str>,
    /// The severity per profile, in [`Profile::ALL`] order; `None`: not reported.
    pub severity: [Option<Severity>; 7],
    /// Why.
    pub why: &'static str,
}

/// Every profile-dependent rule. Rules not listed keep their default
/// severity under every profile.
pub static POLICIES: &[Policy] = &[
    //                                     default strict claude-code claude-api codex copilot cursor
    Policy {
        rule: "skill/unknown-field",
        field: None,
        severity: [W, E, W, W, W, W, W],
        why: "skills-ref rejects unknown fields; the hosts ignore them",
    },
    Policy {
        rule: "skill/vendor-field",
        field: None,
        severity: [W, E, OFF, W, W, W, W],
        why: "Claude Code reads its own fields; skills-ref rejects them; other hosts ignore them",
    },
    Policy {
        rule: "skill/flow-style",
        field: None,
        severity: [W, E, OFF, W, W, W, W],
        why: "skills-ref's strictyaml rejects flow style; Claude Code reads YAML lists (a list where it reads a string is `skill/field-type`)",
    },
    Policy {
        rule: "frontmatter/inner-delimiter",
        field: None,
        severity: [W, E, W, W, W, W, W],
        why: "skills-ref ends the frontmatter at the first `---`",
    },
    Policy {
        rule: "skill/missing-field",
        field: Some("name"),
        severity: [E, E, W, E, E, E, E],
        why: "Claude Code names a skill without `name` after its directory",
    },
    Policy {
        rule: "skill/name-directory",
        field: None,
        severity: [E, E, W, E, E, E, E],
        why: "Claude Code accepts a `name` that differs from the directory",
    },
    Policy {
        rule: "skill/reserved-word",
        field: None,
        severity: [OFF, OFF, W, E, OFF, OFF, OFF],
        why: "the Claude platform refuses the upload; Claude Code loads the skill",
    },
    Policy {
        rule: "skill/xml-tag",
        field: None,
        severity: [OFF, OFF, W, E, OFF, OFF, OFF],
        why: "the Claude platform refuses the upload; Claude Code loads the skill",
    },
    Policy {
        rule: "skill/agent-without-fork",
        field: None,
        severity: [OFF, OFF, W, OFF, OFF, OFF, OFF],
        why: "a Claude Code field: `agent` only takes effect with `context: fork`",
    },
    Policy {
        rule: "skill/field-type",
        field: None,
        severity: [OFF, OFF, E, OFF, OFF, OFF, OFF],
        why: "Claude Code's fields and the types it reads",
    },
    Policy {
        rule: "skill/unrestricted-shell",
        field: None,
        severity: [N, OFF, N, OFF, OFF, OFF, OFF],
        why: "Claude Code (and the spec's `pre-approved` wording) runs `allowed-tools` without asking; the other hosts document no such behaviour",
    },
    Policy {
        rule: "skill/broken-link",
        field: None,
        severity: [E, W, E, E, E, E, E],
        why: "`strict` is skills-ref's verdict, which reads only the frontmatter",
    },
];

/// The severity of `rule` under `profile` for a finding about `field`
/// (`None`: not reported).
///
/// ```
/// use toolsmith_manifest::dialect::skill::hosts::severity_of;
/// use toolsmith_manifest::{Profile, Severity};
/// assert_eq!(severity_of("skill/reserved-word", "", Profile::ClaudeApi), Some(Severity::Error));
/// assert_eq!(severity_of("skill/reserved-word", "", Profile::Codex), None);
/// assert_eq!(severity_of("skill/missing-field", "name", Profile::ClaudeCode), Some(Severity::Warning));
/// assert_eq!(severity_of("skill/missing-field", "description", Profile::ClaudeCode), Some(Severity::Error));
/// ```
pub fn severity_of(rule: &str, field: &str, profile: Profile) -> Option<Severity> {
    let default = crate::registry::find(rule).map(|r| r.severity);
    policy(rule, field)
        .map(|p| p.severity[profile as usize])
        .unwrap_or(default)
}

fn policy(rule: &str, field: &str) -> Option<&'static Policy> {
    POLICIES
        .iter()
        .find(|p| p.rule == rule && p.field.is_none_or(|f| f == field))
}

/// The field a finding is about: its pointer's first token, or for a
/// missing field the last word of the message (`…: name`).
fn field_of(f: &Finding) -> &str {
    let from_pointer = f.pointer.trim_start_matches('/').split('/').next();
    match from_pointer {
        Some(p) if !p.is_empty() => p,
        _ => f.message.rsplit(' ').next().unwrap_or(""),
    }
}

/// Applies the profiles to the findings of one skill file: drops what no
/// profile reports, sets the most severe verdict, names the profiles behind
/// it when there are several, and stamps every finding with the profiles.
/// Findings whose severity a check set on purpose (not the rule's default)
/// are kept as they are.
pub(crate) fn apply(findings: Vec<Finding>, profiles: Profiles) -> Vec<Finding> {
    let mut out = Vec::with_capacity(findings.len());
    for mut f in findings {
        f.profile = Some(profiles);
        let pol = policy(f.rule.id, field_of(&f));
        if f.severity != f.rule.severity || pol.is_none() {
            out.push(f);
            continue;
        }
        let per: Vec<(Profile, Severity)> = profiles
            .iter()
            .filter_map(|p| pol.and_then(|pol| pol.severity[p as usize]).map(|s| (p, s)))
            .collect();
        let Some(top) = per.iter().map(|(_, s)| *s).min() else {
            continue;
        };
        if top != f.rule.severity
            && let Some(pol) = pol
        {
            f.help = Some(match f.help.take() {
                Some(h) => format!("{h} ({})", pol.why),
                None => pol.why.to_string(),
            });
        }
        f.severity = top;
        if profiles.len() > 1 {
            let mut parts = Vec::new();
            for sev in [Severity::Error, Severity::Warning, Severity::Note] {
                let names: Vec<&str> = per
                    .iter()
                    .filter(|(_, s)| *s == sev)
                    .map(|(p, _)| p.name())
                    .collect();
                if !names.is_empty() {
                    parts.push(format!("{sev} under {}", names.join(", ")));
                }
            }
            f.message = format!("{} ({})", f.message, parts.join("; "));
        }
        out.push(f);
    }
    out
}

/// The profile of a skill file from where it lives: the nearest of
/// `.claude/skills/` or a directory holding `.claude-plugin/plugin.json`
/// (Claude Code), `.codex/skills/` or `.agents/skills/` (Codex),
/// `.github/skills/` (Copilot), `.cursor/` (Cursor); else `default`.
///
/// ```
/// use toolsmith_manifest::dialect::skill::hosts::detect;
/// use toolsmith_manifest::Profile;
/// assert_eq!(detect("/r/.claude/skills/a/SKILL.md".as_ref()), Profile::ClaudeCode);
/// assert_eq!(detect("/r/.agents/skills/a/SKILL.md".as_ref()), Profile::Codex);
/// assert_eq!(detect("/r/.github/skills/a/SKILL.md".as_ref()), Profile::Copilot);
/// assert_eq!(detect("/r/.cursor/skills/a/SKILL.md".as_ref()), Profile::Cursor);
/// assert_eq!(detect("/r/skills/a/SKILL.md".as_ref()), Profile::Default);
/// ```
pub fn detect(path: &Path) -> Profile {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut dir = absolute.parent();
    while let Some(d) = dir {
        if let Some(profile) = detect_at(d) {
            return profile;
        }
        dir = d.parent();
    }
    Profile::Default
}

/// What directory `d` itself says about the skills below it: a host's
/// folder by its name, or a Claude Code plugin root by its
/// `.claude-plugin/plugin.json`; `None` when it says nothing (ask its parent).
fn detect_at(d: &Path) -> Option<Profile> {
    detect_named(d).or_else(|| plugin_root(d).then_some(Profile::ClaudeCode))
}

/// True when `d` holds `.claude-plugin/plugin.json`.
fn plugin_root(d: &Path) -> bool {
    d.join(".claude-plugin").join("plugin.json").is_file()
}

/// What the name of directory `d` (and its parent's) says.
fn detect_named(d: &Path) -> Option<Profile> {
    let name = d.file_name().and_then(|n| n.to_str());
    if name == Some(".cursor") {
        return Some(Profile::Cursor);
    }
    if name == Some("skills") {
        let parent = d
            .parent()
            .and_then(Path::file_name)
            .and_then(|n| n.to_str());
        match parent {
            Some(".claude") => return Some(Profile::ClaudeCode),
            Some(".codex" | ".agents") => return Some(Profile::Codex),
            Some(".github") => return Some(Profile::Copilot),
            _ => {}
        }
    }
    None
}

/// [`detect`] for the many skill files of one lint run: the answer of each
/// directory is remembered, so a directory's `.claude-plugin/plugin.json` is
/// looked up once however many skills lie below it (175 skills below the
/// same ten ancestors cost ten lookups, not 1,750).
///
/// Keep one for one run: it does not notice a `plugin.json` created or
/// removed after its directory was first asked about. It is shared by the
/// threads of a run.
///
/// ```
/// use toolsmith_manifest::dialect::skill::hosts::Detector;
/// use toolsmith_manifest::Profile;
/// let hosts = Detector::default();
/// assert_eq!(hosts.detect("/r/.claude/skills/a/SKILL.md".as_ref()), Profile::ClaudeCode);
/// assert_eq!(hosts.detect("/r/.claude/skills/b/SKILL.md".as_ref()), Profile::ClaudeCode);
/// assert_eq!(hosts.detect("/r/skills/a/SKILL.md".as_ref()), Profile::Default);
/// ```
#[derive(Debug, Default)]
pub struct Detector {
    /// Directory (absolute, as `std::path::absolute` spells it) → the
    /// profile of the skills below it.
    dirs: Mutex<HashMap<OsString, Profile>>,
}

impl Detector {
    /// The profile of the skill file at `path`, as [`detect`] finds it.
    pub fn detect(&self, path: &Path) -> Profile {
        self.detect_listed(path, None)
    }

    /// [`Detector::detect`], with the entries of `path`'s own directory when
    /// they were read (no `.claude-plugin` among them: no lookup there).
    pub(crate) fn detect_listed(&self, path: &Path, listing: Option<&Listing>) -> Profile {
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        // The directories asked about on the way up, answered together at the end.
        let mut asked: Vec<&Path> = Vec::new();
        let mut dir = absolute.parent();
        let profile = loop {
            let Some(d) = dir else {
                break Profile::Default;
            };
            if let Some(&known) = self.known().get(d.as_os_str()) {
                break known;
            }
            let own = asked.is_empty();
            asked.push(d);
            if let Some(profile) = detect_named(d) {
                break profile;
            }
            let may_be_plugin = match listing {
                Some(l) if own => l.may_be_dir(".claude-plugin"),
                _ => true,
            };
            if may_be_plugin && plugin_root(d) {
                break Profile::ClaudeCode;
            }
            dir = d.parent();
        };
        if !asked.is_empty() {
            let mut known = self.known();
            for d in asked {
                known.insert(d.as_os_str().to_owned(), profile);
            }
        }
        profile
    }

    /// The answers so far; a poisoned lock (a panicking thread) still holds valid answers.
    fn known(&self) -> MutexGuard<'_, HashMap<OsString, Profile>> {
        self.dirs.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The host checks of one frontmatter (every profile's; [`apply`] keeps
/// those of the profiles in force).
pub(crate) fn check(ctx: &mut Ctx<'_>, root: &Node, body: &str, body_offset: usize) {
    if let Some(name) = root.get("name") {
        reserved_words(ctx, name);
        xml_tags(ctx, name, "name");
    }
    if let Some(description) = root.get("description") {
        xml_tags(ctx, description, "description");
    }
    field_types(ctx, root);
    agent_without_fork(ctx, root);
    body_length(ctx, body, body_offset);
    unrestricted_shell(ctx, root.get("allowed-tools"));
}

/// The span of `needle` (byte offsets `start..end` of the value) in the file
/// when the value is written verbatim; the whole node otherwise.
fn inner_span(ctx: &Ctx<'_>, node: &Node, start: usize, end: usize) -> Span {
    match ctx.verbatim_start(node) {
        Some(base) => Span::new(base + start, base + end),
        None => node.span,
    }
}

fn reserved_words(ctx: &mut Ctx<'_>, node: &Node) {
    let Some(name) = node.as_str() else { return };
    let lower = name.to_lowercase();
    for word in ["anthropic", "claude"] {
        // Byte offsets of the lowercase text match the original for ASCII
        // names; other names are reported on the whole value.
        let Some(at) = lower.find(word) else { continue };
        let span = if lower.len() == name.len() {
            inner_span(ctx, node, at, at + word.len())
        } else {
            node.span
        };
        ctx.findings.push(
            Finding::new(
                &RESERVED_WORD,
                span,
                "/name",
                format!("skill name '{name}' holds the reserved word `{word}`: the Claude platform refuses the upload"),
            )
            .with_help(format!("rename the skill without `{word}` (and its directory with it)")),
        );
    }
}

/// The byte ranges of XML tags (`<Name>`, `</b>`, `<x y="1"/>`) in `text`.
pub fn xml_tag_ranges(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'<' {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        if bytes.get(j) == Some(&b'/') {
            j += 1;
        }
        if !bytes.get(j).is_some_and(u8::is_ascii_alphabetic) {
            i += 1;
            continue;
        }
        // The tag ends at the next `>` before another `<` or a line end.
        let end = bytes[j..]
            .iter()
            .position(|&b| b == b'>' || b == b'<' || b == b'\n')
            .map(|k| j + k);
        match end {
            Some(e) if bytes[e] == b'>' => {
                let tag_name_ok = bytes[j..e]
                    .iter()
                    .take_while(|b| !b.is_ascii_whitespace() && **b != b'/')
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(b));
                if tag_name_ok {
                    found.push((i, e + 1));
                    i = e + 1;
                    continue;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    found
}

fn xml_tags(ctx: &mut Ctx<'_>, node: &Node, key: &str) {
    let Some(text) = node.as_str() else { return };
    for (start, end) in xml_tag_ranges(text) {
        let tag = &text[start..end];
        ctx.findings.push(
            Finding::new(
                &XML_TAG,
                inner_span(ctx, node, start, end),
                format!("/{key}"),
                format!(
                    "`{key}` holds the XML tag `{tag}`: the Claude platform refuses the upload"
                ),
            )
            .with_help("write the word without angle brackets (`Name`, or `NAME`)"),
        );
    }
}

fn field_types(ctx: &mut Ctx<'_>, root: &Node) {
    let Some(members) = root.as_object() else {
        return;
    };
    for m in members {
        let Some(&(_, ty)) = CLAUDE_CODE_FIELDS.iter().find(|(k, _)| *k == m.key) else {
            continue;
        };
        let v = &m.value;
        let wrong = match ty {
            FieldType::Any => false,
            FieldType::Text => matches!(v.kind, Kind::Array(_) | Kind::Object(_)),
            FieldType::Bool => !matches!(v.kind, Kind::Bool(_) | Kind::Null),
            FieldType::Map => !matches!(v.kind, Kind::Object(_) | Kind::Null),
            FieldType::TextOrList => match &v.kind {
                Kind::Object(_) => true,
                Kind::Array(items) => items
                    .iter()
                    .any(|i| matches!(i.kind, Kind::Array(_) | Kind::Object(_))),
                _ => false,
            },
        };
        if !wrong {
            continue;
        }
        let raw = ctx.slice(v.span).to_string();
        let found = match &v.kind {
            Kind::Array(_) => "a YAML list".to_string(),
            Kind::Object(_) => "a YAML mapping".to_string(),
            Kind::String(_) => format!("the string `{raw}`"),
            _ => format!("the YAML {} `{raw}`", v.type_name()),
        };
        let key = &m.key;
        let (extra, help) = match ty {
            FieldType::Text if key == "argument-hint" => (
                " (an unquoted `[…]` is a YAML list; Claude Code before 2.1.47 crashed on it)",
                format!("quote it: `{key}: \"{raw}\"`"),
            ),
            FieldType::Text => ("", format!("quote it: `{key}: \"{raw}\"`")),
            FieldType::Bool => (
                "",
                format!("write `{key}: true` or `{key}: false`, unquoted"),
            ),
            _ => ("", format!("write `{key}` as {}", ty.name())),
        };
        ctx.findings.push(
            Finding::new(
                &FIELD_TYPE,
                v.span,
                v.pointer(),
                format!("`{key}` is {found}; Claude Code reads {}{extra}", ty.name()),
            )
            .with_help(help),
        );
    }
}

fn agent_without_fork(ctx: &mut Ctx<'_>, root: &Node) {
    let Some(members) = root.as_object() else {
        return;
    };
    let Some(agent) = members.iter().find(|m| m.key == "agent") else {
        return;
    };
    let context = root.get("context").and_then(Node::as_str);
    if context.map(str::trim) == Some("fork") {
        return;
    }
    let now = match context {
        Some(c) => format!("`context` is `{c}`"),
        None => "there is no `context`".to_string(),
    };
    ctx.findings.push(
        Finding::new(
            &AGENT_WITHOUT_FORK,
            agent.key_span,
            "/agent",
            format!(
                "`agent` has no effect: Claude Code uses it only with `context: fork`, and {now}"
            ),
        )
        .with_help("add `context: fork`, or remove `agent`"),
    );
}

fn body_length(ctx: &mut Ctx<'_>, body: &str, body_offset: usize) {
    // As `body.lines().count()`: one line per `\n`, and one for a last
    // line without it.
    let newlines = body.bytes().filter(|&b| b == b'\n').count();
    let lines = newlines + usize::from(!body.is_empty() && !body.ends_with('\n'));
    if lines <= MAX_BODY_LINES {
        return;
    }
    // Point at the first line past the guidance.
    let start = body
        .match_indices('\n')
        .nth(MAX_BODY_LINES - 1)
        .map_or(0, |(i, _)| i + 1);
    let end = body[start..].find('\n').map_or(body.len(), |e| start + e);
    ctx.findings.push(
        Finding::new(
            &BODY_TOO_LONG,
            Span::new(body_offset + start, body_offset + end),
            "",
            format!("the body has {lines} lines; the documented guidance is under {MAX_BODY_LINES} lines (the host loads the whole body when the skill is used)"),
        )
        .with_help("move details into files under `references/` and link them from the body"),
    );
}

/// True for a shell tool without a command restriction: `Bash`, `Bash(*)`,
/// `Bash(:*)`, `Bash(*:*)`, `Shell`, `PowerShell`.
fn unrestricted(token: &str) -> bool {
    let (name, args) = match token.split_once('(') {
        Some((n, rest)) => (n, Some(rest.trim_end_matches(')').trim())),
        None => (token, None),
    };
    let shell =
        ["bash", "shell", "sh", "powershell", "zsh"].contains(&name.to_lowercase().as_str());
    shell && args.is_none_or(|a| a.chars().all(|c| matches!(c, '*' | ':' | ' ')))
}

fn unrestricted_shell(ctx: &mut Ctx<'_>, node: Option<&Node>) {
    let Some(node) = node else { return };
    let values: Vec<&Node> = match &node.kind {
        Kind::Array(items) => items.iter().collect(),
        Kind::String(_) => vec![node],
        _ => return,
    };
    for value in values {
        let Some(text) = value.as_str() else { continue };
        let mut depth = 0usize;
        let mut start = None;
        let mut tokens = Vec::new();
        for (i, c) in text
            .char_indices()
            .chain(std::iter::once((text.len(), ' ')))
        {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                c if depth == 0 && (c.is_whitespace() || c == ',') => {
                    if let Some(s) = start.take() {
                        tokens.push((s, i));
                    }
                    continue;
                }
                _ => {}
            }
            start.get_or_insert(i);
        }
        for (s, e) in tokens {
            let token = &text[s..e];
            if !unrestricted(token) {
                continue;
            }
            ctx.findings.push(
                Finding::new(
                    &UNRESTRICTED_SHELL,
                    inner_span(ctx, value, s, e),
                    "/allowed-tools",
                    format!("`allowed-tools` pre-approves `{token}`: every shell command runs without asking while the skill is active"),
                )
                .with_help("restrict it to the commands the skill needs, e.g. `Bash(git status:*) Bash(./scripts/fill.py:*)`"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_tags_are_told_from_comparisons() {
        let text = "Use <Name> and </b>, <x y=\"1\"/>; not a < b > c or <3 or <-";
        let tags: Vec<&str> = xml_tag_ranges(text)
            .into_iter()
            .map(|(s, e)| &text[s..e])
            .collect();
        assert_eq!(tags, ["<Name>", "</b>", "<x y=\"1\"/>"]);
    }

    #[test]
    fn shell_tokens_without_a_restriction_are_unrestricted() {
        for t in [
            "Bash",
            "bash",
            "Bash(*)",
            "Bash(:*)",
            "Bash(*:*)",
            "PowerShell",
        ] {
            assert!(unrestricted(t), "{t}");
        }
        for t in ["Bash(git:*)", "Bash(npm run test:*)", "Read", "BashOutput"] {
            assert!(!unrestricted(t), "{t}");
        }
    }

    /// A run's detector answers as [`detect`] does, also after a directory
    /// was answered for another skill below it.
    #[test]
    fn the_detector_agrees_with_detect() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path();
        let plugin = root.join("plugin");
        std::fs::create_dir_all(plugin.join(".claude-plugin")).expect("mkdir");
        std::fs::write(plugin.join(".claude-plugin/plugin.json"), "{}").expect("write");
        let paths = [
            root.join("plugin/skills/a/SKILL.md"),
            root.join("plugin/skills/b/SKILL.md"),
            root.join("plugin/SKILL.md"),
            root.join("other/skills/a/SKILL.md"),
            root.join("other/.github/skills/a/SKILL.md"),
            root.join("plugin/.cursor/a/SKILL.md"),
            root.join("other/skills/b/SKILL.md"),
            root.join("SKILL.md"),
        ];
        let hosts = Detector::default();
        let found: Vec<Profile> = paths.iter().map(|p| hosts.detect(p)).collect();
        let expected: Vec<Profile> = paths.iter().map(|p| detect(p)).collect();
        assert_eq!(found, expected);
        assert_eq!(
            expected[..6],
            [
                Profile::ClaudeCode,
                Profile::ClaudeCode,
                Profile::ClaudeCode,
                Profile::Default,
                Profile::Copilot,
                Profile::Cursor
            ]
        );
        // Asked again, from what it remembers.
        let again: Vec<Profile> = paths.iter().map(|p| hosts.detect(p)).collect();
        assert_eq!(again, expected);
        // With the entries of each file's directory (a plugin root among them).
        let listed = Detector::default();
        for (path, want) in paths.iter().zip(&expected) {
            let listing = Listing::read(path.parent().expect("a parent"));
            assert_eq!(
                listed.detect_listed(path, Some(&listing)),
                *want,
                "{path:?}"
            );
        }
    }

    #[test]
    fn every_policy_names_a_registered_rule() {
        for p in POLICIES {
            assert!(crate::registry::find(p.rule).is_some(), "{}", p.rule);
        }
        assert_eq!(HOSTS.len(), Profile::ALL.len());
    }
}

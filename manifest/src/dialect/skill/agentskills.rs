//! Agent Skills rules (`agentskills/agentskills:docs/specification.mdx`), with
//! the exact messages of the reference validator `skills-ref validate` where
//! it has one.

use super::{Ctx, SkillFile};
use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::suggest::closest;
use crate::tree::Node;
use unicode_normalization::UnicodeNormalization;

pub static NOT_A_MAPPING: Rule = Rule::error(
    "skill/not-a-mapping",
    "skill",
    "the frontmatter is not a YAML mapping",
);
pub static UNKNOWN_FIELD: Rule = Rule::warning(
    "skill/unknown-field",
    "skill",
    "a top-level field the Agent Skills spec does not define (error under `--profile strict` and in JS framework skills)",
);
pub static VENDOR_FIELD: Rule = Rule::warning(
    "skill/vendor-field",
    "skill",
    "a Claude Code extension field: other Agent Skills clients ignore it, skills-ref rejects it (error under `--profile strict`, not reported under `claude-code`)",
);
pub static MISSING_FIELD: Rule = Rule::error(
    "skill/missing-field",
    "skill",
    "`name` or `description` is missing",
);
pub static EMPTY_FIELD: Rule = Rule::error(
    "skill/empty-field",
    "skill",
    "`name` or `description` is empty or not a string",
);
pub static NON_STRING_SCALAR: Rule = Rule::warning(
    "skill/non-string-scalar",
    "skill",
    "a text field holds a YAML 1.2 number, boolean or null (strictyaml reads it as text, most loaders do not)",
);
pub static NAME_TOO_LONG: Rule = Rule::error(
    "skill/name-too-long",
    "skill",
    "the skill name is longer than 64 characters",
);
pub static NAME_LOWERCASE: Rule = Rule::error(
    "skill/name-lowercase",
    "skill",
    "the skill name has uppercase letters",
);
pub static NAME_HYPHENS: Rule = Rule::error(
    "skill/name-hyphens",
    "skill",
    "the skill name starts or ends with a hyphen, or has two in a row",
);
pub static NAME_CHARACTERS: Rule = Rule::error(
    "skill/name-characters",
    "skill",
    "the skill name has characters other than letters, digits and hyphens",
);
pub static NAME_DIRECTORY: Rule = Rule::error(
    "skill/name-directory",
    "skill",
    "the skill name differs from the name of the directory holding SKILL.md",
);
pub static NAME_NON_ASCII: Rule = Rule::warning(
    "skill/name-non-ascii",
    "skill",
    "the skill name has non-ASCII letters or digits (skills-ref accepts them, the spec text and other clients do not)",
);
pub static DESCRIPTION_TOO_LONG: Rule = Rule::error(
    "skill/description-too-long",
    "skill",
    "the description is longer than 1024 characters",
);
pub static COMPATIBILITY_TYPE: Rule = Rule::error(
    "skill/compatibility-type",
    "skill",
    "`compatibility` is not a string",
);
pub static COMPATIBILITY_TOO_LONG: Rule = Rule::error(
    "skill/compatibility-too-long",
    "skill",
    "`compatibility` is longer than 500 characters",
);
pub static COMPATIBILITY_EMPTY: Rule = Rule::warning(
    "skill/compatibility-empty",
    "skill",
    "`compatibility` is empty (the spec says 1-500 characters)",
);
pub static METADATA_TYPE: Rule = Rule::error(
    "skill/metadata-type",
    "skill",
    "`metadata` is not a mapping",
);
pub static METADATA_VALUE: Rule = Rule::warning(
    "skill/metadata-value",
    "skill",
    "a `metadata` value is not a string (the spec maps string keys to string values)",
);
pub static FLOW_STYLE: Rule = Rule::warning(
    "skill/flow-style",
    "skill",
    "flow-style YAML (`[a, b]`, `{k: v}`), which skills-ref's strictyaml rejects (error under `--profile strict`)",
);

/// The fields the spec defines, sorted as skills-ref prints them.
pub const SPEC_FIELDS: [&str; 6] = [
    "allowed-tools",
    "compatibility",
    "description",
    "license",
    "metadata",
    "name",
];

/// The extension fields Claude Code's skill documentation adds to the Agent
/// Skills fields (the last four from its changelog; types in
/// [`super::hosts::CLAUDE_CODE_FIELDS`]).
pub const VENDOR_FIELDS: [&str; 15] = [
    "argument-hint",
    "disable-model-invocation",
    "user-invocable",
    "model",
    "effort",
    "context",
    "agent",
    "hooks",
    "paths",
    "shell",
    "when_to_use",
    "disallowed-tools",
    "display-name",
    "default-enabled",
    "fallback",
];

const MAX_NAME: usize = 64;
const MAX_DESCRIPTION: usize = 1024;
const MAX_COMPATIBILITY: usize = 500;

/// Checks the spec fields; returns the name and description (empty when unusable).
pub(crate) fn check(ctx: &mut Ctx<'_>, root: &Node) -> (String, String) {
    fields(ctx, root);
    let name = text_field(ctx, root, "name", true);
    let description = text_field(
        ctx,
        root,
        "description",
        !ctx.jsfw || ctx.file == SkillFile::Folder,
    );
    if let Some((node, name)) = &name {
        if ctx.jsfw && ctx.file != SkillFile::Folder {
            super::jsfw::check_name(ctx, node, name);
        } else {
            check_name(ctx, node, name);
        }
    }
    if let Some((node, description)) = &description {
        let len = description.chars().count();
        if len > MAX_DESCRIPTION {
            ctx.findings.push(
                Finding::new(
                    &DESCRIPTION_TOO_LONG,
                    node.span,
                    "/description",
                    format!("Description exceeds {MAX_DESCRIPTION} character limit ({len} chars)"),
                )
                .with_help("move details into the body; the description says what the skill does and when to use it"),
            );
        }
    }
    if let Some(node) = root.get("compatibility") {
        match ctx.scalar_text(node) {
            None => ctx.findings.push(Finding::new(
                &COMPATIBILITY_TYPE,
                node.span,
                "/compatibility",
                "Field 'compatibility' must be a string",
            )),
            Some(text) => {
                let len = text.chars().count();
                if len > MAX_COMPATIBILITY {
                    ctx.findings.push(Finding::new(
                        &COMPATIBILITY_TOO_LONG,
                        node.span,
                        "/compatibility",
                        format!("Compatibility exceeds {MAX_COMPATIBILITY} character limit ({len} chars)"),
                    ));
                } else if text.trim().is_empty() {
                    ctx.findings.push(Finding::new(
                        &COMPATIBILITY_EMPTY,
                        node.span,
                        "/compatibility",
                        "Field 'compatibility' is empty; the spec wants 1-500 characters",
                    ));
                }
                non_string_warning(ctx, node, "compatibility");
            }
        }
    }
    if let Some(node) = root.get("license") {
        non_string_warning(ctx, node, "license");
    }
    metadata(ctx, root);
    (
        name.map(|(_, n)| n).unwrap_or_default(),
        description.map(|(_, d)| d).unwrap_or_default(),
    )
}

/// Unknown and vendor top-level fields.
fn fields(ctx: &mut Ctx<'_>, root: &Node) {
    let Some(members) = root.as_object() else {
        return;
    };
    let mut reported = std::collections::HashSet::new();
    for m in members {
        let key = m.key.as_str();
        // A duplicate is reported by the YAML layer; report the field once.
        if SPEC_FIELDS.contains(&key) || !reported.insert(key) {
            continue;
        }
        let message =
            format!("Unexpected fields in frontmatter: {key}. Only {SPEC_FIELDS:?} are allowed.")
                .replace('"', "'");
        let pointer = format!("/{}", crate::tree::escape_pointer_token(key));
        if super::jsfw::EXTENSION_KEYS.contains(&key) {
            let f = Finding::new(&UNKNOWN_FIELD, m.key_span, pointer, message)
                .with_help(format!(
                    "`{key}` is a JS framework field: it belongs under `metadata:`"
                ))
                .with_severity(crate::diagnostic::Severity::Error);
            ctx.findings.push(f);
            continue;
        }
        if VENDOR_FIELDS.contains(&key) && !ctx.jsfw {
            let f = Finding::new(&VENDOR_FIELD, m.key_span, pointer, message).with_help(format!(
                "`{key}` is a Claude Code extension: other Agent Skills clients (Codex, Copilot, Cursor) ignore it and skills-ref rejects the file; lint with `--profile claude-code` if Claude Code is the host"
            ));
            ctx.push_strict(f);
            continue;
        }
        let help = if key == "version" {
            "the spec has no `version` field: use `metadata:` / `  version: \"…\"`".to_string()
        } else if let Some(known) = closest(key, SPEC_FIELDS) {
            format!("did you mean `{known}`?")
        } else {
            "put custom fields under `metadata:`".to_string()
        };
        let f = Finding::new(&UNKNOWN_FIELD, m.key_span, pointer, message).with_help(help);
        if ctx.jsfw {
            ctx.findings
                .push(f.with_severity(crate::diagnostic::Severity::Error));
        } else {
            ctx.push_strict(f);
        }
    }
}

/// A required text field: reports it missing, empty or not text; returns its node and text.
fn text_field<'n>(
    ctx: &mut Ctx<'_>,
    root: &'n Node,
    key: &str,
    required: bool,
) -> Option<(&'n Node, String)> {
    let Some(node) = root.get(key) else {
        if required {
            ctx.findings.push(
                Finding::new(
                    &MISSING_FIELD,
                    ctx.open,
                    "",
                    format!("Missing required field in frontmatter: {key}"),
                )
                .with_help(format!("add `{key}: …` to the frontmatter")),
            );
        }
        return None;
    };
    let pointer = format!("/{key}");
    let text = ctx.scalar_text(node).map(|t| t.into_owned());
    match text {
        Some(text) if !text.trim().is_empty() => {
            non_string_warning(ctx, node, key);
            Some((node, text))
        }
        _ => {
            ctx.findings.push(Finding::new(
                &EMPTY_FIELD,
                node.span,
                pointer,
                format!("Field '{key}' must be a non-empty string"),
            ));
            None
        }
    }
}

/// Warns when a text field is written as a YAML 1.2 number, boolean or null.
fn non_string_warning(ctx: &mut Ctx<'_>, node: &Node, key: &str) {
    if node.as_str().is_some() {
        return;
    }
    let raw = ctx.slice(node.span).to_string();
    let what = if ctx.scalar_text(node).is_some() {
        format!("the YAML 1.2 {} `{raw}`", node.type_name())
    } else {
        format!(
            "a YAML {}",
            if node.as_array().is_some() {
                "sequence"
            } else {
                "mapping"
            }
        )
    };
    if raw.is_empty() && node.is_null() {
        return;
    }
    ctx.findings.push(
        Finding::new(
            &NON_STRING_SCALAR,
            node.span,
            format!("/{key}"),
            format!("`{key}` is {what}, not a string"),
        )
        .with_help(format!("quote it: `{key}: \"{raw}\"`")),
    );
}

/// The Agent Skills name rules, as skills-ref applies them (strip, NFKC,
/// Unicode letters and digits).
fn check_name(ctx: &mut Ctx<'_>, node: &Node, raw: &str) {
    let name: String = raw.trim().nfkc().collect();
    let span = node.span;
    let push = |ctx: &mut Ctx<'_>, rule: &'static Rule, message: String| {
        ctx.findings
            .push(Finding::new(rule, span, "/name", message));
    };
    let len = name.chars().count();
    if len > MAX_NAME {
        push(
            ctx,
            &NAME_TOO_LONG,
            format!("Skill name '{name}' exceeds {MAX_NAME} character limit ({len} chars)"),
        );
    }
    if name != name.to_lowercase() {
        push(
            ctx,
            &NAME_LOWERCASE,
            format!("Skill name '{name}' must be lowercase"),
        );
    }
    if name.starts_with('-') || name.ends_with('-') {
        push(
            ctx,
            &NAME_HYPHENS,
            "Skill name cannot start or end with a hyphen".to_string(),
        );
    }
    if name.contains("--") {
        push(
            ctx,
            &NAME_HYPHENS,
            "Skill name cannot contain consecutive hyphens".to_string(),
        );
    }
    if !name.chars().all(|c| c.is_alphanumeric() || c == '-') {
        push(
            ctx,
            &NAME_CHARACTERS,
            format!(
                "Skill name '{name}' contains invalid characters. Only letters, digits, and hyphens are allowed."
            ),
        );
    } else if !name.is_ascii() {
        ctx.findings.push(
            Finding::new(
                &NAME_NON_ASCII,
                span,
                "/name",
                format!("Skill name '{name}' has non-ASCII characters; the spec text allows only `a-z`, `0-9` and `-`"),
            )
            .with_help("skills-ref accepts Unicode letters, other clients may not"),
        );
    }
    if ctx.file == SkillFile::Folder {
        let dir = ctx
            .path
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned());
        if let Some(dir) = dir {
            let normalized: String = dir.nfkc().collect();
            if normalized != name {
                ctx.findings.push(
                    Finding::new(
                        &NAME_DIRECTORY,
                        span,
                        "/name",
                        format!("Directory name '{dir}' must match skill name '{name}'"),
                    )
                    .with_help(format!(
                        "rename the directory to `{name}`, or set `name: {dir}`"
                    )),
                );
            }
        }
    }
}

/// `metadata` must map strings to strings (JS framework skills nest values).
fn metadata(ctx: &mut Ctx<'_>, root: &Node) {
    let Some(node) = root.get("metadata") else {
        return;
    };
    let Some(members) = node.as_object() else {
        if !node.is_null() {
            ctx.findings.push(
                Finding::new(
                    &METADATA_TYPE,
                    node.span,
                    "/metadata",
                    format!(
                        "Field 'metadata' must be a mapping, found a {}",
                        node.type_name()
                    ),
                )
                .with_help("write `metadata:` followed by indented `key: value` lines"),
            );
        }
        return;
    };
    if ctx.jsfw && ctx.file != SkillFile::Folder {
        return;
    }
    for m in members {
        if m.value.as_str().is_some()
            || (ctx.jsfw
                && (super::jsfw::EXTENSION_KEYS.contains(&m.key.as_str())
                    || m.key.starts_with('$')))
        {
            continue;
        }
        let shown = match ctx.scalar_text(&m.value) {
            Some(t) => format!("the YAML 1.2 {} `{t}`", m.value.type_name()),
            None => format!(
                "a YAML {}",
                if m.value.as_array().is_some() {
                    "sequence"
                } else {
                    "mapping"
                }
            ),
        };
        ctx.findings.push(
            Finding::new(
                &METADATA_VALUE,
                m.value.span,
                m.value.pointer(),
                format!("metadata value `{}` is {shown}, not a string", m.key),
            )
            .with_help(
                "quote the value; skills-ref converts it with str(), other clients may reject it",
            ),
        );
    }
}

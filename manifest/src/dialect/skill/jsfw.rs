//! The JS framework's extension fields (its Tools specification): everything but
//! `name`, `description` and `allowed-tools` lives under `metadata`, where
//! `role`, `visibility`, `tags`, `params`, `returns`, `delegate` and the twelve
//! `$`-annotations have meanings. No reference implementation exists; the
//! messages are toolsmith's.

use super::{Ctx, SkillFile};
use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::schema::{self, SchemaCheck};
use crate::source::Span;
use crate::suggest::closest;
use crate::tree::{Kind, Node};
use base64::Engine;
use std::collections::HashMap;
use std::path::{Component, Path};

pub static NAME: Rule = Rule::error(
    "skill/jsfw-name",
    "skill",
    "a JS framework tool name is not `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`",
);
pub static ROLE: Rule = Rule::error(
    "skill/jsfw-role",
    "skill",
    "`metadata.role` is not `main`, `middleware` or `context`",
);
pub static VISIBILITY: Rule = Rule::error(
    "skill/jsfw-visibility",
    "skill",
    "`metadata.visibility` is not `hidden`",
);
pub static TAGS: Rule = Rule::error(
    "skill/jsfw-tags",
    "skill",
    "`metadata.tags` is not a list of strings",
);
pub static TAG_FORM: Rule = Rule::warning(
    "skill/jsfw-tag-form",
    "skill",
    "a tag is not lowercase-with-hyphens (the framework normalizes it), or two tags collide after normalization",
);
pub static ANNOTATION: Rule = Rule::error(
    "skill/jsfw-annotation",
    "skill",
    "a `$`-key under `metadata` is not one of the twelve cascade annotations",
);
pub static NESTED_ANNOTATION: Rule = Rule::error(
    "skill/jsfw-nested-annotation",
    "skill",
    "a `$`-key below a `metadata` value (annotations are only direct children of `metadata`)",
);
pub static DELEGATE: Rule = Rule::error(
    "skill/jsfw-delegate",
    "skill",
    "`metadata.delegate` is neither an existing relative path nor a decodable `inline://code|markdown|base64,…` ref",
);

/// Keys under `metadata` with a framework meaning.
pub const EXTENSION_KEYS: [&str; 6] = [
    "role",
    "visibility",
    "tags",
    "params",
    "returns",
    "delegate",
];

/// The cascade annotations.
pub const ANNOTATIONS: [&str; 12] = [
    "$inherit", "$private", "$public", "$local", "$global", "$dynamic", "$static", "$merge",
    "$order", "$remove", "$self", "$hook",
];

/// How deep `inline://base64` refs and markdown delegates may nest.
pub const MAX_INLINE_DEPTH: usize = 8;

/// True when the skill uses the framework's `metadata` fields.
pub fn uses_extensions(root: &Node) -> bool {
    root.get("metadata")
        .and_then(Node::as_object)
        .is_some_and(|ms| {
            ms.iter()
                .any(|m| EXTENSION_KEYS.contains(&m.key.as_str()) || m.key.starts_with('$'))
        })
}

/// The portable tool name rule, which every provider accepts, for
/// single-file skills (the JS framework names "tool name rules" but never
/// defines them).
pub(crate) fn check_name(ctx: &mut Ctx<'_>, node: &Node, name: &str) {
    let mut chars = name.chars();
    let ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
        && name.len() <= 64;
    if !ok {
        ctx.findings.push(
            Finding::new(
                &NAME,
                node.span,
                "/name",
                format!("tool name `{name}` must match ^[A-Za-z_][A-Za-z0-9_-]{{0,63}}$"),
            )
            .with_help("use ASCII letters, digits, `_` and `-`, starting with a letter or `_`"),
        );
    }
}

/// Checks the extension fields under `metadata`.
pub(crate) fn check(ctx: &mut Ctx<'_>, root: &Node) {
    let Some(members) = root.get("metadata").and_then(Node::as_object) else {
        return;
    };
    for m in members {
        let v = &m.value;
        match m.key.as_str() {
            "role" => one_of(ctx, v, &ROLE, "role", &["main", "middleware", "context"]),
            "visibility" => one_of(ctx, v, &VISIBILITY, "visibility", &["hidden"]),
            "tags" => tags(ctx, v),
            "params" | "returns" => {
                let params = m.key == "params";
                schema::check(
                    v,
                    &SchemaCheck {
                        object_root: params,
                        allow_resolve: true,
                    },
                    &mut ctx.findings,
                );
            }
            "delegate" => delegate(ctx, v),
            key if key.starts_with('$') => {
                if !ANNOTATIONS.contains(&key) {
                    let help = closest(key, ANNOTATIONS).map_or_else(
                        || format!("the annotations are {}", ANNOTATIONS.join(", ")),
                        |k| format!("did you mean `{k}`?"),
                    );
                    ctx.findings.push(
                        Finding::new(
                            &ANNOTATION,
                            m.key_span,
                            v.pointer(),
                            format!("unknown cascade annotation `{key}` under `metadata`"),
                        )
                        .with_help(help),
                    );
                }
                nested_annotations(ctx, v);
            }
            _ => nested_annotations(ctx, v),
        }
    }
}

fn one_of(ctx: &mut Ctx<'_>, v: &Node, rule: &'static Rule, key: &str, allowed: &[&str]) {
    if v.as_str().is_some_and(|s| allowed.contains(&s)) {
        return;
    }
    let found = ctx
        .scalar_text(v)
        .map_or_else(|| format!("a {}", v.type_name()), |t| format!("`{t}`"));
    ctx.findings.push(Finding::new(
        rule,
        v.span,
        v.pointer(),
        format!(
            "`metadata.{key}` must be one of {}; found {found}",
            allowed.join(", ")
        ),
    ));
}

/// The framework's tag normalization: lowercase, runs of non-alphanumerics to `-`.
fn normalize_tag(tag: &str) -> String {
    let mut out = String::new();
    for c in tag.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn tags(ctx: &mut Ctx<'_>, v: &Node) {
    let Some(items) = v.as_array() else {
        ctx.findings.push(
            Finding::new(
                &TAGS,
                v.span,
                v.pointer(),
                format!(
                    "`metadata.tags` must be a list of strings, found a {}",
                    v.type_name()
                ),
            )
            .with_help("write `tags:` followed by `- tag` lines"),
        );
        return;
    };
    // normalized form → the first tag that had it
    let mut seen: HashMap<String, String> = HashMap::new();
    for item in items {
        let Some(tag) = item.as_str() else {
            ctx.findings.push(Finding::new(
                &TAGS,
                item.span,
                item.pointer(),
                format!("a tag must be a string, found a {}", item.type_name()),
            ));
            continue;
        };
        let normal = normalize_tag(tag);
        if normal != tag {
            ctx.findings.push(
                Finding::new(
                    &TAG_FORM,
                    item.span,
                    item.pointer(),
                    format!("tag `{tag}` is registered as `{normal}`"),
                )
                .with_help(format!("write `{normal}`")),
            );
        }
        if let Some(first) = seen.get(&normal) {
            ctx.findings.push(Finding::new(
                &TAG_FORM,
                item.span,
                item.pointer(),
                format!("tag `{tag}` is the same as `{first}` after normalization (`{normal}`)"),
            ));
        }
        seen.entry(normal).or_insert_with(|| tag.to_string());
    }
}

/// `$`-keys anywhere below a plain metadata value.
fn nested_annotations(ctx: &mut Ctx<'_>, v: &Node) {
    match &v.kind {
        Kind::Object(members) => {
            for m in members {
                if m.key.starts_with('$') {
                    ctx.findings.push(
                        Finding::new(
                            &NESTED_ANNOTATION,
                            m.key_span,
                            m.value.pointer(),
                            format!("`{}` is nested inside a metadata value; `$`-annotations are only direct children of `metadata`", m.key),
                        )
                        .with_help("move it up to `metadata:`, or rename the key without `$`"),
                    );
                }
                nested_annotations(ctx, &m.value);
            }
        }
        Kind::Array(items) => items.iter().for_each(|i| nested_annotations(ctx, i)),
        _ => {}
    }
}

fn delegate(ctx: &mut Ctx<'_>, v: &Node) {
    let Some(value) = v.as_str() else {
        ctx.findings.push(Finding::new(
            &DELEGATE,
            v.span,
            v.pointer(),
            format!(
                "`metadata.delegate` must be a string, found a {}",
                v.type_name()
            ),
        ));
        return;
    };
    let mut problems = Vec::new();
    if value.starts_with("inline://") {
        inline(ctx, value, 0, &mut problems);
    } else {
        local_path(ctx, value, &mut problems);
    }
    for (message, help) in problems {
        let f = Finding::new(&DELEGATE, v.span, v.pointer(), message);
        ctx.findings.push(match help {
            Some(h) => f.with_help(h),
            None => f,
        });
    }
}

type Problems = Vec<(String, Option<String>)>;

fn local_path(ctx: &Ctx<'_>, value: &str, problems: &mut Problems) {
    let path = Path::new(value);
    if value.is_empty() || path.is_absolute() || value.contains("://") {
        problems.push((
            format!("`metadata.delegate` `{value}` must be a relative path or an `inline://` ref"),
            Some("write `delegate: ./lib/handler.js` (relative to the skill file)".to_string()),
        ));
        return;
    }
    if path.components().any(|c| c == Component::ParentDir) {
        problems.push((
            format!("`metadata.delegate` `{value}` leaves the skill's directory"),
            None,
        ));
        return;
    }
    if ctx.file == SkillFile::Inline {
        return;
    }
    let dir = ctx.path.parent().unwrap_or(Path::new(""));
    if !dir.join(path).is_file() {
        problems.push((
            format!(
                "`metadata.delegate` file `{value}` does not exist (relative to the skill file)"
            ),
            None,
        ));
    }
}

fn inline(ctx: &mut Ctx<'_>, value: &str, depth: usize, problems: &mut Problems) {
    if depth + ctx.depth >= MAX_INLINE_DEPTH {
        problems.push((
            format!("inline delegate nested deeper than {MAX_INLINE_DEPTH} levels"),
            None,
        ));
        return;
    }
    let rest = value.strip_prefix("inline://").unwrap_or(value);
    let Some((tag, payload)) = rest.split_once(',') else {
        problems.push((
            "inline delegate has no `,` between its tag and its payload".to_string(),
            Some("write `inline://code,<source>`, `inline://markdown,<text>` or `inline://base64,<data>`".to_string()),
        ));
        return;
    };
    match tag {
        "code" => {
            if !payload.contains("export default") {
                problems.push((
                    "`inline://code` delegate does not `export default` a function".to_string(),
                    Some("the module must export a default async function".to_string()),
                ));
            }
        }
        "base64" => {
            let engines = [
                base64::engine::general_purpose::STANDARD,
                base64::engine::general_purpose::STANDARD_NO_PAD,
                base64::engine::general_purpose::URL_SAFE,
                base64::engine::general_purpose::URL_SAFE_NO_PAD,
            ];
            let decoded = engines.iter().find_map(|e| e.decode(payload.trim()).ok());
            match decoded.map(String::from_utf8) {
                None => problems.push((
                    "`inline://base64` payload is not valid base64".to_string(),
                    None,
                )),
                Some(Err(_)) => problems.push((
                    "`inline://base64` payload does not decode to UTF-8 text".to_string(),
                    None,
                )),
                Some(Ok(text)) if text.starts_with("inline://") => {
                    inline(ctx, &text, depth + 1, problems)
                }
                Some(Ok(_)) => problems.push((
                    "`inline://base64` payload does not decode to another `inline://` ref"
                        .to_string(),
                    None,
                )),
            }
        }
        "markdown" => markdown(ctx, payload, depth, problems),
        other => problems.push((
            format!("unknown inline delegate tag `{other}`; expected code, markdown or base64"),
            None,
        )),
    }
}

/// Checks a markdown payload as a nested `.skill.md`; its findings become
/// problems of the delegate value (their positions are inside a YAML string).
fn markdown(ctx: &mut Ctx<'_>, payload: &str, depth: usize, problems: &mut Problems) {
    let mut nested = Ctx {
        text: payload,
        file: SkillFile::Inline,
        label: "inline markdown delegate".to_string(),
        path: ctx.path.clone(),
        profiles: ctx.profiles,
        jsfw: true,
        depth: ctx.depth + depth + 1,
        open: Span::default(),
        listing: None,
        findings: Vec::new(),
    };
    super::check_text(&mut nested);
    let source = crate::source::Source::new("", payload);
    for f in nested.findings {
        if f.severity != crate::diagnostic::Severity::Error {
            continue;
        }
        let at = source.position(f.span.start);
        problems.push((
            format!(
                "in the inline markdown delegate, line {} column {}: {} [{}]",
                at.line, at.column, f.message, f.rule.id
            ),
            f.help,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_normalization() {
        assert_eq!(normalize_tag("Data Science"), "data-science");
        assert_eq!(normalize_tag("--a__b--"), "a-b");
        assert_eq!(normalize_tag("ok-tag"), "ok-tag");
    }
}

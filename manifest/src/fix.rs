//! Automatic fixes for mechanical, meaning-preserving findings, as minimal
//! text edits that keep the rest of the file as it is.
//!
//! | rule | fix |
//! |---|---|
//! | `json/duplicate-key` | removes the repeated member when its value equals the first one's |
//! | `provider/openai-strict-additional-properties` | adds `"additionalProperties": false` to an object that has `properties` |
//! | `skill/allowed-tools-form` | rewrites a YAML list or a comma-separated `allowed-tools` as the space-separated string the spec wants |
//! | `skill/unknown-field` | moves a top-level `version` to `metadata.version` (the other unknown fields are not fixable) |
//! | `frontmatter/trailing-whitespace` | removes the spaces and tabs at the end of a frontmatter line (never inside a block scalar: the rule does not report those) |
//!
//! A fix is offered only when the edit is certain to keep the meaning
//! (plain scalars, no comments on the lines it rewrites); otherwise the
//! finding stays for a human.

use crate::diagnostic::Diagnostic;
use crate::source::{Source, Span};
use crate::tree::{Kind, Node};
use std::sync::Arc;

/// One replacement of a byte range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// The bytes replaced.
    pub span: Span,
    /// What replaces them.
    pub text: String,
}

/// The edits that fix one finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// The rule of the finding.
    pub rule: &'static str,
    /// The edits, not overlapping.
    pub edits: Vec<Edit>,
}

/// The rules with a fix, and what it does (`toolsmith rules` shows it).
pub const FIXABLE: &[(&str, &str)] = &[
    (
        "frontmatter/trailing-whitespace",
        "removes the trailing spaces and tabs",
    ),
    (
        "json/duplicate-key",
        "removes the repeated member when both values are equal",
    ),
    (
        "provider/openai-strict-additional-properties",
        "adds `\"additionalProperties\": false` to an object with `properties`",
    ),
    (
        "skill/allowed-tools-form",
        "rewrites `allowed-tools` as a space-separated string",
    ),
    (
        "skill/unknown-field",
        "moves a top-level `version` to `metadata.version`",
    ),
];

/// What the fix of `rule` does, when the rule has one.
pub fn describe(rule: &str) -> Option<&'static str> {
    FIXABLE
        .iter()
        .find(|(id, _)| *id == rule)
        .map(|(_, what)| *what)
}

/// The fix for `d`, when it is mechanical (parses `d`'s file when the fix
/// needs its tree; use a [`Fixer`] for many findings).
pub fn fix(d: &Diagnostic) -> Option<Fix> {
    Fixer::default().fix(d)
}

/// Finds the fixes of many findings, reading each JSON file's tree once
/// (a file with a thousand `json/duplicate-key` findings is parsed once, not
/// a thousand times).
#[derive(Default)]
pub struct Fixer {
    /// The last file's text (by address) and its tree, when it parsed cleanly.
    tree: Option<(Arc<Source>, Option<Node>)>,
}

impl Fixer {
    /// The fix for `d`, when it is mechanical.
    pub fn fix(&mut self, d: &Diagnostic) -> Option<Fix> {
        let text = d.source.text();
        let edits = match d.rule {
            "json/duplicate-key" => duplicate_key(self.json_root(d)?, d)?,
            "provider/openai-strict-additional-properties" => {
                additional_properties(text, self.json_root(d)?, &d.pointer)?
            }
            "skill/allowed-tools-form" => allowed_tools(text, d.span)?,
            "skill/unknown-field" if d.pointer == "/version" => version(text, d.span)?,
            "frontmatter/trailing-whitespace" => vec![Edit {
                span: d.span,
                text: String::new(),
            }],
            _ => return None,
        };
        Some(Fix {
            rule: d.rule,
            edits,
        })
    }

    /// The JSON tree of `d`'s file, when it parses without findings that
    /// would make an edit unsafe (syntax errors); parsed once per file.
    fn json_root(&mut self, d: &Diagnostic) -> Option<&Node> {
        let cached = self
            .tree
            .as_ref()
            .is_some_and(|(source, _)| Arc::ptr_eq(source, &d.source));
        if !cached {
            self.tree = Some((Arc::clone(&d.source), json_root(d.source.text())));
        }
        self.tree.as_ref()?.1.as_ref()
    }
}

/// Applies `fixes` to `text`, leaving out a fix whose edits overlap one
/// already taken. Returns the new text and the number of fixes applied.
///
/// ```
/// use toolsmith_manifest::fix::{apply, Edit, Fix};
/// use toolsmith_manifest::source::Span;
/// let f = |s, e, t: &str| Fix { rule: "x/y", edits: vec![Edit { span: Span::new(s, e), text: t.into() }] };
/// let (out, n) = apply("abcdef", &[f(1, 2, "B"), f(1, 3, "?"), f(4, 4, "+")]);
/// assert_eq!((out.as_str(), n), ("aBcd+ef", 2));
/// ```
pub fn apply(text: &str, fixes: &[Fix]) -> (String, usize) {
    let mut taken: Vec<&Edit> = Vec::new();
    let mut applied = 0;
    for fix in fixes {
        let clashes = fix.edits.iter().any(|e| {
            e.span.end > text.len()
                || !text.is_char_boundary(e.span.start)
                || !text.is_char_boundary(e.span.end)
                || taken.iter().any(|t| overlaps(t.span, e.span))
        });
        if !clashes {
            taken.extend(&fix.edits);
            applied += 1;
        }
    }
    taken.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in taken {
        out.push_str(&text[at..e.span.start]);
        out.push_str(&e.text);
        at = e.span.end;
    }
    out.push_str(&text[at..]);
    (out, applied)
}

/// True when two edits touch the same bytes (or insert at the same place).
fn overlaps(a: Span, b: Span) -> bool {
    a.start < b.end && b.start < a.end || a.start == b.start
}

/// The parent pointer and the last (unescaped) token of `pointer`.
fn split_pointer(pointer: &str) -> Option<(&str, String)> {
    let (parent, last) = pointer.rsplit_once('/')?;
    Some((parent, last.replace("~1", "/").replace("~0", "~")))
}

/// The JSON tree of `text`, when it parses without findings that would
/// make an edit unsafe (syntax errors).
fn json_root(text: &str) -> Option<Node> {
    let parsed = crate::json::parse(text);
    if parsed
        .findings
        .iter()
        .any(|f| f.rule.id != "json/duplicate-key")
    {
        return None;
    }
    parsed.root
}

fn duplicate_key(root: &Node, d: &Diagnostic) -> Option<Vec<Edit>> {
    let (parent, key) = split_pointer(&d.pointer)?;
    let members = root.at_pointer(parent)?.as_object()?;
    let first = members.iter().position(|m| m.key == key)?;
    let i = members.iter().position(|m| m.key_span == d.span)?;
    if i <= first || members[i].value.to_value() != members[first].value.to_value() {
        return None;
    }
    // From the end of the previous member to the end of this one: the
    // comma before it goes with it.
    let start = members[i - 1].value.span.end;
    Some(vec![Edit {
        span: Span::new(start, members[i].value.span.end),
        text: String::new(),
    }])
}

fn additional_properties(text: &str, root: &Node, pointer: &str) -> Option<Vec<Edit>> {
    let node = root.at_pointer(pointer)?;
    let Kind::Object(members) = &node.kind else {
        return None;
    };
    if members.iter().all(|m| m.key != "properties")
        || members.iter().any(|m| m.key == "additionalProperties")
    {
        return None;
    }
    let last = members.last()?;
    // The separator the object already uses between members.
    let separator = if members.len() >= 2 {
        let prev = &members[members.len() - 2];
        text.get(prev.value.span.end..last.key_span.start)?
            .to_string()
    } else {
        let gap = text.get(node.span.start + 1..last.key_span.start)?;
        format!(",{gap}")
    };
    if !separator.trim().starts_with(',') || separator.contains(['/', '#']) {
        return None;
    }
    Some(vec![Edit {
        span: Span::new(last.value.span.end, last.value.span.end),
        text: format!("{separator}\"additionalProperties\": false"),
    }])
}

/// Splits `text` at commas outside parentheses.
fn split_commas(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// True when `s` is a plain YAML scalar toolsmith may rewrite.
fn plain(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(['"', '\'', '[', '{', '&', '*', '!', '|', '>', '#'])
        && !s.contains(" #")
        && !s.contains(['\n', '\r'])
}

fn allowed_tools(text: &str, span: Span) -> Option<Vec<Edit>> {
    let value = text.get(span.start..span.end)?;
    let entries: Vec<String> =
        if let Some(inner) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
            // A flow list on one line.
            if inner.contains(['\n', '\r']) {
                return None;
            }
            split_commas(inner)
                .into_iter()
                .map(str::trim)
                .map(str::to_string)
                .collect()
        } else if value.trim_start().starts_with("- ") {
            // A block list: one `- entry` a line.
            value
                .lines()
                .map(|l| {
                    l.trim()
                        .strip_prefix("- ")
                        .map(str::trim)
                        .map(str::to_string)
                })
                .collect::<Option<Vec<_>>>()?
        } else if plain(value) {
            // A comma-separated string.
            split_commas(value)
                .into_iter()
                .map(str::trim)
                .map(str::to_string)
                .collect()
        } else {
            return None;
        };
    if entries.is_empty()
        || entries
            .iter()
            .any(|e| !plain(e) || e.contains(':') && !e.contains('('))
    {
        return None;
    }
    let joined = entries.join(" ");
    if value.starts_with('[') || !value.trim_start().starts_with("- ") {
        return Some(vec![Edit { span, text: joined }]);
    }
    // A block list: from the colon after the key to the end of the list.
    let before = &text[..span.start];
    let colon = before.rfind("allowed-tools:")? + "allowed-tools:".len();
    if !before[colon..].trim().is_empty() {
        return None;
    }
    Some(vec![Edit {
        span: Span::new(colon, span.end),
        text: format!(" {joined}"),
    }])
}

/// The frontmatter lines: (start offset, text without terminator).
fn frontmatter_lines(text: &str) -> Option<Vec<(usize, &str)>> {
    let fm = crate::frontmatter::split(text, "SKILL.md").ok()?;
    let mut lines = Vec::new();
    let mut at = fm.yaml_offset;
    for line in fm.yaml.split_inclusive('\n') {
        lines.push((at, line.trim_end_matches(['\n', '\r'])));
        at += line.len();
    }
    Some(lines)
}

fn version(text: &str, key: Span) -> Option<Vec<Edit>> {
    let lines = frontmatter_lines(text)?;
    let i = lines.iter().position(|(start, _)| *start == key.start)?;
    let (start, line) = lines[i];
    let value = line.strip_prefix("version:")?.trim();
    let double_quoted = value.len() >= 2 && value.starts_with('"') && value.ends_with('"');
    if !(plain(value) || double_quoted) {
        return None;
    }
    let quoted = if value.starts_with('"') {
        value.to_string()
    } else {
        if value.contains(['"', '\\']) {
            return None;
        }
        format!("\"{value}\"")
    };
    let newline = if text[start..].contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let line_end = start
        + text[start..]
            .find('\n')
            .map_or(text.len() - start, |n| n + 1);
    let remove = Edit {
        span: Span::new(start, line_end),
        text: String::new(),
    };
    // An existing block `metadata:` gets the entry; else a new one replaces the line.
    match lines.iter().position(|(_, l)| l.starts_with("metadata:")) {
        Some(m) => {
            if !lines[m].1["metadata:".len()..].trim().is_empty() {
                return None;
            }
            let children: Vec<&str> = lines[m + 1..]
                .iter()
                .map(|(_, l)| *l)
                .take_while(|l| l.is_empty() || l.starts_with([' ', '\t']))
                .collect();
            if children
                .iter()
                .any(|l| l.trim_start().starts_with("version:"))
            {
                return None;
            }
            let indent: String = children
                .iter()
                .find(|l| !l.trim().is_empty())
                .map(|l| l.chars().take_while(|c| *c == ' ').collect())
                .unwrap_or_else(|| "  ".to_string());
            let (m_start, m_line) = lines[m];
            let after = m_start + m_line.len() + newline.len();
            if m_start == start || after > text.len() {
                return None;
            }
            Some(vec![
                remove,
                Edit {
                    span: Span::new(after, after),
                    text: format!("{indent}version: {quoted}{newline}"),
                },
            ])
        }
        None => Some(vec![Edit {
            span: remove.span,
            text: format!("metadata:{newline}  version: {quoted}{newline}"),
        }]),
    }
}

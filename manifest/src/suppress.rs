//! Suppression comments in a skill file's YAML frontmatter:
//!
//! ```yaml
//! # toolsmith: allow skill/vendor-field — our host reads `x-team`
//! x-team: platform
//! license: MIT  # toolsmith: allow skill/unknown-field, skill/vendor-field — kept for the registry
//! ```
//!
//! A comment alone on its line covers the next line that is neither blank
//! nor a comment; a comment at the end of a line covers that line. The
//! reason after `—` (or `--`) is required. Only comments inside the
//! frontmatter count, and a `#` counts as a comment only at the start of a
//! line or after a blank, outside quotes on that line (a line of a block
//! scalar that reads like a suppression comment counts too).

use crate::config::{INVALID_VALUE, MISSING_REASON, RulePattern, UNKNOWN_RULE};
use crate::diagnostic::Finding;
use crate::frontmatter;
use crate::source::{Source, Span};

/// The marker after `#`.
pub const MARKER: &str = "toolsmith:";

/// One rule named in a suppression comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allowed {
    /// The rule or `prefix*` pattern.
    pub pattern: RulePattern,
    /// Where it is written.
    pub span: Span,
}

/// One `# toolsmith: allow …` comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppression {
    /// The rules it names (unknown ones left out: they are findings).
    pub rules: Vec<Allowed>,
    /// Why (empty when missing: that is a finding).
    pub reason: String,
    /// The whole comment.
    pub span: Span,
    /// The 1-based line whose findings it covers.
    pub target: usize,
}

/// The suppression comments of a skill file, and the findings about
/// malformed ones (unknown rules, no reason, unknown directive).
///
/// ```
/// use toolsmith_manifest::source::Source;
/// use toolsmith_manifest::suppress::comments;
/// let text = "---\nname: a\n# toolsmith: allow skill/vendor-field — read by our host\nx-team: 1\n---\n";
/// let (found, problems) = comments(&Source::new("SKILL.md", text));
/// assert!(problems.is_empty());
/// assert_eq!(found[0].target, 4);
/// ```
pub fn comments(source: &Source) -> (Vec<Suppression>, Vec<Finding>) {
    let text = source.text();
    let mut found = Vec::new();
    let mut problems = Vec::new();
    if !text.contains(MARKER) {
        return (found, problems);
    }
    let Ok(fm) = frontmatter::split(text, "SKILL.md") else {
        return (found, problems);
    };
    let ids: Vec<&'static str> = crate::registry::all().iter().map(|r| r.id).collect();
    // (offset of the line, the line) for every frontmatter line.
    let mut lines = Vec::new();
    let mut offset = fm.yaml_offset;
    for line in fm.yaml.split_inclusive('\n') {
        lines.push((offset, line.trim_end_matches(['\n', '\r'])));
        offset += line.len();
    }
    for (i, &(start, line)) in lines.iter().enumerate() {
        let Some(hash) = comment_start(line) else {
            continue;
        };
        let body = &line[hash + 1..];
        let lead = body.len() - body.trim_start().len();
        let Some(rest) = body.trim_start().strip_prefix(MARKER) else {
            continue;
        };
        let comment_span = Span::new(start + hash, start + line.len());
        let own_line = line[..hash].trim().is_empty();
        let target = if own_line {
            lines[i + 1..]
                .iter()
                .position(|(_, l)| {
                    let t = l.trim_start();
                    !t.is_empty() && !t.starts_with('#')
                })
                .map(|j| i + 1 + j)
        } else {
            Some(i)
        };
        let rest_offset = start + hash + 1 + lead + MARKER.len();
        let trimmed = rest.trim_start();
        let rest_offset = rest_offset + (rest.len() - trimmed.len());
        let Some(list) = trimmed
            .strip_prefix("allow")
            .filter(|r| r.is_empty() || r.starts_with([' ', '\t']))
        else {
            let word = trimmed.split_whitespace().next().unwrap_or("");
            problems.push(
                Finding::new(
                    &INVALID_VALUE,
                    comment_span,
                    "",
                    format!("unknown toolsmith directive `{word}` in a comment"),
                )
                .with_help("the form is `# toolsmith: allow RULE[, RULE] — reason`"),
            );
            continue;
        };
        let list_offset = rest_offset + "allow".len();
        let (rules_text, reason) = split_reason(list);
        let mut rules = Vec::new();
        let mut pos = 0;
        for part in rules_text.split(',') {
            let part_start = list_offset + pos + (part.len() - part.trim_start().len());
            pos += part.len() + 1;
            let name = part.trim();
            if name.is_empty() {
                continue;
            }
            let span = Span::new(part_start, part_start + name.len());
            let (pattern, problem) = crate::config::parse::check_rule_pattern(name, &ids);
            if let Some((message, help)) = problem {
                problems.push(Finding::new(&UNKNOWN_RULE, span, "", message).with_help(help));
            }
            if let Some(pattern) = pattern {
                rules.push(Allowed { pattern, span });
            }
        }
        if rules_text.trim().is_empty() {
            problems.push(
                Finding::new(
                    &INVALID_VALUE,
                    comment_span,
                    "",
                    "`# toolsmith: allow` names no rule",
                )
                .with_help("the form is `# toolsmith: allow RULE[, RULE] — reason`"),
            );
        }
        let reason = reason.unwrap_or("").trim().to_string();
        if reason.is_empty() {
            problems.push(
                Finding::new(
                    &MISSING_REASON,
                    comment_span,
                    "",
                    "this suppression comment gives no reason",
                )
                .with_help("say why after a dash: `# toolsmith: allow RULE — why it is accepted`"),
            );
        }
        match target {
            Some(t) => found.push(Suppression {
                rules,
                reason,
                span: comment_span,
                target: source.position(lines[t].0).line,
            }),
            None => problems.push(
                Finding::new(
                    &INVALID_VALUE,
                    comment_span,
                    "",
                    "this suppression comment is followed by no line of the frontmatter",
                )
                .with_help(
                    "put it on the line before the finding's line, or at the end of that line",
                ),
            ),
        }
    }
    (found, problems)
}

/// Splits `RULE, RULE — reason` at the first `—` or ` -- `.
fn split_reason(list: &str) -> (&str, Option<&str>) {
    let dash = list.find('—').map(|i| (i, '—'.len_utf8()));
    let double = list.find(" -- ").map(|i| (i, 4));
    let cut = match (dash, double) {
        (Some(a), Some(b)) => Some(if a.0 < b.0 { a } else { b }),
        (a, b) => a.or(b),
    };
    match cut {
        Some((i, len)) => (&list[..i], Some(&list[i + len..])),
        None => (list, None),
    }
}

/// The byte index of the `#` that starts a YAML comment on `line`, if any:
/// at the start or after a blank, outside single and double quotes.
fn comment_start(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let (mut single, mut double, mut escaped) = (false, false, false);
    for (i, &b) in bytes.iter().enumerate() {
        if double {
            match (escaped, b) {
                (false, b'\\') => escaped = true,
                (false, b'"') => double = false,
                _ => escaped = false,
            }
            continue;
        }
        if single {
            if b == b'\'' {
                single = false;
            }
            continue;
        }
        match b {
            b'"' => double = true,
            b'\'' => single = true,
            b'#' if i == 0 || matches!(bytes[i - 1], b' ' | b'\t') => return Some(i),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> (Vec<Suppression>, Vec<Finding>) {
        comments(&Source::new("SKILL.md", text))
    }

    #[test]
    fn trailing_comment_covers_its_line_and_lists_rules() {
        let (s, p) = run(
            "---\nname: a\nx: 1  # toolsmith: allow skill/vendor-field, skill/unknown-field -- legacy\n---\n",
        );
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(s[0].target, 3);
        assert_eq!(s[0].rules.len(), 2);
        assert_eq!(s[0].reason, "legacy");
    }

    #[test]
    fn hash_in_quotes_or_words_is_no_comment() {
        let (s, _) = run(
            "---\nname: \"# toolsmith: allow skill/vendor-field — x\"\nd: a#toolsmith: allow x — y\n---\n",
        );
        assert!(s.is_empty());
    }

    #[test]
    fn unknown_rule_missing_reason_and_bad_directive_are_findings() {
        let (s, p) = run(
            "---\n# toolsmith: allow skill/vendor-feld\nx: 1\n# toolsmith: deny x\ny: 2\n---\n",
        );
        let rules: Vec<&str> = p.iter().map(|f| f.rule.id).collect();
        assert_eq!(
            rules,
            [
                "config/unknown-rule",
                "config/missing-reason",
                "config/invalid-value"
            ]
        );
        assert!(
            p[0].message.contains("did you mean `skill/vendor-field`"),
            "{}",
            p[0].message
        );
        assert_eq!(s.len(), 1);
        assert!(s[0].rules.is_empty());
    }

    #[test]
    fn comments_outside_the_frontmatter_do_not_count() {
        let (s, p) = run("---\nname: a\n---\n# toolsmith: allow skill/vendor-field\n");
        assert!(s.is_empty() && p.is_empty());
    }
}

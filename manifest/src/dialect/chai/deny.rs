//! Deny checks on an argument mapping (V14): `denyPattern` must compile as
//! a Rust `regex` (chai compiles it at every call and fails the call when it
//! does not), and `denyAlwaysResolve` needs a `denyResolveCommand`.

use super::fields::{show, span_in_string};
use crate::cap::Findings;
use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::tree::Node;

pub static DENY_PATTERN_INVALID: Rule = Rule::error(
    "chai/deny-pattern-invalid",
    "chai",
    "a `denyPattern` is not a valid Rust regex: every call that reaches the check fails",
);
pub static DENY_ALWAYS_RESOLVE_WITHOUT_COMMAND: Rule = Rule::error(
    "chai/deny-always-resolve-without-command",
    "chai",
    "`denyAlwaysResolve` is set without a `denyResolveCommand`: every call fails",
);

/// The offset (in the pattern) and text of a regex syntax error.
fn regex_error(pattern: &str) -> Option<(Option<usize>, String)> {
    match regex_syntax::Parser::new().parse(pattern) {
        Err(regex_syntax::Error::Parse(e)) => {
            return Some((Some(e.span().start.offset), e.kind().to_string()));
        }
        Err(regex_syntax::Error::Translate(e)) => {
            return Some((Some(e.span().start.offset), e.kind().to_string()));
        }
        Err(e) => return Some((None, e.to_string())),
        Ok(_) => {}
    }
    // Limits (compiled size) are only known to the regex crate itself.
    regex::Regex::new(pattern).err().map(|e| {
        (
            None,
            e.to_string()
                .lines()
                .last()
                .unwrap_or("")
                .trim()
                .to_string(),
        )
    })
}

/// Checks the deny keys of one mapping; `text` is the file's text (for
/// positions inside the pattern string).
pub fn check(node: &Node, label: &str, text: &str, findings: &mut Findings) {
    let param = node.get("param").and_then(Node::as_str).unwrap_or("?");
    if let Some(p) = node.get("denyPattern")
        && let Some(pattern) = p.as_str()
        && let Some((offset, error)) = regex_error(pattern)
    {
        let span = offset.map_or(p.span, |o| span_in_string(text, p, o, 1));
        let at = offset.map_or_else(String::new, |o| format!(" at offset {o}"));
        findings.push(
            Finding::new(
                &DENY_PATTERN_INVALID,
                span,
                p.pointer(),
                format!(
                    "{label}: invalid denyPattern {} on param {}: {error}{at}",
                    show(pattern),
                    show(param)
                ),
            )
            .with_help("fix the pattern (Rust `regex` syntax, searched unanchored; in JSON a backslash is written `\\\\`); chai fails every call that reaches this check"),
        );
    }
    let always = node.member("denyAlwaysResolve");
    if let Some(m) = always.filter(|m| m.value.as_bool() == Some(true))
        && node.get("denyResolveCommand").is_none_or(Node::is_null)
    {
        findings.push(
            Finding::new(
                &DENY_ALWAYS_RESOLVE_WITHOUT_COMMAND,
                m.key_span,
                m.value.pointer(),
                format!(
                    "{label}: denyAlwaysResolve is set on param {} but no denyResolveCommand is configured; every call fails",
                    show(param)
                ),
            )
            .with_help("add a `denyResolveCommand` that prints the value to check, or remove `denyAlwaysResolve`"),
        );
    }
}

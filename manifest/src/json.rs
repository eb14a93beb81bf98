//! The JSON front end: strict JSON text to a positioned [`Node`] tree.
//!
//! Built on `jsonc-parser` with every leniency switched off. Syntax errors
//! point at the offending character; duplicate keys (which serde_json would
//! silently resolve to the last one) and nesting deeper than
//! [`MAX_DEPTH`](crate::input::MAX_DEPTH) are findings.

use crate::cap::Limiter;
use crate::diagnostic::Finding;
use crate::input::{MAX_DEPTH, TOO_DEEP};
use crate::rules::Rule;
use crate::source::Span;
use crate::tree::{Kind, Member, Node, child_pointer, index_pointer};
use jsonc_parser::ast;
use jsonc_parser::errors::ParseErrorKind;
use std::collections::HashSet;

/// Objects with more members than this check duplicate keys with a hash set.
const SMALL_OBJECT: usize = 8;

pub static SYNTAX: Rule = Rule::error("json/syntax", "json", "the file is not valid JSON");
pub static DUPLICATE_KEY: Rule = Rule::error(
    "json/duplicate-key",
    "json",
    "an object has the same key twice (serde_json silently keeps the last one)",
);

/// The JSON front-end rules.
pub static RULES: &[&Rule] = &[&SYNTAX, &DUPLICATE_KEY];

/// A parsed JSON document: the tree (absent after a syntax error) and the findings.
#[derive(Debug, Default)]
pub struct Parsed {
    /// The document, when it parsed.
    pub root: Option<Node>,
    /// Syntax, duplicate-key and depth findings.
    pub findings: Vec<Finding>,
}

/// Parses strict JSON. `text` may start with a BOM, which is skipped (the
/// caller reports it, see [`check_bom`](crate::input::check_bom)).
///
/// ```
/// use toolsmith_manifest::json::parse;
/// let p = parse(r#"{"a": 1, "a": 2}"#);
/// assert_eq!(p.findings[0].rule.id, "json/duplicate-key");
/// assert_eq!(p.root.unwrap().to_value()["a"], 2);
/// let p = parse("{\"a\": 1,}");
/// assert_eq!(p.findings[0].rule.id, "json/syntax");
/// assert_eq!(p.findings[0].span.start, 7);
/// ```
pub fn parse(text: &str) -> Parsed {
    let offset = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let body = &text[offset..];
    let options = jsonc_parser::ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let mut parsed = Parsed::default();
    if let Some(at) = first_too_deep(body) {
        parsed.findings.push(Finding::new(
            &TOO_DEEP,
            Span::new(at + offset, at + offset + 1),
            "",
            format!("nesting deeper than {MAX_DEPTH} levels; not parsed"),
        ));
        return parsed;
    }
    match jsonc_parser::parse_to_ast(body, &Default::default(), &options) {
        Ok(result) => match result.value {
            Some(value) => {
                let mut conv = Converter {
                    offset,
                    findings: &mut parsed.findings,
                    limiter: Limiter::default(),
                };
                parsed.root = Some(conv.node(&value, String::new()));
                let summaries = conv.limiter.summaries();
                parsed.findings.extend(summaries);
            }
            None => parsed.findings.push(Finding::new(
                &SYNTAX,
                Span::new(text.len(), text.len()),
                "",
                "expected a JSON value, found only whitespace",
            )),
        },
        Err(e) => parsed.findings.push(syntax_finding(body, offset, &e)),
    }
    parsed
}

/// Byte offset of the first `[` or `{` nested deeper than [`MAX_DEPTH`], found
/// by a linear scan before parsing, so that the position is exact and the
/// parser never recurses that deep.
fn first_too_deep(body: &str) -> Option<usize> {
    // The depth never exceeds the number of opening brackets, and counting
    // them is much cheaper than the scan below: most files have few.
    let opening = body.bytes().filter(|&b| b == b'[' || b == b'{').count();
    if opening <= MAX_DEPTH {
        return None;
    }
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in body.as_bytes().iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

fn syntax_finding(body: &str, offset: usize, e: &jsonc_parser::errors::ParseError) -> Finding {
    let range = e.range();
    let mut start = range.start.min(body.len());
    if matches!(e.kind(), ParseErrorKind::ExpectedComma) {
        // The parser reports the gap after the value; point at what follows it.
        let rest = &body[start..];
        start += rest.len() - rest.trim_start().len();
    }
    let end = range.end.clamp(start, body.len());
    let found = body[start..]
        .chars()
        .next()
        .map(|c| match c {
            '"' | '\'' => format!("`{c}`"),
            _ => format!("`{}`", c.escape_debug()),
        })
        .unwrap_or_else(|| "end of file".to_string());
    let (message, help) = match e.kind() {
        ParseErrorKind::NestingDepthExceeded => {
            return Finding::new(
                &TOO_DEEP,
                Span::new(start + offset, end + offset),
                "",
                format!("nesting deeper than {MAX_DEPTH} levels"),
            );
        }
        ParseErrorKind::TrailingCommasNotAllowed => (
            "trailing comma".to_string(),
            Some("remove the comma: JSON does not allow trailing commas"),
        ),
        ParseErrorKind::CommentsNotAllowed => (
            "comment in JSON".to_string(),
            Some("JSON has no comments; put notes in a `description`"),
        ),
        ParseErrorKind::SingleQuotedStringsNotAllowed => (
            "single-quoted string".to_string(),
            Some("use double quotes"),
        ),
        ParseErrorKind::ExpectedStringObjectProperty => {
            (format!("expected a double-quoted key, found {found}"), None)
        }
        ParseErrorKind::ExpectedComma => (format!("expected `,`, found {found}"), None),
        ParseErrorKind::ExpectedColonAfterObjectKey => {
            (format!("expected `:` after the key, found {found}"), None)
        }
        ParseErrorKind::UnterminatedObject => {
            ("unterminated object: `}` missing".to_string(), None)
        }
        ParseErrorKind::UnterminatedArray => ("unterminated array: `]` missing".to_string(), None),
        ParseErrorKind::MultipleRootJsonValues => (
            format!("unexpected {found} after the end of the JSON value"),
            None,
        ),
        other => (
            format!("{}, found {found}", lowercase_first(&other.to_string())),
            None,
        ),
    };
    // Point at one character, not at the whole unterminated construct.
    let one = body[start..].chars().next().map_or(0, char::len_utf8);
    let end = if matches!(
        e.kind(),
        ParseErrorKind::UnterminatedObject | ParseErrorKind::UnterminatedArray
    ) {
        start + one
    } else {
        end.max(start + one).min(body.len())
    };
    let f = Finding::new(
        &SYNTAX,
        Span::new(start + offset, end + offset),
        "",
        message,
    );
    match help {
        Some(h) => f.with_help(h),
        None => f,
    }
}

fn lowercase_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

struct Converter<'f> {
    offset: usize,
    findings: &'f mut Vec<Finding>,
    /// Keeps a million duplicate keys from becoming a million findings in memory.
    limiter: Limiter,
}

impl Converter<'_> {
    fn span(&self, r: jsonc_parser::common::Range) -> Span {
        Span::new(r.start + self.offset, r.end + self.offset)
    }

    fn node(&mut self, value: &ast::Value<'_>, pointer: String) -> Node {
        let span = self.span(value_range(value));
        let kind = match value {
            ast::Value::NullKeyword(_) => Kind::Null,
            ast::Value::BooleanLit(b) => Kind::Bool(b.value),
            ast::Value::StringLit(s) => Kind::String(s.value.to_string()),
            ast::Value::NumberLit(n) => match n.value.parse::<serde_json::Number>() {
                Ok(num) => Kind::Number(num),
                Err(_) => {
                    self.limiter.push(
                        self.findings,
                        Finding::new(
                            &SYNTAX,
                            span,
                            pointer.clone(),
                            format!("number `{}` is out of range", n.value),
                        ),
                    );
                    Kind::Null
                }
            },
            ast::Value::Array(a) => {
                let mut items = Vec::with_capacity(a.elements.len());
                for (i, el) in a.elements.iter().enumerate() {
                    items.push(self.node(el, index_pointer(&pointer, i)));
                }
                Kind::Array(items)
            }
            ast::Value::Object(o) => {
                let mut members: Vec<Member> = Vec::with_capacity(o.properties.len());
                // Small objects are scanned; larger ones keep a set of their keys,
                // so that checking for duplicates stays linear.
                let mut keys = (o.properties.len() > SMALL_OBJECT)
                    .then(|| HashSet::with_capacity(o.properties.len()));
                for prop in &o.properties {
                    let (key, key_range) = match &prop.name {
                        ast::ObjectPropName::String(s) => (s.value.to_string(), s.range),
                        ast::ObjectPropName::Word(w) => (w.value.to_string(), w.range),
                    };
                    let key_span = self.span(key_range);
                    let child = child_pointer(&pointer, &key);
                    let duplicate = match keys.as_mut() {
                        Some(keys) => !keys.insert(key.clone()),
                        None => members.iter().any(|m| m.key == key),
                    };
                    if duplicate {
                        self.limiter.push(
                            self.findings,
                            Finding::new(
                                &DUPLICATE_KEY,
                                key_span,
                                child.clone(),
                                format!("duplicate key `{key}`"),
                            )
                            .with_help(
                                "remove one of them: serde_json silently keeps the last value and drops the earlier one",
                            ),
                        );
                    }
                    let value = self.node(&prop.value, child);
                    members.push(Member {
                        key,
                        key_span,
                        value,
                    });
                }
                Kind::Object(members)
            }
        };
        Node {
            kind,
            span,
            pointer,
        }
    }
}

fn value_range(value: &ast::Value<'_>) -> jsonc_parser::common::Range {
    match value {
        ast::Value::StringLit(v) => v.range,
        ast::Value::NumberLit(v) => v.range,
        ast::Value::BooleanLit(v) => v.range,
        ast::Value::Object(v) => v.range,
        ast::Value::Array(v) => v.range,
        ast::Value::NullKeyword(v) => v.range,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_over_the_limit_points_at_the_first_bracket_too_deep() {
        let text = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let parsed = parse(&text);
        assert!(parsed.root.is_none());
        assert_eq!(parsed.findings.len(), 1);
        assert_eq!(parsed.findings[0].rule.id, "input/too-deep");
        assert_eq!(parsed.findings[0].span, Span::new(MAX_DEPTH, MAX_DEPTH + 1));
    }

    #[test]
    fn brackets_inside_strings_do_not_count_as_nesting() {
        let text = format!("{{\"a\": \"{}\\\"{}\"}}", "[".repeat(500), "{".repeat(500));
        let parsed = parse(&text);
        assert!(parsed.findings.is_empty(), "{:?}", parsed.findings);
        assert!(parsed.root.is_some());
    }

    #[test]
    fn nesting_at_the_limit_is_accepted() {
        let text = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&text).findings.is_empty());
    }

    #[test]
    fn a_missing_comma_points_at_the_next_token() {
        let parsed = parse("{\"a\": 1 \"b\": 2}");
        assert_eq!(parsed.findings[0].message, "expected `,`, found `\"`");
        assert_eq!(parsed.findings[0].span.start, 8);
    }
}

//! What goagent's loader inherits from Go: `%q` quoting, `encoding/json`'s
//! case-insensitive key matching, and its `UnmarshalTypeError` wording.

use crate::tree::{Kind, Node};
use unicode_general_category::{GeneralCategory as G, get_general_category};

/// A Go `%q` (`strconv.Quote`) rendering of `s`.
///
/// ```
/// use toolsmith_manifest::dialect::agentcli::go::quote;
/// assert_eq!(quote(r".\tools\bin\..\hack"), r#"".\\tools\\bin\\..\\hack""#);
/// assert_eq!(quote("a\"b\n\u{7}\u{1}\u{a0}é"), r#""a\"b\n\a\x01\u00a0é""#);
/// ```
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if is_print(c) => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space.
fn is_print(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    !matches!(
        get_general_category(c),
        G::Control
            | G::Format
            | G::LineSeparator
            | G::ParagraphSeparator
            | G::SpaceSeparator
            | G::PrivateUse
            | G::Surrogate
            | G::Unassigned
    )
}

/// `encoding/json` matches a JSON key to a struct field case-insensitively
/// (with Unicode simple folding: `ſ` matches `s`, the Kelvin sign `K` matches `k`).
///
/// ```
/// use toolsmith_manifest::dialect::agentcli::go::key_matches;
/// assert!(key_matches("TimeoutSEC", "timeoutSec"));
/// assert!(key_matches("ſchema", "schema"));
/// assert!(!key_matches("timeout", "timeoutSec"));
/// ```
pub fn key_matches(key: &str, field: &str) -> bool {
    let fold = |c: char| match c {
        'ſ' => 's',
        '\u{212a}' => 'k',
        c => c.to_ascii_lowercase(),
    };
    key.chars().count() == field.chars().count()
        && key
            .chars()
            .zip(field.chars())
            .all(|(a, b)| fold(a) == fold(b))
}

/// A Go type a JSON value is decoded into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoType {
    /// `string`.
    String,
    /// `int` (64-bit).
    Int,
    /// `[]string`.
    StringSlice,
    /// `tools.ToolSpec`.
    ToolSpec,
    /// `[]tools.ToolSpec`.
    ToolSpecSlice,
    /// `tools.Manifest`.
    Manifest,
}

impl GoType {
    /// The type as Go's `reflect.Type.String()` prints it.
    pub fn name(self) -> &'static str {
        match self {
            GoType::String => "string",
            GoType::Int => "int",
            GoType::StringSlice => "[]string",
            GoType::ToolSpec => "tools.ToolSpec",
            GoType::ToolSpecSlice => "[]tools.ToolSpec",
            GoType::Manifest => "tools.Manifest",
        }
    }

    /// Whether a JSON value of this kind decodes into the type (`null` always does).
    fn accepts(self, node: &Node, literal: &str) -> bool {
        match (&node.kind, self) {
            (Kind::Null, _) => true,
            (Kind::String(_), GoType::String) => true,
            (Kind::Number(_), GoType::Int) => parse_int(literal).is_some(),
            (Kind::Array(_), GoType::StringSlice | GoType::ToolSpecSlice) => true,
            (Kind::Object(_), GoType::ToolSpec | GoType::Manifest) => true,
            _ => false,
        }
    }
}

/// Go's `strconv.ParseInt(s, 10, 64)` on a JSON number literal.
pub fn parse_int(literal: &str) -> Option<i64> {
    literal.parse::<i64>().ok()
}

/// The `encoding/json` error for decoding `node` into `ty`, if it does not fit
/// (`json: cannot unmarshal number 5.5 into Go struct field ToolSpec.tools.timeoutSec of type int`).
///
/// `field` is `(struct name, dotted field path)`, `None` for the document root.
/// `source` is the file text (Go quotes a misfit number as written).
pub fn type_error(
    node: &Node,
    source: &str,
    ty: GoType,
    field: Option<(&str, &str)>,
) -> Option<String> {
    let literal = source.get(node.span.start..node.span.end).unwrap_or("");
    if ty.accepts(node, literal) {
        return None;
    }
    let value = match &node.kind {
        Kind::Null => return None,
        Kind::Bool(_) => "bool".to_string(),
        Kind::Number(_) if ty == GoType::Int => format!("number {literal}"),
        Kind::Number(_) => "number".to_string(),
        Kind::String(_) => "string".to_string(),
        Kind::Array(_) => "array".to_string(),
        Kind::Object(_) => "object".to_string(),
    };
    let into = match field {
        Some((strukt, path)) => format!("Go struct field {strukt}.{path}"),
        None => "Go value".to_string(),
    };
    Some(format!(
        "json: cannot unmarshal {value} into {into} of type {}",
        ty.name()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn err(text: &str, ty: GoType) -> Option<String> {
        let root = parse(text).root.expect("parses");
        type_error(&root, text, ty, Some(("ToolSpec", "tools.timeoutSec")))
    }

    #[test]
    fn type_errors_use_go_wording() {
        assert_eq!(err("5", GoType::Int), None);
        assert_eq!(err("-7", GoType::Int), None);
        assert_eq!(err("null", GoType::Int), None);
        assert_eq!(
            err("5.5", GoType::Int).as_deref(),
            Some(
                "json: cannot unmarshal number 5.5 into Go struct field ToolSpec.tools.timeoutSec of type int"
            )
        );
        assert_eq!(
            err("1e3", GoType::Int).as_deref(),
            Some(
                "json: cannot unmarshal number 1e3 into Go struct field ToolSpec.tools.timeoutSec of type int"
            )
        );
        assert_eq!(
            err("99999999999999999999", GoType::Int).as_deref(),
            Some(
                "json: cannot unmarshal number 99999999999999999999 into Go struct field ToolSpec.tools.timeoutSec of type int"
            )
        );
        assert_eq!(
            err("\"5\"", GoType::Int).as_deref(),
            Some(
                "json: cannot unmarshal string into Go struct field ToolSpec.tools.timeoutSec of type int"
            )
        );
        assert_eq!(
            err("5", GoType::String).as_deref(),
            Some(
                "json: cannot unmarshal number into Go struct field ToolSpec.tools.timeoutSec of type string"
            )
        );
        assert_eq!(
            err("true", GoType::StringSlice).as_deref(),
            Some(
                "json: cannot unmarshal bool into Go struct field ToolSpec.tools.timeoutSec of type []string"
            )
        );
        let root = parse("[]").root.expect("parses");
        assert_eq!(
            type_error(&root, "[]", GoType::Manifest, None).as_deref(),
            Some("json: cannot unmarshal array into Go value of type tools.Manifest")
        );
    }

    #[test]
    fn quote_escapes_like_go() {
        assert_eq!(quote("get_time"), "\"get_time\"");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(
            quote("\u{7f}\u{200b}\u{1F600}"),
            "\"\\x7f\\u200b\u{1F600}\""
        );
        assert_eq!(quote("\u{F0000}"), "\"\\U000f0000\"");
    }
}

//! The keys chai knows, per object and per version, with their JSON types;
//! the structural walk that reports unknown keys, wrong types and missing
//! required keys; serde-style value descriptions; did-you-mean.

use super::Version;
use crate::cap::Findings;
use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::source::Span;
use crate::suggest::closest;
use crate::tree::{Kind, Node};

pub static UNKNOWN_FIELD: Rule = Rule::error(
    "chai/unknown-field",
    "chai",
    "a key the legacy chai structs do not know (they use `deny_unknown_fields`: the whole file is rejected)",
);
pub static UNKNOWN_FIELD_IGNORED: Rule = Rule::warning(
    "chai/unknown-field-ignored",
    "chai",
    "a key chai v0.5 does not know; it is ignored silently (often a typo)",
);
pub static INVALID_TYPE: Rule = Rule::error(
    "chai/invalid-type",
    "chai",
    "a value has the wrong JSON type (chai fails to parse the file)",
);
pub static MISSING_FIELD: Rule = Rule::error(
    "chai/missing-field",
    "chai",
    "a required key is missing (chai fails to parse the file, or the entry is unusable)",
);

/// The JSON type a key must have.
#[derive(Debug, Clone, Copy)]
pub enum Ty {
    /// A string.
    String,
    /// `true` / `false`.
    Bool,
    /// An integer number.
    Integer,
    /// An array of strings.
    Strings,
    /// An array of integers.
    Integers,
    /// An object whose values are checked elsewhere.
    Map,
    /// Anything (checked elsewhere, if at all).
    Any,
    /// An object with known keys.
    Object(&'static [Field]),
    /// An array of objects with known keys.
    Objects(&'static [Field]),
}

/// One key of a chai object.
#[derive(Debug)]
pub struct Field {
    /// The key, exactly as chai spells it (camelCase).
    pub name: &'static str,
    /// Its type.
    pub ty: Ty,
    /// `null` is accepted (serde `Option`).
    pub nullable: bool,
    /// The key must be present.
    pub required: bool,
    /// The first version that knows the key.
    pub since: Version,
}

const fn f(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        nullable: false,
        required: false,
        since: Version::Legacy,
    }
}
const fn opt(name: &'static str, ty: Ty) -> Field {
    Field {
        nullable: true,
        ..f(name, ty)
    }
}
const fn req(name: &'static str, ty: Ty) -> Field {
    Field {
        required: true,
        ..f(name, ty)
    }
}
const fn v05(name: &'static str, ty: Ty) -> Field {
    Field {
        since: Version::V05,
        ..opt(name, ty)
    }
}
const fn v05_req(name: &'static str, ty: Ty) -> Field {
    Field {
        required: true,
        ..v05(name, ty)
    }
}

/// The legacy root object. The three keys are required (checked by `legacy`,
/// with chai's own message).
pub static ROOT: &[Field] = &[
    f("tools", Ty::Objects(TOOL)),
    f("allowlist", Ty::Map),
    f("execution", Ty::Objects(EXECUTION)),
];
/// A tool spec (`tools[]`).
pub static TOOL: &[Field] = &[
    req("name", Ty::String),
    opt("description", Ty::String),
    f("parameters", Ty::Any),
];
/// An execution spec (`execution[]`).
pub static EXECUTION: &[Field] = &[
    req("tool", Ty::String),
    req("binary", Ty::String),
    req("subcommand", Ty::String),
    f("args", Ty::Objects(ARG)),
    v05("binaryWrapper", Ty::Strings),
    v05("condition", Ty::Object(CONDITION)),
    v05("paramCondition", Ty::Object(PARAM_CONDITION)),
    v05("postProcess", Ty::Object(POST_PROCESS)),
    v05("sideRead", Ty::Object(SIDE_READ)),
    v05("successExitCodes", Ty::Integers),
    v05("maxOutputLines", Ty::Integer),
    v05("truncationHint", Ty::String),
    v05("hintConditions", Ty::Objects(HINT)),
];
/// An argument mapping (`execution[].args[]`). `param` is required except
/// for v0.5 `literal` (checked by `args`).
pub static ARG: &[Field] = &[
    f("param", Ty::String),
    f("kind", Ty::String),
    opt("flag", Ty::String),
    opt("flagIfTrue", Ty::String),
    opt("flagIfFalse", Ty::String),
    opt("normalizeNewlines", Ty::Bool),
    opt("resolveCommand", Ty::Object(RESOLVE)),
    v05("value", Ty::String),
    v05("absentDefault", Ty::Any),
    v05("optional", Ty::Bool),
    v05("split", Ty::Bool),
    v05("disambiguateAfterSkippedPositionals", Ty::Bool),
    v05("readPath", Ty::Bool),
    v05("writePath", Ty::Bool),
    v05("unsafePath", Ty::Bool),
    v05("denyPattern", Ty::String),
    v05("denyResolveCommand", Ty::Object(RESOLVE)),
    v05("denyAlwaysResolve", Ty::Bool),
    v05("subcommandOverride", Ty::String),
];
/// `resolveCommand` / `denyResolveCommand`.
pub static RESOLVE: &[Field] = &[
    opt("script", Ty::String),
    opt("binary", Ty::String),
    opt("subcommand", Ty::String),
    f("args", Ty::Strings),
];
/// v0.5 `postProcess`.
pub static POST_PROCESS: &[Field] = &[
    v05("script", Ty::String),
    v05("binary", Ty::String),
    v05("subcommand", Ty::String),
    v05("args", Ty::Strings),
    v05("emptyIsResult", Ty::Bool),
];
/// v0.5 `condition`.
pub static CONDITION: &[Field] = &[v05_req("binGroup", Ty::Integer)];
/// v0.5 `paramCondition`.
pub static PARAM_CONDITION: &[Field] = &[v05("present", Ty::Strings), v05("absent", Ty::Strings)];
/// v0.5 `sideRead`.
pub static SIDE_READ: &[Field] = &[
    v05_req("pathParam", Ty::String),
    v05_req("filename", Ty::String),
    v05("label", Ty::String),
    v05("oncePerSession", Ty::Bool),
];
/// v0.5 `hintConditions[]`.
pub static HINT: &[Field] = &[
    v05("match", Ty::String),
    v05("exitCode", Ty::Any),
    v05("notEmpty", Ty::Bool),
    v05("whenArg", Ty::Map),
    v05_req("hint", Ty::String),
];

fn known(field: &Field, version: Version) -> bool {
    field.since == Version::Legacy || version == Version::V05
}

/// Walks `node` against `table`: unknown keys, wrong types and missing
/// required keys, recursing into nested objects. `label` names the object in
/// chai's style (`execution[2].args[0]`).
pub fn check_object(
    node: &Node,
    table: &'static [Field],
    version: Version,
    label: &str,
    findings: &mut Findings,
) {
    let Some(members) = node.as_object() else {
        findings.push(invalid_type(node, "a map"));
        return;
    };
    for member in members {
        match table
            .iter()
            .find(|f| f.name == member.key && known(f, version))
        {
            Some(field) => check_value(&member.value, field, version, label, findings),
            None => findings.push(unknown_field(
                &member.key,
                member.key_span,
                &member.value.pointer(),
                table,
                version,
            )),
        }
    }
    for field in table.iter().filter(|f| f.required && known(f, version)) {
        if node.get(field.name).is_none() {
            findings.push(missing(node, field.name, version, label));
        }
    }
}

/// Walks every element of an array of objects (`{label}[{i}]`).
pub fn check_items(
    items: &[Node],
    table: &'static [Field],
    version: Version,
    label: &str,
    findings: &mut Findings,
) {
    for (i, item) in items.iter().enumerate() {
        check_object(item, table, version, &format!("{label}[{i}]"), findings);
    }
}

fn check_value(
    value: &Node,
    field: &Field,
    version: Version,
    label: &str,
    findings: &mut Findings,
) {
    if value.is_null() && (field.nullable || matches!(field.ty, Ty::Any)) {
        return;
    }
    let child = if label.is_empty() {
        field.name.to_string()
    } else {
        format!("{label}.{}", field.name)
    };
    match field.ty {
        Ty::Any => {}
        Ty::String if value.as_str().is_none() => findings.push(invalid_type(value, "a string")),
        Ty::Bool if value.as_bool().is_none() => findings.push(invalid_type(value, "a boolean")),
        Ty::Integer if !is_integer(value) => findings.push(invalid_type(value, "an integer")),
        Ty::Map if value.as_object().is_none() => findings.push(invalid_type(value, "a map")),
        Ty::Object(table) => check_object(value, table, version, &child, findings),
        Ty::Strings | Ty::Integers | Ty::Objects(_) => {
            let Some(items) = value.as_array() else {
                findings.push(invalid_type(value, "a sequence"));
                return;
            };
            for item in items {
                match field.ty {
                    Ty::Strings if item.as_str().is_none() => {
                        findings.push(invalid_type(item, "a string"));
                    }
                    Ty::Integers if !is_integer(item) => {
                        findings.push(invalid_type(item, "an integer"));
                    }
                    _ => {}
                }
            }
            if let Ty::Objects(table) = field.ty {
                check_items(items, table, version, &child, findings);
            }
        }
        _ => {}
    }
}

/// True for a JSON integer.
pub fn is_integer(node: &Node) -> bool {
    matches!(&node.kind, Kind::Number(n) if n.is_i64() || n.is_u64())
}

/// serde's description of an unexpected value (`integer `1``, `string "s"`, `map`).
pub fn unexpected(node: &Node) -> String {
    match &node.kind {
        Kind::Null => "null".to_string(),
        Kind::Bool(b) => format!("boolean `{b}`"),
        Kind::Number(n) if n.is_f64() => format!("floating point `{n}`"),
        Kind::Number(n) => format!("integer `{n}`"),
        Kind::String(s) => format!("string {}", show(s)),
        Kind::Array(_) => "sequence".to_string(),
        Kind::Object(_) => "map".to_string(),
    }
}

/// A wrong-type finding: serde's `invalid type: {found}, expected {expected}`.
pub fn invalid_type(node: &Node, expected: &str) -> Finding {
    Finding::new(
        &INVALID_TYPE,
        node.span,
        node.pointer(),
        format!("invalid type: {}, expected {expected}", unexpected(node)),
    )
}

/// A missing-key finding, at the object's opening brace: serde's
/// ``missing field `x` `` (legacy) or `chai skill validate`'s `{label}: missing {x}` (v0.5).
pub fn missing(object: &Node, key: &str, version: Version, label: &str) -> Finding {
    let message = match version {
        Version::Legacy => format!("missing field `{key}`"),
        Version::V05 => format!("{label}: missing {key}"),
    };
    Finding::new(
        &MISSING_FIELD,
        first_char(object),
        object.pointer(),
        message,
    )
}

/// The span of a node's first character (`{` or `[`).
pub fn first_char(node: &Node) -> Span {
    Span::new(node.span.start, (node.span.start + 1).min(node.span.end))
}

/// A string for a message: quoted and escaped like Rust's `{:?}`, cut after 60 characters.
pub fn show(s: &str) -> String {
    const MAX: usize = 60;
    match s.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{:?}…", &s[..cut]),
        None => format!("{s:?}"),
    }
}

/// serde's list of expected names: `` `a` ``, `` `a` or `b` ``, `` one of `a`, `b`, `c` ``.
pub fn expected_list(names: &[&str]) -> String {
    match names {
        [] => "nothing".to_string(),
        [one] => format!("`{one}`"),
        [a, b] => format!("`{a}` or `{b}`"),
        _ => {
            let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("one of {}", list.join(", "))
        }
    }
}

fn unknown_field(
    key: &str,
    span: Span,
    pointer: &str,
    table: &'static [Field],
    version: Version,
) -> Finding {
    let names: Vec<&str> = table
        .iter()
        .filter(|f| known(f, version))
        .map(|f| f.name)
        .collect();
    let finding = match version {
        Version::Legacy => Finding::new(
            &UNKNOWN_FIELD,
            span,
            pointer,
            format!("unknown field `{key}`, expected {}", expected_list(&names)),
        ),
        Version::V05 => Finding::new(
            &UNKNOWN_FIELD_IGNORED,
            span,
            pointer,
            format!("unknown field `{key}` (chai ignores it)"),
        ),
    };
    if version == Version::Legacy && table.iter().any(|f| f.name == key) {
        return finding.with_help(format!(
            "`{key}` is a chai v0.5 field; the legacy single-file format rejects it: move to the three-file layout (tools.json array, allowlist.json, execution.json)"
        ));
    }
    match closest(key, names.iter().copied()) {
        Some(s) => finding.with_help(format!("did you mean `{s}`? (keys are camelCase)")),
        None => finding,
    }
}

/// The byte offset in `text` of the character at `value_offset` in the
/// decoded value of the JSON string `node` (its span covers the quotes).
/// `None` when the span does not hold a quoted string.
pub fn offset_in_string(text: &str, node: &Node, value_offset: usize) -> Option<usize> {
    let raw = text.get(node.span.start..node.span.end)?;
    let quote = raw.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let mut pos = quote.len_utf8();
    let mut decoded = 0;
    while decoded < value_offset {
        let rest = raw.get(pos..)?;
        let c = rest.chars().next()?;
        if c == quote {
            break;
        }
        if c != '\\' {
            pos += c.len_utf8();
            decoded += c.len_utf8();
            continue;
        }
        match rest.get(1..2)? {
            "u" => {
                let unit = u32::from_str_radix(rest.get(2..6)?, 16).ok()?;
                let pair = rest
                    .get(6..8)
                    .filter(|e| *e == "\\u" && (0xD800..0xDC00).contains(&unit))
                    .and_then(|_| u32::from_str_radix(rest.get(8..12)?, 16).ok())
                    .filter(|low| (0xDC00..0xE000).contains(low));
                match pair {
                    Some(low) => {
                        let c = char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))?;
                        pos += 12;
                        decoded += c.len_utf8();
                    }
                    None => {
                        pos += 6;
                        decoded += char::from_u32(unit).map_or(3, char::len_utf8);
                    }
                }
            }
            _ => {
                pos += 2;
                decoded += 1;
            }
        }
    }
    Some(node.span.start + pos)
}

/// The span of the character at `value_offset` of a JSON string value, or
/// the whole string when it cannot be mapped.
pub fn span_in_string(text: &str, node: &Node, value_offset: usize, len: usize) -> Span {
    match offset_in_string(text, node, value_offset) {
        Some(start) if start < node.span.end => {
            let width = text
                .get(start..)
                .and_then(|t| t.chars().next())
                .map_or(1, char::len_utf8)
                .max(len.min(node.span.end - start));
            Span::new(start, (start + width).min(node.span.end))
        }
        _ => node.span,
    }
}

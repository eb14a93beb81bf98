//! Pass 1: the draft 2020-12 meta-schema, checked structurally.
//!
//! The meta-schema (`https://json-schema.org/draft/2020-12/schema` and its
//! seven vocabularies) only says, for each keyword, what its value must be: a
//! schema, a map or a non-empty list of schemas, a string, a URI (reference),
//! an anchor name, a regular expression, a number, a non-negative integer, a
//! list of unique strings, or one of the seven type names. This module checks
//! exactly that, keyword by keyword, directly on the positioned tree: no
//! validator is compiled (compiling the meta-schema cost more than the rest of
//! a lint run), and each finding names the keyword, the expected value and the
//! value found. Keywords the meta-schema does not define are allowed, as it
//! allows them. A `$schema` naming another draft changes nothing: the draft is
//! pinned to 2020-12.
//!
//! `pattern` and `patternProperties` names must be ECMA-262 regular
//! expressions (the same judgement as the `jsonschema` crate's, through its
//! `jsonschema-regex` crate); URIs and URI references are parsed as RFC 3986
//! defines them (`fluent-uri`).

use super::{TYPE_NAMES, invalid, last_token, show, type_findings};
use crate::diagnostic::Finding;
use crate::tree::{Kind, Node};

/// What the meta-schema requires of one keyword's value.
#[derive(Clone, Copy)]
enum Expect {
    /// A schema: an object or a boolean.
    Schema,
    /// An object whose values are schemas (keys: regexes when `regex_keys`).
    SchemaMap { regex_keys: bool },
    /// A non-empty array of schemas.
    SchemaList,
    /// Any string.
    Text,
    /// A string that is an absolute URI.
    Uri,
    /// A string that is a URI reference (`$id`: without a non-empty fragment).
    UriReference { id: bool },
    /// A string matching `^[A-Za-z_][-A-Za-z0-9._]*$`.
    Anchor,
    /// A string that is an ECMA-262 regular expression.
    Regex,
    /// `true` or `false`.
    Boolean,
    /// Any number (`exclusive_zero`: greater than 0).
    Number { positive: bool },
    /// An integer ≥ 0 (1.0 counts as an integer, as JSON Schema defines it).
    NonNegativeInteger,
    /// An array of unique strings.
    StringArray,
    /// An object whose values are arrays of unique strings.
    StringArrayMap,
    /// An object whose values are schemas or arrays of unique strings.
    Dependencies,
    /// An object of URI keys and boolean values.
    Vocabulary,
    /// An array of anything.
    Array,
    /// A type name or a non-empty array of unique type names.
    Type,
}

/// The keywords of draft 2020-12 (with the legacy ones its meta-schema still
/// defines) and what each value must be.
fn expect(keyword: &str) -> Option<Expect> {
    use Expect::*;
    Some(match keyword {
        "items"
        | "contains"
        | "additionalProperties"
        | "propertyNames"
        | "if"
        | "then"
        | "else"
        | "not"
        | "unevaluatedItems"
        | "unevaluatedProperties"
        | "contentSchema" => Schema,
        "properties" | "dependentSchemas" | "$defs" | "definitions" => {
            SchemaMap { regex_keys: false }
        }
        "patternProperties" => SchemaMap { regex_keys: true },
        "prefixItems" | "allOf" | "anyOf" | "oneOf" => SchemaList,
        "$comment" | "title" | "description" | "format" | "contentEncoding"
        | "contentMediaType" => Text,
        "$schema" => Uri,
        "$id" => UriReference { id: true },
        "$ref" | "$dynamicRef" | "$recursiveRef" => UriReference { id: false },
        "$anchor" | "$dynamicAnchor" | "$recursiveAnchor" => Anchor,
        "pattern" => Regex,
        "uniqueItems" | "deprecated" | "readOnly" | "writeOnly" => Boolean,
        "maximum" | "exclusiveMaximum" | "minimum" | "exclusiveMinimum" => {
            Number { positive: false }
        }
        "multipleOf" => Number { positive: true },
        "maxLength" | "minLength" | "maxItems" | "minItems" | "maxContains" | "minContains"
        | "maxProperties" | "minProperties" => NonNegativeInteger,
        "required" => StringArray,
        "dependentRequired" => StringArrayMap,
        "dependencies" => Dependencies,
        "$vocabulary" => Vocabulary,
        "enum" | "examples" => Array,
        "type" => Type,
        _ => return None,
    })
}

/// Checks `node` (the schema at the place named `place`) against the draft
/// 2020-12 meta-schema; returns true when it is valid.
pub(super) fn check(node: &Node, place: &str, out: &mut Vec<Finding>) -> bool {
    let before = out.len();
    let mut meta = Meta { place, out };
    if !is_schema(node) {
        let detail = format!(
            "expected a schema (an object or `true`/`false`), found {} {}",
            node.type_name(),
            show(node)
        );
        meta.out.push(invalid(place, node, detail));
    } else {
        meta.schema(node);
    }
    out.len() == before
}

fn is_schema(node: &Node) -> bool {
    matches!(node.kind, Kind::Object(_) | Kind::Bool(_))
}

struct Meta<'a> {
    place: &'a str,
    out: &'a mut Vec<Finding>,
}

impl Meta<'_> {
    /// A value known to be an object or a boolean.
    fn schema(&mut self, node: &Node) {
        for m in node.as_object().unwrap_or_default() {
            if let Some(expect) = expect(&m.key) {
                self.keyword(&m.key, &m.value, expect);
            }
        }
    }

    fn push(&mut self, at: &Node, detail: impl std::fmt::Display) {
        self.out.push(invalid(self.place, at, detail));
    }

    fn wrong(&mut self, key: &str, at: &Node, expected: &str) {
        self.push(
            at,
            format!(
                "`{key}` must be {expected}, found {} {}",
                at.type_name(),
                show(at)
            ),
        );
    }

    /// A value that must be a schema: `what` says where it sits.
    fn subschema(&mut self, at: &Node, what: impl FnOnce() -> String) {
        if is_schema(at) {
            self.schema(at);
        } else {
            let detail = format!("{}, found {} {}", what(), at.type_name(), show(at));
            self.push(at, detail);
        }
    }

    fn keyword(&mut self, key: &str, value: &Node, expect: Expect) {
        match expect {
            Expect::Schema => {
                if key == "items" && value.as_array().is_some() {
                    let f = invalid(
                        self.place,
                        value,
                        format!(
                            "`items` must be a schema (an object or `true`/`false`), found array {}",
                            show(value)
                        ),
                    )
                    .with_help("draft 2020-12 spells tuple validation `prefixItems`");
                    self.out.push(f);
                } else {
                    self.subschema(value, || {
                        format!("`{key}` must be a schema (an object or `true`/`false`)")
                    });
                }
            }
            Expect::SchemaMap { regex_keys } => {
                let Some(members) = value.as_object() else {
                    return self.wrong(key, value, "an object of schemas");
                };
                for m in members {
                    if regex_keys && !jsonschema_regex::is_valid_ecma_regex(&m.key) {
                        self.out.push(Finding::new(
                            &super::INVALID,
                            m.key_span,
                            m.value.pointer(),
                            format!(
                                "invalid JSON Schema in `{}`: `{key}` name \"{}\" is not a valid regular expression",
                                self.place, m.key
                            ),
                        ));
                    }
                    self.subschema(&m.value, || {
                        format!(
                            "the schema of `{}` must be an object or `true`/`false`",
                            m.key
                        )
                    });
                }
            }
            Expect::SchemaList => {
                let Some(items) = value.as_array() else {
                    return self.wrong(key, value, "a non-empty array of schemas");
                };
                if items.is_empty() {
                    return self.push(value, format!("`{key}` must list at least one schema"));
                }
                for item in items {
                    self.subschema(item, || {
                        format!("each item of `{key}` must be a schema (an object or `true`/`false`)")
                    });
                }
            }
            Expect::Text => {
                if value.as_str().is_none() {
                    self.wrong(key, value, "a string");
                }
            }
            Expect::Uri => match value.as_str() {
                None => self.wrong(key, value, "a URI string"),
                Some(s) if fluent_uri::Uri::parse(s).is_err() => {
                    self.push(value, format!("`{key}` {} is not a valid URI", show(value)))
                }
                Some(_) => {}
            },
            Expect::UriReference { id } => match value.as_str() {
                None => self.wrong(key, value, "a URI reference string"),
                Some(s) if fluent_uri::UriRef::parse(s).is_err() => self.push(
                    value,
                    format!("`{key}` {} is not a valid URI reference", show(value)),
                ),
                Some(s) if id && s.split_once('#').is_some_and(|(_, f)| !f.is_empty()) => {
                    let f = invalid(
                        self.place,
                        value,
                        format!("`$id` {} must not have a fragment", show(value)),
                    )
                    .with_help("name a location with `$anchor` instead");
                    self.out.push(f);
                }
                Some(_) => {}
            },
            Expect::Anchor => match value.as_str() {
                None => self.wrong(key, value, "an anchor name string"),
                Some(s) if !is_anchor(s) => self.push(
                    value,
                    format!(
                        "`{key}` {} is not a valid anchor name (a letter or `_`, then letters, digits, `-`, `.` or `_`)",
                        show(value)
                    ),
                ),
                Some(_) => {}
            },
            Expect::Regex => match value.as_str() {
                None => self.wrong(key, value, "a regular expression string"),
                Some(s) if !jsonschema_regex::is_valid_ecma_regex(s) => self.push(
                    value,
                    format!("{} is not a valid regular expression", show(value)),
                ),
                Some(_) => {}
            },
            Expect::Boolean => {
                if value.as_bool().is_none() {
                    self.wrong(key, value, "`true` or `false`");
                }
            }
            Expect::Number { positive } => match &value.kind {
                Kind::Number(n) if positive && n.as_f64().is_some_and(|f| f <= 0.0) => {
                    self.push(
                        value,
                        format!("`{key}` must be greater than 0, found {}", show(value)),
                    )
                }
                Kind::Number(_) => {}
                Kind::Bool(_) if key.starts_with("exclusive") => {
                    self.wrong(key, value, "a number");
                    if let Some(f) = self.out.last_mut() {
                        let bound = if key == "exclusiveMinimum" { "minimum" } else { "maximum" };
                        f.help = Some(format!(
                            "draft 4's boolean `{key}` modifies `{bound}`; draft 2020-12 writes the bound itself: `\"{key}\": N` in place of `\"{bound}\": N`"
                        ));
                    }
                }
                _ => self.wrong(key, value, "a number"),
            },
            Expect::NonNegativeInteger => {
                let ok = match &value.kind {
                    Kind::Number(n) => n.as_u64().is_some() || n.as_i64().is_none() && {
                        let f = n.as_f64().unwrap_or(-1.0);
                        f >= 0.0 && f.fract() == 0.0
                    },
                    _ => false,
                };
                if !ok {
                    self.wrong(key, value, "a non-negative integer");
                }
            }
            Expect::StringArray => self.string_array(key, value),
            Expect::StringArrayMap => {
                let Some(members) = value.as_object() else {
                    return self.wrong(key, value, "an object of string arrays");
                };
                for m in members {
                    self.string_array(key, &m.value);
                }
            }
            Expect::Dependencies => {
                let Some(members) = value.as_object() else {
                    return self.wrong(key, value, "an object");
                };
                for m in members {
                    if m.value.as_array().is_some() {
                        self.string_array(key, &m.value);
                    } else {
                        self.subschema(&m.value, || {
                            format!(
                                "`{key}` of `{}` must be a schema or an array of unique strings",
                                m.key
                            )
                        });
                    }
                }
            }
            Expect::Vocabulary => {
                let Some(members) = value.as_object() else {
                    return self.wrong(key, value, "an object of URIs to `true`/`false`");
                };
                for m in members {
                    if fluent_uri::Uri::parse(m.key.as_str()).is_err() {
                        self.push(
                            &m.value,
                            format!("`$vocabulary` key \"{}\" is not a valid URI", m.key),
                        );
                    }
                    if m.value.as_bool().is_none() {
                        self.wrong(key, &m.value, "`true` or `false` for each vocabulary");
                    }
                }
            }
            Expect::Array => {
                if value.as_array().is_none() {
                    self.wrong(key, value, "an array");
                }
            }
            Expect::Type => self.type_value(value),
        }
    }

    fn string_array(&mut self, key: &str, value: &Node) {
        let Some(items) = value.as_array() else {
            return self.wrong(key, value, "an array of unique strings");
        };
        for (i, item) in items.iter().enumerate() {
            match item.as_str() {
                None => self.wrong(key, item, "a list of strings"),
                Some(s) if items[..i].iter().any(|o| o.as_str() == Some(s)) => {
                    self.push(item, format!("{} is listed twice in `{key}`", show(item)))
                }
                Some(_) => {}
            }
        }
    }

    fn type_value(&mut self, value: &Node) {
        let valid = match &value.kind {
            Kind::String(s) => TYPE_NAMES.contains(&s.as_str()),
            Kind::Array(items) => {
                !items.is_empty()
                    && items.iter().enumerate().all(|(i, item)| {
                        item.as_str().is_some_and(|s| TYPE_NAMES.contains(&s))
                            && !items[..i].iter().any(|o| o.kind == item.kind)
                    })
            }
            _ => false,
        };
        if valid {
            return;
        }
        if value.as_array().is_some_and(<[Node]>::is_empty) {
            let token = last_token(&value.pointer()).unwrap_or_default();
            return self.push(value, format!("`{token}` must list at least one type name"));
        }
        type_findings(value, self.place, self.out);
    }
}

/// `^[A-Za-z_][-A-Za-z0-9._]*$`
fn is_anchor(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
}

//! JSON Schema checks shared by every dialect: chai `parameters`, agentcli
//! `schema`, describe `parameters`, skill `metadata.params` / `metadata.returns`.
//!
//! Three passes over one schema node:
//!
//! 1. the draft 2020-12 meta-schema, checked keyword by keyword on the
//!    positioned tree ([`meta`]; pinned: a `$schema` naming another or an
//!    unknown draft never changes the draft); **every** error is listed at the
//!    offending value (`schema/invalid`);
//! 2. when that passes, every `$ref` must resolve inside the schema
//!    ([`refs`]; `schema/unresolved-ref`; nothing is ever fetched);
//! 3. toolsmith's own checks: `required` names declared in `properties`, the
//!    root `type: object`, `$resolve` placement, unknown `format`s.
//!
//! Messages read `invalid JSON Schema in `NAME`: …` where `NAME` is the key
//! holding the schema (`parameters`, `schema`, `params`, …).

use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::suggest::closest;
use crate::tree::{Kind, Node};
use std::collections::BTreeSet;
use toolsmith_model::keywords::{SUBSCHEMA as ONE, SUBSCHEMA_LIST as LIST, SUBSCHEMA_MAP as MAP};

mod meta;
mod refs;

/// What a schema at a given place must satisfy.
#[derive(Debug, Clone, Copy, Default)]
pub struct SchemaCheck {
    /// The root must be `type: object` (tool parameters).
    pub object_root: bool,
    /// `$resolve` (the JS framework's keyword) is allowed at the root.
    pub allow_resolve: bool,
}

/// `schema/invalid` (error): the value is not a valid JSON Schema (draft 2020-12 meta-schema).
pub static INVALID: Rule = Rule::error(
    "schema/invalid",
    "schema",
    "the value is not a valid JSON Schema (draft 2020-12 meta-schema)",
);
/// `schema/unresolved-ref` (error): a `$ref` does not resolve inside the schema (remote and file references are never fetched).
pub static UNRESOLVED_REF: Rule = Rule::error(
    "schema/unresolved-ref",
    "schema",
    "a `$ref` does not resolve inside the schema (remote and file references are never fetched)",
);
/// `schema/required-not-in-properties` (error): a name listed in `required` is not declared in `properties`.
pub static REQUIRED_NOT_IN_PROPERTIES: Rule = Rule::error(
    "schema/required-not-in-properties",
    "schema",
    "a name listed in `required` is not declared in `properties`",
);
/// `schema/root-not-object` (error): tool parameters must be an object schema (`"type": "object"` at the root).
pub static ROOT_NOT_OBJECT: Rule = Rule::error(
    "schema/root-not-object",
    "schema",
    "tool parameters must be an object schema (`\"type\": \"object\"` at the root)",
);
/// `schema/resolve-invalid` (error): `$resolve` must be a dotted path string such as `nonlocals.gateway.sendSchema`.
pub static RESOLVE_INVALID: Rule = Rule::error(
    "schema/resolve-invalid",
    "schema",
    "`$resolve` must be a dotted path string such as `nonlocals.gateway.sendSchema`",
);
/// `schema/resolve-ignored` (warning): `$resolve` has no effect here: only the root of a JS-framework `params`/`returns` schema is resolved.
pub static RESOLVE_IGNORED: Rule = Rule::warning(
    "schema/resolve-ignored",
    "schema",
    "`$resolve` has no effect here: only the root of a JS-framework `params`/`returns` schema is resolved",
);
/// `schema/unknown-format` (warning): `format` names no format of draft 2020-12; validators ignore it.
pub static UNKNOWN_FORMAT: Rule = Rule::warning(
    "schema/unknown-format",
    "schema",
    "`format` names no format of draft 2020-12; validators ignore it",
);

/// Schema rules.
pub static RULES: &[&Rule] = &[
    &INVALID,
    &UNRESOLVED_REF,
    &REQUIRED_NOT_IN_PROPERTIES,
    &ROOT_NOT_OBJECT,
    &RESOLVE_INVALID,
    &RESOLVE_IGNORED,
    &UNKNOWN_FORMAT,
];

/// The seven type names of JSON Schema.
pub const TYPE_NAMES: [&str; 7] = [
    "array", "boolean", "integer", "null", "number", "object", "string",
];

/// The formats defined by draft 2020-12.
const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Checks that `node` is a valid JSON Schema (draft 2020-12 meta-schema), that
/// every `required` name exists in `properties`, and the root constraints of
/// `check`. Findings point into `node` (its pointers are already rooted).
///
/// ```
/// use toolsmith_manifest::{json::parse, schema::{check, SchemaCheck}};
/// let root = parse(r#"{"parameters": {"type": "object", "properties": {"city": {"type": "strin"}}}}"#).root.unwrap();
/// let mut findings = Vec::new();
/// check(root.get("parameters").unwrap(), &SchemaCheck { object_root: true, ..Default::default() }, &mut findings);
/// assert_eq!(findings.len(), 1);
/// assert_eq!(findings[0].message, "invalid JSON Schema in `parameters`: \"strin\" is not a valid type");
/// assert_eq!(findings[0].help.as_deref(), Some("did you mean \"string\"?"));
/// assert_eq!(findings[0].pointer, "/parameters/properties/city/type");
/// ```
pub fn check(node: &Node, check: &SchemaCheck, findings: &mut impl Extend<Finding>) {
    let place = place_name(&node.pointer());
    let mut out = Vec::new();
    if meta::check(node, &place, &mut out) {
        refs::check(node, &place, &mut out);
    }
    if check.object_root {
        root_check(node, &place, &mut out);
    }
    let mut walker = Walker {
        place: &place,
        allow_resolve: check.allow_resolve,
        out: &mut out,
    };
    walker.schema(node, true);
    walker.required_scope(node);
    // The meta-schema reports some problems once per vocabulary: keep one.
    let mut seen = BTreeSet::new();
    out.retain(|f| seen.insert((f.span, f.rule.id, f.message.clone())));
    findings.extend(out);
}

/// The key that holds the schema, from its pointer (`/tools/0/parameters` → `parameters`).
fn place_name(pointer: &str) -> String {
    match pointer.rsplit('/').next() {
        Some(last) if !pointer.is_empty() => last.replace("~1", "/").replace("~0", "~"),
        _ => "the schema".to_string(),
    }
}

fn invalid(place: &str, node: &Node, detail: impl std::fmt::Display) -> Finding {
    Finding::new(
        &INVALID,
        node.span,
        node.pointer(),
        format!("invalid JSON Schema in `{place}`: {detail}"),
    )
}

/// A short JSON rendering of a value for messages.
fn show(node: &Node) -> String {
    let text = node.to_value().to_string();
    if text.chars().count() > 40 {
        let cut: String = text.chars().take(37).collect();
        format!("{cut}…")
    } else {
        text
    }
}

/// The last reference token of a JSON pointer, unescaped.
fn last_token(pointer: &str) -> Option<String> {
    pointer
        .rsplit_once('/')
        .map(|(_, t)| t.replace("~1", "/").replace("~0", "~"))
}

/// A `type` value that is not a type name or a list of them.
fn type_findings(at: &Node, place: &str, out: &mut Vec<Finding>) {
    let one = |item: &Node, out: &mut Vec<Finding>| {
        let Some(name) = item.as_str() else {
            out.push(invalid(
                place,
                item,
                format!("{} is not a valid type", show(item)),
            ));
            return;
        };
        if TYPE_NAMES.contains(&name) {
            return;
        }
        let f = invalid(place, item, format!("{} is not a valid type", show(item)));
        out.push(match suggest_type(name) {
            Some(s) => f.with_help(format!("did you mean \"{s}\"?")),
            None => f.with_help(format!("the types are {}", TYPE_NAMES.join(", "))),
        });
    };
    match &at.kind {
        Kind::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                one(item, out);
                if items[..i].iter().any(|o| o.kind == item.kind) {
                    out.push(invalid(
                        place,
                        item,
                        format!("{} is listed twice in `type`", show(item)),
                    ));
                }
            }
        }
        Kind::String(_) => one(at, out),
        _ => out.push(invalid(
            place,
            at,
            format!(
                "`type` must be a type name or an array of type names, found {}",
                show(at)
            ),
        )),
    }
}

/// Likely intended type name for a misspelled or foreign one.
fn suggest_type(name: &str) -> Option<&'static str> {
    let alias = match name.to_ascii_lowercase().as_str() {
        "int" | "long" | "int32" | "int64" | "uint" => Some("integer"),
        "float" | "double" | "decimal" | "real" | "num" => Some("number"),
        "bool" => Some("boolean"),
        "str" | "text" => Some("string"),
        "list" | "tuple" | "vec" => Some("array"),
        "dict" | "map" | "hash" | "record" | "struct" => Some("object"),
        "none" | "nil" => Some("null"),
        _ => None,
    };
    alias.or_else(|| closest(name, TYPE_NAMES))
}

/// Pass 3a: the root must be `type: object`.
fn root_check(node: &Node, place: &str, out: &mut Vec<Finding>) {
    let help = "tool arguments are a JSON object: use `\"type\": \"object\"` with `properties`";
    match &node.kind {
        Kind::Bool(b) => out.push(
            Finding::new(
                &ROOT_NOT_OBJECT,
                node.span,
                node.pointer(),
                format!("`{place}` must be an object schema with `\"type\": \"object\"`, found `{b}`"),
            )
            .with_help(help),
        ),
        Kind::Object(_) => match node.get("type") {
            None => out.push(
                Finding::new(
                    &ROOT_NOT_OBJECT,
                    node.span,
                    node.pointer(),
                    format!("`{place}` has no `type`; tool parameters must be `\"type\": \"object\"`"),
                )
                .with_help("add `\"type\": \"object\"` at the root of the schema"),
            ),
            Some(t) if t.as_str() == Some("object") => {}
            // A misspelled type name is already reported by the meta-schema pass.
            Some(t) if t.as_str().is_some_and(|s| !TYPE_NAMES.contains(&s)) => {}
            Some(t) => out.push(
                Finding::new(
                    &ROOT_NOT_OBJECT,
                    t.span,
                    t.pointer(),
                    format!(
                        "`{place}` has `\"type\": {}` at the root; tool parameters must be `\"type\": \"object\"`",
                        show(t)
                    ),
                )
                .with_help(help),
            ),
        },
        // Not a schema at all: the meta-schema pass reports it.
        _ => {}
    }
}

/// Keywords that apply to the same instance (their `properties` count for the parent's `required`).
const SAME_INSTANCE: &[&str] = &[
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
];

struct Walker<'a> {
    place: &'a str,
    allow_resolve: bool,
    out: &'a mut Vec<Finding>,
}

/// The subschemas directly below a schema: (keyword, subschema).
fn subschemas(node: &Node) -> Vec<(&str, &Node)> {
    let mut subs = Vec::new();
    let Some(members) = node.as_object() else {
        return subs;
    };
    for m in members {
        let key = m.key.as_str();
        if ONE.contains(&key) {
            subs.push((key, &m.value));
        } else if MAP.contains(&key) {
            for inner in m.value.as_object().unwrap_or_default() {
                subs.push((key, &inner.value));
            }
        } else if LIST.contains(&key) {
            for item in m.value.as_array().unwrap_or_default() {
                subs.push((key, item));
            }
        }
    }
    subs
}

impl Walker<'_> {
    /// `$resolve` and `format`, on every schema object.
    fn schema(&mut self, node: &Node, root: bool) {
        if node.as_object().is_none() {
            return;
        }
        if let Some(m) = node.member("$resolve") {
            self.resolve(m, root);
        }
        if let Some(format) = node.get("format")
            && let Some(name) = format.as_str()
            && !FORMATS.contains(&name)
        {
            let f = Finding::new(
                &UNKNOWN_FORMAT,
                format.span,
                format.pointer(),
                format!(
                    "\"{name}\" is not a JSON Schema format; `format` \"{name}\" in `{}` is ignored by validators",
                    self.place
                ),
            );
            self.out.push(match closest(name, FORMATS.iter().copied()) {
                Some(s) => f.with_help(format!("did you mean \"{s}\"?")),
                None => f,
            });
        }
        for (_, sub) in subschemas(node) {
            self.schema(sub, false);
        }
    }

    fn resolve(&mut self, m: &crate::tree::Member, root: bool) {
        let value = &m.value;
        if root && self.allow_resolve {
            let ok = value.as_str().is_some_and(is_dotted_path);
            if !ok {
                self.out.push(
                    Finding::new(
                        &RESOLVE_INVALID,
                        value.span,
                        value.pointer(),
                        format!(
                            "`$resolve` in `{}` must be a dotted path string, found {}",
                            self.place,
                            show(value)
                        ),
                    )
                    .with_help("e.g. `$resolve: nonlocals.gateway.sendSchema`"),
                );
            }
        } else {
            let why = if self.allow_resolve {
                "only the root of the schema is resolved"
            } else {
                "only the JS framework's `params`/`returns` schemas support it"
            };
            self.out.push(Finding::new(
                &RESOLVE_IGNORED,
                m.key_span,
                value.pointer(),
                format!("`$resolve` in `{}` has no effect here: {why}", self.place),
            ));
        }
    }

    /// `required` names against the `properties` of one instance location:
    /// the schema and every subschema applying to the same instance.
    fn required_scope(&mut self, node: &Node) {
        let mut scope = Vec::new();
        same_instance(node, &mut scope);
        let mut declared: Vec<&str> = Vec::new();
        let mut open = false;
        for s in &scope {
            if let Some(props) = s.get("properties").and_then(Node::as_object) {
                declared.extend(props.iter().map(|m| m.key.as_str()));
            }
            // Names may come from elsewhere: a reference, patterns, or a map schema.
            open |= s.get("$ref").is_some()
                || s.get("$dynamicRef").is_some()
                || s.get("patternProperties").is_some()
                || s.get("additionalProperties")
                    .is_some_and(|a| a.as_object().is_some());
        }
        if !open {
            for s in &scope {
                let Some(required) = s.get("required").and_then(Node::as_array) else {
                    continue;
                };
                for item in required {
                    let Some(name) = item.as_str() else { continue };
                    if declared.contains(&name) {
                        continue;
                    }
                    let f = Finding::new(
                        &REQUIRED_NOT_IN_PROPERTIES,
                        item.span,
                        item.pointer(),
                        format!(
                            "invalid JSON Schema in `{}`: `required` lists \"{name}\", which is not in `properties`",
                            self.place
                        ),
                    );
                    self.out
                        .push(match closest(name, declared.iter().copied()) {
                            Some(s) => f.with_help(format!("did you mean \"{s}\"?")),
                            None => f.with_help(format!(
                                "declare \"{name}\" under `properties` or remove it from `required`"
                            )),
                        });
                }
            }
        }
        // Every subschema that describes another instance starts a new scope.
        for s in &scope {
            for (key, sub) in subschemas(s) {
                if !SAME_INSTANCE.contains(&key) {
                    self.required_scope(sub);
                }
            }
        }
    }
}

/// `node` and the subschemas that apply to the same instance, recursively.
fn same_instance<'a>(node: &'a Node, out: &mut Vec<&'a Node>) {
    if node.as_object().is_none() {
        return;
    }
    out.push(node);
    for (key, sub) in subschemas(node) {
        if SAME_INSTANCE.contains(&key) {
            same_instance(sub, out);
        }
    }
}

/// `a.b.c` with identifier segments.
fn is_dotted_path(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|seg| {
            let mut chars = seg.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn run(text: &str, object_root: bool, allow_resolve: bool) -> Vec<Finding> {
        let root = parse(text).root.expect("test JSON parses");
        let node = root.get("p").expect("test JSON has `p`");
        let mut findings = Vec::new();
        check(
            node,
            &SchemaCheck {
                object_root,
                allow_resolve,
            },
            &mut findings,
        );
        findings
    }

    fn summary(findings: &[Finding]) -> Vec<(String, String, String)> {
        findings
            .iter()
            .map(|f| (f.rule.id.to_string(), f.pointer.clone(), f.message.clone()))
            .collect()
    }

    #[test]
    fn a_valid_object_schema_has_no_findings() {
        let f = run(
            r#"{"p": {"type": "object", "properties": {"a": {"type": ["string", "null"], "pattern": "^a+$", "format": "email"}}, "required": ["a"], "additionalProperties": false}}"#,
            true,
            false,
        );
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn lists_every_meta_schema_error_once_at_its_value() {
        let f = run(
            r#"{"p": {"type": "object", "properties": {"a": {"type": ["string", "intger"]}, "b": {"minLength": -1}, "c": 5, "d": {"pattern": "(("}}}}"#,
            true,
            false,
        );
        assert_eq!(
            summary(&f),
            vec![
                (
                    "schema/invalid".into(),
                    "/p/properties/a/type/1".into(),
                    "invalid JSON Schema in `p`: \"intger\" is not a valid type".into()
                ),
                (
                    "schema/invalid".into(),
                    "/p/properties/b/minLength".into(),
                    "invalid JSON Schema in `p`: `minLength` must be a non-negative integer, found number -1"
                        .into()
                ),
                (
                    "schema/invalid".into(),
                    "/p/properties/c".into(),
                    "invalid JSON Schema in `p`: the schema of `c` must be an object or `true`/`false`, found number 5".into()
                ),
                (
                    "schema/invalid".into(),
                    "/p/properties/d/pattern".into(),
                    "invalid JSON Schema in `p`: \"((\" is not a valid regular expression".into()
                ),
            ]
        );
        assert_eq!(f[0].help.as_deref(), Some("did you mean \"integer\"?"));
    }

    #[test]
    fn foreign_type_names_get_a_suggestion() {
        let f = run(r#"{"p": {"type": "int"}}"#, false, false);
        assert_eq!(f[0].help.as_deref(), Some("did you mean \"integer\"?"));
        let f = run(r#"{"p": {"type": "whatever"}}"#, false, false);
        assert!(
            f[0].help
                .as_deref()
                .is_some_and(|h| h.starts_with("the types are"))
        );
    }

    #[test]
    fn another_or_unknown_draft_is_checked_as_2020_12_without_panicking() {
        for schema in [
            "http://json-schema.org/draft-07/schema#",
            "http://example.com/unknown",
        ] {
            let text = format!(r#"{{"p": {{"$schema": "{schema}", "type": "objec"}}}}"#);
            let f = run(&text, false, false);
            assert_eq!(f.len(), 1, "{f:?}");
            assert_eq!(f[0].pointer, "/p/type");
        }
    }

    #[test]
    fn a_non_schema_value_is_reported_once() {
        let f = run(r#"{"p": "string"}"#, true, false);
        assert_eq!(
            summary(&f),
            vec![(
                "schema/invalid".into(),
                "/p".into(),
                "invalid JSON Schema in `p`: expected a schema (an object or `true`/`false`), found string \"string\"".into()
            )]
        );
    }

    #[test]
    fn draft_07_tuple_items_get_a_hint() {
        let f = run(r#"{"p": {"items": [{"type": "string"}]}}"#, false, false);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].pointer, "/p/items");
        assert!(
            f[0].help
                .as_deref()
                .is_some_and(|h| h.contains("prefixItems"))
        );
    }

    #[test]
    fn unresolved_local_and_remote_refs_are_reported_at_the_ref() {
        let f = run(
            r##"{"p": {"properties": {"a": {"$ref": "#/$defs/missing"}}}}"##,
            false,
            false,
        );
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].rule.id, "schema/unresolved-ref");
        assert_eq!(f[0].pointer, "/p/properties/a/$ref");
        let f = run(
            r#"{"p": {"$ref": "https://example.com/s.json"}}"#,
            false,
            false,
        );
        assert_eq!(f[0].rule.id, "schema/unresolved-ref");
        assert_eq!(f[0].pointer, "/p/$ref");
        assert_eq!(
            f[0].message,
            "invalid JSON Schema in `p`: `$ref` \"https://example.com/s.json\" names a resource outside this schema, which is never fetched"
        );
        let f = run(
            r##"{"p": {"$ref": "#nope", "$defs": {"a": {"$anchor": "yes"}}}}"##,
            false,
            false,
        );
        assert_eq!(
            f[0].message,
            "invalid JSON Schema in `p`: `$ref` \"#nope\" names the anchor \"nope\", which no `$anchor` in this schema declares"
        );
        // Resources named by `$id` and the bundled meta-schemas resolve.
        assert!(
            run(
                r##"{"p": {"$id": "http://x.test/r.json", "$ref": "i.json", "$defs": {"i": {"$id": "i.json"}}, "properties": {"m": {"$ref": "https://json-schema.org/draft/2020-12/schema"}}}}"##,
                false,
                false
            )
            .is_empty()
        );
    }

    #[test]
    fn required_names_must_be_declared_in_the_same_instance() {
        let f = run(
            r#"{"p": {"type": "object", "properties": {"city": {}, "inner": {"type": "object", "properties": {"x": {}}, "required": ["y"]}}, "required": ["cty", "city"], "anyOf": [{"required": ["city"]}, {"required": ["zip"]}]}}"#,
            true,
            false,
        );
        assert_eq!(
            summary(&f)
                .into_iter()
                .map(|(r, p, _)| (r, p))
                .collect::<Vec<_>>(),
            vec![
                (
                    "schema/required-not-in-properties".into(),
                    "/p/required/0".into()
                ),
                (
                    "schema/required-not-in-properties".into(),
                    "/p/anyOf/1/required/0".into()
                ),
                (
                    "schema/required-not-in-properties".into(),
                    "/p/properties/inner/required/0".into()
                ),
            ]
        );
        assert_eq!(f[0].help.as_deref(), Some("did you mean \"city\"?"));
        // Names declared in an `allOf` branch count; a `$ref` makes the set open.
        assert!(
            run(
                r#"{"p": {"allOf": [{"properties": {"a": {}}}], "required": ["a"]}}"#,
                false,
                false
            )
            .is_empty()
        );
        assert!(
            run(
                r##"{"p": {"$defs": {"b": {}}, "$ref": "#/$defs/b", "required": ["a"]}}"##,
                false,
                false
            )
            .is_empty()
        );
    }

    #[test]
    fn the_root_must_be_type_object_when_asked() {
        let ids = |t: &str| {
            summary(&run(t, true, false))
                .into_iter()
                .map(|(r, p, _)| (r, p))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            ids(r#"{"p": {"properties": {}}}"#),
            vec![("schema/root-not-object".into(), "/p".into())]
        );
        assert_eq!(
            ids(r#"{"p": {"type": "string"}}"#),
            vec![("schema/root-not-object".into(), "/p/type".into())]
        );
        assert_eq!(
            ids(r#"{"p": true}"#),
            vec![("schema/root-not-object".into(), "/p".into())]
        );
        // misspelled: only the type error, with its suggestion
        assert_eq!(
            ids(r#"{"p": {"type": "objec"}}"#),
            vec![("schema/invalid".into(), "/p/type".into())]
        );
        assert!(run(r#"{"p": {"type": "string"}}"#, false, false).is_empty());
    }

    #[test]
    fn resolve_is_allowed_only_at_the_root_of_resolvable_schemas() {
        assert!(
            run(
                r#"{"p": {"$resolve": "nonlocals.gateway.sendSchema", "type": "object"}}"#,
                true,
                true
            )
            .is_empty()
        );
        let f = run(
            r#"{"p": {"$resolve": "not a path", "type": "object"}}"#,
            true,
            true,
        );
        assert_eq!(f[0].rule.id, "schema/resolve-invalid");
        let f = run(
            r#"{"p": {"type": "object", "properties": {"a": {"$resolve": "x.y"}}}}"#,
            true,
            true,
        );
        assert_eq!(f[0].rule.id, "schema/resolve-ignored");
        assert_eq!(f[0].pointer, "/p/properties/a/$resolve");
        let f = run(
            r#"{"p": {"$resolve": "x.y", "type": "object"}}"#,
            true,
            false,
        );
        assert_eq!(f[0].rule.id, "schema/resolve-ignored");
        // a property named `$resolve` is not the keyword
        assert!(
            run(
                r#"{"p": {"type": "object", "properties": {"$resolve": {}}}}"#,
                true,
                false
            )
            .is_empty()
        );
    }

    #[test]
    fn unknown_formats_are_warnings() {
        let f = run(
            r#"{"p": {"type": "string", "format": "emial"}}"#,
            false,
            false,
        );
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].rule.id, "schema/unknown-format");
        assert_eq!(f[0].help.as_deref(), Some("did you mean \"email\"?"));
    }
}

//! Pass 2: every `$ref` and `$dynamicRef` must resolve inside the schema.
//!
//! References are resolved as draft 2020-12 defines it: against the base URI
//! of the enclosing resource (the nearest `$id`, the root's being
//! `json-schema:///` when it declares none, as the `jsonschema` crate does),
//! then looked up among the schema's own resources — by JSON Pointer
//! fragment, by `$anchor` / `$dynamicAnchor` name, or as a whole resource.
//! The draft meta-schemas count as present, as every validator bundles them.
//! Nothing is ever fetched: a reference to any other resource is a finding,
//! since a validator without network or file access cannot follow it.

use super::{UNRESOLVED_REF, subschemas};
use crate::diagnostic::Finding;
use crate::tree::{Kind, Node};
use fluent_uri::{Uri, UriRef};
use std::collections::HashMap;

/// The base of a schema without `$id`.
const DEFAULT_BASE: &str = "json-schema:///";

/// Meta-schemas that validators bundle (with and without the empty fragment).
const BUNDLED: &[&str] = &[
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2020-12/meta/core",
    "https://json-schema.org/draft/2020-12/meta/applicator",
    "https://json-schema.org/draft/2020-12/meta/unevaluated",
    "https://json-schema.org/draft/2020-12/meta/validation",
    "https://json-schema.org/draft/2020-12/meta/meta-data",
    "https://json-schema.org/draft/2020-12/meta/format-annotation",
    "https://json-schema.org/draft/2020-12/meta/format-assertion",
    "https://json-schema.org/draft/2020-12/meta/content",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema",
    "http://json-schema.org/draft-06/schema",
    "http://json-schema.org/draft-04/schema",
];

/// One resource: the schema node that a (base) URI names, and its anchors.
struct Resource<'a> {
    node: &'a Node,
    anchors: HashMap<&'a str, &'a Node>,
}

/// Checks every reference of `root` (an already meta-valid schema).
pub(super) fn check(root: &Node, place: &str, out: &mut Vec<Finding>) {
    let Ok(base) = Uri::parse(DEFAULT_BASE.to_string()) else {
        return;
    };
    let mut resources: HashMap<String, Resource<'_>> = HashMap::new();
    let mut refs = Vec::new();
    collect(root, &base, &mut resources, &mut refs, out, place);
    for (reference, base) in refs {
        if let Some(problem) = resolve(reference, &base, &resources) {
            out.push(
                Finding::new(
                    &UNRESOLVED_REF,
                    reference.span,
                    reference.pointer(),
                    format!("invalid JSON Schema in `{place}`: {problem}"),
                )
                .with_help(
                    "refer only to definitions inside this schema (`#/$defs/…`); remote and file references are never fetched",
                ),
            );
        }
    }
}

/// Walks the schema positions below `node`, recording resources, anchors
/// and references with the base URI each is resolved against.
fn collect<'a>(
    node: &'a Node,
    base: &Uri<String>,
    resources: &mut HashMap<String, Resource<'a>>,
    refs: &mut Vec<(&'a Node, Uri<String>)>,
    out: &mut Vec<Finding>,
    place: &str,
) {
    if node.as_object().is_none() {
        return;
    }
    let mut base = base.clone();
    let at_root = resources.is_empty();
    if let Some(id) = node.get("$id").and_then(Node::as_str) {
        match UriRef::parse(id).map_err(|e| e.to_string()).and_then(|r| {
            r.strip_fragment()
                .resolve_against(&base)
                .map_err(|e| e.to_string())
        }) {
            Ok(uri) => base = uri.normalize(),
            Err(e) => out.push(super::invalid(
                place,
                node.get("$id").unwrap_or(node),
                format!("`$id` \"{id}\" cannot be resolved: {e}"),
            )),
        }
    }
    if at_root || node.get("$id").is_some() {
        resources
            .entry(base.as_str().to_string())
            .or_insert(Resource {
                node,
                anchors: HashMap::new(),
            });
    }
    for key in ["$anchor", "$dynamicAnchor"] {
        if let Some(name) = node.get(key).and_then(Node::as_str)
            && let Some(resource) = resources.get_mut(base.as_str())
        {
            resource.anchors.entry(name).or_insert(node);
        }
    }
    for key in ["$ref", "$dynamicRef"] {
        if let Some(reference) = node.get(key)
            && reference.as_str().is_some()
        {
            refs.push((reference, base.clone()));
        }
    }
    for (_, sub) in subschemas(node) {
        collect(sub, &base, resources, refs, out, place);
    }
    // `dependencies` (legacy) holds schemas among string arrays.
    if let Some(deps) = node.get("dependencies").and_then(Node::as_object) {
        for m in deps {
            collect(&m.value, &base, resources, refs, out, place);
        }
    }
}

/// Why `reference` does not resolve, or `None` when it does.
fn resolve(
    reference: &Node,
    base: &Uri<String>,
    resources: &HashMap<String, Resource<'_>>,
) -> Option<String> {
    let text = reference.as_str()?;
    let shown = format!("`{}` \"{text}\"", last_key(reference));
    let target = match UriRef::parse(text) {
        Ok(r) => match r.resolve_against(base) {
            Ok(target) => target.normalize(),
            Err(e) => return Some(format!("{shown} cannot be resolved: {e}")),
        },
        // The meta-schema pass reports it.
        Err(_) => return None,
    };
    let document = target.strip_fragment().as_str().to_string();
    let fragment = target
        .fragment()
        .map(|f| f.decode().to_string_lossy().into_owned())
        .unwrap_or_default();
    let Some(resource) = resources.get(&document) else {
        if BUNDLED.contains(&document.trim_end_matches('#')) {
            return None;
        }
        return Some(format!(
            "{shown} names a resource outside this schema, which is never fetched"
        ));
    };
    if fragment.is_empty() {
        return None;
    }
    if fragment.starts_with('/') {
        return match resource.node.at_pointer(&fragment) {
            Some(target) if matches!(target.kind, Kind::Object(_) | Kind::Bool(_)) => None,
            Some(target) => Some(format!(
                "{shown} points to {} {}, which is not a schema",
                target.type_name(),
                super::show(target)
            )),
            None => Some(format!(
                "{shown} points to nothing: this schema has no `{fragment}`"
            )),
        };
    }
    if resource.anchors.contains_key(fragment.as_str()) {
        return None;
    }
    Some(format!(
        "{shown} names the anchor \"{fragment}\", which no `$anchor` in this schema declares"
    ))
}

fn last_key(node: &Node) -> String {
    let pointer = node.pointer();
    pointer.rsplit('/').next().unwrap_or("$ref").to_string()
}

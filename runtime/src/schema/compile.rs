//! Compiling a schema: one pass indexes its resources (`$id`), anchors
//! (`$anchor`, `$dynamicAnchor`) and the resource of every subschema
//! location; then every location reachable from the root (through
//! subschema keywords and `$ref`/`$dynamicRef`) is compiled once into a
//! [`Node`]. No meta-schema is involved: each keyword's value is checked as
//! it is converted, and a malformed one is a [`CompileError`].

use super::CompileError;
use super::keywords;
use super::node::{DynamicRef, Keywords, Node, NodeId};
use super::uri;
use super::value::push_token;
use serde_json::{Map, Value};
use std::collections::HashMap;
use toolsmith_model::keywords::{SUBSCHEMA, SUBSCHEMA_LIST, SUBSCHEMA_MAP};

/// A schema resource (the root, or a subschema with `$id`).
#[derive(Debug)]
pub(crate) struct Resource {
    /// Its `$dynamicAnchor`s.
    pub(crate) dynamic_anchors: HashMap<String, NodeId>,
}

/// The output of compilation.
#[derive(Debug)]
pub(crate) struct Compiled {
    pub(crate) nodes: Vec<Node>,
    pub(crate) resources: Vec<Resource>,
}

/// Subschemas nested deeper than this are refused (the index is built
/// recursively).
const MAX_NESTING: usize = 512;

/// Where resources, anchors and subschemas are.
#[derive(Default)]
struct Index {
    /// (URI, pointer of its root).
    resources: Vec<(String, String)>,
    by_uri: HashMap<String, usize>,
    /// (resource, anchor name) → pointer.
    anchors: HashMap<(usize, String), String>,
    /// (resource, dynamic anchor name, pointer).
    dynamic_anchors: Vec<(usize, String, String)>,
    /// Subschema pointer → its resource.
    resource_of: HashMap<String, usize>,
}

impl Index {
    fn build(root: &Value) -> Result<Index, CompileError> {
        let mut index = Index::default();
        let mut pointer = String::new();
        index.walk(root, &mut pointer, None, 0)?;
        Ok(index)
    }

    fn add_resource(&mut self, uri: String, pointer: &str) -> Result<usize, CompileError> {
        if self.by_uri.contains_key(&uri) {
            return Err(CompileError::at(
                pointer,
                format!("`$id` {uri:?} names a second resource with the same URI"),
            ));
        }
        let id = self.resources.len();
        self.by_uri.insert(uri.clone(), id);
        self.resources.push((uri, pointer.to_owned()));
        Ok(id)
    }

    fn walk(
        &mut self,
        schema: &Value,
        pointer: &mut String,
        parent: Option<usize>,
        depth: usize,
    ) -> Result<(), CompileError> {
        if depth > MAX_NESTING {
            return Err(CompileError::at(
                pointer,
                format!("the schema nests deeper than {MAX_NESTING} subschemas"),
            ));
        }
        let Value::Object(map) = schema else {
            if parent.is_none() {
                self.add_resource(uri::DEFAULT_BASE.to_owned(), "")?;
                self.resource_of.insert(String::new(), 0);
            }
            return Ok(());
        };
        let base = parent.map_or(uri::DEFAULT_BASE, |p| self.resources[p].0.as_str());
        let resource = match map.get("$id") {
            Some(Value::String(id)) => {
                let absolute = uri::resolve(base, id);
                let (absolute, _) = uri::split_fragment(&absolute);
                self.add_resource(absolute.to_owned(), pointer)?
            }
            Some(_) => return Err(CompileError::at(pointer, "`$id` must be a string")),
            None => match parent {
                Some(p) => p,
                None => self.add_resource(uri::DEFAULT_BASE.to_owned(), "")?,
            },
        };
        self.resource_of.insert(pointer.clone(), resource);
        for (keyword, dynamic) in [("$anchor", false), ("$dynamicAnchor", true)] {
            match map.get(keyword) {
                None => {}
                Some(Value::String(name)) if is_anchor_name(name) => {
                    let key = (resource, name.clone());
                    if self
                        .anchors
                        .get(&key)
                        .is_some_and(|other| other != pointer.as_str())
                    {
                        return Err(CompileError::at(
                            pointer,
                            format!("anchor {name:?} is defined twice in one resource"),
                        ));
                    }
                    self.anchors.insert(key, pointer.clone());
                    if dynamic {
                        self.dynamic_anchors
                            .push((resource, name.clone(), pointer.clone()));
                    }
                }
                Some(other) => {
                    return Err(CompileError::at(
                        pointer,
                        format!(
                            "`{keyword}` must be a plain name (a letter or `_`, then letters, digits, `-`, `_`, `.`), found {other}"
                        ),
                    ));
                }
            }
        }
        let len = pointer.len();
        for (keyword, value) in map {
            push_token(pointer, keyword);
            let k = keyword.as_str();
            if SUBSCHEMA.contains(&k) {
                self.walk(value, pointer, Some(resource), depth + 1)?;
            } else if SUBSCHEMA_LIST.contains(&k) || (k == "items" && value.is_array()) {
                if let Value::Array(items) = value {
                    for (i, item) in items.iter().enumerate() {
                        let l = pointer.len();
                        push_token(pointer, &i.to_string());
                        self.walk(item, pointer, Some(resource), depth + 1)?;
                        pointer.truncate(l);
                    }
                }
            } else if (SUBSCHEMA_MAP.contains(&k) || k == "dependencies")
                && let Value::Object(members) = value
            {
                for (name, item) in members {
                    let l = pointer.len();
                    push_token(pointer, name);
                    self.walk(item, pointer, Some(resource), depth + 1)?;
                    pointer.truncate(l);
                }
            }
            pointer.truncate(len);
        }
        Ok(())
    }

    /// The resource of a subschema location (for one reached only through a
    /// JSON pointer into an unknown keyword: the nearest indexed ancestor's).
    fn resource_at(&self, pointer: &str) -> usize {
        let mut p = pointer;
        loop {
            if let Some(&r) = self.resource_of.get(p) {
                return r;
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return 0,
            }
        }
    }
}

/// `$anchor` / `$dynamicAnchor` syntax (`^[A-Za-z_][-A-Za-z0-9._]*$`).
fn is_anchor_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// Compiles every reachable location of `root`.
pub(crate) fn compile(root: &Value) -> Result<Compiled, CompileError> {
    let index = Index::build(root)?;
    let mut compiler = Compiler {
        root,
        index,
        nodes: Vec::new(),
        by_pointer: HashMap::new(),
        queue: Vec::new(),
    };
    compiler.node_for(String::new());
    let mut dynamic = Vec::new();
    for (resource, name, pointer) in std::mem::take(&mut compiler.index.dynamic_anchors) {
        let id = compiler.node_for(pointer);
        dynamic.push((resource, name, id));
    }
    while let Some((id, pointer)) = compiler.queue.pop() {
        let node = compiler.compile_node(&pointer)?;
        compiler.nodes[id] = Some(node);
    }
    let mut resources: Vec<Resource> = compiler
        .index
        .resources
        .iter()
        .map(|_| Resource {
            dynamic_anchors: HashMap::new(),
        })
        .collect();
    for (resource, name, id) in dynamic {
        resources[resource].dynamic_anchors.insert(name, id);
    }
    let nodes = compiler
        .nodes
        .into_iter()
        .map(|n| n.unwrap_or(Node::Bool(true)))
        .collect();
    Ok(Compiled { nodes, resources })
}

/// Compilation state: nodes reserved by pointer, compiled from a work list
/// (so that reference cycles and deep schemas need no recursion).
pub(crate) struct Compiler<'v> {
    root: &'v Value,
    index: Index,
    nodes: Vec<Option<Node>>,
    by_pointer: HashMap<String, NodeId>,
    queue: Vec<(NodeId, String)>,
}

impl Compiler<'_> {
    /// The node of the schema at `pointer`, reserved and queued on first use.
    pub(crate) fn node_for(&mut self, pointer: String) -> NodeId {
        if let Some(&id) = self.by_pointer.get(&pointer) {
            return id;
        }
        let id = self.nodes.len();
        self.nodes.push(None);
        self.by_pointer.insert(pointer.clone(), id);
        self.queue.push((id, pointer));
        id
    }

    /// The node of the subschema under `keyword` (and `tokens`) of the
    /// schema at `pointer`, after checking that it is a schema.
    pub(crate) fn subschema(
        &mut self,
        pointer: &str,
        tokens: &[&str],
        value: &Value,
    ) -> Result<NodeId, CompileError> {
        let mut at = pointer.to_owned();
        for t in tokens {
            push_token(&mut at, t);
        }
        if !matches!(value, Value::Object(_) | Value::Bool(_)) {
            return Err(CompileError::at(
                &at,
                format!("a schema must be an object or a boolean, found {value}"),
            ));
        }
        Ok(self.node_for(at))
    }

    fn compile_node(&mut self, pointer: &str) -> Result<Node, CompileError> {
        let root = self.root;
        let Some(value) = root.pointer(pointer) else {
            return Err(CompileError::at(pointer, "no schema at this location"));
        };
        let map: &Map<String, Value> = match value {
            Value::Bool(b) => return Ok(Node::Bool(*b)),
            Value::Object(map) => map,
            other => {
                return Err(CompileError::at(
                    pointer,
                    format!("a schema must be an object or a boolean, found {other}"),
                ));
            }
        };
        let resource = self.index.resource_at(pointer);
        let mut k = Keywords {
            resource,
            ..Keywords::default()
        };
        if let Some(r) = map.get("$ref") {
            let Value::String(r) = r else {
                return Err(CompileError::at(pointer, "`$ref` must be a string"));
            };
            let (target, _) = self.resolve(r, resource, pointer)?;
            k.reference = Some(self.node_for(target));
        }
        if let Some(r) = map.get("$dynamicRef") {
            let Value::String(r) = r else {
                return Err(CompileError::at(pointer, "`$dynamicRef` must be a string"));
            };
            let (target, anchor) = self.resolve(r, resource, pointer)?;
            let target = self.node_for(target);
            k.dynamic_reference = Some(DynamicRef { target, anchor });
        }
        keywords::compile_keywords(self, pointer, map, &mut k)?;
        Ok(Node::Object(Box::new(k)))
    }

    /// Resolves a reference made in `resource` to a pointer into the
    /// document, and the anchor name when the target is a `$dynamicAnchor`.
    fn resolve(
        &self,
        reference: &str,
        resource: usize,
        at: &str,
    ) -> Result<(String, Option<String>), CompileError> {
        let base = &self.index.resources[resource].0;
        let absolute = uri::resolve(base, reference);
        let (document, fragment) = uri::split_fragment(&absolute);
        let Some(&target) = self.index.by_uri.get(document) else {
            return Err(CompileError::at(
                at,
                format!(
                    "`$ref` {reference:?} resolves to {document:?}, which is not a resource of this schema (remote references are never fetched)"
                ),
            ));
        };
        let root = &self.index.resources[target].1;
        let unresolved = || {
            CompileError::at(
                at,
                format!("`$ref` {reference:?} does not resolve inside the schema"),
            )
        };
        if fragment.is_empty() {
            return Ok((root.clone(), None));
        }
        if fragment.starts_with('/') {
            let decoded = uri::percent_decode(fragment).ok_or_else(unresolved)?;
            let pointer = format!("{root}{decoded}");
            if self.root.pointer(&pointer).is_none() {
                return Err(unresolved());
            }
            return Ok((pointer, None));
        }
        let name = uri::percent_decode(fragment).ok_or_else(unresolved)?;
        let pointer = self
            .index
            .anchors
            .get(&(target, name.clone()))
            .ok_or_else(unresolved)?;
        let dynamic = self
            .root
            .pointer(pointer)
            .and_then(|s| s.get("$dynamicAnchor"))
            .and_then(Value::as_str)
            == Some(name.as_str());
        Ok((pointer.clone(), dynamic.then_some(name)))
    }
}

//! The positioned syntax tree shared by the JSON and YAML front ends.
//!
//! Every node knows its byte span and its JSON pointer; objects keep every
//! member in source order, duplicates included, so rules can report them.

use crate::source::Span;
use serde_json::Value;

/// A value with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What the value is.
    pub kind: Kind,
    /// Byte range of the value in the file.
    pub span: Span,
    /// JSON pointer from the document root (`""` for the root).
    pub pointer: String,
}

/// The value of a [`Node`].
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// `null` (or an empty YAML value).
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, as written.
    Number(serde_json::Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Node>),
    /// An object; members in source order, duplicates kept.
    Object(Vec<Member>),
}

/// An object member.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The key.
    pub key: String,
    /// Byte range of the key (quotes included in JSON).
    pub key_span: Span,
    /// The value.
    pub value: Node,
}

/// Escapes one JSON pointer reference token (RFC 6901).
pub fn escape_pointer_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The pointer of a child of `parent`: `parent/token`, with `token` escaped.
///
/// ```
/// use toolsmith_model::tree::child_pointer;
/// assert_eq!(child_pointer("/tools", "a/b~c"), "/tools/a~1b~0c");
/// ```
pub fn child_pointer(parent: &str, token: &str) -> String {
    let mut pointer = String::with_capacity(parent.len() + 1 + token.len());
    pointer.push_str(parent);
    pointer.push('/');
    if token.contains(['~', '/']) {
        pointer.push_str(&escape_pointer_token(token));
    } else {
        pointer.push_str(token);
    }
    pointer
}

/// The pointer of element `index` of the array at `parent`.
pub fn index_pointer(parent: &str, index: usize) -> String {
    child_pointer(parent, &index.to_string())
}

impl Node {
    /// The JSON type name (`null`, `boolean`, `number`, `string`, `array`, `object`).
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            Kind::Null => "null",
            Kind::Bool(_) => "boolean",
            Kind::Number(_) => "number",
            Kind::String(_) => "string",
            Kind::Array(_) => "array",
            Kind::Object(_) => "object",
        }
    }

    /// The string value, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean value, if this is a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self.kind {
            Kind::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The members, if this is an object.
    pub fn as_object(&self) -> Option<&[Member]> {
        match &self.kind {
            Kind::Object(members) => Some(members),
            _ => None,
        }
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        matches!(self.kind, Kind::Null)
    }

    /// The member named `key` (the last one, as serde_json keeps the last duplicate).
    pub fn member(&self, key: &str) -> Option<&Member> {
        self.as_object()?.iter().rev().find(|m| m.key == key)
    }

    /// The value of the member named `key`.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.member(key).map(|m| &m.value)
    }

    /// The node at a JSON pointer below this node, if any.
    pub fn at_pointer(&self, pointer: &str) -> Option<&Node> {
        if pointer.is_empty() {
            return Some(self);
        }
        let mut node = self;
        for token in pointer.strip_prefix('/')?.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            node = match &node.kind {
                Kind::Object(_) => node.get(&token)?,
                Kind::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// Converts to a `serde_json::Value` (duplicate keys: the last wins).
    pub fn to_value(&self) -> Value {
        match &self.kind {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(*b),
            Kind::Number(n) => Value::Number(n.clone()),
            Kind::String(s) => Value::String(s.clone()),
            Kind::Array(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Kind::Object(members) => {
                let mut map = serde_json::Map::with_capacity(members.len());
                for m in members {
                    // Remove first so that a duplicate moves to its last position,
                    // exactly like serde_json's own parser.
                    map.shift_remove(&m.key);
                    map.insert(m.key.clone(), m.value.to_value());
                }
                Value::Object(map)
            }
        }
    }
}

//! The positioned syntax tree shared by the JSON and YAML front ends.
//!
//! Every node knows its byte span and its JSON pointer; objects keep every
//! member in source order, duplicates included, so rules can report them.
//!
//! A node does not store its pointer as text: its [`Place`] links it to the
//! frame of its parent container (one shared allocation per non-empty
//! container) and its slot there, and [`Node::pointer`] spells the pointer
//! out when asked (findings are rare, nodes are many). A node therefore costs
//! 64 bytes plus its own contents, whatever its depth.

use crate::source::Span;
use serde_json::Value;
use std::fmt::{self, Write as _};
use std::sync::{Arc, OnceLock};

/// A value with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What the value is.
    pub kind: Kind,
    /// Byte range of the value in the file.
    pub span: Span,
    /// Where the value is in the document: its JSON pointer, see [`Node::pointer`].
    pub place: Place,
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

/// Where a [`Node`] is: a link to the frame of its parent container and its
/// slot there (16 bytes; no allocation of its own). The root's place is
/// [`Place::root`] (pointer `""`).
///
/// ```
/// use toolsmith_model::tree::Place;
/// let place = Place::from_pointer("/tools/0/a~1b");
/// assert_eq!(place.pointer(), "/tools/0/a~1b");
/// assert_eq!(place.to_string(), "/tools/0/a~1b");
/// assert_eq!(Place::root().pointer(), "");
/// ```
#[derive(Clone, Default)]
pub struct Place {
    /// The parent's frame; `None` for the root.
    frame: Option<Arc<Frame>>,
    /// The index in the parent (element or member index).
    slot: u32,
}

/// What the children of one container share: the container's own place and
/// how a child's slot becomes a pointer token (24 bytes: an array's frame,
/// the most common, has no token table).
#[derive(Debug)]
pub struct Frame {
    container: Place,
    /// `None` for array elements, whose token is the slot itself.
    tokens: Option<Box<Tokens>>,
}

/// How a slot of an object's or a synthesized [`Frame`] becomes a pointer token.
#[derive(Debug)]
enum Tokens {
    /// Object members: the escaped keys, concatenated, set once the object is
    /// read ([`Frame::set_keys`]); each slot's token ends at `ends[slot]`.
    Keys(OnceLock<Keys>),
    /// Every child has this (escaped) token.
    Fixed(Box<str>),
}

#[derive(Debug)]
struct Keys {
    text: Box<str>,
    ends: Box<[u32]>,
}

impl Frame {
    /// The frame of an array's elements at `container`.
    pub fn array(container: &Place) -> Arc<Frame> {
        Arc::new(Frame {
            container: container.clone(),
            tokens: None,
        })
    }

    /// The frame of an object's members at `container`; give it the keys
    /// with [`Frame::set_keys`] once they are all read.
    pub fn object(container: &Place) -> Arc<Frame> {
        Arc::new(Frame {
            container: container.clone(),
            tokens: Some(Box::new(Tokens::Keys(OnceLock::new()))),
        })
    }

    /// A frame whose children all have the token `token` (unescaped).
    pub fn fixed(container: &Place, token: &str) -> Arc<Frame> {
        Arc::new(Frame {
            container: container.clone(),
            tokens: Some(Box::new(Tokens::Fixed(escape_pointer_token(token).into()))),
        })
    }

    /// Records the keys of an object frame, in slot order (the first call
    /// wins; ignored for other frames).
    pub fn set_keys<'k>(&self, keys: impl IntoIterator<Item = &'k str>) {
        let Some(Tokens::Keys(cell)) = self.tokens.as_deref() else {
            return;
        };
        let mut text = String::new();
        let mut ends = Vec::new();
        for key in keys {
            push_token(&mut text, key);
            ends.push(u32::try_from(text.len()).unwrap_or(u32::MAX));
        }
        let _ = cell.set(Keys {
            text: text.into(),
            ends: ends.into(),
        });
    }

    /// The place of child `slot`.
    pub fn child(self: &Arc<Self>, slot: usize) -> Place {
        Place {
            frame: Some(Arc::clone(self)),
            slot: u32::try_from(slot).unwrap_or(u32::MAX),
        }
    }

    /// Appends the token of `slot` to `out`.
    fn write_token(&self, slot: u32, out: &mut String) {
        match self.tokens.as_deref() {
            None => {
                let _ = write!(out, "{slot}");
            }
            Some(Tokens::Keys(cell)) => match cell.get() {
                Some(keys) => {
                    let i = slot as usize;
                    let start = if i == 0 {
                        0
                    } else {
                        keys.ends.get(i - 1).copied().unwrap_or(0)
                    };
                    let end = keys.ends.get(i).copied().unwrap_or(start);
                    out.push_str(keys.text.get(start as usize..end as usize).unwrap_or(""));
                }
                // Keys not recorded (an object still being read): the slot.
                None => {
                    let _ = write!(out, "{slot}");
                }
            },
            Some(Tokens::Fixed(token)) => out.push_str(token),
        }
    }
}

impl Place {
    /// The document root (pointer `""`).
    pub const fn root() -> Place {
        Place {
            frame: None,
            slot: 0,
        }
    }

    /// The place a JSON pointer names, built token by token (for nodes made
    /// outside a parser, such as tests and synthesized values).
    pub fn from_pointer(pointer: &str) -> Place {
        let mut place = Place::root();
        let Some(rest) = pointer.strip_prefix('/') else {
            return place;
        };
        for token in rest.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            place = Frame::fixed(&place, &token).child(0);
        }
        place
    }

    /// The JSON pointer, spelled out.
    pub fn pointer(&self) -> String {
        let mut out = String::new();
        self.write_pointer(&mut out);
        out
    }

    /// Appends the JSON pointer to `out`.
    pub fn write_pointer(&self, out: &mut String) {
        // Collect the chain up to the root, then write it from the top.
        let mut chain: Vec<(&Frame, u32)> = Vec::new();
        let mut at = self;
        while let Some(frame) = &at.frame {
            chain.push((frame, at.slot));
            at = &frame.container;
        }
        for (frame, slot) in chain.into_iter().rev() {
            out.push('/');
            frame.write_token(slot, out);
        }
    }

    /// True for the document root.
    pub fn is_root(&self) -> bool {
        self.frame.is_none()
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.pointer())
    }
}

impl fmt::Debug for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.pointer())
    }
}

impl PartialEq for Place {
    fn eq(&self, other: &Self) -> bool {
        let same_frame = match (&self.frame, &other.frame) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        (same_frame && self.slot == other.slot) || self.pointer() == other.pointer()
    }
}

impl Eq for Place {}

/// Appends `token`, escaped (RFC 6901), to `out`.
fn push_token(out: &mut String, token: &str) {
    if token.contains(['~', '/']) {
        out.push_str(&escape_pointer_token(token));
    } else {
        out.push_str(token);
    }
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
    push_token(&mut pointer, token);
    pointer
}

/// The pointer of element `index` of the array at `parent`.
pub fn index_pointer(parent: &str, index: usize) -> String {
    child_pointer(parent, &index.to_string())
}

impl Node {
    /// A node at `place`.
    pub fn new(kind: Kind, span: Span, place: Place) -> Node {
        Node { kind, span, place }
    }

    /// The JSON pointer from the document root (`""` for the root), spelled
    /// out from the node's [`Place`].
    pub fn pointer(&self) -> String {
        self.place.pointer()
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    /// The memory per element of a big file rests on these sizes.
    #[test]
    fn a_node_is_64_bytes_and_an_array_frame_24() {
        assert_eq!(std::mem::size_of::<Node>(), 64);
        assert_eq!(std::mem::size_of::<Frame>(), 24);
        let array = Frame::array(&Place::from_pointer("/a~1b"));
        let object = Frame::object(&array.child(3));
        object.set_keys(["x/y", "z"]);
        assert_eq!(object.child(1).pointer(), "/a~1b/3/z");
        assert_eq!(object.child(0).pointer(), "/a~1b/3/x~1y");
    }
}

//! The compiled form of a schema: one [`Node`] per schema location, its
//! keywords already checked and converted (numbers, decimals, regexes), and
//! subschemas named by index into [`super::Schema`]'s node table.

use super::value::Decimal;
use serde_json::{Number, Value};
use std::collections::HashMap;

/// Index of a node in the schema's node table.
pub(crate) type NodeId = usize;

/// A compiled schema location.
#[derive(Debug)]
pub(crate) enum Node {
    /// `true` (everything is valid) or `false` (nothing is).
    Bool(bool),
    /// An object schema.
    Object(Box<Keywords>),
}

/// A draft 2020-12 type name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Type {
    Null,
    Boolean,
    Object,
    Array,
    Number,
    Integer,
    String,
}

impl Type {
    pub(crate) fn parse(name: &str) -> Option<Type> {
        Some(match name {
            "null" => Type::Null,
            "boolean" => Type::Boolean,
            "object" => Type::Object,
            "array" => Type::Array,
            "number" => Type::Number,
            "integer" => Type::Integer,
            "string" => Type::String,
            _ => return None,
        })
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Type::Null => "null",
            Type::Boolean => "boolean",
            Type::Object => "object",
            Type::Array => "array",
            Type::Number => "number",
            Type::Integer => "integer",
            Type::String => "string",
        }
    }
}

/// A `pattern` (or `patternProperties` key): the ECMA-262 source and the
/// linear-time regex it was translated to.
#[derive(Debug)]
pub(crate) struct Pattern {
    pub(crate) source: String,
    pub(crate) regex: regex::Regex,
}

/// A numeric bound, kept as written for messages.
#[derive(Debug)]
pub(crate) struct Bound {
    pub(crate) limit: Number,
}

/// `multipleOf`: the decimal divisor and the number as written.
#[derive(Debug)]
pub(crate) struct MultipleOf {
    pub(crate) divisor: Decimal,
    pub(crate) written: f64,
}

/// `$dynamicRef`: where it resolves statically, and the dynamic anchor name
/// when that target is a `$dynamicAnchor` (only then is the dynamic scope
/// searched).
#[derive(Debug)]
pub(crate) struct DynamicRef {
    pub(crate) target: NodeId,
    pub(crate) anchor: Option<String>,
}

/// The keywords of one object schema that affect validation.
#[derive(Debug, Default)]
pub(crate) struct Keywords {
    /// The schema resource this location belongs to (for the dynamic scope).
    pub(crate) resource: usize,
    pub(crate) reference: Option<NodeId>,
    pub(crate) dynamic_reference: Option<DynamicRef>,

    pub(crate) types: Vec<Type>,
    /// `enum`: the options and the array as written.
    pub(crate) enumeration: Option<Value>,
    pub(crate) constant: Option<Value>,

    pub(crate) multiple_of: Option<MultipleOf>,
    pub(crate) maximum: Option<Bound>,
    pub(crate) exclusive_maximum: Option<Bound>,
    pub(crate) minimum: Option<Bound>,
    pub(crate) exclusive_minimum: Option<Bound>,

    pub(crate) max_length: Option<u64>,
    pub(crate) min_length: Option<u64>,
    pub(crate) pattern: Option<Pattern>,

    pub(crate) prefix_items: Vec<NodeId>,
    pub(crate) items: Option<NodeId>,
    pub(crate) contains: Option<NodeId>,
    pub(crate) max_contains: Option<u64>,
    pub(crate) min_contains: Option<u64>,
    pub(crate) max_items: Option<u64>,
    pub(crate) min_items: Option<u64>,
    pub(crate) unique_items: bool,
    pub(crate) unevaluated_items: Option<NodeId>,

    pub(crate) properties: HashMap<String, NodeId>,
    pub(crate) pattern_properties: Vec<(Pattern, NodeId)>,
    pub(crate) additional_properties: Option<NodeId>,
    /// `additionalProperties: false`, reported as one violation listing
    /// every unexpected name.
    pub(crate) additional_properties_false: bool,
    pub(crate) property_names: Option<NodeId>,
    pub(crate) required: Vec<String>,
    /// `dependentRequired` (and the array form of legacy `dependencies`).
    pub(crate) dependent_required: Vec<(String, Vec<String>)>,
    /// `dependentSchemas` (and the schema form of legacy `dependencies`).
    pub(crate) dependent_schemas: Vec<(String, NodeId)>,
    pub(crate) max_properties: Option<u64>,
    pub(crate) min_properties: Option<u64>,
    /// `unevaluatedProperties` (one violation lists every unevaluated name
    /// that its subschema refuses).
    pub(crate) unevaluated_properties: Option<NodeId>,

    pub(crate) all_of: Vec<NodeId>,
    pub(crate) any_of: Vec<NodeId>,
    pub(crate) one_of: Vec<NodeId>,
    /// `not`: the subschema and its JSON (for the message).
    pub(crate) not: Option<(NodeId, Value)>,
    pub(crate) if_: Option<NodeId>,
    pub(crate) then_: Option<NodeId>,
    pub(crate) else_: Option<NodeId>,
}

impl Keywords {
    /// Whether annotations about evaluated properties or items are needed
    /// by this schema itself.
    pub(crate) fn needs_annotations(&self) -> bool {
        self.unevaluated_items.is_some() || self.unevaluated_properties.is_some()
    }
}

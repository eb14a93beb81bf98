//! toolsmith's own JSON Schema (draft 2020-12) instance validator, for a
//! model's tool-call arguments.
//!
//! [`Schema::compile`] turns a tool's parameter schema into a table of
//! compiled nodes in microseconds: no meta-schema is loaded or validated
//! against (a manifest's schemas are checked against the meta-schema when it
//! is linted or loaded); each keyword's value is checked as it is converted,
//! and `$ref`s must resolve inside the schema. [`Schema::validate`] lists
//! every violation with its JSON pointer into the instance.
//!
//! What it implements, exactly as draft 2020-12 defines it:
//!
//! * every validation keyword: `type` (an integer is a number with a zero
//!   fraction: `1.0` is one), `enum`/`const` (JSON equality: `1 == 1.0`),
//!   `multipleOf` (decimal arithmetic: `0.3` is a multiple of `0.1`), the
//!   four bounds (compared exactly across integers and floats),
//!   `maxLength`/`minLength` (Unicode code points), `pattern` (ECMA-262,
//!   translated by `jsonschema-regex` and run by the linear-time `regex`
//!   crate: look-around and backreferences are refused at compile time),
//!   `maxItems`/`minItems`/`uniqueItems`, `contains` with
//!   `maxContains`/`minContains`, `maxProperties`/`minProperties`,
//!   `required`, `dependentRequired`;
//! * every applicator: `properties`, `patternProperties`,
//!   `additionalProperties`, `propertyNames`, `prefixItems`, `items`,
//!   `dependentSchemas`, `allOf`, `anyOf`, `oneOf`, `not`,
//!   `if`/`then`/`else`, and `unevaluatedProperties`/`unevaluatedItems` with
//!   annotations collected through every in-place applicator and reference;
//! * references: `$ref` and `$dynamicRef`/`$dynamicAnchor` within the schema
//!   (`$id` resources, `$anchor`s, JSON pointers with percent-decoding); a
//!   reference to anything outside the schema is a [`CompileError`] (nothing
//!   is ever fetched, and the meta-schemas are not bundled);
//! * boolean schemas, and the legacy `definitions` and `dependencies` that
//!   the 2020-12 meta-schema still defines. `$schema` is not consulted: the
//!   draft is always 2020-12, as the manifest linter pins it.
//!
//! `format`, `content*`, `title`, `default` and the other annotations are
//! not assertions (the default of draft 2020-12, and what the `jsonschema`
//! crate did for toolsmith before). `additionalItems` is not a 2020-12
//! keyword and is ignored.
//!
//! Validation is bounded: schemas nested deeper than 256 levels at one value
//! (a `$ref` cycle that does not descend into the instance) or more than
//! 1,000,000 schema evaluations for one instance stop it with a violation,
//! never a stack overflow or a hang.
//!
//! Messages are those of the `jsonschema` crate where it has one
//! (`"x" is a required property`, `5 is not of type "string"`, …).
//!
//! ```
//! use serde_json::json;
//! let schema = toolsmith::schema::Schema::compile(&json!({
//!     "type": "object",
//!     "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
//!     "required": ["city"],
//!     "additionalProperties": false
//! }))?;
//! let violations = schema.validate(&json!({"days": 0, "x": 1}));
//! let pointers: Vec<&str> = violations.iter().map(|v| v.pointer.as_str()).collect();
//! assert_eq!(pointers, ["", "/days", ""]);
//! assert_eq!(violations[0].message, "\"city\" is a required property");
//! assert!(schema.is_valid(&json!({"city": "Oslo", "days": 2.0})));
//! # Ok::<(), toolsmith::schema::CompileError>(())
//! ```

mod compile;
mod keywords;
mod node;
mod nulls;
mod uri;
mod validate;
mod value;

use crate::tool::Violation;
use serde_json::Value;

/// A compiled draft 2020-12 schema.
#[derive(Debug)]
pub struct Schema {
    compiled: compile::Compiled,
}

/// Why a schema cannot be compiled: a malformed keyword value, a pattern
/// that cannot run in linear time, or a reference that does not resolve
/// inside the schema.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at `#{pointer}`: {message}")]
pub struct CompileError {
    /// JSON pointer into the schema (`""` for the root).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl CompileError {
    fn at(pointer: &str, message: impl Into<String>) -> CompileError {
        CompileError {
            pointer: pointer.to_owned(),
            message: message.into(),
        }
    }
}

impl Schema {
    /// Compiles `schema`.
    ///
    /// # Errors
    ///
    /// A keyword's value is not what draft 2020-12 allows (`"type": 5`,
    /// `"minimum": "x"`, …), a `pattern` is not a linear-time ECMA-262
    /// regular expression, or a `$ref`/`$dynamicRef` does not resolve inside
    /// the schema.
    pub fn compile(schema: &Value) -> Result<Schema, CompileError> {
        Ok(Schema {
            compiled: compile::compile(schema)?,
        })
    }

    /// Every violation of `instance` (empty when it is valid), each with its
    /// JSON pointer into the instance.
    pub fn validate(&self, instance: &Value) -> Vec<Violation> {
        let mut violations = Vec::new();
        validate::Run::new(&self.compiled).root(instance, Some(&mut violations));
        violations
    }

    /// Whether `instance` is valid (stops at the first violation).
    pub fn is_valid(&self, instance: &Value) -> bool {
        validate::Run::new(&self.compiled).root(instance, None)
    }

    /// Removes the `null`s that a strict-mode model sends for the optional
    /// arguments it leaves out, so that the arguments read as if it had
    /// omitted them; returns how many it removed. A `null` is removed only
    /// where the value does not satisfy the schema, as a member of an object
    /// whose property is not `required` and whose subschema does not accept
    /// `null`: a `null` for a required property, or for one whose schema
    /// accepts `null` (`"type": ["integer", "null"]`, `{}`), is a value and
    /// stays. Nested objects (through `properties`, `items`, `$ref`, `allOf`,
    /// and the first `anyOf`/`oneOf` alternative that then fits) are treated
    /// alike; the work is bounded by the validator's budget.
    ///
    /// ```
    /// use serde_json::json;
    /// let schema = toolsmith::schema::Schema::compile(&json!({
    ///     "type": "object",
    ///     "properties": {
    ///         "city": {"type": "string"},
    ///         "days": {"type": "integer"},
    ///         "note": {"type": ["string", "null"]}
    ///     },
    ///     "required": ["city"]
    /// }))?;
    /// let mut args = json!({"city": "Oslo", "days": null, "note": null});
    /// assert_eq!(schema.remove_strict_nulls(&mut args), 1);
    /// assert_eq!(args, json!({"city": "Oslo", "note": null}));
    /// // A required property's null is not an omission: it stays, and is invalid.
    /// let mut args = json!({"city": null});
    /// assert_eq!(schema.remove_strict_nulls(&mut args), 0);
    /// assert!(!schema.is_valid(&args));
    /// # Ok::<(), toolsmith::schema::CompileError>(())
    /// ```
    pub fn remove_strict_nulls(&self, instance: &mut Value) -> usize {
        nulls::strip(&self.compiled, instance)
    }
}

#[cfg(test)]
mod tests;

//! The `null`s a strict-mode model sends for the arguments it leaves out.
//!
//! OpenAI's strict mode (and `toolsmith export --strict`, provider-formats.md
//! §4) makes every property required and each optional one nullable: the
//! model then sends `"limit": null` where it would have omitted `limit`.
//! Read against the tool's own schema, that `null` is absent.
//!
//! [`strip`] removes such a `null` where the value does not satisfy the
//! schema: a member of an object whose property is **not required** and
//! whose subschema **does not accept `null`** (so the `null` cannot be a
//! value the tool asked for). A `null` for a required property is kept (the
//! validator refuses it, unless the schema accepts it), and so is a `null`
//! for an optional property whose schema accepts `null` (`"type": ["string",
//! "null"]`, `{}`, an `anyOf` with a null branch): there it is a value of
//! its own, which the strict rewrite leaves as it is, and which a tool may
//! tell apart from an absent argument. A value that satisfies the schema is
//! never changed.
//!
//! The walk follows `properties`, `prefixItems`/`items`, `$ref`,
//! `$dynamicRef`, `allOf`, and for `anyOf`/`oneOf` the first alternative that
//! the value satisfies once its own `null`s are removed. It runs on the
//! validator's budget of evaluations and nesting, so a hostile schema or
//! value cannot make it run long: when the budget is spent it stops, and
//! validation reports what is left.

use super::compile::Compiled;
use super::node::{Node, NodeId};
use super::validate::{MAX_DEPTH, Run};
use serde_json::Value;

/// Removes from `instance` the `null`s that stand for omitted optional
/// properties (see the module documentation); returns how many it removed.
pub(crate) fn strip(compiled: &Compiled, instance: &mut Value) -> usize {
    let mut walk = Walk {
        run: Run::new(compiled),
        depth: 0,
        removed: 0,
    };
    walk.node(0, instance);
    walk.removed
}

struct Walk<'s> {
    run: Run<'s>,
    depth: usize,
    removed: usize,
}

impl Walk<'_> {
    fn node(&mut self, id: NodeId, value: &mut Value) {
        if self.depth >= MAX_DEPTH || self.run.exhausted() || self.run.valid_at(id, value) {
            return;
        }
        let Node::Object(k) = &self.run.nodes()[id] else {
            return;
        };
        self.depth += 1;
        if let Some(r) = k.reference {
            self.node(r, value);
        }
        if let Some(d) = &k.dynamic_reference {
            self.node(d.target, value);
        }
        for &a in &k.all_of {
            self.node(a, value);
        }
        if matches!(value, Value::Object(_) | Value::Array(_)) {
            for alternatives in [&k.any_of, &k.one_of] {
                self.first_alternative(alternatives, value);
            }
        }
        match value {
            Value::Object(members) => {
                for (name, &sub) in &k.properties {
                    let Some(member) = members.get_mut(name) else {
                        continue;
                    };
                    if !member.is_null() {
                        self.node(sub, member);
                    } else if !k.required.contains(name) && !self.run.valid_at(sub, &Value::Null) {
                        members.shift_remove(name);
                        self.removed += 1;
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    match k.prefix_items.get(i).copied().or(k.items) {
                        Some(sub) => self.node(sub, item),
                        None => break,
                    }
                }
            }
            _ => {}
        }
        self.depth -= 1;
    }

    /// The first of `alternatives` that `value` satisfies with its nulls
    /// removed for that alternative; `value` becomes that form.
    fn first_alternative(&mut self, alternatives: &[NodeId], value: &mut Value) {
        if alternatives.is_empty() {
            return;
        }
        for &a in alternatives {
            let mut candidate = value.clone();
            let before = self.removed;
            self.node(a, &mut candidate);
            if self.removed > before && self.run.valid_at(a, &candidate) {
                *value = candidate;
                return;
            }
            self.removed = before;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::schema::Schema;
    use serde_json::{Value, json};

    fn stripped(schema: Value, mut instance: Value) -> (Value, usize) {
        let schema = Schema::compile(&schema).expect("schema");
        let removed = schema.remove_strict_nulls(&mut instance);
        (instance, removed)
    }

    #[test]
    fn optional_nulls_go_required_and_nullable_ones_stay() {
        let schema = json!({"type": "object", "required": ["a"], "additionalProperties": false,
            "properties": {"a": {"type": "string"}, "b": {"type": "integer"},
                "c": {"type": ["string", "null"]}, "d": {}, "e": {"enum": ["x"]}}});
        let (out, n) = stripped(
            schema.clone(),
            json!({"a": "v", "b": null, "c": null, "d": null, "e": null}),
        );
        assert_eq!((out, n), (json!({"a": "v", "c": null, "d": null}), 2));
        let (out, n) = stripped(schema, json!({"a": null, "b": null}));
        assert_eq!((out, n), (json!({"a": null}), 1));
    }

    #[test]
    fn a_valid_value_is_never_changed() {
        // `b` refuses null, but `anyOf`'s second branch lets the whole value be.
        let schema = json!({"anyOf": [
            {"type": "object", "properties": {"b": {"type": "string"}}},
            {"type": "object", "properties": {"b": {"type": "null"}}}]});
        assert_eq!(stripped(schema, json!({"b": null})).1, 0);
    }

    #[test]
    fn nested_objects_items_refs_and_alternatives() {
        let schema = json!({
            "type": "object",
            "properties": {
                "filter": {"type": "object", "properties": {"op": {"enum": ["eq"]}, "field": {"type": "string"}}, "required": ["field"]},
                "points": {"type": "array", "items": {"$ref": "#/$defs/point"}},
                "either": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/point"}]}
            },
            "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"}, "label": {"type": "string"}}, "required": ["x"]}}
        });
        let (out, n) = stripped(
            schema,
            json!({"filter": {"field": "f", "op": null},
                   "points": [{"x": 1, "label": null}, {"x": 2}],
                   "either": {"x": 3, "label": null}}),
        );
        assert_eq!(n, 3);
        assert_eq!(
            out,
            json!({"filter": {"field": "f"}, "points": [{"x": 1}, {"x": 2}], "either": {"x": 3}})
        );
    }

    #[test]
    fn reference_cycles_stop() {
        let schema = json!({"$defs": {"a": {"anyOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/a"}]}},
            "$ref": "#/$defs/a", "type": "object", "properties": {"x": {"type": "string"}}});
        // Terminates (bounded by the validator's budget) and removes nothing
        // it cannot prove absent.
        let (_, n) = stripped(schema, json!({"x": null}));
        assert!(n <= 1);
    }
}

//! Validating an instance against compiled nodes: every violation with its
//! instance pointer, annotations of evaluated properties and items collected
//! only where an `unevaluated*` keyword needs them, and bounded work (a
//! nesting limit for `$ref` cycles, a budget of schema evaluations).

use super::compile::{Compiled, Resource};
use super::node::{Keywords, Node, NodeId, Type};
use super::value::{Decimal, cmp_numbers, equal, has_duplicates, is_integer, push_token};
use crate::tool::Violation;
use serde_json::Value;
use std::cmp::Ordering;
use std::fmt::Write as _;

/// Schema evaluations nested deeper than this (a `$ref` cycle that does not
/// descend into the instance, or an absurdly deep instance) stop validation.
pub(crate) const MAX_DEPTH: usize = 256;
/// Schema evaluations per validation before it stops (no exponential blow-up
/// through shared `$ref` targets under `anyOf`/`oneOf`).
pub(crate) const MAX_STEPS: usize = 1_000_000;

/// Marks of the evaluated properties (by position in the object) or items
/// (by index) of one instance.
type Marks = Option<Vec<bool>>;

/// One validation.
pub(crate) struct Run<'s> {
    nodes: &'s [Node],
    resources: &'s [Resource],
    /// The dynamic scope: resources entered, outermost first.
    scope: Vec<usize>,
    depth: usize,
    steps: usize,
    /// Why validation stopped early, and where.
    stopped: Option<Violation>,
}

fn report(errors: &mut Option<&mut Vec<Violation>>, path: &str, message: String) {
    if let Some(errors) = errors.as_deref_mut() {
        errors.push(Violation {
            pointer: path.to_owned(),
            message,
        });
    }
}

fn merge(into: &mut Marks, from: Marks) {
    if let (Some(into), Some(from)) = (into.as_mut(), from) {
        for (a, b) in into.iter_mut().zip(from) {
            *a |= b;
        }
    }
}

fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// `'a', 'b'` followed by ` was unexpected)` or ` were unexpected)`.
fn unexpected_list(head: &str, names: &[String]) -> String {
    let mut m = String::from(head);
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            m.push_str(", ");
        }
        let _ = write!(m, "'{n}'");
    }
    m.push_str(if names.len() == 1 {
        " was unexpected)"
    } else {
        " were unexpected)"
    });
    m
}

/// `v is not one of a, b or c` (three options at most, then a count).
fn enum_message(instance: &Value, options: &[Value]) -> String {
    let mut m = format!("{instance} is not one of ");
    if options.len() <= 3 {
        for (i, o) in options.iter().enumerate() {
            match i {
                0 => {}
                i if i == options.len() - 1 => m.push_str(" or "),
                _ => m.push_str(", "),
            }
            let _ = write!(m, "{o}");
        }
    } else {
        for (i, o) in options.iter().take(2).enumerate() {
            if i > 0 {
                m.push_str(", ");
            }
            let _ = write!(m, "{o}");
        }
        let _ = write!(m, " or {} other candidates", options.len() - 2);
    }
    m
}

fn has_type(t: Type, v: &Value) -> bool {
    match (t, v) {
        (Type::Null, Value::Null)
        | (Type::Boolean, Value::Bool(_))
        | (Type::Object, Value::Object(_))
        | (Type::Array, Value::Array(_))
        | (Type::Number, Value::Number(_))
        | (Type::String, Value::String(_)) => true,
        (Type::Integer, Value::Number(n)) => is_integer(n),
        _ => false,
    }
}

impl<'s> Run<'s> {
    pub(crate) fn new(compiled: &'s Compiled) -> Run<'s> {
        Run {
            nodes: &compiled.nodes,
            resources: &compiled.resources,
            scope: Vec::new(),
            depth: 0,
            steps: 0,
            stopped: None,
        }
    }

    /// Validates `instance` against the root; every violation goes to
    /// `errors` when given. Returns whether it is valid.
    pub(crate) fn root(
        &mut self,
        instance: &Value,
        mut errors: Option<&mut Vec<Violation>>,
    ) -> bool {
        let mut path = String::new();
        let (valid, _) = self.eval(0, instance, &mut path, errors.as_deref_mut(), false);
        if let Some(stop) = self.stopped.take() {
            // What was found before is incomplete and may be an artefact of
            // the stop (a branch that failed because it was cut short).
            if let Some(errors) = errors {
                errors.clear();
                errors.push(stop);
            }
            return false;
        }
        valid
    }

    /// Whether `instance` is valid against node `id`, on this run's budget
    /// of evaluations (shared by every call: once it is spent, or a nesting
    /// limit was hit, every answer is `false`).
    pub(crate) fn valid_at(&mut self, id: NodeId, instance: &Value) -> bool {
        let mut path = String::new();
        let (valid, _) = self.eval(id, instance, &mut path, None, false);
        valid && self.stopped.is_none()
    }

    /// Whether the budget is spent (or a nesting limit was hit).
    pub(crate) fn exhausted(&self) -> bool {
        self.stopped.is_some()
    }

    /// The compiled nodes.
    pub(crate) fn nodes(&self) -> &'s [Node] {
        self.nodes
    }

    fn stop(&mut self, path: &str, message: String) {
        if self.stopped.is_none() {
            self.stopped = Some(Violation {
                pointer: path.to_owned(),
                message,
            });
        }
    }

    /// Evaluates node `id` against `instance` at `path`. With `want`, the
    /// evaluated properties/items are returned (for the caller's
    /// `unevaluated*`).
    fn eval(
        &mut self,
        id: NodeId,
        instance: &Value,
        path: &mut String,
        errors: Option<&mut Vec<Violation>>,
        want: bool,
    ) -> (bool, Marks) {
        if self.stopped.is_some() {
            return (false, None);
        }
        self.steps += 1;
        if self.steps > MAX_STEPS {
            self.stop(
                path,
                format!(
                    "validation stopped after {MAX_STEPS} schema evaluations (the schema is too costly for this value)"
                ),
            );
            return (false, None);
        }
        let nodes = self.nodes;
        let keywords = match &nodes[id] {
            Node::Bool(true) => return (true, None),
            Node::Bool(false) => {
                let mut errors = errors;
                report(
                    &mut errors,
                    path,
                    format!("False schema does not allow {instance}"),
                );
                return (false, None);
            }
            Node::Object(k) => k,
        };
        if self.depth >= MAX_DEPTH {
            self.stop(
                path,
                format!(
                    "validation stopped: schemas nest deeper than {MAX_DEPTH} levels at this value (a `$ref` cycle that does not descend into the value?)"
                ),
            );
            return (false, None);
        }
        self.depth += 1;
        let entered = self.scope.last() != Some(&keywords.resource);
        if entered {
            self.scope.push(keywords.resource);
        }
        let result = self.keywords(keywords, instance, path, errors, want);
        if entered {
            self.scope.pop();
        }
        self.depth -= 1;
        result
    }

    fn dynamic_target(&self, target: NodeId, anchor: Option<&String>) -> NodeId {
        let Some(name) = anchor else {
            return target;
        };
        self.scope
            .iter()
            .find_map(|&r| self.resources[r].dynamic_anchors.get(name).copied())
            .unwrap_or(target)
    }

    /// The keywords of one object schema, in the order that lets
    /// `unevaluated*` see every other keyword's annotations. Split into
    /// small functions so that the frames on the recursive path stay small.
    fn keywords(
        &mut self,
        k: &Keywords,
        instance: &Value,
        path: &mut String,
        mut errors: Option<&mut Vec<Violation>>,
        want: bool,
    ) -> (bool, Marks) {
        let len = match instance {
            Value::Object(m) => m.len(),
            Value::Array(a) => a.len(),
            _ => 0,
        };
        let tracked = (want || k.needs_annotations())
            && matches!(instance, Value::Object(_) | Value::Array(_));
        let mut marks: Marks = tracked.then(|| vec![false; len]);
        let mut valid = true;
        let steps: [Step; 6] = [
            Step::References,
            Step::Assertions,
            Step::Items,
            Step::Properties,
            Step::InPlace,
            Step::Unevaluated,
        ];
        for step in steps {
            let ok = match step {
                Step::References => {
                    self.references(k, instance, path, errors.as_deref_mut(), &mut marks)
                }
                Step::Assertions => assertions(k, instance, path, errors.as_deref_mut()),
                Step::Items => self.items(k, instance, path, errors.as_deref_mut(), &mut marks),
                Step::Properties => {
                    self.properties(k, instance, path, errors.as_deref_mut(), &mut marks)
                }
                Step::InPlace => {
                    self.in_place(k, instance, path, errors.as_deref_mut(), &mut marks)
                }
                Step::Unevaluated => {
                    self.unevaluated(k, instance, path, errors.as_deref_mut(), &mut marks)
                }
            };
            if !ok {
                valid = false;
                if errors.is_none() {
                    return (false, None);
                }
            }
        }
        (valid, marks)
    }

    fn references(
        &mut self,
        k: &Keywords,
        instance: &Value,
        path: &mut String,
        mut errors: Option<&mut Vec<Violation>>,
        marks: &mut Marks,
    ) -> bool {
        let mut valid = true;
        let tracked = marks.is_some();
        if let Some(r) = k.reference {
            let (ok, m) = self.eval(r, instance, path, errors.as_deref_mut(), tracked);
            merge(marks, m);
            valid &= ok;
        }
        if let Some(d) = &k.dynamic_reference {
            if !valid && errors.is_none() {
                return false;
            }
            let target = self.dynamic_target(d.target, d.anchor.as_ref());
            let (ok, m) = self.eval(target, instance, path, errors, tracked);
            merge(marks, m);
            valid &= ok;
        }
        valid
    }

    /// `prefixItems`, `items`, `contains` (with `minContains`/`maxContains`).
    fn items(
        &mut self,
        k: &Keywords,
        instance: &Value,
        path: &mut String,
        mut errors: Option<&mut Vec<Violation>>,
        marks: &mut Marks,
    ) -> bool {
        let Value::Array(items) = instance else {
            return true;
        };
        let mut valid = true;
        let base = path.len();
        let first_items = k.prefix_items.len();
        for (i, item) in items.iter().enumerate() {
            let schema = if i < first_items {
                Some(k.prefix_items[i])
            } else {
                k.items
            };
            let Some(schema) = schema else { break };
            push_token(path, &i.to_string());
            let (ok, _) = self.eval(schema, item, path, errors.as_deref_mut(), false);
            path.truncate(base);
            if let Some(m) = marks.as_mut() {
                m[i] = true;
            }
            if !ok {
                valid = false;
                if errors.is_none() {
                    return false;
                }
            }
        }
        if let Some(contains) = k.contains {
            let mut matched = 0u64;
            for (i, item) in items.iter().enumerate() {
                push_token(path, &i.to_string());
                let (ok, _) = self.eval(contains, item, path, None, false);
                path.truncate(base);
                if ok {
                    matched += 1;
                    if let Some(m) = marks.as_mut() {
                        m[i] = true;
                    }
                }
            }
            if let Some(message) = contains_message(k, instance, matched) {
                report(&mut errors, path, message);
                valid = false;
            }
        }
        valid
    }

    /// `properties`, `patternProperties`, `additionalProperties`,
    /// `propertyNames`, `dependentSchemas`.
    fn properties(
        &mut self,
        k: &Keywords,
        instance: &Value,
        path: &mut String,
        mut errors: Option<&mut Vec<Violation>>,
        marks: &mut Marks,
    ) -> bool {
        let Value::Object(members) = instance else {
            return true;
        };
        let mut valid = true;
        let base = path.len();
        let mut unexpected = Vec::new();
        for (i, (name, value)) in members.iter().enumerate() {
            let declared = k.properties.get(name).copied();
            let patterns = k
                .pattern_properties
                .iter()
                .filter(|(p, _)| p.regex.is_match(name))
                .map(|(_, id)| *id);
            let mut matched = false;
            let mut additional = None;
            for schema in declared.into_iter().chain(patterns) {
                matched = true;
                push_token(path, name);
                let (ok, _) = self.eval(schema, value, path, errors.as_deref_mut(), false);
                path.truncate(base);
                if !ok {
                    valid = false;
                    if errors.is_none() {
                        return false;
                    }
                }
            }
            if !matched && k.additional_properties.is_some() {
                matched = true;
                if k.additional_properties_false {
                    unexpected.push(name.clone());
                } else {
                    additional = k.additional_properties;
                }
            }
            if let Some(schema) = additional {
                push_token(path, name);
                let (ok, _) = self.eval(schema, value, path, errors.as_deref_mut(), false);
                path.truncate(base);
                if !ok {
                    valid = false;
                    if errors.is_none() {
                        return false;
                    }
                }
            }
            if matched && let Some(m) = marks.as_mut() {
                m[i] = true;
            }
        }
        if !unexpected.is_empty() {
            valid = false;
            report(
                &mut errors,
                path,
                unexpected_list("Additional properties are not allowed (", &unexpected),
            );
        }
        if let Some(names) = k.property_names {
            for name in members.keys() {
                let key = Value::String(name.clone());
                let (ok, _) = self.eval(names, &key, path, errors.as_deref_mut(), false);
                if !ok {
                    valid = false;
                    if errors.is_none() {
                        return false;
                    }
                }
            }
        }
        let tracked = marks.is_some();
        for (name, schema) in &k.dependent_schemas {
            if members.contains_key(name) {
                let (ok, m) = self.eval(*schema, instance, path, errors.as_deref_mut(), tracked);
                merge(marks, m);
                if !ok {
                    valid = false;
                    if errors.is_none() {
                        return false;
                    }
                }
            }
        }
        valid
    }

    /// `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`.
    fn in_place(
        &mut self,
        k: &Keywords,
        instance: &Value,
        path: &mut String,
        mut errors: Option<&mut Vec<Violation>>,
        marks: &mut Marks,
    ) -> bool {
        let tracked = marks.is_some();
        let mut valid = true;
        for &schema in &k.all_of {
            let (ok, m) = self.eval(schema, instance, path, errors.as_deref_mut(), tracked);
            merge(marks, m);
            if !ok {
                valid = false;
                if errors.is_none() {
                    return false;
                }
            }
        }
        if !k.any_of.is_empty() {
            let mut any = false;
            for &schema in &k.any_of {
                let (ok, m) = self.eval(schema, instance, path, None, tracked);
                if ok {
                    any = true;
                    merge(marks, m);
                    if !tracked {
                        break;
                    }
                }
            }
            if !any {
                valid = false;
                report(
                    &mut errors,
                    path,
                    combinator_message(instance, "anyOf", false),
                );
            }
        }
        if !k.one_of.is_empty() {
            let mut passed = 0;
            let mut first: Marks = None;
            for &schema in &k.one_of {
                let (ok, m) = self.eval(schema, instance, path, None, tracked);
                if ok {
                    passed += 1;
                    if passed == 1 {
                        first = m;
                    } else {
                        break;
                    }
                }
            }
            if passed == 1 {
                merge(marks, first);
            } else {
                valid = false;
                report(
                    &mut errors,
                    path,
                    combinator_message(instance, "oneOf", passed > 1),
                );
            }
        }
        if let Some((schema, written)) = &k.not {
            let (ok, _) = self.eval(*schema, instance, path, None, false);
            if ok {
                valid = false;
                report(&mut errors, path, not_message(written, instance));
            }
        }
        if let Some(condition) = k.if_ {
            let (ok, m) = self.eval(condition, instance, path, None, tracked);
            let branch = if ok {
                merge(marks, m);
                k.then_
            } else {
                k.else_
            };
            if let Some(branch) = branch {
                let (ok, m) = self.eval(branch, instance, path, errors, tracked);
                merge(marks, m);
                valid &= ok;
            }
        }
        valid
    }

    /// `unevaluatedProperties` and `unevaluatedItems`, after every other
    /// keyword has marked what it evaluated.
    fn unevaluated(
        &mut self,
        k: &Keywords,
        instance: &Value,
        path: &mut String,
        mut errors: Option<&mut Vec<Violation>>,
        marks: &mut Marks,
    ) -> bool {
        let Some(m) = marks.as_mut() else {
            return true;
        };
        let base = path.len();
        let mut unexpected = Vec::new();
        let head = match (instance, k.unevaluated_properties, k.unevaluated_items) {
            (Value::Object(members), Some(schema), _) => {
                for (i, (name, value)) in members.iter().enumerate() {
                    if m[i] {
                        continue;
                    }
                    push_token(path, name);
                    let (ok, _) = self.eval(schema, value, path, None, false);
                    path.truncate(base);
                    if ok {
                        m[i] = true;
                    } else {
                        unexpected.push(name.clone());
                    }
                }
                "Unevaluated properties are not allowed ("
            }
            (Value::Array(items), _, Some(schema)) => {
                for (i, item) in items.iter().enumerate() {
                    if m[i] {
                        continue;
                    }
                    push_token(path, &i.to_string());
                    let (ok, _) = self.eval(schema, item, path, None, false);
                    path.truncate(base);
                    if ok {
                        m[i] = true;
                    } else {
                        unexpected.push(item.to_string());
                    }
                }
                "Unevaluated items are not allowed ("
            }
            _ => return true,
        };
        if unexpected.is_empty() {
            return true;
        }
        report(&mut errors, path, unexpected_list(head, &unexpected));
        false
    }
}

/// The order of [`Run::keywords`].
#[derive(Clone, Copy)]
enum Step {
    References,
    Assertions,
    Items,
    Properties,
    InPlace,
    Unevaluated,
}

#[inline(never)]
fn combinator_message(instance: &Value, keyword: &str, several: bool) -> String {
    if several {
        format!(
            "{instance} is valid under more than one of the schemas listed in the '{keyword}' keyword"
        )
    } else {
        format!(
            "{instance} is not valid under any of the schemas listed in the '{keyword}' keyword"
        )
    }
}

#[inline(never)]
fn not_message(schema: &Value, instance: &Value) -> String {
    format!("{schema} is not allowed for {instance}")
}

#[inline(never)]
fn contains_message(k: &Keywords, instance: &Value, matched: u64) -> Option<String> {
    let min = k.min_contains.unwrap_or(1);
    if matched < min {
        return Some(if matched == 0 {
            format!("None of {instance} are valid under the given schema")
        } else {
            format!(
                "{instance} has {matched} item{} valid under `contains`, fewer than minContains ({min})",
                plural(matched, "", "s")
            )
        });
    }
    match k.max_contains {
        Some(max) if matched > max => Some(format!(
            "{instance} has {matched} items valid under `contains`, more than maxContains ({max})"
        )),
        _ => None,
    }
}

/// Every keyword that asserts on the value itself, with no subschema:
/// `type`, `enum`, `const`, the numeric, string, array and object bounds,
/// `uniqueItems`, `required`, `dependentRequired`.
#[inline(never)]
#[allow(clippy::too_many_lines)] // one keyword after the other
fn assertions(
    k: &Keywords,
    instance: &Value,
    path: &str,
    mut errors: Option<&mut Vec<Violation>>,
) -> bool {
    let mut valid = true;
    macro_rules! fail {
        ($message:expr) => {{
            valid = false;
            if errors.is_none() {
                return false;
            }
            report(&mut errors, path, $message);
        }};
    }
    if !k.types.is_empty() && !k.types.iter().any(|t| has_type(*t, instance)) {
        let message = if let [t] = k.types.as_slice() {
            format!("{instance} is not of type \"{}\"", t.name())
        } else {
            let names: Vec<String> = k
                .types
                .iter()
                .map(|t| format!("\"{}\"", t.name()))
                .collect();
            format!("{instance} is not of types {}", names.join(", "))
        };
        fail!(message);
    }
    if let Some(Value::Array(options)) = &k.enumeration
        && !options.iter().any(|o| equal(o, instance))
    {
        fail!(enum_message(instance, options));
    }
    if let Some(c) = &k.constant
        && !equal(c, instance)
    {
        fail!(format!("{c} was expected"));
    }
    match instance {
        Value::Number(n) => {
            if let Some(m) = &k.multiple_of
                && !Decimal::of(n).is_some_and(|d| d.is_multiple_of(m.divisor))
            {
                fail!(format!("{instance} is not a multiple of {}", m.written));
            }
            if let Some(b) = &k.maximum
                && cmp_numbers(n, &b.limit) == Ordering::Greater
            {
                fail!(format!(
                    "{instance} is greater than the maximum of {}",
                    b.limit
                ));
            }
            if let Some(b) = &k.exclusive_maximum
                && cmp_numbers(n, &b.limit) != Ordering::Less
            {
                fail!(format!(
                    "{instance} is greater than or equal to the maximum of {}",
                    b.limit
                ));
            }
            if let Some(b) = &k.minimum
                && cmp_numbers(n, &b.limit) == Ordering::Less
            {
                fail!(format!(
                    "{instance} is less than the minimum of {}",
                    b.limit
                ));
            }
            if let Some(b) = &k.exclusive_minimum
                && cmp_numbers(n, &b.limit) != Ordering::Greater
            {
                fail!(format!(
                    "{instance} is less than or equal to the minimum of {}",
                    b.limit
                ));
            }
        }
        Value::String(s) => {
            if k.max_length.is_some() || k.min_length.is_some() {
                let count = s.chars().count() as u64;
                if let Some(max) = k.max_length
                    && count > max
                {
                    fail!(format!(
                        "{instance} is longer than {max} character{}",
                        plural(max, "", "s")
                    ));
                }
                if let Some(min) = k.min_length
                    && count < min
                {
                    fail!(format!(
                        "{instance} is shorter than {min} character{}",
                        plural(min, "", "s")
                    ));
                }
            }
            if let Some(p) = &k.pattern
                && !p.regex.is_match(s)
            {
                fail!(format!("{instance} does not match \"{}\"", p.source));
            }
        }
        Value::Array(items) => {
            let count = items.len() as u64;
            if let Some(max) = k.max_items
                && count > max
            {
                fail!(format!(
                    "{instance} has more than {max} item{}",
                    plural(max, "", "s")
                ));
            }
            if let Some(min) = k.min_items
                && count < min
            {
                fail!(format!(
                    "{instance} has less than {min} item{}",
                    plural(min, "", "s")
                ));
            }
            if k.unique_items && has_duplicates(items) {
                fail!(format!("{instance} has non-unique elements"));
            }
        }
        Value::Object(members) => {
            let count = members.len() as u64;
            for name in &k.required {
                if !members.contains_key(name) {
                    fail!(format!(
                        "{} is a required property",
                        Value::String(name.clone())
                    ));
                }
            }
            for (name, needed) in &k.dependent_required {
                if members.contains_key(name) {
                    for other in needed {
                        if !members.contains_key(other) {
                            fail!(format!(
                                "{} is a required property",
                                Value::String(other.clone())
                            ));
                        }
                    }
                }
            }
            if let Some(max) = k.max_properties
                && count > max
            {
                fail!(format!(
                    "{instance} has more than {max} propert{}",
                    plural(max, "y", "ies")
                ));
            }
            if let Some(min) = k.min_properties
                && count < min
            {
                fail!(format!(
                    "{instance} has less than {min} propert{}",
                    plural(min, "y", "ies")
                ));
            }
        }
        _ => {}
    }
    valid
}

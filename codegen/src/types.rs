//! JSON Schema → Rust type definitions (structs and string enums), the
//! supported subset of the issue; everything else becomes `serde_json::Value`
//! with a warning.

use crate::ident;
use crate::issue::{Issue, NAME_COLLISION, Place, UNREPRESENTABLE};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// A Rust type of a field.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// `String`.
    String,
    /// `i64`.
    I64,
    /// `u64` (`minimum` ≥ 0).
    U64,
    /// `f64`.
    F64,
    /// `bool`.
    Bool,
    /// `serde_json::Value`.
    Value,
    /// `serde_json::Map<String, Value>` (an object without declared properties).
    JsonMap,
    /// `BTreeMap<String, T>` (`additionalProperties` with a schema).
    Map(Box<Ty>),
    /// `Vec<T>`.
    Vec(Box<Ty>),
    /// A generated struct (`struct_` true) or enum.
    Named {
        /// The type name.
        name: String,
        /// True for a struct, false for a string enum.
        is_struct: bool,
    },
    /// `Box<T>` (a recursive `$ref`).
    Boxed(Box<Ty>),
}

impl Ty {
    /// True for strings, numbers, booleans, string enums and `Value` (which is checked at run time).
    pub fn is_scalar(&self) -> bool {
        match self {
            Ty::String | Ty::I64 | Ty::U64 | Ty::F64 | Ty::Bool | Ty::Value => true,
            Ty::Named { is_struct, .. } => !is_struct,
            Ty::Boxed(inner) => inner.is_scalar(),
            Ty::JsonMap | Ty::Map(_) | Ty::Vec(_) => false,
        }
    }
}

/// One field of a generated struct.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Rust name.
    pub name: String,
    /// Wire name (the property).
    pub wire: String,
    /// The type without `Option`.
    pub ty: Ty,
    /// `Option<T>`.
    pub optional: bool,
    /// Skip when `None` (non-required properties).
    pub skip_none: bool,
    /// The schema's `default`, when it fills a non-required field.
    pub default: Option<Value>,
    /// `description`.
    pub doc: Option<String>,
}

/// A generated type.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A struct from an object schema.
    Struct {
        /// Name.
        name: String,
        /// `description`.
        doc: Option<String>,
        /// Fields in property order.
        fields: Vec<Field>,
        /// `additionalProperties: false`.
        deny_unknown: bool,
    },
    /// A string enum: `(variant, wire)` pairs.
    Enum {
        /// Name.
        name: String,
        /// `description`.
        doc: Option<String>,
        /// Variants in schema order.
        variants: Vec<(String, String)>,
    },
}

impl Item {
    /// The type's name.
    pub fn name(&self) -> &str {
        match self {
            Item::Struct { name, .. } | Item::Enum { name, .. } => name,
        }
    }
}

/// Type names in use in one generated module, with where each came from.
#[derive(Debug, Default)]
pub struct Names {
    taken: BTreeMap<String, (Place, String)>,
}

impl Names {
    /// Reserves `rust` for the manifest name `source` at `place`; on a clash,
    /// reports both and returns false.
    pub fn claim(
        &mut self,
        rust: &str,
        source: &str,
        place: Place,
        issues: &mut Vec<Issue>,
    ) -> bool {
        if let Some((_, first)) = self.taken.get(rust) {
            issues.push(Issue::new(
                &NAME_COLLISION,
                place,
                format!("`{first}` and `{source}` both become the Rust type `{rust}`; rename one of them"),
            ));
            return false;
        }
        self.taken
            .insert(rust.to_owned(), (place, source.to_owned()));
        true
    }
}

/// Converts the schemas of one tool (or skill part) into items.
pub struct TypeSpace<'a> {
    /// Index of the tool (for [`Place::Schema`]).
    pub owner: usize,
    /// The schema root (for `$ref` resolution).
    pub root: &'a Value,
    /// Generated items, in order of first use.
    pub items: Vec<Item>,
    names: &'a mut Names,
    issues: &'a mut Vec<Issue>,
    /// `$ref` pointer → type name (generated or in progress).
    refs: BTreeMap<String, String>,
    in_progress: Vec<String>,
}

fn str_of<'v>(schema: &'v Value, key: &str) -> Option<&'v str> {
    schema.get(key).and_then(Value::as_str)
}

fn doc_of(schema: &Value) -> Option<String> {
    str_of(schema, "description")
        .or_else(|| str_of(schema, "title"))
        .map(str::to_owned)
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The `type` keyword: the single non-null type, and whether `null` is allowed.
fn declared_type(schema: &Value) -> (Option<&str>, bool, bool) {
    match schema.get("type") {
        Some(Value::String(t)) => (Some(t.as_str()), t == "null", false),
        Some(Value::Array(types)) => {
            let non_null: Vec<&str> = types
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null")
                .collect();
            let nullable = types.iter().any(|t| t == "null");
            match non_null.as_slice() {
                [one] => (Some(one), nullable, false),
                [] => (None, nullable, false),
                _ => (None, nullable, true),
            }
        }
        _ => (None, false, false),
    }
}

impl<'a> TypeSpace<'a> {
    /// A type space for schema `root` of tool `owner`.
    pub fn new(
        owner: usize,
        root: &'a Value,
        names: &'a mut Names,
        issues: &'a mut Vec<Issue>,
    ) -> Self {
        TypeSpace {
            owner,
            root,
            items: Vec::new(),
            names,
            issues,
            refs: BTreeMap::new(),
            in_progress: Vec::new(),
        }
    }

    fn place(&self, pointer: &str) -> Place {
        Place::Schema {
            tool: self.owner,
            pointer: pointer.to_owned(),
        }
    }

    fn warn(&mut self, pointer: &str, what: &str) -> Ty {
        let place = self.place(pointer);
        self.issues.push(Issue::new(
            &UNREPRESENTABLE,
            place,
            format!("{what}: generated as serde_json::Value"),
        ));
        Ty::Value
    }

    /// Generates the struct `name` for the object schema `schema` at `pointer`
    /// (the root struct of a tool or skill part; the caller claims the name). A schema that is not an
    /// object gives an empty struct and a warning.
    pub fn root_struct(&mut self, name: &str, schema: &Value, pointer: &str, doc: Option<&str>) {
        if !schema.is_object() || matches!(declared_type(schema).0, Some(t) if t != "object") {
            self.warn(pointer, "the parameter schema is not an object schema");
            self.items.push(Item::Struct {
                name: name.to_owned(),
                doc: doc.map(str::to_owned),
                fields: Vec::new(),
                deny_unknown: false,
            });
            return;
        }
        self.object_struct(name, schema, pointer);
        if let (Some(doc), Some(Item::Struct { doc: d @ None, .. })) = (doc, self.items.first_mut())
        {
            *d = Some(doc.to_owned());
        }
    }

    /// A struct from `properties` / `required` / `additionalProperties: false`.
    fn object_struct(&mut self, name: &str, schema: &Value, pointer: &str) {
        let index = self.items.len();
        self.items.push(Item::Struct {
            name: name.to_owned(),
            doc: doc_of(schema),
            fields: Vec::new(),
            deny_unknown: false,
        });
        let empty = Map::new();
        let properties = schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut fields: Vec<Field> = Vec::with_capacity(properties.len());
        let mut seen: BTreeMap<String, String> = BTreeMap::new();
        for (i, (wire, prop)) in properties.iter().enumerate() {
            let prop_pointer = format!("{pointer}/properties/{}", escape(wire));
            let rust = ident::snake(wire, &format!("field_{i}"));
            if let Some(first) = seen.get(&rust) {
                let place = self.place(&prop_pointer);
                self.issues.push(Issue::new(
                    &NAME_COLLISION,
                    place,
                    format!("properties `{first}` and `{wire}` of `{name}` both become the Rust field `{rust}`; rename one of them"),
                ));
                continue;
            }
            seen.insert(rust.clone(), wire.clone());
            let nested = format!("{name}{}", ident::pascal(wire, &format!("Field{i}")));
            let (ty, nullable) = self.ty(prop, &nested, &prop_pointer);
            let is_required = required.contains(&wire.as_str());
            let default = prop
                .get("default")
                .filter(|d| !is_required && !nullable && default_fits(d, &ty, &self.items))
                .cloned();
            fields.push(Field {
                name: rust,
                wire: wire.clone(),
                optional: default.is_none() && (!is_required || nullable),
                skip_none: !is_required,
                default,
                ty,
                doc: doc_of(prop),
            });
        }
        let deny = schema.get("additionalProperties") == Some(&Value::Bool(false));
        if let Some(Item::Struct {
            fields: f,
            deny_unknown,
            ..
        }) = self.items.get_mut(index)
        {
            *f = fields;
            *deny_unknown = deny;
        }
    }

    /// The type of `schema`, naming generated types `name`; also whether the
    /// schema allows `null`.
    pub fn ty(&mut self, schema: &Value, name: &str, pointer: &str) -> (Ty, bool) {
        let Some(obj) = schema.as_object() else {
            // `true` and `false` schemas.
            return (Ty::Value, false);
        };
        if let Some(reference) = str_of(schema, "$ref") {
            return (self.reference(reference, pointer), false);
        }
        let (declared, mut nullable, several) = declared_type(schema);
        if several {
            return (
                self.warn(pointer, "a property with several types"),
                nullable,
            );
        }
        if let Some(values) = obj.get("enum").and_then(Value::as_array) {
            nullable |= values.iter().any(Value::is_null);
            return (
                self.enumeration(values, declared, name, schema, pointer),
                nullable,
            );
        }
        if let Some(c) = obj.get("const") {
            return (
                self.enumeration(std::slice::from_ref(c), declared, name, schema, pointer),
                c.is_null(),
            );
        }
        let declared = declared.or_else(|| {
            if obj.contains_key("properties") {
                Some("object")
            } else if obj.contains_key("items") {
                Some("array")
            } else {
                None
            }
        });
        match declared {
            Some("string") => (Ty::String, nullable),
            Some("boolean") => (Ty::Bool, nullable),
            Some("number") => (Ty::F64, nullable),
            Some("integer") => {
                let non_negative = ["minimum", "exclusiveMinimum"].iter().any(|k| {
                    obj.get(*k)
                        .and_then(Value::as_f64)
                        .is_some_and(|m| m >= 0.0)
                });
                (if non_negative { Ty::U64 } else { Ty::I64 }, nullable)
            }
            Some("array") => (self.array(schema, name, pointer), nullable),
            Some("object") => (self.object(schema, name, pointer), nullable),
            Some("null") => (self.warn(pointer, "a property of type null"), true),
            Some(other) => (
                self.warn(pointer, &format!("unknown type `{other}`")),
                nullable,
            ),
            None => self.combination(schema, name, pointer),
        }
    }

    /// No `type`: `anyOf`/`oneOf` of one schema and `null`, a one-element
    /// `allOf`, or any value.
    fn combination(&mut self, schema: &Value, name: &str, pointer: &str) -> (Ty, bool) {
        for key in ["anyOf", "oneOf"] {
            let Some(options) = schema.get(key).and_then(Value::as_array) else {
                continue;
            };
            let is_null = |s: &Value| s.get("type").and_then(Value::as_str) == Some("null");
            let non_null: Vec<(usize, &Value)> = options
                .iter()
                .enumerate()
                .filter(|(_, s)| !is_null(s))
                .collect();
            if let [(i, only)] = non_null.as_slice() {
                let (ty, nullable) = self.ty(only, name, &format!("{pointer}/{key}/{i}"));
                return (ty, nullable || non_null.len() < options.len());
            }
            return (
                self.warn(pointer, &format!("`{key}` with several alternatives")),
                false,
            );
        }
        if let Some([only]) = schema
            .get("allOf")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
        {
            return self.ty(only, name, &format!("{pointer}/allOf/0"));
        }
        if schema.get("allOf").is_some() {
            return (self.warn(pointer, "`allOf` with several schemas"), false);
        }
        (Ty::Value, false)
    }

    fn array(&mut self, schema: &Value, name: &str, pointer: &str) -> Ty {
        if schema.get("prefixItems").is_some() {
            return self.warn(pointer, "a tuple array (`prefixItems`)");
        }
        match schema.get("items") {
            None => Ty::Vec(Box::new(Ty::Value)),
            Some(items) if items.is_array() => {
                self.warn(pointer, "a tuple array (`items` as an array)")
            }
            Some(items) => {
                let item_name = format!("{name}Item");
                let (ty, nullable) = self.ty(items, &item_name, &format!("{pointer}/items"));
                if nullable && ty != Ty::Value {
                    return self.warn(pointer, "an array whose items may be null");
                }
                Ty::Vec(Box::new(ty))
            }
        }
    }

    fn object(&mut self, schema: &Value, name: &str, pointer: &str) -> Ty {
        let has_properties = schema
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty());
        if !has_properties {
            return match schema.get("additionalProperties") {
                Some(extra) if extra.is_object() => {
                    let (ty, _) = self.ty(
                        extra,
                        &format!("{name}Value"),
                        &format!("{pointer}/additionalProperties"),
                    );
                    Ty::Map(Box::new(ty))
                }
                _ => Ty::JsonMap,
            };
        }
        let place = self.place(pointer);
        if !self.names.claim(name, pointer, place, self.issues) {
            return Ty::Value;
        }
        self.object_struct(name, schema, pointer);
        Ty::Named {
            name: name.to_owned(),
            is_struct: true,
        }
    }

    fn enumeration(
        &mut self,
        values: &[Value],
        declared: Option<&str>,
        name: &str,
        schema: &Value,
        pointer: &str,
    ) -> Ty {
        let non_null: Vec<&Value> = values.iter().filter(|v| !v.is_null()).collect();
        let all = |f: fn(&Value) -> bool| !non_null.is_empty() && non_null.iter().all(|v| f(v));
        if all(Value::is_string) && declared.is_none_or(|t| t == "string") {
            return self.string_enum(&non_null, name, schema, pointer);
        }
        match declared {
            Some("integer") => Ty::I64,
            Some("number") => Ty::F64,
            Some("boolean") => Ty::Bool,
            _ if all(|v| v.is_i64()) => Ty::I64,
            _ if all(Value::is_number) => Ty::F64,
            _ if all(Value::is_boolean) => Ty::Bool,
            _ => Ty::Value,
        }
    }

    fn string_enum(&mut self, values: &[&Value], name: &str, schema: &Value, pointer: &str) -> Ty {
        let place = self.place(pointer);
        if !self.names.claim(name, pointer, place, self.issues) {
            return Ty::String;
        }
        let mut variants: Vec<(String, String)> = Vec::new();
        let mut clash = false;
        for (i, wire) in values.iter().filter_map(|v| v.as_str()).enumerate() {
            if variants.iter().any(|(_, w)| w == wire) {
                continue;
            }
            let rust = ident::variant(wire, &format!("V{i}"));
            if let Some((_, first)) = variants.iter().find(|(r, _)| *r == rust) {
                let place = self.place(&format!("{pointer}/enum/{i}"));
                self.issues.push(Issue::new(
                    &NAME_COLLISION,
                    place,
                    format!("enum values `{first}` and `{wire}` both become the Rust variant `{name}::{rust}`; rename one of them"),
                ));
                clash = true;
                continue;
            }
            variants.push((rust, wire.to_owned()));
        }
        if clash {
            return Ty::String;
        }
        self.items.push(Item::Enum {
            name: name.to_owned(),
            doc: doc_of(schema),
            variants,
        });
        Ty::Named {
            name: name.to_owned(),
            is_struct: false,
        }
    }

    /// A local `$ref` (`#`, `#/$defs/X`, `#/definitions/X`, or any pointer into the root).
    fn reference(&mut self, reference: &str, pointer: &str) -> Ty {
        let Some(target_pointer) = reference.strip_prefix('#') else {
            return self.warn(pointer, &format!("the external reference `{reference}`"));
        };
        if let Some(name) = self.refs.get(target_pointer).cloned() {
            let is_struct = !self
                .items
                .iter()
                .any(|i| matches!(i, Item::Enum { name: n, .. } if *n == name));
            let ty = Ty::Named {
                name: name.clone(),
                is_struct,
            };
            return if self.in_progress.contains(&name) {
                Ty::Boxed(Box::new(ty))
            } else {
                ty
            };
        }
        let Some(target) = self.root.pointer(target_pointer) else {
            return self.warn(
                pointer,
                &format!("the reference `{reference}`, which points nowhere"),
            );
        };
        if target_pointer.is_empty() {
            // The root struct already exists: its name is the first item.
            let Some(root_name) = self.items.first().map(|i| i.name().to_owned()) else {
                return Ty::Value;
            };
            return Ty::Boxed(Box::new(Ty::Named {
                name: root_name,
                is_struct: true,
            }));
        }
        let last = target_pointer.rsplit('/').next().unwrap_or_default();
        let base = self
            .items
            .first()
            .map(|i| i.name().trim_end_matches("Args").to_owned())
            .unwrap_or_default();
        let name = format!("{base}{}", ident::pascal(last, "Def"));
        self.refs.insert(target_pointer.to_owned(), name.clone());
        self.in_progress.push(name.clone());
        let (ty, _) = self.ty(target, &name, target_pointer);
        self.in_progress.pop();
        if !matches!(&ty, Ty::Named { name: n, .. } if *n == name) {
            // The target is not a struct or enum (e.g. a plain string): use its type directly.
            self.refs.remove(target_pointer);
        }
        ty
    }
}

/// True when `default` can be written as a literal of `ty`.
pub fn default_fits(default: &Value, ty: &Ty, items: &[Item]) -> bool {
    match (ty, default) {
        (Ty::String, Value::String(_)) | (Ty::Bool, Value::Bool(_)) => true,
        (Ty::I64, Value::Number(n)) => n.is_i64(),
        (Ty::U64, Value::Number(n)) => n.is_u64(),
        (Ty::F64, Value::Number(n)) => n.as_f64().is_some_and(f64::is_finite),
        (Ty::Vec(inner), Value::Array(values)) => values.iter().all(|v| default_fits(v, inner, items)),
        (Ty::Named { name, is_struct: false }, Value::String(s)) => items.iter().any(|i| {
            matches!(i, Item::Enum { name: n, variants, .. } if n == name && variants.iter().any(|(_, w)| w == s))
        }),
        _ => false,
    }
}

//! Generated types → tokens. Paths go through `::toolsmith` re-exports so that
//! a user's crate needs no other dependency.

use crate::ident::ident;
use crate::types::{Field, Item, Ty};
use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;

/// The one import of generated code: `::toolsmith::tool::__codegen` as
/// `__ts` (the runtime's support items plus the std and serde names generated
/// code uses), which keeps the generated code short and hygienic.
pub fn prelude() -> TokenStream {
    quote!(
        #[allow(unused_imports)]
        use ::toolsmith::tool::__codegen as __ts;
    )
}

/// `serde_json`, through the runtime.
pub fn json_path() -> TokenStream {
    quote!(__ts::serde_json)
}

/// The hidden support module of the runtime (see [`prelude`]).
pub fn support() -> TokenStream {
    quote!(__ts)
}

/// `#[doc = "…"]` lines for a description. The manifest's prose is not
/// Markdown written for rustdoc: each generated type allows
/// `clippy::doc_markdown`, `doc_link_with_quotes` (`e.g. ["a", "b"]`) and
/// `doc_lazy_continuation` for itself and its fields and variants, and an
/// enum `enum_variant_names` (its variants are the wire values:
/// `list_workflows`, `list_workflow_runs`, …).
pub fn doc(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) if !text.trim().is_empty() => {
            let lines = text.lines().map(|l| format!(" {l}"));
            quote!(#(#[doc = #lines])*)
        }
        _ => TokenStream::new(),
    }
}

/// The Rust spelling of a type.
pub fn ty_tokens(ty: &Ty) -> TokenStream {
    let json = json_path();
    match ty {
        Ty::String => quote!(__ts::String),
        Ty::I64 => quote!(i64),
        Ty::U64 => quote!(u64),
        Ty::F64 => quote!(f64),
        Ty::Bool => quote!(bool),
        Ty::Value => quote!(#json::Value),
        Ty::JsonMap => quote!(#json::Map<__ts::String, #json::Value>),
        Ty::Map(inner) => {
            let inner = ty_tokens(inner);
            quote!(::std::collections::BTreeMap<__ts::String, #inner>)
        }
        Ty::Vec(inner) => {
            let inner = ty_tokens(inner);
            quote!(__ts::Vec<#inner>)
        }
        Ty::Named { name, .. } => {
            let name = ident(name);
            quote!(#name)
        }
        Ty::Boxed(inner) => {
            let inner = ty_tokens(inner);
            quote!(::std::boxed::Box<#inner>)
        }
    }
}

/// The field's type including `Option`.
pub fn field_ty(field: &Field) -> TokenStream {
    let ty = ty_tokens(&field.ty);
    if field.optional {
        quote!(__ts::Option<#ty>)
    } else {
        ty
    }
}

/// A literal for a default value that [`crate::types::default_fits`] accepted.
fn default_expr(value: &Value, ty: &Ty, items: &[Item]) -> TokenStream {
    match (ty, value) {
        (Ty::String, Value::String(s)) => quote!(__ts::String::from(#s)),
        (Ty::Bool, Value::Bool(b)) => quote!(#b),
        (Ty::I64, Value::Number(n)) => {
            let v = n.as_i64().unwrap_or_default();
            quote!(#v)
        }
        (Ty::U64, Value::Number(n)) => {
            let v = n.as_u64().unwrap_or_default();
            quote!(#v)
        }
        (Ty::F64, Value::Number(n)) => {
            let v = n.as_f64().unwrap_or_default();
            quote!(#v)
        }
        (Ty::Vec(inner), Value::Array(values)) => {
            let values = values.iter().map(|v| default_expr(v, inner, items));
            quote!(::std::vec![#(#values),*])
        }
        (Ty::Named { name, .. }, Value::String(s)) => {
            let variant = items.iter().find_map(|i| match i {
                Item::Enum {
                    name: n, variants, ..
                } if n == name => variants
                    .iter()
                    .find(|(_, w)| w == s)
                    .map(|(v, _)| v.clone()),
                _ => None,
            });
            let name = ident(name);
            let variant = ident(&variant.unwrap_or_default());
            quote!(#name::#variant)
        }
        _ => quote!(::std::default::Default::default()),
    }
}

/// The JSON type a Rust type stands for, for fallback docs.
fn json_type(ty: &Ty) -> &'static str {
    match ty {
        Ty::String => "string",
        Ty::I64 | Ty::U64 => "integer",
        Ty::F64 => "number",
        Ty::Bool => "boolean",
        Ty::Value => "any JSON value",
        Ty::JsonMap | Ty::Map(_) => "object",
        Ty::Vec(_) => "array",
        Ty::Named {
            is_struct: true, ..
        } => "object",
        Ty::Named {
            is_struct: false, ..
        } => "string, one of the enum's values",
        Ty::Boxed(inner) => json_type(inner),
    }
}

/// True when values of `ty` can derive `Eq` and `Hash`: no float and no
/// `serde_json::Value` anywhere inside (structs of `items` followed once).
fn exact(ty: &Ty, items: &[Item], seen: &mut Vec<String>) -> bool {
    match ty {
        Ty::F64 | Ty::Value | Ty::JsonMap => false,
        Ty::String | Ty::I64 | Ty::U64 | Ty::Bool => true,
        Ty::Map(inner) | Ty::Vec(inner) | Ty::Boxed(inner) => exact(inner, items, seen),
        Ty::Named {
            is_struct: false, ..
        } => true,
        Ty::Named {
            name,
            is_struct: true,
        } => {
            if seen.contains(name) {
                return true;
            }
            seen.push(name.clone());
            items.iter().all(|item| match item {
                Item::Struct {
                    name: n, fields, ..
                } if n == name => fields.iter().all(|f| exact(&f.ty, items, seen)),
                _ => true,
            })
        }
    }
}

/// True when the struct `name` of `items` derives `Eq` and `Hash`.
pub fn is_exact(name: &str, items: &[Item]) -> bool {
    let ty = Ty::Named {
        name: name.to_owned(),
        is_struct: true,
    };
    exact(&ty, items, &mut Vec::new())
}

fn default_fn_name(field: &Field) -> String {
    format!("__default_{}", field.name)
}

/// The tokens of one generated type (struct or enum) with its impls.
///
/// The JSON side is written out rather than derived: a struct implements
/// `JsonObject` with one call per field of the runtime's generic helpers
/// (instantiated once per field type, not once per struct), and its
/// `Serialize` / `Deserialize` impls delegate to that; an enum maps to its
/// table of wire values. This keeps the code of a large manifest, and the
/// user crate's build, small; the JSON is the one serde's derive would give.
pub fn item(item: &Item, items: &[Item], argv_values: bool) -> TokenStream {
    match item {
        Item::Struct {
            name,
            doc: text,
            fields,
            deny_unknown,
        } => {
            let name_ident = ident(name);
            let fallback = format!("`{name}`: a JSON object.");
            let docs = doc(text.as_deref().or(Some(&fallback)));
            let exact = is_exact(name, items).then(|| quote!(Eq, Hash,));
            let field_tokens = fields.iter().map(field);
            let defaults: Vec<TokenStream> = fields
                .iter()
                .filter_map(|f| {
                    let value = f.default.as_ref()?;
                    let fn_name = ident(&default_fn_name(f));
                    let ty = ty_tokens(&f.ty);
                    let expr = default_expr(value, &f.ty, items);
                    Some(quote! {
                        #[doc(hidden)]
                        pub fn #fn_name() -> #ty { #expr }
                    })
                })
                .collect();
            let default_impl =
                (!defaults.is_empty()).then(|| quote!(impl #name_ident { #(#defaults)* }));
            let not_scalar = argv_values.then(|| {
                quote! {
                    impl __ts::ArgValue for #name_ident {
                        fn arg_text(&self) -> __ts::Option<__ts::String> { __ts::None }
                    }
                }
            });
            let json = json_object(&name_ident, fields, *deny_unknown);
            quote! {
                #docs
                #[allow(clippy::doc_markdown, clippy::doc_link_with_quotes, clippy::doc_lazy_continuation, dead_code)]
                #[derive(Debug, Clone, PartialEq, #exact)]
                pub struct #name_ident { #(#field_tokens),* }
                #default_impl
                #json
                #not_scalar
            }
        }
        Item::Enum {
            name,
            doc: text,
            variants,
        } => {
            let name_ident = ident(name);
            let fallback = format!(
                "`{name}`: a string, one of {}.",
                variants
                    .iter()
                    .map(|(_, w)| format!("`{w}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let docs = doc(text.as_deref().or(Some(&fallback)));
            let idents: Vec<_> = variants.iter().map(|(v, _)| ident(v)).collect();
            let wires: Vec<&str> = variants.iter().map(|(_, w)| w.as_str()).collect();
            let variant_docs = wires.iter().map(|w| format!(" `{w}`"));
            quote! {
                #docs
                #[allow(clippy::doc_markdown, clippy::doc_link_with_quotes, clippy::doc_lazy_continuation, clippy::enum_variant_names, dead_code)]
                #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
                pub enum #name_ident {
                    #(#[doc = #variant_docs] #idents),*
                }
                impl #name_ident {
                    const WIRE: &'static [&'static str] = &[#(#wires),*];
                    const ALL: &'static [Self] = &[#(Self::#idents),*];
                    /// The wire value.
                    #[must_use]
                    pub fn as_str(self) -> &'static str {
                        match self { #(Self::#idents => #wires),* }
                    }
                }
                impl ::std::fmt::Display for #name_ident {
                    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(self.as_str())
                    }
                }
                impl ::std::str::FromStr for #name_ident {
                    type Err = __ts::String;
                    fn from_str(s: &str) -> __ts::Result<Self, Self::Err> {
                        __ts::enum_index(s, #name, Self::WIRE).map(|i| Self::ALL[i])
                    }
                }
                impl __ts::Serialize for #name_ident {
                    fn serialize<S: __ts::Serializer>(&self, serializer: S) -> __ts::Result<S::Ok, S::Error> {
                        serializer.serialize_str(self.as_str())
                    }
                }
                impl<'de> __ts::Deserialize<'de> for #name_ident {
                    fn deserialize<D: __ts::Deserializer<'de>>(deserializer: D) -> __ts::Result<Self, D::Error> {
                        __ts::deserialize_enum(deserializer, Self::WIRE).map(|i| Self::ALL[i])
                    }
                }
                impl __ts::ArgValue for #name_ident {
                    fn arg_text(&self) -> __ts::Option<__ts::String> {
                        __ts::Some(__ts::String::from(self.as_str()))
                    }
                }
            }
        }
    }
}

/// `JsonObject`, `Serialize` and `Deserialize` of a generated struct: one
/// helper call per field (see [`item`]).
pub fn json_object(name: &proc_macro2::Ident, fields: &[Field], deny_unknown: bool) -> TokenStream {
    let puts = fields.iter().map(|f| {
        let name = ident(&f.name);
        let wire = &f.wire;
        if f.optional && f.skip_none && f.default.is_none() {
            quote!(__ts::put_some(&mut object, #wire, &self.#name)?;)
        } else {
            quote!(__ts::put(&mut object, #wire, &self.#name)?;)
        }
    });
    let takes = fields.iter().map(|f| {
        let name = ident(&f.name);
        let wire = &f.wire;
        if f.default.is_some() {
            let default = ident(&default_fn_name(f));
            quote!(#name: __ts::take_or(&mut object, #wire, Self::#default)?)
        } else if f.optional {
            quote!(#name: __ts::take_some(&mut object, #wire)?)
        } else {
            quote!(#name: __ts::take(&mut object, #wire)?)
        }
    });
    let deny = deny_unknown.then(|| {
        let wires = fields.iter().map(|f| &f.wire);
        quote!(__ts::deny_unknown(&object, &[#(#wires),*])?;)
    });
    let object = match (fields.is_empty(), deny_unknown) {
        (false, _) => quote!(mut object),
        (true, true) => quote!(object),
        (true, false) => quote!(_),
    };
    let new_object = if fields.is_empty() {
        quote!(let object = __ts::Object::new();)
    } else {
        quote!(let mut object = __ts::Object::new();)
    };
    quote! {
        impl __ts::JsonObject for #name {
            fn to_object(&self) -> __ts::Result<__ts::Object, __ts::serde_json::Error> {
                #new_object
                #(#puts)*
                __ts::Ok(object)
            }
            fn from_object(#object: __ts::Object) -> __ts::Result<Self, __ts::serde_json::Error> {
                #deny
                __ts::Ok(Self { #(#takes),* })
            }
        }
        impl __ts::Serialize for #name {
            fn serialize<S: __ts::Serializer>(&self, serializer: S) -> __ts::Result<S::Ok, S::Error> {
                __ts::serialize_object(self, serializer)
            }
        }
        impl<'de> __ts::Deserialize<'de> for #name {
            fn deserialize<D: __ts::Deserializer<'de>>(deserializer: D) -> __ts::Result<Self, D::Error> {
                __ts::deserialize_object(deserializer)
            }
        }
    }
}

fn field(f: &Field) -> TokenStream {
    let name = ident(&f.name);
    let ty = field_ty(f);
    let fallback = format!(
        "`{}`: {}{}.",
        f.wire,
        json_type(&f.ty),
        if f.optional { " (optional)" } else { "" }
    );
    let docs = doc(f.doc.as_deref().or(Some(&fallback)));
    quote! {
        #docs
        pub #name: #ty
    }
}

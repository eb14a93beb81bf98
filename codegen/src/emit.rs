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

/// `#[doc = "…"]` lines for a description.
pub fn doc(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) if !text.trim().is_empty() => {
            let lines = text.lines().map(|l| format!(" {l}"));
            // The manifest's prose, not Markdown written for rustdoc.
            quote!(#(#[doc = #lines])* #[allow(clippy::doc_markdown)])
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
pub fn item(item: &Item, items: &[Item], argv_values: bool) -> TokenStream {
    let support = support();
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
            let deny = deny_unknown.then(|| quote!(#[serde(deny_unknown_fields)]));
            let exact = is_exact(name, items).then(|| quote!(Eq, Hash,));
            let field_tokens = fields.iter().map(|f| field(f, name));
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
                    impl #support::ArgValue for #name_ident {
                        fn arg_text(&self) -> __ts::Option<__ts::String> { __ts::None }
                    }
                }
            });
            quote! {
                #docs
                #[derive(Debug, Clone, PartialEq, #exact
                    __ts::Serialize, __ts::Deserialize)]
                #[serde(crate = "::toolsmith::__private::serde")]
                #deny
                pub struct #name_ident { #(#field_tokens),* }
                #default_impl
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
            let unknown = format!("unknown {name} value: {{}}");
            quote! {
                #docs
                #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord,
                    __ts::Serialize, __ts::Deserialize)]
                #[serde(crate = "::toolsmith::__private::serde")]
                pub enum #name_ident {
                    #(#[doc = #variant_docs] #[serde(rename = #wires)] #idents),*
                }
                impl #name_ident {
                    /// The wire value.
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
                    #[allow(clippy::uninlined_format_args)]
                    fn from_str(s: &str) -> __ts::Result<Self, Self::Err> {
                        match s {
                            #(#wires => __ts::Ok(Self::#idents),)*
                            _ => __ts::Err(::std::format!(#unknown, s)),
                        }
                    }
                }
                impl #support::ArgValue for #name_ident {
                    fn arg_text(&self) -> __ts::Option<__ts::String> {
                        __ts::Some(::std::string::ToString::to_string(self.as_str()))
                    }
                }
            }
        }
    }
}

fn field(f: &Field, struct_name: &str) -> TokenStream {
    let name = ident(&f.name);
    let ty = field_ty(f);
    let fallback = format!(
        "`{}`: {}{}.",
        f.wire,
        json_type(&f.ty),
        if f.optional { " (optional)" } else { "" }
    );
    let docs = doc(f.doc.as_deref().or(Some(&fallback)));
    let rename = (f.name != f.wire).then(|| {
        let wire = &f.wire;
        quote!(#[serde(rename = #wire)])
    });
    let serde = if let Some(_default) = &f.default {
        let path = format!("{struct_name}::{}", default_fn_name(f));
        quote!(#[serde(default = #path)])
    } else if f.optional && f.skip_none {
        quote!(#[serde(default, skip_serializing_if = "__ts::Option::is_none")])
    } else {
        TokenStream::new()
    };
    quote! {
        #docs
        #rename
        #serde
        pub #name: #ty
    }
}

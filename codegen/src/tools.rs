//! A manifest's items: per tool the `<Pascal>Args` type, its `Tool` impl and
//! `argv()`, then `ToolCall` and `definitions()`.

use crate::emit::{self, json_path, support};
use crate::ident::{self, ident};
use crate::issue::{Issue, Place};
// The chai lint reports these before code is generated; the generator reports
// them under the same rules if a model reaches it anyway (a rule exists once).
use crate::types::{Field, Item, Names, Ty, TypeSpace};
use proc_macro2::TokenStream;
use quote::quote;
use toolsmith_manifest::dialect::chai::args::{
    FLAGIFBOOLEAN_NOT_BOOLEAN, PARAM_NOT_IN_PARAMETERS as UNKNOWN_PARAM,
};
use toolsmith_manifest::model::{
    ArgKind, ArgMapping, ChaiExecution, CommandExecution, DescribeExecution, Execution, Manifest,
    ResolveCommand, Tool,
};

/// Generated tokens and the generator's findings (errors and warnings).
#[derive(Debug, Default)]
pub struct Output {
    /// The items.
    pub tokens: TokenStream,
    /// Findings, to be positioned with [`crate::locate`].
    pub issues: Vec<Issue>,
}

/// Names used by the generated module itself.
const RESERVED: &[&str] = &["ToolCall"];

/// The generated code of a manifest.
pub fn tools(manifest: &Manifest) -> Output {
    let mut names = Names::default();
    let mut issues = Vec::new();
    for reserved in RESERVED {
        names.claim(
            reserved,
            "the generated enum",
            Place::ToolName { tool: usize::MAX },
            &mut issues,
        );
    }
    let mut tokens = emit::prelude();
    let mut variants = Vec::new();
    for (i, tool) in manifest.tools.iter().enumerate() {
        let pascal = ident::pascal(&tool.name, &format!("Tool{i}"));
        let args_name = format!("{pascal}Args");
        if !names.claim(
            &args_name,
            &tool.name,
            Place::ToolName { tool: i },
            &mut issues,
        ) {
            continue;
        }
        let mut space = TypeSpace::new(i, &tool.parameters, &mut names, &mut issues);
        space.root_struct(
            &args_name,
            &tool.parameters,
            "",
            tool.description.as_deref(),
        );
        let items = std::mem::take(&mut space.items);
        let chai = matches!(tool.execution, Execution::Chai(_));
        for item in &items {
            tokens.extend(emit::item(item, &items, chai && item.name() != args_name));
        }
        let fields = match items.first() {
            Some(Item::Struct { fields, .. }) => fields.as_slice(),
            _ => &[],
        };
        tokens.extend(tool_impl(i, tool, &args_name, fields, &mut issues));
        variants.push((ident(&pascal), ident(&args_name), tool.name.clone()));
    }
    tokens.extend(tool_call(&variants));
    Output { tokens, issues }
}

fn tool_impl(
    index: usize,
    tool: &Tool,
    args_name: &str,
    fields: &[Field],
    issues: &mut Vec<Issue>,
) -> TokenStream {
    let support = support();
    let json = json_path();
    let args = ident(args_name);
    let name = &tool.name;
    let description = tool.description.as_deref().unwrap_or_default();
    let schema = serde_json::to_string(&tool.parameters).unwrap_or_else(|_| "{}".into());
    let (invocation, methods) = match &tool.execution {
        Execution::Chai(chai) => chai_argv(index, chai, fields, issues),
        Execution::Command(command) => command_argv(command),
        Execution::Describe(describe) => describe_argv(describe),
    };
    quote! {
        impl __ts::Tool for #args {
            const NAME: &'static str = #name;
            const DESCRIPTION: &'static str = #description;
            fn parameters() -> &'static #json::Value {
                static SCHEMA: #support::SchemaText = #support::SchemaText::new(#schema);
                SCHEMA.get()
            }
            fn invocation(&self) -> __ts::Result<#support::Invocation, #support::ArgvError> {
                #invocation
            }
        }
        impl #args {
            #methods
        }
    }
}

fn string_list(items: &[String]) -> TokenStream {
    quote!(::std::vec![#(__ts::String::from(#items)),*])
}

fn resolver(resolve: Option<&ResolveCommand>) -> TokenStream {
    let support = support();
    match resolve {
        None => quote!(__ts::None),
        Some(ResolveCommand::Script { script, args }) => {
            let args = string_list(args);
            quote!(__ts::Some(#support::ResolveCommand::Script {
                script: __ts::String::from(#script), args: #args }))
        }
        Some(ResolveCommand::Command {
            binary,
            subcommand,
            args,
        }) => {
            let args = string_list(args);
            quote!(__ts::Some(#support::ResolveCommand::Command {
                binary: __ts::String::from(#binary),
                subcommand: __ts::String::from(#subcommand), args: #args }))
        }
    }
}

/// One argument mapping as builder calls.
fn mapping(
    tool: usize,
    index: usize,
    m: &ArgMapping,
    fields: &[Field],
    issues: &mut Vec<Issue>,
) -> TokenStream {
    let param = &m.param;
    let field = fields.iter().find(|f| f.wire == m.param);
    let place = Place::Mapping { tool, index };
    let value = field.map(|f| {
        let name = ident(&f.name);
        if f.optional {
            quote!(self.#name.as_ref())
        } else {
            quote!(__ts::Some(&self.#name))
        }
    });
    let normalize = m.normalize_newlines;
    let resolve = resolver(m.resolve_command.as_ref());
    match m.kind {
        ArgKind::Positional => match value {
            Some(value) => quote!(b.positional(#param, #value, #normalize, #resolve)?;),
            None => {
                issues.push(Issue::new(
                    &UNKNOWN_PARAM,
                    place,
                    format!("positional parameter `{param}` is not declared in the tool's `parameters`, so every call would fail"),
                ));
                TokenStream::new()
            }
        },
        ArgKind::Flag => {
            let flag = m.flag.as_deref().unwrap_or(param);
            match value {
                Some(value) => quote!(b.flag(#param, #flag, #value, #normalize, #resolve)?;),
                None => TokenStream::new(),
            }
        }
        ArgKind::FlagIfBoolean => {
            let if_true = option_str(m.flag_if_true.as_deref());
            let if_false = option_str(m.flag_if_false.as_deref());
            let value = match field {
                None => quote!(__ts::None),
                Some(f) if f.ty == Ty::Bool => {
                    let name = ident(&f.name);
                    if f.optional {
                        quote!(self.#name)
                    } else {
                        quote!(__ts::Some(self.#name))
                    }
                }
                Some(f) => {
                    issues.push(Issue::new(
                        &FLAGIFBOOLEAN_NOT_BOOLEAN,
                        place,
                        format!(
                            "`flagifboolean` maps parameter `{param}`, whose type is {}, not boolean",
                            describe_ty(&f.ty)
                        ),
                    ));
                    quote!(__ts::None)
                }
            };
            quote!(b.flag_if_boolean(#value, #if_true, #if_false);)
        }
    }
}

fn describe_ty(ty: &Ty) -> &'static str {
    match ty {
        Ty::String => "string",
        Ty::I64 | Ty::U64 => "integer",
        Ty::F64 => "number",
        Ty::Bool => "boolean",
        Ty::Value => "unconstrained",
        Ty::JsonMap | Ty::Map(_) => "object",
        Ty::Vec(_) => "array",
        Ty::Named {
            is_struct: true, ..
        }
        | Ty::Boxed(_) => "object",
        Ty::Named {
            is_struct: false, ..
        } => "a string enum",
    }
}

fn option_str(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(__ts::Some(#s)),
        None => quote!(__ts::None),
    }
}

fn chai_argv(
    tool: usize,
    chai: &ChaiExecution,
    fields: &[Field],
    issues: &mut Vec<Issue>,
) -> (TokenStream, TokenStream) {
    let support = support();
    let binary = &chai.binary;
    let subcommand = &chai.subcommand;
    let steps: Vec<TokenStream> = chai
        .args
        .iter()
        .enumerate()
        .map(|(i, m)| mapping(tool, i, m, fields, issues))
        .collect();
    let invocation = quote!(__ts::Ok(
        self.__argv()?.into_invocation(<Self as __ts::Tool>::NAME)
    ));
    // No `mut` without mappings: generated code must not warn in the user's crate.
    let binding = if steps.iter().all(TokenStream::is_empty) {
        quote!(let b)
    } else {
        quote!(let mut b)
    };
    let methods = quote! {
        fn __argv(&self) -> __ts::Result<#support::ArgvBuilder, #support::ArgvError> {
            #binding = #support::ArgvBuilder::new(#binary, #subcommand);
            #(#steps)*
            __ts::Ok(b)
        }
        /// `[binary, subcommand, args…]` in the execution spec's order.
        pub fn argv(&self) -> __ts::Result<__ts::Vec<__ts::String>, #support::ArgvError> {
            __ts::Ok(self.__argv()?.argv())
        }
    };
    (invocation, methods)
}

fn command_argv(command: &CommandExecution) -> (TokenStream, TokenStream) {
    let support = support();
    let program = command.program.to_string_lossy();
    let program = program.as_ref();
    let fixed: Vec<&String> = command.command.iter().skip(1).collect();
    let env = &command.env_passthrough;
    let timeout = match command.timeout_sec {
        Some(t) => quote!(__ts::Some(#t)),
        None => quote!(__ts::None),
    };
    let argv = string_list(&command.command);
    let invocation = quote!(#support::command_invocation(<Self as __ts::Tool>::NAME, #program, &[#(#fixed),*], self, &[#(#env),*], #timeout));
    let methods = quote! {
        /// The `command` array as declared (the arguments go to stdin).
        pub fn argv(&self) -> __ts::Result<__ts::Vec<__ts::String>, #support::ArgvError> {
            __ts::Ok(#argv)
        }
    };
    (invocation, methods)
}

fn describe_argv(describe: &DescribeExecution) -> (TokenStream, TokenStream) {
    let support = support();
    let program = describe.program.to_string_lossy();
    let program = program.as_ref();
    let invocation =
        quote!(#support::describe_invocation(<Self as __ts::Tool>::NAME, #program, self));
    let methods = quote! {
        /// `[path, json]`: the executable and the arguments as one JSON argument.
        pub fn argv(&self) -> __ts::Result<__ts::Vec<__ts::String>, #support::ArgvError> {
            __ts::Ok(__ts::Tool::invocation(self)?.argv())
        }
    };
    (invocation, methods)
}

fn tool_call(variants: &[(proc_macro2::Ident, proc_macro2::Ident, String)]) -> TokenStream {
    let support = support();
    let json = json_path();
    let v: Vec<_> = variants.iter().map(|(v, _, _)| v).collect();
    let a: Vec<_> = variants.iter().map(|(_, a, _)| a).collect();
    let n: Vec<_> = variants.iter().map(|(_, _, n)| n).collect();
    let scrutinee = if variants.is_empty() {
        quote!(*self)
    } else {
        quote!(self)
    };
    quote! {
        /// A call of one of the manifest's tools, with typed arguments.
        #[derive(Debug, Clone, PartialEq)]
        pub enum ToolCall {
            #(#[doc = concat!("`", #n, "`")] #v(#a)),*
        }
        impl ToolCall {
            /// Parses a model's call: the name must be one of the manifest's
            /// tools, the arguments (JSON text) must satisfy its schema.
            pub fn parse(name: &str, arguments: &str) -> __ts::Result<Self, #support::CallError> {
                let _ = arguments;
                match name {
                    #(#n => {
                        static VALIDATOR: #support::CompiledSchema = #support::CompiledSchema::new();
                        #support::parse_call::<#a>(arguments, &VALIDATOR).map(Self::#v)
                    })*
                    _ => __ts::Err(#support::CallError::UnknownTool(__ts::String::from(name))),
                }
            }
            /// The tool's wire name.
            pub fn name(&self) -> &'static str {
                match #scrutinee { #(Self::#v(_) => <#a as __ts::Tool>::NAME),* }
            }
            /// How to run the call.
            pub fn invocation(&self) -> __ts::Result<#support::Invocation, #support::ArgvError> {
                match #scrutinee { #(Self::#v(args) => __ts::Tool::invocation(args)),* }
            }
            /// The arguments as JSON.
            pub fn arguments(&self) -> #json::Value {
                match #scrutinee { #(Self::#v(args) => #support::to_arguments(args)),* }
            }
        }
        #(impl ::std::convert::From<#a> for ToolCall {
            fn from(args: #a) -> Self { Self::#v(args) }
        })*
        /// The tools as a model expects them (OpenAI function-tool shape).
        pub fn definitions() -> #json::Value {
            #json::Value::Array(::std::vec![#(<#a as __ts::Tool>::definition()),*])
        }
    }
}

/// Stand-ins emitted after errors, so that the user's code does not drown in
/// follow-on errors: every tool name that can be read, with empty types.
pub fn stubs(tool_names: &[String]) -> TokenStream {
    let mut seen = std::collections::BTreeSet::new();
    let mut variants = Vec::new();
    let mut tokens = emit::prelude();
    let support = support();
    for (i, name) in tool_names.iter().enumerate() {
        let pascal = ident::pascal(name, &format!("Tool{i}"));
        if !seen.insert(pascal.clone()) {
            continue;
        }
        let args = ident(&format!("{pascal}Args"));
        tokens.extend(quote! {
            #[derive(Debug, Clone, PartialEq)]
            pub struct #args {}
            impl #args {
                pub fn argv(&self) -> __ts::Result<__ts::Vec<__ts::String>, #support::ArgvError> {
                    __ts::Ok(__ts::Vec::new())
                }
            }
        });
        variants.push((ident(&pascal), args, name.clone()));
    }
    let json = json_path();
    let v: Vec<_> = variants.iter().map(|(v, _, _)| v).collect();
    let a: Vec<_> = variants.iter().map(|(_, a, _)| a).collect();
    tokens.extend(quote! {
        #[derive(Debug, Clone, PartialEq)]
        pub enum ToolCall { #(#v(#a)),* }
        impl ToolCall {
            pub fn parse(name: &str, _arguments: &str) -> __ts::Result<Self, #support::CallError> {
                __ts::Err(#support::CallError::UnknownTool(__ts::String::from(name)))
            }
            pub fn name(&self) -> &'static str { "" }
            pub fn invocation(&self) -> __ts::Result<#support::Invocation, #support::ArgvError> {
                __ts::Err(#support::ArgvError::Missing { param: __ts::String::new() })
            }
            pub fn arguments(&self) -> #json::Value { #json::Value::Null }
        }
        pub fn definitions() -> #json::Value { #json::Value::Null }
    });
    tokens
}

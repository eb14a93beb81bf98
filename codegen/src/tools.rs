//! A manifest's items: per tool the `<Pascal>Args` type, its `Tool` impl and
//! `argv()`, then `ToolCall`, `definitions()`, `definitions_for(provider)`
//! and `refused_tools(provider)`.
//!
//! An MCP tool list ([`Dialect::Mcp`]) gets the same types, parsing and
//! definitions, but its tools run on their server: each `…Args` implements
//! `McpTool` (not `Tool`: no invocation, no `argv()`), `ToolCall` has
//! `to_mcp_arguments()` instead of `invocation()`, `plan()` and `run()` and
//! is no `Call`, and there is no `ALLOWLIST` or `policy()`.

use crate::emit::{self, json_path, support};
use crate::ident::{self, ident};
use crate::issue::{Issue, Place};
// The chai lint reports these before code is generated; the generator reports
// them under the same rules if a model reaches it anyway (a rule exists once).
use crate::types::{Field, Item, Names, Ty, TypeSpace};
use proc_macro2::TokenStream;
use quote::quote;
use std::path::{Path, PathBuf};
use toolsmith_manifest::dialect::agentcli::program::{self as agentcli_program, Program};
use toolsmith_manifest::dialect::chai::args::{
    FLAGIFBOOLEAN_NOT_BOOLEAN, PARAM_NOT_IN_PARAMETERS as UNKNOWN_PARAM,
};
use toolsmith_manifest::lint::{self, FileKind};
use toolsmith_manifest::model::{
    ArgKind, ChaiExecution, CommandExecution, DescribeExecution, Dialect, Execution, Manifest, Tool,
};
use toolsmith_manifest::provider::export::{self, Request, Target};

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

/// The generated code of a manifest: full items for each of its tools, and a
/// stand-in ([`stub`]) for each name of `stubs` (tools whose definition has
/// an error), so that after manifest errors the user's code sees every type
/// it names and only the manifest's errors are reported.
pub fn tools(manifest: &Manifest, stubs: &[String]) -> Output {
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
    let mut table = Vec::new();
    let mut all_exact = true;
    let mut bound: Vec<&Tool> = Vec::new();
    let dir = manifest_dir_of(&manifest.path);
    let mcp = manifest.dialect == Dialect::Mcp;
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
        let fallback = format!("Arguments of the `{}` tool.", tool.name);
        space.root_struct(
            &args_name,
            &tool.parameters,
            "",
            tool.description.as_deref().or(Some(&fallback)),
        );
        let items = std::mem::take(&mut space.items);
        all_exact &= emit::is_exact(&args_name, &items);
        let chai = matches!(tool.execution, Execution::Chai(_));
        for item in &items {
            tokens.extend(emit::item(item, &items, chai && item.name() != args_name));
        }
        let fields = match items.first() {
            Some(Item::Struct { fields, .. }) => fields.as_slice(),
            _ => &[],
        };
        let (entry, impls) = if mcp {
            mcp_tool_impl(table.len(), tool, &args_name)
        } else {
            tool_impl(table.len(), i, tool, &args_name, fields, &dir, &mut issues)
        };
        tokens.extend(impls);
        variants.push(Variant {
            variant: ident(&pascal),
            args: ident(&args_name),
            name: tool.name.clone(),
            index: Some(table.len()),
        });
        table.push(entry);
        bound.push(tool);
    }
    for (i, name) in stubs.iter().enumerate() {
        let pascal = ident::pascal(name, &format!("Stub{i}"));
        let args_name = format!("{pascal}Args");
        // A stand-in never reports a collision of its own.
        let place = Place::ToolName { tool: usize::MAX };
        if !names.claim(&args_name, name, place, &mut Vec::new()) {
            continue;
        }
        tokens.extend(if mcp {
            mcp_stub(name, &args_name)
        } else {
            stub(name, &args_name)
        });
        variants.push(Variant {
            variant: ident(&pascal),
            args: ident(&args_name),
            name: name.clone(),
            index: None,
        });
    }
    tokens.extend(bindings(&table));
    if mcp {
        tokens.extend(mcp_tool_call(&variants, all_exact));
    } else {
        tokens.extend(tool_call(&variants, all_exact));
    }
    tokens.extend(provider_definitions(&bound));
    if !mcp {
        tokens.extend(policy(manifest, &dir));
    }
    Output { tokens, issues }
}

/// The directory generated paths are relative to: the manifest's (for a
/// directory — chai's split layout — the directory itself), made absolute
/// as the manifest loader makes the programs it records.
fn manifest_dir_of(path: &Path) -> PathBuf {
    let dir = if path.is_dir() {
        path
    } else {
        path.parent().unwrap_or(Path::new(""))
    };
    std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf())
}

/// `MANIFEST_DIR`, which generated invocations pass to the runtime: the
/// manifest's directory when `record` (the `tools!` macro, on the build
/// machine), `None` otherwise (`toolsmith gen`, whose output holds no
/// absolute path). Nothing for a skill file, whose code has no invocation.
pub fn manifest_dir_item(path: &Path, record: bool) -> TokenStream {
    if lint::classify(path) == Some(FileKind::Skill) {
        return TokenStream::new();
    }
    let dir = manifest_dir_of(path);
    manifest_dir(record.then_some(dir.as_path()))
}

/// `pub const MANIFEST_DIR: Option<&str>` with the given directory.
pub fn manifest_dir(dir: Option<&Path>) -> TokenStream {
    let value = match dir {
        Some(dir) => {
            let dir = dir.to_string_lossy();
            let dir = dir.as_ref();
            quote!(__ts::Some(#dir))
        }
        None => quote!(__ts::None),
    };
    quote! {
        /// The manifest's directory where `tools!` expanded (on the build
        /// machine), or `None` in code written by `toolsmith gen`. Programs
        /// and the chai skill directory are manifest-relative; the runtime
        /// resolves them against `Runtime::with_root`, and against this only
        /// when it has no root.
        #[allow(dead_code)]
        pub const MANIFEST_DIR: __ts::Option<&str> = #value;
    }
}

/// A program path as generated code writes it: relative to the manifest's
/// directory (`./tools/bin/x`, `./get_weather`), or absolute when the
/// manifest wrote it so.
fn relative_program(program: &Path, dir: &Path) -> String {
    match program.strip_prefix(dir) {
        Ok(rest) => format!("./{}", rest.to_string_lossy().replace('\\', "/")),
        Err(_) => program.to_string_lossy().into_owned(),
    }
}

/// An agentcli program: `command[0]` cleaned as goagent cleans it
/// (`tools/bin/x` → `./tools/bin/x`), or absolute as written.
fn command_program(command: &CommandExecution, dir: &Path) -> String {
    match command.command.first().map(|c| agentcli_program::check(c)) {
        Some(Program::Ok { norm }) => norm,
        Some(Program::Absolute) => command.command[0].clone(),
        _ => relative_program(&command.program, dir),
    }
}

/// One `ToolCall` variant: the tool's Rust names, its wire name and its
/// index in the bindings table (`None` for a stand-in).
struct Variant {
    variant: proc_macro2::Ident,
    args: proc_macro2::Ident,
    name: String,
    index: Option<usize>,
}

/// The static table of the module's tools (`toolsmith::tool::bindings`): one
/// JSON text for every tool's name, description, schema and execution.
fn bindings(table: &[serde_json::Value]) -> TokenStream {
    let text = serde_json::to_string(table).unwrap_or_else(|_| "[]".into());
    quote! {
        static __BINDINGS: __ts::Bindings = __ts::Bindings::new(#text, MANIFEST_DIR);
    }
}

/// The entry of `tool` (number `tool_index` of the manifest, which
/// positions its findings) in the bindings table, at `index`, and its items:
/// `impl Tool` and `argv()`, each a call into the table.
fn tool_impl(
    index: usize,
    tool_index: usize,
    tool: &Tool,
    args_name: &str,
    fields: &[Field],
    dir: &Path,
    issues: &mut Vec<Issue>,
) -> (serde_json::Value, TokenStream) {
    let json = json_path();
    let args = ident(args_name);
    let name = &tool.name;
    let description = tool.description.as_deref().unwrap_or_default();
    let index = proc_macro2::Literal::usize_unsuffixed(index);
    let (run, argv_doc) = match &tool.execution {
        Execution::Chai(specs) => chai_run(tool_index, specs, fields, issues),
        Execution::Command(command) => command_run(command, dir),
        Execution::Describe(describe) => describe_run(describe, dir),
    };
    let entry = serde_json::json!({
        "name": name,
        "description": description,
        "parameters": tool.parameters,
        "run": run,
    });
    let tokens = quote! {
        impl __ts::Tool for #args {
            const NAME: &'static str = #name;
            const DESCRIPTION: &'static str = #description;
            fn parameters() -> &'static #json::Value {
                __BINDINGS.parameters(#index)
            }
            fn invocation(&self) -> __ts::Result<__ts::Invocation, __ts::ArgvError> {
                __BINDINGS.invocation(#index, __ts::JsonObject::to_object(self))
            }
        }
        #[allow(dead_code)]
        impl #args {
            #(#[doc = #argv_doc])*
            ///
            /// # Errors
            ///
            /// When the arguments cannot become a command (see `ArgvError`).
            pub fn argv(&self) -> __ts::Result<__ts::Vec<__ts::String>, __ts::ArgvError> {
                __BINDINGS.argv(#index, __ts::JsonObject::to_object(self))
            }
        }
    };
    (entry, tokens)
}

/// The entry of the MCP tool `tool` in the bindings table, at `index`, and
/// its `impl McpTool`: name, description, schema and `tools/call` arguments;
/// no invocation (the tool runs on its server).
fn mcp_tool_impl(index: usize, tool: &Tool, args_name: &str) -> (serde_json::Value, TokenStream) {
    let json = json_path();
    let args = ident(args_name);
    let name = &tool.name;
    let description = tool.description.as_deref().unwrap_or_default();
    let index = proc_macro2::Literal::usize_unsuffixed(index);
    let entry = serde_json::json!({
        "name": name,
        "description": description,
        "parameters": tool.parameters,
        "run": "mcp",
    });
    let tokens = quote! {
        impl __ts::McpTool for #args {
            const NAME: &'static str = #name;
            const DESCRIPTION: &'static str = #description;
            fn parameters() -> &'static #json::Value {
                __BINDINGS.parameters(#index)
            }
            fn to_mcp_arguments(&self) -> #json::Map<__ts::String, #json::Value> {
                __ts::mcp_arguments(__ts::JsonObject::to_object(self))
            }
        }
    };
    (entry, tokens)
}

/// The checks of the mappings against the generated fields: a positional
/// needs a declared parameter (unless a default or `optional` supplies it),
/// a `flagifboolean` a boolean one.
fn check_mappings(tool: usize, specs: &[ChaiExecution], fields: &[Field], issues: &mut Vec<Issue>) {
    for (spec_index, spec) in specs.iter().enumerate() {
        for (index, m) in spec.args.iter().enumerate() {
            let place = Place::Mapping {
                tool,
                spec: spec_index,
                index,
            };
            let field = fields.iter().find(|f| f.wire == m.param);
            let param = &m.param;
            match (m.kind, field) {
                (ArgKind::Positional, None) if m.absent_default.is_none() && !m.optional => {
                    issues.push(Issue::new(
                        &UNKNOWN_PARAM,
                        place,
                        format!("positional parameter `{param}` is not declared in the tool's `parameters`, so every call would fail"),
                    ));
                }
                (ArgKind::FlagIfBoolean, Some(f)) if f.ty != Ty::Bool => {
                    issues.push(Issue::new(
                        &FLAGIFBOOLEAN_NOT_BOOLEAN,
                        place,
                        format!(
                            "`flagifboolean` maps parameter `{param}`, whose type is {}, not boolean",
                            describe_ty(&f.ty)
                        ),
                    ));
                }
                _ => {}
            }
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

/// A chai tool: its execution specs (the command is built at run time by
/// the runtime's one chai road, `Runtime::plan`).
fn chai_run(
    tool: usize,
    specs: &[ChaiExecution],
    fields: &[Field],
    issues: &mut Vec<Issue>,
) -> (serde_json::Value, &'static [&'static str]) {
    check_mappings(tool, specs, fields, issues);
    let specs = serde_json::to_value(specs).unwrap_or_else(|_| serde_json::json!([]));
    (
        serde_json::json!({ "chai": specs }),
        &[
            " The command the call would run, without a policy: `binaryWrapper`,",
            " binary, subcommand tokens, then the mapped arguments (path values as",
            " given: the runtime resolves them in its sandbox; temp files as",
            " `$TEMPFILE{param}`; resolvers as `$(their argv)`).",
        ],
    )
}

fn command_run(
    command: &CommandExecution,
    dir: &Path,
) -> (serde_json::Value, &'static [&'static str]) {
    let run = serde_json::json!({ "command": {
        "program": command_program(command, dir),
        "args": command.command.iter().skip(1).collect::<Vec<_>>(),
        "command": command.command,
        "env": command.env_passthrough,
        "timeout": command.timeout_sec,
    }});
    (
        run,
        &[" The `command` array as declared (the arguments go to stdin)."],
    )
}

fn describe_run(
    describe: &DescribeExecution,
    dir: &Path,
) -> (serde_json::Value, &'static [&'static str]) {
    let run =
        serde_json::json!({ "describe": { "program": relative_program(&describe.program, dir) } });
    (
        run,
        &[" `[path, json]`: the executable and the arguments as one JSON argument."],
    )
}

fn tool_call(variants: &[Variant], exact: bool) -> TokenStream {
    let json = json_path();
    let v: Vec<_> = variants.iter().map(|x| &x.variant).collect();
    let scrutinee = scrutinee(variants);
    // Without variants the match is `!`, which must not be an argument.
    let arguments = if variants.is_empty() {
        quote!(match *self {})
    } else {
        quote!(__ts::object_value(match self { #(Self::#v(args) => __ts::JsonObject::to_object(args)),* }))
    };
    let methods = quote! {
        /// How to run the call.
        ///
        /// # Errors
        ///
        /// When the arguments cannot become a command (see `ArgvError`).
        pub fn invocation(&self) -> __ts::Result<__ts::Invocation, __ts::ArgvError> {
            match #scrutinee { #(Self::#v(args) => __ts::Tool::invocation(args)),* }
        }
        /// The arguments as JSON.
        #[must_use]
        pub fn arguments(&self) -> #json::Value {
            #arguments
        }
        /// What the call would run under `runtime`'s policy (program, argv,
        /// stdin, working directory, temp files, output pipeline), without
        /// running it; `runtime.run_plan(plan)` runs exactly that.
        ///
        /// # Errors
        ///
        /// The runtime's refusal.
        pub fn plan(&self, runtime: &__ts::Runtime) -> __ts::Result<__ts::Plan, __ts::Refusal> {
            runtime.plan(self)
        }
        /// Runs the call: `runtime.run_call(self)`.
        ///
        /// # Errors
        ///
        /// The runtime's refusal.
        pub fn run(&self, runtime: &__ts::Runtime) -> __ts::Result<__ts::Outcome, __ts::Refusal> {
            runtime.run_call(self)
        }
    };
    let call_impl = quote! {
        impl __ts::Call for ToolCall {
            fn name(&self) -> &str {
                ToolCall::name(self)
            }
            fn invocation(&self) -> __ts::Result<__ts::Invocation, __ts::ArgvError> {
                ToolCall::invocation(self)
            }
        }
    };
    call_enum(
        variants,
        exact,
        &CallKind {
            enum_doc: &[" A call of one of the manifest's tools, with typed arguments."],
            parse_doc: &[
                " Parses a model's call: the name must be one of the manifest's",
                " tools, the arguments (JSON text) must satisfy its schema.",
            ],
            name_doc: &[" The tool's wire name."],
            name_trait: quote!(__ts::Tool),
            methods,
            after: call_impl,
        },
    )
}

/// `ToolCall` of an MCP tool list: parsing, the name and the arguments,
/// `to_mcp_arguments()`; no invocation, plan or run, and no `impl Call`, so
/// `Runtime::run_call` does not compile with it.
fn mcp_tool_call(variants: &[Variant], exact: bool) -> TokenStream {
    let json = json_path();
    let v: Vec<_> = variants.iter().map(|x| &x.variant).collect();
    let object = if variants.is_empty() {
        quote!(match *self {})
    } else {
        quote!(match self { #(Self::#v(args) => __ts::McpTool::to_mcp_arguments(args)),* })
    };
    let methods = quote! {
        /// The arguments as the JSON object of an MCP `tools/call`
        /// request (`params.arguments`): the required fields and the
        /// optional ones that are set.
        #[must_use]
        pub fn to_mcp_arguments(&self) -> #json::Map<__ts::String, #json::Value> {
            #object
        }
        /// The arguments as JSON (the object of `to_mcp_arguments()`).
        #[must_use]
        pub fn arguments(&self) -> #json::Value {
            #json::Value::Object(self.to_mcp_arguments())
        }
    };
    call_enum(
        variants,
        exact,
        &CallKind {
            enum_doc: &[
                " A call of one of the MCP server's tools, with typed arguments.",
                "",
                " These tools run on their MCP server, not in this program: there",
                " is no `invocation()`, `plan()` or `run()`, and `ToolCall` is no",
                " `toolsmith::Call`, so `Runtime::run_call` does not accept it.",
                " Send `to_mcp_arguments()` as the `arguments` of a `tools/call`",
                " request for `name()`.",
            ],
            parse_doc: &[
                " Parses a model's call: the name must be one of the server's",
                " tools, the arguments (JSON text) must satisfy its `inputSchema`.",
            ],
            name_doc: &[" The tool's wire name: the `name` of the `tools/call` request."],
            name_trait: quote!(__ts::McpTool),
            methods,
            after: TokenStream::new(),
        },
    )
}

/// What differs between the `ToolCall` of a manifest and of an MCP list.
struct CallKind {
    enum_doc: &'static [&'static str],
    parse_doc: &'static [&'static str],
    name_doc: &'static [&'static str],
    /// The trait whose `NAME` the argument types carry.
    name_trait: TokenStream,
    /// The methods after `parse` and `name`.
    methods: TokenStream,
    /// Items after the `impl ToolCall` block.
    after: TokenStream,
}

/// `*self` when the enum has no variants (the match is then empty).
fn scrutinee(variants: &[Variant]) -> TokenStream {
    if variants.is_empty() {
        quote!(*self)
    } else {
        quote!(self)
    }
}

/// The `ToolCall` enum with `parse`, `name`, the kind's methods, the
/// `From` impls and `definitions()`.
fn call_enum(variants: &[Variant], exact: bool, kind: &CallKind) -> TokenStream {
    let exact = exact.then(|| quote!(Eq, Hash,));
    let json = json_path();
    let v: Vec<_> = variants.iter().map(|x| &x.variant).collect();
    let a: Vec<_> = variants.iter().map(|x| &x.args).collect();
    let n: Vec<_> = variants.iter().map(|x| &x.name).collect();
    let parsed = variants.iter().filter_map(|x| {
        let index = proc_macro2::Literal::usize_unsuffixed(x.index?);
        let (variant, args) = (&x.variant, &x.args);
        Some(
            quote!(#index => <#args as __ts::JsonObject>::from_object(object).map(Self::#variant),),
        )
    });
    let scrutinee = scrutinee(variants);
    let CallKind {
        enum_doc,
        parse_doc,
        name_doc,
        name_trait,
        methods,
        after,
    } = kind;
    quote! {
        #(#[doc = #enum_doc])*
        #[derive(Debug, Clone, PartialEq, #exact)]
        pub enum ToolCall {
            #(#[doc = concat!("`", #n, "`")] #v(#a)),*
        }
        #[allow(dead_code)]
        impl ToolCall {
            #(#[doc = #parse_doc])*
            ///
            /// # Errors
            ///
            /// An unknown tool, arguments that are not JSON, or that do not
            /// satisfy the tool's schema or fit its type.
            #[allow(clippy::match_single_binding)]
            pub fn parse(name: &str, arguments: &str) -> __ts::Result<Self, __ts::CallError> {
                let (index, object) = __BINDINGS.parse(name, arguments)?;
                __BINDINGS.typed(index, match index {
                    #(#parsed)*
                    _ => __ts::Err(__ts::Bindings::no_tool(object)),
                })
            }
            #(#[doc = #name_doc])*
            #[must_use]
            pub fn name(&self) -> &'static str {
                match #scrutinee { #(Self::#v(_) => <#a as #name_trait>::NAME),* }
            }
            #methods
        }
        #after
        #(impl ::std::convert::From<#a> for ToolCall {
            fn from(args: #a) -> Self { Self::#v(args) }
        })*
        /// The tools as a model expects them (the `OpenAI` function-tool
        /// shape); `definitions_for(provider)` gives a provider's request format.
        #[allow(dead_code)]
        #[must_use]
        pub fn definitions() -> #json::Value {
            __BINDINGS.definitions()
        }
    }
}

/// Every request format of `toolsmith::Provider`, with its runtime name
/// (`openai-chat-strict`): each export target, and its strict mode where
/// the provider has one, in the order of `Provider::ALL`.
pub fn provider_formats() -> Vec<(String, Request)> {
    let mut out = Vec::new();
    for target in Target::ALL {
        for strict in [false, true] {
            if strict && !target.has_strict() {
                continue;
            }
            let name = if strict {
                format!("{}-strict", target.name())
            } else {
                target.name().to_owned()
            };
            let request = Request {
                target,
                strict,
                skip_incompatible: true,
            };
            out.push((name, request));
        }
    }
    out
}

/// `definitions_for(provider)` and `refused_tools(provider)`: for every
/// request format, the fragment `toolsmith export --to TARGET [--strict]
/// --skip-incompatible` prints for the bound tools, computed here by the
/// manifest crate's exporter and embedded as JSON text (the lean runtime
/// does not link the exporter), with the names of the tools it leaves out.
fn provider_definitions(tools: &[&Tool]) -> TokenStream {
    let json = json_path();
    let entries = provider_formats().into_iter().map(|(name, request)| {
        let (text, refused) = match export::export(tools, request) {
            Ok(out) => {
                let text = out
                    .fragment
                    .and_then(|f| serde_json::to_string(&f).ok())
                    .unwrap_or_else(|| "null".into());
                let refused: Vec<&str> = out
                    .refused
                    .iter()
                    .filter_map(|&i| tools.get(i).map(|t| t.name.as_str()))
                    .collect();
                (text, refused)
            }
            Err(_) => ("null".to_owned(), Vec::new()),
        };
        quote!((#name, #text, &[#(#refused),*]))
    });
    quote! {
        static __PROVIDERS: __ts::ProviderDefinitions = __ts::ProviderDefinitions::new(&[#(#entries),*]);
        /// The tools in `provider`'s request format: the JSON that
        /// `toolsmith export --to TARGET [--strict]` prints for this
        /// manifest (`{"tools": [...]}`), the strict formats with every
        /// schema rewritten into the strict form. A tool the provider
        /// refuses is left out (as `--skip-incompatible` leaves it out) and
        /// named by `refused_tools(provider)`; `tools!(..., providers = [...])`
        /// makes such a refusal a compile error instead.
        #[allow(dead_code)]
        #[must_use]
        pub fn definitions_for(provider: __ts::Provider) -> #json::Value {
            __PROVIDERS.definitions(provider)
        }
        /// The tools that `definitions_for(provider)` leaves out because
        /// `provider` refuses them (`toolsmith lint --provider NAME` says
        /// why); empty when it accepts every tool.
        #[allow(dead_code)]
        #[must_use]
        pub fn refused_tools(provider: __ts::Provider) -> &'static [&'static str] {
            __PROVIDERS.refused(provider)
        }
    }
}

/// `ALLOWLIST` (chai: binary → subcommands, as the manifest declares) and
/// `policy()`: the default-deny policy with the manifest's own allowlist, so
/// that `Runtime::new(module::policy())` runs every generated tool.
fn policy(manifest: &Manifest, dir: &Path) -> TokenStream {
    let support = support();
    let binaries: Vec<&String> = manifest.allowlist.keys().collect();
    let subs: Vec<&Vec<String>> = manifest.allowlist.values().collect();
    let programs: Vec<String> = manifest
        .tools
        .iter()
        .filter_map(|t| match &t.execution {
            Execution::Command(c) => Some(command_program(c, dir)),
            Execution::Describe(d) => Some(relative_program(&d.program, dir)),
            Execution::Chai(_) => None,
        })
        .collect();
    quote! {
        /// The manifest's allowlist: binary → allowed subcommands.
        #[allow(dead_code)]
        pub const ALLOWLIST: &[(&str, &[&str])] = &[#((#binaries, &[#(#subs),*])),*];
        /// The default-deny policy with this manifest's allowlist (and its
        /// agentcli / describe programs): `Runtime::new(policy())` runs every
        /// tool of the manifest and nothing else, confined (each call reads
        /// the system's program directories, the manifest's own skill or
        /// `tools/bin` directory, its working directory and the sandbox roots
        /// its path parameters name; writes a private temporary directory,
        /// and the sandbox roots for a `writePath` parameter; no network).
        #[allow(dead_code)]
        pub fn policy() -> #support::Policy {
            let mut policy = #support::Policy::default();
            for (binary, subcommands) in ALLOWLIST {
                policy.allow_mut(binary, subcommands.iter().copied());
            }
            #(policy.allow_mut(#programs, ::std::iter::empty::<&str>());)*
            policy.confine.enabled = ::core::option::Option::Some(true);
            policy
        }
    }
}

/// [`stub`] for a tool of an MCP list: an empty `…Args` type that
/// implements `McpTool`. The build fails on the list's error, so it is
/// never sent.
fn mcp_stub(name: &str, args_name: &str) -> TokenStream {
    let json = json_path();
    let args = ident(args_name);
    let doc = format!(
        " Stand-in for tool `{name}`: its definition in the MCP tool list has an error \
         (reported by the build), so it has no typed arguments yet."
    );
    let json_object = emit::json_object(&args, &[], false);
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
        pub struct #args {}
        #json_object
        impl __ts::McpTool for #args {
            const NAME: &'static str = #name;
            const DESCRIPTION: &'static str = "";
            fn parameters() -> &'static #json::Value {
                __BINDINGS.parameters(usize::MAX)
            }
            fn to_mcp_arguments(&self) -> #json::Map<__ts::String, #json::Value> {
                #json::Map::new()
            }
        }
    }
}

/// The stand-in for tool `name` after a manifest error in its definition:
/// an empty `…Args` type that implements `Tool` (and so `Call`). The build
/// fails on the manifest's error, so it is never run; were it called, its
/// invocation is refused.
fn stub(name: &str, args_name: &str) -> TokenStream {
    let json = json_path();
    let args = ident(args_name);
    let doc = format!(
        " Stand-in for tool `{name}`: its definition in the manifest has an error \
         (reported by the build), so it has no typed arguments yet."
    );
    let refusal = format!("tool `{name}` has an error in its manifest definition");
    let json_object = emit::json_object(&args, &[], false);
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
        pub struct #args {}
        #json_object
        impl __ts::Tool for #args {
            const NAME: &'static str = #name;
            const DESCRIPTION: &'static str = "";
            fn parameters() -> &'static #json::Value {
                __BINDINGS.parameters(usize::MAX)
            }
            fn invocation(&self) -> __ts::Result<__ts::Invocation, __ts::ArgvError> {
                __ts::Err(__ts::ArgvError::Refused { message: __ts::String::from(#refusal) })
            }
        }
        #[allow(dead_code)]
        impl #args {
            /// Refused: see the type's documentation.
            pub fn argv(&self) -> __ts::Result<__ts::Vec<__ts::String>, __ts::ArgvError> {
                __ts::Tool::invocation(self).map(|i| i.argv())
            }
        }
    }
}

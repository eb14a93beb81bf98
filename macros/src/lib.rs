//! The `tools!` and `skill!` proc-macros; the work is done in `toolsmith-codegen`.
//!
//! The path is relative to `CARGO_MANIFEST_DIR`, read when the macro expands
//! (`TOOLSMITH_MANIFEST_DIR` overrides it, for test harnesses such as
//! trybuild whose build directory is not the crate's). Every error finding
//! becomes one compile error spanned on the path literal, reading
//! `path:line:col: message [rule]` with the source line and a caret; after
//! errors, stand-in items keep the user's own code from drowning in
//! follow-on errors. Each input file is tracked with `include_bytes!`, so
//! editing it rebuilds the crate. The generated code's programs are
//! manifest-relative; the macro adds `MANIFEST_DIR`, the manifest's absolute
//! directory on the build machine, which the runtime uses when it is given
//! no root (`Runtime::with_root`).

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::quote;
use std::path::PathBuf;
use syn::LitStr;
use toolsmith_codegen::{ExpandOptions, Expansion};

/// Generates typed bindings for a tool manifest (path relative to
/// `CARGO_MANIFEST_DIR`). A tool that cannot be bound is a compile error;
/// `tools!("tools.json", skip_unsupported)` leaves such tools out instead.
/// `tools!("tools.json", providers = [openai_strict, gemini])` also checks
/// every tool against those providers' rules, as `toolsmith lint --provider`
/// does (`openai`, `openai_strict`, `anthropic`, `anthropic_strict`,
/// `gemini`, `ollama`, `mcp`): a schema a provider refuses is a compile
/// error at its keyword.
#[proc_macro]
pub fn tools(input: TokenStream) -> TokenStream {
    expand(input, false)
}

/// Generates constants and types for a skill file (path relative to
/// `CARGO_MANIFEST_DIR`). The file is checked as `toolsmith lint` checks it:
/// under the profile found from where it lives, or the one named with
/// `skill!("SKILL.md", profile = claude_code)` (`default`, `strict`,
/// `claude_code`, `claude_api`, `codex`, `copilot`, `cursor`; several as a
/// string: `profile = "claude-code,copilot"`). Its errors are compile errors.
#[proc_macro]
pub fn skill(input: TokenStream) -> TokenStream {
    expand(input, true)
}

fn base_dir() -> PathBuf {
    std::env::var_os("TOOLSMITH_MANIFEST_DIR")
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR"))
        .map(PathBuf::from)
        .unwrap_or_default()
}

/// The macro's input: the path, then options (`skip_unsupported`,
/// `profile = NAME`, `providers = [NAME, …]`).
struct Input {
    path: LitStr,
    options: ExpandOptions,
    /// Where `providers` was written (for `skill!`, which has no tool schemas).
    providers: Option<Span>,
}

impl syn::parse::Parse for Input {
    fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        let path: LitStr = input.parse()?;
        let mut options = ExpandOptions::default();
        let mut providers = None;
        while input.parse::<Option<syn::Token![,]>>()?.is_some() {
            if input.is_empty() {
                break;
            }
            let flag: syn::Ident = input.parse()?;
            match flag.to_string().as_str() {
                "skip_unsupported" => options.skip_unsupported = true,
                "profile" => {
                    input.parse::<syn::Token![=]>()?;
                    let (names, span) = if input.peek(LitStr) {
                        let lit: LitStr = input.parse()?;
                        (lit.value(), lit.span())
                    } else {
                        let ident: syn::Ident = input.parse()?;
                        (ident.to_string().replace('_', "-"), ident.span())
                    };
                    options.profile = toolsmith_codegen::Profiles::parse(&names)
                        .map_err(|e| syn::Error::new(span, e))?;
                }
                "providers" => {
                    providers = Some(flag.span());
                    input.parse::<syn::Token![=]>()?;
                    let list;
                    syn::bracketed!(list in input);
                    let names =
                        syn::punctuated::Punctuated::<syn::Ident, syn::Token![,]>::parse_terminated(
                            &list,
                        )?;
                    for name in names {
                        let provider = toolsmith_codegen::provider_from_name(&name.to_string())
                            .map_err(|e| syn::Error::new(name.span(), e))?;
                        if !options.providers.contains(&provider) {
                            options.providers.push(provider);
                        }
                    }
                }
                other => {
                    return Err(syn::Error::new(
                        flag.span(),
                        format!(
                            "unknown option `{other}`; the options are `skip_unsupported`, `profile = NAME` and `providers = [NAME, ...]`"
                        ),
                    ));
                }
            }
        }
        Ok(Input {
            path,
            options,
            providers,
        })
    }
}

fn expand(input: TokenStream, skill: bool) -> TokenStream {
    let Input {
        path: lit,
        options,
        providers,
    } = match syn::parse::<Input>(input) {
        Ok(input) => input,
        Err(e) => return e.to_compile_error().into(),
    };
    if let (true, Some(span)) = (skill, providers) {
        let message = "`providers` applies to `tools!`: a skill file declares no tool schemas";
        return syn::Error::new(span, message).to_compile_error().into();
    }
    let relative = lit.value();
    let span = lit.span();
    let result = std::panic::catch_unwind(|| {
        let path = base_dir().join(&relative);
        let expansion = toolsmith_codegen::expand_with(&path, &relative, options);
        // The manifest's directory on this machine: the runtime's fallback
        // root for the manifest-relative programs (`MANIFEST_DIR`).
        let root = toolsmith_codegen::tools::manifest_dir_item(&path, true);
        output(expansion, &relative, span, root)
    });
    match result {
        Ok(tokens) => tokens.into(),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let message = format!(
                "toolsmith: internal error while reading `{relative}` (this is a bug): {what}"
            );
            syn::Error::new(span, message).to_compile_error().into()
        }
    }
}

fn tracking(inputs: &[PathBuf]) -> TokenStream2 {
    let paths = inputs
        .iter()
        .filter_map(|p| p.canonicalize().ok())
        .filter_map(|p| p.to_str().map(str::to_owned));
    quote!(#(const _: &[u8] = ::std::include_bytes!(#paths);)*)
}

fn output(expansion: Expansion, display: &str, span: Span, root: TokenStream2) -> TokenStream2 {
    let track = tracking(&expansion.inputs);
    match expansion.result {
        Ok(tokens) => quote!(#track #tokens #root),
        Err(errors) => {
            let mut combined: Option<syn::Error> = None;
            for d in errors.iter() {
                let error = syn::Error::new(span, toolsmith_codegen::render::message(d));
                match &mut combined {
                    Some(c) => c.combine(error),
                    None => combined = Some(error),
                }
            }
            let errors = combined
                .unwrap_or_else(|| {
                    syn::Error::new(span, format!("toolsmith: `{display}` could not be read"))
                })
                .to_compile_error();
            let stubs = expansion.stubs;
            quote!(#errors #track #stubs #root)
        }
    }
}

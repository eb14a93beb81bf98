//! Manifest model → Rust tokens, for the `tools!` / `skill!` macros,
//! `toolsmith gen` and `build.rs`.
//!
//! The manifest is loaded with [`toolsmith_manifest::lint::load_for_bindings`]
//! (`lint::load`, which also accepts an MCP tool list), so the generator
//! refuses exactly what `toolsmith lint` reports as an error, with the same
//! messages. The bindings of an MCP tool list have no invocation: its tools
//! run on their server ([`tools`]). The generator adds its own rules ([`issue::RULES`]):
//! names that collide after case conversion, `flagifboolean` mappings of
//! non-boolean parameters, positional mappings of undeclared parameters
//! (errors) and schemas without a Rust type (warnings).
//!
//! ```no_run
//! // build.rs: writes $OUT_DIR/tools.rs, prints `cargo:rerun-if-changed`
//! // lines, and on errors panics with the diagnostics as text.
//! toolsmith_codegen::build("tools.json", "tools.rs").unwrap();
//! ```

pub mod emit;
pub mod ident;
pub mod issue;
pub mod render;
pub mod skill;
pub mod tools;
pub mod types;

use issue::Subject;
use proc_macro2::TokenStream;
use std::path::{Path, PathBuf};
use toolsmith_manifest::diagnostic::{Diagnostic, Diagnostics, Severity};
use toolsmith_manifest::lint::{self, FileKind, Input, Options};
use toolsmith_manifest::model::{Execution, Manifest, Tool};
use toolsmith_manifest::source::{Source, Span};
use toolsmith_manifest::{dialect, input, recover};

/// What the macros need from one expansion.
#[derive(Debug)]
pub struct Expansion {
    /// The items, or every error (lint and generator findings, sorted).
    pub result: Result<TokenStream, Diagnostics>,
    /// Warnings (never fail the build).
    pub warnings: Diagnostics,
    /// Input files that exist, for rebuild tracking.
    pub inputs: Vec<PathBuf>,
    /// Stand-in items to emit after errors (empty on success).
    pub stubs: TokenStream,
}

/// Maps printed paths to real ones: printed paths are the given display path
/// with file names of siblings appended.
#[derive(Debug, Clone)]
pub struct PathMap {
    real_dir: PathBuf,
    display_dir: String,
}

impl PathMap {
    /// For a manifest at `path` printed as `display` (a file or a directory).
    pub fn new(path: &Path, display: &str) -> Self {
        if path.is_dir() {
            return PathMap {
                real_dir: path.to_path_buf(),
                display_dir: format!("{}/", display.trim_end_matches('/')),
            };
        }
        let real_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let display_dir = match display.rfind(['/', '\\']) {
            Some(i) => display[..=i].to_string(),
            None => String::new(),
        };
        PathMap {
            real_dir,
            display_dir,
        }
    }

    /// The real file behind a printed path.
    pub fn real(&self, display: &str) -> PathBuf {
        match display.strip_prefix(&self.display_dir) {
            Some(rest) => self.real_dir.join(rest),
            None => PathBuf::from(display),
        }
    }

    /// The printed path of a real file.
    pub fn display(&self, real: &Path) -> String {
        match real.strip_prefix(&self.real_dir) {
            Ok(rest) => format!("{}{}", self.display_dir, rest.display()),
            Err(_) => real.display().to_string(),
        }
    }
}

fn is_skill(path: &Path) -> bool {
    lint::classify(path) == Some(FileKind::Skill)
}

/// Splits findings into errors (fail) and warnings.
fn split(all: Diagnostics) -> (Diagnostics, Diagnostics) {
    let (errors, warnings): (Vec<Diagnostic>, Vec<Diagnostic>) = all
        .0
        .into_iter()
        .partition(|d| d.severity == Severity::Error);
    (Diagnostics(errors), Diagnostics(warnings))
}

fn existing(paths: impl IntoIterator<Item = PathBuf>) -> Vec<PathBuf> {
    paths.into_iter().filter(|p| p.is_file()).collect()
}

pub use toolsmith_manifest::Profiles;

pub use toolsmith_manifest::provider::Provider;

/// The provider rule set of a `tools!(…, providers = [NAME, …])` name: the
/// names `toolsmith lint --provider` takes, in snake case (`openai_strict`;
/// the kebab-case spelling is accepted too).
///
/// # Errors
///
/// An unknown name: the message suggests the closest name and lists them all.
///
/// ```
/// use toolsmith_codegen::{provider_from_name, Provider};
/// assert_eq!(provider_from_name("openai_strict"), Ok(Provider::OpenAiStrict));
/// assert_eq!(
///     provider_from_name("gemni").unwrap_err(),
///     "unknown provider `gemni`; did you mean `gemini`? The providers are openai, openai_strict, anthropic, anthropic_strict, gemini, ollama, mcp"
/// );
/// ```
pub fn provider_from_name(name: &str) -> Result<Provider, String> {
    let snake = |p: Provider| p.name().replace('-', "_");
    if let Some(p) = Provider::ALL
        .into_iter()
        .find(|&p| snake(p) == name || p.name() == name)
    {
        return Ok(p);
    }
    let names: Vec<String> = Provider::ALL.into_iter().map(snake).collect();
    let list = names.join(", ");
    Err(
        match toolsmith_manifest::suggest::closest(name, names.iter().map(String::as_str)) {
            Some(n) => {
                format!("unknown provider `{name}`; did you mean `{n}`? The providers are {list}")
            }
            None => format!("unknown provider `{name}`; the providers are {list}"),
        },
    )
}

/// How an expansion treats what it cannot bind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExpandOptions {
    /// Leave out tools that cannot be bound instead of failing
    /// (`tools!("x.json", skip_unsupported)`).
    pub skip_unsupported: bool,
    /// The skill profiles a skill file is checked under
    /// (`skill!("SKILL.md", profile = claude_code)`); empty: found from where
    /// the file lives, as `toolsmith lint` does.
    pub profile: toolsmith_manifest::Profiles,
    /// The providers whose rules (`provider/…`) the manifest's tools are
    /// checked against (`tools!("x.json", providers = [openai_strict,
    /// gemini])`): the error findings that the generated `definitions_for`
    /// does not repair are the expansion's errors (see [`expand_with`]).
    pub providers: Vec<Provider>,
}

/// Loads the manifest or skill at `path` (printed as `display`) and generates
/// its items. Never panics on any input.
pub fn expand(path: &Path, display: &str) -> Expansion {
    expand_with(path, display, ExpandOptions::default())
}

/// [`expand`] with options.
///
/// With [`ExpandOptions::providers`], once the manifest has no error of its
/// own, its tools (as one list, the request `definitions_for` builds) are
/// checked with the rules `toolsmith lint --provider` runs, and every error
/// finding that would make the provider refuse a tool of
/// `definitions_for` fails the expansion, positioned at the refused keyword.
/// A finding that the generated fragment repairs is not an error here: the
/// strict rewrite's (a property missing from `required`, an object without
/// `additionalProperties: false`) for `openai_strict`/`anthropic_strict`,
/// whose fragments are rewritten, and Gemini's nullable type lists. So
/// `providers = [openai_strict, gemini]` passes a schema that both accept
/// once exported, which `lint --provider openai-strict,gemini` (checking the
/// file as written) does not.
pub fn expand_with(path: &Path, display: &str, options: ExpandOptions) -> Expansion {
    if is_skill(path) {
        expand_skill(path, display, options)
    } else {
        expand_tools(path, display, options)
    }
}

fn failed(diagnostics: Diagnostics, inputs: Vec<PathBuf>, stubs: TokenStream) -> Expansion {
    let (errors, warnings) = split(diagnostics);
    Expansion {
        result: Err(errors),
        warnings,
        inputs,
        stubs,
    }
}

/// The expansion once all findings are known: the tokens when there is no
/// error, otherwise the errors and the stand-in items (`stubs`, or the tokens
/// themselves when they already stand in for what failed).
fn finish(
    diagnostics: Diagnostics,
    tokens: TokenStream,
    inputs: Vec<PathBuf>,
    stubs: Option<TokenStream>,
) -> Expansion {
    if diagnostics.has_errors() {
        return failed(diagnostics, inputs, stubs.unwrap_or(tokens));
    }
    Expansion {
        result: Ok(tokens),
        warnings: diagnostics,
        inputs,
        stubs: TokenStream::new(),
    }
}

fn expand_tools(path: &Path, display: &str, options: ExpandOptions) -> Expansion {
    let main = if path.is_dir() {
        path.join("tools.json")
    } else {
        path.to_path_buf()
    };
    let siblings = ["allowlist.json", "execution.json"].map(|n| main.with_file_name(n));
    let (manifest, diagnostics, stubs) =
        match lint::load_for_bindings(path, display, &Options::default()) {
            Ok(loaded) => (loaded.manifest, loaded.warnings, Vec::new()),
            Err(failure) => {
                let diagnostics = failure.diagnostics;
                match failure.partial {
                    Some(partial) => {
                        let (manifest, stubs) = sound_part(*partial, &diagnostics);
                        (manifest, diagnostics, stubs)
                    }
                    None => {
                        let stubs = recovered_names(&diagnostics);
                        let inputs = existing(std::iter::once(main).chain(siblings));
                        let out = tools::tools(&empty_manifest(), &stubs);
                        return failed(diagnostics, inputs, out.tokens);
                    }
                }
            }
        };
    let out = tools::tools(&manifest, &stubs);
    let mut inputs = manifest.inputs.clone();
    if inputs.is_empty() {
        inputs.push(main);
    }
    let inputs = existing(inputs);
    let mut diagnostics = diagnostics;
    let fallback = PathMap::new(path, display).display(&manifest.path);
    if !options.skip_unsupported && !diagnostics.has_errors() {
        diagnostics.0.extend(manifest.unusable.iter().map(|name| {
            let message = format!(
                "tool `{name}` cannot be bound and would be left out of the bindings; \
                 fix its definition, or write `tools!(\"{display}\", skip_unsupported)` to leave it out"
            );
            issue::Issue::new(&issue::UNSUPPORTED_TOOL, issue::Place::ToolName { tool: usize::MAX }, message)
                .locate(Subject::Tools(&manifest.tools), &fallback)
        }));
    }
    diagnostics.0.extend(
        out.issues
            .into_iter()
            .map(|issue| issue.locate(Subject::Tools(&manifest.tools), &fallback)),
    );
    if !diagnostics.has_errors() {
        diagnostics
            .0
            .extend(provider_findings(&options.providers, &manifest.tools));
    }
    diagnostics.sort();
    // The sound tools' items and the stand-ins are also what follows errors.
    finish(diagnostics, out.tokens, inputs, None)
}

/// The findings of the rules of `providers` on `tools` (one request: the
/// module's tool list, as `definitions_for` exports it) that the generated
/// `definitions_for` does not repair: a finding that the strict rewrite
/// repairs (`provider/openai-strict-optional`, a missing
/// `additionalProperties: false`, …) is left out for a strict provider,
/// whose fragment is rewritten, and one that every export repairs (Gemini's
/// nullable type lists) for every provider. What is left is what the
/// provider refuses, positioned at its keyword; warnings stay warnings.
fn provider_findings(providers: &[Provider], tools: &[Tool]) -> Vec<Diagnostic> {
    use toolsmith_manifest::provider::{self, Fix};
    let tools: Vec<&Tool> = tools.iter().collect();
    let mut out = Vec::new();
    for &p in providers {
        let rewritten = matches!(p, Provider::OpenAiStrict | Provider::AnthropicStrict);
        for check in provider::check(p, &tools) {
            let kept = match check.fix {
                Fix::None => true,
                Fix::Strict => !rewritten,
                Fix::Export => false,
            };
            if !kept {
                continue;
            }
            let source = tools
                .get(check.tool)
                .and_then(|t| t.origin.source.clone())
                .unwrap_or_else(|| std::sync::Arc::new(Source::new("<code>", "")));
            out.push(check.finding.locate_shared(&source));
        }
    }
    out
}

/// A manifest with no tool (the frame for stand-ins after a syntax error).
fn empty_manifest() -> Manifest {
    Manifest {
        dialect: toolsmith_manifest::Dialect::Agentcli,
        path: PathBuf::new(),
        inputs: Vec::new(),
        tools: Vec::new(),
        allowlist: Default::default(),
        unusable: Vec::new(),
    }
}

/// Splits a partial model: the tools whose own definition (their entry, and
/// for chai their execution specs) holds no error keep their full items; the
/// others, and the tools the model left out, get stand-ins by name.
fn sound_part(mut manifest: Manifest, diagnostics: &Diagnostics) -> (Manifest, Vec<String>) {
    let errors: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    let mut stubs = Vec::new();
    manifest.tools.retain(|tool| {
        let sound = !errors.iter().any(|d| inside_tool(tool, d));
        if !sound {
            stubs.push(tool.name.clone());
        }
        sound
    });
    stubs.append(&mut manifest.unusable);
    (manifest, stubs)
}

fn inside_tool(tool: &Tool, d: &Diagnostic) -> bool {
    let inside = |source: &Option<std::sync::Arc<Source>>, span: Span| {
        source.as_ref().is_some_and(|s| s.path() == d.source.path())
            && span.start <= d.span.start
            && d.span.end <= span.end
    };
    inside(&tool.origin.source, tool.origin.span)
        || match &tool.execution {
            Execution::Chai(specs) => specs.iter().any(|s| inside(&s.source, s.span)),
            _ => false,
        }
}

/// After a syntax error: the tool names the broken text still shows.
fn recovered_names(diagnostics: &Diagnostics) -> Vec<String> {
    diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error && !d.source.text().is_empty())
        .map(|d| recover::tool_names(d.source.text()))
        .unwrap_or_default()
}

fn expand_skill(path: &Path, display: &str, expand: ExpandOptions) -> Expansion {
    let input = Input {
        display: display.to_owned(),
        path: path.to_path_buf(),
    };
    let inputs = existing([path.to_path_buf()]);
    let stubs = skill_stubs();
    let options = Options {
        profile: expand.profile,
        ..Options::default()
    };
    let report = match lint::lint(std::slice::from_ref(&input), &options) {
        Ok(report) => report,
        Err(e) => {
            let d = lint::detached(
                display,
                &input::UNREADABLE,
                format!("cannot read `{display}`: {e}"),
            );
            return failed(Diagnostics(vec![d]), inputs, stubs);
        }
    };
    let mut diagnostics = report.diagnostics;
    let skill = match report.skills.into_iter().next() {
        Some(skill) if !diagnostics.has_errors() => skill,
        _ => {
            if !diagnostics.has_errors() {
                diagnostics.0.push(lint::detached(
                    display,
                    &dialect::UNKNOWN,
                    format!("`{display}` is not a skill file with a valid frontmatter"),
                ));
            }
            return failed(diagnostics, inputs, stubs);
        }
    };
    let out = skill::skill(&skill);
    let parts = [&skill.params_origin, &skill.returns_origin];
    diagnostics.0.extend(
        out.issues
            .into_iter()
            .map(|issue| issue.locate(Subject::Skill(parts), display)),
    );
    diagnostics.sort();
    finish(diagnostics, out.tokens, inputs, Some(stubs))
}

fn skill_stubs() -> TokenStream {
    quote::quote! {
        pub const NAME: &str = "";
        pub const DESCRIPTION: &str = "";
        pub const ALLOWED_TOOLS: &[&str] = &[];
        pub const BODY: &str = "";
    }
}

/// Generated code with the warnings that did not stop it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The formatted code.
    pub code: String,
    /// Warnings: the manifest's lint warnings and `codegen/unrepresentable` schemas.
    pub warnings: Diagnostics,
}

/// Formats tokens as a Rust file (prettyplease).
#[cfg(feature = "format")]
pub fn format(tokens: TokenStream) -> String {
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => prettyplease::unparse(&file),
        Err(_) => tokens.to_string(),
    }
}

/// Like [`generate`], keeping the warnings (for `toolsmith gen`). On failure
/// the diagnostics hold every error and warning.
#[cfg(feature = "format")]
pub fn generate_with_warnings(path: &Path) -> Result<Generated, Diagnostics> {
    let display = path.display().to_string();
    let expansion = expand(path, &display);
    match expansion.result {
        Ok(mut tokens) => Ok(Generated {
            code: format({
                // No absolute path in checked-in code: `MANIFEST_DIR` is `None`.
                tokens.extend(tools::manifest_dir_item(path, false));
                tokens
            }),
            warnings: expansion.warnings,
        }),
        Err(mut errors) => {
            errors.0.extend(expansion.warnings.0);
            errors.sort();
            Err(errors)
        }
    }
}

/// Generates the Rust code for the manifest (or skill file) at `path`,
/// formatted, or the diagnostics that stop it. This is what `tools!` /
/// `skill!` expand to, minus the `include_bytes!` rebuild trackers and with
/// `MANIFEST_DIR` set to `None`: the code holds no absolute path, and the
/// runtime resolves its manifest-relative programs against
/// `Runtime::with_root`.
#[cfg(feature = "format")]
pub fn generate(path: &Path) -> Result<String, Diagnostics> {
    generate_with_warnings(path).map(|g| g.code)
}

/// Why [`build`] generated nothing: the manifest's errors, rendered as the
/// macro renders them (`path:line:col: message [rule]`, the source line and
/// a caret). `Debug` prints the same text, so `build(…).unwrap()` and `?` in
/// `build.rs` show the diagnostics, not a dump of their fields.
#[derive(thiserror::Error)]
pub enum BuildError {
    /// The manifest has errors.
    #[error("{}", .0.iter().map(render::message).collect::<Vec<_>>().join("\n"))]
    Manifest(Diagnostics),
    /// The generated file could not be written.
    #[error("cannot write `{path}`: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// `OUT_DIR` is not set: not running as a build script.
    #[error("OUT_DIR is not set: `toolsmith_codegen::build` runs in a build script (build.rs)")]
    NoOutDir,
}

impl std::fmt::Debug for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

/// For `build.rs`: generates the bindings of the manifest (or skill) at
/// `manifest` into `$OUT_DIR/<out_file>`, prints `cargo:rerun-if-changed`
/// for every input file (the manifest's siblings too, so that adding an
/// `execution.json` rebuilds) and returns the path written. The output
/// builds under `-D warnings` and `clippy::pedantic`.
///
/// ```no_run
/// // in build.rs's `main`:
/// toolsmith_codegen::build("tools.json", "tools.rs").unwrap();
/// // src/main.rs: mod tools { include!(concat!(env!("OUT_DIR"), "/tools.rs")); }
/// ```
#[cfg(feature = "format")]
pub fn build(manifest: impl AsRef<Path>, out_file: &str) -> Result<PathBuf, BuildError> {
    let manifest = manifest.as_ref();
    let out_dir = std::env::var_os("OUT_DIR").ok_or(BuildError::NoOutDir)?;
    let display = manifest.display().to_string();
    let expansion = expand(manifest, &display);
    let mut watched = expansion.inputs.clone();
    let main = if manifest.is_dir() {
        manifest.join("tools.json")
    } else {
        manifest.to_path_buf()
    };
    watched.push(main.clone());
    if !is_skill(manifest) {
        watched.extend(["allowlist.json", "execution.json"].map(|n| main.with_file_name(n)));
    }
    watched.sort();
    watched.dedup();
    for path in &watched {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    let tokens = expansion.result.map_err(BuildError::Manifest)?;
    let path = PathBuf::from(out_dir).join(out_file);
    std::fs::write(&path, format(tokens)).map_err(|source| BuildError::Write {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

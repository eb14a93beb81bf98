//! A chai call, from the arguments to everything a process needs: the path
//! pass (sandbox, canonical values, path-like refusal), the working
//! directory, deny patterns, argv, stdin and temp files (chai v0.5 at
//! fb29f89: `crates/lib/src/tools/generic/`; chai 14ef265's
//! `tools/generic.rs` for the legacy format). The one place that turns a
//! chai execution spec into a command: the runtime's plan, `toolsmith run
//! --dry-run` and generated code all come here.
//!
//! Resolvers are run through a callback, so a dry run can show them instead
//! of running them. Where chai is unsafe (README.md, "Where chai is unsafe,
//! toolsmith is strict"; docs/chai-argv-cases.md, "chai behaviour seen while
//! recording") this is strict:
//! each piece of a `split` value is checked, a path parameter's value is
//! checked before its resolver sees it, a parameter that only feeds resolver
//! or `postProcess` arguments gets the path-like check, `unsafePath` needs
//! the policy's consent, a temp file is private to the call, and a value the
//! model wrote never starts an option.

use super::ArgvError;
use super::argv::{ArgvBuilder, LeadingDash, Origin, normalize_newlines};
use crate::refusal::Refusal;
use crate::sandbox::{Sandbox, path_like};
use serde_json::{Map, Value};
use std::path::PathBuf;
use toolsmith_model::model::{ArgKind, ArgMapping, ChaiExecution, ChaiVersion, ResolveCommand};

/// Runs one resolver: the resolver, its arguments after substitution, and
/// the parameter it serves; `Ok(Some(text))` is its trimmed output, `Ok(None)`
/// keeps the value (empty output), `Err` says why it failed.
pub(crate) type Resolve<'a> =
    dyn FnMut(&str, &ResolveCommand, Vec<String>) -> Result<Option<String>, String> + 'a;

/// What the preparation needs from the policy.
pub(crate) struct Env<'a> {
    /// The path sandbox (empty: path parameters are refused).
    pub sandbox: &'a Sandbox,
    /// What to do with positional values that begin with `-`.
    pub leading_dash: LeadingDash,
    /// Honour `unsafePath` (otherwise a call that uses such a parameter is refused).
    pub allow_unsafe_path: bool,
    /// Runs resolvers.
    pub resolve: &'a mut Resolve<'a>,
    /// A preview without a policy (generated `argv()`): with an empty
    /// sandbox, path values pass through as given instead of being refused.
    pub preview: bool,
}

/// A temp file of a call: written to a private file when the call runs; its
/// path replaces the placeholder `$TEMPFILE{param}` in argv.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TempFile {
    /// The parameter.
    pub param: String,
    /// The content.
    pub content: Vec<u8>,
}

impl TempFile {
    /// The argv placeholder of this file.
    pub fn placeholder(&self) -> String {
        placeholder(&self.param)
    }
}

fn placeholder(param: &str) -> String {
    format!("$TEMPFILE{{{param}}}")
}

/// A prepared chai call.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Prepared {
    /// `binaryWrapper` tokens.
    pub wrapper: Vec<String>,
    /// The binary as the manifest names it.
    pub binary: String,
    /// The subcommand in force (a `subcommandOverride`, or the spec's), as written.
    pub subcommand: String,
    /// Everything after the binary: subcommand tokens, then the mappings' tokens,
    /// temp-file placeholders last.
    pub args: Vec<String>,
    /// The child's stdin.
    pub stdin: Option<Vec<u8>>,
    /// The working directory chosen by the sandbox (`None`: the policy's).
    pub cwd: Option<PathBuf>,
    /// Temp files.
    pub tempfiles: Vec<TempFile>,
    /// Canonical `writePath` targets, whose missing parent directories are
    /// created when the call runs (inside the sandbox, as chai does).
    pub write_paths: Vec<PathBuf>,
    /// The call's arguments after the path pass (canonical paths), with the
    /// `absentDefault`s filled in: what the output pipeline reads.
    pub arguments: Map<String, Value>,
}

fn rejected(tool: &str, message: impl Into<String>) -> Refusal {
    Refusal::Rejected {
        tool: tool.to_owned(),
        message: message.into(),
    }
}

/// A scalar as chai renders it (U6); `None` for arrays, objects and null.
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// chai's truthiness (U2).
fn truthy(value: Option<&Value>) -> bool {
    match value {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s.eq_ignore_ascii_case("true"),
        Some(Value::Number(n)) => n.as_i64().is_some_and(|i| i != 0),
        _ => false,
    }
}

fn given<'v>(args: &'v Map<String, Value>, param: &str) -> Option<&'v Value> {
    args.get(param).filter(|v| !v.is_null())
}

/// v0.5 flag formatting: leading dashes stripped, then one byte gives `-x`,
/// anything longer `--name`; legacy prepends `--` to the flag as written.
pub fn format_flag(version: ChaiVersion, flag: &str) -> String {
    match version {
        ChaiVersion::Legacy => format!("--{flag}"),
        ChaiVersion::V05 => {
            let name = flag.trim_start_matches('-');
            if name.len() == 1 {
                format!("-{name}")
            } else {
                format!("--{name}")
            }
        }
    }
}

/// The resolver's arguments: legacy replaces every `$param` substring;
/// v0.5 replaces an argument equal to `$param` by the value and one equal to
/// `$name` by the call's string parameter `name`.
fn resolver_args(
    version: ChaiVersion,
    resolver: &ResolveCommand,
    value: &str,
    args: &Map<String, Value>,
) -> Vec<String> {
    let written = match resolver {
        ResolveCommand::Script { args, .. } | ResolveCommand::Command { args, .. } => args,
    };
    written
        .iter()
        .map(|a| match version {
            ChaiVersion::Legacy => a.replace("$param", value),
            ChaiVersion::V05 => match a.strip_prefix('$') {
                Some("param") => value.to_owned(),
                Some(name) if a.len() > 1 => match args.get(name) {
                    Some(Value::String(s)) => s.clone(),
                    _ => String::new(),
                },
                _ => a.clone(),
            },
        })
        .collect()
}

struct Preparer<'e, 'a> {
    tool: &'e str,
    spec: &'e ChaiExecution,
    env: &'e mut Env<'a>,
    args: Map<String, Value>,
    write_paths: Vec<PathBuf>,
}

impl Preparer<'_, '_> {
    fn v05(&self) -> bool {
        self.spec.version == ChaiVersion::V05
    }

    /// Runs the resolver of `m` on `value`: the new value, or the old one
    /// when the output is empty. A failure rejects a v0.5 call and keeps the
    /// value in legacy (chai's behaviour in each).
    fn resolve(&mut self, m: &ArgMapping, value: String) -> Result<String, Refusal> {
        let Some(resolver) = &m.resolve_command else {
            return Ok(value);
        };
        let argv = resolver_args(self.spec.version, resolver, &value, &self.args);
        match (self.env.resolve)(&m.param, resolver, argv) {
            Ok(Some(out)) => Ok(out),
            Ok(None) => Ok(value),
            Err(_) if !self.v05() => Ok(value),
            Err(e) => Err(rejected(
                self.tool,
                format!("resolveCommand of parameter '{}' failed: {e}", m.param),
            )),
        }
    }

    /// `unsafePath` is honoured only when the policy allows it.
    fn unsafe_allowed(&self, m: &ArgMapping) -> Result<bool, Refusal> {
        if !m.unsafe_path {
            return Ok(false);
        }
        if self.env.allow_unsafe_path {
            return Ok(true);
        }
        Err(rejected(
            self.tool,
            format!(
                "parameter '{}' uses unsafePath, which bypasses the path sandbox; the policy does not allow it",
                m.param
            ),
        ))
    }

    /// V1–V5, V8: path parameters are resolved inside the sandbox and their
    /// canonical path replaces the value; other string values must not look
    /// like paths. Returns the working directory chosen (V6).
    fn path_pass(&mut self) -> Result<Option<PathBuf>, Refusal> {
        let mut first_root: Option<PathBuf> = None;
        let mut workdir: Option<PathBuf> = None;
        let mappings = self.spec.args.clone();
        for m in &mappings {
            let is_path = m.read_path || m.write_path || m.kind == ArgKind::WorkingDir;
            let path_kind = matches!(
                m.kind,
                ArgKind::Positional | ArgKind::Flag | ArgKind::WorkingDir
            );
            if m.unsafe_path
                && (is_path || given(&self.args, &m.param).is_some())
                && self.unsafe_allowed(m)?
            {
                continue;
            }
            if !(is_path && path_kind) {
                if self.v05()
                    && matches!(m.kind, ArgKind::Positional | ArgKind::Flag)
                    && let Some(Value::String(s)) = given(&self.args, &m.param)
                {
                    let pieces: Vec<&str> = if m.split {
                        s.split_whitespace().collect()
                    } else {
                        vec![s.as_str()]
                    };
                    for piece in pieces.into_iter().filter(|p| !p.is_empty()) {
                        path_like(&m.param, piece).map_err(Refusal::from)?;
                    }
                }
                continue;
            }
            let write = m.write_path && m.kind != ArgKind::WorkingDir;
            let what = if write { "writePath" } else { "readPath" };
            if self.env.sandbox.is_empty() && self.env.preview {
                continue;
            }
            if self.env.sandbox.is_empty() {
                return Err(rejected(
                    self.tool,
                    format!(
                        "tool {} has {what} parameter '{}' but no sandbox is configured (give one with --sandbox DIR, or Policy::sandbox)",
                        self.tool, m.param
                    ),
                ));
            }
            let value = match given(&self.args, &m.param) {
                Some(v) => scalar(v).ok_or_else(|| {
                    rejected(
                        self.tool,
                        format!("{what} parameter {} must be a string", m.param),
                    )
                })?,
                None if m.optional && m.resolve_command.is_some() => String::new(),
                None if m.kind == ArgKind::Positional && !m.optional => {
                    return Err(rejected(
                        self.tool,
                        format!("missing {what} parameter: {}", m.param),
                    ));
                }
                None => continue,
            };
            // The value as given is a path too: a resolver never receives
            // one that escapes the sandbox (chai leaves that to the resolver).
            if m.resolve_command.is_some() && !value.is_empty() {
                self.env
                    .sandbox
                    .resolve(&m.param, &value, write)
                    .map_err(Refusal::from)?;
            }
            let value = self.resolve(m, value)?;
            if value.is_empty() && write {
                if given(&self.args, &m.param).is_some() {
                    return Err(rejected(
                        self.tool,
                        format!("parameter '{}': empty writePath value", m.param),
                    ));
                }
                continue;
            }
            let canonical = self
                .env
                .sandbox
                .resolve(&m.param, &value, write)
                .map_err(Refusal::from)?;
            if first_root.is_none() {
                first_root = self.env.sandbox.root_of(&canonical).map(PathBuf::from);
            }
            if m.kind == ArgKind::WorkingDir {
                workdir = Some(canonical.clone());
            }
            if write {
                self.write_paths.push(canonical.clone());
            }
            self.args.insert(
                m.param.clone(),
                Value::String(canonical.to_string_lossy().into_owned()),
            );
        }
        // A parameter that no mapping turns into argv only feeds resolver
        // or `postProcess` arguments: chai never checks it; here it gets the
        // path-like check like any other non-path value.
        for (name, value) in &self.args {
            if let Value::String(s) = value
                && !self.spec.args.iter().any(|m| m.param == *name)
            {
                path_like(name, s).map_err(Refusal::from)?;
            }
        }
        Ok(workdir
            .or(first_root)
            .or_else(|| self.env.sandbox.roots().first().cloned()))
    }

    /// V14: deny patterns, checked against the value after the path pass.
    fn deny(&mut self, cwd: Option<&PathBuf>) -> Result<(), Refusal> {
        let mappings = self.spec.args.clone();
        for m in &mappings {
            let Some(pattern) = &m.deny_pattern else {
                continue;
            };
            let raw = given(&self.args, &m.param)
                .filter(|_| {
                    matches!(
                        m.kind,
                        ArgKind::Positional | ArgKind::Flag | ArgKind::WorkingDir
                    )
                })
                .and_then(scalar)
                .filter(|s| !s.is_empty());
            let checked = match (&raw, m.deny_always_resolve, &m.deny_resolve_command) {
                (_, true, None) => {
                    return Err(rejected(
                        self.tool,
                        format!(
                            "denyAlwaysResolve is set on param '{}' but no denyResolveCommand is configured",
                            m.param
                        ),
                    ));
                }
                (Some(v), false, _) => Some(v.clone()),
                (_, _, Some(resolver)) => {
                    let workdir = cwd.map(|c| c.to_string_lossy().into_owned());
                    let args = match resolver {
                        ResolveCommand::Script { args, .. }
                        | ResolveCommand::Command { args, .. } => args
                            .iter()
                            .map(|a| match (a.as_str(), &workdir) {
                                ("$workingDir", Some(w)) => w.clone(),
                                ("$workingDir", None) => String::new(),
                                _ => a.clone(),
                            })
                            .collect(),
                    };
                    match (self.env.resolve)(&m.param, resolver, args) {
                        Ok(Some(out)) => Some(out),
                        Ok(None) => {
                            return Err(rejected(
                                self.tool,
                                "denyResolveCommand returned empty value",
                            ));
                        }
                        Err(e) => {
                            return Err(rejected(
                                self.tool,
                                format!("denyResolveCommand failed: {e}"),
                            ));
                        }
                    }
                }
                (None, false, None) => None,
            };
            let Some(value) = checked else {
                continue;
            };
            let re = regex::Regex::new(pattern).map_err(|e| {
                rejected(
                    self.tool,
                    format!(
                        "invalid denyPattern '{pattern}' on param '{}': {e}",
                        m.param
                    ),
                )
            })?;
            if re.is_match(&value) {
                return Err(rejected(
                    self.tool,
                    format!(
                        "protected value on param '{}': '{value}' matches deny pattern '{pattern}'",
                        m.param
                    ),
                ));
            }
        }
        Ok(())
    }

    /// V9–V11: argv tokens, stdin and temp files.
    fn build(&mut self, b: &mut ArgvBuilder) -> Result<(Option<Vec<u8>>, Vec<TempFile>), Refusal> {
        let mappings = self.spec.args.clone();
        let mut skipped_positional = false;
        for m in &mappings {
            let value = given(&self.args, &m.param).cloned();
            match m.kind {
                ArgKind::Positional => {
                    let value = match value.or_else(|| m.absent_default.clone()) {
                        Some(v) => Some(v),
                        None if !m.optional => {
                            return Err(ArgvError::Missing {
                                param: m.param.clone(),
                            }
                            .into());
                        }
                        None if m.resolve_command.is_some() => Some(Value::String(String::new())),
                        None => None,
                    };
                    let Some(value) = value else {
                        skipped_positional = true;
                        continue;
                    };
                    let text = self.text(m, &value)?;
                    let text = self.resolve(m, text)?;
                    if m.disambiguate_after_skipped_positionals && skipped_positional {
                        b.push_manifest("--".to_owned());
                    }
                    skipped_positional = false;
                    if m.split {
                        for piece in text.split_whitespace() {
                            b.push_value(
                                &m.param,
                                piece.to_owned(),
                                false,
                                None,
                                Origin::Positional,
                            )?;
                        }
                    } else {
                        b.push_value(&m.param, text, false, None, Origin::Positional)?;
                    }
                }
                ArgKind::Flag => {
                    let flag =
                        format_flag(self.spec.version, m.flag.as_deref().unwrap_or(&m.param));
                    let (text, numeric, optional_resolve) =
                        match value.or_else(|| m.absent_default.clone()) {
                            Some(v) => (self.text(m, &v)?, v.is_number(), false),
                            None if m.optional && m.resolve_command.is_some() => {
                                (String::new(), false, true)
                            }
                            None => continue,
                        };
                    let text = self.resolve(m, text)?;
                    if optional_resolve && text.is_empty() {
                        continue;
                    }
                    b.push_manifest(flag);
                    b.push_value(&m.param, text, false, None, Origin::FlagValue { numeric })?;
                }
                ArgKind::FlagIfBoolean => {
                    if m.subcommand_override.is_some() {
                        continue;
                    }
                    let value = value.or_else(|| m.absent_default.clone());
                    let chosen = if truthy(value.as_ref()) {
                        &m.flag_if_true
                    } else {
                        &m.flag_if_false
                    };
                    if let Some(flag) = chosen {
                        b.push_manifest(flag.clone());
                    }
                }
                ArgKind::Literal => {
                    if let Some(v) = &m.value {
                        b.push_manifest(v.clone());
                    }
                }
                ArgKind::Stdin | ArgKind::WorkingDir | ArgKind::TempFile => {}
            }
        }
        let stdin = match mappings.iter().find(|m| m.kind == ArgKind::Stdin) {
            Some(m) => match given(&self.args, &m.param).cloned() {
                Some(v) => {
                    let text = scalar(&v).ok_or_else(|| {
                        rejected(
                            self.tool,
                            format!(
                                "stdin parameter '{}' must be a string, number, or boolean",
                                m.param
                            ),
                        )
                    })?;
                    Some(self.resolve(m, text)?.into_bytes())
                }
                None if m.optional => None,
                None => {
                    return Err(rejected(
                        self.tool,
                        format!("missing required parameter: {}", m.param),
                    ));
                }
            },
            None => None,
        };
        let mut tempfiles = Vec::new();
        for m in mappings.iter().filter(|m| m.kind == ArgKind::TempFile) {
            let text = match given(&self.args, &m.param).cloned() {
                Some(v) => scalar(&v).ok_or_else(|| {
                    rejected(
                        self.tool,
                        format!(
                            "tempfile parameter '{}' must be a string, number, or boolean",
                            m.param
                        ),
                    )
                })?,
                None if m.optional => continue,
                None => {
                    return Err(rejected(
                        self.tool,
                        format!("missing required parameter: {}", m.param),
                    ));
                }
            };
            let content = self.resolve(m, text)?;
            b.push_manifest(format_flag(
                self.spec.version,
                m.flag.as_deref().unwrap_or(&m.param),
            ));
            b.push_manifest(placeholder(&m.param));
            tempfiles.push(TempFile {
                param: m.param.clone(),
                content: content.into_bytes(),
            });
        }
        Ok((stdin, tempfiles))
    }

    /// A value as one token: scalars only; legacy `normalizeNewlines`.
    fn text(&self, m: &ArgMapping, value: &Value) -> Result<String, Refusal> {
        let text = scalar(value).ok_or_else(|| ArgvError::NotScalar {
            param: m.param.clone(),
        })?;
        Ok(if m.normalize_newlines {
            normalize_newlines(text)
        } else {
            text
        })
    }
}

/// Prepares a chai call of `tool` by `spec` with the call's `args` (already
/// validated against the tool's schema).
pub(crate) fn prepare<'a>(
    tool: &str,
    spec: &ChaiExecution,
    args: &Map<String, Value>,
    env: &mut Env<'a>,
) -> Result<Prepared, Refusal> {
    let mut p = Preparer {
        tool,
        spec,
        env,
        args: args.clone(),
        write_paths: Vec::new(),
    };
    let cwd = if p.v05() { p.path_pass()? } else { None };
    p.deny(cwd.as_ref())?;
    let subcommand = spec
        .args
        .iter()
        .filter(|m| m.kind == ArgKind::FlagIfBoolean)
        .find_map(|m| {
            let value = given(&p.args, &m.param).or(m.absent_default.as_ref());
            m.subcommand_override.as_ref().filter(|_| truthy(value))
        })
        .unwrap_or(&spec.subcommand)
        .clone();
    let mut b =
        ArgvBuilder::new(&spec.binary, &subcommand).with_leading_dash(p.env.leading_dash.clone());
    let (stdin, tempfiles) = p.build(&mut b)?;
    let args_out = b.finish()?;
    let write_paths = std::mem::take(&mut p.write_paths);
    let mut arguments = p.args;
    for m in &spec.args {
        if matches!(
            m.kind,
            ArgKind::Positional | ArgKind::Flag | ArgKind::FlagIfBoolean
        ) && let Some(d) = &m.absent_default
            && given(&arguments, &m.param).is_none()
        {
            arguments.insert(m.param.clone(), d.clone());
        }
    }
    Ok(Prepared {
        wrapper: spec.binary_wrapper.clone(),
        binary: spec.binary.clone(),
        subcommand,
        args: args_out,
        stdin,
        cwd,
        tempfiles,
        write_paths,
        arguments,
    })
}

/// A tool's execution specs embedded by the code generator as JSON text,
/// parsed on first use.
#[derive(Debug)]
pub struct ChaiSpecs {
    text: &'static str,
    specs: std::sync::OnceLock<Vec<ChaiExecution>>,
}

impl ChaiSpecs {
    /// Wraps spec text produced by the code generator.
    pub const fn new(text: &'static str) -> Self {
        ChaiSpecs {
            text,
            specs: std::sync::OnceLock::new(),
        }
    }

    /// The specs (the generator wrote valid JSON; anything else reads as none,
    /// and every call is then refused with "no execution spec matches").
    pub fn get(&self) -> &[ChaiExecution] {
        self.specs
            .get_or_init(|| serde_json::from_str(self.text).unwrap_or_default())
    }
}

/// The invocation of a generated chai tool: its specs and the typed
/// arguments as JSON.
pub fn chai_invocation<T: serde::Serialize + ?Sized>(
    tool: &str,
    specs: &[ChaiExecution],
    args: &T,
    manifest_dir: Option<&str>,
) -> Result<super::Invocation, ArgvError> {
    let arguments = match serde_json::to_value(args) {
        Ok(Value::Object(map)) => map,
        Ok(_) => Map::new(),
        Err(e) => {
            return Err(ArgvError::Serialize {
                message: e.to_string(),
            });
        }
    };
    Ok(super::Invocation::chai(tool, specs.to_vec(), arguments).with_manifest_dir(manifest_dir))
}

/// The command a chai invocation would run, without a policy (no allowlist,
/// no sandbox, resolvers shown as `$(argv)`): what generated `argv()` returns.
pub fn chai_argv(inv: &super::Invocation) -> Result<Vec<String>, ArgvError> {
    let Some(call) = &inv.chai else {
        return Ok(inv.argv());
    };
    let refused = |e: Refusal| match e {
        Refusal::Argv(e) => e,
        other => ArgvError::Refused {
            message: other.to_string(),
        },
    };
    let spec = toolsmith_model::model::select_spec(&inv.tool, &call.specs, &call.arguments)
        .map_err(|message| ArgvError::Refused { message })?;
    let sandbox = Sandbox::default();
    let mut show = |_: &str, r: &ResolveCommand, args: Vec<String>| {
        let head = match r {
            ResolveCommand::Script { script, .. } => format!("sh scripts/{script}"),
            ResolveCommand::Command {
                binary, subcommand, ..
            } => format!("{binary} {subcommand}"),
        };
        Ok(Some(format!("$({head} {})", args.join(" "))))
    };
    let mut env = Env {
        sandbox: &sandbox,
        leading_dash: LeadingDash::Refuse,
        allow_unsafe_path: true,
        resolve: &mut show,
        preview: true,
    };
    let p = prepare(&inv.tool, spec, &call.arguments, &mut env).map_err(refused)?;
    let mut argv = p.wrapper;
    argv.push(p.binary);
    argv.extend(p.args);
    Ok(argv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn mapping(param: &str, kind: ArgKind) -> ArgMapping {
        ArgMapping::new(param, kind)
    }

    fn exec(args: Vec<ArgMapping>) -> ChaiExecution {
        ChaiExecution {
            binary: "ls".into(),
            subcommand: "sub".into(),
            args,
            ..ChaiExecution::default()
        }
    }

    fn v05(args: Vec<ArgMapping>) -> ChaiExecution {
        ChaiExecution {
            version: ChaiVersion::V05,
            ..exec(args)
        }
    }

    fn run(
        e: &ChaiExecution,
        v: Value,
        ld: &LeadingDash,
        sandbox: &Sandbox,
        resolved: Option<&str>,
    ) -> Result<Prepared, Refusal> {
        let mut resolve =
            |_: &str, _: &ResolveCommand, _: Vec<String>| Ok(resolved.map(str::to_owned));
        let mut env = Env {
            sandbox,
            leading_dash: ld.clone(),
            allow_unsafe_path: false,
            resolve: &mut resolve,
            preview: false,
        };
        prepare("t", e, v.as_object().unwrap(), &mut env)
    }

    fn build(e: &ChaiExecution, v: Value, ld: &LeadingDash) -> Result<Vec<String>, Refusal> {
        run(e, v, ld, &Sandbox::default(), None).map(|p| p.args)
    }

    fn argv_err(e: ArgvError) -> Result<Vec<String>, Refusal> {
        Err(Refusal::Argv(e))
    }

    #[test]
    fn chai_kinds() {
        let mut b = mapping("all", ArgKind::FlagIfBoolean);
        b.flag_if_true = Some("-a".into());
        b.flag_if_false = Some("--no-all".into());
        let mut f = mapping("limit", ArgKind::Flag);
        f.flag = Some("max".into());
        let e = exec(vec![b, f, mapping("path", ArgKind::Positional)]);
        let r = build(
            &e,
            json!({"all": "TRUE", "limit": 3, "path": "x"}),
            &LeadingDash::Refuse,
        );
        assert_eq!(r.unwrap(), ["sub", "-a", "--max", "3", "x"]);
        let r = build(&e, json!({"path": "x"}), &LeadingDash::Refuse).unwrap();
        assert_eq!(r, ["sub", "--no-all", "x"]);
        assert_eq!(
            build(&e, json!({}), &LeadingDash::Refuse),
            argv_err(ArgvError::Missing {
                param: "path".into()
            })
        );
    }

    #[test]
    fn empty_and_multi_word_subcommands() {
        let mut e = exec(vec![mapping("p", ArgKind::Positional)]);
        e.subcommand = String::new();
        assert_eq!(
            build(&e, json!({"p": "x"}), &LeadingDash::Refuse).unwrap(),
            ["x"]
        );
        e.subcommand = "skill  list".into();
        assert_eq!(
            build(&e, json!({"p": "x"}), &LeadingDash::Refuse).unwrap(),
            ["skill", "list", "x"]
        );
    }

    #[test]
    fn leading_dash_refused_or_marked() {
        let e = exec(vec![mapping("path", ArgKind::Positional)]);
        assert!(matches!(
            build(&e, json!({"path": "--version"}), &LeadingDash::Refuse),
            Err(Refusal::Argv(ArgvError::LeadingDash { .. }))
        ));
        let r = build(
            &e,
            json!({"path": "--version"}),
            &LeadingDash::Marker("--".into()),
        );
        assert_eq!(r.unwrap(), ["sub", "--", "--version"]);
        let e = exec(vec![
            mapping("path", ArgKind::Positional),
            mapping("n", ArgKind::Flag),
        ]);
        let marker = LeadingDash::Marker("--".into());
        assert!(build(&e, json!({"path": "-x", "n": 1}), &marker).is_err());
        let e = exec(vec![mapping("n", ArgKind::Flag)]);
        assert!(build(&e, json!({"n": -1}), &LeadingDash::Refuse).is_ok());
        assert!(build(&e, json!({"n": "-x"}), &LeadingDash::Refuse).is_err());
    }

    #[test]
    fn nul_and_size() {
        let e = exec(vec![mapping("p", ArgKind::Positional)]);
        assert_eq!(
            build(&e, json!({"p": "a\u{0}b"}), &LeadingDash::Refuse),
            argv_err(ArgvError::NulByte { param: "p".into() })
        );
        assert!(matches!(
            build(&e, json!({"p": "a".repeat(131_072)}), &LeadingDash::Refuse),
            Err(Refusal::Argv(ArgvError::TooLong { .. }))
        ));
        assert!(build(&e, json!({"p": "a".repeat(131_071)}), &LeadingDash::Refuse).is_ok());
    }

    #[test]
    fn resolved_values_are_checked() {
        let mut p = mapping("p", ArgKind::Positional);
        p.resolve_command = Some(ResolveCommand::Script {
            script: "resolve".into(),
            args: vec!["$param".into()],
        });
        let e = exec(vec![p]);
        let none = Sandbox::default();
        let args = || json!({"p": "today"});
        let resolved = |to, ld: LeadingDash| run(&e, args(), &ld, &none, Some(to)).map(|p| p.args);
        assert_eq!(
            resolved("2024-01-01", LeadingDash::Refuse).unwrap(),
            ["sub", "2024-01-01"]
        );
        assert!(resolved("-rf", LeadingDash::Refuse).is_err());
        assert_eq!(
            resolved("-rf", LeadingDash::Marker("--".into())).unwrap(),
            ["sub", "--", "-rf"]
        );
        assert!(resolved("a\0b", LeadingDash::Refuse).is_err());
    }

    #[test]
    fn v05_kinds_stdin_tempfile_literal_split_and_flags() {
        let mut split = mapping("paths", ArgKind::Positional);
        split.split = true;
        let mut lit = mapping("", ArgKind::Literal);
        lit.value = Some("--create".into());
        let mut tmp = mapping("pattern", ArgKind::TempFile);
        tmp.flag = Some("pattern-file".into());
        let mut short = mapping("n", ArgKind::Flag);
        short.flag = Some("--n".into());
        let mut dflt = mapping("count", ArgKind::Flag);
        dflt.absent_default = Some(json!(10));
        let e = v05(vec![
            tmp,
            split,
            lit,
            short,
            dflt,
            mapping("body", ArgKind::Stdin),
        ]);
        let p = build_full(
            &e,
            json!({"paths": "a b", "pattern": "x.*", "n": 2, "body": "hi"}),
        );
        assert_eq!(
            p.args,
            [
                "sub",
                "a",
                "b",
                "--create",
                "-n",
                "2",
                "--count",
                "10",
                "--pattern-file",
                "$TEMPFILE{pattern}"
            ]
        );
        assert_eq!(p.stdin.as_deref(), Some(&b"hi"[..]));
        assert_eq!(p.tempfiles[0].content, b"x.*");
        assert_eq!(p.arguments["count"], json!(10));
        // Each split piece is checked: chai lets `a /etc/passwd` through.
        assert!(matches!(
            run(
                &e,
                json!({"paths": "a /etc/passwd", "pattern": "x", "body": ""}),
                &LeadingDash::Refuse,
                &Sandbox::default(),
                None
            ),
            Err(Refusal::Path(_))
        ));
    }

    fn build_full(e: &ChaiExecution, v: Value) -> Prepared {
        run(e, v, &LeadingDash::Refuse, &Sandbox::default(), None).unwrap()
    }

    #[test]
    fn subcommand_override_and_disambiguation() {
        let mut cont = mapping("continue", ArgKind::FlagIfBoolean);
        cont.subcommand_override = Some("rebase --continue".into());
        let mut opt = mapping("onto", ArgKind::Positional);
        opt.optional = true;
        let mut path = mapping("path", ArgKind::Positional);
        path.disambiguate_after_skipped_positionals = true;
        let e = v05(vec![cont, opt, path]);
        let p = build_full(&e, json!({"continue": true, "path": "x"}));
        assert_eq!(p.subcommand, "rebase --continue");
        assert_eq!(p.args, ["rebase", "--continue", "--", "x"]);
        let p = build_full(&e, json!({"continue": false, "onto": "main", "path": "x"}));
        assert_eq!(p.args, ["sub", "main", "x"]);
    }

    #[test]
    fn sandbox_paths_become_canonical_and_set_the_working_directory() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let sandbox = Sandbox::new([dir.path()]).unwrap();
        let root = sandbox.roots()[0].clone();
        let mut read = mapping("path", ArgKind::Flag);
        read.read_path = true;
        let mut wd = mapping("repo", ArgKind::WorkingDir);
        wd.optional = true;
        let e = v05(vec![read, wd]);
        let p = run(
            &e,
            json!({"path": "sub/f.txt", "repo": "sub"}),
            &LeadingDash::Refuse,
            &sandbox,
            None,
        )
        .unwrap();
        let f = root.join("sub/f.txt").to_string_lossy().into_owned();
        assert_eq!(p.args, ["sub", "--path", f.as_str()]);
        assert_eq!(p.cwd, Some(root.join("sub")));
        let p = run(
            &e,
            json!({"path": "sub/f.txt"}),
            &LeadingDash::Refuse,
            &sandbox,
            None,
        )
        .unwrap();
        assert_eq!(p.cwd, Some(root.clone()));
        for escape in [
            "../x",
            "/etc/passwd",
            "sub/../../x",
            "~/x",
            "file:///etc/passwd",
        ] {
            assert!(
                run(
                    &e,
                    json!({"path": escape}),
                    &LeadingDash::Refuse,
                    &sandbox,
                    None
                )
                .is_err(),
                "{escape} escaped"
            );
        }
        // Without a sandbox a path parameter is refused, naming the flag.
        let err = run(
            &e,
            json!({"path": "a"}),
            &LeadingDash::Refuse,
            &Sandbox::default(),
            None,
        )
        .unwrap_err();
        assert!(err.to_string().contains("--sandbox"), "{err}");
    }

    #[test]
    fn deny_patterns_and_unsafe_path() {
        let mut branch = mapping("branch", ArgKind::Positional);
        branch.deny_pattern = Some("^(main|master)$".into());
        let e = v05(vec![branch]);
        let err = build(&e, json!({"branch": "main"}), &LeadingDash::Refuse).unwrap_err();
        assert_eq!(
            err.to_string(),
            "protected value on param 'branch': 'main' matches deny pattern '^(main|master)$'"
        );
        assert!(build(&e, json!({"branch": "feature"}), &LeadingDash::Refuse).is_ok());
        let mut raw = mapping("p", ArgKind::Positional);
        raw.unsafe_path = true;
        let e = v05(vec![raw]);
        assert!(build(&e, json!({"p": "/etc"}), &LeadingDash::Refuse).is_err());
    }

    #[test]
    fn resolver_input_and_unmapped_values_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        let sandbox = Sandbox::new([dir.path()]).unwrap();
        let mut repo = mapping("repo", ArgKind::WorkingDir);
        repo.optional = true;
        repo.resolve_command = Some(ResolveCommand::Command {
            binary: "chai".into(),
            subcommand: "resolve repo-path".into(),
            args: vec!["--path".into(), "$param".into()],
        });
        let e = v05(vec![repo]);
        let call = |v: Value| run(&e, v, &LeadingDash::Refuse, &sandbox, Some("."));
        assert!(call(json!({"repo": "."})).is_ok());
        // The resolver would not see these: the value as given escapes.
        for escape in ["../outside", "/etc", ".git", "~"] {
            assert!(
                matches!(call(json!({"repo": escape})), Err(Refusal::Path(_))),
                "{escape}"
            );
        }
        // `scope` feeds only a resolver or postProcess: V8 applies to it.
        assert!(matches!(
            call(json!({"scope": "../../.."})),
            Err(Refusal::Path(_))
        ));
        assert!(call(json!({"scope": "notes"})).is_ok());
    }

    #[test]
    fn v05_flag_formatting() {
        assert_eq!(format_flag(ChaiVersion::V05, "-p"), "-p");
        assert_eq!(format_flag(ChaiVersion::V05, "n"), "-n");
        assert_eq!(format_flag(ChaiVersion::V05, "--path"), "--path");
        assert_eq!(format_flag(ChaiVersion::V05, "é"), "--é");
        assert_eq!(format_flag(ChaiVersion::Legacy, "--x"), "----x");
    }
}

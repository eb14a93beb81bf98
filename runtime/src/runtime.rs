//! [`Runtime`]: validation, policy checks, resolve steps, execution, audit,
//! risk confirmation and batches.

use crate::audit::{Audit, Event};
use crate::catalog::Catalog;
use crate::outcome::Outcome;
use crate::policy::{Policy, is_denied_env, passthrough_warning};
use crate::process::{self, CancelToken, Spec};
use crate::program;
use crate::refusal::Refusal;
use crate::risk::RiskPolicy;
use crate::tool::argv::{ArgvBuilder, check_token};
use crate::tool::{CallError, Invocation, Tool, Violation};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use toolsmith_manifest::model::{self, Execution, Manifest, ResolveCommand};

/// A callback receiving lifecycle [`Event`]s.
pub type EventSink = Arc<dyn Fn(&Event) + Send + Sync>;

/// One tool call of a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// The tool name.
    pub name: String,
    /// The arguments JSON as the model wrote it.
    pub arguments: String,
}

/// A tool loaded from a manifest or catalog, checked once.
struct Entry {
    tool: model::Tool,
    validator: Result<jsonschema::Validator, String>,
    /// The canonical program, or why there is none.
    program: Result<PathBuf, Refusal>,
}

/// Executes tool calls: default-deny, no shell, bounded in time and memory, audited.
///
/// ```no_run
/// use toolsmith::{Policy, Runtime};
/// let rt = Runtime::load(std::path::Path::new("skills/coreutils/tools.json"), Policy::default())?;
/// let outcome = rt.dispatch("list_directory", r#"{"path": "."}"#)?;
/// println!("{}", outcome.to_json());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Runtime {
    policy: Policy,
    tools: BTreeMap<String, Entry>,
    audit: Option<Audit>,
    events: Option<EventSink>,
    risk: RiskPolicy,
    next_id: AtomicU64,
    warnings: Vec<String>,
}

impl std::fmt::Debug for Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime")
            .field("policy", &self.policy)
            .field("tools", &self.tools.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

/// Why a manifest could not be loaded.
#[derive(Debug, thiserror::Error)]
#[error("cannot load {path}:\n{}", diagnostics.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"))]
pub struct LoadError {
    /// The manifest path.
    pub path: String,
    /// The error diagnostics.
    pub diagnostics: Vec<toolsmith_manifest::diagnostic::Diagnostic>,
}

impl Runtime {
    /// A runtime with no tools.
    pub fn new(policy: Policy) -> Self {
        Runtime {
            policy,
            tools: BTreeMap::new(),
            audit: None,
            events: None,
            risk: RiskPolicy::default(),
            next_id: AtomicU64::new(1),
            warnings: Vec::new(),
        }
    }

    /// Loads a manifest file (chai, agentcli or describe) with the linter's
    /// rules; any error finding fails the load.
    pub fn load(path: &Path, policy: Policy) -> Result<Self, LoadError> {
        let display = path.display().to_string();
        let loaded =
            toolsmith_manifest::lint::load(path, &display, &Default::default()).map_err(|d| {
                LoadError {
                    path: display,
                    diagnostics: d.0,
                }
            })?;
        let mut rt = Runtime::new(policy);
        rt.add_manifest(&loaded.manifest);
        Ok(rt)
    }

    /// Adds the tools of a manifest: its chai allowlist joins the policy's,
    /// programs are resolved to canonical paths and schemas compiled now.
    pub fn add_manifest(&mut self, manifest: &Manifest) {
        for (binary, subs) in &manifest.allowlist {
            self.policy.allow_mut(binary, subs.iter().cloned());
        }
        let base = manifest
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        for tool in &manifest.tools {
            if let Execution::Command(c) = &tool.execution {
                self.warnings.extend(
                    c.env_passthrough
                        .iter()
                        .filter_map(|name| passthrough_warning(&tool.name, name)),
                );
            }
            let program = self.resolve_tool_program(&tool.execution, &base);
            self.insert(tool.clone(), program);
        }
    }

    /// Adds the tools of a discovered catalog (describe tools).
    pub fn add_catalog(&mut self, catalog: &Catalog) {
        for entry in &catalog.entries {
            let tool = entry.to_tool();
            self.insert(tool, Ok(entry.path.clone()));
        }
    }

    fn insert(&mut self, tool: model::Tool, program: Result<PathBuf, Refusal>) {
        let validator = jsonschema::validator_for(&tool.parameters).map_err(|e| e.to_string());
        self.tools.insert(
            tool.name.clone(),
            Entry {
                tool,
                validator,
                program,
            },
        );
    }

    fn resolve_tool_program(&self, exec: &Execution, base: &Path) -> Result<PathBuf, Refusal> {
        match exec {
            Execution::Chai(c) => program::resolve(&c.binary, &self.policy.path),
            Execution::Command(c) => {
                let written = c
                    .command
                    .first()
                    .map(|s| s.replace('\\', "/"))
                    .unwrap_or_default();
                if Path::new(&written).is_absolute() {
                    program::resolve(&written, &self.policy.path)
                } else {
                    program::resolve_within(&c.program, &base.join("tools/bin"))
                }
            }
            Execution::Describe(d) => {
                let dir = d.program.parent().unwrap_or(base);
                program::resolve_within(&d.program, dir)
            }
        }
    }

    /// Sets the audit sink.
    pub fn with_audit(mut self, audit: Audit) -> Self {
        self.audit = Some(audit);
        self
    }

    /// Sets the lifecycle event callback.
    pub fn with_events(mut self, sink: EventSink) -> Self {
        self.events = Some(sink);
        self
    }

    /// Sets the risk policy used by [`Runtime::run_batch`].
    pub fn with_risk(mut self, risk: RiskPolicy) -> Self {
        self.risk = risk;
        self
    }

    /// The policy in force (with the allowlists of loaded manifests).
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// Warnings found while loading manifests: passthrough environment names
    /// that are denied (the tool's calls are refused) or not known to be
    /// harmless ([`crate::policy::is_known_harmless_env`]).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The names of the loaded tools.
    pub fn tool_names(&self) -> impl Iterator<Item = &str> {
        self.tools.keys().map(String::as_str)
    }

    /// Runs a call of a generated tool type.
    pub fn run<T: Tool>(&self, call: &T) -> Result<Outcome, Refusal> {
        self.run_with(call, &CancelToken::new())
    }

    /// [`Runtime::run`] with a cancel token.
    pub fn run_with<T: Tool>(&self, call: &T, cancel: &CancelToken) -> Result<Outcome, Refusal> {
        let inv = call
            .invocation()
            .inspect_err(|e| self.rejected(T::NAME, &Refusal::Argv(e.clone())))?;
        self.run_invocation(inv, cancel)
            .inspect_err(|e| self.rejected(T::NAME, e))
    }

    /// Runs an [`Invocation`] built elsewhere (generated code).
    fn run_invocation(&self, inv: Invocation, cancel: &CancelToken) -> Result<Outcome, Refusal> {
        let entry = self.tools.get(&inv.tool);
        // The program of a loaded manifest entry is the one checked at load;
        // otherwise resolve now: bare names in the fixed PATH, absolute paths
        // canonicalized (and kept inside `tools/bin` when they name it).
        let written = Path::new(&inv.program);
        let program = match entry.map(|e| (&e.program, &e.tool.execution)) {
            Some((Ok(p), Execution::Chai(c))) if c.binary == inv.program => p.clone(),
            Some((Ok(p), Execution::Command(c)))
                if c.command.first() == Some(&inv.program) || c.program == written =>
            {
                p.clone()
            }
            Some((Ok(p), Execution::Describe(d))) if d.program == written => p.clone(),
            Some((Err(e), _)) => return Err(e.clone()),
            _ if written.is_absolute() => {
                match written.ancestors().find(|a| a.ends_with("tools/bin")) {
                    Some(bin) => program::resolve_within(written, bin)?,
                    None => program::resolve(&inv.program, &self.policy.path)?,
                }
            }
            _ if !inv.program.contains('/') => program::resolve(&inv.program, &self.policy.path)?,
            _ => return Err(Refusal::RelativeProgram(inv.program.clone())),
        };
        let in_manifest = entry.is_some_and(|e| e.program.as_ref().ok() == Some(&program));
        let sub = inv.subcommand.as_deref();
        let allowed = match sub {
            Some(_) => self.policy.allows(&inv.program, sub),
            None => {
                in_manifest
                    || self.policy.allows(&inv.program, None)
                    || self.policy.allows(&program.to_string_lossy(), None)
            }
        };
        if !allowed {
            return Err(Refusal::NotAllowlisted {
                binary: inv.program.clone(),
                subcommand: inv.subcommand.clone(),
            });
        }
        // chai: the subcommand comes from the manifest and stays first.
        if sub.is_some() && inv.args.first().map(String::as_str) != sub {
            return Err(Refusal::NotAllowlisted {
                binary: inv.program.clone(),
                subcommand: inv.args.first().cloned(),
            });
        }
        let skill_dir = match entry.map(|e| &e.tool.execution) {
            Some(Execution::Chai(c)) => Some(c.skill_dir.clone()),
            _ => None,
        };
        let mut builder = ArgvBuilder::from_invocation(&inv);
        let resolving = self.run_resolvers(&inv.tool, &mut builder, skill_dir.as_deref(), cancel);
        let argv = builder.finish()?;
        let json_contract = inv.stdin.is_some();
        let prepared = Prepared {
            tool: inv.tool,
            program,
            argv,
            stdin: inv.stdin,
            env_names: inv.env_passthrough,
            timeout: inv.timeout,
            json_contract,
            resolving,
        };
        self.execute(prepared, cancel)
    }

    /// Runs a call of a tool loaded at run time, given the arguments JSON as
    /// the model wrote it: parsed and validated against the tool's schema
    /// (every violation reported), then executed.
    pub fn dispatch(&self, name: &str, arguments_json: &str) -> Result<Outcome, Refusal> {
        self.dispatch_with(name, arguments_json, &CancelToken::new())
    }

    /// [`Runtime::dispatch`] with a cancel token.
    pub fn dispatch_with(
        &self,
        name: &str,
        arguments_json: &str,
        cancel: &CancelToken,
    ) -> Result<Outcome, Refusal> {
        self.dispatch_inner(name, arguments_json, cancel)
            .inspect_err(|e| self.rejected(name, e))
    }

    /// Parses and validates a call without running it (what [`Runtime::dispatch`]
    /// checks first): unknown tool, invalid JSON, every schema violation.
    pub fn validate_call(&self, name: &str, arguments_json: &str) -> Result<Value, Refusal> {
        let entry = self
            .tools
            .get(name)
            .ok_or_else(|| CallError::UnknownTool(name.to_string()))?;
        validate(entry, arguments_json)
    }

    fn dispatch_inner(
        &self,
        name: &str,
        arguments_json: &str,
        cancel: &CancelToken,
    ) -> Result<Outcome, Refusal> {
        let entry = self
            .tools
            .get(name)
            .ok_or_else(|| CallError::UnknownTool(name.to_string()))?;
        let args = validate(entry, arguments_json)?;
        let program = entry.program.clone()?;
        let prepared = match &entry.tool.execution {
            Execution::Chai(c) => {
                if !self.policy.allows(&c.binary, Some(&c.subcommand)) {
                    return Err(Refusal::NotAllowlisted {
                        binary: c.binary.clone(),
                        subcommand: Some(c.subcommand.clone()),
                    });
                }
                let obj = args.as_object().ok_or_else(|| not_object(name))?;
                let mut builder = ArgvBuilder::chai(c, obj, self.policy.leading_dash.clone())?;
                let resolving = self.run_resolvers(name, &mut builder, Some(&c.skill_dir), cancel);
                Prepared {
                    resolving,
                    tool: name.to_string(),
                    program,
                    argv: builder.finish()?,
                    stdin: None,
                    env_names: Vec::new(),
                    timeout: None,
                    json_contract: false,
                }
            }
            Execution::Command(c) => {
                let stdin = if arguments_json.trim().is_empty() {
                    b"{}".to_vec()
                } else {
                    arguments_json.as_bytes().to_vec()
                };
                Prepared {
                    tool: name.to_string(),
                    program,
                    argv: c.command.iter().skip(1).cloned().collect(),
                    stdin: Some(stdin),
                    env_names: c.env_passthrough.clone(),
                    timeout: c.timeout_sec.map(Duration::from_secs),
                    json_contract: true,
                    resolving: Duration::ZERO,
                }
            }
            Execution::Describe(_) => {
                if name.is_empty() || name.contains(['/', '\\', '\0']) || name.contains("..") {
                    return Err(Refusal::InvalidName(name.to_string()));
                }
                let text = args.to_string();
                check_token("arguments", &text)?;
                Prepared {
                    tool: name.to_string(),
                    program,
                    argv: vec![text],
                    stdin: None,
                    env_names: Vec::new(),
                    timeout: None,
                    json_contract: false,
                    resolving: Duration::ZERO,
                }
            }
        };
        self.execute(prepared, cancel)
    }

    /// Runs `resolveCommand` steps: the trimmed stdout of a successful resolver
    /// replaces the value; on failure or empty output the value stays (chai's
    /// behaviour). Every step is audited. Returns the time they took, which
    /// counts against the call's deadline and duration.
    fn run_resolvers(
        &self,
        tool: &str,
        builder: &mut ArgvBuilder,
        skill_dir: Option<&Path>,
        cancel: &CancelToken,
    ) -> Duration {
        let start = Instant::now();
        builder.resolve_with(|step, value| {
            let (mode, result) = self.resolve_one(&step.resolver, value, skill_dir, cancel);
            let record = match &result {
                Ok(Some(_)) => {
                    json!({"tool": tool, "param": step.param, "mode": mode, "result": "replaced"})
                }
                Ok(None) => {
                    json!({"tool": tool, "param": step.param, "mode": mode, "result": "kept"})
                }
                Err(reason) => {
                    json!({"tool": tool, "param": step.param, "mode": mode, "result": "kept", "reason": reason})
                }
            };
            if let Some(a) = &self.audit {
                a.record("resolve_command", record, &self.policy.redact);
            }
            result.ok().flatten()
        });
        start.elapsed()
    }

    /// One resolver: `Ok(Some(new))`, `Ok(None)` to keep the value, or `Err(why it was kept)`.
    fn resolve_one(
        &self,
        resolver: &ResolveCommand,
        value: &str,
        skill_dir: Option<&Path>,
        cancel: &CancelToken,
    ) -> (&'static str, Result<Option<String>, String>) {
        let subst = |args: &[String]| -> Vec<String> {
            args.iter().map(|a| a.replace("$param", value)).collect()
        };
        let (mode, program, argv) = match resolver {
            ResolveCommand::Script { script, args } => {
                if !self.policy.allow_scripts {
                    return ("script", Err("scripts are not allowed".into()));
                }
                let Some(dir) = skill_dir else {
                    return ("script", Err("no skill directory".into()));
                };
                match script_path(dir, script).and_then(|p| {
                    let sh = program::resolve("sh", &self.policy.path)?;
                    Ok((sh, p))
                }) {
                    Ok((sh, path)) => {
                        let mut argv = vec![path.to_string_lossy().into_owned()];
                        argv.extend(subst(args));
                        ("script", sh, argv)
                    }
                    Err(e) => return ("script", Err(e.to_string())),
                }
            }
            ResolveCommand::Command {
                binary,
                subcommand,
                args,
            } => {
                if !self.policy.allows(binary, Some(subcommand)) {
                    return (
                        "command",
                        Err(format!("not allowlisted: {binary} {subcommand}")),
                    );
                }
                let program = match program::resolve(binary, &self.policy.path) {
                    Ok(p) => p,
                    Err(e) => return ("command", Err(e.to_string())),
                };
                let mut argv = vec![subcommand.clone()];
                argv.extend(subst(args));
                ("command", program, argv)
            }
        };
        if let Some(bad) = argv
            .iter()
            .find(|a| check_token("resolveCommand", a).is_err())
        {
            return (mode, Err(format!("invalid resolver argument {bad:?}")));
        }
        let spec = Spec {
            program,
            args: argv,
            env: self.base_env(),
            stdin: None,
            cwd: self.policy.working_dir.clone(),
            home: self.policy.home.clone(),
            timeout: self.policy.helper_timeout,
            max_output: self.policy.max_output,
            drain: self.policy.drain(),
            kill_group_on_exit: self.policy.kill_group_on_exit,
        };
        match process::execute(&spec, cancel, &mut |_| {}) {
            Ok(o) if o.is_success() => {
                let t = o.stdout.trim();
                if t.is_empty() {
                    (mode, Ok(None))
                } else {
                    (mode, Ok(Some(t.to_string())))
                }
            }
            Ok(o) => (mode, Err(format!("resolver {}", o.status.as_str()))),
            Err(e) => (mode, Err(e.to_string())),
        }
    }

    /// `PATH` and the policy's fixed variables (`HOME` is set by the spawn).
    fn base_env(&self) -> Vec<(String, OsString)> {
        let mut env = vec![("PATH".to_string(), OsString::from(&self.policy.path))];
        env.extend(
            self.policy
                .set_env
                .iter()
                .map(|(k, v)| (k.clone(), OsString::from(v))),
        );
        env
    }

    fn execute(&self, p: Prepared, cancel: &CancelToken) -> Result<Outcome, Refusal> {
        let mut env = self.base_env();
        let mut passed: Vec<String> = self.policy.set_env.keys().cloned().collect();
        if let Some(name) = self.policy.set_env.keys().find(|k| is_denied_env(k)) {
            return Err(Refusal::DeniedEnv(name.clone()));
        }
        for name in &p.env_names {
            if is_denied_env(name) {
                return Err(Refusal::DeniedEnv(name.clone()));
            }
            if let Some(v) = std::env::var_os(name) {
                env.push((name.clone(), v));
                passed.push(name.clone());
            }
        }
        let spec = Spec {
            program: p.program.clone(),
            args: p.argv,
            env,
            stdin: p.stdin,
            cwd: self.policy.working_dir.clone(),
            home: self.policy.home.clone(),
            timeout: p
                .timeout
                .unwrap_or(self.policy.default_timeout)
                .saturating_sub(p.resolving),
            max_output: self.policy.max_output,
            drain: self.policy.drain(),
            kill_group_on_exit: self.policy.kill_group_on_exit,
        };
        let (total, limit) = (spec.exec_size(), process::arg_limit());
        if total > limit {
            return Err(Refusal::ArgvTooLarge { total, limit });
        }
        let call_id = self.next_id.fetch_add(1, Ordering::Relaxed);
        if let Some(a) = &self.audit {
            let mut argv = vec![p.program.to_string_lossy().into_owned()];
            argv.extend(spec.args.iter().cloned());
            a.record(
                "tool_call_requested",
                json!({"call_id": call_id, "tool": p.tool, "argv": argv, "env_keys": passed}),
                &self.policy.redact,
            );
        }
        self.emit(Event::Start {
            call_id,
            tool: p.tool.clone(),
        });
        let tool = p.tool.clone();
        let mut beat = |elapsed| {
            self.emit(Event::Heartbeat {
                call_id,
                tool: tool.clone(),
                elapsed,
            })
        };
        let result = process::execute(&spec, cancel, &mut beat);
        match result {
            Ok(mut outcome) => {
                outcome.duration += p.resolving;
                if p.json_contract {
                    outcome.apply_json_contract();
                }
                if let Some(a) = &self.audit {
                    a.record(
                        "tool_call_completed",
                        json!({
                            "call_id": call_id, "tool": p.tool, "status": outcome.status.as_str(),
                            "exit_code": outcome.exit_code, "signal": outcome.signal,
                            "truncated": outcome.truncated, "output_incomplete": outcome.output_incomplete,
                            "duration_ms": u64::try_from(outcome.duration.as_millis()).unwrap_or(u64::MAX),
                        }),
                        &self.policy.redact,
                    );
                }
                self.emit(Event::End {
                    call_id,
                    tool: p.tool,
                    status: outcome.status.as_str(),
                    duration: outcome.duration,
                });
                Ok(outcome)
            }
            Err(e) => {
                self.emit(Event::End {
                    call_id,
                    tool: p.tool.clone(),
                    status: "spawn_failed",
                    duration: Duration::ZERO,
                });
                Err(Refusal::Spawn {
                    program: p.program.display().to_string(),
                    message: e.to_string(),
                })
            }
        }
    }

    fn emit(&self, event: Event) {
        if let Some(sink) = &self.events {
            sink(&event);
        }
    }

    fn rejected(&self, tool: &str, why: &Refusal) {
        if let Some(a) = &self.audit {
            a.record(
                "tool_call_rejected",
                json!({"tool": tool, "kind": why.kind(), "reason": why.to_string()}),
                &self.policy.redact,
            );
        }
    }

    /// Runs the calls of one model turn. Contiguous calls that need no
    /// confirmation run concurrently; a call that needs one (see
    /// [`RiskPolicy::needs_confirmation`]) waits for the calls before it, then
    /// runs alone if `confirm` says yes. Results come back in call order.
    pub fn run_batch(
        &self,
        calls: &[Call],
        confirm: &mut dyn FnMut(&Call) -> bool,
    ) -> Vec<Result<Outcome, Refusal>> {
        let mut results: Vec<Result<Outcome, Refusal>> = Vec::with_capacity(calls.len());
        let mut group: Vec<&Call> = Vec::new();
        for call in calls {
            if !self.risk.needs_confirmation(&call.name) {
                group.push(call);
                continue;
            }
            results.extend(self.run_concurrently(&group));
            group.clear();
            if confirm(call) {
                results.push(self.dispatch(&call.name, &call.arguments));
            } else {
                let refusal = Refusal::NotConfirmed(call.name.clone());
                self.rejected(&call.name, &refusal);
                results.push(Err(refusal));
            }
        }
        results.extend(self.run_concurrently(&group));
        results
    }

    fn run_concurrently(&self, calls: &[&Call]) -> Vec<Result<Outcome, Refusal>> {
        if let [call] = calls {
            return vec![self.dispatch(&call.name, &call.arguments)];
        }
        std::thread::scope(|s| {
            let handles: Vec<_> = calls
                .iter()
                .map(|c| s.spawn(move || self.dispatch(&c.name, &c.arguments)))
                .collect();
            handles
                .into_iter()
                .zip(calls)
                .map(|(h, c)| {
                    h.join().unwrap_or_else(|_| {
                        Err(Refusal::Spawn {
                            program: c.name.clone(),
                            message: "call panicked".into(),
                        })
                    })
                })
                .collect()
        })
    }
}

/// A call after every check, ready to spawn.
struct Prepared {
    tool: String,
    program: PathBuf,
    argv: Vec<String>,
    stdin: Option<Vec<u8>>,
    env_names: Vec<String>,
    timeout: Option<Duration>,
    json_contract: bool,
    /// Time spent in `resolveCommand` steps (part of the call's deadline).
    resolving: Duration,
}

/// Parses and validates the arguments (as `ToolCall::parse` does).
fn validate(entry: &Entry, arguments_json: &str) -> Result<Value, Refusal> {
    let tool = &entry.tool.name;
    let args: Value = if arguments_json.trim().is_empty() {
        json!({})
    } else {
        serde_json::from_str(arguments_json).map_err(|e| CallError::InvalidJson {
            tool: tool.clone(),
            message: e.to_string(),
        })?
    };
    let validator = entry
        .validator
        .as_ref()
        .map_err(|m| Refusal::InvalidSchema {
            tool: tool.clone(),
            message: m.clone(),
        })?;
    let violations: Vec<Violation> = validator
        .iter_errors(&args)
        .map(|e| Violation {
            pointer: e.instance_path().to_string(),
            message: e.to_string(),
        })
        .collect();
    if !violations.is_empty() {
        return Err(CallError::InvalidArguments {
            tool: tool.clone(),
            violations,
        }
        .into());
    }
    Ok(args)
}

fn not_object(tool: &str) -> Refusal {
    CallError::InvalidArguments {
        tool: tool.to_string(),
        violations: vec![Violation {
            pointer: String::new(),
            message: "arguments must be an object".into(),
        }],
    }
    .into()
}

/// `<skill>/scripts/<name>` (chai: an extension is replaced by `.sh` when the
/// file is absent), canonical and inside `scripts/`.
fn script_path(skill_dir: &Path, script: &str) -> Result<PathBuf, Refusal> {
    let valid = !script.is_empty()
        && !script.contains("..")
        && script
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if !valid {
        return Err(Refusal::InvalidName(script.to_string()));
    }
    let scripts = skill_dir.join("scripts");
    let mut path = scripts.join(script);
    if !path.is_file() {
        path.set_extension("sh");
    }
    let root = scripts
        .canonicalize()
        .map_err(|e| Refusal::ProgramNotFound {
            program: script.to_string(),
            reason: e.to_string(),
        })?;
    let resolved = path.canonicalize().map_err(|e| Refusal::ProgramNotFound {
        program: script.to_string(),
        reason: e.to_string(),
    })?;
    if !resolved.starts_with(&root) || !resolved.is_file() {
        return Err(Refusal::EscapingPath {
            path,
            resolved,
            root,
        });
    }
    Ok(resolved)
}

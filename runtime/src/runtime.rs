//! [`Runtime`]: policy checks, resolve steps, execution, audit and events;
//! with the `load` feature ([`load`](self::load)) also manifests loaded at
//! run time, validation, risk confirmation and batches.

#[cfg(feature = "load")]
mod load;
#[cfg(feature = "load")]
pub use load::{LoadError, ModelCall};

use crate::audit::{Audit, Event};
use crate::outcome::Outcome;
use crate::outcome::Status;
use crate::output;
use crate::plan::{Hidden, OutputPlan, Plan, PostProcessPlan};
use crate::policy::{Policy, is_denied_env};
use crate::process::{self, CancelToken, Spec};
use crate::program;
use crate::refusal::Refusal;
use crate::tool::argv::check_token;
use crate::tool::chai;
use crate::tool::{ArgvError, Call, Invocation, Tool};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use toolsmith_model::model::{
    self, ChaiExecution, ChaiVersion, Execution, ResolveCommand, SideRead, select_spec,
};

/// A callback receiving lifecycle [`Event`]s.
pub type EventSink = Arc<dyn Fn(&Event) + Send + Sync>;

/// A tool loaded from a manifest or catalog, checked once.
struct Entry {
    tool: model::Tool,
    /// Compiled at the tool's first call, so that loading a manifest
    /// compiles nothing and a call compiles only its own tool's schema.
    #[cfg(feature = "load")]
    validator: crate::tool::call::CompiledSchema,
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
    #[cfg(feature = "load")]
    risk: crate::risk::RiskPolicy,
    next_id: AtomicU64,
    warnings: Vec<String>,
    root: Option<PathBuf>,
}

impl std::fmt::Debug for Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime")
            .field("policy", &self.policy)
            .field("tools", &self.tools.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl Runtime {
    /// A runtime with no tools.
    pub fn new(policy: Policy) -> Self {
        Runtime {
            policy,
            tools: BTreeMap::new(),
            audit: None,
            events: None,
            #[cfg(feature = "load")]
            risk: Default::default(),
            next_id: AtomicU64::new(1),
            warnings: Vec::new(),
            root: None,
        }
    }

    /// Sets the root that generated code's manifest-relative paths are
    /// resolved against: agentcli programs (`./tools/bin/x`, which must stay
    /// inside `ROOT/tools/bin` after canonicalization, symlinks included),
    /// describe programs (`./get_weather`, inside their directory) and a chai
    /// tool's skill directory (its `scripts/` for `resolveCommand` and
    /// `postProcess`). Ship the manifest's directory with the program and
    /// point the root at it. Without a root, the directory recorded when
    /// `tools!` expanded is used (`MANIFEST_DIR`: right only on the build
    /// machine), and code from `toolsmith gen`, which records none, has its
    /// relative programs refused. Manifests loaded at run time
    /// ([`Runtime::load`]) keep resolving against their own directory. A
    /// relative `root` is made absolute against the current directory now.
    ///
    /// ```no_run
    /// # mod tools { toolsmith::tools!("../fixtures/examples/coreutils-skill/tools.json"); }
    /// let exe_dir = std::env::current_exe()?.parent().unwrap().to_path_buf();
    /// let runtime = toolsmith::Runtime::new(tools::policy()).with_root(exe_dir.join("tools"));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn with_root(mut self, root: impl AsRef<Path>) -> Self {
        let root = root.as_ref();
        self.root = Some(std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf()));
        self
    }

    /// The root set with [`Runtime::with_root`].
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// The directory an invocation's manifest-relative paths resolve
    /// against: the runtime's root, else the one the invocation recorded.
    fn root_for<'a>(&'a self, inv: &'a Invocation) -> Option<&'a Path> {
        self.root.as_deref().or(inv.manifest_dir.as_deref())
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

    /// Runs a call of a generated tool type: [`Runtime::plan`] then [`Runtime::run_plan`].
    pub fn run<T: Tool>(&self, call: &T) -> Result<Outcome, Refusal> {
        self.run_call_with(call, &CancelToken::new())
    }

    /// [`Runtime::run`] with a cancel token.
    pub fn run_with<T: Tool>(&self, call: &T, cancel: &CancelToken) -> Result<Outcome, Refusal> {
        self.run_call_with(call, cancel)
    }

    /// Runs any [`Call`]: a generated `ToolCall` (what `ToolCall::parse`
    /// returned for the model's call) or a typed `…Args` value.
    ///
    /// ```no_run
    /// # mod notes { toolsmith::tools!("../fixtures/examples/coreutils-skill/tools.json"); }
    /// use toolsmith::{Runtime};
    /// let call = notes::ToolCall::parse("list_directory", r#"{"path": "."}"#)?;
    /// let rt = Runtime::new(notes::policy());
    /// let outcome = rt.run_call(&call)?;
    /// println!("{}", outcome.for_model());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_call(&self, call: &(impl Call + ?Sized)) -> Result<Outcome, Refusal> {
        self.run_call_with(call, &CancelToken::new())
    }

    /// [`Runtime::run_call`] with a cancel token.
    pub fn run_call_with(
        &self,
        call: &(impl Call + ?Sized),
        cancel: &CancelToken,
    ) -> Result<Outcome, Refusal> {
        let name = call.name().to_owned();
        self.plan_with(call, true)
            .and_then(|plan| self.run_plan_with(plan, cancel))
            .inspect_err(|e| self.rejected(&name, e))
    }

    /// Everything a call would run, decided without running it: program,
    /// argv, stdin, working directory, environment, temp files, timeout and
    /// output pipeline. `resolveCommand` steps run (their output is part of
    /// argv); see [`Runtime::plan_with`] to show them instead.
    pub fn plan(&self, call: &(impl Call + ?Sized)) -> Result<Plan, Refusal> {
        self.plan_with(call, true)
    }

    /// [`Runtime::plan`]; with `run_resolvers` false a resolver's value is
    /// shown as `$(its argv)` instead of running it.
    pub fn plan_with(
        &self,
        call: &(impl Call + ?Sized),
        run_resolvers: bool,
    ) -> Result<Plan, Refusal> {
        let inv = call.invocation()?;
        self.plan_invocation(inv, run_resolvers, &CancelToken::new())
    }

    /// Runs a plan exactly as made. Refused only for what can change between
    /// planning and running: a program missing or replaced on disk.
    pub fn run_plan(&self, plan: Plan) -> Result<Outcome, Refusal> {
        self.run_plan_with(plan, &CancelToken::new())
    }

    /// [`Runtime::run_plan`] with a cancel token.
    pub fn run_plan_with(&self, plan: Plan, cancel: &CancelToken) -> Result<Outcome, Refusal> {
        let Some(program) = plan.program.clone() else {
            return Err(Refusal::ProgramNotFound {
                program: plan
                    .argv
                    .first()
                    .map(|a| a.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                reason: plan.problems.join("; "),
            });
        };
        if identity(&program) != plan.hidden.identity {
            return Err(Refusal::ProgramChanged(program));
        }
        // Missing parents of write paths are made, inside the sandbox only
        // (chai makes them too; the targets were checked when planned).
        for target in &plan.hidden.write_paths {
            if let Some(parent) = target.parent()
                && self.policy.sandbox.root_of(parent).is_some()
            {
                std::fs::create_dir_all(parent).map_err(|e| spawn_error(&program, &e))?;
            }
        }
        // Temp files: a private directory (0700) per call, files 0600,
        // removed when `_dir` drops, after the process has ended.
        let mut args: Vec<String> = plan
            .argv
            .iter()
            .skip(1)
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let _dir = if plan.tempfiles.is_empty() {
            None
        } else {
            let dir = tempfile::Builder::new()
                .prefix("toolsmith-")
                .tempdir()
                .map_err(|e| spawn_error(&program, &e))?;
            // Placeholders are the last tokens (flag, path per file): a
            // value the model wrote never becomes a temp file's path.
            let tail = args.len().saturating_sub(2 * plan.tempfiles.len());
            for t in &plan.tempfiles {
                let path = dir.path().join(sanitize(&t.param));
                write_private(&path, &t.content).map_err(|e| spawn_error(&program, &e))?;
                let placeholder = t.placeholder();
                let real = path.to_string_lossy().into_owned();
                for a in args[tail..].iter_mut().filter(|a| **a == placeholder) {
                    a.clone_from(&real);
                }
            }
            Some(dir)
        };
        let spec = Spec {
            program: program.clone(),
            args,
            env: plan.hidden.env.clone(),
            stdin: plan.stdin.clone(),
            cwd: plan.cwd.clone().or_else(|| self.policy.working_dir.clone()),
            home: self.policy.home.clone(),
            timeout: plan.timeout.saturating_sub(plan.hidden.resolving),
            max_output: plan.max_output,
            drain: self.policy.drain(),
            kill_group_on_exit: self.policy.kill_group_on_exit,
            confine: self.confinement_for(&plan.tool),
            read_roots: _dir
                .iter()
                .map(|d| d.path().to_path_buf())
                .chain(plan.hidden.read_roots.iter().cloned())
                .collect(),
            write_roots: plan.hidden.write_roots.clone(),
        };
        let (total, limit) = (spec.exec_size(), process::arg_limit());
        if total > limit {
            return Err(Refusal::ArgvTooLarge { total, limit });
        }
        let call_id = self.next_id.fetch_add(1, Ordering::Relaxed);
        if let Some(a) = &self.audit {
            let argv: Vec<String> = plan
                .argv
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            let env_keys: Vec<&String> = plan.env.iter().map(|(k, _)| k).collect();
            a.record(
                "tool_call_requested",
                json!({"call_id": call_id, "tool": plan.tool, "argv": argv, "env_keys": env_keys}),
                &self.policy.redact,
            );
        }
        self.emit(Event::Start {
            call_id,
            tool: plan.tool.clone(),
        });
        let tool = plan.tool.clone();
        let mut beat = |elapsed| {
            self.emit(Event::Heartbeat {
                call_id,
                tool: tool.clone(),
                elapsed,
            })
        };
        let mut outcome = match process::execute(&spec, cancel, &mut beat) {
            Ok(o) => o,
            Err(e) => {
                self.emit(Event::End {
                    call_id,
                    tool: plan.tool.clone(),
                    status: "spawn_failed",
                    duration: Duration::ZERO,
                });
                return Err(spawn_error(&program, &e));
            }
        };
        outcome.duration += plan.hidden.resolving;
        if plan.hidden.json_contract {
            outcome.apply_json_contract();
        }
        if plan.hidden.pipeline {
            self.apply_pipeline(&plan, &mut outcome, cancel);
        }
        if let Some(a) = &self.audit {
            a.record(
                "tool_call_completed",
                json!({
                    "call_id": call_id, "tool": plan.tool, "status": outcome.status.as_str(),
                    "exit_code": outcome.exit_code, "signal": outcome.signal,
                    "truncated": outcome.truncated, "output_incomplete": outcome.output_incomplete,
                    "duration_ms": u64::try_from(outcome.duration.as_millis()).unwrap_or(u64::MAX),
                }),
                &self.policy.redact,
            );
        }
        self.emit(Event::End {
            call_id,
            tool: plan.tool,
            status: outcome.status.as_str(),
            duration: outcome.duration,
        });
        Ok(outcome)
    }

    /// chai v0.5's output pipeline (see `crate::output`) applied to a call that
    /// ran; the result the model gets is `outcome.result`.
    fn apply_pipeline(&self, plan: &Plan, outcome: &mut Outcome, cancel: &CancelToken) {
        let code = match outcome.status {
            Status::Success => 0,
            Status::Failed { code: Some(c) } if plan.output.success_exit_codes.contains(&c) => c,
            _ => return,
        };
        outcome.status = Status::Success;
        let merged = output::merge(&outcome.stdout, &outcome.stderr);
        let text = self.pipeline(plan, merged, code, true, cancel);
        outcome.result = Some(Value::String(text));
    }

    /// What the model would get if the planned program printed `stdout` and
    /// exited with `exit_code` (`--simulated-output`): `None` when that exit
    /// code is a failure (`successExitCodes` does not list it). The
    /// post-processor runs only with `run_post_process`.
    pub fn simulate(
        &self,
        plan: &Plan,
        stdout: &str,
        exit_code: i32,
        run_post_process: bool,
    ) -> Option<String> {
        if exit_code != 0 && !plan.output.success_exit_codes.contains(&exit_code) {
            return None;
        }
        if !plan.hidden.pipeline {
            return Some(stdout.to_owned());
        }
        Some(self.pipeline(
            plan,
            stdout.to_owned(),
            exit_code,
            run_post_process,
            &CancelToken::new(),
        ))
    }

    /// O2–O5 on the merged output of a successful call: postProcess, hints,
    /// truncation, sideRead.
    fn pipeline(
        &self,
        plan: &Plan,
        mut text: String,
        code: i32,
        run_post_process: bool,
        cancel: &CancelToken,
    ) -> String {
        let out = &plan.output;
        if let Some(post) = out.post_process.as_ref().filter(|_| run_post_process)
            && let Some(program) = &post.program
        {
            let mut env = plan.hidden.env.clone();
            env.push(("CHAI_EXIT_CODE".into(), OsString::from(code.to_string())));
            let spec = Spec {
                program: program.clone(),
                args: post.argv.clone(),
                env,
                stdin: Some(text.clone().into_bytes()),
                cwd: self.policy.working_dir.clone(),
                home: self.policy.home.clone(),
                timeout: self.policy.helper_timeout,
                max_output: plan.max_output,
                drain: self.policy.drain(),
                kill_group_on_exit: self.policy.kill_group_on_exit,
                confine: self.policy.confine.clone(),
                read_roots: plan
                    .hidden
                    .skill_dir
                    .as_deref()
                    .map(|d| self.helper_read_roots(d, true))
                    .unwrap_or_default(),
                write_roots: Vec::new(),
            };
            if let Ok(o) = process::execute(&spec, cancel, &mut |_| {})
                && o.is_success()
                && (!o.stdout.is_empty() || post.empty_is_result)
            {
                text = o.stdout;
            }
        }
        text = output::apply_hints(&text, code, &out.hint_conditions, &out.arguments);
        if let Some(max) = out.max_output_lines {
            text = output::truncate(&text, max, out.truncation_hint.as_deref());
        }
        if let Some(side) = &out.side_read
            && let Some(content) = self.side_read(side, &out.arguments)
        {
            text = output::append_side_read(
                &text,
                side.label.as_deref().unwrap_or(&side.filename),
                &content,
            );
        }
        text
    }

    /// `sideRead`: the file beside a path parameter, read only inside the
    /// sandbox and only when it has non-blank content.
    fn side_read(&self, side: &SideRead, args: &serde_json::Map<String, Value>) -> Option<String> {
        if side.filename.contains(['/', '\\']) || side.filename.contains("..") {
            return None;
        }
        let dir = args.get(&side.path_param)?.as_str()?;
        let path = self
            .policy
            .sandbox
            .resolve(&side.path_param, dir, false)
            .ok()?;
        let file = path.join(&side.filename).canonicalize().ok()?;
        self.policy.sandbox.root_of(&file)?;
        let mut content = String::new();
        std::fs::File::open(&file)
            .ok()?
            .take(u64::try_from(self.policy.max_output).unwrap_or(u64::MAX))
            .read_to_string(&mut content)
            .ok()?;
        (!content.trim().is_empty()).then_some(content)
    }

    /// The one preparation step of every call: program, argv (chai's
    /// mappings, sandbox, deny patterns, resolvers), stdin, temp files,
    /// environment, timeout and output pipeline.
    fn plan_invocation(
        &self,
        inv: Invocation,
        run_resolvers: bool,
        cancel: &CancelToken,
    ) -> Result<Plan, Refusal> {
        let entry = self.tools.get(&inv.tool);
        let mut problems = Vec::new();
        let mut hidden = Hidden::default();
        let mut output = OutputPlan::default();
        let (program, argv, stdin, cwd, tempfiles) = if let Some(chai) = &inv.chai {
            let specs = self.eligible_specs(&chai.specs);
            let spec = select_spec(&inv.tool, &specs, &chai.arguments).map_err(|message| {
                Refusal::Rejected {
                    tool: inv.tool.clone(),
                    message,
                }
            })?;
            // Generated chai code carries no skill directory: it is the
            // manifest's, found at the root.
            let skill_dir = if spec.skill_dir.as_os_str().is_empty() {
                self.root_for(&inv)
                    .map(Path::to_path_buf)
                    .unwrap_or_default()
            } else {
                spec.skill_dir.clone()
            };
            let tool = inv.tool.clone();
            let mut resolve = |param: &str, resolver: &ResolveCommand, args: Vec<String>| {
                if run_resolvers {
                    self.run_resolver(&tool, param, resolver, args, &skill_dir, cancel)
                } else if let Some(why) = self.resolver_refused(resolver) {
                    // What running would give, without running anything.
                    Err(why)
                } else {
                    Ok(Some(format!(
                        "$({})",
                        resolver_argv(resolver, &args).join(" ")
                    )))
                }
            };
            let mut env = chai::Env {
                sandbox: &self.policy.sandbox,
                leading_dash: self.policy.leading_dash.clone(),
                allow_unsafe_path: self.policy.allow_unsafe_path,
                resolve: &mut resolve,
                preview: false,
            };
            let started = Instant::now();
            let prepared = chai::prepare(&inv.tool, spec, &chai.arguments, &mut env)?;
            hidden.resolving = started.elapsed();
            let sub = prepared.subcommand.trim();
            let sub =
                (!sub.is_empty() || !self.policy.allows(&prepared.binary, None)).then_some(sub);
            if !self.policy.allows(&prepared.binary, sub) {
                return Err(Refusal::NotAllowlisted {
                    binary: prepared.binary.clone(),
                    subcommand: Some(prepared.subcommand.clone()),
                });
            }
            let named = prepared.wrapper.first().unwrap_or(&prepared.binary);
            let program = match program::resolve(named, &self.policy.path) {
                Ok(p) => Some(p),
                Err(e) => {
                    problems.push(e.to_string());
                    None
                }
            };
            let mut argv: Vec<String> = prepared.wrapper.clone();
            if !prepared.wrapper.is_empty() || argv.is_empty() {
                argv.push(prepared.binary.clone());
            }
            argv.extend(prepared.args);
            // The manifest's own roots under confinement: the skill
            // directory, and the sandbox roots its path parameters may name
            // (read for `readPath`/`workingdir`, written for `writePath`).
            hidden.read_roots = self.helper_read_roots(&skill_dir, false);
            if spec.args.iter().any(|a| a.is_path()) {
                hidden
                    .read_roots
                    .extend(self.policy.sandbox.roots().iter().cloned());
            }
            if spec.args.iter().any(|a| a.is_path() && a.write_path) {
                hidden.write_roots = self.policy.sandbox.roots().to_vec();
            }
            hidden.skill_dir = Some(skill_dir.clone());
            hidden.write_paths = prepared.write_paths;
            hidden.pipeline = spec.version == ChaiVersion::V05;
            output = OutputPlan {
                success_exit_codes: spec.success_exit_codes.clone(),
                max_output_lines: spec.max_output_lines,
                truncation_hint: spec.truncation_hint.clone(),
                hint_conditions: spec.hint_conditions.clone(),
                post_process: spec
                    .post_process
                    .as_ref()
                    .map(|p| self.plan_post_process(p, &skill_dir, &prepared.arguments))
                    .transpose()?,
                side_read: spec.side_read.clone(),
                arguments: prepared.arguments,
            };
            (
                program,
                argv,
                prepared.stdin,
                prepared.cwd,
                prepared.tempfiles,
            )
        } else {
            // A program that is not on this machine is a problem of the plan,
            // not a refusal: the plan can still be shown (`run_plan` refuses it).
            let program = match self.invocation_program(&inv, entry) {
                Ok(p) => Some(p),
                Err(e @ Refusal::ProgramNotFound { .. }) => {
                    problems.push(e.to_string());
                    None
                }
                Err(e) => return Err(e),
            };
            let mut argv = vec![inv.program.clone()];
            for (i, a) in inv.args.iter().enumerate() {
                check_token(&format!("argv[{}]", i + 1), a)?;
            }
            argv.extend(inv.args.iter().cloned());
            hidden.json_contract = inv.stdin.is_some();
            (program, argv, inv.stdin.clone(), None, Vec::new())
        };
        let mut env = self.base_env();
        if let Some(name) = self.policy.set_env.keys().find(|k| is_denied_env(k)) {
            return Err(Refusal::DeniedEnv(name.clone()));
        }
        for name in &inv.env_passthrough {
            if is_denied_env(name) {
                return Err(Refusal::DeniedEnv(name.clone()));
            }
            if let Some(v) = std::env::var_os(name) {
                env.push((name.clone(), v));
            }
        }
        hidden.identity = program.as_deref().and_then(identity);
        let shown = env
            .iter()
            .map(|(k, v)| {
                let v = v.to_string_lossy();
                let redacted = self
                    .policy
                    .redact
                    .iter()
                    .any(|r| !r.is_empty() && v.contains(r.as_str()));
                (
                    k.clone(),
                    if redacted {
                        "<redacted>".to_owned()
                    } else {
                        v.into_owned()
                    },
                )
            })
            .collect();
        hidden.env = env;
        Ok(Plan {
            tool: inv.tool,
            program,
            argv: argv.into_iter().map(OsString::from).collect(),
            stdin,
            cwd,
            env: shown,
            tempfiles,
            timeout: inv.timeout.unwrap_or(self.policy.default_timeout),
            max_output: self.policy.max_output,
            output,
            problems,
            hidden,
        })
    }

    /// The specs a skill's installed binaries allow: a spec with
    /// `condition.binGroup` only when that group is the first
    /// `metadata.requires.bins` OR-group whose programs are all found.
    fn eligible_specs(&self, specs: &[ChaiExecution]) -> Vec<ChaiExecution> {
        specs
            .iter()
            .filter(|s| match s.bin_group {
                None => true,
                Some(_) if s.bin_groups.is_empty() => true,
                Some(g) => {
                    let found = s.bin_groups.iter().position(|group| {
                        group
                            .iter()
                            .all(|b| program::resolve(b, &self.policy.path).is_ok())
                    });
                    found.is_some_and(|f| u64::try_from(f).is_ok_and(|f| f == g))
                }
            })
            .cloned()
            .collect()
    }

    /// A post-processor's program and argv (`$param` arguments substituted);
    /// a program that is not allowed or not found leaves the result as is.
    fn plan_post_process(
        &self,
        post: &model::PostProcess,
        skill_dir: &Path,
        args: &serde_json::Map<String, Value>,
    ) -> Result<PostProcessPlan, Refusal> {
        let (program, mut argv) = match &post.command {
            ResolveCommand::Script { script, .. } => (
                script_path(skill_dir, script)
                    .ok()
                    .filter(|_| self.policy.allow_scripts)
                    .and_then(|path| {
                        let sh = program::resolve("sh", &self.policy.path).ok()?;
                        Some((sh, path))
                    }),
                Vec::new(),
            ),
            ResolveCommand::Command {
                binary, subcommand, ..
            } => (
                self.policy
                    .allows(binary, Some(subcommand))
                    .then(|| program::resolve(binary, &self.policy.path).ok())
                    .flatten()
                    .map(|p| (p, PathBuf::new())),
                subcommand.split_whitespace().map(str::to_owned).collect(),
            ),
        };
        let written = match &post.command {
            ResolveCommand::Script { args, .. } | ResolveCommand::Command { args, .. } => args,
        };
        let (program, script) = program.unzip();
        if let Some(script) = script.filter(|s| !s.as_os_str().is_empty()) {
            argv.insert(0, script.to_string_lossy().into_owned());
        }
        // A call value in a post-processor argument is the model's: it must
        // not become an option of the post-processor (chai does not check it).
        let values = output::post_process_args(written, args);
        for (w, v) in written.iter().zip(&values) {
            if let Some(param) = w.strip_prefix('$') {
                check_token(param, v)?;
                if v.starts_with('-') {
                    return Err(ArgvError::LeadingDash {
                        param: param.to_owned(),
                        value: v.clone(),
                    }
                    .into());
                }
            }
        }
        argv.extend(values);
        Ok(PostProcessPlan {
            program,
            argv,
            empty_is_result: post.empty_is_result,
        })
    }

    /// The program of an agentcli / describe invocation: the one checked at
    /// load for a loaded tool, otherwise resolved now (bare names in the
    /// fixed PATH, absolute paths canonicalized and kept inside `tools/bin`).
    fn invocation_program(
        &self,
        inv: &Invocation,
        entry: Option<&Entry>,
    ) -> Result<PathBuf, Refusal> {
        let written = Path::new(&inv.program);
        // A manifest-relative program of generated code (`./tools/bin/x`).
        let relative = !written.is_absolute() && inv.program.contains('/');
        let same = |loaded: &Path| loaded == written || (relative && loaded.ends_with(written));
        let program = match entry.map(|e| (&e.program, &e.tool.execution)) {
            Some((Ok(p), Execution::Command(c)))
                if c.command.first() == Some(&inv.program) || same(&c.program) =>
            {
                p.clone()
            }
            Some((Ok(p), Execution::Describe(d))) if same(&d.program) => p.clone(),
            Some((Err(e), _)) => return Err(e.clone()),
            _ if written.is_absolute() => {
                match written.ancestors().find(|a| a.ends_with("tools/bin")) {
                    Some(bin) => program::resolve_within(written, bin)?,
                    None => program::resolve(&inv.program, &self.policy.path)?,
                }
            }
            _ if !relative => program::resolve(&inv.program, &self.policy.path)?,
            _ => match self.root_for(inv) {
                Some(root) => relative_program(root, written)?,
                None => return Err(Refusal::RelativeProgram(inv.program.clone())),
            },
        };
        let in_manifest = entry.is_some_and(|e| e.program.as_ref().ok() == Some(&program));
        let allowed = match &inv.subcommand {
            // A hand-written invocation naming a subcommand: it must be
            // allowlisted and come first.
            Some(sub) => {
                self.policy.allows(&inv.program, Some(sub)) && inv.args.first() == Some(sub)
            }
            None => {
                in_manifest
                    || self.policy.allows(&inv.program, None)
                    || self.policy.allows(&program.to_string_lossy(), None)
            }
        };
        if !allowed {
            return Err(Refusal::NotAllowlisted {
                binary: inv.program.clone(),
                subcommand: None,
            });
        }
        Ok(program)
    }

    /// Runs one resolver (audited): `Ok(Some(output))` replaces the value,
    /// `Ok(None)` keeps it (empty output), `Err` says why it failed.
    fn run_resolver(
        &self,
        tool: &str,
        param: &str,
        resolver: &ResolveCommand,
        args: Vec<String>,
        skill_dir: &Path,
        cancel: &CancelToken,
    ) -> Result<Option<String>, String> {
        let (mode, result) = self.resolve_one(resolver, args, skill_dir, cancel);
        let record = match &result {
            Ok(Some(_)) => {
                json!({"tool": tool, "param": param, "mode": mode, "result": "replaced"})
            }
            Ok(None) => json!({"tool": tool, "param": param, "mode": mode, "result": "kept"}),
            Err(reason) => {
                json!({"tool": tool, "param": param, "mode": mode, "result": "kept", "reason": reason})
            }
        };
        if let Some(a) = &self.audit {
            a.record("resolve_command", record, &self.policy.redact);
        }
        result
    }

    /// Why the policy does not let `resolver` run (scripts not allowed, a
    /// command not allowlisted), decided without running anything.
    fn resolver_refused(&self, resolver: &ResolveCommand) -> Option<String> {
        match resolver {
            ResolveCommand::Script { .. } if !self.policy.allow_scripts => {
                Some("scripts are not allowed".into())
            }
            ResolveCommand::Command {
                binary, subcommand, ..
            } if !self.policy.allows(binary, Some(subcommand)) => {
                Some(format!("not allowlisted: {binary} {subcommand}"))
            }
            _ => None,
        }
    }

    /// One resolver: `Ok(Some(new))`, `Ok(None)` to keep the value, or `Err(why)`.
    fn resolve_one(
        &self,
        resolver: &ResolveCommand,
        args: Vec<String>,
        skill_dir: &Path,
        cancel: &CancelToken,
    ) -> (&'static str, Result<Option<String>, String>) {
        if let Some(why) = self.resolver_refused(resolver) {
            let mode = match resolver {
                ResolveCommand::Script { .. } => "script",
                ResolveCommand::Command { .. } => "command",
            };
            return (mode, Err(why));
        }
        let (mode, program, argv) = match resolver {
            ResolveCommand::Script { script, .. } => {
                match script_path(skill_dir, script).and_then(|p| {
                    let sh = program::resolve("sh", &self.policy.path)?;
                    Ok((sh, p))
                }) {
                    Ok((sh, path)) => {
                        let mut argv = vec![path.to_string_lossy().into_owned()];
                        argv.extend(args);
                        ("script", sh, argv)
                    }
                    Err(e) => return ("script", Err(e.to_string())),
                }
            }
            ResolveCommand::Command {
                binary, subcommand, ..
            } => {
                let program = match program::resolve(binary, &self.policy.path) {
                    Ok(p) => p,
                    Err(e) => return ("command", Err(e.to_string())),
                };
                let mut argv: Vec<String> =
                    subcommand.split_whitespace().map(str::to_owned).collect();
                argv.extend(args);
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
            confine: self.policy.confine.clone(),
            read_roots: self.helper_read_roots(skill_dir, true),
            write_roots: Vec::new(),
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

    /// The policy's confinement for a call of `tool`: network on when the
    /// policy grants it to every tool or to this one.
    fn confinement_for(&self, tool: &str) -> crate::confine::Confinement {
        let mut c = self.policy.confine.clone();
        c.network = c.network_for(tool);
        c
    }

    /// The read roots of a skill's calls: its directory (scripts, data),
    /// and for a resolver or post-processor (`helper`) also the sandbox
    /// roots, read-only (they look at what the call's paths name). An empty
    /// directory (no skill) gives none.
    fn helper_read_roots(&self, skill_dir: &Path, helper: bool) -> Vec<PathBuf> {
        let mut roots = Vec::new();
        if !skill_dir.as_os_str().is_empty() {
            roots.push(skill_dir.to_path_buf());
        }
        if helper {
            roots.extend(self.policy.sandbox.roots().iter().cloned());
        }
        roots
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
}

/// `<skill>/scripts/<name>` (chai: an extension is replaced by `.sh` when the
/// file is absent), canonical and inside `scripts/`.
fn script_path(skill_dir: &Path, script: &str) -> Result<PathBuf, Refusal> {
    if !skill_dir.is_absolute() {
        return Err(Refusal::RelativeProgram(format!("scripts/{script}")));
    }
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

/// A manifest-relative program resolved against `root` with the checks of a
/// manifest loaded from there: under `tools/bin` (agentcli) it must stay
/// inside `root/tools/bin`, otherwise (describe) inside its own directory;
/// both canonicalized, symlinks included.
fn relative_program(root: &Path, written: &Path) -> Result<PathBuf, Refusal> {
    use std::path::Component;
    let path = root.join(written);
    let mut parts = written
        .components()
        .filter(|c| !matches!(c, Component::CurDir));
    let in_bin = parts.next() == Some(Component::Normal("tools".as_ref()))
        && parts.next() == Some(Component::Normal("bin".as_ref()));
    if in_bin {
        program::resolve_within(&path, &root.join("tools/bin"))
    } else {
        program::resolve_within(&path, path.parent().unwrap_or(root))
    }
}

/// A resolver's argv as it would run (for showing in a dry run).
fn resolver_argv(resolver: &ResolveCommand, args: &[String]) -> Vec<String> {
    let mut argv = match resolver {
        ResolveCommand::Script { script, .. } => vec!["sh".to_owned(), format!("scripts/{script}")],
        ResolveCommand::Command {
            binary, subcommand, ..
        } => std::iter::once(binary.clone())
            .chain(subcommand.split_whitespace().map(str::to_owned))
            .collect(),
    };
    argv.extend(args.iter().map(|a| crate::plan::shell_quote(a)));
    argv
}

/// A file's identity: device, inode, size and modification time.
fn identity(path: &Path) -> Option<(u64, u64, u64, i64)> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some((m.dev(), m.ino(), m.size(), m.mtime()))
}

fn spawn_error(program: &Path, e: &std::io::Error) -> Refusal {
    if let Some(u) = e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<process::Unconfinable>())
    {
        return Refusal::Unconfinable(u.0.clone());
    }
    Refusal::Spawn {
        program: program.display().to_string(),
        message: e.to_string(),
    }
}

/// A parameter name as a file name: anything but `[A-Za-z0-9_-]` becomes `_`.
fn sanitize(param: &str) -> String {
    let name: String = param
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() {
        "value".into()
    } else {
        name
    }
}

/// Creates `path` (it must not exist) with mode 0600 and writes `content`.
fn write_private(path: &Path, content: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(content)
}

//! What needs a manifest loaded at run time (the `load` feature):
//! [`Runtime::load`], [`Runtime::add_manifest`], [`Runtime::add_catalog`],
//! [`Runtime::dispatch`] and the calls of a model turn
//! ([`Runtime::run_batch`]), with argument validation by toolsmith's own
//! validator ([`crate::schema`]).

use super::*;
use crate::catalog::Catalog;
use crate::policy::passthrough_warning;
use crate::risk::RiskPolicy;
use crate::tool::{CallError, Violation};
use toolsmith_model::model::Manifest;

/// One tool call of a batch, as the model wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelCall {
    /// The tool name.
    pub name: String,
    /// The arguments JSON as the model wrote it.
    pub arguments: String,
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
    /// Loads a manifest file (chai, agentcli or describe) with the linter's
    /// rules; any error finding fails the load. An MCP tool list is refused
    /// (`mcp/runs-on-server`): its tools run on their server.
    ///
    /// Calls are confined by default: unless `policy.confine.enabled` is
    /// `Some(false)`, it is set to `Some(true)`, and each call gets the
    /// manifest's own roots without extra code (its skill, `tools/bin` or
    /// describe directory and working directory readable, the sandbox roots
    /// readable for a tool with a `readPath`/`workingdir` parameter and
    /// writable for one with a `writePath` parameter, a private temporary
    /// directory writable, no network; see [`crate::confine`]).
    pub fn load(path: &Path, mut policy: Policy) -> Result<Self, LoadError> {
        policy.confine.enabled.get_or_insert(true);
        let display = path.display().to_string();
        let loaded =
            toolsmith_manifest::lint::load(path, &display, &Default::default()).map_err(|f| {
                LoadError {
                    path: display,
                    diagnostics: f.diagnostics.0,
                }
            })?;
        let mut rt = Runtime::new(policy);
        rt.add_manifest(&loaded.manifest);
        Ok(rt)
    }

    /// Adds the tools of a manifest: its chai allowlist joins the policy's,
    /// programs are resolved to canonical paths and schemas compiled now.
    /// The model of an MCP tool list (from
    /// `toolsmith_manifest::lint::load_for_bindings`) adds nothing: its
    /// tools run on their server, so a call of one stays an unknown tool.
    pub fn add_manifest(&mut self, manifest: &Manifest) {
        if manifest.dialect == toolsmith_model::model::Dialect::Mcp {
            return;
        }
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
        self.tools.insert(
            tool.name.clone(),
            Entry {
                tool,
                validator: crate::tool::call::CompiledSchema::new(),
                program,
            },
        );
    }

    fn resolve_tool_program(&self, exec: &Execution, base: &Path) -> Result<PathBuf, Refusal> {
        match exec {
            Execution::Chai(specs) => match specs.first() {
                Some(c) => program::resolve(
                    c.binary_wrapper.first().unwrap_or(&c.binary),
                    &self.policy.path,
                ),
                None => Err(Refusal::RelativeProgram(String::new())),
            },
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

    /// Sets the risk policy used by [`Runtime::run_batch`].
    pub fn with_risk(mut self, risk: RiskPolicy) -> Self {
        self.risk = risk;
        self
    }

    /// The plan of a call of a loaded tool given as the model wrote it (name
    /// and arguments JSON), as [`Runtime::dispatch`] makes it.
    pub fn plan_dispatch(
        &self,
        name: &str,
        arguments_json: &str,
        run_resolvers: bool,
    ) -> Result<Plan, Refusal> {
        let inv = self.dispatch_invocation(name, arguments_json)?;
        self.plan_invocation(inv, run_resolvers, &CancelToken::new())
    }

    /// Runs a call of a tool loaded at run time, given the arguments JSON as
    /// the model wrote it: parsed and validated against the tool's schema
    /// (every violation reported), then planned and executed.
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
        self.dispatch_invocation(name, arguments_json)
            .and_then(|inv| self.plan_invocation(inv, true, cancel))
            .and_then(|plan| self.run_plan_with(plan, cancel))
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

    /// The invocation of a loaded tool for a call as the model wrote it.
    fn dispatch_invocation(&self, name: &str, arguments_json: &str) -> Result<Invocation, Refusal> {
        let entry = self
            .tools
            .get(name)
            .ok_or_else(|| CallError::UnknownTool(name.to_string()))?;
        let args = validate(entry, arguments_json)?;
        let mut inv = Invocation::new(name, "", Vec::new());
        match &entry.tool.execution {
            Execution::Chai(specs) => {
                let arguments = args.as_object().cloned().ok_or_else(|| not_object(name))?;
                inv = Invocation::chai(name, specs.clone(), arguments);
            }
            Execution::Command(c) => {
                inv.program = c.command.first().cloned().unwrap_or_default();
                inv.args = c.command.iter().skip(1).cloned().collect();
                inv.stdin = Some(if arguments_json.trim().is_empty() {
                    b"{}".to_vec()
                } else {
                    arguments_json.as_bytes().to_vec()
                });
                inv.env_passthrough.clone_from(&c.env_passthrough);
                inv.timeout = c.timeout_sec.map(Duration::from_secs);
            }
            Execution::Describe(d) => {
                if name.is_empty() || name.contains(['/', '\\', '\0']) || name.contains("..") {
                    return Err(Refusal::InvalidName(name.to_string()));
                }
                let text = args.to_string();
                check_token("arguments", &text)?;
                inv.program = d.program.to_string_lossy().into_owned();
                inv.args = vec![text];
            }
        }
        Ok(inv)
    }

    /// Runs the calls of one model turn. Contiguous calls that need no
    /// confirmation run concurrently; a call that needs one (see
    /// [`RiskPolicy::needs_confirmation`]) waits for the calls before it, then
    /// runs alone if `confirm` says yes. Results come back in call order.
    pub fn run_batch(
        &self,
        calls: &[ModelCall],
        confirm: &mut dyn FnMut(&ModelCall) -> bool,
    ) -> Vec<Result<Outcome, Refusal>> {
        let mut results: Vec<Result<Outcome, Refusal>> = Vec::with_capacity(calls.len());
        let mut group: Vec<&ModelCall> = Vec::new();
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
                let refusal = Refusal::NotConfirmed {
                    tool: call.name.clone(),
                    plan: self
                        .plan_dispatch(&call.name, &call.arguments, false)
                        .ok()
                        .map(Box::new),
                };
                self.rejected(&call.name, &refusal);
                results.push(Err(refusal));
            }
        }
        results.extend(self.run_concurrently(&group));
        results
    }

    fn run_concurrently(&self, calls: &[&ModelCall]) -> Vec<Result<Outcome, Refusal>> {
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

/// Parses and validates the arguments (as `ToolCall::parse` does: the
/// `null`s a strict-mode model sends for omitted optional properties are
/// removed first, so that chai's argv and agentcli's stdin see them absent).
fn validate(entry: &Entry, arguments_json: &str) -> Result<Value, Refusal> {
    let tool = &entry.tool.name;
    let mut args: Value = if arguments_json.trim().is_empty() {
        json!({})
    } else {
        serde_json::from_str(arguments_json).map_err(|e| CallError::InvalidJson {
            tool: tool.clone(),
            message: e.to_string(),
        })?
    };
    let mut violations: Vec<Violation> = entry
        .validator
        .check(&entry.tool.parameters, &mut args)
        .map_err(|m| Refusal::InvalidSchema {
        tool: tool.clone(),
        message: m.to_owned(),
    })?;
    if matches!(entry.tool.execution, Execution::Chai(_)) {
        violations.extend(crate::tool::call::undeclared(&entry.tool.parameters, &args));
    }
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

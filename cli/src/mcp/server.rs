//! The MCP server: `tools/list` from the current [`ToolSet`], `tools/call`
//! through the tool's [`Runtime`] on a blocking thread, cancellation by the
//! request's token (the tool's process group is killed), and the peers that
//! `notifications/tools/list_changed` goes to.

use super::log;
use super::toolset::ToolSet;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData as McpError, Peer, RoleServer, ServerHandler};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};
use std::time::Duration;
use toolsmith::{CancelToken, ModelCall, Outcome, Policy, Refusal, RiskPolicy, Status};

/// The newest protocol revision served: 2025-11-25, the one
/// `provider-formats.md` §1 describes (later revisions replace the session
/// lifecycle that `notifications/tools/list_changed` relies on).
pub const PROTOCOL: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// The command-line options a session applies.
#[derive(Debug, Clone, Default)]
pub struct SessionOptions {
    /// Which calls need a confirmation (`--risk`).
    pub risk: RiskPolicy,
    /// Run the calls that need a confirmation anyway (`--autorun`).
    pub autorun: bool,
    /// Announce and send `notifications/tools/list_changed` (`--watch`).
    pub watch: bool,
    /// Secrets replaced by `[REDACTED]` in refusal texts (`--redact`).
    pub redact: Vec<String>,
}

/// What every session of one server shares.
#[derive(Debug)]
pub struct Shared {
    tools: RwLock<Arc<ToolSet>>,
    peers: Mutex<Vec<Peer<RoleServer>>>,
    calls: Mutex<HashMap<u64, CancelToken>>,
    next_call: AtomicU64,
    /// Which calls need a confirmation (`--risk`).
    risk: RiskPolicy,
    /// Run calls that the risk policy wants confirmed (`--autorun`).
    autorun: bool,
    /// Announce and send `notifications/tools/list_changed` (`--watch`).
    watch: bool,
    /// The secrets replaced in refusal texts (`--redact`).
    redact: Policy,
}

impl Shared {
    /// The state of a server offering `tools`.
    pub fn new(tools: ToolSet, options: SessionOptions) -> Self {
        let SessionOptions {
            risk,
            autorun,
            watch,
            redact,
        } = options;
        Shared {
            risk,
            tools: RwLock::new(Arc::new(tools)),
            peers: Mutex::new(Vec::new()),
            calls: Mutex::new(HashMap::new()),
            next_call: AtomicU64::new(1),
            autorun,
            watch,
            redact: Policy {
                redact,
                ..Policy::default()
            },
        }
    }

    /// The tools in force (a call keeps the set it started with).
    pub fn tools(&self) -> Arc<ToolSet> {
        Arc::clone(&self.tools.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Replaces the tools; true when the `tools/list` result changed.
    pub fn replace_tools(&self, tools: ToolSet) -> bool {
        let mut current = self.tools.write().unwrap_or_else(PoisonError::into_inner);
        let changed = current.listed != tools.listed;
        *current = Arc::new(tools);
        changed
    }

    /// Sends `notifications/tools/list_changed` to every live session.
    pub async fn notify_list_changed(&self) {
        let peers: Vec<Peer<RoleServer>> = {
            let mut peers = lock(&self.peers);
            peers.retain(|p| !p.is_transport_closed());
            peers.clone()
        };
        for peer in peers {
            if let Err(e) = peer.notify_tool_list_changed().await {
                log(format!(
                    "toolsmith: cannot send notifications/tools/list_changed: {e}"
                ));
            }
        }
    }

    /// Cancels every call in flight (shutdown) and waits, at most `bound`,
    /// for them to return (their processes killed and reaped).
    pub async fn cancel_all(&self, bound: Duration) {
        for token in lock(&self.calls).values() {
            token.cancel();
        }
        let deadline = tokio::time::Instant::now() + bound;
        while !lock(&self.calls).is_empty() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One session's handler (all sessions share [`Shared`]).
#[derive(Debug, Clone)]
pub struct Server {
    shared: Arc<Shared>,
}

impl Server {
    /// A handler over `shared`.
    pub fn new(shared: Arc<Shared>) -> Self {
        Server { shared }
    }
}

/// A call registered for shutdown: held by the blocking thread that runs
/// it, so it leaves the registry only once the call has returned (its
/// process killed and reaped if it was cancelled).
struct InFlight {
    shared: Arc<Shared>,
    id: u64,
}

impl InFlight {
    fn register(shared: &Arc<Shared>, token: CancelToken) -> Self {
        let id = shared.next_call.fetch_add(1, Ordering::Relaxed);
        lock(&shared.calls).insert(id, token);
        InFlight {
            shared: Arc::clone(shared),
            id,
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        lock(&self.shared.calls).remove(&self.id);
    }
}

/// Cancels a call whose request was dropped before it ended (the session
/// closed); cancelling a call that ended is a no-op.
struct CancelOnDrop(CancelToken);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder().enable_tools().build();
        if let (true, Some(tools)) = (self.shared.watch, capabilities.tools.as_mut()) {
            tools.list_changed = Some(true);
        }
        ServerConfig::new(capabilities)
            .with_protocol_version(PROTOCOL)
            .with_server_info(Implementation::new("toolsmith", env!("CARGO_PKG_VERSION")))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&PROTOCOL))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(
            self.shared.tools().listed.clone(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let tools = self.shared.tools();
        let name = request.name.to_string();
        let arguments = match &request.arguments {
            Some(map) => serde_json::to_string(map).unwrap_or_default(),
            None => "{}".to_string(),
        };
        let (rt, known) = tools.runtime_for(&name);
        if !known {
            // Refused (and audited) by the runtime without tools; MCP wants
            // a protocol error for an unknown tool.
            let refusal = rt.dispatch(&name, &arguments).err();
            let message = refusal.map_or_else(
                || format!("unknown tool `{name}`"),
                |r| self.shared.redact.redacted(&r.to_string()),
            );
            return Err(McpError::invalid_params(message, None));
        }
        let token = CancelToken::new();
        let in_flight = InFlight::register(&self.shared, token.clone());
        let cancel_on_drop = CancelOnDrop(token.clone());
        let confirm = !self.shared.autorun && self.shared.risk.needs_confirmation(&name);
        let call = ModelCall {
            name: name.clone(),
            arguments,
        };
        let mut task = tokio::task::spawn_blocking(move || {
            let _in_flight = in_flight;
            if confirm {
                // Never confirmed: the runtime refuses the call with its
                // plan and audits the refusal; nothing runs.
                rt.run_batch(std::slice::from_ref(&call), &mut |_| false)
                    .pop()
                    .unwrap_or_else(|| Err(not_confirmed(&call.name)))
            } else {
                rt.dispatch_with(&call.name, &call.arguments, &token)
            }
        });
        let joined = tokio::select! {
            joined = &mut task => joined,
            () = context.ct.cancelled() => {
                cancel_on_drop.0.cancel();
                task.await
            }
        };
        drop(cancel_on_drop);
        let result = match joined {
            Ok(Ok(outcome)) => outcome_result(&outcome),
            Ok(Err(refusal)) => refusal_result(&refusal, &name, &self.shared.redact),
            Err(e) => CallToolResult::error(vec![ContentBlock::text(format!(
                "internal error: the call of `{name}` did not finish: {e}"
            ))]),
        };
        Ok(result.into())
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        if self.shared.watch {
            lock(&self.shared.peers).push(context.peer);
        }
    }
}

fn not_confirmed(tool: &str) -> Refusal {
    Refusal::NotConfirmed {
        tool: tool.to_string(),
        plan: None,
    }
}

/// The result of a call that ran: on success the tool's output (a JSON
/// object from a JSON-line tool also as `structuredContent`); otherwise
/// `isError` with how it ended.
pub fn outcome_result(outcome: &Outcome) -> CallToolResult {
    if outcome.is_success() {
        return match outcome.for_model() {
            Value::String(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
            value @ Value::Object(_) => CallToolResult::structured(value),
            value => CallToolResult::success(vec![ContentBlock::text(value.to_string())]),
        };
    }
    let reason = match outcome.status {
        Status::TimedOut => format!(
            "the tool timed out after {:.1} s; its process group was killed",
            outcome.duration.as_secs_f64()
        ),
        Status::Cancelled => "the call was cancelled; its process group was killed".to_string(),
        _ => outcome.failure_text(),
    };
    let mut text = format!("{}: {reason}", outcome.status.as_str());
    if !outcome.stdout.trim().is_empty() && outcome.result.is_none() {
        text.push_str("\nstdout:\n");
        text.push_str(&outcome.stdout);
    }
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// A refusal as an `isError` result the model can act on.
pub fn refusal_result(refusal: &Refusal, tool: &str, shown: &Policy) -> CallToolResult {
    let message = match refusal {
        Refusal::NotConfirmed { plan, .. } => {
            let would_run = plan.as_ref().map_or_else(String::new, |plan| {
                let argv: Vec<String> = plan
                    .argv
                    .iter()
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect();
                format!(" (it would run: {})", argv.join(" "))
            });
            shown.redacted(&format!(
                "tool `{tool}` needs a confirmation under the risk policy (it is risky, or not marked safe in the --risk file), and toolsmith serve cannot ask for one; the call did not run{would_run}. The server's operator can mark the tool `safe` in the risk policy, or start `toolsmith serve` with --autorun to let the MCP host's own approval stand"
            ))
        }
        other => shown.redacted(&other.to_string()),
    };
    CallToolResult::error(vec![ContentBlock::text(format!(
        "refused ({}): {message}",
        refusal.kind()
    ))])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn outcome(status: Status, stdout: &str, stderr: &str, result: Option<Value>) -> Outcome {
        Outcome {
            status,
            exit_code: None,
            signal: None,
            stdout: stdout.into(),
            stderr: stderr.into(),
            truncated: false,
            stdout_dropped: 0,
            stderr_dropped: 0,
            non_utf8: false,
            output_incomplete: false,
            duration: Duration::from_millis(1500),
            result,
            unenforced: Vec::new(),
        }
    }

    fn text(r: &CallToolResult) -> String {
        r.content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect()
    }

    #[test]
    fn outcomes_become_results() {
        let ok = outcome_result(&outcome(Status::Success, "a\n", "", None));
        assert_eq!((ok.is_error, text(&ok)), (Some(false), "a\n".into()));
        let structured = outcome_result(&outcome(Status::Success, "", "", Some(json!({"n": 1}))));
        assert_eq!(structured.structured_content, Some(json!({"n": 1})));
        let failed = outcome_result(&outcome(
            Status::Failed { code: Some(3) },
            "partial",
            "boom\n",
            None,
        ));
        assert_eq!(failed.is_error, Some(true));
        assert_eq!(text(&failed), "failed: boom\nstdout:\npartial");
        let timed_out = outcome_result(&outcome(Status::TimedOut, "", "", None));
        assert_eq!(
            text(&timed_out),
            "timed_out: the tool timed out after 1.5 s; its process group was killed"
        );
    }

    #[test]
    fn refusals_say_why_and_hide_secrets() {
        let shown = Policy {
            redact: vec!["s3cret".into()],
            ..Policy::default()
        };
        let refusal = Refusal::Rejected {
            tool: "t".into(),
            message: "value s3cret is denied".into(),
        };
        let r = refusal_result(&refusal, "t", &shown);
        assert_eq!(r.is_error, Some(true));
        assert_eq!(text(&r), "refused (rejected): value [REDACTED] is denied");
        let r = refusal_result(&not_confirmed("t"), "t", &shown);
        assert!(
            text(&r).starts_with("refused (not_confirmed): tool `t` needs a confirmation"),
            "{}",
            text(&r)
        );
    }
}

mod github {
    toolsmith::tools!("../fixtures/mcp/valid/list/server.snap");
}

// The tools of an MCP list run on their server: the bindings parse calls and
// give `to_mcp_arguments()`, but have no invocation, argv, plan, run or
// policy, and are no `toolsmith::Call`; each use below is a compile error.
fn main() {
    let call = github::ToolCall::parse("ping", "{}").unwrap();
    let _ = call.to_mcp_arguments();
    let runtime = toolsmith::Runtime::new(toolsmith::Policy::default());
    let _ = call.invocation();
    let _ = call.run(&runtime);
    let _ = runtime.run_call(&call);
    let _ = github::PingArgs {}.argv();
    let _ = runtime.run(&github::PingArgs {});
    let _ = github::policy();
}

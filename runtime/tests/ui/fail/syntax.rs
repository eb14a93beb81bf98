mod tools {
    toolsmith::tools!("tests/ui/data/syntax/tools.json");
}

// After a syntax error the tool names that can still be read keep stand-in
// types: only the syntax error is reported.
fn main() {
    let _ = tools::definitions();
    let call = tools::ToolCall::Ls(tools::LsArgs::default());
    let _ = toolsmith::Runtime::new(tools::policy()).run_call(&call);
}

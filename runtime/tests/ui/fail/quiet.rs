mod tools {
    toolsmith::tools!("tests/ui/data/quiet/tools.json");
}

// One tool has an error (a kind typo): only that error is reported. The sound
// tool keeps its typed fields; the broken one keeps a stand-in type that
// still implements `Tool` and `Call`, so none of this code adds an error.
fn main() {
    let runtime = toolsmith::Runtime::new(tools::policy());
    let list = tools::ListFilesArgs { path: "src".into() };
    let _ = runtime.run_call(&list);
    let _ = runtime.run_call(&tools::SearchArgs::default());
    if let Ok(call) = tools::ToolCall::parse("search", r#"{"pattern": "x"}"#) {
        let _ = runtime.run_call(&call);
        let _ = call.plan(&runtime);
    }
    let _ = <tools::SearchArgs as toolsmith::Tool>::definition();
    let _ = tools::definitions();
}

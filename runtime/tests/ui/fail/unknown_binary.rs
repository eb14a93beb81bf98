mod tools {
    toolsmith::tools!("tests/ui/data/unknown-binary/tools.json");
}

// After errors the type names still exist: only the manifest error is reported.
fn main() {
    let _ = tools::GitStatusArgs {};
    let _ = tools::ToolCall::parse("git_status", "{}");
    let _ = tools::definitions();
}

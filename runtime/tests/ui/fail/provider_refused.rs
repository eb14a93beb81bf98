mod tools {
    toolsmith::tools!("tests/ui/data/provider-refused/tools.json", providers = [openai_strict, gemini]);
}

// Gemini refuses the integer enum of `search` and OpenAI's strict mode its
// free-form `extra` object: each is a compile error at its keyword. What the
// generated strict definitions repair (the optional `all` and `level`, the
// objects without `additionalProperties: false`) is not an error. The items
// are still generated, so this code adds no error of its own.
fn main() {
    let list = tools::ListFilesArgs { path: "src".into(), all: None };
    let _ = toolsmith::Runtime::new(tools::policy()).run_call(&list);
    let _ = tools::SearchArgs { pattern: "x".into(), level: None, extra: None };
    let _ = tools::definitions_for(toolsmith::Provider::Gemini);
    let _ = tools::refused_tools(toolsmith::Provider::OpenAiChatStrict);
}

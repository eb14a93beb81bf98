//! A complete agent turn: the tools offered to the model, the model's tool
//! calls (OpenAI chat-completions shape) parsed into typed calls, each run
//! under the manifest's own default-deny policy, and the `tool` messages that
//! go back to the model.
//!
//! ```text
//! cargo run -p toolsmith --example agent            # the calls below
//! cargo run -p toolsmith --example agent -- '<assistant message JSON>'
//! ```

use serde_json::{Value, json};

/// Typed bindings of `fixtures/examples/coreutils-skill` (checked at compile time).
mod coreutils {
    toolsmith::tools!("../fixtures/examples/coreutils-skill");
}

/// What a model answered: an assistant message with `tool_calls`.
const ASSISTANT: &str = r#"{
  "role": "assistant",
  "tool_calls": [
    {"id": "call_1", "type": "function",
     "function": {"name": "count_lines", "arguments": "{\"path\": \"Cargo.toml\"}"}},
    {"id": "call_2", "type": "function",
     "function": {"name": "list_directory", "arguments": "{\"path\": \"--help\"}"}},
    {"id": "call_3", "type": "function",
     "function": {"name": "rm_rf", "arguments": "{}"}}
  ]
}"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 1. The tools, in the shape the provider expects, for the request.
    let request_tools = coreutils::definitions();
    eprintln!(
        "offering {} tools",
        request_tools.as_array().map_or(0, Vec::len)
    );

    // 2. The runtime: the manifest's allowlist and nothing else; relative
    //    paths resolve inside the working directory (the sandbox root).
    let runtime = toolsmith::Runtime::new(coreutils::policy());

    // 3. Each tool call → a `tool` message. Nothing here panics on what the
    //    model sent: unknown tools, bad arguments and refused calls all
    //    become an error result the model can read.
    let assistant: Value = match std::env::args().nth(1) {
        Some(text) => serde_json::from_str(&text)?,
        None => serde_json::from_str(ASSISTANT)?,
    };
    let calls = assistant["tool_calls"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut messages = Vec::new();
    for call in &calls {
        let name = call["function"]["name"].as_str().unwrap_or_default();
        let arguments = call["function"]["arguments"].as_str().unwrap_or("{}");
        let result = match coreutils::ToolCall::parse(name, arguments) {
            Ok(call) => match runtime.run_call(&call) {
                Ok(outcome) => outcome.for_model(),
                Err(refusal) => json!({ "error": refusal.to_string() }),
            },
            Err(error) => json!({ "error": error.to_string() }),
        };
        messages.push(json!({
            "role": "tool",
            "tool_call_id": call["id"],
            "content": match result {
                Value::String(text) => text,
                other => other.to_string(),
            },
        }));
    }

    // 4. The messages to append to the conversation.
    println!("{}", serde_json::to_string_pretty(&messages)?);
    Ok(())
}

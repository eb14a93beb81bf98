//! Typed bindings of MCP tool lists: `tools!` on each shape the `mcp`
//! dialect reads generates the argument types, `ToolCall::parse`,
//! `definitions()`/`definitions_for` and `to_mcp_arguments()`, and nothing
//! that runs a tool (that the items are absent is checked by the trybuild
//! case `tests/ui/fail/mcp_no_invocation.rs`). The runtime's loader still
//! refuses an MCP list.

// Generated code must not warn in the user's crate.
#[deny(warnings, missing_docs)]
/// A `tools/list` result.
pub mod server {
    toolsmith::tools!("../fixtures/mcp/valid/list/server.snap");
}

#[deny(warnings, missing_docs)]
/// A JSON-RPC response carrying a `tools/list` result.
pub mod envelope {
    toolsmith::tools!("../fixtures/mcp/valid/jsonrpc-envelope/response.snap");
}

#[deny(warnings, missing_docs)]
/// One tool object (a github-mcp-server `.snap`).
pub mod one {
    toolsmith::tools!("../fixtures/mcp/valid/one-tool/get_weather.snap");
}

use serde_json::{Map, Value, json};
use std::path::Path;
use toolsmith::{CallError, McpTool, Policy, Provider, Runtime};

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(o) => o,
        other => panic!("not an object: {other}"),
    }
}

#[test]
fn parse_then_to_mcp_arguments_gives_back_the_arguments() {
    for (name, arguments) in [
        ("get_weather", json!({"city": "Oslo", "units": "metric"})),
        ("get_weather", json!({"city": "Oslo"})),
        (
            "github.create_issue",
            json!({"owner": "o", "repo": "r", "title": "Bug", "labels": ["a", "b"]}),
        ),
        ("ping", json!({})),
    ] {
        let call = server::ToolCall::parse(name, &arguments.to_string())
            .unwrap_or_else(|e| panic!("{name} {arguments}: {e}"));
        assert_eq!(call.name(), name);
        assert_eq!(call.to_mcp_arguments(), object(arguments.clone()), "{name}");
        assert_eq!(call.arguments(), arguments, "{name}");
    }
}

#[test]
fn parse_yields_typed_values_and_refuses_what_the_schema_refuses() {
    let call =
        server::ToolCall::parse("get_weather", r#"{"city": "Oslo", "units": "imperial"}"#).unwrap();
    assert_eq!(
        call,
        server::ToolCall::GetWeather(server::GetWeatherArgs {
            city: "Oslo".into(),
            units: Some(server::GetWeatherArgsUnits::Imperial),
        })
    );
    // A strict-mode model sends nulls for the optionals it leaves out.
    let strict =
        server::ToolCall::parse("get_weather", r#"{"city": "Oslo", "units": null}"#).unwrap();
    assert_eq!(strict.to_mcp_arguments(), object(json!({"city": "Oslo"})));
    assert!(matches!(
        server::ToolCall::parse("get_weather", r#"{"units": "metric"}"#),
        Err(CallError::InvalidArguments { .. })
    ));
    assert!(matches!(
        server::ToolCall::parse("get_weather", r#"{"city": "Oslo", "units": "kelvin"}"#),
        Err(CallError::InvalidArguments { .. })
    ));
    assert!(matches!(
        server::ToolCall::parse("get_weather", "{"),
        Err(CallError::InvalidJson { .. })
    ));
    assert!(matches!(
        server::ToolCall::parse("rm", "{}"),
        Err(CallError::UnknownTool(n)) if n == "rm"
    ));
}

#[test]
fn typed_arguments_become_tools_call_arguments() {
    let args = server::GithubCreateIssueArgs {
        owner: "rust-lang".into(),
        repo: "rust".into(),
        title: "ICE".into(),
        labels: None,
    };
    assert_eq!(
        args.to_mcp_arguments(),
        object(json!({"owner": "rust-lang", "repo": "rust", "title": "ICE"}))
    );
    assert_eq!(server::GithubCreateIssueArgs::NAME, "github.create_issue");
    assert_eq!(
        server::GithubCreateIssueArgs::DESCRIPTION,
        "Open an issue in a repository."
    );
    assert_eq!(
        server::GithubCreateIssueArgs::parameters()["required"],
        json!(["owner", "repo", "title"])
    );
    assert_eq!(
        server::GithubCreateIssueArgs::definition()["function"]["name"],
        "github.create_issue"
    );
    let call = server::ToolCall::from(args.clone());
    assert_eq!(call.name(), "github.create_issue");
    assert_eq!(call.to_mcp_arguments(), args.to_mcp_arguments());
}

#[test]
fn definitions_as_for_manifests() {
    let defs = server::definitions();
    let names: Vec<&str> = defs
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|d| d["function"]["name"].as_str())
        .collect();
    assert_eq!(names, ["get_weather", "github.create_issue", "ping"]);
    // Back to MCP: the `tools/list` shape, every tool and its inputSchema.
    let mcp = server::definitions_for(Provider::Mcp);
    assert_eq!(mcp["tools"][1]["name"], "github.create_issue");
    assert_eq!(
        mcp["tools"][0]["inputSchema"],
        *server::GetWeatherArgs::parameters()
    );
    assert!(server::refused_tools(Provider::Mcp).is_empty());
    // OpenAI refuses the dotted name; the strict form of the rest is rewritten.
    assert_eq!(
        server::refused_tools(Provider::OpenAiChatStrict),
        ["github.create_issue"]
    );
    let strict = server::definitions_for(Provider::OpenAiChatStrict);
    assert_eq!(
        strict["tools"][0]["function"]["parameters"]["required"],
        json!(["city", "units"])
    );
}

#[test]
fn every_shape_of_list_gives_the_same_bindings() {
    let arguments = r#"{"city": "Oslo", "units": "metric"}"#;
    let from_list = server::ToolCall::parse("get_weather", arguments).unwrap();
    let from_envelope = envelope::ToolCall::parse("get_weather", arguments).unwrap();
    let from_one = one::ToolCall::parse("get_weather", arguments).unwrap();
    assert_eq!(
        from_list.to_mcp_arguments(),
        from_envelope.to_mcp_arguments()
    );
    assert_eq!(from_list.to_mcp_arguments(), from_one.to_mcp_arguments());
    assert_eq!(
        one::GetWeatherArgs::parameters(),
        server::GetWeatherArgs::parameters()
    );
}

fn fixture(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/mcp/valid")
        .join(path)
}

#[test]
fn the_runtime_still_refuses_to_load_an_mcp_list() {
    for path in [
        "list/server.snap",
        "array/array.snap",
        "one-tool/get_weather.snap",
    ] {
        let err = Runtime::load(&fixture(path), Policy::default()).unwrap_err();
        assert_eq!(err.diagnostics.len(), 1, "{path}: {err}");
        assert_eq!(err.diagnostics[0].rule, "mcp/runs-on-server", "{path}");
        assert!(
            err.to_string().contains("its tools run on their server"),
            "{path}: {err}"
        );
    }
}

#[test]
fn the_model_of_an_mcp_list_adds_no_runnable_tool() {
    let path = fixture("list/server.snap");
    let loaded =
        toolsmith::manifest::lint::load_for_bindings(&path, "server.snap", &Default::default())
            .expect("the fixture loads for bindings");
    assert_eq!(loaded.manifest.tools.len(), 3);
    let mut runtime = Runtime::new(Policy::default());
    runtime.add_manifest(&loaded.manifest);
    assert_eq!(runtime.tool_names().count(), 0);
    let outcome = runtime.dispatch("ping", "{}");
    assert!(outcome.is_err(), "{outcome:?}");
}

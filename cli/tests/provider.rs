//! `toolsmith lint --provider` and `toolsmith export`: real processes on the
//! fixtures under `fixtures/provider/`.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/provider")
}

fn toolsmith(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_toolsmith"))
        .args(args)
        .current_dir(fixtures())
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .expect("the toolsmith binary runs")
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

#[test]
fn an_unknown_provider_is_a_usage_error_listing_the_valid_ones() {
    let out = toolsmith(&["lint", "--provider", "openai,claude", "openai/names"]);
    assert_eq!(code(&out), 2);
    let err = text(&out.stderr);
    assert!(
        err.contains("unknown provider `claude`; valid providers: openai, openai-strict, anthropic, anthropic-strict, gemini, ollama, mcp"),
        "{err}"
    );
}

#[test]
fn providers_are_checked_only_when_asked_comma_separated_or_repeated() {
    let plain = toolsmith(&["lint", "openai/names"]);
    assert_eq!(code(&plain), 0, "{}", text(&plain.stdout));
    assert!(!text(&plain.stdout).contains("provider/"));

    let comma = toolsmith(&["lint", "--provider", "openai,mcp", "openai/names"]);
    let repeated = toolsmith(&[
        "lint",
        "--provider",
        "openai",
        "--provider",
        "mcp",
        "openai/names",
    ]);
    assert_eq!(code(&comma), 1);
    assert_eq!(comma.stdout, repeated.stdout);
    let out = text(&comma.stdout);
    assert!(out.contains("error[provider/openai-name]"), "{out}");
    assert!(
        out.contains("warning[provider/mcp-name]") || !out.contains("mcp"),
        "{out}"
    );
}

#[test]
fn ollama_findings_are_warnings_and_fail_only_with_deny_warnings() {
    let out = toolsmith(&["lint", "--provider", "ollama", "ollama/dropped"]);
    assert_eq!(code(&out), 0, "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("warning[provider/ollama-dropped-keyword]"));
    let out = toolsmith(&[
        "lint",
        "--provider",
        "ollama",
        "--deny-warnings",
        "ollama/dropped",
    ]);
    assert_eq!(code(&out), 1);
}

#[test]
fn export_prints_the_fragment_and_exits_zero_when_every_tool_is_accepted() {
    let out = toolsmith(&["export", "--to", "mcp", "export/typical"]);
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    let fragment: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let tools = fragment["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 2);
    assert_eq!(tools[0]["name"], "search_files");
    assert!(tools[0]["inputSchema"].is_object());
}

#[test]
fn a_refused_tool_fails_the_export_unless_skipped() {
    let args = [
        "export",
        "--to",
        "openai-chat",
        "--strict",
        "export/refused",
    ];
    let out = toolsmith(&args);
    assert_eq!(code(&out), 1);
    assert!(out.stdout.is_empty(), "no fragment: {}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(err.contains("provider/openai-strict-keyword"), "{err}");
    assert!(
        err.contains("1 of 2 tools would be refused by openai-chat"),
        "{err}"
    );

    let out = toolsmith(&[&args[..], &["--skip-incompatible"]].concat());
    assert_eq!(code(&out), 1, "the refusal is still an error finding");
    let fragment: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let tools = fragment["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0]["function"]["name"], "read_file");
    assert_eq!(tools[0]["function"]["strict"], true);
    assert_eq!(
        tools[0]["function"]["parameters"]["properties"]["lines"]["type"],
        serde_json::json!(["integer", "null"])
    );
}

#[test]
fn strict_for_a_provider_without_a_strict_mode_is_a_usage_error() {
    let out = toolsmith(&["export", "--to", "gemini", "--strict", "export/typical"]);
    assert_eq!(code(&out), 2);
    assert!(text(&out.stderr).contains("`gemini` has no strict mode"));
    let out = toolsmith(&["export", "--to", "claude", "export/typical"]);
    assert_eq!(code(&out), 2);
    assert!(
        text(&out.stderr).contains(
            "valid targets: openai-chat, openai-responses, anthropic, gemini, ollama, mcp"
        )
    );
}

#[test]
fn a_missing_path_is_a_tool_error() {
    let out = toolsmith(&["export", "--to", "mcp", "no/such/dir"]);
    assert_eq!(code(&out), 2);
    assert!(out.stdout.is_empty());
}

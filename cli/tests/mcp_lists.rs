//! MCP tool lists as input (`--dialect mcp`): real `toolsmith lint` and
//! `toolsmith export` processes on the fixtures under `fixtures/mcp/` and
//! `fixtures/provider/export/mcp-list/`.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

fn toolsmith(args: &[&str], dir: &Path) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_toolsmith"))
        .args(args)
        .current_dir(dir)
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

/// `(rule, file, line, column)` of every diagnostic of a `--format json` run.
fn findings(out: &Output) -> Vec<(String, String, u64, u64)> {
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap_or_default().to_string(),
                d["file"].as_str().unwrap_or_default().to_string(),
                d["line"].as_u64().unwrap_or_default(),
                d["column"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn a_snap_file_named_on_the_command_line_is_an_mcp_tool_with_provider_findings_at_their_keyword() {
    let dir = tempfile::tempdir().unwrap();
    let tool = r#"{
  "name": "get_label",
  "description": "Get a label.",
  "inputSchema": {
    "type": "object",
    "properties": {
      "owner": {"type": "string", "default": "octocat"},
      "kind": {"const": "label"}
    },
    "required": ["owner"]
  }
}
"#;
    std::fs::write(dir.path().join("get_label.snap"), tool).unwrap();
    let out = toolsmith(
        &[
            "lint",
            "--format",
            "json",
            "--provider",
            "openai-strict,gemini",
            "get_label.snap",
        ],
        dir.path(),
    );
    assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    let found = findings(&out);
    assert!(
        !found.iter().any(|(r, ..)| r == "dialect/unknown"),
        "{found:?}"
    );
    // Gemini refuses `const` where it is written: line 8, column 16.
    assert!(
        found.iter().any(|f| f
            == &(
                "provider/gemini-keyword".into(),
                "get_label.snap".into(),
                8,
                16
            )),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|(r, ..)| r == "provider/openai-strict-additional-properties"),
        "{found:?}"
    );
}

#[test]
fn the_walk_adds_mcp_tools_json_and_dialect_mcp_forces_the_dialect() {
    let out = toolsmith(
        &["lint", "--format", "json", "mcp/invalid/duplicate-name"],
        &fixtures(),
    );
    assert_eq!(code(&out), 1);
    let found = findings(&out);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "mcp/duplicate-name");
    assert_eq!(
        found[0].1,
        "mcp/invalid/duplicate-name/server.mcp-tools.json"
    );

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tools.json"), r#"{"servers": []}"#).unwrap();
    let detected = toolsmith(&["lint", "--format", "json", "tools.json"], dir.path());
    assert_eq!(findings(&detected)[0].0, "dialect/unknown");
    let forced = toolsmith(
        &["lint", "--format", "json", "--dialect", "mcp", "tools.json"],
        dir.path(),
    );
    assert_eq!(code(&forced), 1);
    let found = findings(&forced);
    assert_eq!(found[0].0, "mcp/list-shape", "{found:?}");
}

#[test]
fn a_json_rpc_error_response_is_a_finding_not_a_crash() {
    let out = toolsmith(
        &["lint", "mcp/invalid/jsonrpc-error/response.mcp-tools.json"],
        &fixtures(),
    );
    assert_eq!(code(&out), 1);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "error[mcp/jsonrpc-error]: the server answered `tools/list` with JSON-RPC error -32601: \"Method not found\""
        ),
        "{stdout}"
    );
}

#[test]
fn export_strict_of_an_mcp_list_closes_a_free_form_map_with_a_warning_and_refuses_oneof() {
    let dir = fixtures().join("provider/export/mcp-list");
    let refused = toolsmith(
        &[
            "export",
            "--to",
            "openai-chat",
            "--strict",
            "github.mcp-tools.json",
        ],
        &dir,
    );
    assert_eq!(code(&refused), 1);
    assert!(
        refused.stdout.is_empty(),
        "nothing exported without --skip-incompatible"
    );
    let out = toolsmith(
        &[
            "export",
            "--to",
            "openai-chat",
            "--strict",
            "--skip-incompatible",
            "github.mcp-tools.json",
        ],
        &dir,
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("warning[provider/openai-strict-closes-map]: `--strict` closes the free-form map `inputs` of `actions_run_trigger`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("error[provider/openai-strict-keyword]"),
        "{stderr}"
    );
    let fragment: Value = serde_json::from_slice(&out.stdout).expect("a fragment");
    let names: Vec<&str> = fragment["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["function"]["name"].as_str())
        .collect();
    assert_eq!(names, ["actions_run_trigger", "get_label"]);
    let inputs = &fragment["tools"][0]["function"]["parameters"]["properties"]["inputs"];
    assert_eq!(inputs["additionalProperties"], Value::Bool(false));
}

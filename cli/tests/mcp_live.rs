//! `toolsmith lint --mcp-command -- PROGRAM ARGS…` against real stdio MCP
//! servers: toolsmith's own `serve --mcp` on a fixture, a small rmcp server
//! publishing a deliberately broken tool on its second page
//! (`examples/broken_mcp_server.rs`), and servers that hang, exit at once,
//! write garbage or answer with a JSON-RPC error.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

const BIN: &str = env!("CARGO_BIN_EXE_toolsmith");

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// `target/<profile>/examples/broken_mcp_server`, built by `cargo test`.
fn broken_server() -> PathBuf {
    let profile_dir = Path::new(BIN).parent().expect("the binary's directory");
    profile_dir.join("examples").join("broken_mcp_server")
}

fn lint(args: &[&str], cwd: &Path) -> Output {
    std::process::Command::new(BIN)
        .arg("lint")
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("TOOLSMITH_TEST_SECRET", "do-not-leak")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .expect("toolsmith runs")
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `(rule, file, line)` of every diagnostic of a `--format json` run.
fn findings(out: &Output) -> Vec<(String, String, u64, String)> {
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)));
    report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap_or_default().to_string(),
                d["file"].as_str().unwrap_or_default().to_string(),
                d["line"].as_u64().unwrap_or_default(),
                d["message"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn toolsmith_serve_on_a_fixture_is_linted_live_and_saved_pretty_printed() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("served.json");
    let fixture = fixtures().join("examples/describe-tools");
    let out = lint(
        &[
            "--format",
            "json",
            "--provider",
            "openai-strict",
            "--save",
            saved.to_str().unwrap(),
            "--mcp-command",
            "--",
            BIN,
            "serve",
            "--mcp",
            fixture.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    let list: Value = serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    let names: Vec<&str> = list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["disk_usage", "get_weather", "github_issue"]);
    let found = findings(&out);
    // No MCP finding (toolsmith serves valid lists); the provider's point into the saved file.
    assert!(
        found.iter().all(|(r, ..)| r.starts_with("provider/")),
        "{found:?}"
    );
    let optional = found
        .iter()
        .find(|(r, ..)| r == "provider/openai-strict-optional")
        .expect("an optional property");
    assert_eq!(optional.1, saved.to_str().unwrap());
    let line = std::fs::read_to_string(&saved)
        .unwrap()
        .lines()
        .nth(usize::try_from(optional.2).unwrap() - 1)
        .unwrap()
        .to_string();
    assert!(line.contains("\"path\""), "{line}");
}

#[test]
fn a_broken_tool_on_the_second_page_is_found_in_the_temporary_copy() {
    let dir = tempfile::tempdir().unwrap();
    let server = broken_server();
    let out = lint(
        &[
            "--format",
            "json",
            "--mcp-command",
            "--",
            server.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    let saved = stderr
        .split(" was saved to ")
        .nth(1)
        .map(|rest| rest.trim().to_string())
        .unwrap_or_else(|| panic!("no saved path in {stderr}"));
    let list: Value = serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    let _ = std::fs::remove_file(&saved);
    assert_eq!(
        list["tools"].as_array().map(Vec::len),
        Some(2),
        "both pages"
    );
    assert!(list.get("nextCursor").is_none());
    let found = findings(&out);
    let rules: Vec<&str> = found.iter().map(|(r, ..)| r.as_str()).collect();
    for rule in [
        "mcp/name-characters",
        "mcp/schema-type",
        "schema/required-not-in-properties",
    ] {
        assert!(rules.contains(&rule), "{rule} missing: {found:?}");
    }
    assert!(
        found.iter().all(|(_, file, ..)| *file == saved),
        "{found:?}"
    );
}

#[test]
fn a_json_rpc_error_to_tools_list_is_a_positioned_finding() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("answer.json");
    let server = broken_server();
    let out = lint(
        &[
            "--format",
            "json",
            "--save",
            saved.to_str().unwrap(),
            "--mcp-command",
            "--",
            server.to_str().unwrap(),
            "--error",
        ],
        dir.path(),
    );
    assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    let found = findings(&out);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "mcp/jsonrpc-error");
    assert!(
        found[0].3.contains("the tool registry is down"),
        "{found:?}"
    );
    assert!(found[0].2 > 1, "points at the error object: {found:?}");
}

/// True when `pid` no longer runs: gone, or a zombie waiting to be reaped.
fn gone(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
    }
}

#[test]
fn a_hanging_server_is_stopped_with_its_children_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let script = format!("sleep 1000 & echo $! > {}; wait", pidfile.to_str().unwrap());
    let out = lint(
        &[
            "--format",
            "json",
            "--mcp-timeout",
            "1",
            "--mcp-command",
            "--",
            "sh",
            "-c",
            &script,
        ],
        dir.path(),
    );
    assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    let found = findings(&out);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "mcp/server-timeout");
    assert!(
        found[0]
            .3
            .contains("did not answer `initialize` within 1 s"),
        "{found:?}"
    );
    let child: i32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // The group was killed (the sleep may stay a zombie until it is reaped).
    let mut stopped = false;
    for _ in 0..100 {
        if gone(child) {
            stopped = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(stopped, "the server's child {child} survived");
}

#[test]
fn a_server_that_exits_at_once_is_reported_with_its_status_and_stderr_and_a_scrubbed_env() {
    let dir = tempfile::tempdir().unwrap();
    let out = lint(
        &[
            "--format",
            "json",
            "--mcp-command",
            "--",
            "sh",
            "-c",
            "env | sort >&2; exit 7",
        ],
        dir.path(),
    );
    assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    let found = findings(&out);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "mcp/server-exit");
    let message = &found[0].3;
    assert!(message.contains("exit status: 7"), "{message}");
    assert!(message.contains("PATH="), "{message}");
    assert!(!message.contains("TOOLSMITH_TEST_SECRET"), "{message}");
}

#[test]
fn a_server_writing_garbage_on_stdout_is_reported_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = lint(
        &[
            "--format",
            "json",
            "--mcp-timeout",
            "600",
            "--mcp-command",
            "--",
            "sh",
            "-c",
            "echo 'Server listening on stdio'; sleep 1000",
        ],
        dir.path(),
    );
    assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    let found = findings(&out);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "mcp/server-garbage");
    assert!(
        found[0].3.contains("Server listening on stdio"),
        "{found:?}"
    );
}

#[test]
fn a_program_that_does_not_exist_is_a_start_finding() {
    let dir = tempfile::tempdir().unwrap();
    let out = lint(
        &[
            "--format",
            "json",
            "--mcp-command",
            "--",
            "/nonexistent/server",
        ],
        dir.path(),
    );
    assert_eq!(code(&out), 1);
    let found = findings(&out);
    assert_eq!(found[0].0, "mcp/server-start");
    assert!(found[0].3.contains("/nonexistent/server"), "{found:?}");
}

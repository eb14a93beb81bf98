//! `toolsmith serve --mcp` with a real MCP client: rmcp's, over the child
//! process transport (the built binary, spawned as a host spawns it).

use rmcp::model::{CallToolRequestParams, CallToolResult, ClientRequest, Request, Tool};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_toolsmith");

fn script(path: &Path, body: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The chai skill of the examples (`list_directory` builds argv: a leading
/// `-` is refused).
fn coreutils() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/examples/coreutils-skill")
}

/// An agentcli manifest: `echo` (JSON-line result), `touch_marker` (writes
/// a file, risky), `slow` (outlives `--timeout`), `hang` (records its pid
/// and its child's, for the cancellation test; its own timeout is long).
fn agentcli(d: &Path) -> PathBuf {
    script(
        &d.join("tools/bin/echo"),
        r#"printf '{"got":%s}\n' "$(cat)""#,
    );
    script(
        &d.join("tools/bin/touch_marker"),
        &format!(
            "cat >/dev/null; : > {}; echo '{{}}'",
            d.join("marker").display()
        ),
    );
    script(&d.join("tools/bin/slow"), "exec sleep 30");
    script(
        &d.join("tools/bin/hang"),
        &format!(
            "sleep 60 & echo $! > {p}/child.tmp; mv {p}/child.tmp {p}/child; echo $$ > {p}/pid.tmp; mv {p}/pid.tmp {p}/pid; wait",
            p = d.display()
        ),
    );
    let manifest = d.join("tools.json");
    std::fs::write(
        &manifest,
        r#"{"tools":[
            {"name":"echo","description":"Echo the arguments","schema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]},"command":["./tools/bin/echo"]},
            {"name":"touch_marker","schema":{"type":"object","properties":{}},"command":["./tools/bin/touch_marker"]},
            {"name":"slow","command":["./tools/bin/slow"]},
            {"name":"hang","command":["./tools/bin/hang"],"timeoutSec":120}
        ]}"#,
    )
    .unwrap();
    manifest
}

fn risk_file(d: &Path) -> PathBuf {
    let path = d.join("risk.json");
    std::fs::write(
        &path,
        r#"{"mode":"autorun_all","tools":{"echo":{"risk":"safe"},"slow":{"risk":"safe"},"hang":{"risk":"safe"},"list_directory":{"risk":"safe"}}}"#,
    )
    .unwrap();
    path
}

async fn start<H: ClientHandler>(handler: H, args: &[&str]) -> RunningService<RoleClient, H> {
    let mut cmd = tokio::process::Command::new(BIN);
    cmd.arg("serve").arg("--mcp").args(args);
    // The test tools write marker and pid files next to their manifest:
    // grant that directory (calls are confined by default).
    if let Some(dir) = args
        .first()
        .map(Path::new)
        .filter(|p| p.is_file())
        .and_then(Path::parent)
    {
        cmd.arg("--write").arg(dir);
    }
    let (transport, _) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn toolsmith serve");
    handler.serve(transport).await.expect("MCP handshake")
}

fn args(map: Value) -> serde_json::Map<String, Value> {
    map.as_object().cloned().unwrap_or_default()
}

async fn call(client: &RunningService<RoleClient, ()>, name: &str, a: Value) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(args(a)))
        .await
        .unwrap_or_else(|e| panic!("tools/call {name}: {e}"))
}

fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn tool<'a>(tools: &'a [Tool], name: &str) -> &'a Tool {
    tools
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
}

#[tokio::test]
async fn lists_and_calls_tools_through_the_runtime_and_its_policy() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let manifest = agentcli(d);
    let risk = risk_file(d);
    let audit = d.join("audit.jsonl");
    let client = start(
        (),
        &[
            manifest.to_str().unwrap(),
            coreutils().to_str().unwrap(),
            "--risk",
            risk.to_str().unwrap(),
            "--timeout",
            "0.5",
            "--sandbox",
            d.to_str().unwrap(),
            "--audit",
            audit.to_str().unwrap(),
        ],
    )
    .await;

    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.server_info.as_ref().map(|s| s.name.as_str()),
        Some("toolsmith")
    );
    assert_eq!(info.capabilities.tools.as_ref().unwrap().list_changed, None);

    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "echo",
            "touch_marker",
            "slow",
            "hang",
            "list_directory",
            "count_lines",
            "file_head",
            "utc_date"
        ]
    );
    let echo = tool(&tools, "echo");
    assert_eq!(echo.description.as_deref(), Some("Echo the arguments"));
    assert_eq!(
        Value::Object((*echo.input_schema).clone()),
        json!({"type":"object","properties":{"text":{"type":"string"}},"required":["text"]})
    );
    // An absent agentcli schema is served as an empty object schema.
    assert_eq!(
        Value::Object((*tool(&tools, "slow").input_schema).clone()),
        json!({"type":"object","properties":{}})
    );
    // Annotations from the risk policy: safe is read-only; unlisted is risky.
    let safe = echo.annotations.as_ref().unwrap();
    assert_eq!(
        (safe.read_only_hint, safe.destructive_hint),
        (Some(true), Some(false))
    );
    let risky = tool(&tools, "touch_marker").annotations.as_ref().unwrap();
    assert_eq!(
        (risky.read_only_hint, risky.destructive_hint),
        (Some(false), Some(true))
    );

    // Success: a JSON-line tool's result is also structured content.
    let ok = call(&client, "echo", json!({"text": "hi"})).await;
    assert_eq!(ok.is_error, Some(false), "{}", text(&ok));
    assert_eq!(ok.structured_content, Some(json!({"got": {"text": "hi"}})));
    let listed = call(
        &client,
        "list_directory",
        json!({"path": d.to_str().unwrap()}),
    )
    .await;
    assert_eq!(listed.is_error, Some(false), "{}", text(&listed));
    assert!(text(&listed).contains("tools.json"), "{}", text(&listed));

    // Refusals are isError results that say why; nothing runs.
    let dash = call(&client, "list_directory", json!({"path": "-la"})).await;
    assert_eq!(dash.is_error, Some(true));
    assert!(
        text(&dash).starts_with("refused (leading_dash): "),
        "{}",
        text(&dash)
    );
    let invalid = call(&client, "echo", json!({"text": 3})).await;
    assert_eq!(invalid.is_error, Some(true));
    assert!(
        text(&invalid).starts_with("refused (invalid_arguments): "),
        "{}",
        text(&invalid)
    );
    let unconfirmed = call(&client, "touch_marker", json!({})).await;
    assert_eq!(unconfirmed.is_error, Some(true));
    assert!(
        text(&unconfirmed)
            .starts_with("refused (not_confirmed): tool `touch_marker` needs a confirmation"),
        "{}",
        text(&unconfirmed)
    );
    assert!(text(&unconfirmed).contains("--autorun"));
    assert!(
        text(&unconfirmed).contains("(it would run: ")
            && text(&unconfirmed).contains("tools/bin/touch_marker"),
        "{}",
        text(&unconfirmed)
    );
    assert!(!d.join("marker").exists(), "a refused call ran");

    // A timeout kills the tool and says so.
    let slow = call(&client, "slow", json!({})).await;
    assert_eq!(slow.is_error, Some(true));
    assert!(text(&slow).starts_with("timed_out: "), "{}", text(&slow));

    // An unknown tool is a protocol error (invalid params), as MCP asks.
    let unknown = client
        .call_tool(CallToolRequestParams::new("nope"))
        .await
        .unwrap_err();
    assert!(
        unknown.to_string().contains("unknown tool: nope"),
        "{unknown}"
    );

    client.cancel().await.unwrap();
    let audit = std::fs::read_to_string(&audit).unwrap();
    let events: Vec<Value> = audit
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let has = |event: &str, tool: &str, key: &str, value: &str| {
        events
            .iter()
            .any(|e| e["event"] == event && e["tool"] == tool && e[key] == value)
    };
    assert!(
        has("tool_call_completed", "echo", "status", "success"),
        "{audit}"
    );
    assert!(
        has("tool_call_completed", "slow", "status", "timed_out"),
        "{audit}"
    );
    assert!(
        has(
            "tool_call_rejected",
            "list_directory",
            "kind",
            "leading_dash"
        ),
        "{audit}"
    );
    assert!(
        has(
            "tool_call_rejected",
            "touch_marker",
            "kind",
            "not_confirmed"
        ),
        "{audit}"
    );
    assert!(
        has("tool_call_rejected", "nope", "kind", "unknown_tool"),
        "{audit}"
    );
}

#[tokio::test]
async fn a_directory_of_skills_serves_every_manifest_below_it() {
    let examples = coreutils().parent().unwrap().to_path_buf();
    let client = start((), &[examples.to_str().unwrap()]).await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    // coreutils-skill and notes-skill (chai); describe-tools has no tools.json.
    assert!(
        names.starts_with(&["list_directory", "count_lines", "file_head", "utc_date"]),
        "{names:?}"
    );
    assert!(
        names.contains(&"note_write") && !names.contains(&"get_weather"),
        "{names:?}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn autorun_runs_the_calls_the_risk_policy_wants_confirmed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let manifest = agentcli(d);
    let client = start((), &[manifest.to_str().unwrap(), "--autorun"]).await;
    let done = call(&client, "touch_marker", json!({})).await;
    assert_eq!(done.is_error, Some(false), "{}", text(&done));
    assert!(d.join("marker").exists());
    client.cancel().await.unwrap();
}

/// Whether a process is gone (or a zombie), waiting for it a while.
fn gone(pid: i32) -> bool {
    for _ in 0..200 {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => return true,
            Ok(stat) => {
                let state = stat
                    .rsplit(')')
                    .next()
                    .and_then(|r| r.split_whitespace().next());
                if matches!(state, Some("Z" | "X")) {
                    return true;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

async fn read_pid(path: &Path) -> i32 {
    for _ in 0..400 {
        if let Ok(text) = std::fs::read_to_string(path)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{} never appeared", path.display());
}

#[tokio::test]
async fn cancellation_kills_the_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let manifest = agentcli(d);
    let risk = risk_file(d);
    let client = start(
        (),
        &[manifest.to_str().unwrap(), "--risk", risk.to_str().unwrap()],
    )
    .await;
    let handle = client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("hang"))),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    let pid = read_pid(&d.join("pid")).await;
    let child = read_pid(&d.join("child")).await;
    handle.cancel(Some("test".into())).await.unwrap();
    assert!(gone(pid), "the tool {pid} survived the cancellation");
    assert!(
        gone(child),
        "the tool's child {child} survived the cancellation"
    );
    // The server goes on serving.
    let ok = call(&client, "echo", json!({"text": "after"})).await;
    assert_eq!(ok.is_error, Some(false), "{}", text(&ok));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn closing_the_session_kills_the_calls_in_flight() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let manifest = agentcli(d);
    let risk = risk_file(d);
    let client = start(
        (),
        &[manifest.to_str().unwrap(), "--risk", risk.to_str().unwrap()],
    )
    .await;
    let _pending = client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("hang"))),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    let pid = read_pid(&d.join("pid")).await;
    let child = read_pid(&d.join("child")).await;
    client.cancel().await.unwrap();
    assert!(gone(pid), "the tool {pid} outlived the session");
    assert!(gone(child), "the tool's child {child} outlived the session");
}

/// A client that forwards `notifications/tools/list_changed`.
struct Watcher(tokio::sync::mpsc::UnboundedSender<()>);

impl ClientHandler for Watcher {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send(());
    }
}

#[tokio::test]
async fn watch_reloads_and_notifies_list_changed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let manifest = agentcli(d);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let client = start(Watcher(tx), &[d.to_str().unwrap(), "--watch", "--autorun"]).await;
    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.capabilities.tools.as_ref().unwrap().list_changed,
        Some(true)
    );
    assert_eq!(client.list_all_tools().await.unwrap().len(), 4);

    // A manifest with an error is not loaded: the tools stay.
    std::fs::write(&manifest, "{\"tools\": [").unwrap();
    // A valid edit: one tool left, renamed.
    let text = r#"{"tools":[{"name":"echo2","schema":{"type":"object","properties":{"text":{"type":"string"}}},"command":["./tools/bin/echo"]}]}"#;
    std::fs::write(&manifest, text).unwrap();
    tokio::time::timeout(Duration::from_secs(60), rx.recv())
        .await
        .expect("no notifications/tools/list_changed")
        .expect("channel closed");
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["echo2"]);
    let ok = call_with(&client, "echo2", json!({"text": "new"})).await;
    assert_eq!(ok.structured_content, Some(json!({"got": {"text": "new"}})));
    client.cancel().await.unwrap();
}

async fn call_with<H: ClientHandler>(
    client: &RunningService<RoleClient, H>,
    name: &str,
    a: Value,
) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(args(a)))
        .await
        .unwrap_or_else(|e| panic!("tools/call {name}: {e}"))
}

fn serve_output(args: &[&str]) -> (i32, String) {
    let out = std::process::Command::new(BIN)
        .arg("serve")
        .arg("--mcp")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn refuses_to_start_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let manifest = agentcli(d);
    let m = manifest.to_str().unwrap();

    let (code, stderr) = serve_output(&[m, m]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("the tool name `echo` is declared twice"),
        "{stderr}"
    );

    let (code, stderr) = serve_output(&[m, "--http", "0.0.0.0:0"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("refusing --http 0.0.0.0:0: not a loopback address")
            && stderr.contains("--allow-remote"),
        "{stderr}"
    );

    let (code, stderr) = serve_output(&[m, "--http", "localhost"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("expected IP:PORT"), "{stderr}");

    std::fs::write(
        d.join("bad-risk.json"),
        r#"{"tools": {"echo": {"risk": "maybe"}}}"#,
    )
    .unwrap();
    let bad = d.join("bad-risk.json");
    let (code, stderr) = serve_output(&[m, "--risk", bad.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("not a risk policy: unknown variant `maybe`"),
        "{stderr}"
    );

    std::fs::write(d.join("broken.tools.json"), "{\"tools\": [").unwrap();
    let broken = d.join("broken.tools.json");
    let (code, stderr) = serve_output(&[broken.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("cannot load"), "{stderr}");

    let (code, stderr) = serve_output(&[m, "--env", "LD_PRELOAD=x"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("LD_PRELOAD may not be set"), "{stderr}");
}

/// Streamable HTTP: the address is printed, `initialize` is answered at
/// `/mcp`, other paths are 404 (a raw HTTP/1.1 exchange, no client library).
#[test]
fn http_serves_initialize_on_loopback() {
    use std::io::{BufRead, BufReader, Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let manifest = agentcli(dir.path());
    let mut child = std::process::Command::new(BIN)
        .args([
            "serve",
            "--mcp",
            manifest.to_str().unwrap(),
            "--http",
            "127.0.0.1:0",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let url = line
        .trim()
        .rsplit(' ')
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{line}"
    );
    let authority = url.trim_start_matches("http://").trim_end_matches("/mcp");

    let exchange = |path: &str, body: &str| -> String {
        let mut stream = std::net::TcpStream::connect(authority).unwrap();
        write!(
            stream,
            "POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        let _ = stream.read_to_string(&mut response);
        response
    };
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
    let response = exchange("/mcp", init);
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(
        response.contains(r#""serverInfo":{"name":"toolsmith""#),
        "{response}"
    );
    let response = exchange("/other", init);
    assert!(response.starts_with("HTTP/1.1 404"), "{response}");

    // SIGTERM ends the server with status 0.
    // SAFETY: kill(2) on the child this test spawned.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}

/// The version range of the MCP Python SDK the end-to-end test installs.
const PYTHON_SDK: &str = "mcp>=2.3,<3";

/// The virtual environment's python with `mcp` importable: made under
/// `target/mcp-venv` and filled with `pip install` when missing; `None`
/// (after a printed notice) when python3, venv or pip is unavailable or the
/// install fails.
fn python_with_mcp() -> Option<PathBuf> {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()?
        .to_path_buf();
    let venv = target.join("mcp-venv");
    let python = venv.join("bin/python");
    let has_mcp = |python: &Path| {
        std::process::Command::new(python)
            // Finds the packages without importing them (an import takes seconds).
            .args([
                "-c",
                "import importlib.util as u, sys; sys.exit(not (u.find_spec('mcp') and u.find_spec('anyio')))",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if has_mcp(&python) {
        return Some(python);
    }
    let step = |what: &str, cmd: &mut std::process::Command| -> Option<()> {
        match cmd.output() {
            Ok(out) if out.status.success() => Some(()),
            Ok(out) => {
                eprintln!(
                    "notice: skipping the MCP Python SDK test: {what} failed: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                );
                None
            }
            Err(e) => {
                eprintln!("notice: skipping the MCP Python SDK test: {what}: {e}");
                None
            }
        }
    };
    step(
        "python3 -m venv",
        std::process::Command::new("python3").args(["-m", "venv", venv.to_str()?]),
    )?;
    step(
        &format!("pip install {PYTHON_SDK}"),
        std::process::Command::new(&python).args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            PYTHON_SDK,
        ]),
    )?;
    has_mcp(&python).then_some(python)
}

#[test]
fn python_sdk_client_end_to_end() {
    let Some(python) = python_with_mcp() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let manifest = agentcli(d);
    let risk = risk_file(d);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_python_client.py");
    let out = std::process::Command::new(python)
        .arg(script)
        .args([BIN, manifest.to_str().unwrap()])
        .arg(coreutils())
        .args([risk.to_str().unwrap(), d.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("mcp python client: ok"), "{stdout}");
}

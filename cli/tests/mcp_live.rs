//! `toolsmith lint --mcp-command -- PROGRAM ARGS…` against real stdio MCP
//! servers: toolsmith's own `serve --mcp` on a fixture, a small rmcp server
//! publishing a deliberately broken tool on its second page, and servers that
//! hang, exit at once, write garbage or answer with a JSON-RPC error.
//!
//! The rmcp server is this test binary itself, started again with
//! `TOOLSMITH_TEST_MCP_SERVER` set (`harness = false`: libtest would write on
//! stdout, which is the protocol's channel); `main` runs the tests otherwise.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Output;

const BIN: &str = env!("CARGO_BIN_EXE_toolsmith");

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// Set in the environment of this binary when it runs as the broken server.
const SERVER_MODE: &str = "TOOLSMITH_TEST_MCP_SERVER";

/// `env NAME=1 THIS-BINARY [--error]`: this binary as the broken server
/// (toolsmith scrubs the server's environment, so `env` sets the variable).
fn broken_server(extra: &[&str]) -> Vec<String> {
    let me = std::env::current_exe().expect("the test binary's path");
    let mut argv = vec![
        "env".to_string(),
        format!("{SERVER_MODE}=1"),
        me.to_string_lossy().into_owned(),
    ];
    argv.extend(extra.iter().map(|s| s.to_string()));
    argv
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

/// `--mcp-url`: toolsmith's own `serve --mcp --http 127.0.0.1:0` on a
/// fixture, asked over streamable HTTP; a URL nobody listens on and an
/// `https` URL are findings, not hangs.
fn toolsmith_serve_over_http_is_linted_live() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let fixture = fixtures().join("examples/describe-tools");
    let mut server = std::process::Command::new(BIN)
        .args([
            "serve",
            "--mcp",
            fixture.to_str().unwrap(),
            "--http",
            "127.0.0.1:0",
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(server.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let url = line
        .trim()
        .rsplit(' ')
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{line}");
    let saved = dir.path().join("served.json");
    let out = lint(
        &[
            "--format",
            "json",
            "--provider",
            "openai-strict",
            "--save",
            saved.to_str().unwrap(),
            "--mcp-url",
            &url,
        ],
        dir.path(),
    );
    let _ = server.kill();
    let _ = server.wait();
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
    assert!(
        found.iter().any(
            |(r, f, ..)| r == "provider/openai-strict-optional" && f == saved.to_str().unwrap()
        ),
        "{found:?}"
    );

    // Nobody listens: a start finding, at once.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let out = lint(
        &[
            "--format",
            "json",
            "--mcp-url",
            &format!("http://127.0.0.1:{port}/mcp"),
        ],
        dir.path(),
    );
    assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    let found = findings(&out);
    assert!(
        found.iter().any(|(r, ..)| r == "mcp/server-start"),
        "{found:?}"
    );

    // https needs TLS, which the binary leaves out: said, not attempted.
    let out = lint(
        &[
            "--format",
            "json",
            "--mcp-url",
            "https://example.invalid/mcp",
        ],
        dir.path(),
    );
    let found = findings(&out);
    assert!(
        found
            .iter()
            .any(|(r, _, _, m)| r == "mcp/server-start" && m.contains("TLS")),
        "{found:?}"
    );
}

fn a_broken_tool_on_the_second_page_is_found_in_the_temporary_copy() {
    let dir = tempfile::tempdir().unwrap();
    let server = broken_server(&[]);
    let mut args = vec!["--format", "json", "--mcp-command", "--"];
    args.extend(server.iter().map(String::as_str));
    let out = lint(&args, dir.path());
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

fn a_json_rpc_error_to_tools_list_is_a_positioned_finding() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("answer.json");
    let server = broken_server(&["--error"]);
    let mut args = vec![
        "--format",
        "json",
        "--save",
        saved.to_str().unwrap(),
        "--mcp-command",
        "--",
    ];
    args.extend(server.iter().map(String::as_str));
    let out = lint(&args, dir.path());
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

// --- the broken server ----------------------------------------------------

use rmcp::model::{
    Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use std::sync::Arc;

struct Broken {
    error: bool,
}

fn schema(value: serde_json::Value) -> Arc<serde_json::Map<String, serde_json::Value>> {
    Arc::new(value.as_object().cloned().unwrap_or_default())
}

impl ServerHandler for Broken {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("broken", "0.0.0"))
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        if self.error {
            return Err(ErrorData::internal_error("the tool registry is down", None));
        }
        let second_page = request.and_then(|r| r.cursor).is_some();
        if !second_page {
            let ok = Tool::new(
                "echo",
                "Echo a message.",
                schema(
                    json!({"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}),
                ),
            );
            let mut page = ListToolsResult::with_all_items(vec![ok]);
            page.next_cursor = Some("page-2".into());
            return Ok(page);
        }
        let broken = Tool::new(
            "read file",
            "Read a file.",
            schema(
                json!({"type": "array", "properties": {"path": {"type": "string"}}, "required": ["file"]}),
            ),
        );
        Ok(ListToolsResult::with_all_items(vec![broken]))
    }
}

fn serve_broken() {
    let error = std::env::args().any(|a| a == "--error");
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        std::process::exit(1);
    };
    runtime.block_on(async {
        let Ok(service) = Broken { error }.serve(rmcp::transport::stdio()).await else {
            std::process::exit(1);
        };
        let _ = service.waiting().await;
    });
}

// --- the test runner ------------------------------------------------------

type Case = (&'static str, fn());

const CASES: &[Case] = &[
    (
        "toolsmith_serve_on_a_fixture_is_linted_live_and_saved_pretty_printed",
        toolsmith_serve_on_a_fixture_is_linted_live_and_saved_pretty_printed,
    ),
    (
        "a_broken_tool_on_the_second_page_is_found_in_the_temporary_copy",
        a_broken_tool_on_the_second_page_is_found_in_the_temporary_copy,
    ),
    (
        "a_json_rpc_error_to_tools_list_is_a_positioned_finding",
        a_json_rpc_error_to_tools_list_is_a_positioned_finding,
    ),
    (
        "a_hanging_server_is_stopped_with_its_children_and_reported",
        a_hanging_server_is_stopped_with_its_children_and_reported,
    ),
    (
        "a_server_that_exits_at_once_is_reported_with_its_status_and_stderr_and_a_scrubbed_env",
        a_server_that_exits_at_once_is_reported_with_its_status_and_stderr_and_a_scrubbed_env,
    ),
    (
        "a_server_writing_garbage_on_stdout_is_reported_at_once",
        a_server_writing_garbage_on_stdout_is_reported_at_once,
    ),
    (
        "a_program_that_does_not_exist_is_a_start_finding",
        a_program_that_does_not_exist_is_a_start_finding,
    ),
    (
        "toolsmith_serve_over_http_is_linted_live",
        toolsmith_serve_over_http_is_linted_live,
    ),
];

fn main() {
    if std::env::var_os(SERVER_MODE).is_some() {
        serve_broken();
        return;
    }
    // `cargo test -- NAME` runs the cases whose name contains NAME.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let mut failed = Vec::new();
    let mut ran = 0;
    for (name, case) in CASES {
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        ran += 1;
        match std::panic::catch_unwind(case) {
            Ok(()) => println!("test {name} ... ok"),
            Err(_) => {
                println!("test {name} ... FAILED");
                failed.push(*name);
            }
        }
    }
    println!(
        "\ntest result: {}. {} passed; {} failed",
        if failed.is_empty() { "ok" } else { "FAILED" },
        ran - failed.len(),
        failed.len()
    );
    if !failed.is_empty() {
        std::process::exit(101);
    }
}

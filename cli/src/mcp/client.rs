//! `toolsmith lint --mcp-command -- PROGRAM ARGS…`: start a stdio MCP
//! server, run `initialize`, page through `tools/list` and stop it, with
//! rmcp's client; `--mcp-url URL` does the same over streamable HTTP
//! (rmcp's reqwest client, without TLS).
//!
//! The server runs as the runtime runs a tool by default: an empty
//! environment but the policy's `PATH` and fixed variables and a scratch
//! `HOME`, its own process group (killed, the whole group, when the list is
//! read or the time is up), stdin and stdout for the protocol, stderr kept
//! (its last 2 KiB) for the findings. One timeout covers the whole session.
//!
//! `tools/list` is sent as a raw request, so that a list rmcp's types cannot
//! hold (a deliberately broken tool) comes back as the JSON the server sent,
//! to be linted; a valid list comes back through rmcp's `ListToolsResult`.

use rmcp::ServiceExt;
use rmcp::model::{ClientRequest, CustomRequest, CustomResult, ServerResult};
use rmcp::service::ServiceError;
use serde_json::{Map, Value, json};
use std::pin::Pin;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, ReadBuf};

/// Most pages of `tools/list` read before giving up.
pub const MAX_PAGES: usize = 1000;
/// How much of the server's stdout is kept to tell garbage from silence.
const KEEP_STDOUT: usize = 4096;
/// How much of the server's stderr (its end) is quoted in findings.
const KEEP_STDERR: usize = 2048;

/// Why no tool list could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The program could not be started.
    Start(String),
    /// No answer in time; `stage` is what it was waiting for.
    Timeout {
        /// `initialize`, `tools/list (page 2)`, …
        stage: String,
        /// The timeout.
        secs: u64,
    },
    /// The server exited (or closed stdout) before answering.
    Exit {
        /// What it was waiting for.
        stage: String,
        /// The exit status, when the process ended.
        status: Option<String>,
        /// The end of its stderr.
        stderr: String,
    },
    /// The server wrote something that is not JSON-RPC.
    Garbage {
        /// The first line it wrote (cut).
        line: String,
    },
    /// The server broke the protocol (a refused handshake, a repeated cursor, …).
    Protocol(String),
}

/// What was read: the document to save and lint (`{"tools": […]}`, or the
/// JSON-RPC error response the server sent to `tools/list`).
pub type Fetched = Result<Value, Failure>;

/// Where the session is, for the timeout's message.
#[derive(Debug, Clone, Default)]
struct Stage(Arc<Mutex<String>>);

impl Stage {
    fn set(&self, stage: impl Into<String>) {
        if let Ok(mut s) = self.0.lock() {
            *s = stage.into();
        }
    }
    fn get(&self) -> String {
        self.0.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

/// A bounded copy of what a reader yields.
#[derive(Debug, Clone, Default)]
struct Kept(Arc<Mutex<Vec<u8>>>);

impl Kept {
    fn push(&self, bytes: &[u8], limit: usize, keep_end: bool) {
        let Ok(mut kept) = self.0.lock() else { return };
        kept.extend_from_slice(bytes);
        if kept.len() > limit {
            if keep_end {
                let cut = kept.len() - limit;
                kept.drain(..cut);
            } else {
                kept.truncate(limit);
            }
        }
    }
    fn text(&self) -> String {
        self.0
            .lock()
            .map(|k| String::from_utf8_lossy(&k).into_owned())
            .unwrap_or_default()
    }
}

/// The server's stdout, its beginning kept.
struct Tee<R> {
    inner: R,
    kept: Kept,
}

impl<R: AsyncRead + Unpin> AsyncRead for Tee<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = &poll {
            let new = &buf.filled()[before..];
            self.kept.push(new, KEEP_STDOUT, false);
        }
        poll
    }
}

/// The first line of `stdout` when it is not a JSON object (what a JSON-RPC
/// peer sends), cut to 120 characters.
fn garbage(stdout: &str) -> Option<String> {
    let line = stdout.lines().find(|l| !l.trim().is_empty())?;
    let is_json_object = serde_json::from_str::<Value>(line.trim()).is_ok_and(|v| v.is_object());
    // A first line cut by the buffer is judged by its start.
    let cut_object = line.trim_start().starts_with('{') && line.len() >= KEEP_STDOUT - 1;
    if is_json_object || cut_object {
        return None;
    }
    let mut shown: String = line.chars().take(120).collect();
    if shown.len() < line.len() {
        shown.push('…');
    }
    Some(shown)
}

/// Starts `argv` as a stdio MCP server and reads its tool list.
pub fn fetch_command(argv: &[String], timeout: Duration) -> Fetched {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Start(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(stdio(argv, timeout))
}

/// Reads the tool list of the streamable-HTTP MCP server at `url`
/// (`--mcp-url`): `initialize`, every page of `tools/list`, then the session
/// is closed; one timeout covers it all.
pub fn fetch_url(url: &str, timeout: Duration) -> Fetched {
    let scheme = url.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
    match scheme.as_deref() {
        Some("http") => {}
        Some("https") => {
            return Err(Failure::Start(format!(
                "`{url}` needs TLS, which toolsmith leaves out (no TLS stack in the binary): reach the server over plain `http://` (e.g. through a local port forward)"
            )));
        }
        _ => {
            return Err(Failure::Start(format!(
                "`{url}` is not an `http://` URL (e.g. `http://127.0.0.1:8080/mcp`)"
            )));
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Start(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(async {
        let stage = Stage::default();
        stage.set("`initialize`");
        match tokio::time::timeout(timeout, http(url, &stage)).await {
            Ok(fetched) => fetched,
            Err(_) => Err(Failure::Timeout {
                stage: stage.get(),
                secs: timeout.as_secs(),
            }),
        }
    })
}

async fn http(url: &str, stage: &Stage) -> Fetched {
    let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(url);
    let client = ()
        .serve(transport)
        .await
        .map_err(|e| Failure::Start(format!("the `initialize` request to `{url}` failed: {e}")))?;
    let listed = list_pages(&client, stage).await;
    let _ = client.cancel().await;
    listed
}

/// A scratch `HOME` for the server, removed when dropped.
struct ScratchHome(std::path::PathBuf);

impl ScratchHome {
    fn new() -> std::io::Result<Self> {
        let dir = std::env::temp_dir().join(format!(
            "toolsmith-mcp-home-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        std::fs::create_dir(&dir)?;
        Ok(ScratchHome(dir))
    }
}

impl Drop for ScratchHome {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

async fn stdio(argv: &[String], timeout: Duration) -> Fetched {
    let Some((program, args)) = argv.split_first() else {
        return Err(Failure::Start("no program given after `--`".into()));
    };
    let home = ScratchHome::new()
        .map_err(|e| Failure::Start(format!("cannot create a scratch HOME: {e}")))?;
    let policy = toolsmith::Policy::default();
    let mut command = tokio::process::Command::new(program);
    command
        .args(args)
        .env_clear()
        .env("PATH", &policy.path)
        .envs(policy.set_env.iter())
        .env("HOME", &home.0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .process_group(0);
    let mut child = command
        .spawn()
        .map_err(|e| Failure::Start(format!("cannot start `{program}`: {e}")))?;
    let pid = child.id();
    let (Some(stdin), Some(stdout), Some(mut stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        kill_group(pid);
        return Err(Failure::Start(
            "the server's pipes could not be opened".into(),
        ));
    };
    let kept_stderr = Kept::default();
    let stderr_task = {
        let kept = kept_stderr.clone();
        tokio::spawn(async move {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf).await {
                if n == 0 {
                    break;
                }
                kept.push(&buf[..n], KEEP_STDERR, true);
            }
        })
    };
    let kept_stdout = Kept::default();
    let reader = Tee {
        inner: stdout,
        kept: kept_stdout.clone(),
    };
    let stage = Stage::default();
    stage.set("`initialize`");
    let session = session(reader, stdin, stage.clone());
    // rmcp skips lines it cannot parse and keeps waiting: watch what the
    // server writes so that garbage ends the session at once.
    let watch = {
        let kept = kept_stdout.clone();
        async move {
            loop {
                tokio::time::sleep(Duration::from_millis(50)).await;
                if let Some(line) = garbage(&kept.text()) {
                    return Failure::Garbage { line };
                }
            }
        }
    };
    let outcome = tokio::time::timeout(timeout, async {
        tokio::select! {
            fetched = session => fetched,
            failure = watch => Err(failure),
        }
    })
    .await;
    // A server that ended by itself: give it a moment to be reaped.
    let exited = match outcome {
        Ok(Ok(_)) => None,
        _ => tokio::time::timeout(Duration::from_millis(300), child.wait())
            .await
            .ok()
            .and_then(Result::ok),
    };
    // Stop the server (its whole group) whatever happened.
    kill_group(pid);
    let _ = tokio::time::timeout(Duration::from_secs(2), child.wait()).await;
    // Let the stderr reader take what is left in the pipe.
    let _ = tokio::time::timeout(Duration::from_millis(200), stderr_task).await;
    let stdout_text = kept_stdout.text();
    match outcome {
        Ok(Ok(list)) => Ok(list),
        Ok(Err(failure)) => match (failure, garbage(&stdout_text), exited) {
            (_, Some(line), _) => Err(Failure::Garbage { line }),
            (Failure::Exit { stage, .. }, None, status) => Err(Failure::Exit {
                stage,
                status: status.map(|s| s.to_string()),
                stderr: kept_stderr.text(),
            }),
            (Failure::Protocol(_), None, Some(status)) => Err(Failure::Exit {
                stage: stage.get(),
                status: Some(status.to_string()),
                stderr: kept_stderr.text(),
            }),
            (other, None, _) => Err(other),
        },
        Err(_) => match garbage(&stdout_text) {
            Some(line) => Err(Failure::Garbage { line }),
            None => Err(Failure::Timeout {
                stage: stage.get(),
                secs: timeout.as_secs(),
            }),
        },
    }
}

/// Kills the process group led by `pid` (the server and what it started).
fn kill_group(pid: Option<u32>) {
    if let Some(pid) = pid.and_then(|p| i32::try_from(p).ok()) {
        // SAFETY: kill(2) on a process group we created; no memory involved.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

/// `initialize`, every page of `tools/list`, then the session is closed.
async fn session<R, W>(reader: R, writer: W, stage: Stage) -> Fetched
where
    R: AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let client = match ().serve((reader, writer)).await {
        Ok(client) => client,
        Err(e) => {
            let text = e.to_string();
            return Err(if text.contains("connection closed") {
                Failure::Exit {
                    stage: stage.get(),
                    status: None,
                    stderr: String::new(),
                }
            } else {
                Failure::Protocol(format!("the `initialize` handshake failed: {text}"))
            });
        }
    };
    let listed = list_pages(&client, &stage).await;
    let _ = client.cancel().await;
    listed
}

/// Reads every page of `tools/list` into one `{"tools": […]}`.
async fn list_pages(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    stage: &Stage,
) -> Fetched {
    let mut tools: Vec<Value> = Vec::new();
    let mut cursor: Option<String> = None;
    let mut cursors = std::collections::HashSet::new();
    for page in 1..=MAX_PAGES {
        stage.set(if page == 1 {
            "`tools/list`".to_string()
        } else {
            format!("`tools/list` (page {page})")
        });
        let params = cursor.as_ref().map(|c| json!({ "cursor": c }));
        let request = ClientRequest::CustomRequest(CustomRequest::new("tools/list", params));
        let result = match client.send_request(request).await {
            Ok(ServerResult::CustomResult(CustomResult(value))) => value,
            Ok(other) => serde_json::to_value(other).unwrap_or(Value::Null),
            Err(ServiceError::McpError(error)) => {
                let mut body = Map::new();
                body.insert("code".into(), json!(error.code.0));
                body.insert("message".into(), json!(error.message));
                if let Some(data) = error.data {
                    body.insert("data".into(), data);
                }
                return Ok(json!({ "jsonrpc": "2.0", "error": body }));
            }
            Err(ServiceError::TransportClosed) => {
                return Err(Failure::Exit {
                    stage: stage.get(),
                    status: None,
                    stderr: String::new(),
                });
            }
            Err(e) => return Err(Failure::Protocol(format!("{} failed: {e}", stage.get()))),
        };
        let Some(page_tools) = result.get("tools").and_then(Value::as_array) else {
            // Not a list: saved as it came, for the lint to say why.
            return Ok(result);
        };
        tools.extend(page_tools.iter().cloned());
        match result.get("nextCursor").and_then(Value::as_str) {
            None => return Ok(json!({ "tools": tools })),
            Some(next) if !cursors.insert(next.to_string()) => {
                return Err(Failure::Protocol(format!(
                    "`tools/list` returned the cursor {next:?} twice: the pages would never end"
                )));
            }
            Some(next) => cursor = Some(next.to_string()),
        }
    }
    Err(Failure::Protocol(format!(
        "`tools/list` still had more pages after {MAX_PAGES}"
    )))
}

#[cfg(test)]
mod tests {
    use super::garbage;

    #[test]
    fn garbage_is_a_first_line_that_is_no_json_object() {
        assert_eq!(garbage(""), None);
        assert_eq!(garbage("{\"jsonrpc\":\"2.0\"}\n"), None);
        assert_eq!(garbage("\nhello world\n"), Some("hello world".into()));
        assert_eq!(garbage("[1,2]\n"), Some("[1,2]".into()));
    }
}

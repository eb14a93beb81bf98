//! `cargo bench -p toolsmith-cli --bench serve`: what one tool call costs
//! through `toolsmith serve --mcp` (a `tools/call` round trip over stdio to a
//! running server: JSON-RPC, validation, plan, spawn, capture) against
//! `toolsmith run` as a process per call (start-up and manifest load included).
//! The tool is a one-line shell script, so the figures are toolsmith's overhead
//! plus one `fork`/`exec` of `/bin/sh`.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_toolsmith");

fn main() {
    divan::main();
}

/// An agentcli manifest with one tool, `echo`, in a temporary directory.
fn manifest() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let bin = dir.path().join("tools/bin/echo");
    std::fs::create_dir_all(bin.parent().expect("parent")).expect("tools/bin");
    std::fs::write(&bin, "#!/bin/sh\nprintf '{\"got\":%s}\\n' \"$(cat)\"\n").expect("script");
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let manifest = dir.path().join("tools.json");
    std::fs::write(
        &manifest,
        r#"{"tools":[{"name":"echo","schema":{"type":"object","properties":{"text":{"type":"string"}}},"command":["./tools/bin/echo"]}]}"#,
    )
    .expect("manifest");
    (dir, manifest)
}

/// A running `toolsmith serve --mcp` after the handshake.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl Session {
    fn start(manifest: &Path) -> Session {
        let mut child = Command::new(BIN)
            .args(["serve", "--mcp", "--autorun"])
            .arg(manifest)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("toolsmith serve starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut session = Session {
            child,
            stdin,
            stdout,
            next: 1,
        };
        session.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}),
        );
        session.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        session
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").expect("write");
        self.stdin.flush().expect("flush");
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.stdout.read_line(&mut line).expect("read") > 0,
                "server closed"
            );
            let message: Value = serde_json::from_str(&line).expect("JSON-RPC line");
            if message["id"] == id {
                return message;
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[divan::bench(sample_count = 100, sample_size = 1)]
fn serve_tools_call(bencher: divan::Bencher) {
    let (_dir, manifest) = manifest();
    let mut session = Session::start(&manifest);
    bencher.bench_local(|| {
        let response = session.request(
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "hi"}}),
        );
        assert_eq!(response["result"]["isError"], false, "{response}");
    });
}

#[divan::bench(sample_count = 100, sample_size = 1)]
fn run_process_per_call(bencher: divan::Bencher) {
    let (_dir, manifest) = manifest();
    bencher.bench_local(|| {
        let status = Command::new(BIN)
            .arg("run")
            .arg(&manifest)
            .args(["echo", r#"{"text":"hi"}"#])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("toolsmith run");
        assert!(status.success());
    });
}

//! `toolsmith run` and `toolsmith discover` end to end: output JSON and exit codes.

use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

fn toolsmith(args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_toolsmith"))
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (
        out.status.code().unwrap_or(-1),
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn script(path: &Path, body: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn run_prints_the_outcome_and_maps_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    script(
        &d.join("tools/bin/ok"),
        "cat >/dev/null; echo '{\"ok\":true}'",
    );
    script(&d.join("tools/bin/fail"), "echo nope >&2; exit 4");
    script(&d.join("tools/bin/slow"), "sleep 30");
    std::fs::write(
        d.join("tools.json"),
        r#"{"tools":[
            {"name":"ok","schema":{"type":"object","properties":{"n":{"type":"integer"}}},"command":["./tools/bin/ok"]},
            {"name":"fail","command":["./tools/bin/fail"]},
            {"name":"slow","command":["./tools/bin/slow"]}
        ]}"#,
    )
    .unwrap();
    let m = d.join("tools.json");
    let m = m.to_str().unwrap();

    let (code, out, _) = toolsmith(&["run", m, "ok", r#"{"n":1}"#]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out["status"], "success");
    assert_eq!(out["exit_code"], 0);
    assert_eq!(out["result"], serde_json::json!({"ok": true}));
    assert!(out["duration_ms"].is_u64() && out["truncated"] == false);

    let (code, out, _) = toolsmith(&["run", m, "ok", r#"{"n":"x"}"#]);
    assert_eq!((code, out["kind"].as_str()), (1, Some("invalid_arguments")));
    let (code, out, _) = toolsmith(&["run", m, "missing", "{}"]);
    assert_eq!((code, out["kind"].as_str()), (1, Some("unknown_tool")));

    let (code, out, _) = toolsmith(&["run", m, "fail", "{}"]);
    assert_eq!(
        (code, out["status"].as_str(), out["exit_code"].as_i64()),
        (2, Some("failed"), Some(4))
    );
    assert_eq!(out["stderr"], "nope\n");

    let (code, out, _) = toolsmith(&["run", m, "slow", "{}", "--timeout", "0.3"]);
    assert_eq!((code, out["status"].as_str()), (2, Some("timed_out")));

    let (code, out, _) = toolsmith(&["run", m, "ok", "{}", "--max-output", "4"]);
    assert_eq!(code, 0);
    assert_eq!(out["truncated"], true);
}

#[test]
fn discover_prints_the_catalog_and_warns_about_broken_tools() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    script(
        &d.join("hello"),
        r#"[ "$1" = --describe ] && { echo '{"name":"hello","description":"Greets","parameters":{"type":"object","properties":{}}}'; exit 0; }
echo "hello $1""#,
    );
    script(&d.join("broken"), "exit 3");
    let (code, out, stderr) = toolsmith(&["discover", d.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(out.as_array().map(Vec::len), Some(1));
    assert_eq!(out[0]["name"], "hello");
    assert!(stderr.contains("warning: skipping broken"), "{stderr}");
    let (code, out, _) = toolsmith(&["run", d.to_str().unwrap(), "hello", "{}"]);
    assert_eq!(code, 0);
    assert_eq!(out["stdout"], "hello {}\n");
    let (code, _, _) = toolsmith(&["run", d.to_str().unwrap(), "broken", "{}"]);
    assert_eq!(code, 1);
}

#[test]
fn run_redacts_secrets_in_refusals_and_the_audit() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    script(&d.join("tools/bin/ok"), "cat >/dev/null; echo '{}'");
    std::fs::write(
        d.join("tools.json"),
        r#"{"tools":[{"name":"ok","schema":{"type":"object","properties":{"n":{"type":"integer"}}},"command":["./tools/bin/ok"]}]}"#,
    )
    .unwrap();
    let m = d.join("tools.json");
    let audit = d.join("audit.jsonl");
    let secret = "sk-SECRET-4242";
    let (code, out, stderr) = toolsmith(&[
        "run",
        m.to_str().unwrap(),
        "ok",
        &format!(r#"{{"n":"{secret}"}}"#),
        "--audit",
        audit.to_str().unwrap(),
        "--redact",
        secret,
        "--redact",
        "unused",
    ]);
    assert_eq!((code, out["kind"].as_str()), (1, Some("invalid_arguments")));
    let printed = out["error"].as_str().unwrap();
    assert!(printed.contains("[REDACTED]"), "{printed}");
    assert!(
        !printed.contains(secret) && !stderr.contains(secret),
        "{stderr}"
    );
    let log = std::fs::read_to_string(&audit).unwrap();
    assert!(
        log.contains("tool_call_rejected") && log.contains("[REDACTED]"),
        "{log}"
    );
    assert!(!log.contains(secret), "{log}");
    // Every record text: also the tool name of an unknown tool.
    let (code, _, _) = toolsmith(&[
        "run",
        m.to_str().unwrap(),
        secret,
        "{}",
        "--audit",
        audit.to_str().unwrap(),
        "--redact",
        secret,
    ]);
    assert_eq!(code, 1);
    let log = std::fs::read_to_string(&audit).unwrap();
    assert_eq!(log.lines().count(), 2);
    assert!(!log.contains(secret), "{log}");
}

#[test]
fn run_reports_the_outcome_when_sigchld_is_ignored() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    script(&d.join("tools/bin/ok"), "cat >/dev/null; echo '{\"ok\":1}'");
    script(&d.join("tools/bin/fail"), "exit 3");
    std::fs::write(
        d.join("tools.json"),
        r#"{"tools":[{"name":"ok","command":["./tools/bin/ok"]},{"name":"fail","command":["./tools/bin/fail"]}]}"#,
    )
    .unwrap();
    let m = d.join("tools.json");
    let run = |tool: &str| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_toolsmith"));
        cmd.args(["run", m.to_str().unwrap(), tool, "{}"]);
        // SAFETY: signal() is async-signal-safe; an agent host that ignores
        // SIGCHLD passes the disposition on across exec.
        unsafe {
            cmd.pre_exec(|| {
                libc::signal(libc::SIGCHLD, libc::SIG_IGN);
                Ok(())
            });
        }
        let out = cmd.output().unwrap();
        let json: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        (out.status.code(), json)
    };
    let (code, out) = run("ok");
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(out["result"], serde_json::json!({"ok": 1}));
    let (code, out) = run("fail");
    assert_eq!(
        (code, out["exit_code"].as_i64()),
        (Some(2), Some(3)),
        "{out}"
    );
}

#[test]
fn huge_timeouts_never_panic() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    script(&d.join("tools/bin/ok"), "cat >/dev/null; echo '{\"ok\":1}'");
    std::fs::write(
        d.join("tools.json"),
        r#"{"tools":[{"name":"ok","command":["./tools/bin/ok"],"timeoutSec":9223372036854775807}]}"#,
    )
    .unwrap();
    let m = d.join("tools.json");
    let m = m.to_str().unwrap();
    // A manifest timeout is saturated to the maximum: the call runs normally.
    let (code, out, stderr) = toolsmith(&["run", m, "ok", "{}"]);
    assert_eq!(code, 0, "{out} {stderr}");
    assert_eq!(out["result"], serde_json::json!({"ok": 1}));
    // An option above the maximum is refused before anything runs.
    for t in ["1e19", "1e300", "604801"] {
        let (code, out, stderr) = toolsmith(&["run", m, "ok", "{}", "--timeout", t]);
        assert_eq!(code, 1, "{t}: {out} {stderr}");
        assert_eq!(out["kind"], "invalid_option");
        assert!(
            out["error"]
                .as_str()
                .unwrap()
                .contains("at most 604800 seconds"),
            "{out}"
        );
        let (code, _, _) = toolsmith(&["discover", d.to_str().unwrap(), "--timeout", t]);
        assert_eq!(code, 1);
    }
    let (code, out, _) = toolsmith(&["run", m, "ok", "{}", "--timeout", "604800"]);
    assert_eq!(code, 0, "{out}");
}

/// Whether a process is gone (absent or a zombie), waiting up to 10 s.
fn gone(pid: i32) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(10) {
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
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    false
}

#[test]
fn sigterm_and_sigint_to_run_end_the_tool() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pidfile = d.join("pid");
    script(
        &d.join("tools/bin/slow"),
        &format!(
            "echo $$ > {}.tmp; mv {0}.tmp {0}; exec sleep 30",
            pidfile.display()
        ),
    );
    std::fs::write(
        d.join("tools.json"),
        r#"{"tools":[{"name":"slow","command":["./tools/bin/slow"]}]}"#,
    )
    .unwrap();
    let m = d.join("tools.json");
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let _ = std::fs::remove_file(&pidfile);
        let start = std::time::Instant::now();
        let child = Command::new(env!("CARGO_BIN_EXE_toolsmith"))
            // The tool writes its pid next to the manifest: a granted root.
            .args(["run", m.to_str().unwrap(), "slow", "{}", "--write"])
            .arg(d)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let tool_pid: i32 = loop {
            if let Some(pid) = std::fs::read_to_string(&pidfile)
                .ok()
                .and_then(|s| s.trim().parse().ok())
            {
                break pid;
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(10),
                "tool did not start"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let toolsmith_pid = i32::try_from(child.id()).unwrap();
        assert_eq!(unsafe { libc::kill(toolsmith_pid, signal) }, 0);
        let out = child.wait_with_output().unwrap();
        let json: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        assert!(
            gone(tool_pid),
            "signal {signal}: the tool {tool_pid} survived"
        );
        assert_eq!(out.status.code(), Some(2), "signal {signal}: {json}");
        assert_eq!(json["status"], "cancelled");
        assert!(start.elapsed() < std::time::Duration::from_secs(15));
    }
}

#[test]
fn run_of_a_symlink_discovers_only_the_named_directory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let marker = d.join("described");
    script(
        &d.join("hello"),
        &format!(
            r#"[ "$1" = --describe ] && {{ echo x >> {}; echo '{{"name":"hello","description":"Greets","parameters":{{"type":"object","properties":{{}}}}}}'; exit 0; }}
echo "hello $1""#,
            marker.display()
        ),
    );
    std::os::unix::fs::symlink("/bin/sh", d.join("shell")).unwrap();
    std::os::unix::fs::symlink(d.join("hello"), d.join("alias")).unwrap();
    // A symlink out of the directory: refused, and nothing of /bin's directory is run.
    let (code, out, stderr) = toolsmith(&["run", d.join("shell").to_str().unwrap(), "shell", "{}"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(out["status"], "refused");
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert!(
        warnings.len() <= 1,
        "ran --describe outside the directory: {stderr}"
    );
    assert!(out["error"].as_str().unwrap().contains("shell"), "{out}");
    // A symlink inside the directory runs its target.
    let (code, out, stderr) = toolsmith(&["run", d.join("alias").to_str().unwrap(), "hello", "{}"]);
    assert_eq!(code, 0, "{out} {stderr}");
    assert_eq!(out["stdout"], "hello {}\n");
    // Relative to the working directory, as typed.
    let out = Command::new(env!("CARGO_BIN_EXE_toolsmith"))
        .args(["run", "./shell", "shell", "{}"])
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.lines().filter(|l| l.starts_with("warning:")).count() <= 1,
        "{stderr}"
    );
}

fn notes_skill() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/examples/notes-skill")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn dry_run_prints_the_plan_and_runs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let sandbox = root.to_str().unwrap();
    let skill = notes_skill();
    let args = r#"{"path": "new/note.md", "content": "hi"}"#;
    let (code, plan, _) = toolsmith(&[
        "run",
        &skill,
        "note_write",
        args,
        "--sandbox",
        sandbox,
        "--dry-run",
    ]);
    assert_eq!(code, 0, "{plan}");
    assert_eq!(plan["status"], "planned");
    assert_eq!(plan["tool"], "note_write");
    let target = root.join("new/note.md");
    assert_eq!(
        plan["argv"],
        serde_json::json!(["tee", target.to_str().unwrap()])
    );
    assert_eq!(plan["stdin"], "hi");
    assert_eq!(plan["cwd"], sandbox);
    assert!(
        plan["program"].as_str().unwrap().ends_with("/tee"),
        "{plan}"
    );
    // Nothing ran: no file, no directory.
    assert!(!root.join("new").exists());
    // The same call without --dry-run writes it.
    let (code, outcome, _) = toolsmith(&["run", &skill, "note_write", args, "--sandbox", sandbox]);
    assert_eq!(
        (code, outcome["result"].as_str()),
        (0, Some("hi")),
        "{outcome}"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "hi");
    // Without a sandbox a path parameter is refused, naming the flag (exit 1, as `run`).
    let (code, refusal, _) = toolsmith(&["run", &skill, "note_write", args, "--dry-run"]);
    assert_eq!(code, 1);
    assert_eq!(refusal["status"], "refused");
    assert!(
        refusal["error"].as_str().unwrap().contains("--sandbox"),
        "{refusal}"
    );
    // Simulated output goes through the output pipeline.
    let (code, plan, _) = toolsmith(&[
        "run",
        &skill,
        "notes_search",
        r#"{"text": "tea"}"#,
        "--sandbox",
        sandbox,
        "--dry-run",
        "--simulated-output",
        "",
        "--simulated-exit",
        "1",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        plan["simulated"]["result"],
        "\nhint: no note contains tea\n"
    );
    let (_, plan, _) = toolsmith(&[
        "run",
        &skill,
        "notes_search",
        r#"{"text": "tea"}"#,
        "--sandbox",
        sandbox,
        "--dry-run",
        "--simulated-output",
        "boom",
        "--simulated-exit",
        "2",
    ]);
    assert_eq!(plan["simulated"]["success"], false);
}

#[test]
fn run_confines_the_tool_by_default_and_doctor_says_what_is_enforced() {
    let doctor = Command::new(env!("CARGO_BIN_EXE_toolsmith"))
        .args(["doctor", "--format", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&doctor.stdout).unwrap();
    let enforceable = report["enforceable"].as_bool().unwrap();
    assert_eq!(doctor.status.code(), Some(if enforceable { 0 } else { 1 }));
    if report["mechanisms"]["landlock_abi"] == 0 {
        eprintln!("Landlock unavailable: skipping the confined run");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let outside = d.join("outside");
    script(
        &d.join("tools/bin/plant"),
        &format!(
            "echo x > {} && echo planted; echo '{{}}'",
            outside.display()
        ),
    );
    std::fs::write(
        d.join("tools.json"),
        r#"{"tools":[{"name":"plant","command":["./tools/bin/plant"]}]}"#,
    )
    .unwrap();
    let m = d.join("tools.json");
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_toolsmith"))
            .args(["run", m.to_str().unwrap(), "plant", "{}"])
            .args(extra)
            .output()
            .unwrap()
    };
    let confined = run(&[]);
    assert!(
        !outside.exists(),
        "{}",
        String::from_utf8_lossy(&confined.stdout)
    );
    let unconfined = run(&["--no-confine"]);
    assert!(
        outside.exists(),
        "{}",
        String::from_utf8_lossy(&unconfined.stdout)
    );
}

#[test]
fn allow_network_for_grants_the_named_tool_only() {
    let doctor = Command::new(env!("CARGO_BIN_EXE_toolsmith"))
        .args(["doctor", "--format", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&doctor.stdout).unwrap();
    if report["mechanisms"]["seccomp"] != true || !Path::new("/bin/bash").exists() {
        eprintln!("seccomp or bash unavailable: skipping");
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    script(
        &d.join("tools/bin/connect"),
        &format!("bash -c 'echo hi > /dev/tcp/127.0.0.1/{port}' && echo '{{}}'"),
    );
    std::fs::write(
        d.join("tools.json"),
        r#"{"tools":[{"name":"connect","command":["./tools/bin/connect"]}]}"#,
    )
    .unwrap();
    let m = d.join("tools.json");
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_toolsmith"))
            .args(["run", m.to_str().unwrap(), "connect", "{}"])
            .args(extra)
            .output()
            .unwrap();
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    // A grant for another tool does not open the network to this one.
    let o = run(&["--allow-network-for", "other"]);
    assert_eq!(o["status"], "failed", "{o}");
    assert!(listener.accept().is_err(), "a denied tool connected: {o}");
    let o = run(&["--allow-network-for", "connect"]);
    assert_eq!(o["status"], "success", "{o}");
    listener.set_nonblocking(false).unwrap();
    assert!(
        listener.accept().is_ok(),
        "the granted tool did not connect: {o}"
    );
}

//! Failure modes of running tools (the F numbers of the last column of
//! docs/runtime.md's table of guarantees), each with real processes.

mod common;

use common::*;
use serde_json::{Value, json};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use toolsmith::manifest::model::ResolveCommand;
use toolsmith::{
    ArgvError, Audit, CallError, CancelToken, Catalog, Event, LeadingDash, ModelCall, Policy,
    Refusal, Risk, RiskPolicy, Runtime, Status,
};

fn runtime(manifest: &toolsmith::manifest::model::Manifest, policy: Policy) -> Runtime {
    let mut rt = Runtime::new(policy);
    rt.add_manifest(manifest);
    rt
}

fn short(timeout_ms: u64) -> Policy {
    Policy {
        default_timeout: Duration::from_millis(timeout_ms),
        ..Policy::default()
    }
}

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);
impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
impl Shared {
    fn lines(&self) -> Vec<Value> {
        let text = String::from_utf8(self.0.lock().unwrap().clone()).unwrap();
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

#[test]
fn f1_timeout_kills_the_grandchild() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let body = format!(
        "sleep 30 &\necho $! > {}\nsleep 30; echo x",
        pidfile.display()
    );
    let rt = runtime(&agentcli(dir.path(), &[("hang", &body)]), short(300));
    let start = Instant::now();
    let o = rt.dispatch("hang", "{}").unwrap();
    assert_eq!(o.status, Status::TimedOut);
    assert!(
        start.elapsed() < Duration::from_secs(15),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(o.result, Some(json!({"error": "tool timed out"})));
    let pid = read_pid(&pidfile);
    assert!(gone(pid), "grandchild {pid} survived the timeout");
}

#[test]
fn f2_backgrounded_grandchild_does_not_hold_the_call() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let body = format!(
        "sleep 30 &\necho $! > {}\necho '{{\"done\":true}}'",
        pidfile.display()
    );
    let rt = runtime(&agentcli(dir.path(), &[("bg", &body)]), Policy::default());
    let start = Instant::now();
    let o = rt.dispatch("bg", "{}").unwrap();
    assert!(start.elapsed() < Duration::from_secs(15));
    assert_eq!(o.status, Status::Success);
    assert_eq!(o.result, Some(json!({"done": true})));
    assert!(gone(read_pid(&pidfile)), "background child left behind");
}

#[test]
fn f3_setsid_and_double_forked_grandchildren_end_with_the_call() {
    if !has("setsid") {
        eprintln!("setsid not installed; skipping");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    // One grandchild in its own session, one double-forked (its parent, a
    // subshell, exits at once), both holding the output pipes.
    let body = format!(
        "setsid sleep 30 &\necho $! > {}\n( sleep 30 & echo $! > {} )\nsleep 30",
        a.display(),
        b.display()
    );
    let rt = runtime(&agentcli(dir.path(), &[("escape", &body)]), short(300));
    let start = Instant::now();
    let o = rt.dispatch("escape", "{}").unwrap();
    let elapsed = start.elapsed();
    let (a, b) = (read_pid(&a), read_pid(&b));
    let survivors: Vec<i32> = [a, b].into_iter().filter(|p| !gone(*p)).collect();
    survivors.iter().for_each(|p| kill(*p));
    assert_eq!(o.status, Status::TimedOut);
    assert!(survivors.is_empty(), "outlived the call: {survivors:?}");
    // Killed before the drain: nothing holds the pipes, the output is whole.
    assert!(!o.output_incomplete, "{o:?}");
    assert!(elapsed < Duration::from_secs(15), "{elapsed:?}");
}

#[test]
fn setsid_and_double_forked_grandchildren_end_with_a_cancelled_call() {
    if !has("setsid") {
        eprintln!("setsid not installed; skipping");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let body = format!(
        "setsid sleep 30 &\necho $! > {}\n( sleep 30 & echo $! > {} )\nsleep 30",
        a.display(),
        b.display()
    );
    let rt = runtime(
        &agentcli(dir.path(), &[("escape", &body)]),
        Policy::default(),
    );
    let token = CancelToken::new();
    let (t2, pb) = (token.clone(), b.clone());
    let canceller = std::thread::spawn(move || {
        read_pid(&pb);
        t2.cancel();
    });
    let o = rt.dispatch_with("escape", "{}", &token).unwrap();
    canceller.join().unwrap();
    let survivors: Vec<i32> = [read_pid(&a), read_pid(&b)]
        .into_iter()
        .filter(|p| !gone(*p))
        .collect();
    survivors.iter().for_each(|p| kill(*p));
    assert_eq!(o.status, Status::Cancelled, "{o:?}");
    assert!(survivors.is_empty(), "outlived the call: {survivors:?}");
}

#[test]
fn a_setsid_grandchild_with_a_cleared_environment_ends_with_the_call() {
    if !has("setsid") || !has("env") {
        eprintln!("setsid or env not installed; skipping");
        return;
    }
    // `env -i` drops TOOLSMITH_CALL_ID, `setsid` leaves the group: found by
    // ancestry (its parent, the tool, is alive when the call ends), after a
    // timeout and after a cancel, without a cgroup (confinement is off).
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let body = format!(
        "env -i setsid sleep 30 &\necho $! > {}\nsleep 30",
        pidfile.display()
    );
    let rt = runtime(&agentcli(dir.path(), &[("hide", &body)]), short(1000));
    let o = rt.dispatch("hide", "{}").unwrap();
    assert_eq!(o.status, Status::TimedOut, "{o:?}");
    let pid = read_pid(&pidfile);
    let alive = !gone(pid);
    if alive {
        kill(pid);
    }
    assert!(!alive, "{pid} outlived a timed-out call");
    assert!(!o.output_incomplete, "{o:?}");

    std::fs::remove_file(&pidfile).unwrap();
    let token = CancelToken::new();
    let (t2, pf) = (token.clone(), pidfile.clone());
    let canceller = std::thread::spawn(move || {
        read_pid(&pf);
        t2.cancel();
    });
    let o = rt.dispatch_with("hide", "{}", &token).unwrap();
    canceller.join().unwrap();
    assert_eq!(o.status, Status::Cancelled, "{o:?}");
    let pid = read_pid(&pidfile);
    let alive = !gone(pid);
    if alive {
        kill(pid);
    }
    assert!(!alive, "{pid} outlived a cancelled call");
}

#[test]
fn a_daemon_started_by_a_successful_call_does_not_outlive_it() {
    if !has("setsid") {
        eprintln!("setsid not installed; skipping");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let body = format!(
        "setsid sleep 30 >/dev/null 2>&1 < /dev/null &\necho $! > {}\necho '{{}}'",
        pidfile.display()
    );
    let rt = runtime(
        &agentcli(dir.path(), &[("daemon", &body)]),
        Policy::default(),
    );
    for _ in 0..3 {
        let o = rt.dispatch("daemon", "{}").unwrap();
        assert_eq!(o.status, Status::Success, "{o:?}");
        let pid = read_pid(&pidfile);
        let alive = !gone(pid);
        if alive {
            kill(pid);
        }
        assert!(!alive, "daemon {pid} outlived a successful call");
    }
}

#[test]
fn f6_f7_floods_are_capped_on_both_streams() {
    let dir = tempfile::tempdir().unwrap();
    let m = agentcli(
        dir.path(),
        &[
            ("out", "head -c 5000000 /dev/zero | tr '\\0' a"),
            ("err", "yes >&2"),
        ],
    );
    let policy = Policy {
        max_output: 64 * 1024,
        ..short(500)
    };
    let rt = runtime(&m, policy);
    let o = rt.dispatch("out", "{}").unwrap();
    assert_eq!(o.status, Status::Success);
    assert!(o.truncated);
    assert!(o.stdout.len() < 64 * 1024 + 100);
    assert_eq!(o.stdout_dropped, 5_000_000 - 64 * 1024);
    assert!(
        o.stdout
            .contains(&format!("{} bytes dropped", 5_000_000 - 64 * 1024))
    );
    let o = rt.dispatch("err", "{}").unwrap();
    assert_eq!(o.status, Status::TimedOut);
    assert!(o.truncated && o.stderr_dropped > 0);
    assert!(o.stderr.len() < 64 * 1024 + 100);
    assert!(o.stderr.starts_with("y\ny\n"));
}

#[test]
fn f8_multibyte_and_invalid_utf8_output() {
    let dir = tempfile::tempdir().unwrap();
    let m = agentcli(
        dir.path(),
        &[
            (
                "cjk",
                "i=0; while [ $i -lt 40000 ]; do printf '中'; i=$((i+1)); done",
            ),
            ("bytes", "printf '\\377abc'"),
        ],
    );
    let rt = runtime(
        &m,
        Policy {
            max_output: 1001,
            ..Policy::default()
        },
    );
    let o = rt.dispatch("cjk", "{}").unwrap();
    assert!(o.truncated && !o.non_utf8);
    assert!(o.stdout.starts_with('中') && o.stdout.ends_with('中'));
    let o = rt.dispatch("bytes", "{}").unwrap();
    assert!(o.non_utf8);
    assert_eq!(o.stdout, "\u{fffd}abc");
}

#[test]
fn f9_f10_f11_stdin_handling() {
    let dir = tempfile::tempdir().unwrap();
    let m = agentcli(
        dir.path(),
        &[
            (
                "bigio",
                "head -c 1048576 /dev/zero | tr '\\0' x; echo; wc -c",
            ),
            ("noread", "exit 0"),
            ("reads", "read x; echo \"{\\\"got\\\":\\\"$x\\\"}\""),
        ],
    );
    let rt = runtime(
        &m,
        Policy {
            max_output: 4 << 20,
            ..Policy::default()
        },
    );
    let args = json!({ "data": "y".repeat(1 << 20) }).to_string();
    let o = rt.dispatch("bigio", &args).unwrap();
    assert_eq!(o.status, Status::Success);
    assert_eq!(
        o.stdout.lines().last().map(str::trim),
        Some(args.len().to_string().as_str())
    );
    let o = rt.dispatch("noread", &args).unwrap();
    assert_eq!(o.status, Status::Success, "EPIPE on stdin is not an error");
    // The JSON is written and stdin closed: `read` gets the line and does not hang.
    let o = rt.dispatch("reads", r#"{"a":1}"#).unwrap();
    assert_eq!(o.status, Status::Success);
}

#[test]
fn f12_leading_dash_positional_is_refused_before_spawning() {
    let dir = tempfile::tempdir().unwrap();
    let m = chai(
        dir.path(),
        "list",
        "ls",
        "-1",
        vec![positional("path")],
        json!({"type": "object"}),
    );
    let audit = Shared::default();
    let rt = runtime(&m, Policy::default()).with_audit(Audit::new(audit.clone()));
    let err = rt.dispatch("list", r#"{"path": "--version"}"#).unwrap_err();
    assert!(
        matches!(err, Refusal::Argv(ArgvError::LeadingDash { .. })),
        "{err:?}"
    );
    let events = audit.lines();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["event"], "tool_call_rejected");
    assert_eq!(events[0]["kind"], "leading_dash");

    let rt = runtime(
        &m,
        Policy {
            leading_dash: LeadingDash::Marker("--".into()),
            ..Policy::default()
        },
    );
    let o = rt.dispatch("list", r#"{"path": "--version"}"#).unwrap();
    assert!(
        matches!(o.status, Status::Failed { .. }),
        "ls -1 -- --version: no such file"
    );
    assert!(!o.stdout.contains("GNU") && !o.stdout.contains("coreutils"));
}

#[test]
fn f15_nul_byte_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let m = chai(
        dir.path(),
        "list",
        "ls",
        "-1",
        vec![positional("path")],
        json!({"type": "object"}),
    );
    let rt = runtime(&m, Policy::default());
    let err = rt.dispatch("list", r#"{"path": "a\u0000b"}"#).unwrap_err();
    assert_eq!(
        err,
        Refusal::Argv(ArgvError::NulByte {
            param: "path".into()
        })
    );
    let err = rt
        .dispatch("list", &json!({"path": "a".repeat(131_072)}).to_string())
        .unwrap_err();
    assert_eq!(err.kind(), "argument_too_long");
}

#[test]
fn f22_symlink_out_of_tools_bin_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("tools/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink("/bin/sh", bin.join("x")).unwrap();
    // A sibling whose name shares the prefix: `tools/bin_evil` is not inside `tools/bin`.
    script(&dir.path().join("tools/bin_evil/y"), "echo evil");
    std::os::unix::fs::symlink("../bin_evil/y", bin.join("y")).unwrap();
    let tools = vec![
        command_tool("x", "./tools/bin/x", bin.join("x"), None, vec![]),
        command_tool("y", "./tools/bin/y", bin.join("y"), None, vec![]),
    ];
    let m = manifest(
        toolsmith::manifest::model::Dialect::Agentcli,
        dir.path(),
        tools,
        Default::default(),
    );
    let rt = runtime(&m, Policy::default());
    for name in ["x", "y"] {
        let err = rt.dispatch(name, "{}").unwrap_err();
        assert!(
            matches!(err, Refusal::EscapingPath { .. }),
            "{name}: {err:?}"
        );
    }
}

#[test]
fn missing_binary_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let m = chai(
        dir.path(),
        "ghost",
        "no-such-binary-toolsmith",
        "run",
        vec![],
        json!({"type": "object"}),
    );
    let rt = runtime(&m, Policy::default());
    let err = rt.dispatch("ghost", "{}").unwrap_err();
    assert!(
        matches!(err, Refusal::ProgramNotFound { ref program, .. } if program == "no-such-binary-toolsmith")
    );
    assert!(
        err.to_string()
            .contains("program not found: no-such-binary-toolsmith")
    );
    let tools = vec![command_tool(
        "gone",
        "./tools/bin/gone",
        dir.path().join("tools/bin/gone"),
        None,
        vec![],
    )];
    let m = manifest(
        toolsmith::manifest::model::Dialect::Agentcli,
        dir.path(),
        tools,
        Default::default(),
    );
    std::fs::create_dir_all(dir.path().join("tools/bin")).unwrap();
    let err = runtime(&m, Policy::default())
        .dispatch("gone", "{}")
        .unwrap_err();
    assert_eq!(err.kind(), "program_not_found");
}

#[test]
fn f28_signal_death_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let m = agentcli(
        dir.path(),
        &[("sig", "kill -9 $$"), ("fail", "echo bad >&2; exit 3")],
    );
    let rt = runtime(&m, Policy::default());
    let o = rt.dispatch("sig", "{}").unwrap();
    assert_eq!(o.status, Status::Failed { code: None });
    assert_eq!(o.signal, Some(9));
    let o = rt.dispatch("fail", "{}").unwrap();
    assert_eq!(o.status, Status::Failed { code: Some(3) });
    assert_eq!(o.for_model(), json!({"error": "bad"}));
}

#[test]
fn cancel_token_kills_the_group() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let body = format!("sleep 30 &\necho $! > {}\nwait", pidfile.display());
    let rt = runtime(&agentcli(dir.path(), &[("long", &body)]), Policy::default());
    let token = CancelToken::new();
    let t2 = token.clone();
    let pf = pidfile.clone();
    let canceller = std::thread::spawn(move || {
        read_pid(&pf);
        t2.cancel();
    });
    let o = rt.dispatch_with("long", "{}", &token).unwrap();
    canceller.join().unwrap();
    assert_eq!(o.status, Status::Cancelled);
    assert!(gone(read_pid(&pidfile)));
}

#[test]
fn refusals_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let schema = json!({
        "type": "object",
        "properties": {"path": {"type": "string", "minLength": 1}, "n": {"type": "integer"}},
        "required": ["path"],
        "additionalProperties": false
    });
    let mut m = chai(
        dir.path(),
        "list",
        "ls",
        "-1",
        vec![positional("path")],
        schema,
    );
    let rt = runtime(&m, Policy::default());
    assert_eq!(
        rt.dispatch("nope", "{}").unwrap_err(),
        Refusal::Call(CallError::UnknownTool("nope".into()))
    );
    assert!(matches!(
        rt.dispatch("list", "{").unwrap_err(),
        Refusal::Call(CallError::InvalidJson { .. })
    ));
    match rt
        .dispatch("list", r#"{"path": "", "n": "x", "extra": 1}"#)
        .unwrap_err()
    {
        Refusal::Call(CallError::InvalidArguments { violations, .. }) => {
            assert_eq!(violations.len(), 3, "{violations:?}");
            let pointers: Vec<_> = violations.iter().map(|v| v.pointer.as_str()).collect();
            assert!(
                pointers.contains(&"/path") && pointers.contains(&"/n") && pointers.contains(&"")
            );
        }
        other => panic!("{other:?}"),
    }
    // The manifest's allowlist lacks the pair: refused before spawning.
    m.allowlist.clear();
    let rt = runtime(&m, Policy::default());
    let err = rt.dispatch("list", r#"{"path": "."}"#).unwrap_err();
    assert_eq!(
        err,
        Refusal::NotAllowlisted {
            binary: "ls".into(),
            subcommand: Some("-1".into())
        }
    );
}

#[test]
fn chai_tool_runs_with_argv_only() {
    let dir = tempfile::tempdir().unwrap();
    let m = chai(
        dir.path(),
        "show",
        "printf",
        "%s|",
        vec![positional("text")],
        json!({"type": "object"}),
    );
    let rt = runtime(&m, Policy::default());
    let o = rt
        .dispatch("show", r#"{"text": "a b; $(echo no) `x` *"}"#)
        .unwrap();
    assert_eq!(o.status, Status::Success);
    assert_eq!(o.stdout, "a b; $(echo no) `x` *|");
    assert_eq!(o.for_model(), json!("a b; $(echo no) `x` *|"));
}

#[test]
fn resolve_command_replaces_or_keeps_the_value() {
    let dir = tempfile::tempdir().unwrap();
    script(
        &dir.path().join("scripts/upper.sh"),
        "printf '%s' \"$1\" | tr a-z A-Z",
    );
    let by_command = ResolveCommand::Command {
        binary: "basename".into(),
        subcommand: "--".into(),
        args: vec!["$param".into()],
    };
    let by_script = ResolveCommand::Script {
        script: "upper".into(),
        args: vec!["$param".into()],
    };
    let mut m = chai(
        dir.path(),
        "show",
        "printf",
        "%s|",
        vec![resolved("a", by_command), resolved("b", by_script)],
        json!({}),
    );
    m.allowlist.insert("basename".into(), vec!["--".into()]);
    let audit = Shared::default();
    let rt = runtime(&m, Policy::default()).with_audit(Audit::new(audit.clone()));
    let o = rt
        .dispatch("show", r#"{"a": "/x/y/zed", "b": "low"}"#)
        .unwrap();
    assert_eq!(o.stdout, "zed|low|", "script kept: scripts are off");
    let steps: Vec<_> = audit
        .lines()
        .into_iter()
        .filter(|e| e["event"] == "resolve_command")
        .collect();
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[0]["result"], "replaced");
    assert_eq!(steps[1]["result"], "kept");

    let rt = runtime(
        &m,
        Policy {
            allow_scripts: true,
            ..Policy::default()
        },
    );
    let o = rt
        .dispatch("show", r#"{"a": "/x/y/zed", "b": "low"}"#)
        .unwrap();
    assert_eq!(o.stdout, "zed|LOW|");
    // Empty resolver output keeps the original value.
    let o = rt.dispatch("show", r#"{"a": "/", "b": ""}"#).unwrap();
    assert_eq!(o.stdout, "/||");
}

#[test]
fn describe_tools_are_discovered_and_dispatched_from_the_catalog() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    script(
        &d.join("echo_args"),
        r#"if [ "$1" = --describe ]; then echo '{"name":"echo_args","description":"Echo","parameters":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"]}}'; exit 0; fi
printf 'got %s' "$1""#,
    );
    script(&d.join("broken"), "exit 1");
    script(&d.join("garbage"), "echo not json");
    script(&d.join("hangs"), "sleep 30");
    std::fs::write(d.join("notes.txt"), "not executable").unwrap();
    let policy = Policy {
        helper_timeout: Duration::from_millis(500),
        ..Policy::default()
    };
    let catalog = Catalog::discover_with(d, &policy).unwrap();
    assert_eq!(catalog.entries.len(), 1, "{:?}", catalog.warnings);
    assert_eq!(catalog.warnings.len(), 3, "{:?}", catalog.warnings);
    assert_eq!(catalog.to_json()[0]["name"], "echo_args");
    let mut rt = Runtime::new(Policy::default());
    rt.add_catalog(&catalog);
    let o = rt.dispatch("echo_args", r#"{"x": 3}"#).unwrap();
    assert_eq!(o.stdout, r#"got {"x":3}"#);
    assert!(matches!(
        rt.dispatch("echo_args", r#"{"x": "no"}"#),
        Err(Refusal::Call(CallError::InvalidArguments { .. }))
    ));
    assert!(matches!(
        rt.dispatch("broken", "{}"),
        Err(Refusal::Call(CallError::UnknownTool(_)))
    ));
    assert!(matches!(
        rt.dispatch("../echo_args", "{}"),
        Err(Refusal::Call(CallError::UnknownTool(_)))
    ));
}

#[test]
fn batches_run_safe_calls_together_and_confirm_risky_ones() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    // Each waits for the other's file: only concurrent execution lets both succeed.
    let wait_for = |mine: &std::path::Path, other: &std::path::Path| {
        format!(
            "touch {}; i=0; while [ ! -e {} ]; do i=$((i+1)); [ $i -gt 200 ] && exit 7; sleep 0.05; done; echo '{{}}'",
            mine.display(),
            other.display()
        )
    };
    let m = agentcli(
        dir.path(),
        &[
            ("left", &wait_for(&a, &b)),
            ("right", &wait_for(&b, &a)),
            ("rm", "echo '{\"removed\":1}'"),
        ],
    );
    let risk = RiskPolicy::default()
        .set("left", Risk::Safe, None)
        .set("right", Risk::Safe, None)
        .set("rm", Risk::Risky, None);
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let rt = runtime(&m, Policy::default())
        .with_risk(risk)
        .with_events(Arc::new(move |e: &Event| {
            sink.lock().unwrap().push(e.clone())
        }));
    let call = |n: &str| ModelCall {
        name: n.into(),
        arguments: "{}".into(),
    };
    let calls = [call("left"), call("right"), call("rm"), call("rm")];
    let mut asked = Vec::new();
    let mut answers = vec![true, false].into_iter();
    let results = rt.run_batch(&calls, &mut |c| {
        asked.push(c.name.clone());
        answers.next().unwrap_or(false)
    });
    assert_eq!(asked, ["rm", "rm"]);
    assert_eq!(results.len(), 4);
    assert_eq!(results[0].as_ref().unwrap().status, Status::Success);
    assert_eq!(results[1].as_ref().unwrap().status, Status::Success);
    assert_eq!(
        results[2].as_ref().unwrap().result,
        Some(json!({"removed": 1}))
    );
    let Err(Refusal::NotConfirmed { tool, plan }) = &results[3] else {
        panic!("expected not_confirmed, got {:?}", results[3]);
    };
    assert_eq!(tool, "rm");
    // The refusal carries what the call would have run.
    assert_eq!(plan.as_ref().map(|p| p.tool.as_str()), Some("rm"));
    let events = events.lock().unwrap();
    let starts = events
        .iter()
        .filter(|e| matches!(e, Event::Start { .. }))
        .count();
    let ends = events
        .iter()
        .filter(|e| matches!(e, Event::End { .. }))
        .count();
    assert_eq!((starts, ends), (3, 3));
}

#[test]
fn audit_records_names_not_values() {
    let dir = tempfile::tempdir().unwrap();
    let m = chai(
        dir.path(),
        "show",
        "printf",
        "%s",
        vec![positional("text")],
        json!({}),
    );
    let audit = Shared::default();
    let policy = Policy {
        redact: vec!["hunter2".into()],
        ..Policy::default()
    };
    let rt = runtime(&m, policy).with_audit(Audit::new(audit.clone()));
    rt.dispatch("show", r#"{"text": "pw=hunter2"}"#).unwrap();
    let lines = audit.lines();
    let kinds: Vec<_> = lines
        .iter()
        .map(|l| l["event"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds, ["tool_call_requested", "tool_call_completed"]);
    assert_eq!(lines[0]["argv"][2], "pw=[REDACTED]");
    assert_eq!(lines[1]["status"], "success");
    assert!(lines[1]["duration_ms"].is_u64());
}

#[derive(Debug)]
struct Echo(String);
impl toolsmith::Tool for Echo {
    const NAME: &'static str = "echo_tool";
    const DESCRIPTION: &'static str = "echo";
    fn parameters() -> &'static Value {
        static P: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
        P.get_or_init(|| json!({"type": "object"}))
    }
    fn invocation(&self) -> Result<toolsmith::Invocation, ArgvError> {
        Ok(toolsmith::Invocation {
            tool: Self::NAME.into(),
            program: "printf".into(),
            args: vec!["%s".into(), self.0.clone()],
            stdin: None,
            env_passthrough: vec![],
            timeout: None,
            resolve: vec![],
            subcommand: Some("%s".into()),
            chai: None,
            manifest_dir: None,
        })
    }
}

#[test]
fn run_executes_generated_types_under_the_allowlist() {
    let rt = Runtime::new(Policy::default());
    assert!(matches!(
        rt.run(&Echo("hi".into())),
        Err(Refusal::NotAllowlisted { .. })
    ));
    let rt = Runtime::new(Policy::default().allow("printf", ["%s"]));
    let o = rt.run(&Echo("hi".into())).unwrap();
    assert_eq!(o.stdout, "hi");
    assert_eq!(rt.run(&Echo("a\0b".into())).unwrap_err().kind(), "nul_byte");
}

/// A generated agentcli type: the program is the absolute path under `tools/bin`.
struct Generated(std::path::PathBuf);
impl toolsmith::Tool for Generated {
    const NAME: &'static str = "gen";
    const DESCRIPTION: &'static str = "generated";
    fn parameters() -> &'static Value {
        static P: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
        P.get_or_init(|| json!({"type": "object"}))
    }
    fn invocation(&self) -> Result<toolsmith::Invocation, ArgvError> {
        Ok(toolsmith::Invocation {
            tool: Self::NAME.into(),
            program: self.0.to_string_lossy().into_owned(),
            args: vec![],
            stdin: Some(b"{\"a\":1}".to_vec()),
            env_passthrough: vec![],
            timeout: None,
            resolve: vec![],
            subcommand: None,
            chai: None,
            manifest_dir: None,
        })
    }
}

#[test]
fn run_generated_agentcli_types() {
    let dir = tempfile::tempdir().unwrap();
    let m = agentcli(dir.path(), &[("gen", "cat")]);
    let program = dir.path().join("tools/bin/gen");
    // With the manifest loaded, the generated type runs the program checked at load.
    let rt = runtime(&m, Policy::default());
    let o = rt.run(&Generated(program.clone())).unwrap();
    assert_eq!(o.result, Some(json!({"a": 1})));
    // Without it, the path must be allowlisted.
    let bare = Runtime::new(Policy::default());
    assert_eq!(
        bare.run(&Generated(program.clone())).unwrap_err().kind(),
        "not_allowlisted"
    );
    // A symlink out of tools/bin is refused even when allowlisted.
    let link = dir.path().join("tools/bin/sh");
    std::os::unix::fs::symlink("/bin/sh", &link).unwrap();
    let rt = Runtime::new(Policy::default().allow(link.to_str().unwrap(), Vec::<String>::new()));
    assert_eq!(
        rt.run(&Generated(link)).unwrap_err().kind(),
        "escaping_path"
    );
}

#[test]
fn long_calls_send_heartbeats() {
    let dir = tempfile::tempdir().unwrap();
    let rt = runtime(
        &agentcli(dir.path(), &[("slow", "sleep 2; echo '{}'")]),
        Policy::default(),
    );
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let rt = rt.with_events(Arc::new(move |e: &Event| {
        sink.lock().unwrap().push(e.clone())
    }));
    let o = rt.dispatch("slow", "{}").unwrap();
    assert_eq!(o.status, Status::Success);
    let events = events.lock().unwrap();
    assert!(matches!(events.first(), Some(Event::Start { tool, .. }) if tool == "slow"));
    assert!(matches!(
        events.last(),
        Some(Event::End {
            status: "success",
            ..
        })
    ));
    assert!(
        events.iter().any(|e| matches!(e, Event::Heartbeat { .. })),
        "{events:?}"
    );
}

/// A descriptor the caller left open without close-on-exec (a shell's `9>file`).
fn leaked_descriptor(path: &std::path::Path) -> (std::fs::File, i32) {
    use std::os::fd::AsRawFd;
    let file = std::fs::File::create(path).unwrap();
    // F_DUPFD gives a high number (clear of the shell's own descriptors) without FD_CLOEXEC.
    let fd = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_DUPFD, 200) };
    assert!(fd >= 200);
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    assert_eq!(flags & libc::FD_CLOEXEC, 0);
    (file, fd)
}

#[test]
fn only_stdio_descriptors_reach_the_tool_and_it_has_its_own_session() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("leak-target");
    let (_file, fd) = leaked_descriptor(&target);
    let body = format!(
        "if [ -e /proc/$$/fd/{fd} ]; then echo leaked >/proc/$$/fd/{fd}; echo open; else echo closed; fi\n\
         echo \"$$ $(cut -d' ' -f6 /proc/$$/stat) $(cut -d' ' -f5 /proc/$$/stat)\"\n\
         if (: </dev/tty) 2>/dev/null; then echo tty; else echo notty; fi"
    );
    let rt = runtime(&agentcli(dir.path(), &[("fds", &body)]), Policy::default());
    let o = rt.dispatch("fds", "{}").unwrap();
    unsafe { libc::close(fd) };
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.first(), Some(&"closed"), "{}", o.stdout);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "");
    let ids: Vec<i64> = lines[1]
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let (pid, sid, pgid) = (ids[0], ids[1], ids[2]);
    assert_eq!(sid, pid, "the tool leads its own session");
    assert_eq!(pgid, pid, "and its own process group");
    assert_ne!(sid, i64::from(unsafe { libc::getsid(0) }));
    assert_eq!(lines[2], "notty", "no controlling terminal");
}

#[test]
fn every_call_gets_a_private_empty_home_removed_afterwards() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let body =
        "echo \"$HOME\"; ls -A \"$HOME\" | wc -l; stat -c %a \"$HOME\"; touch \"$HOME/.gitconfig\"";
    let rt = runtime(&agentcli(dir.path(), &[("home", body)]), Policy::default());
    let mut homes = Vec::new();
    for _ in 0..2 {
        let o = rt.dispatch("home", "{}").unwrap();
        assert!(o.is_success(), "{o:?}");
        let lines: Vec<&str> = o.stdout.lines().collect();
        assert_eq!(lines[1].trim(), "0", "HOME is empty: {}", o.stdout);
        assert_eq!(lines[2], "700");
        let home = std::path::PathBuf::from(lines[0]);
        assert!(home.is_absolute() && home != std::env::temp_dir());
        assert!(!home.exists(), "{} left behind", home.display());
        homes.push(home);
    }
    assert_ne!(homes[0], homes[1]);

    // A home the policy names is used as it is.
    let named = dir.path().join("named-home");
    std::fs::create_dir(&named).unwrap();
    std::fs::set_permissions(&named, std::fs::Permissions::from_mode(0o755)).unwrap();
    let policy = Policy {
        home: Some(named.clone()),
        ..Policy::default()
    };
    let rt = runtime(&agentcli(dir.path(), &[("home", body)]), policy);
    let o = rt.dispatch("home", "{}").unwrap();
    assert_eq!(o.stdout.lines().next(), Some(named.to_str().unwrap()));
    assert!(named.join(".gitconfig").exists());
}

#[test]
fn concurrent_audit_writers_never_interleave_records() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.jsonl");
    // Each writer has its own open file (as separate processes would).
    std::thread::scope(|s| {
        for t in 0..8 {
            let log = &log;
            s.spawn(move || {
                let rt = Runtime::new(Policy::default()).with_audit(Audit::append_to(log).unwrap());
                for i in 0..40 {
                    // Records from 100 bytes to well above PIPE_BUF (4096).
                    let name = format!("{t}-{i}-{}", "x".repeat((i % 5) * 7000 + t * 10));
                    assert!(rt.dispatch(&name, "{}").is_err());
                }
            });
        }
    });
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8 * 40);
    for line in lines {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| {
            panic!("interleaved record ({e}): {}", &line[..line.len().min(200)])
        });
        assert_eq!(v["event"], "tool_call_rejected");
    }
}

#[test]
fn argv_and_environment_above_the_exec_limit_are_refused_before_spawning() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let body = format!("touch {}", marker.display());
    let m = agentcli(dir.path(), &[("big", &body)]);
    // 80 × 100 KB: above the kernel's 6 MiB cap whatever the stack limit.
    let set_env = (0..80)
        .map(|i| (format!("BIG_{i}"), "v".repeat(100_000)))
        .collect();
    let audit = Shared::default();
    let rt = runtime(
        &m,
        Policy {
            set_env,
            ..Policy::default()
        },
    )
    .with_audit(Audit::new(audit.clone()));
    let err = rt.dispatch("big", "{}").unwrap_err();
    let Refusal::ArgvTooLarge { total, limit } = err else {
        panic!("{err:?}");
    };
    assert!(
        total > 8_000_000 && limit <= 6 * 1024 * 1024,
        "{total} {limit}"
    );
    assert_eq!(err.kind(), "argv_too_large");
    let text = err.to_string();
    assert!(
        text.contains(&total.to_string()) && text.contains(&limit.to_string()),
        "{text}"
    );
    assert!(!marker.exists(), "the tool ran");
    assert_eq!(audit.lines()[0]["kind"], "argv_too_large");

    // Below the limit the same tool runs.
    let set_env = (0..4)
        .map(|i| (format!("BIG_{i}"), "v".repeat(100_000)))
        .collect();
    let rt = runtime(
        &m,
        Policy {
            set_env,
            ..Policy::default()
        },
    );
    assert!(rt.dispatch("big", "{}").unwrap().is_success());
    assert!(marker.exists());
}

#[test]
fn resolver_time_counts_against_the_call_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let slow_resolver = ResolveCommand::Command {
        binary: "sh".into(),
        subcommand: "-c".into(),
        args: vec!["sleep 1; echo 0.1".into()],
    };
    // `sleep 0.9 <resolved 0.1>`: one second, under the 1.5 s timeout on its own.
    let mut m = chai(
        dir.path(),
        "nap",
        "sleep",
        "0.9",
        vec![resolved("extra", slow_resolver)],
        json!({}),
    );
    m.allowlist.insert("sh".into(), vec!["-c".into()]);
    let rt = runtime(&m, short(1500));
    let o = rt.dispatch("nap", r#"{"extra": "0"}"#).unwrap();
    assert_eq!(o.status, Status::TimedOut, "{o:?}");
    assert!(o.duration >= Duration::from_secs(1), "{:?}", o.duration);
    assert!(o.duration < Duration::from_secs(10), "{:?}", o.duration);
}

/// Processes (other than zombies) whose environment holds `marker`
/// (`NAME=value`, set for the calls of one test).
fn processes_marked(marker: &str) -> Vec<i32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if environ.split(|&b| b == 0).any(|e| e == marker.as_bytes()) && !gone_now(pid) {
            found.push(pid);
        }
    }
    found
}

fn gone_now(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        matches!(
            stat.rsplit(')')
                .next()
                .and_then(|r| r.split_whitespace().next()),
            Some("Z" | "X")
        )
    })
}

#[test]
fn a_hundred_calls_in_a_row_leave_no_process_behind() {
    if !has("setsid") {
        eprintln!("setsid not installed; skipping");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Each call leaves a backgrounded child, a setsid'd one and a
    // double-forked one behind, then exits successfully.
    let body =
        "sleep 60 &\nsetsid sleep 60 >/dev/null 2>&1 </dev/null &\n( sleep 60 & ) \necho '{}'";
    // Marks this test's calls (other tests of this process run tools too).
    let value = format!("{}-{:?}", std::process::id(), Instant::now());
    let mut policy = Policy::default();
    policy.set_env.insert("LITTER_TEST".into(), value.clone());
    let rt = runtime(&agentcli(dir.path(), &[("litter", body)]), policy);
    for i in 0..100 {
        let o = rt.dispatch("litter", "{}").unwrap();
        assert_eq!(o.status, Status::Success, "call {i}: {o:?}");
    }
    let left = processes_marked(&format!("LITTER_TEST={value}"));
    left.iter().for_each(|p| kill(*p));
    assert!(left.is_empty(), "left behind: {left:?}");
}

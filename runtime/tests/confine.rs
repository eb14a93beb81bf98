//! Confinement with real processes: files, network, resource limits, and
//! that a confined tool cannot undo it. Each test skips with a notice where
//! this kernel lacks the mechanism (`toolsmith doctor` says which).

mod common;

use common::*;
use std::time::Duration;
use toolsmith::confine::{Confinement, Limit, Limits, Mechanisms};
use toolsmith::{Policy, Refusal, Runtime, Status};

fn confined(confine: Confinement) -> Policy {
    Policy {
        default_timeout: Duration::from_secs(20),
        confine: Confinement {
            enabled: Some(true),
            ..confine
        },
        ..Policy::default()
    }
}

fn runtime(dir: &std::path::Path, tools: &[(&str, &str)], policy: Policy) -> Runtime {
    let mut rt = Runtime::new(policy);
    rt.add_manifest(&agentcli(dir, tools));
    rt
}

fn skip_without(what: &str, ok: bool) -> bool {
    if !ok {
        eprintln!("{what} is not available on this kernel; skipping (see `toolsmith doctor`)");
    }
    !ok
}

#[test]
fn files_outside_the_roots_are_neither_written_nor_read() {
    let m = Mechanisms::probe();
    if skip_without("Landlock", m.landlock_abi > 0) || skip_without("seccomp", m.seccomp) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let granted = tempfile::tempdir().unwrap();
    let target = outside.path().join("planted");
    let body = format!(
        "echo x > {planted} 2>/dev/null && echo wrote-outside\n\
         echo y > {granted}/ok && echo wrote-granted\n\
         echo z > \"$HOME/tmp\" && echo wrote-home\n\
         cat /etc/passwd >/dev/null 2>&1 && echo read-passwd\n\
         echo '{{}}'",
        planted = target.display(),
        granted = granted.path().display(),
    );
    let policy = confined(Confinement {
        write: vec![granted.path().to_path_buf()],
        ..Confinement::default()
    });
    let rt = runtime(dir.path(), &[("writer", &body)], policy);
    let o = rt.dispatch("writer", "{}").unwrap();
    assert_eq!(o.status, Status::Success, "{o:?}");
    assert!(
        !target.exists(),
        "a file was written outside the write roots"
    );
    assert!(!o.stdout.contains("wrote-outside"), "{}", o.stdout);
    assert!(!o.stdout.contains("read-passwd"), "{}", o.stdout);
    assert!(o.stdout.contains("wrote-granted"), "{}", o.stdout);
    assert!(o.stdout.contains("wrote-home"), "{}", o.stdout);
    assert!(granted.path().join("ok").exists());
}

#[test]
fn the_same_tool_unconfined_can_do_all_of_it() {
    // The control for the test above: without confinement the writes happen.
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("planted");
    let body = format!("echo x > {} && echo wrote-outside", target.display());
    let rt = runtime(dir.path(), &[("writer", &body)], Policy::default());
    let o = rt.dispatch("writer", "{}").unwrap();
    assert!(o.stdout.contains("wrote-outside"), "{o:?}");
    assert!(target.exists());
}

/// A tool that connects to `port` on 127.0.0.1 with bash's `/dev/tcp`.
fn connect_body(port: u16) -> String {
    format!("exec bash -c 'echo hi > /dev/tcp/127.0.0.1/{port}' 2>&1; echo failed")
}

#[test]
fn network_is_denied_unless_granted_to_the_tool() {
    let m = Mechanisms::probe();
    if skip_without("seccomp", m.seccomp) || skip_without("Landlock", m.landlock_abi > 0) {
        return;
    }
    if !has("bash") {
        eprintln!("bash not installed; skipping");
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let body = connect_body(port);
    let tools = [("fetch", body.as_str()), ("other", body.as_str())];
    // One policy, two tools that connect alike: only `fetch` is granted.
    let mut c = Confinement::default();
    c.allow_network_for("fetch");
    let rt = runtime(dir.path(), &tools, confined(c));

    let o = rt.dispatch("other", "{}").unwrap();
    assert_ne!(o.status, Status::Success, "{o:?}");
    assert!(
        o.stdout.contains("Permission denied"),
        "the socket was not refused: {o:?}"
    );
    assert!(listener.accept().is_err(), "a denied tool connected");

    let o = rt.dispatch("fetch", "{}").unwrap();
    assert_eq!(o.status, Status::Success, "{o:?}");
    listener.set_nonblocking(false).unwrap();
    let (mut conn, _) = listener.accept().expect("the granted tool did not connect");
    let mut got = String::new();
    std::io::Read::read_to_string(&mut conn, &mut got).unwrap();
    assert_eq!(got, "hi\n");

    // The grant for every tool (`network`) lets `other` connect too.
    let all = runtime(
        dir.path(),
        &tools,
        confined(Confinement {
            network: true,
            ..Confinement::default()
        }),
    );
    let o = all.dispatch("other", "{}").unwrap();
    assert_eq!(o.status, Status::Success, "{o:?}");
    assert!(
        listener.accept().is_ok(),
        "an allowed tool could not connect"
    );
}

/// A three-file chai skill in `base/skill` whose tools copy with `cp`:
/// `copy` (source `readPath`, target `writePath`), `copy_to` (source
/// `readPath`, a fixed target the manifest names: no path parameter
/// declares it), and `show` (`cat` of a fixed file).
fn cp_skill(base: &std::path::Path, copy_to: &std::path::Path, show: &str) -> std::path::PathBuf {
    let skill = base.join("skill");
    std::fs::create_dir_all(&skill).unwrap();
    let schema = |props: &[&str]| {
        let properties: serde_json::Map<String, serde_json::Value> = props
            .iter()
            .map(|p| {
                (
                    p.to_string(),
                    serde_json::json!({"type": "string", "description": "a path"}),
                )
            })
            .collect();
        serde_json::json!({"type": "object", "properties": properties, "required": props})
    };
    let tools = serde_json::json!([
        {"name": "copy", "description": "copy a file", "parameters": schema(&["from", "to"])},
        {"name": "copy_to", "description": "copy a file to the fixed place", "parameters": schema(&["from"])},
        {"name": "show", "description": "print the fixed file", "parameters": schema(&[])},
    ]);
    let execution = serde_json::json!([
        {"tool": "copy", "binary": "cp", "subcommand": "", "args": [
            {"param": "from", "kind": "positional", "readPath": true},
            {"param": "to", "kind": "positional", "writePath": true}]},
        {"tool": "copy_to", "binary": "cp", "subcommand": "", "args": [
            {"param": "from", "kind": "positional", "readPath": true},
            {"param": "", "kind": "literal", "value": copy_to.to_str().unwrap()}]},
        {"tool": "show", "binary": "cat", "subcommand": "", "args": [
            {"param": "", "kind": "literal", "value": show}]},
    ]);
    let write = |name: &str, v: &serde_json::Value| {
        std::fs::write(skill.join(name), serde_json::to_string_pretty(v).unwrap()).unwrap()
    };
    write("tools.json", &tools);
    write(
        "allowlist.json",
        &serde_json::json!({"cp": [""], "cat": [""]}),
    );
    write("execution.json", &execution);
    skill
}

#[test]
fn a_loaded_chai_skill_is_confined_to_its_declared_roots_by_default() {
    let m = Mechanisms::probe();
    if skip_without("Landlock", m.landlock_abi > 0) || skip_without("seccomp", m.seccomp) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let root = base.join("root");
    let outside = base.join("outside");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(root.join("a.txt"), "note\n").unwrap();
    std::fs::write(outside.join("secret.txt"), "secret\n").unwrap();
    let stolen = outside.join("stolen.txt");
    let skill = cp_skill(&base, &stolen, outside.join("secret.txt").to_str().unwrap());
    let policy = || Policy {
        sandbox: toolsmith::Sandbox::new([&root]).unwrap(),
        ..Policy::default()
    };
    // Nothing but the sandbox is set: `Runtime::load` confines by default.
    let rt = Runtime::load(&skill, policy()).unwrap();
    assert_eq!(rt.policy().confine.enabled, Some(true));

    // readPath → writePath inside the sandbox: the declared roots.
    let o = rt
        .dispatch("copy", r#"{"from": "a.txt", "to": "sub/b.txt"}"#)
        .unwrap();
    assert_eq!(o.status, Status::Success, "{o:?}");
    assert_eq!(
        std::fs::read_to_string(root.join("sub/b.txt")).unwrap(),
        "note\n"
    );

    // A target no path parameter declares: cp is denied, nothing is written.
    let o = rt.dispatch("copy_to", r#"{"from": "a.txt"}"#).unwrap();
    assert!(matches!(o.status, Status::Failed { .. }), "{o:?}");
    assert!(o.stderr.contains("Permission denied"), "{o:?}");
    assert!(
        !stolen.exists(),
        "a file was written outside the declared roots"
    );

    // Reading outside the roots is refused too (so is /etc/passwd).
    let o = rt.dispatch("show", "{}").unwrap();
    assert!(matches!(o.status, Status::Failed { .. }), "{o:?}");
    assert!(!o.stdout.contains("secret"), "{o:?}");

    // The control: turned off explicitly, the same calls do it all.
    let mut off = policy();
    off.confine.enabled = Some(false);
    let rt = Runtime::load(&skill, off).unwrap();
    let o = rt.dispatch("copy_to", r#"{"from": "a.txt"}"#).unwrap();
    assert_eq!(o.status, Status::Success, "{o:?}");
    assert!(stolen.exists());
    let o = rt.dispatch("show", "{}").unwrap();
    assert_eq!(o.stdout, "secret\n", "{o:?}");
}

#[test]
fn a_tool_with_only_read_paths_cannot_write_the_sandbox() {
    let m = Mechanisms::probe();
    if skip_without("Landlock", m.landlock_abi > 0) || skip_without("seccomp", m.seccomp) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let root = base.join("root");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("a.txt"), "note\n").unwrap();
    // `copy_to` reads inside the sandbox and names a target inside it too,
    // but declares no writePath: the sandbox is read-only for it.
    let target = root.join("copy.txt");
    let skill = cp_skill(&base, &target, "/etc/passwd");
    let rt = Runtime::load(
        &skill,
        Policy {
            sandbox: toolsmith::Sandbox::new([&root]).unwrap(),
            ..Policy::default()
        },
    )
    .unwrap();
    let o = rt.dispatch("copy_to", r#"{"from": "a.txt"}"#).unwrap();
    assert!(matches!(o.status, Status::Failed { .. }), "{o:?}");
    assert!(!target.exists(), "a read-only tool wrote in the sandbox");
    // `/etc` is not a system program or library directory: not readable.
    let o = rt.dispatch("show", "{}").unwrap();
    assert!(matches!(o.status, Status::Failed { .. }), "{o:?}");
    assert!(!o.stdout.contains("root:"), "{o:?}");
}

fn limited(limits: Limits) -> Policy {
    confined(Confinement {
        limits,
        degrade: toolsmith::confine::Degrade::Warn,
        ..Confinement::default()
    })
}

#[test]
fn a_cpu_spinner_stops_at_the_cpu_limit() {
    let dir = tempfile::tempdir().unwrap();
    let policy = limited(Limits {
        cpu_seconds: Some(1),
        ..Limits::default()
    });
    let rt = runtime(dir.path(), &[("spin", "while :; do :; done")], policy);
    let o = rt.dispatch("spin", "{}").unwrap();
    assert_eq!(
        o.status,
        Status::LimitExceeded { limit: Limit::Cpu },
        "{o:?}"
    );
    assert_eq!(o.to_json()["limit"], "cpu");
}

#[test]
fn a_big_file_stops_at_the_file_size_limit() {
    let dir = tempfile::tempdir().unwrap();
    let policy = limited(Limits {
        file_size: Some(1 << 20),
        ..Limits::default()
    });
    let body = "dd if=/dev/zero of=\"$HOME/big\" bs=1M count=10000 2>/dev/null; exit 0";
    let rt = runtime(dir.path(), &[("fill", body)], policy);
    let o = rt.dispatch("fill", "{}").unwrap();
    // dd is killed by SIGXFSZ; the script then exits 0, so the limit is seen
    // in the file: it never grew past the limit.
    assert!(
        o.status == Status::Success
            || o.status
                == Status::LimitExceeded {
                    limit: Limit::FileSize
                },
        "{o:?}"
    );
    let direct = runtime(
        dir.path(),
        &[(
            "fill2",
            "exec dd if=/dev/zero of=\"$HOME/big\" bs=1M count=10000",
        )],
        limited(Limits {
            file_size: Some(1 << 20),
            ..Limits::default()
        }),
    );
    let o = direct.dispatch("fill2", "{}").unwrap();
    assert_eq!(
        o.status,
        Status::LimitExceeded {
            limit: Limit::FileSize
        },
        "{o:?}"
    );
}

#[test]
fn a_fork_bomb_stops_at_the_process_limit() {
    let m = Mechanisms::probe();
    if skip_without("a cgroup the runtime may create", m.cgroup.is_some()) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let policy = limited(Limits {
        processes: Some(20),
        ..Limits::default()
    });
    // Each loop iteration forks a sleeper; the 21st fork fails.
    let body = "i=0; while [ $i -lt 200 ]; do sleep 30 & i=$((i+1)); done; wait";
    let rt = runtime(dir.path(), &[("bomb", body)], policy);
    let o = rt.dispatch("bomb", "{}").unwrap();
    assert_eq!(
        o.status,
        Status::LimitExceeded {
            limit: Limit::Processes
        },
        "{o:?}"
    );
}

#[test]
fn a_memory_hog_stops_at_the_memory_limit() {
    let m = Mechanisms::probe();
    if skip_without("a cgroup the runtime may create", m.cgroup.is_some()) {
        return;
    }
    if !has("python3") {
        eprintln!("python3 not installed; skipping");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let policy = limited(Limits {
        memory: Some(64 << 20),
        ..Limits::default()
    });
    let body = "exec python3 -c 'b = []\nwhile True: b.append(bytearray(8 << 20))'";
    let rt = runtime(dir.path(), &[("hog", body)], policy);
    let o = rt.dispatch("hog", "{}").unwrap();
    assert_eq!(
        o.status,
        Status::LimitExceeded {
            limit: Limit::Memory
        },
        "{o:?}"
    );
}

#[test]
fn confinement_cannot_be_undone_by_the_tool() {
    let m = Mechanisms::probe();
    if skip_without("Landlock", m.landlock_abi > 0) || !has("python3") {
        return;
    }
    // The tool clears "no new privileges", raises its own limits, and
    // stacks a second Landlock domain that allows everything below `/`:
    // nothing it was denied becomes possible (domains only intersect).
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("x");
    let body = format!(
        r#"exec python3 - <<'PY'
import ctypes, os, resource, struct
libc = ctypes.CDLL(None, use_errno=True)
print("prctl", libc.prctl(38, 0, 0, 0, 0))
try:
    resource.setrlimit(resource.RLIMIT_CPU, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    print("setrlimit raised")
except Exception:
    print("setrlimit refused")
everything = (1 << 13) - 1
fd = libc.syscall(444, struct.pack("=Q", everything), 8, 0)
root = os.open("/", os.O_PATH)
libc.syscall(445, fd, 1, struct.pack("=Qi", everything, root), 0)
libc.prctl(38, 1, 0, 0, 0)
print("restrict", libc.syscall(446, fd, 0))
try:
    open("{}", "w").write("x")
    print("escaped")
except OSError as e:
    print("still denied", e.errno)
PY"#,
        target.display()
    );
    let policy = confined(Confinement {
        limits: Limits {
            cpu_seconds: Some(5),
            ..Limits::default()
        },
        ..Confinement::default()
    });
    let rt = runtime(dir.path(), &[("undo", &body)], policy);
    let o = rt.dispatch("undo", "{}").unwrap();
    // The second domain was accepted (restrict 0) and changed nothing.
    assert!(o.stdout.contains("restrict 0"), "{o:?}");
    assert!(o.stdout.contains("setrlimit refused"), "{o:?}");
    assert!(o.stdout.contains("still denied 13"), "{o:?}");
    assert!(!o.stdout.contains("escaped"), "{o:?}");
    assert!(!target.exists());
}

#[test]
fn a_missing_mechanism_refuses_the_call_unless_degraded() {
    // Asking for a process limit as root without a cgroup cannot be
    // enforced; simulate "missing" by the probe's own verdict.
    let m = Mechanisms::probe();
    let c = Confinement {
        enabled: Some(true),
        limits: Limits {
            processes: Some(5),
            ..Limits::default()
        },
        ..Confinement::default()
    };
    let missing = m.missing(&c);
    if missing.is_empty() {
        eprintln!("every mechanism is available here; the refusal path is not reachable");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rt = runtime(
        dir.path(),
        &[("t", "echo '{}'")],
        Policy {
            confine: c,
            ..Policy::default()
        },
    );
    let e = rt.dispatch("t", "{}").unwrap_err();
    assert!(matches!(e, Refusal::Unconfinable(_)), "{e:?}");
}

#[test]
fn a_double_forked_grandchild_with_a_cleared_environment_ends_with_the_cgroup() {
    // Its parent exits at once, so no ancestry links it to the call, and
    // `env -i` drops the call id: only the call's cgroup holds it.
    let m = Mechanisms::probe();
    if skip_without("a cgroup the runtime may create", m.cgroup.is_some()) || !has("setsid") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let body = format!(
        "( env -i setsid sleep 30 >/dev/null 2>&1 </dev/null & echo $! > {} )\necho '{{}}'",
        pidfile.display()
    );
    let mut policy = limited(Limits {
        processes: Some(64),
        ..Limits::default()
    });
    policy.confine.write.push(dir.path().to_path_buf());
    let rt = runtime(dir.path(), &[("daemon", &body)], policy);
    let o = rt.dispatch("daemon", "{}").unwrap();
    assert_eq!(o.status, Status::Success, "{o:?}");
    let pid = read_pid(&pidfile);
    let alive = !gone(pid);
    if alive {
        kill(pid);
    }
    assert!(!alive, "{pid} outlived the call");
}

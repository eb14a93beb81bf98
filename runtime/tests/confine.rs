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
            enabled: true,
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
fn network_is_denied_unless_granted() {
    let m = Mechanisms::probe();
    if skip_without("seccomp", m.seccomp) || skip_without("Landlock", m.landlock_abi > 0) {
        return;
    }
    if !has("bash") {
        eprintln!("bash not installed; skipping");
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let denied = runtime(
        dir.path(),
        &[("connect", &connect_body(port))],
        confined(Confinement::default()),
    );
    let o = denied.dispatch("connect", "{}").unwrap();
    assert_ne!(o.status, Status::Success, "{o:?}");
    listener.set_nonblocking(true).unwrap();
    assert!(listener.accept().is_err(), "a denied tool connected");

    let allowed = runtime(
        dir.path(),
        &[("connect", &connect_body(port))],
        confined(Confinement {
            network: true,
            ..Confinement::default()
        }),
    );
    let o = allowed.dispatch("connect", "{}").unwrap();
    assert_eq!(o.status, Status::Success, "{o:?}");
    listener.set_nonblocking(false).unwrap();
    assert!(
        listener.accept().is_ok(),
        "an allowed tool could not connect"
    );
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
    // The tool raises its own limits and asks for no new privileges again:
    // nothing it was denied becomes possible.
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("x");
    let body = format!(
        "exec python3 -c '\nimport ctypes, resource\nlibc = ctypes.CDLL(None)\nlibc.prctl(38, 0, 0, 0, 0)\ntry:\n    resource.setrlimit(resource.RLIMIT_CPU, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))\nexcept Exception:\n    pass\ntry:\n    open(\"{}\", \"w\").write(\"x\")\n    print(\"escaped\")\nexcept OSError:\n    print(\"{{}}\")\n'",
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
    assert!(!o.stdout.contains("escaped"), "{o:?}");
    assert!(!target.exists());
}

#[test]
fn a_missing_mechanism_refuses_the_call_unless_degraded() {
    // Asking for a process limit as root without a cgroup cannot be
    // enforced; simulate "missing" by the probe's own verdict.
    let m = Mechanisms::probe();
    let c = Confinement {
        enabled: true,
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

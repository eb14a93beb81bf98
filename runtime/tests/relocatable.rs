//! Relocatable programs: generated code stores manifest-relative program
//! paths, and the runtime resolves them against the root chosen at run time
//! (`Runtime::with_root`), else the manifest directory `tools!` recorded.
//! Real processes, manifests copied to temporary directories.

mod common;

use common::script;
use serde_json::json;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use toolsmith::{Policy, Refusal, Runtime, Status};

/// Written by `tools!`: `MANIFEST_DIR` is this directory on the build machine.
mod reloc {
    toolsmith::tools!("tests/data/relocatable/tools.json");
}

/// Written like `toolsmith gen` output: `MANIFEST_DIR` is `None`.
#[allow(dead_code)]
mod sink {
    include!("../../codegen/tests/data/kitchen_sink.rs");
}

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/relocatable")
}

/// Copies the example manifest and its `tools/bin` program to `to`.
fn copy_manifest(to: &Path) {
    std::fs::create_dir_all(to.join("tools/bin")).unwrap();
    std::fs::copy(data().join("tools.json"), to.join("tools.json")).unwrap();
    let program = to.join("tools/bin/echo_args");
    std::fs::copy(data().join("tools/bin/echo_args"), &program).unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn echo() -> reloc::EchoArgsArgs {
    reloc::EchoArgsArgs {
        text: "hello".into(),
    }
}

#[test]
fn the_macro_stores_relative_programs_and_records_the_manifest_dir() {
    let inv = toolsmith::Tool::invocation(&echo()).unwrap();
    assert_eq!(inv.program, "./tools/bin/echo_args");
    assert_eq!(reloc::MANIFEST_DIR, Some(data().to_str().unwrap()));
    assert_eq!(inv.manifest_dir.as_deref(), Some(data().as_path()));
    assert!(reloc::policy().allows("./tools/bin/echo_args", None));
    assert_eq!(sink::MANIFEST_DIR, None);
}

#[test]
fn a_copied_manifest_runs_from_the_root_given_at_run_time() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("deployed");
    copy_manifest(&root);
    let rt = Runtime::new(reloc::policy()).with_root(&root);
    assert_eq!(rt.root(), Some(root.as_path()));
    let o = rt.run(&echo()).unwrap();
    assert_eq!(o.status, Status::Success, "{o:?}");
    let ran = root.canonicalize().unwrap().join("tools/bin/echo_args");
    assert_eq!(
        o.result,
        Some(json!({"args": {"text": "hello"}, "program": ran.to_str().unwrap()}))
    );
    // The same call through the parsed `ToolCall`.
    let call = reloc::ToolCall::parse("echo_args", r#"{"text": "hi"}"#).unwrap();
    let plan = rt.plan(&call).unwrap();
    assert_eq!(plan.program.as_deref(), Some(ran.as_path()));
    let o = rt.run_plan(plan).unwrap();
    assert_eq!(o.result.unwrap()["args"], json!({"text": "hi"}));
}

#[test]
fn without_a_root_the_recorded_manifest_dir_is_used() {
    let o = Runtime::new(reloc::policy()).run(&echo()).unwrap();
    assert_eq!(o.status, Status::Success, "{o:?}");
    let ran = data().canonicalize().unwrap().join("tools/bin/echo_args");
    assert_eq!(o.result.unwrap()["program"], ran.to_str().unwrap());
}

#[test]
fn the_root_keeps_the_tools_bin_and_symlink_checks() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("deployed");
    copy_manifest(&root);
    // A program that is a symlink out of tools/bin is refused.
    let outside = dir.path().join("outside");
    script(&outside, "echo '{}'");
    let program = root.join("tools/bin/echo_args");
    std::fs::remove_file(&program).unwrap();
    std::os::unix::fs::symlink(&outside, &program).unwrap();
    let rt = Runtime::new(reloc::policy()).with_root(&root);
    let err = rt.run(&echo()).unwrap_err();
    assert!(matches!(err, Refusal::EscapingPath { .. }), "{err}");
    // A program missing under the root is not looked for elsewhere.
    std::fs::remove_file(&program).unwrap();
    let err = rt.run(&echo()).unwrap_err();
    assert_eq!(err.kind(), "program_not_found", "{err}");
    // A symlink to another file inside tools/bin is fine.
    script(&root.join("tools/bin/real"), "echo '{\"ok\":true}'");
    std::os::unix::fs::symlink("real", &program).unwrap();
    let o = rt.run(&echo()).unwrap();
    assert_eq!(o.result, Some(json!({"ok": true})));
}

#[test]
fn gen_code_needs_a_root_and_runs_from_it() {
    let weather = sink::GetWeatherArgs {
        city: "Oslo".into(),
    };
    let disk = sink::DiskUsageArgs { path: None };
    let err = Runtime::new(sink::policy()).run(&weather).unwrap_err();
    assert_eq!(err.kind(), "relative_program", "{err}");
    assert!(err.to_string().contains("Runtime::with_root"), "{err}");

    let dir = tempfile::tempdir().unwrap();
    script(
        &dir.path().join("tools/bin/get_weather"),
        r#"printf '{"stdin":%s,"arg":"%s"}\n' "$(cat)" "$1""#,
    );
    script(&dir.path().join("tools/disk_usage.sh"), r#"echo "du $1""#);
    let rt = Runtime::new(sink::policy()).with_root(dir.path());
    let o = rt.run(&weather).unwrap();
    assert_eq!(
        o.result,
        Some(json!({"stdin": {"city": "Oslo"}, "arg": "--json"}))
    );
    let o = rt.run(&disk).unwrap();
    assert_eq!(o.stdout, "du {}\n");
    // A program not in the policy is refused even under the root.
    let err = Runtime::new(Policy::default())
        .with_root(dir.path())
        .run(&weather)
        .unwrap_err();
    assert_eq!(err.kind(), "not_allowlisted", "{err}");
}

#[test]
fn chai_script_resolvers_run_from_the_root() {
    let call = sink::NotesmdCliSearchArgs {
        query: "todo".into(),
        limit: None,
        offset: None,
        vault: None,
        overwrite: None,
        text: "a".into(),
        mode: None,
        date: Some("today".into()),
        score: None,
        tags: None,
        recursive: false,
    };
    let policy = Policy {
        allow_scripts: true,
        ..sink::policy().allow("notesmd-cli", ["search"])
    };
    let argv = |rt: &Runtime| -> Vec<String> {
        let plan = rt.plan(&call).unwrap();
        plan.argv
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    };
    // No root and no recorded directory: the script cannot be found, the value stays.
    let rt = Runtime::new(policy.clone());
    assert!(argv(&rt).contains(&"today".to_owned()), "{:?}", argv(&rt));
    let dir = tempfile::tempdir().unwrap();
    script(
        &dir.path().join("scripts/resolve-date.sh"),
        r#"[ "$1" = today ] && echo 2024-05-06"#,
    );
    let rt = Runtime::new(policy).with_root(dir.path());
    let got = argv(&rt);
    assert!(got.contains(&"2024-05-06".to_owned()), "{got:?}");
    assert!(!got.contains(&"today".to_owned()), "{got:?}");
}

#[test]
fn a_generated_policy_confines_its_tools_to_the_manifest_roots() {
    assert_eq!(reloc::policy().confine.enabled, Some(true));
    let m = toolsmith::confine::Mechanisms::probe();
    if m.landlock_abi == 0 || !m.seccomp {
        eprintln!(
            "Landlock or seccomp is not available on this kernel; skipping (see `toolsmith doctor`)"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("deployed");
    copy_manifest(&root);
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    // The deployed program reads its own directory, writes its private
    // temporary directory, and tries to write next to the deployment.
    script(
        &root.join("tools/bin/echo_args"),
        &format!(
            "cat \"$(dirname \"$0\")/echo_args\" >/dev/null && echo own-dir-read >&2\n\
             echo t > \"$TMPDIR/t\" && echo tmp-written >&2\n\
             echo x > {}/planted && echo wrote-outside >&2\n\
             echo '{{}}'",
            outside.display()
        ),
    );
    let rt = Runtime::new(reloc::policy()).with_root(&root);
    let o = rt.run(&echo()).unwrap();
    assert_eq!(o.status, Status::Success, "{o:?}");
    assert!(o.stderr.contains("own-dir-read"), "{o:?}");
    assert!(o.stderr.contains("tmp-written"), "{o:?}");
    assert!(!o.stderr.contains("wrote-outside"), "{o:?}");
    assert!(o.stderr.contains("Permission denied"), "{o:?}");
    assert!(!outside.join("planted").exists());
}

//! The example tools of `fixtures/examples/`, loaded from their real manifest
//! files and run through the runtime (stub mode: no network).

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use toolsmith::{ArgvError, Catalog, Policy, Refusal, Runtime, Status};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/examples")
}

fn stub_policy() -> Policy {
    let mut p = Policy::default();
    p.set_env.insert("TOOLSMITH_STUB".into(), "1".into());
    p
}

#[test]
fn coreutils_skill_runs_from_its_manifest() {
    let skill = examples().join("coreutils-skill");
    // `Runtime::load` confines the calls: `fixtures/examples` is outside
    // the test's working directory (`runtime/`), so it must be granted.
    let mut policy = Policy::default();
    policy.confine.read.push(examples());
    let rt = Runtime::load(&skill.join("tools.json"), policy).unwrap();
    let dir = examples();
    let dir = dir.to_str().unwrap();
    let o = rt
        .dispatch("list_directory", &json!({ "path": dir }).to_string())
        .unwrap();
    assert_eq!(o.status, Status::Success, "{o:?}");
    assert_eq!(o.stdout, "coreutils-skill\ndescribe-tools\nnotes-skill\n");
    let tools = skill.join("tools.json");
    let o = rt
        .dispatch(
            "file_head",
            &json!({ "lines": 1, "path": tools.to_str().unwrap() }).to_string(),
        )
        .unwrap();
    assert_eq!(o.stdout, "{\n");
    let o = rt.dispatch("utc_date", r#"{"iso": true}"#).unwrap();
    assert!(o.stdout.trim_end().ends_with("+00:00"), "{}", o.stdout);
    let err = rt
        .dispatch("list_directory", r#"{"path": "--version"}"#)
        .unwrap_err();
    assert!(matches!(err, Refusal::Argv(ArgvError::LeadingDash { .. })));
    let err = rt
        .dispatch("file_head", r#"{"lines": 0, "path": "x"}"#)
        .unwrap_err();
    assert_eq!(err.kind(), "invalid_arguments");
}

#[test]
fn describe_tools_run_in_stub_mode() {
    let policy = stub_policy();
    let catalog = Catalog::discover_with(&examples().join("describe-tools"), &policy).unwrap();
    assert!(catalog.warnings.is_empty(), "{:?}", catalog.warnings);
    let names: Vec<&str> = catalog.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["disk_usage", "get_weather", "github_issue"]);
    let mut rt = Runtime::new(policy);
    rt.add_catalog(&catalog);
    let o = rt
        .dispatch(
            "get_weather",
            r#"{"location": "Paris", "unit": "fahrenheit"}"#,
        )
        .unwrap();
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["temperature"], 64);
    assert_eq!(v["stub"], true);
    let o = rt
        .dispatch("github_issue", r#"{"repo": "octo/hello", "title": "Bug"}"#)
        .unwrap();
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["url"], "https://github.com/octo/hello/issues/1");
    let o = rt
        .dispatch("disk_usage", &json!({ "path": examples() }).to_string())
        .unwrap();
    assert_eq!(o.status, Status::Success, "{o:?}");
    assert!(o.stdout.contains("examples"));
    assert_eq!(
        rt.dispatch("disk_usage", r#"{"path": "-x"}"#)
            .unwrap_err()
            .kind(),
        "invalid_arguments"
    );
}

#[test]
fn describe_file_loads_through_the_linter() {
    let rt = Runtime::load(
        &examples().join("describe-tools/get_weather.describe.json"),
        stub_policy(),
    )
    .unwrap();
    let o = rt
        .dispatch("get_weather", r#"{"location": "Oslo"}"#)
        .unwrap();
    assert!(o.stdout.contains("\"location\":\"Oslo\""), "{}", o.stdout);
}

#[test]
fn compose_system_on_the_shellclaw_example_agent() {
    let Some(corpus) = toolsmith::manifest::corpus::locate() else {
        eprintln!("corpus not available; skipping");
        return;
    };
    let agent = corpus.join("shellclaw-describe/Its-Just-Shell+shellclaw/754b02a/agents/default");
    if !agent.join("context").is_dir() {
        eprintln!("corpus agent not available; skipping");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("soul.md"), "soul").unwrap();
    std::fs::create_dir(dir.path().join("context")).unwrap();
    let example = std::fs::read_to_string(agent.join("context/example.md")).unwrap();
    std::fs::write(dir.path().join("context/example.md"), &example).unwrap();
    let text = toolsmith::compose_system(dir.path()).unwrap();
    assert!(text.starts_with("soul\n---\n# Example Context Module"));
    let empty = tempfile::tempdir().unwrap();
    std::fs::write(empty.path().join("soul.md"), "only\n").unwrap();
    assert_eq!(toolsmith::compose_system(empty.path()).unwrap(), "only\n");
}

/// The chai v0.5 example: stdin, write paths (parents made), paramCondition,
/// workingdir with postProcess, successExitCodes with a hint, and the sandbox.
#[test]
fn notes_skill_runs_in_its_sandbox() {
    let notes = tempfile::tempdir().unwrap();
    let policy = Policy {
        sandbox: toolsmith::Sandbox::new([notes.path()]).unwrap(),
        ..Policy::default()
    };
    let rt = Runtime::load(&examples().join("notes-skill"), policy).unwrap();
    let write = |path: &str, content: &str| {
        rt.dispatch(
            "note_write",
            &json!({"path": path, "content": content}).to_string(),
        )
        .unwrap()
    };
    assert_eq!(
        write("tea/green.md", "sencha\nmatcha\n").status,
        Status::Success
    );
    assert_eq!(write("tea/black.md", "assam\n").status, Status::Success);
    let read = rt
        .dispatch("note_read", r#"{"path": "tea/green.md", "lines": 1}"#)
        .unwrap();
    assert_eq!(read.for_model(), json!("sencha\n"));
    let all = rt
        .dispatch("note_read", r#"{"path": "tea/green.md"}"#)
        .unwrap();
    assert_eq!(all.for_model(), json!("sencha\nmatcha\n"));
    // `ls -1` in the folder, then `sort -r`.
    let list = rt.dispatch("notes_list", r#"{"folder": "tea"}"#).unwrap();
    assert_eq!(list.for_model(), json!("green.md\nblack.md\n"));
    // grep's exit 1 is a success with a hint.
    let none = rt
        .dispatch("notes_search", r#"{"text": "coffee"}"#)
        .unwrap();
    assert_eq!(none.status, Status::Success);
    assert_eq!(none.for_model(), json!("\nhint: no note contains coffee\n"));
    let found = rt.dispatch("notes_search", r#"{"text": "assam"}"#).unwrap();
    assert_eq!(found.for_model(), json!("./tea/black.md:1:assam\n"));
    for escape in ["../outside.md", "/etc/passwd", "~/x", "tea/../../x"] {
        let err = rt
            .dispatch("note_read", &json!({"path": escape}).to_string())
            .unwrap_err();
        assert_eq!(err.kind(), "path", "{escape}: {err}");
    }
    // A leading dash never becomes an option of grep.
    let err = rt
        .dispatch("notes_search", r#"{"text": "-f/etc/passwd"}"#)
        .unwrap_err();
    assert_eq!(err.kind(), "leading_dash");
}

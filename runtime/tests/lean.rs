//! The lean configuration cannot rot: a user crate outside the workspace
//! (so that the workspace's features do not unify into it) depends on
//! `toolsmith` with `default-features = false`, holds code written like
//! `toolsmith gen` output (the golden `codegen/tests/data/kitchen_sink.rs`),
//! and must
//!
//! * have no `toolsmith-manifest`, `toolsmith-macros`, saphyr, jsonc-parser
//!   or jsonschema in its tree, and one `syn` major version;
//! * build, parse model calls (validated against their JSON Schema by
//!   `toolsmith::schema`, then deserialized), and run an agentcli call from
//!   the root given at run time.
//!
//! The crate is `target/tmp/lean-user` (kept between runs, so only the first
//! build is cold), built offline from the workspace's `Cargo.lock` into
//! `target/tmp/user-crates-target` (shared with codegen/tests/lints.rs).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

const MAIN: &str = r##"
#[allow(dead_code)]
mod sink {
    include!(KITCHEN_SINK);
}

fn main() {
    let root = std::env::args().nth(1).expect("the root");
    // The JSON Schema is checked in every configuration (toolsmith::schema):
    // the violation names the argument, not only serde's typing.
    let err = sink::ToolCall::parse("notesmd_cli_search", r#"{"query": "q", "text": "t", "limit": -1}"#)
        .unwrap_err();
    match err {
        toolsmith::CallError::InvalidArguments { violations, .. } => {
            assert_eq!(violations.len(), 1, "{violations:?}");
            assert_eq!(violations[0].pointer, "/limit");
            assert_eq!(violations[0].message, "-1 is less than the minimum of 0");
        }
        other => panic!("{other}"),
    }
    let call = sink::ToolCall::parse("get_weather", r#"{"city": "Oslo"}"#).unwrap();
    let err = sink::ToolCall::parse("get_weather", r#"{"city": 5}"#).unwrap_err();
    assert!(matches!(err, toolsmith::CallError::InvalidArguments { .. }), "{err}");
    assert!(sink::ToolCall::parse("nope", "{}").is_err());
    let err = sink::ToolCall::parse("shapes-tool", r#"{"type": "c", "maybe": null, "x": 1}"#);
    assert!(err.is_err(), "additionalProperties: false");
    // Provider formats are embedded: no exporter in the lean tree.
    let gemini = sink::definitions_for(toolsmith::Provider::Gemini);
    assert_eq!(gemini["tools"][0]["functionDeclarations"][0]["name"], "notesmd_cli_search");
    assert_eq!(sink::refused_tools(toolsmith::Provider::Gemini), ["shapes-tool"]);
    // A strict-mode model's null for an omitted optional reads as omitted.
    assert_eq!(
        sink::ToolCall::parse("notesmd_cli_search", r#"{"query": "q", "text": "t", "limit": null}"#).unwrap(),
        sink::ToolCall::parse("notesmd_cli_search", r#"{"query": "q", "text": "t"}"#).unwrap()
    );
    let runtime = toolsmith::Runtime::new(sink::policy()).with_root(&root);
    let outcome = runtime.run_call(&call).unwrap();
    println!("{}", outcome.result.unwrap());
}
"##;

fn cargo(dir: &Path, args: &[&str]) -> std::process::Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    Command::new(cargo)
        .args(args)
        .current_dir(dir)
        // Shared with codegen/tests/lints.rs's scratch crate.
        .env("CARGO_TARGET_DIR", dir.with_file_name("user-crates-target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs")
}

#[test]
fn generated_code_builds_and_runs_without_default_features() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lean-user");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            r#"[package]
name = "lean-user"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
toolsmith = {{ path = {:?}, default-features = false }}

[workspace]
"#,
            runtime.to_str().unwrap()
        ),
    )
    .unwrap();
    let sink = workspace().join("codegen/tests/data/kitchen_sink.rs");
    let main = MAIN.replace("KITCHEN_SINK", &format!("{:?}", sink.to_str().unwrap()));
    if std::fs::read_to_string(dir.join("src/main.rs")).ok() != Some(main.clone()) {
        std::fs::write(dir.join("src/main.rs"), main).unwrap();
    }
    if !dir.join("Cargo.lock").exists() {
        std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    }

    let tree = cargo(
        &dir,
        &[
            "tree",
            "--offline",
            "-e",
            "normal,build",
            "--prefix",
            "none",
        ],
    );
    let text = String::from_utf8_lossy(&tree.stdout);
    assert!(
        tree.status.success(),
        "{}",
        String::from_utf8_lossy(&tree.stderr)
    );
    let crates: BTreeSet<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for heavy in [
        "toolsmith-manifest",
        "toolsmith-macros",
        "saphyr",
        "saphyr-parser",
        "jsonc-parser",
        "jsonschema",
    ] {
        assert!(!crates.contains(heavy), "{heavy} in the lean tree:\n{text}");
    }
    let syn: BTreeSet<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("syn v"))
        .map(|v| v.split('.').next().unwrap())
        .collect();
    assert_eq!(syn.len(), 1, "syn majors {syn:?}:\n{text}");

    let root = dir.join("root");
    let program = root.join("tools/bin/get_weather");
    std::fs::create_dir_all(program.parent().unwrap()).unwrap();
    std::fs::write(&program, "#!/bin/sh\nprintf '{\"got\":%s}\\n' \"$(cat)\"\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let run = cargo(
        &dir,
        &["run", "--offline", "--quiet", "--", root.to_str().unwrap()],
    );
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "{\"got\":{\"city\":\"Oslo\"}}\n"
    );
}

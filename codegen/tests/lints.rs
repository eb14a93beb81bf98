//! Generated code is lint-clean in the user's crate: `toolsmith gen` output
//! of every valid fixture (each manifest, MCP tool list and skill under
//! `fixtures/*/valid/` and `fixtures/examples/`, and each split chai
//! directory), of every MCP tool snapshot of the corpus (`mcp-tools/`, when
//! the corpus is present; a notice otherwise) and two `tools!` expansions (a
//! chai manifest, an MCP list), in one scratch library crate, pass
//! `cargo clippy -- -D warnings -W clippy::pedantic`.
//!
//! The `gen` output sits in private modules (`mod x { include!(…) }`, how a
//! `build.rs` user includes it: unused items must not warn), the `tools!`
//! expansion in a public module under `#![deny(missing_docs)]`. The crate is
//! `target/tmp/lint-generated` (kept between runs, files rewritten only when
//! they change, so only the first run is cold), built offline from the
//! workspace's `Cargo.lock` into `target/tmp/user-crates-target`, which
//! `runtime/tests/lean.rs` shares. Without `cargo clippy` the test prints a notice
//! and passes.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// The paths `toolsmith gen` accepts below `fixtures/*/valid/` and
/// `fixtures/examples/`, sorted.
fn fixture_entry_points() -> Vec<PathBuf> {
    let root = workspace().join("fixtures");
    let mut stack: Vec<PathBuf> = std::fs::read_dir(&root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|d| d.path().join("valid"))
        .collect();
    stack.push(root.join("examples"));
    let mut out = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if path.is_dir() {
                if path.join("allowlist.json").is_file() && path.join("tools.json").is_file() {
                    out.push(path.clone());
                }
                stack.push(path);
            } else if name == "tools.json"
                || name.ends_with(".tools.json")
                || name.ends_with(".mcp-tools.json")
                || name.ends_with(".snap")
                || name.ends_with(".describe.json")
                || name == "SKILL.md"
                || name.ends_with(".skill.md")
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The MCP tool snapshots of the corpus (`mcp-tools/**/*.snap`), sorted;
/// empty when the corpus is absent.
fn corpus_mcp_snapshots() -> Vec<PathBuf> {
    let Some(corpus) = toolsmith_manifest::corpus::locate() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut stack = vec![corpus.join("mcp-tools")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "snap") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Writes `text` to `path` unless it already holds it (keeps cargo's
/// freshness between runs).
fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).expect("write");
    }
}

fn cargo() -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command.env_remove("RUSTFLAGS");
    command
}

#[test]
fn generated_code_passes_clippy_pedantic_under_deny_warnings() {
    let clippy = cargo().args(["clippy", "--version"]).output();
    if !clippy.is_ok_and(|o| o.status.success()) {
        eprintln!("notice: `cargo clippy` is not installed; generated-code lint test skipped");
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lint-generated");
    std::fs::create_dir_all(dir.join("src")).expect("scratch crate");
    let runtime = workspace().join("runtime");
    write_if_changed(
        &dir.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"lint-generated\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\ntoolsmith = {{ path = {:?}, default-features = false, features = [\"macros\"] }}\n\n\
             [workspace]\n",
            runtime.to_str().expect("UTF-8 path")
        ),
    );
    if !dir.join("Cargo.lock").exists() {
        std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).expect("lock file");
    }

    let mut lib = String::from(
        "//! `toolsmith gen` output of every valid fixture and corpus MCP snapshot, and two `tools!` expansions.\n\
         #![deny(missing_docs)]\n",
    );
    let fixtures = fixture_entry_points();
    assert!(fixtures.len() > 20, "fixtures found: {fixtures:?}");
    for (i, path) in fixtures.iter().enumerate() {
        let code = toolsmith_codegen::generate(path)
            .unwrap_or_else(|e| panic!("{} does not generate: {e:?}", path.display()));
        assert!(
            !code.contains(workspace().to_str().expect("UTF-8 path")),
            "{}: an absolute path in gen output",
            path.display()
        );
        let file = format!("gen_{i:03}.rs");
        write_if_changed(&dir.join("src").join(&file), &code);
        let shown = path.strip_prefix(workspace()).unwrap_or(path).display();
        lib.push_str(&format!(
            "// {shown}\nmod gen_{i:03} {{\n    include!({file:?});\n}}\n"
        ));
    }
    let snapshots = corpus_mcp_snapshots();
    if snapshots.is_empty() {
        eprintln!(
            "notice: no corpus MCP snapshots (../shared/corpus/mcp-tools or $TOOLSMITH_CORPUS): their generated code is not linted"
        );
    }
    for (i, path) in snapshots.iter().enumerate() {
        let code = toolsmith_codegen::generate(path)
            .unwrap_or_else(|e| panic!("{} does not generate: {e:?}", path.display()));
        let file = format!("mcp_{i:03}.rs");
        write_if_changed(&dir.join("src").join(&file), &code);
        let shown = path.file_name().unwrap_or_default().to_string_lossy();
        lib.push_str(&format!(
            "// corpus {shown}\nmod mcp_{i:03} {{\n    include!({file:?});\n}}\n"
        ));
    }
    let mcp = workspace().join("fixtures/mcp/valid/list/server.snap");
    lib.push_str(&format!(
        "/// `tools!` of an MCP tool list in a public module.\npub mod macro_mcp {{\n    toolsmith::tools!({:?});\n}}\n",
        mcp.to_str().expect("UTF-8 path")
    ));
    let notes = workspace().join("fixtures/examples/notes-skill");
    lib.push_str(&format!(
        "/// `tools!` in a public module.\npub mod macro_notes {{\n    toolsmith::tools!({:?});\n}}\n",
        notes.to_str().expect("UTF-8 path")
    ));
    write_if_changed(&dir.join("src/lib.rs"), &lib);

    let out = cargo()
        .args([
            "clippy",
            "--offline",
            "--quiet",
            "--",
            "-D",
            "warnings",
            "-W",
            "clippy::pedantic",
        ])
        .current_dir(&dir)
        // Shared with runtime/tests/lean.rs's scratch crate: one build of the common dependencies.
        .env("CARGO_TARGET_DIR", dir.with_file_name("user-crates-target"))
        .output()
        .expect("cargo clippy runs");
    assert!(
        out.status.success(),
        "generated code is not clippy-clean (crate in {}):\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

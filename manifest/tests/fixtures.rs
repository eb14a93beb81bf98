//! Snapshot tests over `fixtures/`.
//!
//! Layout: `fixtures/<dialect>/{valid,invalid}/<case>/…`. Every manifest file
//! (and every `*.snap`, an MCP tool snapshot as github-mcp-server keeps them;
//! the valid MCP cases use that name, so that the code generator's and the
//! macros' fixture tests, which build every valid `*tools.json`, leave them
//! out) below a case directory is linted together (display paths relative to the
//! case directory) and the diagnostics are compared with `<case>/expected.txt`,
//! one `file:line:col: severity[rule]: message` line per finding.
//! A `valid` case must have no errors; an `invalid` case must have at least one
//! and an `expected.txt`. A case may hold a file `chai-version` (`legacy` or
//! `v0.5`): the chai files are then read as that version (`--chai-version`), and a
//! file `profile` (`claude-code`, `codex,copilot`, …): the skills are then
//! checked under those profiles (`--profile`; without it the profile is found
//! from where each file lives). Set `UPDATE_SNAPSHOTS=1` to rewrite the snapshots
//! (then review the diff).

use std::path::{Path, PathBuf};
use toolsmith_manifest::lint::{Input, Options, classify, lint};
use toolsmith_manifest::model::ChaiVersion;
use toolsmith_manifest::options::Profiles;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

fn walk(dir: &Path, base: &Path, out: &mut Vec<Input>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, base, out);
        } else if classify(&path).is_some() || path.extension().is_some_and(|e| e == "snap") {
            let display = path
                .strip_prefix(base)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            out.push(Input { display, path });
        }
    }
}

fn cases() -> Vec<(PathBuf, bool)> {
    let mut cases = Vec::new();
    let Ok(dialects) = std::fs::read_dir(fixtures_dir()) else {
        return cases;
    };
    for dialect in dialects.flatten() {
        for (sub, valid) in [("valid", true), ("invalid", false)] {
            let Ok(entries) = std::fs::read_dir(dialect.path().join(sub)) else {
                continue;
            };
            for case in entries.flatten() {
                if case.path().is_dir() {
                    cases.push((case.path(), valid));
                }
            }
        }
    }
    cases.sort();
    cases
}

/// Lints one case directory and renders its diagnostics as snapshot lines.
fn render(case: &Path) -> (String, usize) {
    let mut inputs = Vec::new();
    walk(case, case, &mut inputs);
    assert!(!inputs.is_empty(), "{}: no manifest files", case.display());
    let chai_version = std::fs::read_to_string(case.join("chai-version"))
        .ok()
        .map(|v| match v.trim() {
            "legacy" => ChaiVersion::Legacy,
            "v0.5" => ChaiVersion::V05,
            other => panic!("{}: unknown chai-version {other:?}", case.display()),
        });
    let profile = std::fs::read_to_string(case.join("profile"))
        .ok()
        .map(|p| {
            Profiles::parse(p.trim()).unwrap_or_else(|e| panic!("{}: profile: {e}", case.display()))
        })
        .unwrap_or_default();
    let options = Options {
        chai_version,
        profile,
        ..Options::default()
    };
    let report = lint(&inputs, &options).unwrap_or_else(|e| panic!("{}: {e}", case.display()));
    let mut text = String::new();
    for d in report.diagnostics.iter() {
        text.push_str(&d.to_string());
        text.push('\n');
    }
    (text, report.diagnostics.errors())
}

#[test]
fn fixtures_match_their_snapshots() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut failures = Vec::new();
    let cases = cases();
    assert!(!cases.is_empty(), "no fixture cases found");
    for (case, valid) in &cases {
        let (actual, errors) = render(case);
        let name = case
            .strip_prefix(fixtures_dir())
            .unwrap_or(case)
            .display()
            .to_string();
        if *valid && errors > 0 {
            failures.push(format!("{name}: a valid fixture has errors:\n{actual}"));
        }
        if !*valid && errors == 0 {
            failures.push(format!(
                "{name}: an invalid fixture has no errors:\n{actual}"
            ));
        }
        let snapshot = case.join("expected.txt");
        if update {
            if !actual.is_empty() || snapshot.exists() {
                std::fs::write(&snapshot, &actual).expect("write snapshot");
            }
            continue;
        }
        let expected = std::fs::read_to_string(&snapshot).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "{name}: diagnostics differ from expected.txt\n--- expected\n{expected}--- actual\n{actual}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

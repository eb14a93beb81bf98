//! `toolsmith lint --fix`: golden before/after files (`tests/data/fix/`),
//! re-linting a fixed file, `--dry-run` diffs, and fixes that must not run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn toolsmith_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolsmith"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .expect("the toolsmith binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("fix-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

fn data(name: &str) -> PathBuf {
    crate_dir().join("tests/data/fix").join(name)
}

/// Compares `actual` with `tests/data/fix/NAME` (`UPDATE_SNAPSHOTS=1` rewrites it).
fn snapshot(name: &str, actual: &str) {
    let path = data(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, actual).expect("write snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path).expect("snapshot exists");
    assert_eq!(
        actual, expected,
        "run with UPDATE_SNAPSHOTS=1 to rewrite {name}"
    );
}

/// (case, where the file goes, extra lint arguments)
const CASES: &[(&str, &str, &[&str])] = &[
    ("trailing-whitespace", "notes/SKILL.md", &[]),
    ("version-new-metadata", "notes/SKILL.md", &[]),
    ("version-into-metadata", "notes/SKILL.md", &[]),
    (
        "allowed-tools-comma",
        "notes/SKILL.md",
        &["--profile", "strict"],
    ),
    (
        "allowed-tools-list",
        "notes/SKILL.md",
        &["--profile", "strict"],
    ),
    (
        "allowed-tools-flow",
        "notes/SKILL.md",
        &["--profile", "strict"],
    ),
    ("duplicate-key", "tools.json", &[]),
    ("duplicate-key-differs", "tools.json", &[]),
    (
        "additional-properties",
        "tools.json",
        &["--provider", "openai-strict"],
    ),
];

/// The rules of the findings of `lint ARGS` whose help offers `--fix`.
fn fixable(dir: &Path, args: &[&str]) -> Vec<String> {
    // The human format carries the help line that offers the fix.
    let mut all = vec!["lint", "--no-config"];
    all.extend_from_slice(args);
    let human = text(&toolsmith_in(dir, &all).stdout);
    human
        .split("\n\n")
        .filter(|block| block.contains("`toolsmith lint --fix`"))
        .map(|block| block.lines().next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn every_fix_matches_its_golden_file_and_leaves_nothing_fixable() {
    for (case, rel, args) in CASES {
        let dir = scratch(case);
        let before = std::fs::read_to_string(data(&format!("{case}.before"))).expect("before");
        let file = dir.join(rel);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
        std::fs::write(&file, &before).expect("write");
        let offered = fixable(&dir, args);
        let mut all = vec!["lint", "--no-config", "--fix"];
        all.extend_from_slice(args);
        let out = toolsmith_in(&dir, &all);
        let after = std::fs::read_to_string(&file).expect("after");
        snapshot(&format!("{case}.after"), &after);
        if *case == "duplicate-key-differs" {
            assert!(offered.is_empty(), "{case}: {offered:?}");
            assert_eq!(
                after, before,
                "{case}: different values are not a mechanical fix"
            );
            continue;
        }
        assert!(
            !offered.is_empty(),
            "{case}: the finding says it is fixable"
        );
        assert_ne!(after, before, "{case}");
        assert!(
            text(&out.stderr).contains("toolsmith: fixed"),
            "{case}: {}",
            text(&out.stderr)
        );
        assert!(
            fixable(&dir, args).is_empty(),
            "{case}: still fixable after --fix"
        );
        // No temporary file is left behind.
        let left: Vec<_> = std::fs::read_dir(file.parent().expect("parent"))
            .expect("read dir")
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
            .collect();
        assert!(left.is_empty(), "{case}: {left:?}");
    }
}

#[test]
fn dry_run_prints_a_diff_and_writes_nothing() {
    let dir = scratch("dry-run");
    let before = std::fs::read_to_string(data("version-into-metadata.before")).expect("before");
    std::fs::create_dir_all(dir.join("notes")).expect("mkdir");
    std::fs::write(dir.join("notes/SKILL.md"), &before).expect("write");
    let out = toolsmith_in(&dir, &["lint", "--no-config", "--fix", "--dry-run"]);
    assert_eq!(out.status.code(), Some(1), "a pending fix fails the check");
    snapshot("dry-run.diff", &text(&out.stdout));
    assert_eq!(
        std::fs::read_to_string(dir.join("notes/SKILL.md")).expect("read"),
        before
    );
    assert!(text(&out.stderr).contains("--fix would fix 1 finding in 1 file"));
    // --dry-run alone is a usage error.
    let out = toolsmith_in(&dir, &["lint", "--dry-run"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn no_fix_runs_for_a_rule_turned_off_or_suppressed() {
    let dir = scratch("off");
    let before = std::fs::read_to_string(data("version-new-metadata.before")).expect("before");
    std::fs::create_dir_all(dir.join("notes")).expect("mkdir");
    std::fs::write(dir.join("notes/SKILL.md"), &before).expect("write");
    std::fs::write(
        dir.join("toolsmith.toml"),
        "[rules]\n\"skill/unknown-field\" = \"off\"\n",
    )
    .expect("write");
    let out = toolsmith_in(&dir, &["lint", "--fix"]);
    assert!(
        text(&out.stderr).contains("fixed 0 findings in 0 files"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("notes/SKILL.md")).expect("read"),
        before
    );
    // Suppressed by a comment: not fixed either.
    std::fs::remove_file(dir.join("toolsmith.toml")).expect("rm");
    let suppressed = before.replace(
        "version: 1.2.0",
        "version: 1.2.0  # toolsmith: allow skill/unknown-field — the registry reads it",
    );
    std::fs::write(dir.join("notes/SKILL.md"), &suppressed).expect("write");
    toolsmith_in(&dir, &["lint", "--fix"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("notes/SKILL.md")).expect("read"),
        suppressed
    );
}

#[test]
fn rules_says_which_rules_are_fixable() {
    let out = toolsmith_in(crate_dir(), &["rules", "--no-config"]);
    let stdout = text(&out.stdout);
    let listed: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("[fixable: `lint --fix`"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let expected: Vec<&str> = toolsmith_manifest::fix::FIXABLE
        .iter()
        .map(|(id, _)| *id)
        .collect();
    assert_eq!(listed, expected);
}

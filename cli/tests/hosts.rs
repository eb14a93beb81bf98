//! `toolsmith lint --profile` / `--exclude` and `toolsmith rules --profile`
//! on real processes.

use std::path::Path;
use std::process::{Command, Output};

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

fn fixtures() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/skill"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn json_names_the_detected_profile_of_every_skill_diagnostic() {
    let out = toolsmith_in(
        fixtures(),
        &["lint", "--format", "json", "valid/claude-plugin"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let diagnostics = json["diagnostics"].as_array().expect("diagnostics");
    assert!(!diagnostics.is_empty());
    for d in diagnostics {
        assert_eq!(d["profile"], "claude-code", "{d}");
    }
    assert_eq!(json["summary"]["profiles"]["claude-code"], 2);
}

#[test]
fn several_profiles_fail_when_one_host_refuses_and_the_summary_says_which() {
    let out = toolsmith_in(
        fixtures(),
        &[
            "lint",
            "--profile",
            "claude-code,copilot",
            "valid/claude-plugin",
        ],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("error[skill/missing-field]: Missing required field in frontmatter: name (error under copilot; warning under claude-code)"),
        "{stdout}"
    );
    assert!(
        stdout.trim_end().ends_with("(profile claude-code,copilot)"),
        "{stdout}"
    );
}

#[test]
fn exclude_skips_fragments_without_frontmatter_and_counts_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fragments = dir.path().join("templates/part");
    std::fs::create_dir_all(&fragments).expect("mkdir");
    std::fs::write(fragments.join("SKILL.md"), "# A fragment, no frontmatter\n").expect("write");
    let real = dir.path().join("templates/real");
    std::fs::create_dir_all(&real).expect("mkdir");
    std::fs::write(
        real.join("SKILL.md"),
        "---\nname: real\ndescription: A real skill. Use it.\n---\nBody\n",
    )
    .expect("write");
    // Without --exclude the fragment is an error.
    let out = toolsmith_in(dir.path(), &["lint", "."]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let out = toolsmith_in(dir.path(), &["lint", "--exclude", "templates/**", "."]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    // The real skill under the excluded folder is still linted.
    assert!(
        stdout.contains("0 errors, 0 warnings in 1 file (profile default; 1 skipped by --exclude)"),
        "{stdout}"
    );
    // A pattern that does not parse is a usage error.
    let out = toolsmith_in(dir.path(), &["lint", "--exclude", "a[", "."]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn rules_under_a_profile_show_its_severities_and_sources() {
    let out = toolsmith_in(fixtures(), &["rules", "--profile", "claude-api"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout.starts_with("profile claude-api: the Claude API upload"),
        "{stdout}"
    );
    assert!(stdout.contains("read 2026-11-24"), "{stdout}");
    let row = |id: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(&format!("{id} ")))
            .unwrap_or_default()
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(row("skill/reserved-word"), "error");
    assert_eq!(row("skill/agent-without-fork"), "off");
    let out = toolsmith_in(fixtures(), &["rules", "--profile", "claude-code"]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("skill/reserved-word"));
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("skill/reserved-word ") && l.contains(" warning ")),
        "{stdout}"
    );
    let out = toolsmith_in(fixtures(), &["rules", "--profile", "claude-code,codex"]);
    assert_eq!(out.status.code(), Some(2));
}

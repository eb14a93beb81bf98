//! `skill!("SKILL.md", profile = …)`: the skill is checked under the named
//! profiles, else under the one found from where it lives.

use std::path::Path;
use toolsmith_codegen::{ExpandOptions, Profiles, expand_with};

fn fixture(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/skill")
        .join(rel)
}

#[test]
fn a_plugin_skill_without_name_builds_under_claude_code_and_fails_under_codex() {
    let path = fixture("valid/claude-plugin/crucible/skills/review/SKILL.md");
    // Found from the plugin layout: Claude Code names the skill after its directory.
    let detected = expand_with(&path, "SKILL.md", ExpandOptions::default());
    let code = detected.result.expect("builds").to_string();
    assert!(
        code.contains("\"review\""),
        "NAME is the directory's name: {code}"
    );
    assert!(
        detected
            .warnings
            .iter()
            .any(|d| d.rule == "skill/missing-field")
    );
    let codex = ExpandOptions {
        profile: Profiles::parse("codex").expect("profile"),
        ..ExpandOptions::default()
    };
    let errors = expand_with(&path, "SKILL.md", codex)
        .result
        .expect_err("codex requires `name`");
    assert!(errors.iter().any(|d| d.rule == "skill/missing-field"));
}

#[test]
fn an_upload_refusal_fails_only_under_claude_api() {
    let path = fixture("invalid/claude-api/anthropic-claude-notes/SKILL.md");
    let default = expand_with(&path, "SKILL.md", ExpandOptions::default());
    assert!(default.result.is_ok(), "{:?}", default.result);
    let api = ExpandOptions {
        profile: Profiles::parse("claude-api").expect("profile"),
        ..ExpandOptions::default()
    };
    let errors = expand_with(&path, "SKILL.md", api)
        .result
        .expect_err("the upload refuses reserved words");
    assert!(errors.iter().any(|d| d.rule == "skill/reserved-word"));
}

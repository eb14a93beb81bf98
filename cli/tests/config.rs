//! `toolsmith.toml`, suppressions and baselines, end to end: the real
//! binary on scratch directories and on `fixtures/config`.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `toolsmith ARGS` in `cwd`, without colours or a step summary.
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

fn status(out: &Output) -> i32 {
    out.status.code().expect("exited normally")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// A fresh scratch directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("config-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

fn write(dir: &Path, rel: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
    std::fs::write(&path, contents).expect("write file");
    path
}

/// A finding, as the tests compare them: `file:line:col severity rule`.
fn findings(cwd: &Path, args: &[&str]) -> (i32, Vec<String>) {
    let mut all = vec!["lint", "--format", "json"];
    all.extend_from_slice(args);
    let out = toolsmith_in(cwd, &all);
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("JSON on stdout ({e}); stderr: {}", stderr(&out)));
    let list = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            format!(
                "{}:{}:{} {} {}",
                d["file"].as_str().unwrap_or(""),
                d["line"],
                d["column"],
                d["severity"].as_str().unwrap_or(""),
                d["rule"].as_str().unwrap_or("")
            )
        })
        .collect();
    (status(&out), list)
}

/// Compares `actual` with the snapshot `tests/data/config/NAME`
/// (`UPDATE_SNAPSHOTS=1` rewrites it).
fn snapshot(name: &str, actual: &str) {
    let path = crate_dir().join("tests/data/config").join(name);
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

/// A skill with one unknown top-level field (`skill/unknown-field`, a warning) on line 4.
const SKILL: &str = "---\nname: notes\ndescription: Keep notes. Use when asked to remember.\nx-extra: 1\n---\nbody\n";

#[test]
fn json_findings_carry_line_and_column() {
    // The helper above reads `line` and `column`: make sure they exist.
    let dir = scratch("json-shape");
    write(&dir, "notes/SKILL.md", SKILL);
    let out = toolsmith_in(&dir, &["lint", "--format", "json", "--no-config"]);
    let report: Value = serde_json::from_slice(&out.stdout).expect("json");
    let d = &report["diagnostics"][0];
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(4), Some(1)),
        "{d}"
    );
}

#[test]
fn the_nearest_config_walking_up_applies() {
    let dir = scratch("nested");
    write(
        &dir,
        "toolsmith.toml",
        "[rules]\n\"skill/unknown-field\" = \"off\"\n",
    );
    write(&dir, "a/notes/SKILL.md", SKILL);
    write(
        &dir,
        "b/toolsmith.toml",
        "[rules]\n\"skill/*\" = \"error\"\n",
    );
    write(&dir, "b/deep/notes/SKILL.md", SKILL);
    let (code, list) = findings(&dir, &[]);
    assert_eq!(
        list,
        ["b/deep/notes/SKILL.md:4:1 error skill/unknown-field"]
    );
    assert_eq!(code, 1);
    // Linting from inside a subdirectory finds the same configs.
    let (_, list) = findings(&dir.join("a"), &[]);
    assert!(list.is_empty(), "{list:?}");
    // --no-config: the defaults everywhere.
    let (code, list) = findings(&dir, &["--no-config"]);
    assert_eq!(
        list,
        [
            "a/notes/SKILL.md:4:1 warning skill/unknown-field",
            "b/deep/notes/SKILL.md:4:1 warning skill/unknown-field"
        ]
    );
    assert_eq!(code, 0);
    // --config FILE: that file for every path, whatever lies nearer.
    let other = write(
        &dir,
        "elsewhere/strict.toml",
        "[rules]\n\"skill/unknown-field\" = \"note\"\n",
    );
    let (_, list) = findings(&dir, &["--config", other.to_str().expect("utf-8")]);
    assert_eq!(
        list,
        [
            "a/notes/SKILL.md:4:1 note skill/unknown-field",
            "b/deep/notes/SKILL.md:4:1 note skill/unknown-field"
        ]
    );
}

#[test]
fn overrides_apply_in_order_and_beat_the_top_level() {
    let dir = scratch("overrides");
    write(
        &dir,
        "toolsmith.toml",
        r#"exclude = ["drafts/**"]
[rules]
"skill/unknown-field" = "error"

[[overrides]]
paths = ["legacy/**"]
rules = { "skill/*" = "note" }

[[overrides]]
paths = ["legacy/old/**"]
rules = { "skill/unknown-field" = "off" }

[[overrides]]
paths = ["host/**"]
profile = "strict"
rules = { "skill/*" = "warning" }
"#,
    );
    write(&dir, "legacy/notes/SKILL.md", SKILL);
    write(&dir, "legacy/old/notes/SKILL.md", SKILL);
    write(&dir, "new/notes/SKILL.md", SKILL);
    write(&dir, "host/notes/SKILL.md", SKILL);
    write(&dir, "drafts/tools.json", "{");
    let out = toolsmith_in(&dir, &["lint"]);
    let text = stdout(&out);
    assert!(text.contains("1 skipped by --exclude"), "{text}");
    let (_, list) = findings(&dir, &[]);
    assert_eq!(
        list,
        [
            // strict makes it an error, the override's `skill/*` a warning.
            "host/notes/SKILL.md:4:1 warning skill/unknown-field",
            "legacy/notes/SKILL.md:4:1 note skill/unknown-field",
            "new/notes/SKILL.md:4:1 error skill/unknown-field",
        ]
    );
    // The command line wins over the config's profile.
    let print = toolsmith_in(&dir, &["config", "--print", "host/notes/SKILL.md"]);
    assert!(
        stdout(&print).contains("profile = \"strict\"  # toolsmith.toml:15"),
        "{}",
        stdout(&print)
    );
}

#[test]
fn config_problems_are_positioned_findings_with_did_you_mean() {
    let dir = scratch("problems");
    write(
        &dir,
        "toolsmith.toml",
        r#"exlude = ["x/**"]
profile = "claude"
providers = ["openai", "opneai"]
dialect = 3

[rules]
"skill/vendor-feild" = "off"
"provder/*" = "error"
"skill/unknown-field" = "warn"

[[overrides]]
path = ["a/**"]

[[overrides]]
paths = ["a/[**"]
colour = "red"

[[allow]]
path = "tools.json"
rule = "json/duplicate-key"
pointer = "tools/0"
"#,
    );
    write(&dir, "notes/SKILL.md", SKILL);
    let out = toolsmith_in(&dir, &["lint"]);
    assert_eq!(status(&out), 1, "config errors fail the run");
    snapshot("problems.txt", &stdout(&out));
    let (_, list) = findings(&dir, &[]);
    let config: Vec<&String> = list.iter().filter(|l| l.contains("config/")).collect();
    assert_eq!(
        config,
        [
            "toolsmith.toml:1:1 error config/unknown-key",
            "toolsmith.toml:2:11 error config/invalid-value",
            "toolsmith.toml:3:24 error config/invalid-value",
            "toolsmith.toml:4:11 error config/invalid-value",
            "toolsmith.toml:7:1 error config/unknown-rule",
            "toolsmith.toml:8:1 error config/unknown-rule",
            "toolsmith.toml:9:25 error config/invalid-value",
            "toolsmith.toml:11:1 error config/invalid-value",
            "toolsmith.toml:12:1 error config/unknown-key",
            "toolsmith.toml:15:10 error config/invalid-value",
            "toolsmith.toml:16:1 error config/unknown-key",
            "toolsmith.toml:18:1 error config/missing-reason",
            // `tools.json` does not exist.
            "toolsmith.toml:18:1 warning config/unused-allow",
            "toolsmith.toml:21:11 error config/invalid-value",
        ]
    );
}

#[test]
fn a_config_with_a_syntax_error_is_reported_and_not_used() {
    let dir = scratch("syntax");
    write(
        &dir,
        "toolsmith.toml",
        "[rules]\n\"skill/unknown-field\" = \"off\"\nexclude = [\n",
    );
    write(&dir, "notes/SKILL.md", SKILL);
    let (code, list) = findings(&dir, &[]);
    assert_eq!(code, 1);
    assert_eq!(list.len(), 2, "{list:?}");
    assert!(list[0].starts_with("notes/SKILL.md:4:1 warning skill/unknown-field"));
    assert!(list[1].starts_with("toolsmith.toml:") && list[1].ends_with("error config/syntax"));
    // Not UTF-8: the same.
    write(&dir, "toolsmith.toml", b"[rules]\n\xff = 1\n");
    let (_, list) = findings(&dir, &[]);
    assert!(
        list.contains(&"toolsmith.toml:2:1 error config/syntax".to_string()),
        "{list:?}"
    );
    // A --config that does not exist is a tool error.
    let out = toolsmith_in(&dir, &["lint", "--config", "missing.toml"]);
    assert_eq!(status(&out), 2);
    assert!(
        stderr(&out).contains("cannot read `missing.toml`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn yaml_comments_suppress_the_next_line_or_their_own() {
    let dir = scratch("comments");
    write(
        &dir,
        "notes/SKILL.md",
        "---\nname: notes\ndescription: Keep notes. Use when asked to remember.\n\
         # toolsmith: allow skill/unknown-field — read by our registry\n\
         x-a: 1\n\
         x-b: 2  # toolsmith: allow skill/unknown-field -- read by our registry\n\
         x-c: 3\n\
         # toolsmith: allow skill/name-directory — stale\n\
         license: MIT\n\
         x-d: 4  # toolsmith: allow skill/unknwn-field\n---\nbody\n",
    );
    let (_, list) = findings(&dir, &["--no-config"]);
    assert_eq!(
        list,
        [
            "notes/SKILL.md:7:1 warning skill/unknown-field",
            "notes/SKILL.md:8:20 warning config/unused-allow",
            "notes/SKILL.md:10:1 warning skill/unknown-field",
            "notes/SKILL.md:10:9 error config/missing-reason",
            "notes/SKILL.md:10:28 error config/unknown-rule",
        ]
    );
    let out = toolsmith_in(&dir, &["lint", "--no-config"]);
    snapshot("comments.txt", &stdout(&out));
    // A config can turn the unused-suppression warning off like any rule.
    write(
        &dir,
        "toolsmith.toml",
        "[rules]\n\"config/unused-allow\" = \"off\"\n",
    );
    let (_, list) = findings(&dir, &[]);
    assert!(!list.iter().any(|l| l.contains("unused-allow")), "{list:?}");
}

/// An agentcli manifest whose command is outside ./tools/bin (an error at
/// `/tools/0/command/0`, line 3) and has a duplicate key on line 2.
const TOOLS: &str = "{\"tools\": [{\"name\": \"t\", \"description\": \"d\",\n\
  \"schema\": {\"type\": \"object\", \"type\": \"object\"},\n\
  \"command\": [\"./bin/t\"]}]}\n";

#[test]
fn allow_entries_suppress_json_findings_and_stale_ones_are_reported() {
    let dir = scratch("allow");
    write(&dir, "tools/tools.json", TOOLS);
    write(
        &dir,
        "toolsmith.toml",
        r#"[[allow]]
path = "tools/tools.json"
rule = "agentcli/command-not-in-bin"
pointer = "/tools/0/command/0"
reason = "bin is a symlink in the release"

[[allow]]
path = "tools/*.json"
rule = "json/duplicate-key"
reason = "generated; fixed upstream"

[[allow]]
path = "tools/tools.json"
rule = "agentcli/command-not-in-bin"
pointer = "/tools/1/command/0"
reason = "there is no second tool any more"

[[allow]]
path = "gone/tools.json"
rule = "json/syntax"
reason = "the file was deleted"

[[allow]]
path = "other/**"
rule = "json/syntax"
reason = "not linted in this run: not judged"
"#,
    );
    let (code, list) = findings(&dir, &["tools"]);
    assert_eq!(
        list,
        [
            "toolsmith.toml:12:1 warning config/unused-allow",
            "toolsmith.toml:18:1 warning config/unused-allow",
        ]
    );
    assert_eq!(code, 0);
    let (_, without) = findings(&dir, &["tools", "--no-config"]);
    assert_eq!(
        without,
        [
            "tools/tools.json:2:30 error json/duplicate-key",
            "tools/tools.json:3:13 error agentcli/command-not-in-bin",
        ]
    );
}

#[test]
fn a_baseline_survives_edits_above_its_findings() {
    let dir = scratch("baseline");
    write(&dir, "tools/tools.json", TOOLS);
    write(&dir, "notes/SKILL.md", SKILL);
    let out = toolsmith_in(
        &dir,
        &["lint", "--write-baseline", "toolsmith-baseline.json"],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("recorded 3 findings of 2 files"),
        "{}",
        stderr(&out)
    );
    let written = std::fs::read_to_string(dir.join("toolsmith-baseline.json")).expect("written");
    snapshot("baseline.json", &written);
    // Lines added above every finding: still matched.
    write(&dir, "tools/tools.json", format!("\n\n{TOOLS}"));
    write(
        &dir,
        "notes/SKILL.md",
        SKILL.replace("name: notes\n", "name: notes\nlicense: MIT\n"),
    );
    let out = toolsmith_in(&dir, &["lint", "--baseline", "toolsmith-baseline.json"]);
    assert_eq!(status(&out), 0, "{}", stdout(&out));
    assert!(
        stderr(&out).contains(
            "3 findings matched the baseline `toolsmith-baseline.json` and are not shown"
        ),
        "{}",
        stderr(&out)
    );
    // A new finding is reported; a fixed one makes a stale entry.
    write(
        &dir,
        "notes/SKILL.md",
        SKILL.replace("x-extra: 1\n", "x-other: 1\n"),
    );
    let (code, list) = findings(&dir, &["--baseline", "toolsmith-baseline.json"]);
    assert_eq!(list, ["notes/SKILL.md:4:1 warning skill/unknown-field"]);
    assert_eq!(code, 0);
    let out = toolsmith_in(&dir, &["lint", "--baseline", "toolsmith-baseline.json"]);
    assert!(
        stderr(&out).contains("1 of its entries matched nothing"),
        "{}",
        stderr(&out)
    );
    // Run from elsewhere, the same baseline matches (paths are relative to it).
    let out = toolsmith_in(
        dir.parent().expect("parent"),
        &[
            "lint",
            "baseline/tools",
            "--baseline",
            "baseline/toolsmith-baseline.json",
        ],
    );
    assert!(
        stderr(&out).contains("2 findings matched"),
        "{}",
        stderr(&out)
    );
    // Not a baseline: a tool error.
    write(&dir, "bad.json", "{\"version\": 1}");
    let out = toolsmith_in(&dir, &["lint", "--baseline", "bad.json"]);
    assert_eq!(status(&out), 2);
    assert!(stderr(&out).contains("not a baseline"), "{}", stderr(&out));
}

fn fixtures_config() -> PathBuf {
    crate_dir().join("../fixtures/config")
}

#[test]
fn the_fixtures_example_config_works() {
    let out = toolsmith_in(&fixtures_config(), &["lint"]);
    assert_eq!(status(&out), 0, "{}", stdout(&out));
    snapshot("fixtures-lint.txt", &stdout(&out));
    let out = toolsmith_in(&fixtures_config(), &["lint", "--no-config"]);
    assert_eq!(
        status(&out),
        1,
        "without it the vendored file and the command fail"
    );
    let out = toolsmith_in(
        &fixtures_config(),
        &["config", "--print", "tools/tools.json"],
    );
    assert_eq!(status(&out), 0);
    snapshot("print-tools.txt", &stdout(&out));
    let out = toolsmith_in(
        &fixtures_config(),
        &["config", "--print", "skills/legacy-notes/SKILL.md"],
    );
    snapshot("print-legacy.txt", &stdout(&out));
    let out = toolsmith_in(
        &fixtures_config(),
        &["config", "--print", "skills/x/SKILL.md", "--no-config"],
    );
    assert!(stdout(&out).contains("no toolsmith.toml applies"));
}

#[test]
fn rules_shows_the_effective_severity() {
    let out = toolsmith_in(&fixtures_config(), &["rules"]);
    assert_eq!(status(&out), 0);
    let text = stdout(&out);
    let row = |id: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("{id} listed"))
            .to_string()
    };
    assert_eq!(
        row("skill/vendor-field").split_whitespace().nth(1),
        Some("off")
    );
    assert!(row("skill/vendor-field").ends_with("[warning by default; toolsmith.toml:13]"));
    assert_eq!(
        row("provider/mcp-name").split_whitespace().nth(1),
        Some("error")
    );
    assert_eq!(row("json/syntax").split_whitespace().nth(1), Some("error"));
    assert!(stderr(&out).contains("severities as `toolsmith.toml` sets them"));
    let plain = toolsmith_in(&fixtures_config(), &["rules", "--no-config"]);
    assert!(
        stdout(&plain)
            .lines()
            .any(|l| l.starts_with("skill/vendor-field") && l.contains(" warning "))
    );
}

#[test]
fn hostile_configs_are_refused_with_a_finding_not_a_panic() {
    let dir = scratch("hostile");
    write(&dir, "notes/SKILL.md", SKILL);
    // Nesting far deeper than any config needs.
    let deep = format!("exclude = {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    write(&dir, "toolsmith.toml", &deep);
    let (code, list) = findings(&dir, &[]);
    assert_eq!(code, 1);
    assert!(
        list.iter().any(|l| l.ends_with("error config/syntax")),
        "{list:?}"
    );
    // Bigger than --max-size: a tool error naming the file.
    write(&dir, "toolsmith.toml", "# padding\n".repeat(2000));
    let out = toolsmith_in(&dir, &["lint", "--max-size", "1000"]);
    assert_eq!(status(&out), 2);
    assert!(stderr(&out).contains("toolsmith.toml"), "{}", stderr(&out));
    // A directory named toolsmith.toml is not a config.
    std::fs::remove_file(dir.join("toolsmith.toml")).expect("rm");
    std::fs::create_dir(dir.join("toolsmith.toml")).expect("mkdir");
    let (code, _) = findings(&dir, &[]);
    assert_eq!(code, 0);
}

/// 5,000 `chai/invalid-type` errors (a chai `tools.json` of numbers): the
/// first 1,000 are shown and one `lint/too-many-findings` counts the other
/// 4,000; the config's setting of the rule applies to that count too.
#[test]
fn the_count_of_findings_left_out_follows_the_rule_it_counts() {
    let dir = scratch("too-many");
    let numbers: Vec<String> = (0..5000).map(|i| (i % 10).to_string()).collect();
    write(&dir, "skill/tools.json", format!("[{}]", numbers.join(",")));
    let run = |config: &str| {
        write(&dir, "toolsmith.toml", config);
        let out = toolsmith_in(&dir, &["lint", "--format", "json", "skill/tools.json"]);
        let report: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("JSON on stdout ({e}); stderr: {}", stderr(&out)));
        let diagnostics = report["diagnostics"]
            .as_array()
            .expect("diagnostics")
            .clone();
        let of = |rule: &str| -> Vec<Value> {
            diagnostics
                .iter()
                .filter(|d| d["rule"] == rule)
                .cloned()
                .collect()
        };
        (of("chai/invalid-type"), of("lint/too-many-findings"))
    };

    let (shown, counts) = run("");
    assert_eq!(shown.len(), 1000);
    assert_eq!(counts.len(), 1, "{counts:#?}");
    assert_eq!(counts[0]["severity"], "error");
    assert!(
        counts[0]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("4000 more `chai/invalid-type` findings")),
        "{counts:#?}"
    );
    // The count sits at the first element left out.
    assert_eq!(counts[0]["pointer"], "/1000");

    let (shown, counts) = run("[rules]\n\"chai/invalid-type\" = \"warning\"\n");
    assert_eq!(shown.len(), 1000);
    assert!(shown.iter().all(|d| d["severity"] == "warning"));
    assert_eq!(counts.len(), 1);
    assert_eq!(counts[0]["severity"], "warning");

    let (shown, counts) = run("[rules]\n\"chai/invalid-type\" = \"off\"\n");
    assert!(shown.is_empty());
    assert!(
        counts.is_empty(),
        "a rule that is off is not counted: {counts:#?}"
    );
}

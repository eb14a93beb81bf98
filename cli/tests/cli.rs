//! End-to-end tests of the `toolsmith` binary: real processes, real files.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use toolsmith_manifest::Severity;
use toolsmith_manifest::registry;

/// The crate directory (`cli/`); tests run the binary from here.
fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `toolsmith ARGS` in `cwd` without colours, and without the step summary
/// of a GitHub Actions run that may be running the tests.
fn command_in(cwd: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_toolsmith"));
    command
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("GITHUB_STEP_SUMMARY");
    command
}

/// Runs `toolsmith ARGS` in `cwd` without colours.
fn toolsmith_in(cwd: &Path, args: &[&str]) -> Output {
    command_in(cwd, args)
        .output()
        .expect("the toolsmith binary runs")
}

fn toolsmith(args: &[&str]) -> Output {
    toolsmith_in(crate_dir(), args)
}

fn status(out: &Output) -> i32 {
    out.status.code().expect("exited normally, not by a signal")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON value")
}

/// A fresh, empty scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Writes `contents` to `dir/rel`, creating parent directories.
fn write(dir: &Path, rel: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
    std::fs::write(&path, contents).expect("write file");
    path
}

const BROKEN: &str = "{\"tools\": [}\n";

fn files_of(report: &Value) -> Vec<String> {
    let mut files: Vec<String> = report["diagnostics"]
        .as_array()
        .expect("diagnostics array")
        .iter()
        .map(|d| d["file"].as_str().expect("file").to_string())
        .collect();
    files.dedup();
    files
}

#[test]
fn exit_0_for_a_valid_manifest_and_for_no_manifest() {
    let out = toolsmith(&["lint", "tests/data/valid"]);
    assert_eq!(status(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    let summary = text.lines().last().unwrap_or_default();
    assert!(
        summary.starts_with("0 errors, ") && summary.ends_with(" in 1 file"),
        "{text}"
    );

    let empty = scratch("empty-dir");
    let out = toolsmith_in(&empty, &["lint"]);
    assert_eq!(status(&out), 0);
    assert_eq!(stdout(&out), "0 errors, 0 warnings in 0 files\n");
}

#[test]
fn exit_1_on_errors() {
    let out = toolsmith(&["lint", "tests/data/human/comma"]);
    assert_eq!(status(&out), 1);
    assert!(stdout(&out).contains("error[json/syntax]"));
    assert!(stderr(&out).is_empty());
}

#[test]
fn exit_2_on_usage_errors() {
    for args in [
        &["lint", "--format", "xml"][..],
        &["lint", "--no-such-flag"],
        &["lint", "--dialect", "yaml"],
        &["lint", "--profile", "lenient"],
        &["lint", "--max-size", "lots"],
        &["frobnicate"],
        &["gen"],
    ] {
        let out = toolsmith(args);
        assert_eq!(status(&out), 2, "{args:?}");
        assert!(stdout(&out).is_empty(), "{args:?}");
        assert!(!stderr(&out).is_empty(), "{args:?}");
    }
}

#[test]
fn missing_path_is_reported_the_others_still_linted_exit_2() {
    let out = toolsmith(&["lint", "no/such/dir", "tests/data/human/comma"]);
    assert_eq!(status(&out), 2);
    assert!(
        stderr(&out).contains("toolsmith: cannot read `no/such/dir`"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("tests/data/human/comma/tools.json:3:48: error[json/syntax]"));
}

#[test]
fn deny_warnings_turns_warnings_into_exit_1() {
    if registry::all()
        .iter()
        .all(|r| r.severity != Severity::Warning)
    {
        eprintln!("notice: no rule warns by default yet; --deny-warnings test skipped");
        return;
    }
    // Inputs that the dialect rules are expected to warn about (an absolute
    // agentcli command, an unknown skill field); the first one
    // that gives warnings and no errors is used.
    let dir = scratch("deny-warnings");
    write(
        &dir,
        "absolute/tools.json",
        r#"{"tools": [{"name": "now", "description": "Prints the date.", "schema": {"type": "object", "properties": {}}, "command": ["/usr/bin/date"]}]}"#,
    );
    write(
        &dir,
        "vendor-field/SKILL.md",
        "---\nname: vendor-field\ndescription: Formats dates. Use when the user asks for a date.\nx-vendor-color: blue\n---\n\n# Dates\n",
    );
    let mut candidates = vec![dir.join("absolute"), dir.join("vendor-field")];
    candidates.retain(|c| {
        let r = json(&toolsmith(&[
            "lint",
            "--format",
            "json",
            c.to_str().expect("utf-8"),
        ]));
        r["summary"]["warnings"].as_u64() > Some(0) && r["summary"]["errors"] == 0
    });
    let warned = candidates
        .first()
        .expect("some rule warns, so one of the candidates should give only warnings")
        .to_str()
        .expect("utf-8");
    assert_eq!(status(&toolsmith(&["lint", warned])), 0);
    assert_eq!(status(&toolsmith(&["lint", "--deny-warnings", warned])), 1);
}

#[test]
fn json_shape_is_exactly_the_contract() {
    let dir = scratch("json-shape");
    write(&dir, "a/tools.json", "{\"tools\": [],\n \"tools\": []}\n");
    write(&dir, "b/tools.json", BROKEN);
    let out = toolsmith_in(&dir, &["lint", "--format", "json", "a", "b/tools.json"]);
    assert_eq!(status(&out), 1);
    let report = json(&out);
    let top: Vec<&str> = report
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(top, ["diagnostics", "summary"]);
    let diags = report["diagnostics"].as_array().expect("array");
    for d in diags {
        let keys: Vec<&str> = d
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "file",
                "line",
                "column",
                "end_line",
                "end_column",
                "severity",
                "rule",
                "message",
                "pointer"
            ]
        );
    }
    let by_rule = |rule: &str| {
        diags
            .iter()
            .find(|d| d["rule"] == rule)
            .unwrap_or_else(|| panic!("a {rule} diagnostic in {report}"))
    };
    assert_eq!(
        by_rule("json/duplicate-key"),
        &serde_json::json!({
            "file": "a/tools.json", "line": 2, "column": 2, "end_line": 2, "end_column": 9,
            "severity": "error", "rule": "json/duplicate-key",
            "message": "duplicate key `tools`", "pointer": "/tools"
        })
    );
    let syntax = by_rule("json/syntax");
    assert_eq!(syntax["file"], "b/tools.json");
    assert_eq!(
        (syntax["line"].as_u64(), syntax["column"].as_u64()),
        (Some(1), Some(12))
    );
    let count = |severity: &str| diags.iter().filter(|d| d["severity"] == severity).count();
    assert_eq!(
        report["summary"],
        serde_json::json!({"files": 2, "errors": count("error"), "warnings": count("warning")})
    );
}

/// A single-file chai tools.json that uses a v0.5 key (`optional`) and an
/// unknown one (`extra`).
const CHAI_SINGLE_V05: &str = r#"{
  "tools": [{"name": "ls", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}],
  "allowlist": {"ls": [""]},
  "execution": [{"tool": "ls", "binary": "ls", "subcommand": "", "extra": 1,
    "args": [{"param": "path", "optional": true}]}]
}"#;

#[test]
fn chai_version_is_detected_named_and_overridable() {
    let dir = scratch("chai-version");
    write(&dir, "s/tools.json", CHAI_SINGLE_V05);
    let rules = |report: &Value, dialect: &str| -> Vec<String> {
        let diags = report["diagnostics"].as_array().expect("array");
        assert!(!diags.is_empty(), "{report}");
        for d in diags {
            assert_eq!(d["dialect"], dialect, "{d}");
        }
        diags
            .iter()
            .map(|d| {
                format!(
                    "{}:{}",
                    d["severity"].as_str().unwrap_or(""),
                    d["rule"].as_str().unwrap_or("")
                )
            })
            .collect()
    };
    let detected = toolsmith_in(&dir, &["lint", "--format", "json", "s"]);
    assert_eq!(status(&detected), 0, "{}", stdout(&detected));
    let found = rules(&json(&detected), "chai-v0.5");
    assert!(
        found.contains(&"warning:chai/deprecated-single-file".to_string()),
        "{found:?}"
    );
    assert!(
        found.contains(&"warning:chai/unknown-field-ignored".to_string()),
        "{found:?}"
    );
    let forced = toolsmith_in(
        &dir,
        &["lint", "--format", "json", "--chai-version", "legacy", "s"],
    );
    assert_eq!(status(&forced), 1, "{}", stdout(&forced));
    let report = json(&forced);
    let found = rules(&report, "chai-legacy");
    assert!(
        found.contains(&"error:chai/unknown-field".to_string()),
        "{found:?}"
    );
    let first = report["diagnostics"]
        .as_array()
        .and_then(|d| d.iter().find(|d| d["rule"] == "chai/unknown-field"))
        .expect("an unknown-field error");
    assert!(
        first["message"]
            .as_str()
            .is_some_and(|m| m.contains("read as chai-legacy")),
        "{first}"
    );
    let v05 = toolsmith_in(&dir, &["lint", "--chai-version", "v0.5", "s"]);
    assert_eq!(status(&v05), 0, "{}", stdout(&v05));
}

#[test]
fn columns_count_unicode_scalar_values() {
    let out = toolsmith(&["lint", "--format", "json", "tests/data/human/unicode"]);
    let report = json(&out);
    // `    {"name": "héllo wörld" "command"…`: the comma is missing before the
    // 28th character, the quote of `"command"` (the 30th byte).
    assert_eq!(report["diagnostics"][0]["column"], 28);
}

#[test]
fn display_paths_follow_the_command_line() {
    let dir = scratch("display");
    write(&dir, "x/tools.json", BROKEN);
    let dot = json(&toolsmith_in(&dir, &["lint", "--format", "json", "."]));
    assert_eq!(files_of(&dot), ["./x/tools.json"]);
    let none = json(&toolsmith_in(&dir, &["lint", "--format", "json"]));
    assert_eq!(files_of(&none), ["x/tools.json"]);
    let sub = json(&toolsmith_in(&dir, &["lint", "--format", "json", "x/"]));
    assert_eq!(files_of(&sub), ["x/tools.json"]);
    let file = json(&toolsmith_in(
        &dir,
        &["lint", "--format", "json", "./x/tools.json"],
    ));
    assert_eq!(files_of(&file), ["./x/tools.json"]);
}

#[test]
fn walk_honours_gitignore_enters_hidden_dirs_skips_dot_git() {
    let dir = scratch("walk");
    write(&dir, ".gitignore", "ignored/\n*.tmp.tools.json\n");
    write(&dir, "ignored/tools.json", BROKEN);
    write(&dir, "kept/x.tmp.tools.json", BROKEN);
    write(&dir, "kept/tools.json", BROKEN);
    write(&dir, "kept/package.json", BROKEN);
    write(&dir, ".claude/skills/demo/web.tools.json", BROKEN);
    write(&dir, ".git/tools.json", BROKEN);
    write(&dir, "sub/.git/tools.json", BROKEN);
    let report = json(&toolsmith_in(&dir, &["lint", "--format", "json"]));
    assert_eq!(
        files_of(&report),
        [".claude/skills/demo/web.tools.json", "kept/tools.json"]
    );
    assert_eq!(report["summary"]["files"], 2);
}

#[test]
fn an_explicit_file_is_linted_whatever_its_name() {
    let dir = scratch("explicit");
    write(&dir, "manifest.json", BROKEN);
    let report = json(&toolsmith_in(
        &dir,
        &["lint", "--format", "json", "manifest.json"],
    ));
    assert_eq!(files_of(&report), ["manifest.json"]);
    // …but a directory walk skips it.
    let report = json(&toolsmith_in(&dir, &["lint", "--format", "json"]));
    assert_eq!(report["summary"]["files"], 0);
}

#[test]
fn output_is_sorted_and_deterministic() {
    let dir = scratch("sorted");
    for i in 0..40 {
        write(&dir, &format!("d{i:02}/tools.json"), BROKEN);
    }
    let first = toolsmith_in(&dir, &["lint", "--format", "json"]);
    let files = files_of(&json(&first));
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted);
    assert_eq!(files.len(), 40);
    for _ in 0..3 {
        assert_eq!(
            toolsmith_in(&dir, &["lint", "--format", "json"]).stdout,
            first.stdout
        );
    }
}

#[test]
fn github_format_escapes_properties_and_messages() {
    let dir = scratch("github");
    write(
        &dir,
        "we,ird:dir/tools.json",
        "{\"a,b:c%\": 1, \"a,b:c%\": 2}\n",
    );
    let out = toolsmith_in(&dir, &["lint", "--format", "github"]);
    assert_eq!(status(&out), 1);
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.contains("duplicate-key"))
        .expect("a duplicate-key annotation");
    assert!(
        line.starts_with(
            "::error file=we%2Cird%3Adir/tools.json,line=1,endLine=1,col=15,endColumn=22,title=json/duplicate-key::duplicate key `a,b:c%25`"
        ),
        "{line}"
    );
    // The help text follows on an escaped new line; nothing else breaks the line.
    assert!(line.contains("%0Ahelp: "), "{line}");
    assert!(
        text.lines()
            .all(|l| l.starts_with("::error ") || l.starts_with("::warning "))
    );
}

const ABSOLUTE_COMMAND: &str = r#"{"tools": [{"name": "now", "description": "Prints the date.", "schema": {"type": "object", "properties": {}}, "command": ["/usr/bin/date"]}]}"#;

/// A scratch directory with `errors` broken manifests (one syntax error each)
/// and `warnings` agentcli manifests with an absolute command (one warning each).
fn findings_dir(name: &str, errors: usize, warnings: usize) -> PathBuf {
    let dir = scratch(name);
    for i in 0..errors {
        write(&dir, &format!("e{i:02}/tools.json"), BROKEN);
    }
    for i in 0..warnings {
        write(&dir, &format!("w{i:02}/tools.json"), ABSOLUTE_COMMAND);
    }
    dir
}

fn notices(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("::notice")).collect()
}

#[test]
fn github_format_notices_the_annotations_github_hides() {
    // At the limit: every annotation is shown, no notice.
    let dir = findings_dir("github-at-limit", 10, 10);
    let out = toolsmith_in(&dir, &["lint", "--format", "github"]);
    assert_eq!(status(&out), 1);
    let text = stdout(&out);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("::error ")).count(),
        10
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("::warning ")).count(),
        10
    );
    assert!(notices(&text).is_empty(), "{text}");

    // Above it: every annotation is still printed, then one notice with the count.
    for (errors, warnings, hidden) in [(11, 0, 1), (0, 12, 2), (13, 12, 5), (13, 3, 3)] {
        let dir = findings_dir("github-above-limit", errors, warnings);
        let out = toolsmith_in(&dir, &["lint", "--format", "github"]);
        assert_eq!(status(&out), if errors > 0 { 1 } else { 0 });
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), errors + warnings + 1, "{text}");
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("::error ")).count(),
            errors
        );
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("::warning ")).count(),
            warnings
        );
        assert_eq!(notices(&text).len(), 1, "{text}");
        let notice = lines.last().expect("the notice is the last line");
        assert!(notice.starts_with("::notice "), "{notice}");
        assert!(
            notice.contains(&format!(
                "{hidden} of these {} are not shown",
                errors + warnings
            )),
            "{notice}"
        );
        assert!(notice.contains("step summary"), "{notice}");
    }
}

#[test]
fn github_format_writes_every_finding_to_the_step_summary() {
    let dir = findings_dir("github-summary", 12, 1);
    write(&dir, "pipe/tools.json", "{\"a|b\": 1, \"a|b\": 2}\n");
    let summary = dir.join("summary.md");
    std::fs::write(&summary, "earlier step output\n").expect("write summary");
    let out = command_in(&dir, &["lint", "--format", "github"])
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .expect("the toolsmith binary runs");
    assert_eq!(status(&out), 1);
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&summary).expect("summary written");
    // Appended, not overwritten.
    assert!(
        text.starts_with("earlier step output\n## toolsmith lint\n"),
        "{text}"
    );
    // The pipe file has two errors: the duplicate key and an unknown dialect.
    assert!(
        text.contains("**Errors:** 14 · **Warnings:** 1 · **Files:** 14"),
        "{text}"
    );
    assert!(
        text.contains("GitHub does not show 4 of these findings"),
        "{text}"
    );
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| Location") && !l.starts_with("| ---"))
        .collect();
    assert_eq!(rows.len(), 15, "{text}");
    for i in 0..12 {
        let row = format!("| e{i:02}/tools.json:1:12 | error | json/syntax | ");
        assert!(rows.iter().any(|r| r.starts_with(&row)), "{row} in {text}");
    }
    assert!(
        rows.iter()
            .any(|r| r
                .starts_with("| w00/tools.json:1:123 | warning | agentcli/absolute-command | ")),
        "{text}"
    );
    // `|` is escaped and the help's line break is a <br>: each row stays one row.
    let pipe = rows
        .iter()
        .find(|r| r.contains("json/duplicate-key"))
        .expect("the duplicate-key row");
    assert!(pipe.contains("duplicate key `a\\|b`<br>help: "), "{pipe}");
    assert!(rows.iter().all(|r| r.ends_with(" |")), "{text}");
}

#[test]
fn step_summary_is_only_written_for_github_format_when_the_variable_is_set() {
    let dir = findings_dir("github-no-summary", 1, 0);
    let summary = dir.join("summary.md");
    let plain = toolsmith_in(&dir, &["lint", "--format", "github"]);
    assert_eq!(status(&plain), 1);
    assert!(stderr(&plain).is_empty(), "{}", stderr(&plain));
    for format in ["human", "json", "sarif"] {
        let out = command_in(&dir, &["lint", "--format", format])
            .env("GITHUB_STEP_SUMMARY", &summary)
            .output()
            .expect("the toolsmith binary runs");
        assert_eq!(status(&out), 1, "{format}");
    }
    assert!(!summary.exists(), "only --format github writes the summary");
    let out = command_in(&dir, &["lint", "--format", "github"])
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .expect("the toolsmith binary runs");
    assert_eq!(
        stdout(&out),
        stdout(&plain),
        "the summary does not change stdout"
    );
    assert!(summary.exists());
}

#[test]
fn an_unwritable_step_summary_warns_and_keeps_the_exit_status() {
    for (errors, expected) in [(1, 1), (0, 0)] {
        let dir = findings_dir("github-bad-summary", errors, 1);
        // A directory cannot be opened for appending.
        let out = command_in(&dir, &["lint", "--format", "github"])
            .env("GITHUB_STEP_SUMMARY", dir.join("w00"))
            .output()
            .expect("the toolsmith binary runs");
        assert_eq!(status(&out), expected);
        assert!(
            stderr(&out).contains("toolsmith: warning: cannot write the step summary to `"),
            "{}",
            stderr(&out)
        );
        assert!(stdout(&out).contains("::warning file=w00/tools.json"));
    }
}

/// A validator for the official SARIF 2.1.0 schema (vendored, see tests/data/README.md).
fn sarif_validator() -> jsonschema::Validator {
    let mut schema: Value = serde_json::from_str(
        &std::fs::read_to_string(crate_dir().join("tests/data/sarif-schema-2.1.0.json"))
            .expect("vendored schema"),
    )
    .expect("schema is JSON");
    // The official schema's `language` patterns have a stray `]`, which
    // ECMA-262 tolerates but the Rust `regex` crate rejects when formats are
    // validated; the pattern they mean is used instead (toolsmith sets no `language`).
    for def in ["run", "toolComponent"] {
        let pattern = &mut schema["definitions"][def]["properties"]["language"]["pattern"];
        assert_eq!(pattern, "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$");
        *pattern = Value::from("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
    }
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("schema compiles")
}

/// Asserts that `log` is valid SARIF 2.1.0.
fn assert_valid_sarif(validator: &jsonschema::Validator, log: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn sarif_output_is_valid_sarif_2_1_0() {
    let validator = sarif_validator();
    let dir = scratch("sarif");
    write(&dir, "a b/tools.json", "{\"x\": 1, \"x\": 2}\n");
    write(&dir, "c/tools.json", BROKEN);
    write(&dir, "d/tools.json", "");
    let out = toolsmith_in(&dir, &["lint", "--format", "sarif"]);
    assert_eq!(status(&out), 1);
    let log = json(&out);
    assert_valid_sarif(&validator, &log);

    let run = &log["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let ids: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .map(|r| r["id"].as_str().expect("id"))
        .collect();
    let all: Vec<&str> = registry::all().iter().map(|r| r.id).collect();
    assert_eq!(ids, all);
    let results = run["results"].as_array().expect("results");
    let from_json = json(&toolsmith_in(&dir, &["lint", "--format", "json"]));
    assert_eq!(
        Some(results.len()),
        from_json["diagnostics"].as_array().map(Vec::len)
    );
    for r in results {
        let index = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(r["ruleId"], ids[index]);
    }
    let dup = results
        .iter()
        .find(|r| r["ruleId"] == "json/duplicate-key")
        .expect("the duplicate key is reported");
    assert_eq!(dup["level"], "error");
    let first = &dup["locations"][0]["physicalLocation"];
    assert_eq!(first["artifactLocation"]["uri"], "a%20b/tools.json");
    assert_eq!(first["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(
        first["region"],
        serde_json::json!({"startLine": 1, "startColumn": 10, "endLine": 1, "endColumn": 13})
    );
}

#[test]
fn human_output_matches_the_snapshot() {
    let out = toolsmith(&["lint", "tests/data/human"]);
    assert_eq!(status(&out), 1);
    let actual = stdout(&out);
    let path = crate_dir().join("tests/data/human.txt");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &actual).expect("write snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path).expect("snapshot exists");
    assert_eq!(actual, expected, "run with UPDATE_SNAPSHOTS=1 to rewrite");
    assert!(
        !actual.contains('\u{1b}'),
        "NO_COLOR output has no escape codes"
    );
}

#[test]
fn color_always_colours_and_never_does_not() {
    let always = toolsmith(&["--color", "always", "lint", "tests/data/human/comma"]);
    assert!(stdout(&always).contains("\u{1b}["));
    let never = toolsmith(&["lint", "--color", "never", "tests/data/human/comma"]);
    assert!(!stdout(&never).contains('\u{1b}'));
}

#[test]
fn rules_lists_every_rule() {
    let out = toolsmith(&["rules"]);
    assert_eq!(status(&out), 0);
    let text = stdout(&out);
    let listed: Vec<(&str, &str, &str)> = text
        .lines()
        .map(|l| {
            let mut cols = l.split_whitespace();
            (
                cols.next().unwrap_or(""),
                cols.next().unwrap_or(""),
                cols.next().unwrap_or(""),
            )
        })
        .collect();
    let mut all = registry::all();
    all.extend(toolsmith_codegen::issue::RULES.iter().copied());
    all.sort_by_key(|r| r.id);
    assert!(all.iter().any(|r| r.id == "codegen/name-collision"));
    assert_eq!(listed.len(), all.len());
    for (rule, (id, severity, dialect)) in all.iter().zip(&listed) {
        assert_eq!(rule.id, *id);
        assert_eq!(rule.severity.to_string(), *severity);
        assert_eq!(rule.dialect, *dialect);
        assert!(text.contains(rule.summary));
    }
}

#[test]
fn max_size_refuses_large_files() {
    let out = toolsmith(&[
        "lint",
        "--format",
        "json",
        "--max-size",
        "10",
        "tests/data/valid",
    ]);
    assert_eq!(status(&out), 1);
    assert_eq!(json(&out)["diagnostics"][0]["rule"], "input/too-large");
}

/// A FIFO named on the command line must not block in `open`, and a symlink
/// to `/dev/zero` must not be read until memory runs out: both are refused,
/// at line 1 column 1, saying what the path is.
#[cfg(unix)]
#[test]
fn fifos_and_devices_named_on_the_command_line_are_refused_unread() {
    let dir = scratch("not-regular");
    std::fs::create_dir_all(dir.join("fifo")).expect("mkdir");
    let fifo = std::ffi::CString::new(
        dir.join("fifo/tools.json")
            .into_os_string()
            .into_encoded_bytes(),
    )
    .expect("no NUL in the path");
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0, "mkfifo");
    std::fs::create_dir_all(dir.join("zero")).expect("mkdir");
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero/tools.json")).expect("symlink");
    for (path, what) in [
        ("fifo/tools.json", "a FIFO (named pipe)"),
        ("zero/tools.json", "a character device"),
    ] {
        for max_size in ["8388608", "10"] {
            let out = toolsmith_in(
                &dir,
                &["lint", "--format", "json", "--max-size", max_size, path],
            );
            assert_eq!(status(&out), 1, "{path}: {}", stderr(&out));
            let report = json(&out);
            let d = &report["diagnostics"][0];
            assert_eq!(report["diagnostics"].as_array().map(Vec::len), Some(1));
            assert_eq!(d["rule"], "input/unreadable", "{path}: {d}");
            assert_eq!(
                (d["line"].as_u64(), d["column"].as_u64()),
                (Some(1), Some(1))
            );
            assert_eq!(
                d["message"],
                format!("not a regular file: this path is {what}; not read"),
            );
        }
    }
    // Walking the directory skips both, as before.
    let out = toolsmith_in(&dir, &["lint", "--format", "json", "."]);
    assert_eq!(status(&out), 0, "{}", stdout(&out));
}

/// Each hostile file must give an error diagnostic with a position, and exit 1.
#[test]
fn hostile_inputs_give_positioned_errors() {
    let dir = scratch("hostile");
    let mut deep = "[".repeat(10_000);
    deep.push_str(&"]".repeat(10_000));
    let mut huge = b"{\"tools\": [], \"pad\": \"".to_vec();
    huge.resize(9 * 1024 * 1024, b'x');
    huge.extend_from_slice(b"\"}");
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let cases: [(&str, Vec<u8>); 7] = [
        ("invalid-utf8", b"{\"tools\": [\"\xc3\x28\"]}".to_vec()),
        ("empty", Vec::new()),
        ("bom", b"\xef\xbb\xbf{\"tools\": []}".to_vec()),
        ("huge", huge),
        ("deep", deep.into_bytes()),
        ("garbage", garbage),
        ("nul", b"{\"tools\": []}\0".to_vec()),
    ];
    for (name, bytes) in &cases {
        write(&dir, &format!("{name}/tools.json"), bytes);
        let path = format!("{name}/tools.json");
        for format in ["json", "human", "github", "sarif"] {
            let out = toolsmith_in(&dir, &["lint", "--format", format, &path]);
            assert_eq!(status(&out), 1, "{name} ({format}): {}", stderr(&out));
            assert!(
                stderr(&out).is_empty(),
                "{name} ({format}): {}",
                stderr(&out)
            );
        }
        let report = json(&toolsmith_in(&dir, &["lint", "--format", "json", &path]));
        let first = report["diagnostics"]
            .as_array()
            .and_then(|d| d.iter().find(|d| d["severity"] == "error"))
            .unwrap_or_else(|| panic!("{name}: an error diagnostic in {report}"));
        assert!(first["line"].as_u64() >= Some(1), "{name}: {first}");
        assert!(first["column"].as_u64() >= Some(1), "{name}: {first}");
    }
}

#[test]
fn gen_reports_missing_paths_and_manifest_errors() {
    let out = toolsmith(&["gen", "no/such/tools.json"]);
    assert_eq!(status(&out), 2);
    assert!(stderr(&out).contains("cannot read `no/such/tools.json`"));

    let out = toolsmith(&["gen", "tests/data/human/comma/tools.json"]);
    if status(&out) == 0 && out.stdout.is_empty() {
        eprintln!("notice: toolsmith_codegen::generate is still a stub; gen error test skipped");
        return;
    }
    assert_eq!(status(&out), 1);
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("tests/data/human/comma/tools.json:3:48: error[json/syntax]"),
        "{}",
        stderr(&out)
    );
}

/// Lints every file of a tree as one run: no panic, a JSON report, status 0 or 1.
fn lint_tree_without_panic(root: &Path) {
    let out = toolsmith(&[
        "lint",
        "--format",
        "json",
        root.to_str().expect("utf-8 path"),
    ]);
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        matches!(status(&out), 0 | 1),
        "status {}: {err}",
        status(&out)
    );
    let report = json(&out);
    assert!(report["summary"]["files"].as_u64() > Some(0));
    for format in ["human", "github", "sarif"] {
        let out = toolsmith(&["lint", "--format", format, root.to_str().expect("utf-8")]);
        assert!(matches!(status(&out), 0 | 1), "{format}: {}", stderr(&out));
        if format == "sarif" {
            assert_valid_sarif(&sarif_validator(), &json(&out));
        }
    }
}

#[test]
fn fixtures_lint_without_panic() {
    lint_tree_without_panic(&crate_dir().join("../fixtures"));
}

#[test]
fn corpus_lints_without_panic() {
    let Some(corpus) = toolsmith_manifest::corpus::locate() else {
        eprintln!(
            "notice: corpus not found (../shared/corpus, $TOOLSMITH_CORPUS): corpus test skipped"
        );
        return;
    };
    lint_tree_without_panic(&corpus);
    // Every single file of the corpus, whatever its name, as an explicit path.
    let mut files = Vec::new();
    let mut stack = vec![corpus.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read corpus dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path.to_str().expect("utf-8").to_string());
            }
        }
    }
    files.sort();
    for chunk in files.chunks(200) {
        let mut args = vec!["lint", "--format", "json"];
        args.extend(chunk.iter().map(String::as_str));
        let out = toolsmith(&args);
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
        assert!(matches!(status(&out), 0 | 1), "{}", stderr(&out));
    }
}

#[test]
fn gen_writes_the_same_code_to_stdout_and_to_a_file() {
    let dir = scratch("gen");
    let out_file = dir.join("tools.rs");
    let to_stdout = toolsmith(&["gen", "tests/data/valid/tools.json"]);
    assert_eq!(status(&to_stdout), 0, "{}", stderr(&to_stdout));
    let to_file = toolsmith(&[
        "gen",
        "tests/data/valid/tools.json",
        "-o",
        out_file.to_str().expect("utf-8"),
    ]);
    assert_eq!(status(&to_file), 0, "{}", stderr(&to_file));
    assert!(to_file.stdout.is_empty());
    assert_eq!(std::fs::read(&out_file).expect("written"), to_stdout.stdout);

    let unwritable = dir.join("no/such/dir/tools.rs");
    let out = toolsmith(&[
        "gen",
        "tests/data/valid/tools.json",
        "--output",
        unwritable.to_str().expect("utf-8"),
    ]);
    assert_eq!(status(&out), 2);
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
}

#[test]
fn dialect_flag_overrides_detection() {
    let dir = scratch("dialect");
    write(&dir, "manifest.json", "{\"name\": \"x\"}\n");
    let rules_of = |args: &[&str]| -> Vec<String> {
        let report = json(&toolsmith_in(&dir, args));
        report["diagnostics"]
            .as_array()
            .expect("diagnostics")
            .iter()
            .map(|d| d["rule"].as_str().expect("rule").to_string())
            .collect()
    };
    let detected = rules_of(&["lint", "--format", "json", "manifest.json"]);
    assert!(
        detected.iter().any(|r| r == "dialect/unknown"),
        "{detected:?}"
    );
    for dialect in ["agentcli", "chai", "describe", "skill"] {
        let forced = rules_of(&[
            "lint",
            "--format",
            "json",
            "--dialect",
            dialect,
            "manifest.json",
        ]);
        assert!(
            !forced.iter().any(|r| r == "dialect/unknown"),
            "{dialect}: {forced:?}"
        );
    }
}

#[test]
fn readme_lists_every_rule() {
    let readme = std::fs::read_to_string(crate_dir().join("../README.md")).expect("read README.md");
    let mut all = registry::all();
    all.extend(toolsmith_codegen::issue::RULES.iter().copied());
    let missing: Vec<&str> = all
        .iter()
        .filter(|r| !readme.contains(&format!("| `{}` | {} |", r.id, r.severity)))
        .map(|r| r.id)
        .collect();
    assert!(
        missing.is_empty(),
        "README.md's rule table lacks (or has the wrong severity for): {missing:?}"
    );
    let is_rule_row = |l: &&str| {
        l.starts_with("| `")
            && (l.contains("` | error |")
                || l.contains("` | warning |")
                || l.contains("` | note |"))
    };
    let listed = readme.lines().filter(is_rule_row).count();
    assert_eq!(listed, all.len(), "README.md lists rules that do not exist");
}

/// The files `toolsmith gen` is given for a fixture directory: each
/// `tools.json` (the split layout's siblings come along), describe file and
/// skill file.
fn gen_entry_points(dir: &Path, out: &mut Vec<PathBuf>) {
    use toolsmith_manifest::lint::{FileKind, classify};
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            gen_entry_points(&path, out);
        } else if matches!(
            classify(&path),
            Some(FileKind::Tools | FileKind::Describe | FileKind::Skill)
        ) {
            out.push(path);
        }
    }
}

/// `toolsmith gen` output is relocatable: given each fixture by its absolute
/// path, the code holds no path of this machine (`MANIFEST_DIR` is `None`,
/// programs are manifest-relative: `./tools/bin/…`); every string that
/// starts with `/` is one the manifest itself wrote (an absolute agentcli
/// command, a description).
#[test]
fn gen_output_holds_no_absolute_path() {
    let fixtures = crate_dir().join("../fixtures").canonicalize().unwrap();
    let mut paths = Vec::new();
    for dialect in ["agentcli", "chai", "describe", "skill"] {
        gen_entry_points(&fixtures.join(dialect).join("valid"), &mut paths);
    }
    gen_entry_points(&fixtures.join("examples"), &mut paths);
    let repo = fixtures.parent().unwrap().to_str().unwrap().to_owned();
    let mut programs = 0;
    for path in &paths {
        let out = toolsmith(&["gen", path.to_str().unwrap()]);
        assert_eq!(status(&out), 0, "{}: {}", path.display(), stderr(&out));
        let code = stdout(&out);
        assert!(
            !code.contains(&repo),
            "{}: {repo} in\n{code}",
            path.display()
        );
        assert!(
            !code.contains("/work/"),
            "{}: /work/ in\n{code}",
            path.display()
        );
        let dir = path.parent().unwrap();
        let mut sources = String::new();
        gen_sources(dir, &mut sources);
        for literal in code.split('"').skip(1).step_by(2) {
            if let Some(text) = literal.strip_prefix('/') {
                let text = text.split('\\').next().unwrap_or_default();
                assert!(
                    sources.contains(&format!("/{text}")),
                    "{}: \"/{text}\" is not written in the manifest",
                    path.display()
                );
            }
        }
        // Agentcli and describe programs, in the module's bindings table
        // (JSON inside a Rust string literal: `\"program\":\"./x\"`).
        for site in code.split(r#"\"program\":\""#).skip(1) {
            let program = site.split(r#"\""#).next().unwrap();
            programs += 1;
            assert!(
                program.starts_with("./") || sources.contains(&format!("\"{program}\"")),
                "{}: program {program:?}",
                path.display()
            );
        }
        if code.contains("MANIFEST_DIR") {
            assert!(
                code.contains("pub const MANIFEST_DIR: __ts::Option<&str> = __ts::None;"),
                "{}",
                path.display()
            );
        }
    }
    assert!(paths.len() > 20 && programs > 5, "{paths:?}, {programs}");
}

/// The text of every file in `dir` and its subdirectories.
fn gen_sources(dir: &Path, out: &mut String) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            gen_sources(&path, out);
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            out.push_str(&text);
        }
    }
}

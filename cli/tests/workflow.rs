//! The repository's pre-commit hook (`.pre-commit-hooks.yaml`) and GitHub
//! Action (`action.yml`): their contracts, the action's steps run with a
//! shell under `CI=true` against the fixtures, the action's install step
//! and a real `pre-commit` run from PyPI in a virtual environment under
//! `target/`. The last two build the command in release mode; they share
//! one build directory (`target/install-build`), so CI pays for about one
//! release build. `TOOLSMITH_INSTALL_TESTS=0` skips them (with a notice).

use saphyr::{LoadableYamlNode, Yaml};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use toolsmith_manifest::lint::classify;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

fn load(name: &str) -> Yaml<'static> {
    // Leaked: the parsed tree borrows the text, and a test process is short.
    let text: &'static str = Box::leak(
        std::fs::read_to_string(repo().join(name))
            .expect("read")
            .into_boxed_str(),
    );
    let mut docs = Yaml::load_from_str(text).expect("valid YAML");
    assert_eq!(docs.len(), 1, "{name}: one document");
    docs.remove(0)
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("workflow-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

fn install_tests() -> bool {
    std::env::var_os("TOOLSMITH_INSTALL_TESTS").is_none_or(|v| v != "0")
}

/// Settings for the release builds of both install tests: what they check
/// is that the install works and the installed command lints, not how fast
/// it runs, so the release profile is compiled without optimisation (about
/// half the build time on two cores). The commands themselves are the
/// action's and pre-commit's, unchanged.
const INSTALL_PROFILE: [(&str, &str); 2] = [
    ("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0"),
    ("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "256"),
];

/// The build directory the release builds of both install tests share.
fn install_build_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory")
        .join("install-build")
}

#[test]
fn the_hook_keeps_the_files_the_walk_keeps() {
    let hooks = load(".pre-commit-hooks.yaml");
    let hook = &hooks[0];
    assert_eq!(hook["id"].as_str(), Some("toolsmith-lint"));
    assert_eq!(hook["language"].as_str(), Some("rust"));
    assert_eq!(hook["entry"].as_str(), Some("toolsmith-hook lint"));
    let files = regex::Regex::new(hook["files"].as_str().expect("files")).expect("a regex");
    for path in [
        "tools.json",
        "a/tools.json",
        "a/web.tools.json",
        "allowlist.json",
        "s/execution.json",
        "x/get_time.describe.json",
        "snapshots/github.mcp-tools.json",
        ".claude/skills/deploy/SKILL.md",
        "skill.md",
        "notes.skill.md",
        "package.json",
        "a/tools.json.bak",
        "README.md",
        "a/mytools.json",
        "SKILL.md.orig",
        ".tools.json",
        "a/.skill.md",
        "x.describe.json.txt",
    ] {
        assert_eq!(
            files.is_match(path),
            classify(Path::new(path)).is_some(),
            "{path}: the hook and the walk disagree"
        );
    }
    // The binary the entry names is the root package's.
    let manifest = std::fs::read_to_string(repo().join("Cargo.toml")).expect("Cargo.toml");
    assert!(manifest.contains("name = \"toolsmith-hook\""));
}

/// The action's inputs with their defaults.
fn inputs(action: &Yaml<'_>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (name, spec) in action["inputs"].as_mapping().expect("inputs") {
        let name = name.as_str().expect("input name").to_string();
        let default = spec["default"].as_str().unwrap_or("").to_string();
        out.insert(name, default);
    }
    out
}

/// Replaces `${{ inputs.NAME }}` with the input's value.
fn expand(text: &str, inputs: &BTreeMap<String, String>) -> String {
    let mut out = text.to_string();
    for (name, value) in inputs {
        out = out.replace(&format!("${{{{ inputs.{name} }}}}"), value);
    }
    assert!(
        !out.contains("${{"),
        "an expression the test does not know: {out}"
    );
    out
}

/// Runs one composite step as the runner does (`bash --noprofile --norc
/// -eo pipefail`), in the repository, with `path_dir` first in PATH.
fn run_step(
    step: &Yaml<'_>,
    inputs: &BTreeMap<String, String>,
    path_dir: &Path,
    extra: &[(&str, &str)],
) -> Output {
    assert_eq!(step["shell"].as_str(), Some("bash"));
    let script = step["run"].as_str().expect("run");
    assert!(
        !script.contains("${{"),
        "inputs reach scripts through env only"
    );
    let mut command = Command::new("bash");
    command
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
        .current_dir(repo())
        .env("CI", "true")
        .env("GITHUB_ACTIONS", "true")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env(
            "PATH",
            format!(
                "{}:{}",
                path_dir.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        );
    if let Some(env) = step["env"].as_mapping() {
        for (k, v) in env {
            command.env(
                k.as_str().expect("env name"),
                expand(v.as_str().unwrap_or(""), inputs),
            );
        }
    }
    for (k, v) in extra {
        command.env(k, v);
    }
    command.output().expect("bash runs")
}

#[test]
fn the_action_steps_run_against_the_fixtures() {
    let action = load("action.yml");
    assert_eq!(action["runs"]["using"].as_str(), Some("composite"));
    let defaults = inputs(&action);
    for name in ["version", "path", "paths", "config", "sarif"] {
        assert!(defaults.contains_key(name), "input `{name}`");
    }
    let steps = action["runs"]["steps"].as_vec().expect("steps");
    let (install, lint) = (&steps[0], &steps[1]);
    assert!(
        install["run"]
            .as_str()
            .expect("run")
            .contains("cargo install --locked")
    );
    let bin = scratch("action-bin");
    if install_tests() {
        let mut with = defaults.clone();
        with.insert("path".into(), ".".into());
        let root = bin.to_str().expect("utf-8");
        let build = install_build_dir();
        let out = run_step(
            install,
            &with,
            &bin.join("bin"),
            &[
                ("CARGO_INSTALL_ROOT", root),
                ("CARGO_TARGET_DIR", build.to_str().expect("utf-8")),
                INSTALL_PROFILE[0],
                INSTALL_PROFILE[1],
            ],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    } else {
        eprintln!(
            "notice: TOOLSMITH_INSTALL_TESTS=0: the action's install step (a release build) is skipped; \
             using the test build of toolsmith instead"
        );
        std::fs::create_dir_all(bin.join("bin")).expect("mkdir");
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_toolsmith"), bin.join("bin/toolsmith"))
            .expect("symlink");
    }
    let path_dir = bin.join("bin");
    let with = |pairs: &[(&str, &str)]| {
        let mut all = defaults.clone();
        for (k, v) in pairs {
            all.insert(k.to_string(), v.to_string());
        }
        all
    };
    // Clean fixtures: exit 0, no annotation.
    let out = run_step(
        lint,
        &with(&[("paths", "fixtures/examples")]),
        &path_dir,
        &[],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("::error"));
    // Broken ones: annotations and exit 1; two paths in one input.
    let out = run_step(
        lint,
        &with(&[("paths", "fixtures/json/invalid fixtures/examples")]),
        &path_dir,
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("::error file=fixtures/json/invalid/"),
        "{stdout}"
    );
    // A config and a SARIF file.
    let sarif = scratch("action-sarif").join("out.sarif");
    let out = run_step(
        lint,
        &with(&[
            ("paths", "fixtures/config"),
            ("config", "fixtures/config/toolsmith.toml"),
            ("sarif", sarif.to_str().expect("utf-8")),
        ]),
        &path_dir,
        &[],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&sarif).expect("SARIF written")).expect("JSON");
    assert_eq!(report["version"], "2.1.0");
    // A hostile input value stays data.
    let out = run_step(
        lint,
        &with(&[("paths", "$(touch /tmp/pwned-by-toolsmith-test) ;")]),
        &path_dir,
        &[],
    );
    assert_eq!(out.status.code(), Some(2), "no such path: a tool error");
    assert!(!Path::new("/tmp/pwned-by-toolsmith-test").exists());
}

/// A python with `pre-commit` installed, in `target/pre-commit-venv`.
fn python_with_pre_commit() -> Option<PathBuf> {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()?
        .to_path_buf();
    let venv = target.join("pre-commit-venv");
    let bin = venv.join("bin/pre-commit");
    if bin.is_file() {
        return Some(bin);
    }
    let ok = |cmd: &mut Command| cmd.output().is_ok_and(|o| o.status.success());
    if !ok(Command::new("python3").args(["-m", "venv"]).arg(&venv))
        || !ok(Command::new(venv.join("bin/python")).args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "pre-commit>=4,<5",
        ]))
    {
        eprintln!(
            "notice: skipping the pre-commit test: python3 -m venv or pip install pre-commit failed"
        );
        return None;
    }
    bin.is_file().then_some(bin)
}

#[test]
fn the_real_pre_commit_runs_the_hook() {
    if !install_tests() {
        eprintln!(
            "notice: TOOLSMITH_INSTALL_TESTS=0: the real pre-commit run (a release build of the hook) is skipped"
        );
        return;
    }
    let Some(pre_commit) = python_with_pre_commit() else {
        return;
    };
    let dir = scratch("pre-commit-repo");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    git(&["init", "-q"]);
    std::fs::write(dir.join("tools.json"), "{\"tools\": [}\n").expect("write");
    std::fs::write(dir.join("README.md"), "not linted\n").expect("write");
    git(&["add", "."]);
    let run = || {
        Command::new(&pre_commit)
            .args([
                "try-repo",
                repo().to_str().expect("utf-8"),
                "toolsmith-lint",
                "--all-files",
            ])
            .current_dir(&dir)
            .env("PRE_COMMIT_HOME", dir.join(".cache"))
            .env("CARGO_TARGET_DIR", install_build_dir())
            .envs(INSTALL_PROFILE)
            .output()
            .expect("pre-commit runs")
    };
    let out = run();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("json/syntax"), "{text}");
    std::fs::write(dir.join("tools.json"), "{\"tools\": []}\n").expect("write");
    git(&["add", "."]);
    let out = run();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

//! `cargo bench -p toolsmith-cli`: wall time of `toolsmith lint` as a user runs it
//! (a real process: start-up, walk, parse, rules, rendering).
//!
//! * `corpus`: the whole `../shared/corpus` (564 files; skipped with a notice when
//!   absent; `TOOLSMITH_CORPUS=DIR` overrides the path). Target: under 100 ms on 2 cores.
//! * `generated_10k`: 10,000 manifests of mixed dialects (agentcli, chai legacy,
//!   chai split, describe, SKILL.md), written to a temporary directory when the
//!   bench starts. Target: under 1 s on 2 cores.
//! * `corpus_skills`: the 175 Agent Skills directories of the corpus, to compare
//!   with `skills-ref validate` over the same directories (`benches/skills_ref.sh`).
//!   Target: at least 50× faster.
//!
//! divan rather than criterion: a fraction of the dependencies (criterion pulls
//! plotters, rayon, ciborium, …), so the bench compiles quickly on the 2 shared
//! cores, and per-bench `sample_count` keeps whole-tree runs short.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

fn main() {
    divan::main();
    if let Some(root) = ROOT.get() {
        let _ = std::fs::remove_dir_all(root);
    }
}

fn corpus() -> Option<PathBuf> {
    let corpus = toolsmith_manifest::corpus::locate();
    if corpus.is_none() {
        eprintln!(
            "notice: corpus not found (../shared/corpus, $TOOLSMITH_CORPUS): corpus benchmarks skipped"
        );
    }
    corpus
}

/// Runs `toolsmith lint --format json PATHS` and checks it did not fail as a tool.
fn lint(paths: &[PathBuf]) {
    let status = Command::new(env!("CARGO_BIN_EXE_toolsmith"))
        .arg("lint")
        .arg("--format")
        .arg("json")
        .args(paths)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("toolsmith runs");
    assert!(
        matches!(status.code(), Some(0 | 1)),
        "toolsmith lint failed: {status}"
    );
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn corpus_all(bencher: divan::Bencher) {
    let Some(corpus) = corpus() else { return };
    let paths = [corpus];
    bencher.bench(|| lint(&paths));
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn corpus_skills(bencher: divan::Bencher) {
    let Some(corpus) = corpus() else { return };
    let paths = [corpus.join("agent-skills-md")];
    bencher.bench(|| lint(&paths));
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn generated_10k(bencher: divan::Bencher) {
    let root = generated();
    let paths = [root.to_path_buf()];
    bencher.bench(|| lint(&paths));
}

/// Where the generated tree is, once written.
static ROOT: OnceLock<PathBuf> = OnceLock::new();

/// The generated tree (written once per bench run, removed at the end).
fn generated() -> &'static Path {
    ROOT.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("toolsmith-bench-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        generate(&root, 10_000).expect("write the generated tree");
        root
    })
}

/// Writes `count` manifests, one directory each, cycling through the dialects.
fn generate(root: &Path, count: usize) -> std::io::Result<()> {
    for i in 0..count {
        let name = format!("tool_{i}");
        let (dir, files): (PathBuf, Vec<(&str, String)>) = match i % 5 {
            0 => (
                root.join(format!("agentcli/{i}")),
                vec![("tools.json", agentcli(&name))],
            ),
            1 => (
                root.join(format!("chai/{i}")),
                vec![("tools.json", chai_legacy(&name))],
            ),
            2 => {
                let (tools, allowlist, execution) = chai_split(&name);
                (
                    root.join(format!("split/{i}")),
                    vec![
                        ("tools.json", tools),
                        ("allowlist.json", allowlist),
                        ("execution.json", execution),
                    ],
                )
            }
            3 => (
                root.join(format!("describe/{i}")),
                vec![("get_weather.describe.json", describe(&name))],
            ),
            _ => {
                let skill = format!("skill-{i}");
                (
                    root.join(format!(".claude/skills/{skill}")),
                    vec![("SKILL.md", skill_md(&skill))],
                )
            }
        };
        std::fs::create_dir_all(&dir)?;
        for (file, text) in files {
            std::fs::write(dir.join(file), text)?;
        }
    }
    Ok(())
}

fn parameters() -> &'static str {
    r#"{"type": "object", "properties": {"query": {"type": "string", "description": "Text to search for"}, "limit": {"type": "integer", "description": "Maximum number of results"}}, "required": ["query"]}"#
}

fn agentcli(name: &str) -> String {
    format!(
        r#"{{"tools": [{{"name": "{name}", "description": "Searches notes.", "schema": {p}, "command": ["./tools/bin/{name}"], "timeoutSec": 10, "envPassthrough": ["HOME"]}}]}}"#,
        p = parameters()
    )
}

fn chai_tools(name: &str) -> String {
    format!(
        r#"[{{"name": "{name}", "description": "Searches notes.", "parameters": {p}}}]"#,
        p = parameters()
    )
}

fn chai_execution(name: &str) -> String {
    format!(
        r#"[{{"tool": "{name}", "binary": "notesmd-cli", "subcommand": "search", "args": [{{"param": "query", "kind": "positional"}}, {{"param": "limit", "kind": "flag", "flag": "limit"}}]}}]"#
    )
}

fn chai_legacy(name: &str) -> String {
    format!(
        r#"{{"tools": {}, "allowlist": {{"notesmd-cli": ["search"]}}, "execution": {}}}"#,
        chai_tools(name),
        chai_execution(name)
    )
}

fn chai_split(name: &str) -> (String, String, String) {
    (
        chai_tools(name),
        r#"{"notesmd-cli": ["search"]}"#.to_string(),
        chai_execution(name),
    )
}

fn describe(name: &str) -> String {
    format!(
        r#"{{"name": "{name}", "description": "Get current weather for a location", "parameters": {p}}}"#,
        p = parameters()
    )
}

fn skill_md(name: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Searches the user's notes. Use when the user asks about something they wrote down.\nlicense: MIT\nallowed-tools: Bash(notesmd-cli:*) Read\n---\n\n# Notes\n\nRun `notesmd-cli search QUERY`.\n"
    )
}

//! `cargo bench -p toolsmith-cli`: wall time of `toolsmith lint` as a user runs it
//! (a real process: start-up, walk, parse, rules, rendering).
//!
//! * `corpus`: the whole `../shared/corpus` (564 files; skipped with a notice when
//!   absent; `TOOLSMITH_CORPUS=DIR` overrides the path). Target: under 100 ms on 2 cores.
//! * `generated_10k`: 10,000 manifests of mixed dialects (agentcli, chai legacy,
//!   chai split, describe, SKILL.md), written to a temporary directory when the
//!   bench starts. Target: under 1 s on 2 cores.
//! * `corpus_skills`: the 175 Agent Skills directories of the corpus, to compare
//!   with agnix and `skills-ref validate` over the same directories
//!   (`benches/peers.sh`, which also reports CPU time and peak memory).
//!
//! * `shape_*`: one file of each big shape at 10k, 100k and 1M elements — an
//!   array of numbers, an object with distinct keys, an object with one key
//!   repeated, `{"tools":[{},…]}` and deep-but-legal nesting (chains of 127
//!   nested arrays) — linted with `--max-size 16777216` (the 1M-key object is
//!   9 MB; the others are under the default 8 MiB). Time must grow linearly.
//!   Target: any shape under 2 s and 300 MB. The bench prints each run's peak
//!   memory (`maxrss` from `wait4`) at the end, and the memory per element
//!   between the 10k and the 1M file of each shape.
//! * `findings_one_line`: 20,000 tools of the same name on one line
//!   (1.4 MB; 19,999 `agentcli/duplicate-name` findings, capped at 1,000 plus a count),
//!   in each output format: the regression benchmark for rendering cost that
//!   grew with findings × line length. Target: `json` under 0.5 s, the others
//!   within 3× of it.
//!
//! divan rather than criterion: a fraction of the dependencies (criterion pulls
//! plotters, rayon, ciborium, …), so the bench compiles quickly on the 2 shared
//! cores, and per-bench `sample_count` keeps whole-tree runs short.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

fn main() {
    divan::main();
    if let Some(root) = ROOT.get() {
        let _ = std::fs::remove_dir_all(root);
    }
    let _ = std::fs::remove_dir_all(shapes_dir());
    print_peaks();
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

/// The `.snap` files below `dir` (the walk reads only known manifest names;
/// files named on the command line are read whatever their name).
fn snaps(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            snaps(&path, out);
        } else if path.extension().is_some_and(|e| e == "snap") {
            out.push(path);
        }
    }
}

/// The 117 github-mcp-server tool snapshots, every provider:
/// `toolsmith lint --format json --provider openai,…,mcp SNAP…`; its peak
/// memory is recorded as `corpus_mcp`.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn corpus_mcp_all_providers(bencher: divan::Bencher) {
    let Some(corpus) = corpus() else { return };
    let mut files = Vec::new();
    snaps(&corpus.join("mcp-tools"), &mut files);
    files.sort();
    let providers = toolsmith_manifest::provider::Provider::names().replace(' ', "");
    bencher.bench(|| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_toolsmith"));
        command
            .args(["lint", "--format", "json", "--provider", &providers])
            .args(&files);
        wait_peak(command, "corpus_mcp", files.len());
    });
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn generated_10k(bencher: divan::Bencher) {
    let root = generated();
    let paths = [root.to_path_buf()];
    bencher.bench(|| lint(&paths));
}

/// Element counts of the big shapes.
const SIZES: &[usize] = &[10_000, 100_000, 1_000_000];

/// Peak memory (KiB) of the runs of each big-file benchmark, by label.
static PEAKS: Mutex<BTreeMap<(String, usize), i64>> = Mutex::new(BTreeMap::new());

/// Runs `toolsmith lint --format FORMAT --max-size 16 MiB PATH` and records
/// its peak memory under `(label, n)`.
fn lint_big(path: &Path, format: &str, label: &str, n: usize) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_toolsmith"));
    command
        .args(["lint", "--format", format, "--max-size", "16777216"])
        .arg(path);
    wait_peak(command, label, n);
}

/// Runs `command` (a `toolsmith lint`), checks it did not fail as a tool, and
/// records its peak memory under `(label, n)`.
#[allow(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4 below"
)]
fn wait_peak(mut command: Command, label: &str, n: usize) {
    let child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("toolsmith runs");
    let pid = i32::try_from(child.id()).expect("a pid fits i32");
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4");
    assert!(
        libc::WIFEXITED(status) && matches!(libc::WEXITSTATUS(status), 0 | 1),
        "toolsmith lint failed: {status}"
    );
    let mut peaks = PEAKS.lock().unwrap_or_else(|e| e.into_inner());
    let peak = peaks.entry((label.to_string(), n)).or_default();
    *peak = (*peak).max(usage.ru_maxrss);
}

/// Prints the peak memory of each big-file benchmark and, per shape, the
/// memory per element between its smallest and its largest file.
fn print_peaks() {
    let peaks = PEAKS.lock().unwrap_or_else(|e| e.into_inner());
    if peaks.is_empty() {
        return;
    }
    println!("\npeak memory (maxrss of the toolsmith process):");
    for ((label, n), kib) in peaks.iter() {
        println!("  {label:<24} {n:>9}  {:8.1} MiB", *kib as f64 / 1024.0);
    }
    for label in peaks
        .keys()
        .map(|(l, _)| l)
        .collect::<std::collections::BTreeSet<_>>()
    {
        let of = |n: usize| peaks.get(&(label.clone(), n)).copied();
        if let (Some(small), Some(large)) = (of(SIZES[0]), of(SIZES[2])) {
            let per = (large - small) as f64 * 1024.0 / (SIZES[2] - SIZES[0]) as f64;
            println!("  {label:<24} {per:.0} bytes per element (1M vs 10k, text included)");
        }
    }
}

/// The file of `shape` with `n` elements (written on first use).
fn shape_file(shape: &str, n: usize) -> PathBuf {
    let dir = shapes_dir().join(format!("{shape}-{n}"));
    let path = dir.join("tools.json");
    if !path.exists() {
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(&path, shape_text(shape, n)).expect("write the shape");
    }
    path
}

/// The text of a big shape with `n` elements.
fn shape_text(shape: &str, n: usize) -> String {
    let mut out = String::with_capacity(n * 10);
    match shape {
        "numbers" => {
            out.push('[');
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                out.push(char::from(b'0' + (i % 10) as u8));
            }
            out.push(']');
        }
        "keys" | "duplicate_keys" => {
            out.push('{');
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                out.push('"');
                if shape == "keys" {
                    // Base 36, so that the 1M-key file stays near 8 MiB.
                    let mut k = i;
                    loop {
                        out.push(char::from_digit((k % 36) as u32, 36).unwrap_or('0'));
                        k /= 36;
                        if k == 0 {
                            break;
                        }
                    }
                } else {
                    out.push('a');
                }
                out.push_str("\":0");
            }
            out.push('}');
        }
        "tools" => {
            out.push_str("{\"tools\":[");
            for i in 0..n {
                out.push_str(if i > 0 { ",{}" } else { "{}" });
            }
            out.push_str("]}");
        }
        "deep" => {
            // Chains of 127 nested arrays inside the root array: 128 levels,
            // the deepest the limit allows; n arrays in all.
            out.push('[');
            let chains = n.div_ceil(127);
            for c in 0..chains {
                if c > 0 {
                    out.push(',');
                }
                out.push_str(&"[".repeat(127));
                out.push_str(&"]".repeat(127));
            }
            out.push(']');
        }
        _ => unreachable!("unknown shape {shape}"),
    }
    out
}

#[divan::bench(args = SIZES, sample_count = 5, sample_size = 1)]
fn shape_numbers(bencher: divan::Bencher, n: usize) {
    let path = shape_file("numbers", n);
    bencher.bench(|| lint_big(&path, "json", "numbers", n));
}

#[divan::bench(args = SIZES, sample_count = 5, sample_size = 1)]
fn shape_keys(bencher: divan::Bencher, n: usize) {
    let path = shape_file("keys", n);
    bencher.bench(|| lint_big(&path, "json", "keys", n));
}

#[divan::bench(args = SIZES, sample_count = 5, sample_size = 1)]
fn shape_duplicate_keys(bencher: divan::Bencher, n: usize) {
    let path = shape_file("duplicate_keys", n);
    bencher.bench(|| lint_big(&path, "json", "duplicate_keys", n));
}

#[divan::bench(args = SIZES, sample_count = 5, sample_size = 1)]
fn shape_tools(bencher: divan::Bencher, n: usize) {
    let path = shape_file("tools", n);
    bencher.bench(|| lint_big(&path, "json", "tools", n));
}

#[divan::bench(args = SIZES, sample_count = 5, sample_size = 1)]
fn shape_deep(bencher: divan::Bencher, n: usize) {
    let path = shape_file("deep", n);
    bencher.bench(|| lint_big(&path, "json", "deep", n));
}

#[divan::bench(args = ["json", "human", "github", "sarif"], sample_count = 5, sample_size = 1)]
fn findings_one_line(bencher: divan::Bencher, format: &str) {
    let dir = shapes_dir().join("findings-one-line");
    let path = dir.join("tools.json");
    if !path.exists() {
        // 20,000 tools named `same` on one line of about 1.4 MB.
        let tool = r#"{"name":"same","command":["./tools/bin/same"],"description":"padding"}"#;
        let line = format!("{{\"tools\":[{}]}}", vec![tool; 20_000].join(","));
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(&path, line).expect("write");
    }
    let label = format!("findings_one_line {format}");
    bencher.bench(|| lint_big(&path, format, &label, 20_000));
}

/// Where the big shapes are written (removed at the end, with the tree).
fn shapes_dir() -> &'static Path {
    static SHAPES: OnceLock<PathBuf> = OnceLock::new();
    SHAPES.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("toolsmith-shapes-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    })
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

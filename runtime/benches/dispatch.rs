//! Dispatch overhead benchmark (run with `cargo bench -p toolsmith --bench dispatch`).
//!
//! 1. A trivial tool (`true`) through `Runtime::dispatch` against a bare
//!    `std::process::Command` spawn of the same binary (target: ≤ 10 % overhead).
//! 2. Argument validation per call for the fixture schemas (target: < 5 µs).
//! 3. A shellclaw-style bash + jq dispatcher doing the same call (ratio recorded);
//!    skipped with a notice when `bash` or `jq` is absent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use toolsmith::manifest::model::{ChaiExecution, Dialect, Execution, Manifest, Tool};
use toolsmith::{Catalog, Policy, Runtime};

const SPAWNS: usize = 400;
const WARMUP: usize = 30;

struct Stats {
    median: Duration,
    p10: Duration,
    p90: Duration,
}

fn measure(n: usize, mut f: impl FnMut()) -> Stats {
    for _ in 0..WARMUP {
        f();
    }
    let mut v: Vec<Duration> = (0..n)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    v.sort();
    Stats {
        median: v[n / 2],
        p10: v[n / 10],
        p90: v[n * 9 / 10],
    }
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn row(name: &str, s: &Stats) {
    println!(
        "| {name} | {:.1} | {:.1} | {:.1} |",
        us(s.median),
        us(s.p10),
        us(s.p90)
    );
}

fn which(name: &str) -> Option<PathBuf> {
    ["/usr/local/bin", "/usr/bin", "/bin"]
        .iter()
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
}

fn main() {
    let Some(true_bin) = which("true") else {
        eprintln!("`true` not found; nothing to measure");
        return;
    };
    let true_bin = true_bin.canonicalize().unwrap_or(true_bin);
    let tool = Tool {
        origin: Default::default(),
        name: "noop".into(),
        description: None,
        parameters: serde_json::json!({
            "type": "object",
            "properties": {"value": {"type": "string"}},
            "required": ["value"],
            "additionalProperties": false
        }),
        execution: Execution::Chai(vec![ChaiExecution {
            binary: "true".into(),
            subcommand: "x".into(),
            args: vec![toolsmith::manifest::model::ArgMapping::new(
                "value",
                toolsmith::manifest::model::ArgKind::Positional,
            )],
            ..ChaiExecution::default()
        }]),
    };
    let manifest = Manifest {
        unusable: Vec::new(),
        dialect: Dialect::ChaiLegacy,
        path: PathBuf::from("bench/tools.json"),
        inputs: vec![],
        tools: vec![tool],
        allowlist: BTreeMap::from([("true".to_string(), vec!["x".to_string()])]),
    };
    let mut rt = Runtime::new(Policy::default());
    rt.add_manifest(&manifest);
    let args = r#"{"value":"hello"}"#;

    println!("## Dispatch overhead (µs, n = {SPAWNS})\n");
    println!("| variant | median | p10 | p90 |\n|---|---:|---:|---:|");
    // Interleave the two variants in rounds so that machine load affects both alike.
    let mut bare_all = Vec::new();
    let mut rt_all = Vec::new();
    for _ in 0..4 {
        bare_all.push(measure(SPAWNS / 4, || {
            let out = Command::new(&true_bin)
                .args(["x", "hello"])
                .stdin(Stdio::null())
                .output()
                .unwrap();
            assert!(out.status.success());
        }));
        rt_all.push(measure(SPAWNS / 4, || {
            let o = rt.dispatch("noop", args).unwrap();
            assert!(o.is_success());
        }));
    }
    let avg =
        |v: &[Stats], f: fn(&Stats) -> Duration| v.iter().map(f).sum::<Duration>() / v.len() as u32;
    let bare = Stats {
        median: avg(&bare_all, |s| s.median),
        p10: avg(&bare_all, |s| s.p10),
        p90: avg(&bare_all, |s| s.p90),
    };
    let through = Stats {
        median: avg(&rt_all, |s| s.median),
        p10: avg(&rt_all, |s| s.p10),
        p90: avg(&rt_all, |s| s.p90),
    };
    row("bare `Command::output()` of `true x hello`", &bare);
    row(
        "`Runtime::dispatch` (parse, validate, argv, env, group, capture, drain)",
        &through,
    );
    let overhead = (us(through.median) / us(bare.median) - 1.0) * 100.0;
    println!("\nOverhead of the runtime: {overhead:+.1} % (target ≤ 10 %)\n");

    println!("## Argument validation per call (µs, parse + validate)\n");
    println!("| schema | median | p10 | p90 |\n|---|---:|---:|---:|");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/examples");
    let mut vrt = Runtime::new(Policy::default());
    match Catalog::discover(&examples.join("describe-tools")) {
        Ok(c) => vrt.add_catalog(&c),
        Err(e) => eprintln!("cannot discover the example tools: {e}"),
    }
    vrt.add_manifest(&manifest);
    let cases = [
        ("get_weather", r#"{"location":"Paris","unit":"celsius"}"#),
        ("disk_usage", r#"{"path":"/tmp"}"#),
        (
            "github_issue",
            r#"{"repo":"octo/hello","title":"Bug","body":"Steps"}"#,
        ),
        ("noop", args),
    ];
    for (name, call) in cases {
        if vrt.validate_call(name, call).is_err() {
            eprintln!("skipping {name}: not loaded or invalid");
            continue;
        }
        // 1000 validations per sample so the clock resolution does not matter.
        let s = measure(200, || {
            for _ in 0..1000 {
                std::hint::black_box(vrt.validate_call(name, call).is_ok());
            }
        });
        let per = |d: Duration| d / 1000;
        row(
            name,
            &Stats {
                median: per(s.median),
                p10: per(s.p10),
                p90: per(s.p90),
            },
        );
    }

    println!("\n## shellclaw-style dispatcher (bash + jq) doing the same call\n");
    let (Some(bash), Some(jq)) = (which("bash"), which("jq")) else {
        println!("skipped: bash or jq is not installed (`apt-get install -y jq`)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("toolsmith-bench-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let catalog = dir.join("catalog.json");
    let dispatcher = dir.join("dispatch.sh");
    let _ = std::fs::write(
        &catalog,
        r#"[{"name":"noop","description":"x","parameters":{"type":"object","properties":{"value":{"type":"string"}},"required":["value"]}}]"#,
    );
    // Catalog lookup and required-field check with jq, then the tool with the JSON in $1.
    let _ = std::fs::write(
        &dispatcher,
        format!(
            r#"set -euo pipefail
catalog=$1 name=$2 args=$3
jq -e --arg n "$name" 'any(.[]; .name == $n)' "$catalog" >/dev/null || {{ echo "tool '$name' not found" >&2; exit 1; }}
missing=$(jq -n --argjson c "$(cat "$catalog")" --arg n "$name" --argjson a "$args" '(($c[] | select(.name == $n) | .parameters.required) // []) - ($a | keys)')
[ "$missing" = "[]" ] || {{ echo "missing required fields: $missing" >&2; exit 1; }}
value=$(printf '%s' "$args" | jq -r .value)
out=$({} x "$value")
printf '%s\n' "$out"
"#,
            true_bin.display()
        ),
    );
    let shell = measure(60, || {
        let out = Command::new(&bash)
            .arg(&dispatcher)
            .arg(&catalog)
            .arg("noop")
            .arg(args)
            .env(
                "PATH",
                format!(
                    "{}:/usr/bin:/bin",
                    jq.parent()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default()
                ),
            )
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    });
    println!("| variant | median | p10 | p90 |\n|---|---:|---:|---:|");
    row("bash + 3 jq dispatcher", &shell);
    row("`Runtime::dispatch`", &through);
    println!(
        "\nRatio shell dispatcher / Runtime: {:.1}×",
        us(shell.median) / us(through.median)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

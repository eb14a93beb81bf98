//! What confinement costs per call (run with `cargo bench -p toolsmith --bench confine`).
//!
//! The same trivial call (`true x hello`, a chai tool) four ways:
//!
//! * `raw_spawn`: a bare `std::process::Command::output()` of the program;
//! * `dispatch_unconfined`: `Runtime::dispatch` with confinement off (the
//!   dispatch of before containment: parse, validate, allowlist, argv,
//!   cleared env, private `HOME`, own session, pidfd wait, group kill,
//!   capture, drain, descendant sweep);
//! * `dispatch_confined`: the default confinement (Landlock ruleset built
//!   and applied, the seccomp no-network filter compiled and installed,
//!   `TMPDIR` in the private directory);
//! * `dispatch_confined_limits`: that plus every resource limit (a cgroup
//!   made, joined, killed and removed per call for memory and processes;
//!   `setrlimit` of CPU seconds, file size, open files).
//!
//! Target: confinement adds under 1 ms per call. A mechanism this kernel
//! lacks is reported once and the confined variants run with
//! `degrade = warn` (what is missing is then not measured).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::LazyLock;
use toolsmith::confine::{Confinement, Degrade, Limits, Mechanisms};
use toolsmith::manifest::model::{
    ArgKind, ArgMapping, ChaiExecution, Dialect, Execution, Manifest, Tool,
};
use toolsmith::{Policy, Runtime};

const ARGS: &str = r#"{"value":"hello"}"#;

fn main() {
    let m = Mechanisms::probe();
    let missing = m.missing(&confinement(true));
    if !missing.is_empty() {
        eprintln!(
            "not measured on this kernel (run with degrade = warn): {}",
            missing.join("; ")
        );
    }
    interleaved();
    divan::main();
}

/// The four variants in interleaved rounds (machine load hits them alike):
/// median per call and what confinement adds to the unconfined dispatch.
fn interleaved() {
    const ROUNDS: usize = 6;
    const CALLS: usize = 40;
    let variants: [(&str, &dyn Fn()); 4] = [
        ("raw spawn", &raw_spawn),
        ("dispatch, unconfined", &dispatch_unconfined),
        (
            "dispatch, confined (Landlock + seccomp)",
            &dispatch_confined,
        ),
        (
            "dispatch, confined + every limit (cgroup + rlimits)",
            &dispatch_confined_limits,
        ),
    ];
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); variants.len()];
    for (_, f) in &variants {
        f(); // warm up (first call compiles the schema, probes the cgroup)
    }
    for _ in 0..ROUNDS {
        for (i, (_, f)) in variants.iter().enumerate() {
            for _ in 0..CALLS {
                let t = std::time::Instant::now();
                f();
                samples[i].push(t.elapsed().as_secs_f64() * 1e6);
            }
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let medians: Vec<f64> = samples.iter_mut().map(median).collect();
    println!("interleaved, {ROUNDS} rounds × {CALLS} calls, median µs per call:");
    for ((name, _), m) in variants.iter().zip(&medians) {
        println!(
            "  {name:<55} {m:>8.0}  ({:+.0} vs unconfined)",
            m - medians[1]
        );
    }
}

static TRUE: LazyLock<PathBuf> = LazyLock::new(|| {
    ["/usr/bin/true", "/bin/true"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .and_then(|p| p.canonicalize().ok())
        .expect("`true` is not installed")
});

fn confinement(limits: bool) -> Confinement {
    Confinement {
        enabled: Some(true),
        degrade: Degrade::Warn,
        limits: if limits {
            Limits {
                memory: Some(256 << 20),
                processes: Some(64),
                cpu_seconds: Some(10),
                file_size: Some(64 << 20),
                open_files: Some(256),
            }
        } else {
            Limits::default()
        },
        ..Confinement::default()
    }
}

fn runtime(confine: Option<Confinement>) -> Runtime {
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
            args: vec![ArgMapping::new("value", ArgKind::Positional)],
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
    let policy = Policy {
        confine: confine.unwrap_or(Confinement {
            enabled: Some(false),
            ..Confinement::default()
        }),
        ..Policy::default()
    };
    let mut rt = Runtime::new(policy);
    rt.add_manifest(&manifest);
    rt
}

static UNCONFINED: LazyLock<Runtime> = LazyLock::new(|| runtime(None));
static CONFINED: LazyLock<Runtime> = LazyLock::new(|| runtime(Some(confinement(false))));
static LIMITED: LazyLock<Runtime> = LazyLock::new(|| runtime(Some(confinement(true))));

fn dispatch(rt: &Runtime) {
    let o = rt.dispatch("noop", ARGS).expect("refused");
    assert!(o.is_success(), "{o:?}");
}

#[divan::bench(sample_count = 200)]
fn raw_spawn() {
    let out = Command::new(&*TRUE)
        .args(["x", "hello"])
        .stdin(Stdio::null())
        .output()
        .expect("spawn");
    assert!(out.status.success());
}

#[divan::bench(sample_count = 200)]
fn dispatch_unconfined() {
    dispatch(&UNCONFINED);
}

#[divan::bench(sample_count = 200)]
fn dispatch_confined() {
    dispatch(&CONFINED);
}

#[divan::bench(sample_count = 200)]
fn dispatch_confined_limits() {
    dispatch(&LIMITED);
}

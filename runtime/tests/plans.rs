//! Golden plans: what `Runtime::plan_dispatch` decides for every chai kind
//! and field (`tests/data/plan-kinds`), the v0.5 example skill, an agentcli
//! tool (stdin JSON, env passthrough) and a describe tool, compared with the
//! reviewed snapshot `tests/data/plans.json`. Machine-specific paths are
//! replaced by `$SANDBOX`, `$REPO` and the program's file name.
//! `UPDATE_SNAPSHOTS=1 cargo test -p toolsmith --test plans` rewrites it.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use toolsmith::{Policy, Runtime, Sandbox};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// Replaces the sandbox root and the repository path; programs keep their file name.
fn normalize(mut plan: Value, sandbox: &Path) -> Value {
    let short = |p: &str| {
        let name = Path::new(p)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        json!(format!(".../{name}"))
    };
    if let Some(p) = plan["program"].as_str() {
        plan["program"] = short(p);
    }
    if let Some(p) = plan["output"]["post_process"]["program"].as_str() {
        plan["output"]["post_process"]["program"] = short(p);
    }
    let text = plan
        .to_string()
        .replace(sandbox.to_str().unwrap(), "$SANDBOX")
        .replace(repo().to_str().unwrap(), "$REPO");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn plans_match_the_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir(root.join("work")).unwrap();
    let policy = Policy {
        sandbox: Sandbox::new([&root]).unwrap(),
        redact: vec!["s3cret".into()],
        ..Policy::default()
    };
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let examples = repo().join("fixtures/examples");
    // SAFETY: this test binary sets the variable before any thread reads the environment.
    unsafe { std::env::set_var("OAI_API_KEY", "s3cret") };
    let cases: Vec<(PathBuf, &str, Value)> = vec![
        (
            data.join("plan-kinds"),
            "every_kind",
            json!({"words": "alpha beta", "after": "z", "count": 3, "name": "n", "verbose": true,
                   "body": "stdin text", "dir": "work", "pattern": "x.*", "out": "out/result.txt",
                   "branch": "feature"}),
        ),
        (
            data.join("plan-kinds"),
            "every_kind",
            json!({"words": "one", "skip": "s", "after": "z", "body": "", "pattern": "p",
                   "out": "o.txt", "branch": "dev"}),
        ),
        (data.join("plan-kinds"), "rebase", json!({})),
        (data.join("plan-kinds"), "rebase", json!({"continue": true})),
        (data.join("plan-kinds"), "rebase", json!({"onto": "main"})),
        (
            examples.join("notes-skill"),
            "notes_list",
            json!({"folder": "work"}),
        ),
        (
            examples.join("notes-skill"),
            "note_read",
            json!({"path": "a.md", "lines": 2}),
        ),
        (
            repo().join("fixtures/agentcli/valid/basic"),
            "http_fetch",
            json!({"url": "https://example.com", "max_bytes": 10}),
        ),
        (
            examples.join("describe-tools/get_weather.describe.json"),
            "get_weather",
            json!({"location": "Paris"}),
        ),
    ];
    let mut plans = Vec::new();
    for (manifest, tool, args) in &cases {
        let rt = Runtime::load(manifest, policy.clone()).unwrap_or_else(|e| panic!("{e}"));
        let plan = rt
            .plan_dispatch(tool, &args.to_string(), false)
            .unwrap_or_else(|e| panic!("{tool} {args}: {e}"));
        plans.push(
            json!({"tool": tool, "arguments": args, "plan": normalize(plan.to_json(), &root)}),
        );
    }
    // Refusals are part of the contract too.
    let rt = Runtime::load(&data.join("plan-kinds"), policy.clone()).unwrap();
    for args in [
        json!({"words": "a", "after": "z", "body": "", "pattern": "p", "out": "o", "branch": "main"}),
        json!({"words": "a", "after": "z", "body": "", "pattern": "p", "out": "../o", "branch": "b"}),
        json!({"words": "a -rf", "after": "z", "body": "", "pattern": "p", "out": "o", "branch": "b"}),
    ] {
        let err = rt
            .plan_dispatch("every_kind", &args.to_string(), false)
            .unwrap_err();
        let parent = root.parent().unwrap().to_str().unwrap();
        let text = err
            .to_string()
            .replace(root.to_str().unwrap(), "$SANDBOX")
            .replace(parent, "$SANDBOX_PARENT");
        plans.push(json!({"tool": "every_kind", "arguments": args, "refused": {"kind": err.kind(), "error": text}}));
    }
    let got = serde_json::to_string_pretty(&plans).unwrap() + "\n";
    let path = data.join("plans.json");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        got,
        want,
        "plans differ from {} (UPDATE_SNAPSHOTS=1 rewrites it)",
        path.display()
    );
}

/// `run_plan(plan(call))` and `dispatch(call)` give the same outcome, for
/// calls generated from a set of values (spaces, quotes, unicode, `=`,
/// empty, leading dashes, escapes) over every tool of the example skill: one road.
#[test]
fn run_plan_of_plan_is_dispatch_for_generated_calls() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("tea")).unwrap();
    std::fs::write(dir.path().join("tea/green.md"), "sencha\nmatcha\ncafé ✓\n").unwrap();
    let policy = Policy {
        sandbox: Sandbox::new([dir.path()]).unwrap(),
        ..Policy::default()
    };
    let rt = Runtime::load(&repo().join("fixtures/examples/notes-skill"), policy).unwrap();
    let texts = [
        "matcha",
        "a b",
        "it's \"q\"",
        "café ✓",
        "a=b",
        "",
        "-e",
        "tea/../..",
        "/etc",
    ];
    let mut calls: Vec<(&str, Value)> = Vec::new();
    for t in texts {
        calls.push(("notes_search", json!({"text": t})));
        calls.push(("notes_list", json!({"folder": t})));
        calls.push(("note_read", json!({"path": t})));
        for lines in [1, 2] {
            calls.push((
                "note_read",
                json!({"path": format!("tea/{t}"), "lines": lines}),
            ));
        }
    }
    calls.push(("notes_list", json!({})));
    calls.push(("note_read", json!({"path": "tea/green.md", "lines": 2})));
    let mut ran = 0;
    for (tool, args) in calls {
        let args = args.to_string();
        let planned = rt
            .plan_dispatch(tool, &args, true)
            .and_then(|plan| rt.run_plan(plan));
        let direct = rt.dispatch(tool, &args);
        match (planned, direct) {
            (Ok(p), Ok(d)) => {
                ran += 1;
                assert_eq!(
                    (p.status, &p.stdout, &p.stderr, p.for_model()),
                    (d.status, &d.stdout, &d.stderr, d.for_model()),
                    "{tool} {args}"
                );
            }
            (Err(p), Err(d)) => assert_eq!(p.to_string(), d.to_string(), "{tool} {args}"),
            (p, d) => panic!("{tool} {args}: plan+run gave {p:?}, dispatch gave {d:?}"),
        }
    }
    assert!(ran > 10, "only {ran} calls ran");
}

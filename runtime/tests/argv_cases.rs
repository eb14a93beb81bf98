//! toolsmith against chai's own argv: every case of
//! `fixtures/chai/argv-cases.json` (docs/chai-argv-cases.md) is planned with
//! [`Runtime::plan_dispatch`] (resolvers not run) and compared with what chai
//! recorded. Each case is one of
//!
//! * `same`: argv, stdin, cwd and temp files equal, or both refused;
//! * `stricter`: toolsmith refuses where chai ran it, for a documented reason
//!   (README.md, "Argv agreement with chai": leading `-`, NUL, size, path
//!   sandbox, `unsafePath`, the manifest's own schema);
//! * `resolver`: the recorded value came from a resolver that a plan without
//!   resolvers shows as `$(…)` (or chai's resolver failed);
//! * `different`: anything else; each must be listed in [`KNOWN_DIFFERENCES`].
//!
//! Prints the counts per version and class, and the reason of every
//! `stricter` case; `ARGV_CASES_VERBOSE=1` (with `--nocapture`) shows each
//! case that is not `same`. Skips with a notice when the corpus is absent.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use toolsmith::manifest::model::{ArgKind, Execution};
use toolsmith::{ArgvError, CallError, Plan, Policy, Refusal, Runtime, Sandbox};

/// Differences accepted, each with its reason: (tool, a substring of the
/// arguments JSON as serialized, reason).
const KNOWN_DIFFERENCES: &[(&str, &str, &str)] = &[];

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Same,
    Stricter(String),
    Resolver(String),
    Different(String),
}

impl Class {
    fn name(&self) -> &'static str {
        match self {
            Class::Same => "same",
            Class::Stricter(_) => "stricter",
            Class::Resolver(_) => "resolver",
            Class::Different(_) => "different",
        }
    }
}

struct Fixture {
    root: PathBuf,
    parent: PathBuf,
    bin: PathBuf,
    bin_nix: PathBuf,
    _dir: tempfile::TempDir,
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn stub(path: &Path) {
    write(path, "#!/bin/sh\nexit 0\n");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The sandbox of the recording (a.txt, sub/f.txt, notes/n.md,
/// rss-feeds.txt) and two bin directories: `cargo` present (binGroup 0), or
/// only a `nix` stub (binGroup 1).
fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let sandbox = dir.path().join("sandbox");
    write(&sandbox.join("a.txt"), "a\n");
    write(&sandbox.join("sub/f.txt"), "f\n");
    write(&sandbox.join("notes/n.md"), "# n\n");
    write(
        &sandbox.join("rss-feeds.txt"),
        "example|https://example.invalid/feed.xml\n",
    );
    let root = sandbox.canonicalize().unwrap();
    let parent = root.parent().unwrap().to_path_buf();
    let bin = dir.path().join("bin");
    stub(&bin.join("cargo"));
    let bin_nix = dir.path().join("bin-nix");
    stub(&bin_nix.join("nix"));
    Fixture {
        root,
        parent,
        bin,
        bin_nix,
        _dir: dir,
    }
}

/// The policy of a recording: chai v0.5 runs skill scripts whenever it
/// has them; the legacy recording used chai's default `allowScripts: false`.
fn policy(f: &Fixture, nix: bool, legacy: bool) -> Policy {
    let bin = if nix { &f.bin_nix } else { &f.bin };
    let path = format!("{}:{}", bin.display(), Policy::default().path);
    Policy {
        allow_scripts: !legacy,
        sandbox: Sandbox::new([&f.root]).unwrap(),
        path,
        ..Policy::default()
    }
}

fn substitute(f: &Fixture, text: &str) -> String {
    text.replace("$SANDBOX_PARENT", &f.parent.to_string_lossy())
        .replace("$SANDBOX", &f.root.to_string_lossy())
}

fn expected_value(f: &Fixture, v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(substitute(f, s)),
        Value::Array(a) => Value::Array(a.iter().map(|x| expected_value(f, x)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), expected_value(f, x)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The plan in the recorded shape.
fn observed(plan: &Plan) -> Value {
    json!({
        "argv": plan.argv.iter().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>(),
        "stdin": plan.stdin.as_ref().map(|s| String::from_utf8_lossy(s).into_owned()),
        "cwd": plan.cwd.as_ref().map(|p| p.to_string_lossy().into_owned()),
        "tempfiles": plan.tempfiles.iter().map(|t| json!({
            "param": t.param,
            "content": String::from_utf8_lossy(&t.content),
        })).collect::<Vec<_>>(),
    })
}

/// Why toolsmith refused where chai ran the call, when the reason is one of
/// the documented strict ones; `None` otherwise.
fn strict_reason(refusal: &Refusal) -> Option<String> {
    let msg = refusal.to_string();
    let path = |m: &str| {
        let m = m.to_owned();
        if m.contains("no sandbox is configured") {
            "path: no sandbox"
        } else if m.contains("empty write path") || m.contains("empty writePath") {
            "path: empty write path"
        } else if m.contains("home-relative") {
            "path: ~"
        } else if m.contains("file:// URL") {
            "path: file://"
        } else if m.contains(".git directory") {
            "path: .git"
        } else if m.contains("'..' traversal") {
            "path: .. in a value"
        } else if m.contains("absolute path") {
            "path: absolute value"
        } else if m.contains("outside sandbox") || m.contains("cannot resolve") {
            "path: outside the sandbox"
        } else {
            ""
        }
        .to_owned()
    };
    let reason = match refusal {
        Refusal::Argv(ArgvError::LeadingDash { .. }) => "leading - on a value".to_owned(),
        Refusal::Argv(ArgvError::NulByte { .. }) => "NUL byte".to_owned(),
        Refusal::Argv(ArgvError::TooLong { .. }) | Refusal::ArgvTooLarge { .. } => {
            "size".to_owned()
        }
        Refusal::Call(CallError::InvalidArguments { .. }) if msg.contains("undeclared") => {
            "schema: undeclared parameter".to_owned()
        }
        Refusal::Call(CallError::InvalidArguments { .. })
            if msg.contains("null is not of type") =>
        {
            "schema: null where the schema declares a type".to_owned()
        }
        Refusal::Call(CallError::InvalidArguments { .. }) => {
            "schema: value not of the declared type".to_owned()
        }
        Refusal::Path(_) => path(&msg),
        Refusal::Rejected { message, .. } if message.contains("unsafePath") => {
            "unsafePath without consent".to_owned()
        }
        Refusal::Rejected { message, .. } => path(message),
        _ => String::new(),
    };
    (!reason.is_empty()).then_some(reason)
}

struct Loaded {
    rt: Runtime,
    /// Per tool: the parameters served by a resolver (resolveCommand or denyResolveCommand).
    resolved: BTreeMap<String, Vec<String>>,
    /// Per tool: the parameters that are split.
    split: BTreeMap<String, Vec<String>>,
    /// Per tool: the parameters some mapping turns into argv, stdin or a file.
    mapped: BTreeMap<String, Vec<String>>,
}

fn load(dir: &Path, policy: Policy) -> Loaded {
    let file = dir.join("tools.json");
    let rt = Runtime::load(&file, policy)
        .unwrap_or_else(|e| panic!("{} does not load: {e}", dir.display()));
    let loaded =
        toolsmith::manifest::lint::load(&file, &file.display().to_string(), &Default::default())
            .unwrap_or_else(|_| panic!("{} does not lint", dir.display()));
    let mut resolved: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut split: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut mapped: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for tool in &loaded.manifest.tools {
        if let Execution::Chai(specs) = &tool.execution {
            for m in specs.iter().flat_map(|s| &s.args) {
                if m.resolve_command.is_some() || m.deny_resolve_command.is_some() {
                    resolved
                        .entry(tool.name.clone())
                        .or_default()
                        .push(m.param.clone());
                }
                mapped
                    .entry(tool.name.clone())
                    .or_default()
                    .push(m.param.clone());
                if m.split && m.kind == ArgKind::Positional {
                    split
                        .entry(tool.name.clone())
                        .or_default()
                        .push(m.param.clone());
                }
            }
        }
    }
    Loaded {
        rt,
        resolved,
        split,
        mapped,
    }
}

/// Compares one case; also says whether both refused with the same text.
fn classify(f: &Fixture, l: &Loaded, case: &Value) -> (Class, Option<bool>, String) {
    let tool = case["tool"].as_str().unwrap();
    let args = case["arguments"].to_string();
    let expect = expected_value(f, &case["expect"]);
    let planned = l.rt.plan_dispatch(tool, &args, false);
    let uses_resolver = l.resolved.contains_key(tool);
    // chai's error: a refusal, or a deny check that failed in dry-run.
    let chai_error = expect["error"].as_str().or_else(|| {
        expect["deny_error"]
            .as_str()
            .filter(|_| expect["deny"] == "fail")
    });
    let detail = match &planned {
        Ok(p) => observed(p).to_string(),
        Err(e) => format!("refused ({}): {e}", e.kind()),
    };
    let class = match (chai_error, &planned) {
        (Some(chai), Err(ours)) => {
            return (Class::Same, Some(chai == ours.to_string()), detail);
        }
        (Some(chai), Ok(p)) => {
            let shown = observed(p).to_string();
            if uses_resolver
                && (shown.contains("$(")
                    || chai.contains("exit exit status")
                    || chai.contains("$CHAI_HOME")
                    || chai.contains("denyResolveCommand"))
            {
                Class::Resolver(format!("chai: {chai}"))
            } else {
                Class::Different(format!("chai refused: {chai}"))
            }
        }
        (None, Err(ours)) => match strict_reason(ours) {
            Some(reason) => Class::Stricter(refine(l, tool, ours, reason)),
            None => Class::Different(format!("toolsmith refused ({}): {ours}", ours.kind())),
        },
        (None, Ok(p)) => {
            let got = observed(p);
            let want = json!({
                "argv": expect["argv"],
                "stdin": expect["stdin"],
                "cwd": expect["cwd"],
                "tempfiles": expect["tempfiles"],
            });
            if got == want {
                Class::Same
            } else if uses_resolver && matches_but_resolved(&got, &want) {
                Class::Resolver("value shown as $(…)".into())
            } else {
                Class::Different(format!("chai ran: {want}"))
            }
        }
    };
    (class, None, detail)
}

/// Names the V8 refusals that chai skips: a piece of a `split` value, or a
/// parameter that only feeds resolver or `postProcess` arguments.
fn refine(l: &Loaded, tool: &str, refusal: &Refusal, reason: String) -> String {
    let Refusal::Path(e) = refusal else {
        return reason;
    };
    let names = |map: &BTreeMap<String, Vec<String>>| {
        map.get(tool)
            .into_iter()
            .flatten()
            .any(|p| e.message.starts_with(&format!("parameter '{p}' ")))
    };
    if !e.message.contains("not annotated as a path parameter") {
        reason
    } else if names(&l.split) {
        format!("{reason}, in a piece of a split value")
    } else if !names(&l.mapped) {
        format!("{reason}, in a parameter that only feeds a resolver or postProcess")
    } else {
        reason
    }
}

/// Equal except where toolsmith shows a resolver's value as `$(…)`.
fn matches_but_resolved(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::String(g), _) if g.contains("$(") => true,
        (Value::Array(g), Value::Array(w)) => {
            g.len() == w.len() && g.iter().zip(w).all(|(g, w)| matches_but_resolved(g, w))
        }
        (Value::Object(g), Value::Object(w)) => {
            g.len() == w.len()
                && g.iter()
                    .all(|(k, g)| w.get(k).is_some_and(|w| matches_but_resolved(g, w)))
        }
        _ => got == want,
    }
}

fn known(tool: &str, args: &str) -> Option<&'static str> {
    KNOWN_DIFFERENCES
        .iter()
        .find(|(t, pattern, _)| *t == tool && args.contains(pattern))
        .map(|(_, _, reason)| *reason)
}

#[test]
fn toolsmith_plans_what_chai_runs() {
    let Some(corpus) = toolsmith::manifest::corpus::locate() else {
        eprintln!(
            "notice: corpus not found (../shared/corpus, $TOOLSMITH_CORPUS): chai argv cases skipped"
        );
        return;
    };
    let fixture_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/chai/argv-cases.json");
    let cases: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture_path).unwrap()).unwrap();
    let cases = cases["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 1155);
    let f = fixture();
    let verbose = std::env::var_os("ARGV_CASES_VERBOSE").is_some();
    let mut runtimes: BTreeMap<(String, bool), Loaded> = BTreeMap::new();
    // (version, class) → count; (version, class, reason) → count.
    let mut counts: BTreeMap<(String, &'static str), usize> = BTreeMap::new();
    let mut reasons: BTreeMap<(String, &'static str, String), usize> = BTreeMap::new();
    let mut texts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut unexplained = Vec::new();
    for case in cases {
        let version = case["chai"].as_str().unwrap().to_owned();
        let skill = case["skill"].as_str().unwrap();
        let nix = case["note"]
            .as_str()
            .is_some_and(|n| n.starts_with("binGroup 1"));
        let legacy = version == "14ef265";
        let loaded = runtimes
            .entry((skill.to_owned(), nix))
            .or_insert_with(|| load(&corpus.join(skill), policy(&f, nix, legacy)));
        let (class, text_match, detail) = classify(&f, loaded, case);
        let tool = case["tool"].as_str().unwrap();
        let args = case["arguments"].to_string();
        if let Some(m) = text_match {
            let t = texts.entry(version.clone()).or_default();
            t.0 += 1;
            t.1 += usize::from(m);
        }
        let reason = match &class {
            Class::Same => String::new(),
            Class::Stricter(r) | Class::Resolver(r) => r.clone(),
            Class::Different(r) => match known(tool, &args) {
                Some(k) => k.to_owned(),
                None => {
                    unexplained.push(format!("{tool} {args}\n    {r}\n    toolsmith: {detail}"));
                    r.clone()
                }
            },
        };
        if verbose && class != Class::Same {
            eprintln!(
                "{version} {} {tool} {args}\n    {reason}\n    toolsmith: {detail}",
                class.name()
            );
        }
        *counts.entry((version.clone(), class.name())).or_default() += 1;
        if !matches!(class, Class::Same | Class::Resolver(_)) {
            *reasons
                .entry((version.clone(), class.name(), reason))
                .or_default() += 1;
        }
    }
    println!("chai argv cases, per version and class:");
    for ((version, class), n) in &counts {
        println!("  {version} {class:9} {n}");
    }
    for ((version, class, reason), n) in &reasons {
        println!("  {version} {class}: {reason} ({n})");
    }
    for (version, (both, exact)) in &texts {
        println!("  {version}: both refused {both}, same error text {exact}");
    }
    assert!(
        unexplained.is_empty(),
        "{} cases differ from chai:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
}

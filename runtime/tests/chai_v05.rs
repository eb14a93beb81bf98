//! chai v0.5 kinds and fields, each run with real processes: skills are
//! written in the three-file layout (tools.json, allowlist.json,
//! execution.json), loaded through the linter with `Runtime::load`, and
//! called with a path sandbox.

use serde_json::{Value, json};
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use toolsmith::{ArgvError, Event, Policy, Refusal, Runtime, Sandbox, Status};

/// A skill directory and a sandbox root, both in one temp dir.
struct Fixture {
    _tmp: tempfile::TempDir,
    /// The temp dir, canonical (outside the sandbox).
    base: PathBuf,
    /// The sandbox root, canonical.
    root: PathBuf,
    /// Process starts seen by the runtime.
    starts: Arc<AtomicUsize>,
    rt: Runtime,
}

/// Writes a three-file skill (`tools`: name → parameters schema) and loads
/// it with a sandbox of `root/`.
fn load(tools: &[(&str, Value)], allowlist: Value, execution: Value) -> Fixture {
    load_with(tools, allowlist, execution, |_| {})
}

fn load_with(
    tools: &[(&str, Value)],
    allowlist: Value,
    execution: Value,
    adjust: impl FnOnce(&mut Policy),
) -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let skill = base.join("skill");
    let root = base.join("root");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::create_dir_all(&root).unwrap();
    let tools: Vec<Value> = tools
        .iter()
        .map(|(name, params)| json!({"name": name, "description": format!("{name} tool"), "parameters": params}))
        .collect();
    let write = |name: &str, v: &Value| {
        std::fs::write(skill.join(name), serde_json::to_string_pretty(v).unwrap()).unwrap()
    };
    write("tools.json", &Value::Array(tools));
    write("allowlist.json", &allowlist);
    write("execution.json", &execution);
    let mut policy = Policy {
        sandbox: Sandbox::new([&root]).unwrap(),
        ..Policy::default()
    };
    adjust(&mut policy);
    let rt = match Runtime::load(&skill, policy) {
        Ok(rt) => rt,
        Err(e) => panic!("load failed: {:#?}", e.diagnostics),
    };
    let starts = Arc::new(AtomicUsize::new(0));
    let seen = starts.clone();
    let rt = rt.with_events(Arc::new(move |e: &Event| {
        if matches!(e, Event::Start { .. }) {
            seen.fetch_add(1, Ordering::SeqCst);
        }
    }));
    Fixture {
        _tmp: tmp,
        root: root.canonicalize().unwrap(),
        base,
        starts,
        rt,
    }
}

/// An object schema with the given string-typed (or typed) properties.
fn params(props: &[(&str, &str)], required: &[&str]) -> Value {
    let properties: serde_json::Map<String, Value> = props
        .iter()
        .map(|(name, ty)| {
            (
                name.to_string(),
                json!({"type": ty, "description": format!("the {name}")}),
            )
        })
        .collect();
    json!({"type": "object", "properties": properties, "required": required})
}

impl Fixture {
    fn call(&self, tool: &str, args: Value) -> Result<toolsmith::Outcome, Refusal> {
        self.rt.dispatch(tool, &args.to_string())
    }

    fn ok(&self, tool: &str, args: Value) -> toolsmith::Outcome {
        let o = self.call(tool, args).unwrap();
        assert_eq!(o.status, Status::Success, "{o:?}");
        o
    }

    fn result(&self, tool: &str, args: Value) -> String {
        match self.ok(tool, args).result {
            Some(Value::String(s)) => s,
            other => panic!("result is not text: {other:?}"),
        }
    }

    fn started(&self) -> usize {
        self.starts.load(Ordering::SeqCst)
    }
}

#[test]
fn stdin_argument_is_the_standard_input_of_cat() {
    let f = load(
        &[("cat_stdin", params(&[("text", "string")], &["text"]))],
        json!({"cat": [""]}),
        json!([{"tool": "cat_stdin", "binary": "cat", "subcommand": "",
                "args": [{"param": "text", "kind": "stdin"}]}]),
    );
    let text = "first line\nsecond -line with $HOME and 'quotes'\n";
    let o = f.ok("cat_stdin", json!({ "text": text }));
    assert_eq!(o.stdout, text);
    assert_eq!(o.result, Some(Value::String(text.into())));
    let plan =
        f.rt.plan_dispatch("cat_stdin", &json!({"text": "x"}).to_string(), true)
            .unwrap();
    assert_eq!(plan.argv, ["cat"]);
    assert_eq!(plan.stdin.as_deref(), Some(&b"x"[..]));
}

#[test]
fn workingdir_argument_is_the_canonical_cwd_and_defaults_to_the_root() {
    let f = load(
        &[("where", params(&[("dir", "string")], &[]))],
        json!({"pwd": [""]}),
        json!([{"tool": "where", "binary": "pwd", "subcommand": "",
                "args": [{"param": "dir", "kind": "workingdir", "optional": true}]}]),
    );
    let sub = f.root.join("sub");
    std::fs::create_dir(&sub).unwrap();
    symlink("sub", f.root.join("alias")).unwrap();
    let line = |p: &Path| format!("{}\n", p.display());
    assert_eq!(f.ok("where", json!({"dir": "sub"})).stdout, line(&sub));
    // Through a symlink inside the root and a `..`: the canonical directory.
    assert_eq!(
        f.ok("where", json!({"dir": "alias/../sub/./"})).stdout,
        line(&sub)
    );
    assert_eq!(f.ok("where", json!({"dir": "alias"})).stdout, line(&sub));
    assert_eq!(f.ok("where", json!({})).stdout, line(&f.root));
    let plan =
        f.rt.plan_dispatch("where", &json!({"dir": "alias"}).to_string(), true)
            .unwrap();
    assert_eq!(plan.cwd.as_deref(), Some(sub.as_path()));
    // Leaving the root is refused before anything runs.
    let before = f.started();
    assert!(matches!(
        f.call("where", json!({"dir": ".."})),
        Err(Refusal::Path(_))
    ));
    assert_eq!(f.started(), before);
}

fn stat_fixture() -> Fixture {
    load(
        &[
            ("cat_file", params(&[("body", "string")], &["body"])),
            ("stat_file", params(&[("body", "string")], &["body"])),
        ],
        json!({"cat": [""], "stat": [""]}),
        json!([
            {"tool": "cat_file", "binary": "cat", "subcommand": "",
             "args": [{"param": "body", "kind": "tempfile", "flag": "u"}]},
            {"tool": "stat_file", "binary": "stat", "subcommand": "",
             "args": [
                {"param": "", "kind": "literal", "value": "-c"},
                {"param": "", "kind": "literal", "value": "%a %n"},
                {"param": "body", "kind": "tempfile", "flag": "L"}
             ]}
        ]),
    )
}

/// `stat -c '%a %n' -L <tempfile>` output: (mode, path).
fn mode_and_path(out: &str) -> (String, PathBuf) {
    let (mode, path) = out.trim_end().split_once(' ').expect("mode and path");
    (mode.to_owned(), PathBuf::from(path))
}

#[test]
fn tempfile_content_reaches_the_tool_as_a_path() {
    let f = stat_fixture();
    let body = "-not an option\nline two\n";
    let o = f.ok("cat_file", json!({ "body": body }));
    assert_eq!(o.stdout, body);
    let plan =
        f.rt.plan_dispatch("cat_file", &json!({"body": "x"}).to_string(), true)
            .unwrap();
    assert_eq!(plan.argv, ["cat", "-u", "$TEMPFILE{body}"]);
    assert_eq!(plan.tempfiles.len(), 1);
    assert_eq!(plan.tempfiles[0].content, b"x");
}

#[test]
fn tempfile_is_private_while_running_and_gone_after() {
    let f = stat_fixture();
    let o = f.ok("stat_file", json!({"body": "secret"}));
    let (mode, path) = mode_and_path(&o.stdout);
    assert_eq!(mode, "600", "{}", o.stdout);
    assert!(path.is_absolute(), "{}", path.display());
    assert!(
        !path.starts_with(&f.root),
        "temp file inside the sandbox: {}",
        path.display()
    );
    assert!(!path.exists(), "{} left behind", path.display());
    let dir = path.parent().unwrap();
    assert!(!dir.exists(), "{} left behind", dir.display());
}

#[test]
fn concurrent_calls_get_different_tempfiles() {
    let f = stat_fixture();
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| f.ok("stat_file", json!({"body": "a"})).stdout);
        let b = s.spawn(|| f.ok("stat_file", json!({"body": "b"})).stdout);
        (a.join().unwrap(), b.join().unwrap())
    });
    let (pa, pb) = (mode_and_path(&a).1, mode_and_path(&b).1);
    assert_ne!(pa, pb);
    assert_ne!(pa.parent(), pb.parent());
}

fn printf_with_post(post: Value, sed_subcommand: &str) -> Fixture {
    load(
        &[("say", params(&[("text", "string")], &["text"]))],
        json!({"printf": [""], "sed": [sed_subcommand]}),
        json!([{"tool": "say", "binary": "printf", "subcommand": "",
                "args": [{"param": "", "kind": "literal", "value": "%s\\n"},
                         {"param": "text", "kind": "positional"}],
                "postProcess": post}]),
    )
}

#[test]
fn post_process_pipes_the_output_through_sed() {
    let f = printf_with_post(
        json!({"binary": "sed", "subcommand": "s/a/b/", "args": []}),
        "s/a/b/",
    );
    let o = f.ok("say", json!({"text": "aaa"}));
    assert_eq!(o.stdout, "aaa\n");
    assert_eq!(o.result, Some(Value::String("baa\n".into())));
}

#[test]
fn failing_post_process_keeps_the_original_output() {
    // sed prints the substituted line, then exits 5: its output is not used.
    let f = printf_with_post(
        json!({"binary": "sed", "subcommand": "s/a/b/;q5", "args": []}),
        "s/a/b/;q5",
    );
    assert_eq!(f.result("say", json!({"text": "aaa"})), "aaa\n");
}

#[test]
fn a_call_value_never_becomes_an_option_of_the_post_processor() {
    // `$text` feeds only sed's arguments: `-f/etc/passwd` would be a sed option.
    let f = load(
        &[("say", params(&[("text", "string")], &["text"]))],
        json!({"printf": [""], "sed": ["-e"]}),
        json!([{"tool": "say", "binary": "printf", "subcommand": "",
                "args": [{"param": "", "kind": "literal", "value": "aaa"}],
                "postProcess": {"binary": "sed", "subcommand": "-e", "args": ["s/a/b/", "$text"]}}]),
    );
    let err = f.call("say", json!({"text": "-f/etc/passwd"})).unwrap_err();
    assert_eq!(err.kind(), "leading_dash", "{err}");
    assert_eq!(f.started(), 0);
    // A plain value is passed to sed as a script-file operand, not an option.
    assert!(f.call("say", json!({"text": "x"})).is_ok());
}

#[test]
fn empty_post_process_output_is_the_result_only_with_empty_is_result() {
    let f = printf_with_post(
        json!({"binary": "sed", "subcommand": "d", "args": [], "emptyIsResult": true}),
        "d",
    );
    assert_eq!(f.result("say", json!({"text": "aaa"})), "");
    let f = printf_with_post(json!({"binary": "sed", "subcommand": "d", "args": []}), "d");
    assert_eq!(f.result("say", json!({"text": "aaa"})), "aaa\n");
}

fn grep_fixture() -> Fixture {
    let grep_args = json!([{"param": "pattern", "kind": "positional"},
                           {"param": "text", "kind": "stdin"}]);
    let schema = params(
        &[("pattern", "string"), ("text", "string")],
        &["pattern", "text"],
    );
    load(
        &[("find", schema.clone()), ("find_strict", schema)],
        json!({"grep": [""]}),
        json!([
            {"tool": "find", "binary": "grep", "subcommand": "", "args": grep_args,
             "successExitCodes": [0, 1],
             "hintConditions": [{"exitCode": "nonzero", "hint": "no line matches {pattern}"}]},
            {"tool": "find_strict", "binary": "grep", "subcommand": "", "args": grep_args}
        ]),
    )
}

#[test]
fn success_exit_codes_and_exit_code_hints() {
    let f = grep_fixture();
    let o = f.ok("find", json!({"pattern": "zz", "text": "abc\n"}));
    assert_eq!(o.exit_code, Some(1));
    assert_eq!(
        o.result,
        Some(Value::String("\nhint: no line matches zz\n".into()))
    );
    let o = f.ok("find", json!({"pattern": "b", "text": "abc\nxyz\n"}));
    assert_eq!(o.result, Some(Value::String("abc\n".into())));
    // Without successExitCodes, exit 1 is a failure.
    let o = f
        .call("find_strict", json!({"pattern": "zz", "text": "abc\n"}))
        .unwrap();
    assert_eq!(o.status, Status::Failed { code: Some(1) });
}

#[test]
fn max_output_lines_truncates_with_the_truncation_hint() {
    let f = load(
        &[("count", params(&[("to", "integer")], &["to"]))],
        json!({"seq": ["1"]}),
        json!([{"tool": "count", "binary": "seq", "subcommand": "1",
                "args": [{"param": "to", "kind": "positional"}],
                "maxOutputLines": 3,
                "truncationHint": "{kept} of {total} shown, {omitted} more"}]),
    );
    let o = f.ok("count", json!({"to": 100}));
    assert_eq!(o.stdout.lines().count(), 100);
    assert_eq!(
        o.result,
        Some(Value::String("1\n2\n3\n\n[3 of 100 shown, 97 more]".into()))
    );
    assert_eq!(f.result("count", json!({"to": 3})), "1\n2\n3\n");
}

#[test]
fn deny_pattern_refuses_matching_values_only() {
    let f = load(
        &[("branch", params(&[("name", "string")], &["name"]))],
        json!({"printf": [""]}),
        json!([{"tool": "branch", "binary": "printf", "subcommand": "",
                "args": [{"param": "", "kind": "literal", "value": "%s\\n"},
                         {"param": "name", "kind": "positional", "denyPattern": "^(main|master)$"}]}]),
    );
    match f.call("branch", json!({"name": "main"})) {
        Err(Refusal::Rejected { tool, message }) => {
            assert_eq!(tool, "branch");
            assert_eq!(
                message,
                "protected value on param 'name': 'main' matches deny pattern '^(main|master)$'"
            );
        }
        other => panic!("not rejected: {other:?}"),
    }
    assert_eq!(f.started(), 0);
    assert_eq!(
        f.result("branch", json!({"name": "mainline"})),
        "mainline\n"
    );
    assert_eq!(f.started(), 1);
}

#[test]
fn sandbox_escapes_are_refused_before_any_process_starts() {
    let f = load(
        &[("touch_it", params(&[("path", "string")], &["path"]))],
        json!({"touch": [""]}),
        json!([{"tool": "touch_it", "binary": "touch", "subcommand": "",
                "args": [{"param": "path", "kind": "positional", "writePath": true}]}]),
    );
    let outside = f.base.join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::fs::create_dir(f.root.join("sub")).unwrap();
    symlink(&outside, f.root.join("out")).unwrap();
    let outside_marker = outside.join("marker");
    // A dangling symlink inside the root: `touch` would create its target.
    let dangling_target = outside.join("via-dangling");
    symlink(&dangling_target, f.root.join("dangling")).unwrap();
    let escapes: [(String, PathBuf); 8] = [
        ("dangling".into(), dangling_target.clone()),
        ("sub/../dangling".into(), dangling_target.clone()),
        ("../marker".into(), f.base.join("marker")),
        ("sub/../../marker".into(), f.base.join("marker")),
        (
            outside_marker.to_string_lossy().into_owned(),
            outside_marker.clone(),
        ),
        ("out/marker".into(), outside_marker.clone()),
        ("~".into(), f.root.join("~")),
        (
            format!("file://{}", outside_marker.display()),
            outside_marker.clone(),
        ),
    ];
    for (value, marker) in &escapes {
        let r = f.call("touch_it", json!({ "path": value }));
        assert!(matches!(r, Err(Refusal::Path(_))), "{value}: {r:?}");
        assert!(!marker.exists(), "{value} created {}", marker.display());
        assert!(
            f.rt.plan_dispatch("touch_it", &json!({ "path": value }).to_string(), false)
                .is_err(),
            "{value} planned"
        );
    }
    assert_eq!(f.started(), 0, "a process started for an escape");
    assert!(std::fs::read_dir(&outside).unwrap().next().is_none());
    // A relative path inside works, and argv holds its canonical path.
    let inside = f.root.join("sub/new.txt");
    let plan =
        f.rt.plan_dispatch(
            "touch_it",
            &json!({"path": "./sub//new.txt"}).to_string(),
            false,
        )
        .unwrap();
    assert_eq!(plan.argv, ["touch".into(), inside.clone().into_os_string()]);
    f.ok("touch_it", json!({"path": "./sub//new.txt"}));
    assert!(inside.is_file());
    assert_eq!(f.started(), 1);
}

#[test]
fn binary_wrapper_runs_before_the_binary() {
    let f = load(
        &[("show_foo", params(&[], &[]))],
        json!({"printenv": [""]}),
        json!([{"tool": "show_foo", "binary": "printenv", "subcommand": "",
                "binaryWrapper": ["env", "FOO=bar"],
                "args": [{"param": "", "kind": "literal", "value": "FOO"}]}]),
    );
    let plan = f.rt.plan_dispatch("show_foo", "{}", true).unwrap();
    assert_eq!(plan.argv, ["env", "FOO=bar", "printenv", "FOO"]);
    assert!(plan.program.unwrap().ends_with("env"));
    assert_eq!(f.ok("show_foo", json!({})).stdout, "bar\n");
}

#[test]
fn param_condition_chooses_the_spec() {
    let f = load(
        &[(
            "measure",
            params(&[("text", "string"), ("lines", "boolean")], &["text"]),
        )],
        json!({"wc": ["-l", "-c"]}),
        json!([
            {"tool": "measure", "binary": "wc", "subcommand": "-l",
             "paramCondition": {"present": ["lines"]},
             "args": [{"param": "text", "kind": "stdin"}]},
            {"tool": "measure", "binary": "wc", "subcommand": "-c",
             "args": [{"param": "text", "kind": "stdin"}]}
        ]),
    );
    let text = "one\ntwo\nthree\n";
    assert_eq!(
        f.ok("measure", json!({"text": text, "lines": true}))
            .stdout
            .trim(),
        "3"
    );
    assert_eq!(f.ok("measure", json!({ "text": text })).stdout.trim(), "14");
    // `present` asks for the parameter, not for a true value.
    assert_eq!(
        f.ok("measure", json!({"text": text, "lines": false}))
            .stdout
            .trim(),
        "3"
    );
}

#[test]
fn split_positional_pieces_and_leading_dashes() {
    let f = load(
        &[("each", params(&[("items", "string")], &["items"]))],
        json!({"printf": [""]}),
        json!([{"tool": "each", "binary": "printf", "subcommand": "",
                "args": [{"param": "", "kind": "literal", "value": "<%s>"},
                         {"param": "items", "kind": "positional", "split": true}]}]),
    );
    assert_eq!(f.ok("each", json!({"items": "a  b"})).stdout, "<a><b>");
    let r = f.call("each", json!({"items": "a -rf"}));
    assert!(
        matches!(r, Err(Refusal::Argv(ArgvError::LeadingDash { .. }))),
        "{r:?}"
    );
    assert_eq!(f.started(), 1);
}

#[test]
fn a_value_equal_to_a_tempfile_placeholder_stays_a_value() {
    let f = load(
        &[(
            "both",
            params(&[("text", "string"), ("body", "string")], &["text", "body"]),
        )],
        json!({"printf": [""]}),
        json!([{"tool": "both", "binary": "printf", "subcommand": "",
                "args": [{"param": "", "kind": "literal", "value": "<%s>"},
                         {"param": "text", "kind": "positional"},
                         {"param": "body", "kind": "tempfile", "flag": "x"}]}]),
    );
    let out = f
        .ok("both", json!({"text": "$TEMPFILE{body}", "body": "b"}))
        .stdout;
    let (head, tail) = out.split_once("><-x><").expect(&out);
    assert_eq!(head, "<$TEMPFILE{body}");
    assert!(tail.starts_with('/') && tail.ends_with("/body>"), "{out}");
}

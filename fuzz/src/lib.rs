//! What the fuzz targets share: a private scratch directory per process and
//! the invariants every lint report must hold.

use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use toolsmith::Plan;
use toolsmith::tool::MAX_ARG_BYTES;
use toolsmith_manifest::cap::MAX_PER_RULE;
use toolsmith_manifest::diagnostic::Diagnostic;
use toolsmith_manifest::lint::{self, Input, Options};
use toolsmith_manifest::registry;

/// A directory of this process's own (`$TMPDIR/toolsmith-fuzz-TARGET-PID`),
/// made on first use. Targets write their input files there: the lint entry
/// the CLI uses reads files, and groups siblings by directory.
pub fn scratch(target: &str) -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir =
            std::env::temp_dir().join(format!("toolsmith-fuzz-{target}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch directory");
        dir
    })
}

/// `dir` emptied of the files named in `names` and then holding `files`.
pub fn write_files(dir: &Path, names: &[&str], files: &[(&str, &[u8])]) {
    std::fs::create_dir_all(dir).expect("case directory");
    for name in names {
        let _ = std::fs::remove_file(dir.join(name));
    }
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).expect("write input");
    }
}

/// Lints `inputs` through [`lint::lint`] (what `toolsmith lint` runs) and
/// checks the report's invariants; returns the diagnostics.
pub fn lint_checked(inputs: &[Input], options: &Options, dir: &Path) -> Vec<Diagnostic> {
    let report = lint::lint(inputs, options).expect("the listed files were just written");
    check_diagnostics(&report.diagnostics.0, dir);
    report.diagnostics.0
}

/// Every diagnostic: a registered rule, a non-empty message, a file in the
/// linted directory, a span inside its text on character boundaries,
/// positions that agree with the span, and at most [`MAX_PER_RULE`] findings
/// of one rule in one file.
pub fn check_diagnostics(diagnostics: &[Diagnostic], dir: &Path) {
    let prefix = dir.display().to_string();
    let mut per_rule: HashMap<(&str, &str), usize> = HashMap::new();
    for d in diagnostics {
        assert!(registry::find(d.rule).is_some(), "unregistered rule: {d:?}");
        assert!(!d.message.trim().is_empty(), "empty message: {d:?}");
        assert!(d.file.starts_with(&prefix), "file outside the case: {d:?}");
        let text = d.source.text();
        let span = d.span;
        assert!(
            span.start <= span.end && span.end <= text.len(),
            "span outside the text ({} bytes): {d:?}",
            text.len()
        );
        assert!(
            text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
            "span splits a character: {d:?}"
        );
        assert_eq!(d.start, d.source.position(span.start), "{d:?}");
        assert_eq!(d.end, d.source.position(span.end), "{d:?}");
        assert!(d.start <= d.end, "{d:?}");
        assert!(d.start.line >= 1 && d.start.line <= d.source.line_count().max(1));
        let shown = d.to_string();
        assert!(shown.contains(d.rule), "{shown}");
        *per_rule.entry((d.file.as_str(), d.rule)).or_default() += 1;
    }
    for ((file, rule), n) in per_rule {
        assert!(
            n <= MAX_PER_RULE,
            "{n} findings of {rule} in {file}, over the cap of {MAX_PER_RULE}"
        );
    }
}

/// Splits `data` at NUL bytes into at most `n` parts (NUL is never valid in
/// JSON or YAML text, so a part boundary costs the fuzzer nothing).
pub fn parts(data: &[u8], n: usize) -> Vec<&[u8]> {
    data.splitn(n, |&b| b == 0).collect()
}

/// Tokens a manifest (or generated code) may put into argv itself: every
/// word of `texts` (split at JSON and Rust string punctuation and
/// whitespace), also with `-` and `--` in front (chai's flag formatting).
/// A superset: what matters is that a model's value is not in it.
pub fn manifest_tokens(texts: &[&str]) -> HashSet<String> {
    let mut out = HashSet::new();
    for text in texts {
        for word in text.split(|c: char| "\"\\,:{}[]()".contains(c) || c.is_whitespace()) {
            if !word.is_empty() {
                out.insert(word.to_owned());
                out.insert(format!("-{word}"));
                out.insert(format!("--{word}"));
            }
        }
    }
    out
}

/// Every string in `value` (keys are not passed anywhere), as given and with
/// its line endings normalised (`normalizeNewlines`).
pub fn model_strings(value: &Value) -> HashSet<String> {
    fn walk(v: &Value, out: &mut HashSet<String>) {
        match v {
            Value::String(s) => {
                out.insert(s.clone());
                out.insert(s.replace("\r\n", "\n").replace('\r', "\n"));
            }
            Value::Array(items) => items.iter().for_each(|i| walk(i, out)),
            Value::Object(map) => map.values().for_each(|i| walk(i, out)),
            _ => {}
        }
    }
    let mut out = HashSet::new();
    walk(value, &mut out);
    out
}

/// The argv invariants: no element holds a NUL byte or is
/// [`MAX_ARG_BYTES`] long or longer, and no string the model wrote became
/// an option: an element after the program that begins with `-` and equals
/// one of `model` is a manifest token, a number after a `-…` flag, or comes
/// after the end-of-options `marker`.
pub fn check_argv<S: AsRef<OsStr>>(
    argv: &[S],
    model: &HashSet<String>,
    fixed: &HashSet<String>,
    marker: Option<&str>,
) {
    assert!(!argv.is_empty(), "empty argv");
    let mut after_marker = false;
    for (i, arg) in argv.iter().enumerate() {
        let bytes = arg.as_ref().as_encoded_bytes();
        assert!(!bytes.contains(&0), "NUL byte in argv[{i}]");
        assert!(
            bytes.len() < MAX_ARG_BYTES,
            "argv[{i}] is {} bytes, the limit is {MAX_ARG_BYTES}",
            bytes.len()
        );
        let text = arg.as_ref().to_string_lossy();
        if i == 0 {
            continue;
        }
        if marker == Some(text.as_ref()) && !after_marker {
            after_marker = true;
            continue;
        }
        if after_marker || !text.starts_with('-') || !model.contains(text.as_ref()) {
            continue;
        }
        let after_flag = argv[i - 1].as_ref().to_string_lossy().starts_with('-');
        let number = text.parse::<f64>().is_ok();
        assert!(
            fixed.contains(text.as_ref()) || (after_flag && number),
            "the model's value {text:?} is argv[{i}], where it reads as an option: {:?}",
            argv.iter()
                .map(|a| a.as_ref().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
        );
    }
}

/// Invariants of a plan beyond its argv: an absolute program and working
/// directory, a working directory inside the sandbox `root`, temp-file
/// placeholders present in argv, and renderings that do not fail.
pub fn check_plan(plan: &Plan, root: Option<&Path>) {
    if let Some(program) = &plan.program {
        assert!(program.is_absolute(), "{program:?}");
    } else {
        assert!(!plan.problems.is_empty(), "no program and no problem said");
    }
    if let Some(cwd) = &plan.cwd {
        assert!(cwd.is_absolute(), "{cwd:?}");
        if let Some(root) = root {
            assert!(
                cwd.starts_with(root),
                "cwd {cwd:?} outside the sandbox {root:?}"
            );
        }
    }
    for t in &plan.tempfiles {
        let placeholder = t.placeholder();
        assert!(
            plan.argv.iter().any(|a| a.to_string_lossy() == placeholder),
            "temp file {placeholder} missing from argv"
        );
    }
    let json = plan.to_json();
    assert_eq!(json["tool"], Value::String(plan.tool.clone()));
    let _ = plan.to_human();
}

/// A sandbox root for path parameters in the scratch directory, holding a
/// few files and a folder; canonical.
pub fn sandbox_root(target: &str) -> PathBuf {
    let root = scratch(target).join("root");
    std::fs::create_dir_all(root.join("notes")).expect("sandbox root");
    for (name, text) in [("notes/a.md", "# a\n"), ("b.txt", "b\n"), ("-n", "dash\n")] {
        std::fs::write(root.join(name), text).expect("sandbox file");
    }
    root.canonicalize().expect("canonical sandbox root")
}

/// The leading-dash policy chosen by a fuzz input's bit: refuse, or the
/// `--` marker (returned too, for [`check_argv`]).
pub fn leading_dash(marker: bool) -> (toolsmith::LeadingDash, Option<&'static str>) {
    if marker {
        (toolsmith::LeadingDash::Marker("--".into()), Some("--"))
    } else {
        (toolsmith::LeadingDash::Refuse, None)
    }
}

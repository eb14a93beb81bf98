//! Lints every chai file of the corpus (`shared/corpus/chai-tools-json`) and
//! compares with the reference verdicts recorded in `index.json`:
//!
//! * `chai_skill_validate_head_port`: every message the port of
//!   `chai skill validate` prints as an error is printed verbatim by toolsmith
//!   for the same file set; where the port finds nothing, none of the rules
//!   that `chai skill validate` also checks fires;
//! * `seed_era_struct_violations` (what the chai 14ef265 serde structs reject):
//!   read with `--chai-version legacy`, each violation is an error at the same
//!   JSON pointer, and a file without violations has no unknown-field /
//!   unknown-kind error; read as detected, a file that uses v0.5 keys is
//!   chai-v0.5 and has no unknown-field error;
//! * `chai_bundled_skills_have_no_false_errors`: chai's bundled skills at
//!   fb29f89 (three files) and 1e08e99 (single files using v0.5 keys) give no
//!   error that chai's own validators do not give, except those listed with
//!   a reason in `KNOWN_ERRORS` (and docs/chai-lint.md).
//!
//! Other disagreements (rules the reference does not check) are printed.
//! Skips with a notice when the corpus is absent.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use toolsmith_manifest::Diagnostic;
use toolsmith_manifest::diagnostic::Severity;
use toolsmith_manifest::dialect::chai::version::v05_marker;
use toolsmith_manifest::lint::{Input, Options, classify, lint};
use toolsmith_manifest::model::ChaiVersion;

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") && classify(&path).is_some() {
            out.push(path);
        }
    }
}

/// `execution[9].args[0]` → `/execution/9/args/0`.
fn pointer(path: &str) -> String {
    let mut out = String::new();
    for part in path.split('.') {
        let mut pieces = part.split('[');
        if let Some(name) = pieces.next() {
            out.push('/');
            out.push_str(name);
        }
        for index in pieces {
            out.push('/');
            out.push_str(index.trim_end_matches(']'));
        }
    }
    out
}

/// The finding a seed-era violation must produce: rule prefix, message prefix, pointer.
fn expected_finding(violation: &str) -> Option<(&'static str, String, String)> {
    let (what, place) = violation.split_once(" in ")?;
    let name = what.split('`').nth(1)?;
    if what.starts_with("unknown field") {
        Some((
            "chai/unknown-field",
            format!("unknown field `{name}`"),
            format!("{}/{name}", pointer(place)),
        ))
    } else if what.starts_with("unknown variant") {
        Some((
            "chai/unknown-kind",
            format!("unknown variant `{name}`"),
            pointer(place),
        ))
    } else if what.starts_with("missing field") {
        Some((
            "chai/missing-field",
            format!("missing field `{name}`"),
            pointer(place),
        ))
    } else {
        None
    }
}

/// Rules that `chai skill validate` also checks (a clean port verdict means
/// none of them may fire).
const VALIDATE_RULES: &[&str] = &[
    "chai/split-file-missing",
    "chai/duplicate-tool",
    "chai/missing-execution",
    "chai/unknown-tool",
    "chai/binary-not-allowlisted",
    "chai/subcommand-not-allowlisted",
    "chai/binary-wrapper-empty",
];

/// A single-file (root object) tools.json that uses a chai v0.5 key or kind.
fn single_file_uses_v05(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    toolsmith_manifest::json::parse(&text)
        .root
        .filter(|r| r.as_object().is_some())
        .is_some_and(|r| v05_marker(&r).is_some())
}

#[test]
fn chai_corpus_agrees_with_the_reference_verdicts() {
    let Some(root) = toolsmith_manifest::corpus::locate() else {
        eprintln!(
            "notice: corpus not found (../shared/corpus, $TOOLSMITH_CORPUS): chai corpus test skipped"
        );
        return;
    };
    let index = std::fs::read_to_string(root.join("index.json")).expect("read index.json");
    let index: Value = serde_json::from_str(&index).expect("index.json is JSON");
    let mut files = Vec::new();
    walk(&root.join("chai-tools-json"), &mut files);
    assert!(!files.is_empty(), "no chai files in the corpus");
    let mut by_dir: BTreeMap<PathBuf, Vec<Input>> = BTreeMap::new();
    for path in files {
        let display = path
            .strip_prefix(&root)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        by_dir.entry(dir).or_default().push(Input { display, path });
    }
    // Diagnostics per file, and per directory (a split set).
    let mut per_file: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
    let mut dir_of: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut per_dir: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
    // The same files read as chai 14ef265 (`--chai-version legacy`): what
    // its serde structs reject.
    let mut as_legacy: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
    let legacy = Options {
        chai_version: Some(ChaiVersion::Legacy),
        ..Options::default()
    };
    let mut manifests = 0;
    for (dir, inputs) in &by_dir {
        let forced = lint(inputs, &legacy).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for d in forced.diagnostics.iter() {
            as_legacy.entry(d.file.clone()).or_default().push(d.clone());
        }
        let report =
            lint(inputs, &Options::default()).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        manifests += report.manifests.len();
        for input in inputs {
            per_file.entry(input.display.clone()).or_default();
            dir_of.insert(input.display.clone(), dir.clone());
        }
        for d in report.diagnostics.iter() {
            per_file.entry(d.file.clone()).or_default().push(d.clone());
        }
        per_dir.insert(dir.clone(), report.diagnostics.0.clone());
    }
    assert!(manifests > 0, "no manifest model was produced");

    let mut failures: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut compared = 0;
    let mut legacy_violations = 0;
    let mut v05_files = 0;
    let records = index["files"].as_array().expect("index.json has files");
    for record in records {
        let Some(file) = record["file"].as_str() else {
            continue;
        };
        let Some(ours) = per_file.get(file) else {
            continue;
        };
        let checks = &record["checks"];
        let group = dir_of
            .get(file)
            .and_then(|d| per_dir.get(d))
            .unwrap_or(ours);
        if let Some(port) = checks.get("chai_skill_validate_head_port") {
            compared += 1;
            let errors: Vec<&str> = port["errors"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for message in &errors {
                if !group
                    .iter()
                    .any(|d| d.severity == Severity::Error && d.message == *message)
                {
                    failures.push(format!(
                        "{file}: the port reports `{message}`; toolsmith does not"
                    ));
                }
            }
            if errors.is_empty() {
                for d in group.iter().filter(|d| VALIDATE_RULES.contains(&d.rule)) {
                    failures.push(format!("{file}: the port passes, toolsmith reports {d}"));
                }
            }
        }
        let read_as_v05 = ours
            .iter()
            .chain(group.iter())
            .any(|d| d.dialect == Some("chai-v0.5"))
            || single_file_uses_v05(&root.join(file));
        if read_as_v05 {
            v05_files += 1;
            // chai v0.5 reads the file (unknown keys ignored): none may be an
            // unknown-field error.
            for d in ours
                .iter()
                .filter(|d| d.severity == Severity::Error && d.rule == "chai/unknown-field")
            {
                failures.push(format!("{file}: read as chai-v0.5, yet {d}"));
            }
        }
        if let Some(violations) = checks
            .get("seed_era_struct_violations")
            .and_then(Value::as_array)
        {
            // Read as chai 14ef265, each violation is an error at its pointer.
            let forced = as_legacy.get(file).map_or(&[][..], Vec::as_slice);
            let mut matched: BTreeSet<(String, String)> = BTreeSet::new();
            for v in violations.iter().filter_map(Value::as_str) {
                legacy_violations += 1;
                let Some((rule, message, pointer)) = expected_finding(v) else {
                    failures.push(format!("{file}: cannot read violation `{v}`"));
                    continue;
                };
                let hit = forced.iter().any(|d| {
                    d.rule == rule
                        && d.severity == Severity::Error
                        && d.message.starts_with(&message)
                        && d.pointer == pointer
                });
                if !hit {
                    failures.push(format!(
                        "{file}: struct violation `{v}` has no {rule} error at {pointer} (--chai-version legacy)"
                    ));
                }
                matched.insert((rule.to_string(), pointer));
            }
            for d in forced.iter().filter(|d| {
                matches!(d.rule, "chai/unknown-field" | "chai/unknown-kind")
                    && !matched.contains(&(d.rule.to_string(), d.pointer.clone()))
            }) {
                failures.push(format!(
                    "{file}: no struct violation recorded, toolsmith reports {d} (--chai-version legacy)"
                ));
            }
        }
        for d in ours.iter().filter(|d| {
            d.severity == Severity::Error
                && !VALIDATE_RULES.contains(&d.rule)
                && !matches!(
                    d.rule,
                    "chai/unknown-field" | "chai/unknown-kind" | "chai/missing-field"
                )
        }) {
            notes.push(format!("{file}: beyond the reference: {d}"));
        }
    }
    let mut warnings: BTreeMap<&str, usize> = BTreeMap::new();
    for d in per_file.values().flatten() {
        if d.severity == Severity::Warning {
            if std::env::var_os("SHOW_WARNINGS").is_some() && d.rule != "chai/kind-unsupported" {
                eprintln!("{d}");
            }
            *warnings.entry(d.rule).or_default() += 1;
        }
    }
    eprintln!("warnings by rule: {warnings:?}");
    for n in &notes {
        eprintln!("{n}");
    }
    eprintln!(
        "chai corpus: {} files, {compared} with a chai-validate verdict, {} notes; {v05_files} files read as chai-v0.5, {legacy_violations} seed-era violations checked (--chai-version legacy)",
        per_file.len(),
        notes.len()
    );
    assert!(
        compared > 0,
        "no file with a reference verdict was compared"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Errors toolsmith keeps on chai's own files at fb29f89 and 1e08e99 although
/// chai's validators report none: (file path below the commit, rule, reason).
/// Each is also listed in docs/chai-lint.md.
const KNOWN_ERRORS: &[(&str, &str, &str)] = &[];

/// Every file set of chai's bundled skills at the two commits (v0.5 three-file
/// layout, and the single-file layout just before it) lints without an error
/// that chai's own validators do not give, except the reasoned ones above.
#[test]
fn chai_bundled_skills_have_no_false_errors() {
    let Some(root) = toolsmith_manifest::corpus::locate() else {
        eprintln!(
            "notice: corpus not found (../shared/corpus, $TOOLSMITH_CORPUS): chai bundled-skills test skipped"
        );
        return;
    };
    let index = std::fs::read_to_string(root.join("index.json")).expect("read index.json");
    let index: Value = serde_json::from_str(&index).expect("index.json is JSON");
    let mut validator_errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for record in index["files"].as_array().expect("index.json has files") {
        let (Some(file), Some(port)) = (
            record["file"].as_str(),
            record["checks"].get("chai_skill_validate_head_port"),
        ) else {
            continue;
        };
        let errors = port["errors"].as_array().map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        });
        validator_errors.insert(file.to_string(), errors.unwrap_or_default());
    }
    let mut failures = Vec::new();
    let mut used = BTreeSet::new();
    let mut sets = 0;
    for commit in ["fb29f89", "1e08e99"] {
        let base = root.join("chai-tools-json/chora-ai+chai").join(commit);
        let mut files = Vec::new();
        walk_all(&base, &mut files);
        let mut by_dir: BTreeMap<PathBuf, Vec<Input>> = BTreeMap::new();
        for path in files {
            let display = path
                .strip_prefix(&root)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
            by_dir.entry(dir).or_default().push(Input { display, path });
        }
        for (dir, inputs) in &by_dir {
            let report = lint(inputs, &Options::default())
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            sets += 1;
            for d in report.diagnostics.iter() {
                if d.severity != Severity::Error {
                    if std::env::var_os("SHOW_BUNDLED").is_some() {
                        eprintln!("{d}");
                    }
                    continue;
                }
                let tools = d
                    .file
                    .rsplit_once('/')
                    .map_or(String::new(), |(dir, _)| format!("{dir}/tools.json"));
                let chai_says = validator_errors
                    .get(&tools)
                    .is_some_and(|errors| errors.contains(&d.message));
                if chai_says {
                    continue;
                }
                let below = d
                    .file
                    .split_once(commit)
                    .map_or("", |(_, rest)| rest.trim_start_matches('/'));
                let known = KNOWN_ERRORS
                    .iter()
                    .find(|(f, rule, _)| *f == below && *rule == d.rule);
                match known {
                    Some(k) => {
                        used.insert(*k);
                    }
                    None => failures.push(format!("{d}")),
                }
            }
        }
    }
    assert!(sets > 0, "no chai file set at fb29f89 / 1e08e99");
    for k in KNOWN_ERRORS {
        if !used.contains(k) {
            failures.push(format!("listed error no longer occurs: {k:?}"));
        }
    }
    eprintln!(
        "chai bundled skills: {sets} file sets, {} listed errors",
        used.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every file `classify` knows (JSON and SKILL.md).
fn walk_all(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk_all(&path, out);
        } else if classify(&path).is_some() {
            out.push(path);
        }
    }
}

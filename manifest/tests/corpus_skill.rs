//! Corpus agreement: `--profile strict` gives the same pass/fail verdict as the
//! reference Agent Skills validator (`skills_ref_validate` in
//! `../shared/corpus/index.json`) for every SKILL.md it was run on; the
//! default profile lints every corpus SKILL.md without panicking.
//!
//! Disagreements are listed in the failure message; the deliberate ones are
//! explained in `docs/skill-differences.md`.

use std::path::{Path, PathBuf};
use toolsmith_manifest::lint::{Input, Options, Profile, lint};

/// (file, dialect, reference verdict: `None` when it passed, else its messages).
fn records(dir: &Path) -> Vec<(PathBuf, String, Option<Vec<String>>)> {
    let text = std::fs::read_to_string(dir.join("index.json")).expect("read index.json");
    let index: serde_json::Value = serde_json::from_str(&text).expect("parse index.json");
    let files = index["files"].as_array().expect("index.json has `files`");
    files
        .iter()
        .filter_map(|r| {
            let verdict = r.get("checks")?.get("skills_ref_validate")?;
            let verdict = match verdict {
                serde_json::Value::String(s) if s == "ok" => None,
                serde_json::Value::Array(ms) => Some(
                    ms.iter()
                        .map(|m| m.as_str().unwrap_or_default().to_string())
                        .collect(),
                ),
                other => Some(vec![other.to_string()]),
            };
            Some((
                dir.join(r["file"].as_str()?),
                r["dialect"].as_str()?.to_string(),
                verdict,
            ))
        })
        .collect()
}

fn strict() -> Options {
    Options {
        profile: Profile::Strict.into(),
        ..Options::default()
    }
}

#[test]
fn strict_profile_agrees_with_skills_ref() {
    let Some(dir) = corpus() else {
        return;
    };
    let records = records(&dir);
    let agent_skills = records
        .iter()
        .filter(|(_, d, _)| d == "agent-skills-md")
        .count();
    assert_eq!(
        agent_skills, 175,
        "expected 175 Agent Skills files in the corpus"
    );
    let mut disagreements = Vec::new();
    let (mut checked, mut failing) = (0, 0);
    for (path, dialect, verdict) in &records {
        let report = lint(&[Input::new(path.clone())], &strict())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        checked += 1;
        let ours = report.diagnostics.has_errors();
        failing += usize::from(ours);
        if ours != verdict.is_some() {
            let errors: Vec<String> = report
                .diagnostics
                .iter()
                .filter(|d| d.severity == toolsmith_manifest::Severity::Error)
                .map(ToString::to_string)
                .collect();
            disagreements.push(format!(
                "{dialect} {}\n  skills-ref: {}\n  toolsmith --profile strict: {}",
                path.display(),
                verdict
                    .as_ref()
                    .map_or_else(|| "ok".to_string(), |m| m.join(" | ")),
                if errors.is_empty() {
                    "ok".to_string()
                } else {
                    errors.join(" | ")
                }
            ));
        }
    }
    eprintln!(
        "corpus: {checked} files with a skills-ref verdict, {failing} fail under --profile strict, {} disagreements",
        disagreements.len()
    );
    assert!(
        disagreements.is_empty(),
        "{} disagreements with skills-ref:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

#[test]
fn every_corpus_skill_file_lints_under_both_profiles() {
    let Some(dir) = corpus() else {
        return;
    };
    let mut files = Vec::new();
    collect_skill_files(&dir, &mut files);
    assert!(
        files.len() >= 175 + 37 + 3,
        "found only {} skill files",
        files.len()
    );
    for path in &files {
        for options in [Options::default(), strict()] {
            let report = lint(&[Input::new(path.clone())], &options)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(report.files, 1, "{}", path.display());
            // Every finding is positioned inside the file.
            let len = std::fs::metadata(path)
                .map(|m| m.len() as usize)
                .unwrap_or(0);
            for d in report.diagnostics.iter() {
                assert!(d.span.end <= len, "{d}: span past the end of the file");
            }
        }
    }
}

#[test]
fn corpus_skills_yield_their_name_and_description() {
    let Some(dir) = corpus() else {
        return;
    };
    let path = dir.join("agent-skills-md/anthropics+skills/9d2f1ae/skills/pdf/SKILL.md");
    if !path.is_file() {
        eprintln!("{} missing: skipped", path.display());
        return;
    }
    let report = lint(&[Input::new(path)], &Options::default()).expect("lint");
    let skill = report.skills.first().expect("a skill");
    assert_eq!(skill.name, "pdf");
    assert!(!skill.description.is_empty());
    assert!(skill.body.contains('#'));
}

fn collect_skill_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_skill_files(&path, out);
        } else if matches!(
            toolsmith_manifest::lint::classify(&path),
            Some(toolsmith_manifest::lint::FileKind::Skill)
        ) {
            out.push(path);
        }
    }
}

/// The corpus, or `None` with a notice (the tests then skip).
fn corpus() -> Option<PathBuf> {
    let dir = toolsmith_manifest::corpus::locate();
    if dir.is_none() {
        eprintln!("notice: corpus not found (../shared/corpus, $TOOLSMITH_CORPUS): skipping");
    }
    dir
}

//! The verdict of every skill profile over the 175 real `SKILL.md` files of
//! `../shared/corpus/agent-skills-md` (skipped with a notice when the corpus
//! is absent). The counts are the README's table ("Skill profiles on the
//! corpus"); a change in a rule that moves them fails here until the README
//! is updated with it.
//!
//! The corpus keeps only the `SKILL.md` files, not their directories, so
//! every link into `references/` or `scripts/` is broken there: the table
//! gives the verdict with and without `skill/broken-link`.

use std::path::{Path, PathBuf};
use toolsmith_manifest::lint::{Input, Options, lint};
use toolsmith_manifest::{Profile, Profiles, Severity};

/// Per profile: files failing, failing without `skill/broken-link`, and the
/// numbers of errors, warnings and notes.
#[derive(Debug, Default, PartialEq, Eq)]
struct Verdict {
    failing: usize,
    failing_without_links: usize,
    errors: usize,
    warnings: usize,
    notes: usize,
}

/// The README's table.
const EXPECTED: [(Profile, Verdict); 7] = [
    (Profile::Default, v(73, 6, 443, 214, 57)),
    (Profile::Strict, v(36, 36, 43, 650, 0)),
    (Profile::ClaudeCode, v(68, 3, 440, 207, 57)),
    (Profile::ClaudeApi, v(74, 7, 446, 214, 0)),
    (Profile::Codex, v(73, 6, 443, 214, 0)),
    (Profile::Copilot, v(73, 6, 443, 214, 0)),
    (Profile::Cursor, v(73, 6, 443, 214, 0)),
];

const fn v(
    failing: usize,
    failing_without_links: usize,
    errors: usize,
    warnings: usize,
    notes: usize,
) -> Verdict {
    Verdict {
        failing,
        failing_without_links,
        errors,
        warnings,
        notes,
    }
}

fn skill_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            skill_files(&path, out);
        } else if path.file_name().is_some_and(|n| n == "SKILL.md") {
            out.push(path);
        }
    }
}

fn verdict(files: &[PathBuf], profile: Profile) -> Verdict {
    let options = Options {
        profile: Profiles::from(profile),
        ..Options::default()
    };
    let mut verdict = Verdict::default();
    for path in files {
        let report = lint(&[Input::new(path.clone())], &options)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let d = &report.diagnostics;
        verdict.errors += d.errors();
        verdict.warnings += d.warnings();
        verdict.notes += d.notes();
        verdict.failing += usize::from(d.has_errors());
        verdict.failing_without_links += usize::from(
            d.iter()
                .any(|d| d.severity == Severity::Error && d.rule != "skill/broken-link"),
        );
        for d in d.iter() {
            assert_eq!(
                d.profile,
                Some(Profiles::from(profile)),
                "{d}: every skill diagnostic names its profile"
            );
        }
    }
    verdict
}

#[test]
fn every_profile_gives_the_readme_verdict_on_the_corpus() {
    let Some(corpus) = toolsmith_manifest::corpus::locate() else {
        eprintln!("notice: corpus not found (../shared/corpus, $TOOLSMITH_CORPUS): skipping");
        return;
    };
    let mut files = Vec::new();
    skill_files(&corpus.join("agent-skills-md"), &mut files);
    assert_eq!(files.len(), 175, "expected 175 Agent Skills files");
    let mut table = String::from(
        "| profile | files failing | failing without `skill/broken-link` | errors | warnings | notes |\n| --- | --- | --- | --- | --- | --- |\n",
    );
    let mut differ = Vec::new();
    for (profile, expected) in EXPECTED {
        let got = verdict(&files, profile);
        table.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            profile.name(),
            got.failing,
            got.failing_without_links,
            got.errors,
            got.warnings,
            got.notes
        ));
        if got != expected {
            differ.push(format!("{}: {got:?}", profile.name()));
        }
    }
    eprintln!("{table}");
    assert!(
        differ.is_empty(),
        "the corpus verdicts moved; update EXPECTED and the README table:\n{table}"
    );
}

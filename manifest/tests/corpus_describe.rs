//! Corpus agreement with shellclaw's `discover_tool` (`lib/discover.sh` at
//! 754b02a): every `--describe` output it accepts is accepted (without
//! warnings: the names match their `NAME.sh` stems), one describe manifest
//! per directory.
//!
//! Reads `shared/corpus` next to the repository (or `$TOOLSMITH_CORPUS`); skips
//! with a notice when it is absent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toolsmith_manifest::lint::{Input, Options, lint};
use toolsmith_manifest::model::{Dialect, Execution};

#[test]
fn agrees_with_discover_tool() {
    let Some(corpus) = toolsmith_manifest::corpus::locate() else {
        eprintln!("corpus not found (../shared/corpus or $TOOLSMITH_CORPUS): skipping");
        return;
    };
    let index: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(corpus.join("index.json")).expect("read index.json"),
    )
    .expect("index.json is JSON");
    let records = index["files"].as_array().expect("index.json has `files`");
    // directory → [(file, verdict)]
    let mut dirs: BTreeMap<PathBuf, Vec<(String, String)>> = BTreeMap::new();
    for record in records {
        let Some(verdict) = record["checks"]["shellclaw_discover_tool"].as_str() else {
            continue;
        };
        let file = record["file"]
            .as_str()
            .expect("record has `file`")
            .to_string();
        let dir = Path::new(&file)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        dirs.entry(dir)
            .or_default()
            .push((file, verdict.to_string()));
    }
    assert!(
        !dirs.is_empty(),
        "no shellclaw-describe records in index.json"
    );
    let mut disagreements = Vec::new();
    for files in dirs.values() {
        let inputs: Vec<Input> = files
            .iter()
            .map(|(f, _)| Input {
                display: f.clone(),
                path: corpus.join(f),
            })
            .collect();
        let report = lint(&inputs, &Options::default()).expect("corpus files are readable");
        for (file, verdict) in files {
            let mine: Vec<_> = report
                .diagnostics
                .iter()
                .filter(|d| &d.file == file)
                .collect();
            let errors = mine
                .iter()
                .filter(|d| d.severity == toolsmith_manifest::Severity::Error)
                .count();
            if verdict == "ok" && !mine.is_empty() {
                disagreements.push(format!(
                    "{file}: accepted by shellclaw, toolsmith reports {mine:?}"
                ));
            }
            if verdict != "ok" && errors == 0 {
                disagreements.push(format!(
                    "{file}: rejected by shellclaw ({verdict}), not by toolsmith"
                ));
            }
        }
        let [manifest] = report.manifests.as_slice() else {
            disagreements.push(format!(
                "expected one manifest per directory, got {}",
                report.manifests.len()
            ));
            continue;
        };
        assert_eq!(manifest.dialect, Dialect::Describe);
        let accepted = files.iter().filter(|(_, v)| v == "ok").count();
        if manifest.tools.len() != accepted {
            disagreements.push(format!(
                "{} tools in the model, {accepted} accepted files",
                manifest.tools.len()
            ));
        }
        for tool in &manifest.tools {
            let Execution::Describe(d) = &tool.execution else {
                disagreements.push(format!("{}: not a describe tool", tool.name));
                continue;
            };
            // `get_weather.sh.describe.json` describes the script `get_weather.sh`.
            let expected = format!("{}.sh", tool.name);
            if !d.program.is_absolute()
                || d.program.file_name().and_then(|n| n.to_str()) != Some(expected.as_str())
            {
                disagreements.push(format!("{}: program {}", tool.name, d.program.display()));
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

//! Corpus agreement with goagent's `LoadManifest` (`internal/tools/manifest.go`;
//! the corpus's `goagent_head_port` verdicts come from a port of it):
//! every historical `tools.json` that the reference rejects is rejected with
//! the same message as its first error (in the reference's check order, see
//! `agentcli::reference_error`); none that it accepts is rejected.
//!
//! Reads `shared/corpus` next to the repository (or `$TOOLSMITH_CORPUS`); skips
//! with a notice when it is absent.

use toolsmith_manifest::dialect::agentcli::reference_error;
use toolsmith_manifest::lint::{Input, Options, lint};
use toolsmith_manifest::model::Execution;

#[test]
fn agrees_with_the_reference_loader() {
    let Some(corpus) = toolsmith_manifest::corpus::locate() else {
        eprintln!("corpus not found (../shared/corpus or $TOOLSMITH_CORPUS): skipping");
        return;
    };
    let index: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(corpus.join("index.json")).expect("read index.json"),
    )
    .expect("index.json is JSON");
    let records = index["files"].as_array().expect("index.json has `files`");
    let mut disagreements = Vec::new();
    let (mut checked, mut rejected) = (0, 0);
    for record in records {
        let Some(verdict) = record["checks"]["goagent_head_port"].as_str() else {
            continue;
        };
        let file = record["file"].as_str().expect("record has `file`");
        let input = Input {
            display: file.to_string(),
            path: corpus.join(file),
        };
        let report = lint(&[input], &Options::default()).expect("corpus file is readable");
        let diagnostics = &report.diagnostics.0;
        checked += 1;
        if verdict == "ok" {
            if report.diagnostics.has_errors() {
                disagreements.push(format!(
                    "{file}: accepted by the reference, rejected by toolsmith:\n{}",
                    report.diagnostics
                ));
            }
            let tools: usize = report.manifests.iter().map(|m| m.tools.len()).sum();
            let expected = serde_json::from_str::<serde_json::Value>(
                &std::fs::read_to_string(corpus.join(file)).expect("read"),
            )
            .expect("corpus file is JSON")["tools"]
                .as_array()
                .map_or(0, Vec::len);
            if tools != expected {
                disagreements.push(format!(
                    "{file}: model has {tools} tools, the file {expected}"
                ));
            }
            for m in &report.manifests {
                for t in &m.tools {
                    let Execution::Command(c) = &t.execution else {
                        disagreements.push(format!("{file}: {} is not a command tool", t.name));
                        continue;
                    };
                    if !c.program.is_absolute()
                        || !c.program.ends_with(c.command[0].trim_start_matches("./"))
                    {
                        disagreements.push(format!(
                            "{file}: {} resolves to {}",
                            t.name,
                            c.program.display()
                        ));
                    }
                }
            }
        } else {
            rejected += 1;
            match reference_error(diagnostics) {
                Some(d) if d.message == verdict => {}
                Some(d) => disagreements.push(format!(
                    "{file}: the reference says {verdict:?}, toolsmith's first reference error is {:?} ({})",
                    d.message, d.rule
                )),
                None => disagreements.push(format!(
                    "{file}: rejected by the reference ({verdict:?}), toolsmith has no reference error:\n{}",
                    report.diagnostics
                )),
            }
        }
    }
    eprintln!("{checked} agentcli manifests checked, {rejected} rejected by the reference");
    assert!(checked > 0, "no agentcli records in index.json");
    assert!(
        rejected > 0,
        "no rejected agentcli records: the comparison would be vacuous"
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

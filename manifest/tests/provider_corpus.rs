//! `export --to X --strict` over the corpus: how many tools each provider
//! gets, how many the export rewrites and how many it refuses. Prints the
//! table the README quotes (`cargo test -p toolsmith-manifest --test
//! provider_corpus -- --nocapture`).
//!
//! Reads `shared/corpus` next to the repository (or `$TOOLSMITH_CORPUS`);
//! skips with a notice when it is absent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toolsmith_manifest::lint::{Input, Options, classify, lint};
use toolsmith_manifest::model::{Dialect, Tool};
use toolsmith_manifest::provider::export::{Counts, Request, Target, export};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The tool lists of the corpus: one per manifest (chai, agentcli, describe),
/// and one per MCP server snapshot directory (`mcp-tools`).
fn requests(corpus: &Path) -> Vec<(String, Vec<Tool>)> {
    let mut all = Vec::new();
    files(corpus, &mut all);
    all.sort();
    let mut by_dir: BTreeMap<PathBuf, Vec<Input>> = BTreeMap::new();
    let mut mcp: BTreeMap<PathBuf, Vec<Input>> = BTreeMap::new();
    for path in all {
        let rel = path.strip_prefix(corpus).unwrap_or(&path).to_path_buf();
        let top = rel
            .components()
            .next()
            .map(|c| c.as_os_str().to_string_lossy().into_owned());
        match top.as_deref() {
            Some("chai-tools-json" | "agentcli-tools-json" | "shellclaw-describe")
                if classify(&path)
                    .is_some_and(|k| k != toolsmith_manifest::lint::FileKind::Skill) =>
            {
                let dir = path.parent().unwrap().to_path_buf();
                by_dir.entry(dir).or_default().push(Input::new(&path));
            }
            Some("mcp-tools") if path.extension().is_some_and(|e| e == "snap") => {
                mcp.entry(path.parent().unwrap().to_path_buf())
                    .or_default()
                    .push(Input::new(&path));
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for inputs in by_dir.into_values() {
        let Ok(report) = lint(&inputs, &Options::default()) else {
            continue;
        };
        for m in report.manifests {
            let kind = m.dialect.name().to_string();
            if !m.tools.is_empty() {
                out.push((kind, m.tools));
            }
        }
    }
    // One list per server snapshot directory, read by the `mcp` dialect.
    for inputs in mcp.into_values() {
        let report = lint(&inputs, &Options::default()).expect("readable snapshots");
        assert!(
            report.manifests.iter().all(|m| m.dialect == Dialect::Mcp),
            "every snapshot is read as an MCP tool"
        );
        let tools: Vec<Tool> = report.manifests.into_iter().flat_map(|m| m.tools).collect();
        out.push(("mcp-tools".to_string(), tools));
    }
    out
}

#[test]
fn corpus_export_counts() {
    let Some(corpus) = toolsmith_manifest::corpus::locate() else {
        eprintln!("corpus not found (../shared/corpus or $TOOLSMITH_CORPUS): skipping");
        return;
    };
    let requests = requests(&corpus);
    assert!(!requests.is_empty(), "no manifests in the corpus");
    let mut table = String::from(
        "| target | source | lists | tools | exported | rewritten | refused |\n|---|---|---|---|---|---|---|\n",
    );
    for target in Target::ALL {
        let strict = target.has_strict();
        let mut per_source: BTreeMap<&str, (usize, usize, Counts)> = BTreeMap::new();
        for (source, tools) in &requests {
            let refs: Vec<&Tool> = tools.iter().collect();
            let out = export(
                &refs,
                Request {
                    target,
                    strict,
                    skip_incompatible: true,
                },
            )
            .expect("strict only where the target has it");
            let entry = per_source.entry(source.as_str()).or_default();
            entry.0 += 1;
            entry.1 += tools.len();
            entry.2.exported += out.counts.exported;
            entry.2.rewritten += out.counts.rewritten;
            entry.2.refused += out.counts.refused;
            assert_eq!(out.counts.exported + out.counts.refused, tools.len());
        }
        for (source, (lists, tools, c)) in per_source {
            table.push_str(&format!(
                "| {}{} | {source} | {lists} | {tools} | {} | {} | {} |\n",
                target.name(),
                if strict { " --strict" } else { "" },
                c.exported,
                c.rewritten,
                c.refused
            ));
        }
    }
    println!("{table}");
}

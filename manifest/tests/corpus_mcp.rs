//! The MCP tool snapshots of the corpus (`mcp-tools/`, github-mcp-server's
//! `__toolsnaps__/*.snap`), read by the `mcp` dialect and checked tool by
//! tool against every provider, then compared with the second opinion the
//! corpus index records per tool (`checks.provider_static_port`, a Python
//! port of the documented rules).
//!
//! Prints the table the README quotes (`cargo test -p toolsmith-manifest
//! --test corpus_mcp -- --nocapture`). Every difference from the port must
//! be one of [`EXPLAINED`]; any other fails the test.
//!
//! Reads `shared/corpus` next to the repository (or `$TOOLSMITH_CORPUS`);
//! skips with a notice when it is absent.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toolsmith_manifest::lint::{Input, Options, lint};
use toolsmith_manifest::model::{Dialect, Tool};
use toolsmith_manifest::provider::export::{Request, Target, export};
use toolsmith_manifest::provider::{Provider, check};
use toolsmith_manifest::rules::Severity;

/// Differences from the port, each with the reason (the README repeats them).
const EXPLAINED: &[(&str, &str, &str)] = &[(
    "actions_run_trigger",
    "gemini",
    "the port refuses the nested `properties: {}` of `inputs` (its rule is marked volatile); toolsmith warns (provider/gemini-empty-properties): refused in 2025-02, reported accepted in 2026-03",
)];

fn snaps(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            snaps(&path, out);
        } else if path.extension().is_some_and(|e| e == "snap") {
            out.push(path);
        }
    }
}

/// What one provider makes of one tool sent alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    /// Accepted as written.
    Accepted,
    /// Accepted after the export's rewrite (`--strict` where the target has it).
    Rewritten,
    /// The rewrite closed a free-form map (a warning: the meaning changes).
    RewrittenLossy,
    /// Refused even after the export.
    Refused,
}

fn target_of(provider: Provider) -> (Target, bool) {
    match provider {
        Provider::OpenAi => (Target::OpenAiChat, false),
        Provider::OpenAiStrict => (Target::OpenAiChat, true),
        Provider::Anthropic => (Target::Anthropic, false),
        Provider::AnthropicStrict => (Target::Anthropic, true),
        Provider::Gemini => (Target::Gemini, false),
        Provider::Ollama => (Target::Ollama, false),
        Provider::Mcp => (Target::Mcp, false),
    }
}

fn verdict(provider: Provider, tool: &Tool) -> Verdict {
    let as_written = check(provider, &[tool]);
    if !as_written
        .iter()
        .any(|c| c.finding.severity == Severity::Error)
    {
        return Verdict::Accepted;
    }
    let (target, strict) = target_of(provider);
    let out = export(
        &[tool],
        Request {
            target,
            strict,
            skip_incompatible: true,
        },
    )
    .expect("strict only where the target has it");
    if out.counts.refused > 0 {
        Verdict::Refused
    } else if out
        .diagnostics
        .iter()
        .any(|d| d.rule == "provider/openai-strict-closes-map")
    {
        Verdict::RewrittenLossy
    } else {
        Verdict::Rewritten
    }
}

/// The port's verdict for `provider`, where it records one.
fn port_verdict(provider: Provider, port: &Value) -> Option<Verdict> {
    match provider {
        Provider::OpenAiStrict => Some(match port["openai_strict"]["class"].as_str()? {
            "valid" => Verdict::Accepted,
            "rewrite-clean" => Verdict::Rewritten,
            "rewrite-lossy" => Verdict::RewrittenLossy,
            _ => Verdict::Refused,
        }),
        Provider::Gemini => Some(if port["gemini_parameters"]["ok"].as_bool()? {
            Verdict::Accepted
        } else {
            Verdict::Refused
        }),
        Provider::Anthropic => Some(if port["anthropic"]["ok"].as_bool()? {
            Verdict::Accepted
        } else {
            Verdict::Refused
        }),
        _ => None,
    }
}

#[test]
fn corpus_mcp_tools_per_provider_and_against_the_port() {
    let Some(corpus) = toolsmith_manifest::corpus::locate() else {
        eprintln!("corpus not found (../shared/corpus or $TOOLSMITH_CORPUS): skipping");
        return;
    };
    let dir = corpus.join("mcp-tools");
    let mut files = Vec::new();
    snaps(&dir, &mut files);
    files.sort();
    if files.is_empty() {
        eprintln!("no mcp-tools snapshots in {}: skipping", corpus.display());
        return;
    }
    let index: Value = std::fs::read_to_string(corpus.join("index.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    let ports: BTreeMap<String, Value> = index["files"]
        .as_array()
        .map(|files| {
            files
                .iter()
                .filter(|f| f["dialect"] == "mcp-tools")
                .filter_map(|f| {
                    Some((
                        f["file"].as_str()?.to_string(),
                        f["checks"]["provider_static_port"].clone(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    let inputs: Vec<Input> = files.iter().map(Input::new).collect();
    let report = lint(&inputs, &Options::default()).expect("readable snapshots");
    assert!(
        !report.diagnostics.has_errors(),
        "the snapshots have MCP errors:\n{}",
        report.diagnostics
    );
    let tools: Vec<(&Tool, String)> = report
        .manifests
        .iter()
        .inspect(|m| assert_eq!(m.dialect, Dialect::Mcp, "{}", m.path.display()))
        .flat_map(|m| {
            let rel = m
                .path
                .strip_prefix(&corpus)
                .unwrap_or(&m.path)
                .to_string_lossy()
                .replace('\\', "/");
            m.tools.iter().map(move |t| (t, rel.clone()))
        })
        .collect();
    assert_eq!(tools.len(), files.len(), "one tool per snapshot");
    let mut table = String::from(
        "| provider | accepted as written | rewritten by export | … closing a free-form map | refused |\n|---|---|---|---|---|\n",
    );
    let mut unexplained = Vec::new();
    let mut explained = 0;
    for provider in Provider::ALL {
        let mut counts: BTreeMap<Verdict, usize> = BTreeMap::new();
        for (tool, rel) in &tools {
            let ours = verdict(provider, tool);
            *counts.entry(ours).or_default() += 1;
            let Some(theirs) = ports.get(rel).and_then(|p| port_verdict(provider, p)) else {
                continue;
            };
            if ours == theirs {
                continue;
            }
            if EXPLAINED
                .iter()
                .any(|(t, p, _)| *t == tool.name && *p == provider.name())
            {
                explained += 1;
            } else {
                unexplained.push(format!(
                    "{} ({provider}): toolsmith {ours:?}, port {theirs:?}",
                    tool.name
                ));
            }
        }
        let n = |v| counts.get(&v).copied().unwrap_or(0);
        table.push_str(&format!(
            "| {provider} | {} | {} | {} | {} |\n",
            n(Verdict::Accepted),
            n(Verdict::Rewritten) + n(Verdict::RewrittenLossy),
            n(Verdict::RewrittenLossy),
            n(Verdict::Refused),
        ));
    }
    println!("{} MCP tools, each sent alone:\n{table}", tools.len());
    println!(
        "differences from provider_static_port: {explained} explained, {} not",
        unexplained.len()
    );
    assert!(
        unexplained.is_empty(),
        "differences from the port that are not explained:\n{}",
        unexplained.join("\n")
    );
    if !ports.is_empty() {
        assert_eq!(
            explained,
            EXPLAINED.len(),
            "an explained difference is gone"
        );
    }
}

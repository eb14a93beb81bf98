//! `tools!("x.json", providers = [...])`: the provider rules' error findings
//! that the generated `definitions_for` does not repair fail the expansion,
//! positioned at the refused keyword; the rest of the manifest's behaviour
//! is unchanged.

use std::path::{Path, PathBuf};
use toolsmith_codegen::{ExpandOptions, Provider, expand_with, provider_from_name};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel)
}

fn errors(path: &Path, providers: Vec<Provider>) -> Vec<String> {
    let options = ExpandOptions {
        providers,
        ..ExpandOptions::default()
    };
    match expand_with(path, "tools.json", options).result {
        Ok(_) => Vec::new(),
        Err(errors) => errors
            .iter()
            .map(|d| format!("{}:{} {}", d.start.line, d.start.column, d.rule))
            .collect(),
    }
}

#[test]
fn refusals_fail_and_what_the_strict_export_repairs_does_not() {
    let path = fixture("runtime/tests/ui/data/provider-refused/tools.json");
    assert!(errors(&path, Vec::new()).is_empty());
    assert_eq!(
        errors(&path, vec![Provider::OpenAiStrict, Provider::Gemini]),
        [
            "19:50 provider/gemini-enum-type",
            "19:53 provider/gemini-enum-type",
            "20:40 provider/gemini-keyword",
            "20:40 provider/openai-strict-free-form",
        ]
    );
    // Plain OpenAI accepts both tools; MCP too.
    assert!(errors(&path, vec![Provider::OpenAi, Provider::Mcp]).is_empty());
}

#[test]
fn warnings_do_not_fail() {
    // Ollama drops keywords silently: warnings only.
    let path = fixture("fixtures/provider/export/typical/tools.describe.json");
    let options = ExpandOptions {
        providers: vec![Provider::Ollama],
        ..ExpandOptions::default()
    };
    let out = expand_with(&path, "tools.describe.json", options);
    assert!(out.result.is_ok());
    assert!(
        out.warnings
            .iter()
            .any(|d| d.rule == "provider/ollama-dropped-keyword")
    );
    assert!(!errors(&path, vec![Provider::Gemini]).is_empty());
}

#[test]
fn names_are_the_cli_names_in_snake_case() {
    for p in Provider::ALL {
        assert_eq!(provider_from_name(&p.name().replace('-', "_")), Ok(p));
        assert_eq!(provider_from_name(p.name()), Ok(p));
    }
    let e = provider_from_name("anthropic_stritc").unwrap_err();
    assert!(e.contains("did you mean `anthropic_strict`?"), "{e}");
    let e = provider_from_name("claude").unwrap_err();
    assert!(
        e.starts_with("unknown provider `claude`; the providers are openai, openai_strict,"),
        "{e}"
    );
}

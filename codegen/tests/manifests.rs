//! The generator over real files: every valid fixture generates code that
//! parses as Rust; no fixture and no corpus file makes it panic; invalid
//! fixtures fail with the lint's own errors.

use std::path::{Path, PathBuf};
use toolsmith_manifest::lint::{FileKind, classify};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The paths `tools!` / `skill!` would be given for the files below `dir`:
/// each `tools.json` (the split layout's siblings come along), each describe
/// file, each skill file.
fn entry_points(dir: &Path) -> Vec<PathBuf> {
    let mut all = Vec::new();
    files(dir, &mut all);
    all.into_iter()
        .filter(|p| {
            matches!(
                classify(p),
                Some(FileKind::Tools | FileKind::Describe | FileKind::Skill)
            )
        })
        .collect()
}

fn fixture_cases(kind: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut cases = Vec::new();
    for dialect in std::fs::read_dir(root).into_iter().flatten().flatten() {
        for case in std::fs::read_dir(dialect.path().join(kind))
            .into_iter()
            .flatten()
            .flatten()
        {
            if case.path().is_dir() {
                cases.push(case.path());
            }
        }
    }
    cases.sort();
    cases
}

#[test]
fn valid_fixtures_generate_rust() {
    let mut generated = 0;
    for case in fixture_cases("valid") {
        for path in entry_points(&case) {
            match toolsmith_codegen::generate_with_warnings(&path) {
                Ok(g) => {
                    assert!(
                        syn::parse_file(&g.code).is_ok(),
                        "{}: output is not Rust",
                        path.display()
                    );
                    assert!(g.warnings.errors() == 0);
                    generated += 1;
                }
                Err(d) if d.has_errors() => panic!("{}:\n{d}", path.display()),
                Err(_) => {}
            }
        }
    }
    assert!(generated > 0, "no fixtures found");
}

#[test]
fn invalid_fixtures_fail_with_errors() {
    for case in fixture_cases("invalid") {
        // A case that forces a chai version (`chai-version` file) or skill
        // profiles (`profile` file) is invalid only when linted with
        // `--chai-version` / `--profile`; generation detects them.
        if case.join("chai-version").is_file() || case.join("profile").is_file() {
            continue;
        }
        let results: Vec<_> = entry_points(&case)
            .iter()
            .map(|p| toolsmith_codegen::generate(p))
            .collect();
        // Some invalid cases are only invalid as a directory (duplicates across
        // describe files); a case of one entry point must fail on its own.
        if results.len() == 1 {
            let err = results[0].as_ref().expect_err(&case.display().to_string());
            assert!(err.has_errors(), "{}", case.display());
        }
    }
}

#[test]
fn corpus_never_panics() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if !corpus.is_dir() {
        eprintln!("skipping: {} not found", corpus.display());
        return;
    }
    let mut count = 0;
    for path in entry_points(&corpus) {
        // Either result is fine; a panic fails the test.
        let expansion = toolsmith_codegen::expand(&path, &path.display().to_string());
        if let Err(errors) = &expansion.result {
            assert!(
                errors.has_errors(),
                "{}: failed without an error",
                path.display()
            );
        }
        count += 1;
    }
    assert!(count > 100, "only {count} corpus files");
}

#[test]
fn an_mcp_list_with_errors_fails_with_its_errors_and_mcp_stand_ins() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/mcp/invalid/annotation-type/server.mcp-tools.json");
    let expansion = toolsmith_codegen::expand(&path, "server.mcp-tools.json");
    let errors = expansion.result.expect_err("the list has errors");
    assert!(
        errors.iter().all(|d| d.rule == "mcp/annotation-type"),
        "{errors}"
    );
    // The tool with the error keeps its name as a stand-in, which (like
    // every item of an MCP list) is an `McpTool` with no invocation.
    let stubs = expansion.stubs.to_string();
    assert!(stubs.contains("McpTool"), "{stubs}");
    assert!(!stubs.contains("fn invocation"), "{stubs}");
    assert!(!stubs.contains("fn policy"), "{stubs}");
}

#[test]
fn lint_load_still_refuses_an_mcp_list_that_the_generator_accepts() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/mcp/valid/list/server.snap");
    let options = toolsmith_manifest::lint::Options::default();
    let failure = toolsmith_manifest::lint::load(&path, "server.mcp-tools.json", &options)
        .expect_err("refused");
    assert_eq!(failure.diagnostics.0[0].rule, "mcp/runs-on-server");
    assert!(
        failure.diagnostics.0[0]
            .message
            .contains("its tools run on their server"),
        "{failure}"
    );
    let loaded = toolsmith_manifest::lint::load_for_bindings(&path, "x", &options)
        .expect("accepted for bindings");
    assert_eq!(loaded.manifest.tools.len(), 3);
    let expansion = toolsmith_codegen::expand(&path, "server.mcp-tools.json");
    let tokens = expansion.result.expect("generates").to_string();
    assert!(tokens.contains("to_mcp_arguments"));
    assert!(!tokens.contains("fn invocation"));
}

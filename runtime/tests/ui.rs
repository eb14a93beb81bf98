//! Compile-time behaviour of `tools!` / `skill!` (trybuild): one failing
//! build per class of manifest error, with golden `.stderr` files, and one
//! passing program per valid fixture that builds the generated code and runs
//! it (definitions, parsing, round trips).
//! `TRYBUILD=overwrite cargo test -p toolsmith --test ui` rewrites the `.stderr` files.

use std::path::{Path, PathBuf};

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every path the macros accept below `fixtures/<dialect>/valid/`.
fn valid_fixture_entry_points() -> Vec<PathBuf> {
    let root = crate_dir().join("../fixtures");
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = std::fs::read_dir(&root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|d| d.path().join("valid"))
        .collect();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if path.is_dir() {
                // The split chai layout can also be named by its directory.
                if path.join("allowlist.json").is_file() && path.join("tools.json").is_file() {
                    out.push(path.clone());
                }
                stack.push(path);
            } else if name == "tools.json"
                || name.ends_with(".tools.json")
                || name.ends_with(".describe.json")
                || name == "SKILL.md"
                || name.ends_with(".skill.md")
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A program that builds the generated code of `path` as a public module
/// under `#![deny(missing_docs, warnings)]` and exercises it.
fn pass_program(path: &Path) -> String {
    let relative = path.strip_prefix(crate_dir()).unwrap_or(path);
    let relative = relative.to_string_lossy().replace('\\', "/");
    let support = crate_dir().join("tests/support/round_trip.rs");
    let skill = relative.ends_with(".md");
    if skill {
        return format!(
            "//! Skill.\n#![deny(missing_docs, warnings)]\n/// Generated.\npub mod generated {{ toolsmith::skill!({relative:?}); }}\n\
             fn main() {{\n\
                 assert!(!generated::NAME.is_empty());\n\
                 let _ = (generated::DESCRIPTION, generated::ALLOWED_TOOLS, generated::BODY);\n\
             }}\n"
        );
    }
    format!(
        "//! Manifest.\n#![deny(missing_docs, warnings)]\n#[path = {support:?}]\nmod round_trip;\n\
         /// Generated.\npub mod generated {{ toolsmith::tools!({relative:?}); }}\n\
         fn main() {{\n\
             let defs = generated::definitions();\n\
             for def in defs.as_array().expect(\"array\") {{\n\
                 let name = def[\"function\"][\"name\"].as_str().expect(\"name\");\n\
                 match generated::ToolCall::parse(name, \"{{}}\") {{\n\
                     Ok(call) => assert_eq!(call.name(), name),\n\
                     Err(toolsmith::CallError::UnknownTool(_)) => panic!(\"{{name}} unknown\"),\n\
                     Err(_) => {{}}\n\
                 }}\n\
             }}\n\
             assert!(matches!(generated::ToolCall::parse(\"no such tool\", \"{{}}\"), Err(toolsmith::CallError::UnknownTool(_))));\n\
             round_trip::check(&defs, |name, args| generated::ToolCall::parse(name, args).map(|c| c.arguments()));\n\
         }}\n"
    )
}

#[test]
fn ui() {
    // trybuild builds in its own directory: point the macros at this crate.
    // SAFETY: set before any other thread of this test binary reads the environment.
    unsafe { std::env::set_var("TOOLSMITH_MANIFEST_DIR", crate_dir()) };
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ui-pass");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).expect("temp dir");
    for (i, path) in valid_fixture_entry_points().iter().enumerate() {
        let file = out.join(format!("fixture_{i:03}.rs"));
        std::fs::write(&file, pass_program(path)).expect("write pass program");
        t.pass(file);
    }
}

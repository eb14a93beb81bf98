//! The bundled skills of chai v0.5 (fb29f89, from the corpus): every
//! execution spec reaches the model, and `tools!` compiles each skill under
//! `#![deny(warnings)]` into code whose `policy()`, `definitions()` and
//! `ToolCall::parse` work. Skipped, with a notice, when the corpus is absent.

use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use toolsmith::manifest::model::Execution;
use toolsmith::{Policy, Runtime};

const SKILLS: &str = "chai-tools-json/chora-ai+chai/fb29f89/crates/lib/bundled/skills";

/// The bundled skill directories (sorted), or `None` without the corpus.
fn skill_dirs() -> Option<Vec<PathBuf>> {
    let Some(corpus) = toolsmith::manifest::corpus::locate() else {
        eprintln!("corpus not available; skipping");
        return None;
    };
    let root = corpus.join(SKILLS);
    let Ok(entries) = std::fs::read_dir(&root) else {
        eprintln!("{} not in the corpus; skipping", root.display());
        return None;
    };
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert_eq!(dirs.len(), 16, "bundled skills: {dirs:?}");
    Some(dirs)
}

/// The skills with tools (one of the 16, `skills-design`, is a SKILL.md only).
fn tool_skills(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let with_tools: Vec<PathBuf> = dirs
        .iter()
        .filter(|d| d.join("tools.json").is_file())
        .cloned()
        .collect();
    let without: Vec<&PathBuf> = dirs.iter().filter(|d| !with_tools.contains(d)).collect();
    assert!(
        without
            .iter()
            .all(|d| d.ends_with("skills-design") && d.join("SKILL.md").is_file()),
        "{without:?}"
    );
    with_tools
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_execution_spec_of_the_bundled_skills_is_in_the_model() {
    let Some(dirs) = skill_dirs() else { return };
    let (mut written, mut modelled) = (0, 0);
    for dir in tool_skills(&dirs) {
        let in_file = read_json(&dir.join("execution.json"))
            .as_array()
            .expect("execution.json is an array")
            .len();
        let display = dir.display().to_string();
        let loaded = toolsmith::manifest::lint::load(&dir, &display, &Default::default())
            .unwrap_or_else(|d| panic!("{display}: {d:?}"));
        let in_model: usize = loaded
            .manifest
            .tools
            .iter()
            .map(|t| match &t.execution {
                Execution::Chai(specs) => specs.len(),
                other => panic!("{display}: {} is not chai: {other:?}", t.name),
            })
            .sum();
        assert_eq!(in_model, in_file, "{display}");
        written += in_file;
        modelled += in_model;
    }
    assert_eq!(written, 88);
    assert_eq!(modelled, 88);
}

/// A value `schema` accepts, for the required properties of a call.
fn sample(schema: &Value) -> Value {
    if let Some(v) = schema.get("enum").and_then(Value::as_array) {
        return v
            .iter()
            .find(|v| !v.is_null())
            .cloned()
            .unwrap_or(Value::Null);
    }
    let ty = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("string"),
        _ => "string",
    };
    match ty {
        "integer" | "number" => json!(1),
        "boolean" => json!(true),
        "array" => json!([]),
        "object" => json!({}),
        _ => json!("sample"),
    }
}

/// The first tool of a skill and arguments its schema accepts (checked by
/// the runtime's validator), as (name, arguments JSON).
fn valid_call(dir: &Path) -> (String, String) {
    let rt = Runtime::load(dir, Policy::default())
        .unwrap_or_else(|e| panic!("{}: {:?}", dir.display(), e.diagnostics));
    let tools = read_json(&dir.join("tools.json"));
    for tool in tools.as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        let params = &tool["parameters"];
        let mut args = Map::new();
        for required in params["required"].as_array().into_iter().flatten() {
            let p = required.as_str().unwrap();
            args.insert(p.to_owned(), sample(&params["properties"][p]));
        }
        let text = Value::Object(args).to_string();
        if rt.validate_call(name, &text).is_ok() {
            return (name.to_owned(), text);
        }
    }
    panic!("{}: no tool accepts synthesized arguments", dir.display());
}

/// One program that expands `tools!` for every skill and uses the result.
fn pass_program(skills: &[PathBuf]) -> String {
    let mut modules = String::new();
    let mut checks = String::new();
    for dir in skills {
        let module = format!(
            "skill_{}",
            dir.file_name().unwrap().to_string_lossy().replace('-', "_")
        );
        let path = dir.to_str().expect("UTF-8 corpus path");
        modules.push_str(&format!(
            "/// `{module}`.\npub mod {module} {{ toolsmith::tools!({path:?}); }}\n"
        ));
        let tools = read_json(&dir.join("tools.json")).as_array().unwrap().len();
        let allowlist = read_json(&dir.join("allowlist.json"));
        let (binary, subs) = allowlist.as_object().unwrap().iter().next().unwrap();
        let sub = subs[0].as_str().unwrap();
        let (tool, args) = valid_call(dir);
        checks.push_str(&format!(
            "    {{\n\
                     let defs = {module}::definitions();\n\
                     assert_eq!(defs.as_array().expect(\"array\").len(), {tools}, \"{module}\");\n\
                     let policy = {module}::policy();\n\
                     assert!(policy.allows({binary:?}, Some({sub:?})), \"{module}\");\n\
                     assert!(!policy.allows(\"rm\", None), \"{module}\");\n\
                     let call = {module}::ToolCall::parse({tool:?}, {args:?}).expect({tool:?});\n\
                     assert_eq!(call.name(), {tool:?});\n\
                     assert!(defs.as_array().unwrap().iter().any(|d| d[\"function\"][\"name\"] == {tool:?}));\n\
                     assert!(matches!({module}::ToolCall::parse(\"no such tool\", \"{{}}\"), Err(toolsmith::CallError::UnknownTool(_))));\n\
                 }}\n"
        ));
    }
    // Public modules under `missing_docs`: the generated items must build
    // as a library crate's public API without warnings.
    format!(
        "//! Bundled chai skills.\n#![deny(missing_docs, warnings)]\n{modules}\nfn main() {{\n{checks}}}\n"
    )
}

#[test]
fn tools_macro_compiles_every_bundled_skill() {
    let Some(dirs) = skill_dirs() else { return };
    let skills = tool_skills(&dirs);
    assert_eq!(skills.len(), 15);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("chai-bundled-pass");
    std::fs::create_dir_all(&out).expect("temp dir");
    let file = out.join("bundled_skills.rs");
    std::fs::write(&file, pass_program(&skills)).expect("write pass program");
    trybuild::TestCases::new().pass(file);
}

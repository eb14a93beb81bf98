//! `toolsmith schema KIND`: each printed schema is valid JSON Schema (draft
//! 2020-12), accepts the repository's valid fixtures of its kind and refuses
//! misspelt keys where the dialect refuses unknown keys.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

const KINDS: [&str; 7] = [
    "chai",
    "chai-execution",
    "chai-allowlist",
    "agentcli",
    "describe",
    "mcp",
    "config",
];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// The schema `toolsmith schema KIND` prints, checked against the draft
/// 2020-12 meta-schema, compiled with format validation.
fn validator(kind: &str) -> jsonschema::Validator {
    let out = Command::new(env!("CARGO_BIN_EXE_toolsmith"))
        .args(["schema", kind])
        .output()
        .expect("toolsmith runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let schema: Value = serde_json::from_slice(&out.stdout).expect("the schema is JSON");
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    if let Err(e) = jsonschema::meta::validate(&schema) {
        panic!(
            "`toolsmith schema {kind}` is not valid JSON Schema: {e} at {}",
            e.instance_path()
        );
    }
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the schema compiles")
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

fn assert_accepts(validator: &jsonschema::Validator, path: &Path) {
    let found = errors(validator, &read_json(path));
    assert!(found.is_empty(), "{}: {found:#?}", path.display());
}

/// The subdirectories of a fixture directory.
fn cases(dir: &str) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures().join(dir))
        .expect("fixture directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no fixtures in {dir}");
    dirs
}

#[test]
fn every_kind_prints_valid_json_schema() {
    for kind in KINDS {
        validator(kind);
    }
}

#[test]
fn an_unknown_kind_is_refused_with_the_list() {
    let out = Command::new(env!("CARGO_BIN_EXE_toolsmith"))
        .args(["schema", "chai-tools"])
        .output()
        .expect("toolsmith runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "the kinds are chai, chai-execution, chai-allowlist, agentcli, describe, mcp, config"
        ),
        "{stderr}"
    );
}

#[test]
fn chai_schemas_accept_the_valid_fixtures() {
    let (tools, execution, allowlist) = (
        validator("chai"),
        validator("chai-execution"),
        validator("chai-allowlist"),
    );
    let mut split = 0;
    for dir in cases("chai/valid") {
        assert_accepts(&tools, &dir.join("tools.json"));
        if dir.join("execution.json").exists() {
            assert_accepts(&execution, &dir.join("execution.json"));
            assert_accepts(&allowlist, &dir.join("allowlist.json"));
            split += 1;
        }
    }
    assert!(split >= 2, "the split layout is covered");
}

#[test]
fn chai_single_file_refuses_misspelt_keys_and_wrong_types() {
    let tools = validator("chai");
    let wrong_types = fixtures().join("chai/invalid/legacy-wrong-types/tools.json");
    assert!(!tools.is_valid(&read_json(&wrong_types)));
    // A legacy file (no v0.5 key or kind) with a misspelt key: chai rejects the file.
    let mut legacy = read_json(&fixtures().join("chai/valid/legacy-basic/tools.json"));
    assert!(tools.is_valid(&legacy));
    legacy["tools"][0]["descripton"] = json!("List files.");
    let found = errors(&tools, &legacy);
    assert!(found.iter().any(|e| e.contains("descripton")), "{found:#?}");
    // With a v0.5 key in an execution spec the linter reads the file as
    // chai v0.5, which ignores unknown keys (`chai/unknown-field-ignored`):
    // the same typo passes, as in fixtures/chai/valid/single-file-v05.
    legacy["execution"][0]["maxOutputLines"] = json!(200);
    assert_eq!(errors(&tools, &legacy), Vec::<String>::new());
    legacy["execution"][0]["maxOutputLines"] = json!("200");
    assert!(!tools.is_valid(&legacy), "types are still checked");
    let misspelt = json!({
        "tools": [{"name": "ls", "parameters": {"type": "object"}}],
        "allowlist": {"ls": [""]},
        "execution": [{"tool": "ls", "binary": "ls", "subcommand": "", "args": [{"param": "p", "knd": "flag"}]}]
    });
    let found = errors(&tools, &misspelt);
    assert!(found.iter().any(|e| e.contains("knd")), "{found:#?}");
    // A kind chai does not know.
    let kind = json!([{"name": "ls"}]);
    assert!(tools.is_valid(&kind));
    let bad_kind = json!([{"tool": "ls", "binary": "ls", "subcommand": "", "args": [{"param": "p", "kind": "flagIfBoolean"}]}]);
    assert!(!validator("chai-execution").is_valid(&bad_kind));
}

#[test]
fn chai_v05_files_let_unknown_keys_through_as_chai_does() {
    // chai v0.5 ignores unknown keys (the linter warns), so the schema does too.
    let execution = json!([{"tool": "ls", "binary": "ls", "subcommand": "", "note": "x"}]);
    assert!(validator("chai-execution").is_valid(&execution));
    // …but still checks types and required keys.
    assert!(!validator("chai-execution").is_valid(&json!([{"tool": "ls", "binary": "ls"}])));
    assert!(!validator("chai-allowlist").is_valid(&json!({"git": "status"})));
}

#[test]
fn agentcli_schema_accepts_the_valid_fixtures() {
    let v = validator("agentcli");
    for dir in cases("agentcli/valid") {
        assert_accepts(&v, &dir.join("tools.json"));
    }
    // goagent matches keys case-insensitively: `Name` counts as `name`.
    assert!(v.is_valid(&json!({"tools": [{"Name": "a", "command": ["./tools/bin/a"]}]})));
    for bad in [
        json!({"tools": [{"command": ["./tools/bin/a"]}]}),
        json!({"tools": [{"name": "a"}]}),
        json!({"tools": [{"name": "a", "command": []}]}),
        json!({"tools": [{"name": "a", "command": ["x"], "timeoutSec": 5.5}]}),
    ] {
        assert!(!v.is_valid(&bad), "{bad}");
    }
}

#[test]
fn describe_schema_accepts_the_valid_fixtures() {
    let v = validator("describe");
    let mut seen = 0;
    for dir in cases("describe/valid") {
        for entry in std::fs::read_dir(&dir).expect("fixture directory") {
            let path = entry.expect("entry").path();
            if path.to_string_lossy().ends_with(".describe.json") {
                assert_accepts(&v, &path);
                seen += 1;
            }
        }
    }
    assert!(seen >= 3);
    let not_an_object = fixtures().join("describe/invalid/not-an-object/x.describe.json");
    assert!(!v.is_valid(&read_json(&not_an_object)));
    assert!(!v.is_valid(&json!({"name": "a", "description": "d"})));
}

#[test]
fn mcp_schema_accepts_the_exported_tool_lists() {
    let v = validator("mcp");
    for case in ["typical", "refused"] {
        let export = read_json(
            &fixtures()
                .join("provider/export")
                .join(case)
                .join("expected/mcp.json"),
        );
        let found = errors(&v, &export["fragment"]);
        assert!(found.is_empty(), "{case}: {found:#?}");
    }
    let full = json!({"tools": [{
        "name": "get_weather", "title": "Weather", "description": "d",
        "inputSchema": {"type": "object", "properties": {"location": {"type": "string"}}},
        "outputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": true, "openWorldHint": false},
        "icons": [{"src": "https://example.com/i.png", "sizes": ["48x48"]}]
    }], "nextCursor": "n"});
    assert_eq!(errors(&v, &full), Vec::<String>::new());
    for bad in [
        json!({"tools": [{"name": "a"}]}),
        json!({"tools": [{"name": "a", "inputSchema": null}]}),
        json!({"tools": [{"name": "a", "inputSchema": {"type": "string"}}]}),
        json!({"tools": [{"name": "a", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": "yes"}}]}),
    ] {
        assert!(!v.is_valid(&bad), "{bad}");
    }
}

fn toml_json(text: &str) -> Value {
    toml::from_str(text).expect("TOML")
}

#[test]
fn config_schema_accepts_the_fixture_config() {
    let v = validator("config");
    let path = fixtures().join("config/toolsmith.toml");
    let text = std::fs::read_to_string(&path).expect("fixture config");
    let config = toml_json(&text);
    assert!(config["overrides"].is_array() && config["allow"].is_array());
    assert_eq!(errors(&v, &config), Vec::<String>::new());
    let profiles = toml_json(
        "profile = \"claude-code, copilot\"\n[rules]\n\"*\" = \"off\"\n\"skill/name-*\" = \"note\"\n",
    );
    assert_eq!(errors(&v, &profiles), Vec::<String>::new());
}

#[test]
fn config_schema_refuses_what_the_linter_refuses() {
    let v = validator("config");
    for bad in [
        "exclud = [\"vendor/**\"]\n",
        "[rules]\n\"skill/vendor-feild\" = \"off\"\n",
        "[rules]\n\"provdier/*\" = \"off\"\n",
        "[rules]\n\"skill/vendor-field\" = \"warn\"\n",
        "dialect = \"chia\"\n",
        "providers = [\"openai-stict\"]\n",
        "profile = \"lenient\"\n",
        "[[overrides]]\npath = [\"a/**\"]\n",
        "[[allow]]\npath = \"tools.json\"\nrule = \"agentcli/unknown-key\"\n",
        "[[allow]]\npath = \"tools.json\"\nrule = \"agentcli/unknown-key\"\nreason = \"r\"\npointr = \"/a\"\n",
    ] {
        assert!(!v.is_valid(&toml_json(bad)), "accepted: {bad}");
    }
}

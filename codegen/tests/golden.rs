//! Golden generated code for a hand-built manifest that uses every argv kind
//! and type rule. `runtime/tests/generated.rs` compiles and runs it.
//! `UPDATE_SNAPSHOTS=1 cargo test -p toolsmith-codegen --test golden` rewrites it.

use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toolsmith_manifest::model::{
    ArgKind, ArgMapping, ChaiExecution, CommandExecution, DescribeExecution, Dialect, Execution,
    Manifest, ResolveCommand, Tool,
};

fn arg(param: &str, kind: ArgKind) -> ArgMapping {
    ArgMapping::new(param, kind)
}

fn chai(binary: &str, subcommand: &str, args: Vec<ArgMapping>) -> Execution {
    Execution::Chai(vec![ChaiExecution {
        binary: binary.into(),
        subcommand: subcommand.into(),
        args,
        skill_dir: PathBuf::from("/skills/notes"),
        ..ChaiExecution::default()
    }])
}

pub fn kitchen_sink() -> Manifest {
    let search = Tool {
        origin: Default::default(),
        name: "notesmd_cli_search".into(),
        description: Some("Search notes.\nReturns matching lines.".into()),
        parameters: json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to look for."},
                "limit": {"type": "integer", "minimum": 0},
                "offset": {"type": "integer"},
                "vault": {"type": "string"},
                "overwrite": {"type": "boolean"},
                "text": {"type": "string"},
                "mode": {"type": "string", "enum": ["fast", "deep-scan", "2pass"]},
                "date": {"type": "string"},
                "score": {"type": "number"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "recursive": {"type": "boolean", "default": true}
            },
            "required": ["query", "text"]
        }),
        execution: chai(
            "notesmd-cli",
            "search",
            vec![
                arg("query", ArgKind::Positional),
                ArgMapping {
                    normalize_newlines: true,
                    ..arg("text", ArgKind::Positional)
                },
                arg("limit", ArgKind::Flag),
                arg("offset", ArgKind::Flag),
                ArgMapping {
                    flag: Some("vault-name".into()),
                    ..arg("vault", ArgKind::Flag)
                },
                ArgMapping {
                    flag_if_true: Some("--overwrite".into()),
                    flag_if_false: Some("--append".into()),
                    ..arg("overwrite", ArgKind::FlagIfBoolean)
                },
                arg("mode", ArgKind::Flag),
                ArgMapping {
                    resolve_command: Some(ResolveCommand::Script {
                        script: "resolve-date".into(),
                        args: vec!["$param".into()],
                    }),
                    ..arg("date", ArgKind::Flag)
                },
                arg("score", ArgKind::Flag),
                arg("tags", ArgKind::Flag),
                ArgMapping {
                    flag_if_true: Some("-r".into()),
                    ..arg("recursive", ArgKind::FlagIfBoolean)
                },
                ArgMapping {
                    flag_if_false: Some("--no-color".into()),
                    ..arg("color", ArgKind::FlagIfBoolean)
                },
            ],
        ),
    };
    let shapes = Tool {
        origin: Default::default(),
        name: "shapes-tool".into(),
        description: None,
        parameters: json!({
            "type": "object",
            "properties": {
                "type": {"type": "string", "description": "A keyword as a field."},
                "dryRun": {"type": "boolean"},
                "filter": {
                    "type": "object",
                    "description": "A nested object.",
                    "properties": {
                        "field": {"type": "string"},
                        "op": {"enum": ["eq", "ne"]}
                    },
                    "required": ["field"],
                    "additionalProperties": false
                },
                "point": {"$ref": "#/$defs/point"},
                "labels": {"type": "object", "additionalProperties": {"type": "integer"}},
                "extra": {"type": "object"},
                "anything": {},
                "maybe": {"type": ["string", "null"]},
                "choice": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                "size": {"type": "integer", "default": 10},
                "unit": {"type": "string", "enum": ["cm", "in"], "default": "cm"}
            },
            "required": ["type", "maybe"],
            "additionalProperties": false,
            "$defs": {
                "point": {
                    "type": "object",
                    "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                    "required": ["x", "y"]
                }
            }
        }),
        execution: chai("shapes", "draw", vec![arg("type", ArgKind::Positional)]),
    };
    let weather = Tool {
        origin: Default::default(),
        name: "get_weather".into(),
        description: Some("Weather.".into()),
        parameters: json!({
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"]
        }),
        execution: Execution::Command(CommandExecution {
            command: vec!["./tools/bin/get_weather".into(), "--json".into()],
            program: PathBuf::from("/repo/tools/bin/get_weather"),
            timeout_sec: Some(7),
            env_passthrough: vec!["TZ".into()],
        }),
    };
    let disk = Tool {
        origin: Default::default(),
        name: "disk_usage".into(),
        description: Some("Disk usage.".into()),
        parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": []}),
        execution: Execution::Describe(DescribeExecution {
            program: PathBuf::from("/repo/tools/disk_usage.sh"),
        }),
    };
    Manifest {
        unusable: Vec::new(),
        dialect: Dialect::ChaiLegacy,
        path: PathBuf::from("/repo/tools.json"),
        inputs: Vec::new(),
        tools: vec![search, shapes, weather, disk],
        allowlist: BTreeMap::new(),
    }
}

#[test]
fn kitchen_sink_matches_golden() {
    let out = toolsmith_codegen::tools::tools(&kitchen_sink(), &[]);
    let warnings: Vec<String> = out
        .issues
        .iter()
        .map(|i| format!("{}: {:?}", i.rule.id, i.place))
        .collect();
    assert_eq!(
        warnings,
        [r#"codegen/unrepresentable: Schema { tool: 1, pointer: "/properties/choice" }"#],
        "{:?}",
        out.issues
    );
    let code = format!(
        "// @generated by codegen/tests/golden.rs from a hand-built manifest; do not edit.\n{}",
        toolsmith_codegen::format({
            let mut tokens = out.tokens;
            tokens.extend(toolsmith_codegen::tools::manifest_dir(None));
            tokens
        })
    );
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kitchen_sink.rs");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &code).unwrap();
    }
    let golden = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        golden == code,
        "generated code changed; rerun with UPDATE_SNAPSHOTS=1 and review {}",
        path.display()
    );
}

#[test]
fn skill_items() {
    use toolsmith_manifest::dialect::skill::Skill;
    let skill = Skill {
        params_origin: Default::default(),
        returns_origin: Default::default(),
        name: "pdf-fill".into(),
        description: "Fill PDF forms.".into(),
        allowed_tools: vec!["Read".into(), "Bash(pdftk:*)".into()],
        body: "# Fill\nSteps.\n".into(),
        params: Some(json!({
            "$resolve": "params.schema.json",
            "type": "object",
            "properties": {"file": {"type": "string"}, "pageCount": {"type": "integer", "minimum": 1}},
            "required": ["file"]
        })),
        returns: Some(json!({"type": "object", "properties": {"ok": {"type": "boolean"}}})),
    };
    let out = toolsmith_codegen::skill::skill(&skill);
    assert!(out.issues.is_empty(), "{:?}", out.issues);
    let code = toolsmith_codegen::format(out.tokens);
    let file = syn::parse_file(&code).expect("valid Rust");
    let names: Vec<String> = file
        .items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Const(c) => Some(c.ident.to_string()),
            syn::Item::Struct(s) => Some(s.ident.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(
        names,
        [
            "NAME",
            "DESCRIPTION",
            "ALLOWED_TOOLS",
            "BODY",
            "Params",
            "Returns"
        ]
    );
    assert!(code.contains("pub page_count: __ts::Option<u64>"), "{code}");
    assert!(code.contains(r#"&["Read", "Bash(pdftk:*)"]"#), "{code}");
}

#[test]
fn collisions_are_reported_with_both_names() {
    let mut manifest = kitchen_sink();
    manifest.tools[1].name = "notesmd-cli-search".into();
    manifest.tools[2].parameters = json!({
        "type": "object",
        "properties": {"cityName": {"type": "string"}, "city_name": {"type": "string"},
                       "unit": {"enum": ["a-b", "a_b"]}}
    });
    let out = toolsmith_codegen::tools::tools(&manifest, &[]);
    let errors: Vec<&str> = out
        .issues
        .iter()
        .filter(|i| i.rule.id == "codegen/name-collision")
        .map(|i| i.message.as_str())
        .collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[0].contains("`notesmd_cli_search` and `notesmd-cli-search`"));
    assert!(errors[1].contains("`cityName` and `city_name`"));
    assert!(errors[2].contains("`a-b` and `a_b`"));
}

//! The model `check_legacy` / `check_split` hand to the code generator and the
//! runtime, read back through `lint::load` from the valid chai fixtures.

use std::path::{Path, PathBuf};
use toolsmith_manifest::lint::{Options, load};
use toolsmith_manifest::model::{ArgKind, Dialect, Execution, ResolveCommand};

fn fixture(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/chai/valid")
        .join(case)
}

#[test]
fn legacy_model_keeps_every_kind_and_resolver() {
    let dir = fixture("legacy-all-kinds");
    let loaded = load(&dir.join("tools.json"), "tools.json", &Options::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let m = loaded.manifest;
    assert_eq!(m.dialect, Dialect::ChaiLegacy);
    assert_eq!(
        m.allowlist["notes-cli"],
        ["create", "print", "resolve-date"]
    );
    let names: Vec<&str> = m.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["daily_update", "daily_read"]);
    let Execution::Chai(update) = &m.tools[0].execution else {
        panic!("not a chai execution");
    };
    assert_eq!(
        (update.binary.as_str(), update.subcommand.as_str()),
        ("notes-cli", "create")
    );
    assert_eq!(update.skill_dir, dir);
    let kinds: Vec<ArgKind> = update.args.iter().map(|a| a.kind).collect();
    assert_eq!(
        kinds,
        [
            ArgKind::Positional,
            ArgKind::Flag,
            ArgKind::FlagIfBoolean,
            ArgKind::Flag
        ]
    );
    assert_eq!(
        update.args[0].resolve_command,
        Some(ResolveCommand::Script {
            script: "resolve-daily-path".into(),
            args: vec!["$param".into()]
        })
    );
    assert!(update.args[1].normalize_newlines);
    assert_eq!(update.args[1].flag.as_deref(), Some("content"));
    assert_eq!(update.args[2].flag_if_true.as_deref(), Some("--overwrite"));
    assert_eq!(update.args[2].flag_if_false.as_deref(), Some("--append"));
    assert_eq!(update.args[3].flag, None);
    let Execution::Chai(read) = &m.tools[1].execution else {
        panic!("not a chai execution");
    };
    assert_eq!(
        read.args[0].resolve_command,
        Some(ResolveCommand::Command {
            binary: "notes-cli".into(),
            subcommand: "resolve-date".into(),
            args: vec!["--date=$param".into()]
        })
    );
    assert_eq!(m.tools[1].parameters["required"][0], "date");
}

#[test]
fn split_model_reads_three_files() {
    let dir = fixture("split-modelled");
    let loaded =
        load(&dir, "split-modelled", &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(loaded.warnings.0.is_empty(), "{}", loaded.warnings);
    let m = loaded.manifest;
    assert_eq!(m.dialect, Dialect::ChaiSplit);
    assert_eq!(m.path, dir.join("tools.json"));
    assert_eq!(m.inputs.len(), 3);
    assert_eq!(m.allowlist["git"], ["branch -d", "rev-parse"]);
    let Some(Execution::Chai(delete)) = m.tools.first().map(|t| &t.execution) else {
        panic!("no tool in the model");
    };
    assert_eq!(delete.subcommand, "branch -d");
    // v0.5 strips the dashes of `flag` (and formats one letter as `-r`).
    assert_eq!(delete.args[1].flag.as_deref(), Some("r"));
    assert_eq!(
        delete.args[2].resolve_command,
        Some(ResolveCommand::Command {
            binary: "git".into(),
            subcommand: "rev-parse".into(),
            args: vec!["--abbrev-ref".into(), "$param".into()]
        })
    );
}

#[test]
fn split_model_leaves_out_what_it_cannot_express() {
    let dir = fixture("split-basic");
    let loaded = load(&dir, "split-basic", &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    // files_read has paramCondition alternatives, readPath and absentDefault;
    // files_write uses `binaryWrapper`, `stdin` and `literal`.
    assert!(loaded.manifest.tools.is_empty());
    let rules: Vec<&str> = loaded.warnings.iter().map(|d| d.rule).collect();
    assert_eq!(rules, ["chai/unsupported-feature"; 4]);
    assert!(
        loaded.warnings.0[3]
            .message
            .contains("field `binaryWrapper`")
    );
}

#[test]
fn tools_without_parameters_get_an_empty_object_schema() {
    let loaded = load(
        &fixture("legacy-warnings").join("tools.json"),
        "tools.json",
        &Options::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let list = loaded.manifest.tools.iter().find(|t| t.name == "list");
    assert_eq!(
        list.map(|t| t.parameters.clone()),
        Some(serde_json::json!({"type": "object", "properties": {}}))
    );
    // The legacy flag is kept as written: chai prepends `--` to it (U4).
    let Some(Execution::Chai(search)) = loaded.manifest.tools.first().map(|t| &t.execution) else {
        panic!("no search tool");
    };
    assert_eq!(search.args[1].flag.as_deref(), Some("--content"));
}

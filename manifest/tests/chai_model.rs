//! The model `check_legacy` / `check_split` hand to the code generator and the
//! runtime, read back through `lint::load` from the valid chai fixtures.

use std::path::{Path, PathBuf};
use toolsmith_manifest::lint::{Options, load};
use toolsmith_manifest::model::{
    ArgKind, ChaiExecution, ChaiVersion, Dialect, Execution, HintExitCode, ParamCondition,
    ResolveCommand, select_spec,
};

/// The single chai spec of a tool.
fn only(execution: &Execution) -> &ChaiExecution {
    match execution {
        Execution::Chai(specs) if specs.len() == 1 => &specs[0],
        other => panic!("expected one chai spec, got {other:?}"),
    }
}

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
    let update = only(&m.tools[0].execution);
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
    let read = only(&m.tools[1].execution);
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
    let delete = only(&m.tools[0].execution);
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
fn split_model_carries_every_v05_kind_and_field() {
    let dir = fixture("split-basic");
    let loaded = load(&dir, "split-basic", &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = loaded
        .manifest
        .tools
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(names, ["files_read", "files_write"]);
    let Execution::Chai(read) = &loaded.manifest.tools[0].execution else {
        panic!("not chai");
    };
    // Three specs, chosen per call by `paramCondition`.
    assert_eq!(read.len(), 3);
    let first = &read[0];
    assert_eq!(first.version, ChaiVersion::V05);
    assert_eq!(first.pointer, "/0");
    assert_eq!(first.subcommand_tokens(), ["file", "read-lines"]);
    assert!(first.args[0].read_path && first.args[0].is_path());
    assert_eq!(first.args[1].absent_default, Some(serde_json::json!(1)));
    assert!(first.args[1].optional);
    assert_eq!(first.success_exit_codes, [0, 1]);
    assert_eq!(first.max_output_lines, Some(500));
    assert_eq!(
        first.truncation_hint.as_deref(),
        Some("showing {kept} of {total} lines")
    );
    assert_eq!(first.hint_conditions[0].hint, "file not found");
    assert_eq!(
        first.hint_conditions[0].exit_code,
        Some(HintExitCode::Text("nonzero".into()))
    );
    let post = first.post_process.as_ref().expect("postProcess");
    assert!(post.empty_is_result);
    assert_eq!(
        read[1].param_condition,
        Some(ParamCondition {
            present: vec![],
            absent: vec!["start_line".into()]
        })
    );
    let args = serde_json::json!({"path": "a.md", "start_line": 3});
    let chosen = select_spec("files_read", read, args.as_object().expect("object"));
    assert_eq!(chosen.map(|s| s.pointer.as_str()), Ok("/2"));
    let Execution::Chai(write) = &loaded.manifest.tools[1].execution else {
        panic!("not chai");
    };
    assert_eq!(write[0].binary_wrapper, ["nice", "-n", "10"]);
    let kinds: Vec<ArgKind> = write[0].args.iter().map(|a| a.kind).collect();
    assert_eq!(kinds, [ArgKind::Flag, ArgKind::Stdin, ArgKind::Literal]);
    assert_eq!(write[0].args[2].value.as_deref(), Some("--create"));
    assert!(
        !loaded
            .warnings
            .iter()
            .any(|d| d.rule == "chai/unsupported-feature")
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
    let search = only(&loaded.manifest.tools[0].execution);
    assert_eq!(search.args[1].flag.as_deref(), Some("--content"));
}

#[test]
fn single_file_with_v05_keys_is_v05_and_carries_the_bin_groups() {
    let dir = fixture("v05-bin-groups");
    let loaded = load(&dir.join("tools.json"), "tools.json", &Options::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        loaded
            .warnings
            .iter()
            .any(|d| d.rule == "chai/deprecated-single-file" && d.dialect == Some("chai-v0.5")),
        "{}",
        loaded.warnings
    );
    let m = loaded.manifest;
    assert_eq!(m.dialect, Dialect::ChaiLegacy);
    let Execution::Chai(specs) = &m.tools[0].execution else {
        panic!("a chai tool");
    };
    assert_eq!(specs.len(), 2);
    let groups = vec![vec!["cargo".to_string()], vec!["nix".to_string()]];
    for (i, spec) in specs.iter().enumerate() {
        assert_eq!(spec.version, ChaiVersion::V05);
        assert_eq!(spec.bin_group, Some(i as u64));
        assert_eq!(spec.bin_groups, groups);
    }
    assert_eq!(specs[1].args[0].kind, ArgKind::Literal);
    assert_eq!(
        specs[1].args[0].value.as_deref(),
        Some("--print-build-logs")
    );
}

#[test]
fn forced_legacy_reads_v05_keys_as_errors() {
    let dir = fixture("v05-bin-groups");
    let options = Options {
        chai_version: Some(ChaiVersion::Legacy),
        ..Options::default()
    };
    let errors = load(&dir.join("tools.json"), "tools.json", &options)
        .expect_err("legacy chai rejects `condition`")
        .diagnostics;
    assert!(
        errors
            .iter()
            .all(|d| d.dialect == Some("chai-legacy") || !d.file.ends_with("tools.json")),
        "{errors}"
    );
    assert!(
        errors.iter().any(|d| d.rule == "chai/unknown-field"),
        "{errors}"
    );
}

//! Whole-file lint of the JSON dialects through `toolsmith_manifest::lint`
//! (the entry `toolsmith lint` uses) and `lint::load` (what `gen`, `run` and
//! `Runtime::load` use): chai legacy and agentcli `tools.json` (detected or
//! forced, either chai version), `*.tools.json`, a describe file, and chai's
//! three-file layout (the input split at NUL bytes into `tools.json`,
//! `allowlist.json`, `execution.json`).
//!
//! The first byte chooses the case. Invariants: the report's diagnostics hold
//! `check_diagnostics`, and `load` succeeds only when lint found no error (an MCP tool list, which runs on its server, is refused: `mcp/runs-on-server`)
//! and one manifest (its warnings are lint's).
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolsmith_fuzz::{check_diagnostics, lint_checked, parts, scratch, write_files};
use toolsmith_manifest::lint::{self, DialectChoice, Input, Options};
use toolsmith_manifest::model::ChaiVersion;
use toolsmith_manifest::rules::Severity;

const NAMES: &[&str] = &[
    "tools.json",
    "web.tools.json",
    "get_weather.describe.json",
    "allowlist.json",
    "execution.json",
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let case = selector % 8;
    let dir = scratch("lint_json").join(format!("case{case}"));
    let mut options = Options::default();
    options.chai_version = match (selector >> 3) % 3 {
        0 => None,
        1 => Some(ChaiVersion::Legacy),
        _ => Some(ChaiVersion::V05),
    };
    let name = match case {
        0 => "tools.json",
        1 => "web.tools.json",
        2 => {
            options.dialect = Some(DialectChoice::Chai);
            "tools.json"
        }
        3 => {
            options.dialect = Some(DialectChoice::Agentcli);
            "tools.json"
        }
        4 | 5 => "get_weather.describe.json",
        _ => "tools.json",
    };
    if case >= 6 {
        let p = parts(body, 3);
        let mut files: Vec<(&str, &[u8])> = vec![("tools.json", p[0])];
        if let Some(allow) = p.get(1) {
            files.push(("allowlist.json", allow));
        }
        if let Some(exec) = p.get(2) {
            files.push(("execution.json", exec));
        }
        write_files(&dir, NAMES, &files);
    } else {
        write_files(&dir, NAMES, &[(name, body)]);
    }
    if case == 5 {
        options.dialect = Some(DialectChoice::Describe);
    }
    let path = dir.join(name);
    let report_diags = lint_checked(&[Input::new(&path)], &options, &dir);
    let errors = report_diags.iter().any(|d| d.severity == Severity::Error);

    if options.dialect.is_none() && options.chai_version.is_none() {
        let display = path.display().to_string();
        match lint::load(&path, &display, &options) {
            Ok(loaded) => {
                assert!(!errors, "load succeeded where lint found errors");
                check_diagnostics(&loaded.warnings.0, &dir);
                assert!(
                    loaded
                        .warnings
                        .0
                        .iter()
                        .all(|d| d.severity != Severity::Error)
                );
            }
            Err(failure) => {
                assert!(
                    failure.diagnostics.has_errors(),
                    "a failed load names an error"
                );
                check_diagnostics(&failure.diagnostics.0, &dir);
            }
        }
    }
});

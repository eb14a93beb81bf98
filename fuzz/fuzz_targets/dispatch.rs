//! The run-time dispatch path up to the spawn: `Runtime::load` of fixture
//! manifests (chai legacy and v0.5 split, agentcli, describe), then
//! `Runtime::plan_dispatch` with the tool name and arguments JSON as a model
//! writes them (parse, schema validation, chai's undeclared-key rule, spec
//! selection, sandbox, allowlist; resolvers shown, never run). Nothing is
//! spawned.
//!
//! Input: a selector byte (manifest, tool, leading-dash policy, free tool
//! name), then the arguments — or `name NUL arguments` with a free name.
//!
//! Invariants: a plan only for a call that `validate_call` accepts;
//! `check_argv` and `check_plan` on the plan; agentcli: argv is the
//! manifest's command and stdin the arguments as written; describe: argv is
//! the program and one JSON argument equal to the validated arguments.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use toolsmith::{Policy, Runtime, Sandbox};
use toolsmith_fuzz::{
    check_argv, check_plan, leading_dash, manifest_tokens, model_strings, sandbox_root,
};

/// Manifests under the repository root, and whether they are agentcli or describe.
const MANIFESTS: &[(&str, Kind)] = &[
    ("fixtures/examples/coreutils-skill/tools.json", Kind::Chai),
    ("fixtures/examples/notes-skill", Kind::Chai),
    (
        "fixtures/chai/valid/legacy-all-kinds/tools.json",
        Kind::Chai,
    ),
    ("fixtures/chai/valid/split-basic", Kind::Chai),
    ("fixtures/agentcli/valid/basic/tools.json", Kind::Agentcli),
    (
        "fixtures/examples/describe-tools/get_weather.describe.json",
        Kind::Describe,
    ),
];

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Chai,
    Agentcli,
    Describe,
}

struct Loaded {
    /// One runtime per manifest and leading-dash policy.
    runtimes: Vec<[Runtime; 2]>,
    names: Vec<Vec<String>>,
    tokens: HashSet<String>,
    root: PathBuf,
}

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn loaded() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(|| {
        let root = sandbox_root("dispatch");
        let mut texts = Vec::new();
        let mut runtimes = Vec::new();
        let mut names = Vec::new();
        for (path, _) in MANIFESTS {
            let path = repo().join(path);
            let files: Vec<PathBuf> = if path.is_dir() {
                ["tools.json", "allowlist.json", "execution.json"]
                    .iter()
                    .map(|n| path.join(n))
                    .collect()
            } else {
                vec![path.clone()]
            };
            for f in files {
                texts.push(std::fs::read_to_string(f).unwrap_or_default());
            }
            let make = |marker: bool| {
                let mut policy = Policy {
                    sandbox: Sandbox::new([&root]).expect("sandbox"),
                    ..Policy::default()
                };
                policy.leading_dash = leading_dash(marker).0;
                Runtime::load(&path, policy).expect("fixture manifests load")
            };
            let pair = [make(false), make(true)];
            let mut tools: Vec<String> = pair[0].tool_names().map(str::to_owned).collect();
            tools.sort();
            names.push(tools);
            runtimes.push(pair);
        }
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        Loaded {
            tokens: manifest_tokens(&texts),
            runtimes,
            names,
            root,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let Ok(rest) = std::str::from_utf8(body) else {
        return;
    };
    let l = loaded();
    let which = usize::from(selector) % MANIFESTS.len();
    let marker = selector & 0x80 != 0;
    let free = selector & 0x40 != 0;
    let runtime = &l.runtimes[which][usize::from(marker)];
    let names = &l.names[which];
    let (name, arguments) = if free {
        let mut it = rest.splitn(2, '\0');
        (it.next().unwrap_or("").to_owned(), it.next().unwrap_or(""))
    } else {
        let index = usize::from(selector / 8) % names.len();
        (names[index].clone(), rest)
    };
    let validated = runtime.validate_call(&name, arguments);
    let Ok(plan) = runtime.plan_dispatch(&name, arguments, false) else {
        return;
    };
    let value = validated.expect("a planned call passed validation");
    assert_eq!(plan.tool, name);
    let model = model_strings(&value);
    check_argv(&plan.argv, &model, &l.tokens, leading_dash(marker).1);
    check_plan(&plan, Some(&l.root));
    match MANIFESTS[which].1 {
        Kind::Chai => {}
        Kind::Agentcli => {
            assert!(
                plan.argv
                    .iter()
                    .all(|a| l.tokens.contains(a.to_string_lossy().as_ref())),
                "agentcli argv holds more than the manifest's command: {:?}",
                plan.argv
            );
            let stdin = plan.stdin.as_deref().expect("agentcli stdin");
            let expected = if arguments.trim().is_empty() {
                "{}"
            } else {
                arguments
            };
            assert_eq!(stdin, expected.as_bytes());
        }
        Kind::Describe => {
            assert_eq!(plan.argv.len(), 2, "{:?}", plan.argv);
            let json = plan.argv[1].to_string_lossy();
            assert!(!json.starts_with('-'));
            let back: serde_json::Value =
                serde_json::from_str(&json).expect("describe argument is JSON");
            assert_eq!(back, value);
        }
    }
});

//! The generated-code path of a model's call: `ToolCall::parse` (schema
//! validation, typed deserialization), the invocation and argv the typed
//! value builds, and `Runtime::plan_with` (program, sandbox, deny patterns,
//! allowlist; resolvers shown, never run). Nothing is spawned.
//!
//! The code is what `tools!` generates for fixture manifests
//! (`fixtures/examples`: chai legacy, chai v0.5 split with sandboxed paths,
//! a describe file) and the codegen golden file `kitchen_sink.rs` (every
//! mapping kind). Input: a selector byte (module, tool, leading-dash
//! policy, free tool name), then the arguments JSON — or `name NUL
//! arguments` with a free name.
//!
//! Invariants: `check_argv` on the typed argv and on the plan's argv;
//! `check_plan`; a parsed call's arguments re-parse to the same call.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::OnceLock;
use toolsmith::tool::chai::chai_argv;
use toolsmith::{Runtime, Sandbox};
use toolsmith_fuzz::{
    check_argv, check_plan, leading_dash, manifest_tokens, model_strings, sandbox_root,
};

mod coreutils {
    toolsmith::tools!("../fixtures/examples/coreutils-skill/tools.json");
}
mod notes {
    toolsmith::tools!("../fixtures/examples/notes-skill/tools.json");
}
mod weather {
    toolsmith::tools!("../fixtures/examples/describe-tools/get_weather.describe.json");
}
#[allow(dead_code, clippy::all)]
mod sink {
    include!("../../codegen/tests/data/kitchen_sink.rs");
}

const SOURCES: &[&str] = &[
    include_str!("../../fixtures/examples/coreutils-skill/tools.json"),
    include_str!("../../fixtures/examples/notes-skill/tools.json"),
    include_str!("../../fixtures/examples/notes-skill/execution.json"),
    include_str!("../../fixtures/examples/notes-skill/allowlist.json"),
    include_str!("../../codegen/tests/data/kitchen_sink.rs"),
];

struct Fixed {
    tokens: HashSet<String>,
    root: PathBuf,
}

fn fixed() -> &'static Fixed {
    static FIXED: OnceLock<Fixed> = OnceLock::new();
    FIXED.get_or_init(|| Fixed {
        tokens: manifest_tokens(SOURCES),
        root: sandbox_root("toolcall"),
    })
}

macro_rules! names {
    ($m:ident) => {
        $m::definitions()
            .as_array()
            .map(|tools| {
                tools
                    .iter()
                    .filter_map(|t| t["function"]["name"].as_str().map(str::to_owned))
                    .collect::<Vec<String>>()
            })
            .unwrap_or_default()
    };
}

macro_rules! exercise {
    ($m:ident, $sel:expr, $free:expr, $rest:expr, $marker:expr) => {{
        let names = names!($m);
        let (name, arguments) = if $free {
            let mut it = $rest.splitn(2, '\0');
            (it.next().unwrap_or("").to_owned(), it.next().unwrap_or(""))
        } else {
            (names[$sel % names.len()].clone(), $rest)
        };
        let Ok(call) = $m::ToolCall::parse(&name, arguments) else {
            return;
        };
        assert_eq!(call.name(), name);
        let value = call.arguments();
        let again = $m::ToolCall::parse(&name, &value.to_string())
            .expect("a parsed call's own arguments parse");
        assert_eq!(again, call, "arguments do not round-trip");
        let (dash, marker) = leading_dash($marker);
        let f = fixed();
        let mut policy = $m::policy();
        policy.leading_dash = dash;
        policy.sandbox = Sandbox::new([&f.root]).expect("sandbox");
        let model = model_strings(&value);
        if let Ok(inv) = call.invocation() {
            check_argv(&inv.argv(), &model, &f.tokens, None);
            if inv.chai.is_some() {
                if let Ok(argv) = chai_argv(&inv) {
                    check_argv(&argv, &model, &f.tokens, None);
                }
            }
        }
        let runtime = Runtime::new(policy).with_root(&f.root);
        if let Ok(plan) = runtime.plan_with(&call, false) {
            check_argv(&plan.argv, &model, &f.tokens, marker);
            check_plan(&plan, Some(&f.root));
        }
    }};
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let Ok(rest) = std::str::from_utf8(body) else {
        return;
    };
    let free = selector & 0x80 != 0;
    let marker = selector & 0x40 != 0;
    let tool = usize::from((selector >> 2) & 0x0f);
    match selector % 4 {
        0 => exercise!(coreutils, tool, free, rest, marker),
        1 => exercise!(notes, tool, free, rest, marker),
        2 => exercise!(weather, tool, free, rest, marker),
        _ => exercise!(sink, tool, free, rest, marker),
    }
});

//! Provider formats in generated code and strict-mode arguments at run time:
//! `definitions_for` is what `toolsmith export` prints (the export goldens of
//! `fixtures/provider/export/`), `tools!(…, providers = [...])` compiles
//! where the providers accept the tools, and `Runtime::dispatch` reads the
//! `null`s a strict-mode model sends for omitted optional arguments as
//! absent (real processes).

use serde_json::{Value, json};
use std::path::Path;
use toolsmith::{CallError, Policy, Provider, Refusal, Runtime, Status};

mod typical {
    // Every provider but Gemini accepts these tools as exported (Ollama's
    // dropped keywords are warnings), so this compiles.
    toolsmith::tools!(
        "../fixtures/provider/export/typical/tools.describe.json",
        providers = [
            openai,
            openai_strict,
            anthropic,
            anthropic_strict,
            ollama,
            mcp
        ]
    );
}

mod refused {
    toolsmith::tools!("../fixtures/provider/export/refused/tools.describe.json");
}

fn golden(case: &str, provider: Provider) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/provider/export")
        .join(case)
        .join("expected")
        .join(format!("{}.json", provider.name()));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap()
}

#[test]
fn definitions_for_is_the_export_of_every_format() {
    type Fns = (
        fn(Provider) -> Value,
        fn(Provider) -> &'static [&'static str],
    );
    let cases: [(&str, Fns); 2] = [
        (
            "typical",
            (typical::definitions_for, typical::refused_tools),
        ),
        (
            "refused",
            (refused::definitions_for, refused::refused_tools),
        ),
    ];
    for (case, (definitions_for, refused_tools)) in cases {
        for provider in Provider::ALL {
            let expected = golden(case, provider);
            assert_eq!(
                definitions_for(provider),
                expected["fragment"],
                "{case} {provider}"
            );
            assert_eq!(
                refused_tools(provider).len() as u64,
                expected["counts"]["refused"].as_u64().unwrap(),
                "{case} {provider}: {:?}",
                refused_tools(provider)
            );
        }
    }
    // Gemini refuses `set_target` of the refused case: it is named, not lost.
    assert_eq!(refused::refused_tools(Provider::Gemini), ["set_target"]);
}

/// A chai skill (three files) whose tool echoes its argv, and an agentcli
/// tool that prints the JSON it is given on stdin.
fn runtime(dir: &Path) -> Runtime {
    let skill = dir.join("skill");
    std::fs::create_dir_all(&skill).unwrap();
    let write = |name: &str, v: Value| {
        std::fs::write(skill.join(name), serde_json::to_string_pretty(&v).unwrap()).unwrap();
    };
    write(
        "tools.json",
        json!([{"name": "say", "description": "Echo.", "parameters": {
            "type": "object",
            "properties": {
                "text": {"type": "string"},
                "count": {"type": "integer"},
                "loud": {"type": "boolean"},
                "mode": {"type": "string", "enum": ["a", "b"], "default": "a"}
            },
            "required": ["text"]
        }}]),
    );
    write("allowlist.json", json!({"echo": [""]}));
    write(
        "execution.json",
        json!([{"tool": "say", "binary": "echo", "subcommand": "", "args": [
            {"param": "text", "kind": "positional"},
            {"param": "count", "kind": "flag"},
            {"param": "loud", "kind": "flagifboolean", "flagIfTrue": "--loud", "flagIfFalse": "--quiet"},
            {"param": "mode", "kind": "flag"}
        ]}]),
    );
    Runtime::load(&skill, Policy::default())
        .unwrap_or_else(|e| panic!("load failed: {:#?}", e.diagnostics))
}

#[test]
fn dispatch_reads_strict_nulls_as_omitted_arguments() {
    let tmp = tempfile::tempdir().unwrap();
    let rt = runtime(tmp.path());
    let run = |args: Value| {
        let o = rt.dispatch("say", &args.to_string()).unwrap();
        assert_eq!(o.status, Status::Success, "{o:?}");
        o.stdout
    };
    let omitted = run(json!({"text": "hi"}));
    assert_eq!(omitted, "hi --quiet\n");
    // What a strict-mode model sends: every property, null where it has no value.
    let strict = run(json!({"text": "hi", "count": null, "loud": null, "mode": null}));
    assert_eq!(strict, omitted);
    assert_eq!(
        run(json!({"text": "hi", "count": 2, "loud": true, "mode": null})),
        run(json!({"text": "hi", "count": 2, "loud": true}))
    );
    assert_eq!(
        run(json!({"text": "hi", "count": null, "loud": null, "mode": "b"})),
        "hi --quiet --mode b\n"
    );
    // A null for the required `text` is refused, as before.
    let refusal = rt
        .dispatch("say", &json!({"text": null, "count": null}).to_string())
        .unwrap_err();
    let Refusal::Call(CallError::InvalidArguments { violations, .. }) = refusal else {
        panic!("{refusal:?}")
    };
    let pointers: Vec<&str> = violations.iter().map(|v| v.pointer.as_str()).collect();
    assert_eq!(pointers, ["/text"], "{violations:?}");
}

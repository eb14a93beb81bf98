//! Runs the code that the generator writes for a hand-built manifest
//! (`codegen/tests/data/kitchen_sink.rs`, kept up to date by codegen's golden
//! test): argv for every mapping kind and edge, invocations of the three
//! dialects, call parsing and the provider definitions.

// Generated code must not warn in the user's crate.
#[deny(warnings)]
mod sink {
    include!("../../codegen/tests/data/kitchen_sink.rs");
}

use serde_json::json;
use sink::*;
use toolsmith::{ArgvError, CallError, Tool};

fn search() -> NotesmdCliSearchArgs {
    NotesmdCliSearchArgs {
        query: "todo".into(),
        limit: None,
        offset: None,
        vault: None,
        overwrite: None,
        text: "a".into(),
        mode: None,
        date: None,
        score: None,
        tags: None,
        recursive: false,
    }
}

#[test]
fn argv_minimal_call_follows_the_execution_order() {
    // Missing optional flags are left out; a missing flagifboolean gives flagIfFalse.
    assert_eq!(
        search().argv().unwrap(),
        [
            "notesmd-cli",
            "search",
            "todo",
            "a",
            "--append",
            "--no-color"
        ]
    );
}

#[test]
fn argv_every_flag() {
    let args = NotesmdCliSearchArgs {
        limit: Some(5),
        offset: Some(-2),
        vault: Some("work".into()),
        overwrite: Some(true),
        mode: Some(NotesmdCliSearchArgsMode::DeepScan),
        date: Some("today".into()),
        score: Some(2.5),
        recursive: true,
        ..search()
    };
    assert_eq!(
        args.argv().unwrap(),
        [
            "notesmd-cli",
            "search",
            "todo",
            "a",
            "--limit",
            "5",
            "--offset",
            "-2",
            "--vault-name",
            "work",
            "--overwrite",
            "--mode",
            "deep-scan",
            "--date",
            "$(sh scripts/resolve-date today)",
            "--score",
            "2.5",
            "-r",
            "--no-color"
        ]
    );
}

#[test]
fn argv_false_boolean_gives_flag_if_false() {
    let args = NotesmdCliSearchArgs {
        overwrite: Some(false),
        ..search()
    };
    assert_eq!(
        args.argv().unwrap(),
        [
            "notesmd-cli",
            "search",
            "todo",
            "a",
            "--append",
            "--no-color"
        ]
    );
}

#[test]
fn argv_normalizes_newlines_only_where_asked() {
    let args = NotesmdCliSearchArgs {
        query: r"x\ny".into(),
        text: r"line1\nline2\tend".into(),
        ..search()
    };
    let argv = args.argv().unwrap();
    assert_eq!(argv[2], r"x\ny");
    assert_eq!(argv[3], "line1\nline2\tend");
}

#[test]
fn argv_refuses_leading_dash_nul_and_huge_values() {
    let dash = NotesmdCliSearchArgs {
        query: "--exec=rm".into(),
        ..search()
    };
    assert_eq!(
        dash.argv(),
        Err(ArgvError::LeadingDash {
            param: "query".into(),
            value: "--exec=rm".into()
        })
    );
    let nul = NotesmdCliSearchArgs {
        vault: Some("a\0b".into()),
        ..search()
    };
    assert_eq!(
        nul.argv(),
        Err(ArgvError::NulByte {
            param: "vault".into()
        })
    );
    let huge = NotesmdCliSearchArgs {
        text: "x".repeat(toolsmith::tool::MAX_ARG_BYTES + 1),
        ..search()
    };
    assert!(matches!(huge.argv(), Err(ArgvError::TooLong { .. })));
    let array = NotesmdCliSearchArgs {
        tags: Some(vec!["a".into()]),
        ..search()
    };
    assert_eq!(
        array.argv(),
        Err(ArgvError::NotScalar {
            param: "tags".into()
        })
    );
}

#[test]
fn chai_invocation_carries_the_spec_and_the_arguments() {
    let args = NotesmdCliSearchArgs {
        date: Some("today".into()),
        ..search()
    };
    let inv = args.invocation().unwrap();
    assert_eq!(inv.tool, "notesmd_cli_search");
    assert_eq!(inv.program, "notesmd-cli");
    assert_eq!(inv.stdin, None);
    let chai = inv.chai.expect("a chai call");
    assert_eq!(chai.specs.len(), 1);
    assert_eq!(chai.specs[0].subcommand, "search");
    assert_eq!(chai.arguments["date"], "today");
    // The runtime builds the command from it; resolvers run there.
    assert!(
        chai.specs[0]
            .args
            .iter()
            .any(|m| m.resolve_command.is_some())
    );
}

#[test]
fn agentcli_and_describe_invocations() {
    let w = GetWeatherArgs {
        city: "Oslo".into(),
    };
    assert_eq!(w.argv().unwrap(), ["./tools/bin/get_weather", "--json"]);
    let inv = w.invocation().unwrap();
    assert_eq!(inv.program, "./tools/bin/get_weather");
    assert_eq!(inv.manifest_dir, None);
    assert_eq!(inv.args, ["--json"]);
    assert_eq!(inv.stdin.as_deref(), Some(br#"{"city":"Oslo"}"#.as_slice()));
    assert_eq!(inv.env_passthrough, ["TZ"]);
    assert_eq!(inv.timeout, Some(std::time::Duration::from_secs(7)));
    let d = DiskUsageArgs {
        path: Some("/tmp".into()),
    };
    assert_eq!(
        d.argv().unwrap(),
        ["./tools/disk_usage.sh", r#"{"path":"/tmp"}"#]
    );
    let d = DiskUsageArgs { path: None };
    assert_eq!(d.argv().unwrap(), ["./tools/disk_usage.sh", "{}"]);
}

#[test]
fn types_follow_the_schema() {
    let call = ToolCall::parse(
        "shapes-tool",
        r#"{"type":"circle","dryRun":true,"filter":{"field":"f","op":"ne"},"point":{"x":1,"y":2.5},
            "labels":{"a":1},"extra":{"k":[1]},"anything":[null],"maybe":null,"choice":3}"#,
    )
    .unwrap();
    let ToolCall::ShapesTool(args) = &call else {
        panic!("wrong variant: {call:?}")
    };
    assert_eq!(args.type_, "circle");
    assert_eq!(args.dry_run, Some(true));
    assert_eq!(
        args.filter.as_ref().unwrap().op,
        Some(ShapesToolArgsFilterOp::Ne)
    );
    assert_eq!(args.point.as_ref().unwrap().y, 2.5);
    assert_eq!(args.maybe, None);
    assert_eq!(args.size, 10, "schema default");
    assert_eq!(args.unit, ShapesToolArgsUnit::Cm, "schema default");
    assert_eq!(call.name(), "shapes-tool");
    assert_eq!(args.argv().unwrap(), ["shapes", "draw", "circle"]);
    assert_eq!(
        "cm".parse::<ShapesToolArgsUnit>(),
        Ok(ShapesToolArgsUnit::Cm)
    );
    assert_eq!(ShapesToolArgsUnit::In.to_string(), "in");
    assert!("mm".parse::<ShapesToolArgsUnit>().is_err());
}

#[test]
fn parse_refuses_unknown_tools_and_lists_every_violation() {
    assert_eq!(
        ToolCall::parse("rm_rf", "{}"),
        Err(CallError::UnknownTool("rm_rf".into()))
    );
    let err = ToolCall::parse(
        "shapes-tool",
        r#"{"type":1,"filter":{"op":"gt"},"bogus":true,"maybe":"x"}"#,
    )
    .unwrap_err();
    let CallError::InvalidArguments { tool, violations } = err else {
        panic!("{err:?}")
    };
    assert_eq!(tool, "shapes-tool");
    let pointers: Vec<&str> = violations.iter().map(|v| v.pointer.as_str()).collect();
    for expected in ["/type", "/filter", "/filter/op", ""] {
        assert!(
            pointers.contains(&expected),
            "{expected:?} not in {violations:?}"
        );
    }
    assert!(matches!(
        ToolCall::parse("get_weather", "{nope"),
        Err(CallError::InvalidJson { .. })
    ));
}

/// A chai tool refuses a key its `properties` do not declare, whatever
/// `additionalProperties` says (as chai and `Runtime::dispatch` do); other
/// dialects follow the schema alone.
#[test]
fn parse_refuses_undeclared_keys_of_chai_tools_as_dispatch_does() {
    let err = ToolCall::parse(
        "notesmd_cli_search",
        r#"{"query":"q","text":"t","bogus":1,"a/b":2}"#,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "tool notesmd_cli_search: invalid arguments: at /bogus: undeclared parameter 'bogus' (not in schema); \
         at /a~1b: undeclared parameter 'a/b' (not in schema)"
    );
    assert!(ToolCall::parse("get_weather", r#"{"city":"Oslo","units":"metric"}"#).is_ok());
}

#[test]
fn round_trip_keeps_the_instance() {
    let instance = json!({"query": "q", "text": "t", "limit": 3, "mode": "2pass", "tags": ["x"], "recursive": false});
    let call = ToolCall::parse("notesmd_cli_search", &instance.to_string()).unwrap();
    assert_eq!(call.arguments(), instance);
    let call: ToolCall = GetWeatherArgs { city: "x".into() }.into();
    assert_eq!(call.arguments(), json!({"city": "x"}));
    assert_eq!(call.invocation().unwrap().tool, "get_weather");
}

#[test]
fn definitions_are_openai_function_tools() {
    let defs = definitions();
    let defs = defs.as_array().unwrap();
    assert_eq!(defs.len(), 4);
    assert_eq!(defs[0]["type"], "function");
    assert_eq!(defs[0]["function"]["name"], "notesmd_cli_search");
    assert_eq!(
        defs[0]["function"]["description"],
        "Search notes.\nReturns matching lines."
    );
    assert!(defs[1]["function"].get("description").is_none());
    assert_eq!(
        &defs[2]["function"]["parameters"],
        GetWeatherArgs::parameters()
    );
    assert_eq!(NotesmdCliSearchArgs::NAME, "notesmd_cli_search");
}

#[path = "support/round_trip.rs"]
mod round_trip;

#[test]
fn round_trip_of_synthesized_instances() {
    let checked = round_trip::check(&definitions(), |name, args| {
        ToolCall::parse(name, args).map(|c| c.arguments())
    });
    assert!(checked >= 8, "only {checked} instances checked");
}

/// The names of the tools of a provider fragment (`{"tools": [...]}`, and
/// Gemini's `functionDeclarations`).
fn fragment_names(fragment: &serde_json::Value) -> Vec<String> {
    let tools = fragment["tools"].as_array().expect("tools");
    let entries: Vec<&serde_json::Value> = match tools.first() {
        Some(t) if t.get("functionDeclarations").is_some() => t["functionDeclarations"]
            .as_array()
            .expect("declarations")
            .iter()
            .collect(),
        _ => tools.iter().collect(),
    };
    entries
        .iter()
        .map(|e| {
            e.get("function")
                .unwrap_or(e)
                .get("name")
                .and_then(serde_json::Value::as_str)
                .expect("name")
                .to_owned()
        })
        .collect()
}

#[test]
fn definitions_for_every_provider_lists_each_tool_or_names_it_refused() {
    let all = [
        "notesmd_cli_search",
        "shapes-tool",
        "get_weather",
        "disk_usage",
    ];
    for provider in toolsmith::Provider::ALL {
        let fragment = definitions_for(provider);
        let mut names = fragment_names(&fragment);
        let refused = refused_tools(provider);
        for r in refused {
            assert!(!names.iter().any(|n| n == r), "{provider}: {r} both");
        }
        names.extend(refused.iter().map(|r| (*r).to_owned()));
        names.sort();
        let mut expected = all.map(str::to_owned).to_vec();
        expected.sort();
        assert_eq!(names, expected, "{provider}: a tool vanished");
    }
    use toolsmith::Provider;
    let chat = definitions_for(Provider::OpenAiChat);
    assert_eq!(chat["tools"][0]["function"]["strict"], false);
    let strict = definitions_for(Provider::OpenAiChatStrict);
    let search = &strict["tools"][0]["function"];
    assert_eq!(search["strict"], true);
    assert_eq!(search["parameters"]["additionalProperties"], false);
    assert_eq!(
        search["parameters"]["properties"]["limit"]["type"],
        json!(["integer", "null"])
    );
    // The free-form map and `oneOf` of `shapes-tool` have no strict form.
    assert_eq!(refused_tools(Provider::OpenAiChatStrict), ["shapes-tool"]);
    let gemini = definitions_for(Provider::Gemini);
    assert_eq!(
        gemini["tools"][0]["functionDeclarations"][0]["parameters"]["type"],
        "OBJECT"
    );
    assert_eq!(
        definitions_for(Provider::Mcp)["tools"][2]["inputSchema"],
        *GetWeatherArgs::parameters()
    );
    assert!(refused_tools(Provider::Mcp).is_empty());
}

/// The arguments a strict-mode model sends for `instance`: every property
/// of the strict schema, `null` where the instance leaves one out.
fn strict_instance(schema: &serde_json::Value, instance: &serde_json::Value) -> serde_json::Value {
    let mut out = instance.as_object().cloned().unwrap_or_default();
    for name in schema["properties"].as_object().expect("properties").keys() {
        out.entry(name.clone()).or_insert(serde_json::Value::Null);
    }
    serde_json::Value::Object(out)
}

#[test]
fn strict_nulls_parse_as_omitted_arguments() {
    let strict = definitions_for(toolsmith::Provider::OpenAiResponsesStrict);
    let schema = &strict["tools"][0]["parameters"];
    let validator = toolsmith::schema::Schema::compile(schema).unwrap();
    for instance in [
        json!({"query": "q", "text": "t"}),
        json!({"query": "q", "text": "t", "limit": 3, "mode": "2pass", "recursive": false}),
    ] {
        let sent = strict_instance(schema, &instance);
        assert!(validator.is_valid(&sent), "{sent} is not strict-valid");
        let from_strict = ToolCall::parse("notesmd_cli_search", &sent.to_string()).unwrap();
        let omitted = ToolCall::parse("notesmd_cli_search", &instance.to_string()).unwrap();
        assert_eq!(from_strict, omitted);
        assert_eq!(from_strict.invocation(), omitted.invocation());
    }
    // A null default-bearing optional takes the default, as when omitted.
    let call = ToolCall::parse(
        "notesmd_cli_search",
        r#"{"query":"q","text":"t","recursive":null}"#,
    )
    .unwrap();
    let ToolCall::NotesmdCliSearch(args) = call else {
        panic!("{call:?}")
    };
    assert!(args.recursive);
    // Nested: `filter.op` is optional in the nested object.
    let call = ToolCall::parse(
        "shapes-tool",
        r#"{"type":"t","maybe":"m","filter":{"field":"f","op":null},"dryRun":null,"size":null}"#,
    )
    .unwrap();
    let ToolCall::ShapesTool(args) = call else {
        panic!("{call:?}")
    };
    assert_eq!(args.filter.unwrap().op, None);
    assert_eq!((args.dry_run, args.size), (None, 10));
}

#[test]
fn strict_nulls_are_not_accepted_for_required_properties() {
    let err = ToolCall::parse(
        "notesmd_cli_search",
        r#"{"query":null,"text":"t","limit":null}"#,
    )
    .unwrap_err();
    let CallError::InvalidArguments { violations, .. } = err else {
        panic!("{err:?}")
    };
    // Only the required property is reported: the optional `limit` was an omission.
    let pointers: Vec<&str> = violations.iter().map(|v| v.pointer.as_str()).collect();
    assert_eq!(pointers, ["/query"], "{violations:?}");
    // `maybe` is required and nullable: its null is a value.
    let call = ToolCall::parse("shapes-tool", r#"{"type":"t","maybe":null}"#).unwrap();
    assert!(matches!(
        call,
        ToolCall::ShapesTool(ShapesToolArgs { maybe: None, .. })
    ));
    // `anything` accepts null: the null is kept as the value it is (the
    // typed field reads it as `None`, as it reads an omission).
    let call =
        ToolCall::parse("shapes-tool", r#"{"type":"t","maybe":"m","anything":null}"#).unwrap();
    assert!(matches!(
        call,
        ToolCall::ShapesTool(ShapesToolArgs { anything: None, .. })
    ));
}

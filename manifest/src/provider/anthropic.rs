//! Anthropic Messages API: the tool and property name patterns, the object
//! root, draft 2020-12, and the per-request limits of strict tools
//! (provider-formats.md §5).

use super::openai_strict::display;
use super::walk::{Via, type_names, walk};
use super::{Check, Fix, count, finding, name_finding, show};
use crate::model::Tool;
use crate::rules::Rule;
use serde_json::Value;

macro_rules! rule {
    ($name:ident, $sev:ident, $id:literal, $summary:literal) => {
        #[doc = concat!("`", $id, "` (", stringify!($sev), "): ", $summary)]
        pub static $name: Rule = Rule::$sev($id, "provider", $summary);
    };
}

rule!(
    NAME,
    error,
    "provider/anthropic-name",
    "Anthropic refuses tool names outside `^[a-zA-Z0-9_-]{1,128}$`"
);
rule!(
    PROPERTY_NAME,
    warning,
    "provider/anthropic-property-name",
    "Anthropic refused property names outside `^[a-zA-Z0-9_-]{1,64}$` in 2025-05 (volatile, not re-checked)"
);
rule!(
    ROOT,
    error,
    "provider/anthropic-root",
    "Anthropic needs `input_schema` of `type: \"object\"` without `oneOf`, `allOf` or `anyOf` at the top level"
);
rule!(
    DRAFT,
    error,
    "provider/anthropic-draft",
    "Anthropic refuses a schema that is not valid draft 2020-12 (a boolean `exclusiveMinimum`/`exclusiveMaximum`, a tuple `items`)"
);
rule!(
    STRICT_TOOLS,
    error,
    "provider/anthropic-strict-tools",
    "Anthropic allows at most 20 strict tools per request (volatile)"
);
rule!(
    STRICT_OPTIONAL,
    error,
    "provider/anthropic-strict-optional",
    "Anthropic allows at most 24 optional parameters over all strict tools of a request, nested ones included (volatile)"
);
rule!(
    STRICT_UNION,
    error,
    "provider/anthropic-strict-union",
    "Anthropic allows at most 16 union-typed parameters (type lists, `anyOf`, every nullable one) over all strict tools of a request (volatile)"
);
rule!(
    STRICT_NEAR_LIMIT,
    warning,
    "provider/anthropic-strict-near-limit",
    "a request of strict tools within 80 % of a limit may also hit Anthropic's unpublished grammar-size limit"
);

/// The rules of this file.
pub static RULES: &[&Rule] = &[
    &NAME,
    &PROPERTY_NAME,
    &ROOT,
    &DRAFT,
    &STRICT_TOOLS,
    &STRICT_OPTIONAL,
    &STRICT_UNION,
    &STRICT_NEAR_LIMIT,
];

/// Longest tool name (2025-06; 64 in 2025-03).
pub const MAX_NAME: usize = 128;
/// Longest property name (2025-05).
pub const MAX_PROPERTY_NAME: usize = 64;
/// Most strict tools per request.
pub const MAX_STRICT_TOOLS: usize = 20;
/// Most optional parameters per request of strict tools.
pub const MAX_OPTIONAL: usize = 24;
/// Most union-typed parameters per request of strict tools.
pub const MAX_UNION: usize = 16;

fn pattern_ok(name: &str, max: usize) -> bool {
    !name.is_empty()
        && name.len() <= max
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// True for a tool name Anthropic accepts.
pub fn name_ok(name: &str) -> bool {
    pattern_ok(name, MAX_NAME)
}

/// Anthropic's checks; `strict` adds the per-request limits of strict tools.
pub fn check(tools: &[&Tool], strict: bool) -> Vec<Check> {
    let title = if strict {
        "Anthropic (strict tools)"
    } else {
        "Anthropic"
    };
    let mut out = Vec::new();
    let mut optional: Vec<(usize, String)> = Vec::new();
    let mut union: Vec<(usize, String)> = Vec::new();
    for (i, tool) in tools.iter().enumerate() {
        let name = &tool.name;
        let mut push = |f: crate::Finding| {
            out.push(Check {
                finding: f,
                tool: i,
                fix: Fix::None,
            })
        };
        if !name_ok(name) {
            push(
                name_finding(
                    &NAME,
                    tool,
                    format!("{title} refuses the tool name `{name}`: `tools.N.custom.name: String should match pattern '^[a-zA-Z0-9_-]{{1,128}}$'`"),
                )
                .with_help(super::openai::suggest_name(name)),
            );
        }
        let schema = &tool.parameters;
        if schema.get("type").and_then(Value::as_str) != Some("object") {
            let found = schema
                .get("type")
                .map_or("no `type`".to_string(), |t| format!("`type: {}`", show(t)));
            push(
                finding(&ROOT, tool, if schema.get("type").is_some() { "/type" } else { "" },
                    format!("{title} refuses the schema of `{name}`: `input_schema` needs `type: \"object\"`, found {found}"))
                .with_help("wrap the arguments in an object: {\"type\": \"object\", \"properties\": {…}}"),
            );
        }
        for key in ["oneOf", "allOf", "anyOf"] {
            if schema.get(key).is_some() {
                push(
                    finding(&ROOT, tool, &format!("/{key}"),
                        format!("{title} refuses `{key}` at the top level of `{name}`'s schema: `input_schema does not support oneOf, allOf, or anyOf at the top level`"))
                    .with_help("move the alternatives into a property (e.g. `mode` with one object per alternative)"),
                );
            }
        }
        walk(schema, &mut |v| {
            let Some(members) = v.value.as_object() else {
                return;
            };
            for key in ["exclusiveMinimum", "exclusiveMaximum"] {
                if let Some(Value::Bool(b)) = members.get(key) {
                    push(
                        finding(&DRAFT, tool, &v.key_pointer(key),
                            format!("{title} refuses `{key}: {b}` at `{}` in `{name}`: a boolean `{key}` is draft-04; the schema must match draft 2020-12", display(&v.pointer)))
                        .with_help(format!("write the bound itself: `\"{key}\": 0` instead of `\"{}\": 0, \"{key}\": true`", if key == "exclusiveMinimum" { "minimum" } else { "maximum" })),
                    );
                }
            }
            if let Some(Value::Array(_)) = members.get("items") {
                push(
                    finding(&DRAFT, tool, &v.key_pointer("items"),
                        format!("{title} refuses tuple `items` at `{}` in `{name}`: the schema must match draft 2020-12", display(&v.pointer)))
                    .with_help("draft 2020-12 spells tuple validation `prefixItems`"),
                );
            }
            if let Via::Property {
                name: prop,
                required,
            } = &v.via
            {
                if !pattern_ok(prop, MAX_PROPERTY_NAME) {
                    push(
                        finding(&PROPERTY_NAME, tool, &v.pointer,
                            format!("{title} refused property names like `{prop}` (in `{name}`) in 2025-05: `Property keys should match pattern '^[a-zA-Z0-9_-]{{1,64}}$'`"))
                        .with_help(super::openai::suggest_name(prop).replace("rename it", "rename the property")),
                    );
                }
                if !required {
                    optional.push((i, v.pointer.clone()));
                }
                let types = type_names(v.value);
                if types.len() > 1 || members.contains_key("anyOf") {
                    union.push((i, v.pointer.clone()));
                }
            }
        });
    }
    if !strict {
        return out;
    }
    let near = |n: usize, limit: usize| n * 5 >= limit * 4 && n <= limit;
    if tools.len() > MAX_STRICT_TOOLS
        && let Some(tool) = tools.get(MAX_STRICT_TOOLS)
    {
        out.push(Check {
                finding: name_finding(&STRICT_TOOLS, tool,
                    format!("this file has {} tools; Anthropic allows {MAX_STRICT_TOOLS} strict tools per request: `Too many strict tools ({}). The maximum number of strict tools supported is 20.` (passed here)", tools.len(), tools.len()))
                .with_help("mark only the tools that need it strict, or split the tools over several requests"),
                tool: MAX_STRICT_TOOLS,
                fix: Fix::None,
            });
    }
    let limits = [
        (
            &STRICT_OPTIONAL,
            &optional,
            MAX_OPTIONAL,
            "optional parameters",
            "make parameters required, or send the tools with the most optional parameters without strict mode",
        ),
        (
            &STRICT_UNION,
            &union,
            MAX_UNION,
            "union-typed parameters (type lists, `anyOf`, nullable)",
            "give parameters a single type, or send some tools without strict mode",
        ),
    ];
    for (rule, found, limit, what, help) in limits {
        let Some((i, pointer)) = found.get(limit.min(found.len().saturating_sub(1))) else {
            continue;
        };
        let Some(tool) = tools.get(*i) else { continue };
        if found.len() > limit {
            out.push(Check {
                finding: finding(rule, tool, pointer,
                    format!("the strict tools of this file have {} {what} in total; Anthropic allows {limit} per request (passed here)", count(found.len())))
                .with_help(help),
                tool: *i,
                fix: Fix::None,
            });
        } else if near(found.len(), limit) {
            out.push(Check {
                finding: finding(&STRICT_NEAR_LIMIT, tool, pointer,
                    format!("the strict tools of this file have {} {what}, near Anthropic's limit of {limit} per request; the grammar may also be too large to compile", found.len()))
                .with_help(help),
                tool: *i,
                fix: Fix::None,
            });
        }
    }
    if near(tools.len(), MAX_STRICT_TOOLS)
        && let Some(tool) = tools.last()
    {
        out.push(Check {
                finding: name_finding(&STRICT_NEAR_LIMIT, tool,
                    format!("this file has {} strict tools, near Anthropic's limit of {MAX_STRICT_TOOLS} per request; the grammar may also be too large to compile", tools.len())),
                tool: tools.len() - 1,
                fix: Fix::None,
            });
    }
    out
}

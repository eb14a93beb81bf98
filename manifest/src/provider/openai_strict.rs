//! OpenAI strict mode (structured outputs): what `strict: true` refuses in a
//! tool's schema, and the limits counted over a whole tool list
//! (provider-formats.md §4). Findings that toolsmith's `--strict` rewrite
//! repairs carry [`Fix::Strict`].

use super::walk::{Via, Visit, type_names, walk, walk_except};
use super::{Check, Fix, count, finding, show};
use crate::model::Tool;
use crate::rules::Rule;
use crate::tree::index_pointer;
use serde_json::Value;

macro_rules! rule {
    ($name:ident, $sev:ident, $id:literal, $summary:literal) => {
        #[doc = concat!("`", $id, "` (", stringify!($sev), "): ", $summary)]
        pub static $name: Rule = Rule::$sev($id, "provider", $summary);
    };
}

rule!(
    ROOT,
    error,
    "provider/openai-strict-root",
    "OpenAI strict mode needs a root of `type: \"object\"` without `oneOf`/`anyOf`/`allOf`/`enum`/`not` at the top level"
);
rule!(
    ADDITIONAL_PROPERTIES,
    error,
    "provider/openai-strict-additional-properties",
    "OpenAI strict mode needs `additionalProperties: false` on every object (`--strict` export adds it)"
);
rule!(
    PROPERTIES_MISSING,
    error,
    "provider/openai-strict-properties-missing",
    "OpenAI strict mode refuses an object schema without `properties` (`--strict` export adds an empty one at the root)"
);
rule!(
    FREE_FORM,
    error,
    "provider/openai-strict-free-form",
    "a free-form map (an object without `properties`, or with `additionalProperties` other than `false`) cannot be made strict without changing its meaning"
);
rule!(
    CLOSES_MAP,
    warning,
    "provider/openai-strict-closes-map",
    "`export --strict` closed a free-form map (a nested object with neither `properties` nor `additionalProperties`): the model may now send only `{}` for it"
);
rule!(
    OPTIONAL,
    error,
    "provider/openai-strict-optional",
    "OpenAI strict mode needs every property in `required` (`--strict` export makes optional properties required and nullable)"
);
rule!(
    REQUIRED_UNKNOWN,
    error,
    "provider/openai-strict-required-unknown",
    "OpenAI strict mode refuses a `required` name that is not a property (`Extra required key`)"
);
rule!(
    KEYWORD,
    error,
    "provider/openai-strict-keyword",
    "OpenAI strict mode refuses `allOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentRequired`, `dependentSchemas`, `patternProperties`, `propertyNames`"
);
rule!(
    TYPE_MISSING,
    error,
    "provider/openai-strict-type-missing",
    "OpenAI strict mode needs a `type` (or `anyOf`, `$ref`, `enum`, `const`) on every schema node"
);
rule!(
    ITEMS,
    error,
    "provider/openai-strict-items",
    "OpenAI strict mode needs `items` on every array, as one schema (not a tuple)"
);
rule!(
    DEFAULT,
    warning,
    "provider/openai-strict-default",
    "`default` was refused by OpenAI strict mode in 2025 and accepted by gpt-5.6 in 2026-08 (Azure still refused it)"
);
rule!(
    UNVERIFIED_KEYWORD,
    warning,
    "provider/openai-strict-unverified-keyword",
    "a keyword outside OpenAI's documented strict-mode list, with no refusal on record (`$schema`, `minLength`, `maxLength`, other formats, …)"
);
rule!(
    LIMIT_DEPTH,
    error,
    "provider/openai-limit-depth",
    "OpenAI strict mode allows at most 10 levels of nested objects (volatile; 5 originally)"
);
rule!(
    LIMIT_PROPERTIES,
    error,
    "provider/openai-limit-properties",
    "OpenAI strict mode allows at most 5,000 object properties in a tool list (volatile; 100 originally)"
);
rule!(
    LIMIT_ENUM,
    error,
    "provider/openai-limit-enum",
    "OpenAI strict mode allows at most 1,000 enum values in a tool list (volatile)"
);
rule!(
    LIMIT_CHARACTERS,
    error,
    "provider/openai-limit-characters",
    "OpenAI strict mode allows at most 120,000 characters of property names, definition names and enum values in a tool list (volatile)"
);

/// The rules of this file.
pub static RULES: &[&Rule] = &[
    &ROOT,
    &ADDITIONAL_PROPERTIES,
    &PROPERTIES_MISSING,
    &FREE_FORM,
    &CLOSES_MAP,
    &OPTIONAL,
    &REQUIRED_UNKNOWN,
    &KEYWORD,
    &TYPE_MISSING,
    &ITEMS,
    &DEFAULT,
    &UNVERIFIED_KEYWORD,
    &LIMIT_DEPTH,
    &LIMIT_PROPERTIES,
    &LIMIT_ENUM,
    &LIMIT_CHARACTERS,
];

/// Most levels of nested objects (volatile, provider-formats.md §4).
pub const MAX_DEPTH: usize = 10;
/// Most object properties in a tool list.
pub const MAX_PROPERTIES: usize = 5000;
/// Most enum values in a tool list.
pub const MAX_ENUM_VALUES: usize = 1000;
/// Most characters of names and enum values in a tool list.
pub const MAX_CHARACTERS: usize = 120_000;

/// Keywords strict mode refuses.
pub const REFUSED: [&str; 10] = [
    "allOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "patternProperties",
    "propertyNames",
];

/// Keywords strict mode documents as supported (on current, not fine-tuned, models).
pub const SUPPORTED: [&str; 22] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "definitions",
    "description",
    "title",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
];

/// The `format` values strict mode documents.
pub const FORMATS: [&str; 9] = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// True when a node states what it is: `type`, `anyOf`, `$ref`, `enum` or `const`.
pub fn is_typed(schema: &Value) -> bool {
    ["type", "anyOf", "$ref", "enum", "const"]
        .iter()
        .any(|k| schema.get(k).is_some())
}

/// A running count over a tool list that remembers where it passed its limit.
struct Limit {
    limit: usize,
    total: usize,
    passed_at: Option<(usize, String)>,
}

impl Limit {
    fn new(limit: usize) -> Self {
        Limit {
            limit,
            total: 0,
            passed_at: None,
        }
    }

    fn add(&mut self, n: usize, tool: usize, pointer: impl FnOnce() -> String) {
        self.total += n;
        if self.total > self.limit && self.passed_at.is_none() {
            self.passed_at = Some((tool, pointer()));
        }
    }
}

/// The strict-mode findings of one tool list.
pub fn check(tools: &[&Tool]) -> Vec<Check> {
    let mut out = Vec::new();
    let mut properties = Limit::new(MAX_PROPERTIES);
    let mut enums = Limit::new(MAX_ENUM_VALUES);
    let mut characters = Limit::new(MAX_CHARACTERS);
    for (i, tool) in tools.iter().enumerate() {
        let mut push = |f, fix| {
            out.push(Check {
                finding: f,
                tool: i,
                fix,
            })
        };
        root(tool, &mut push);
        let mut deepest: Option<(usize, String)> = None;
        // `additionalProperties` is `false` (fine) or a free-form map
        // (reported once): nothing below it to check.
        let except: Vec<&str> = REFUSED
            .iter()
            .copied()
            .chain(["additionalProperties"])
            .collect();
        walk_except(&tool.parameters, &except, &mut |v| {
            node(tool, v, &mut push);
            if v.object_depth > MAX_DEPTH && deepest.is_none() {
                deepest = Some((v.object_depth, v.pointer.clone()));
            }
            if let Some(Value::Object(props)) = v.get("properties") {
                for name in props.keys() {
                    let at = || super::walk_pointer(&v.key_pointer("properties"), name);
                    properties.add(1, i, at);
                    characters.add(name.chars().count(), i, at);
                }
            }
            for defs in ["$defs", "definitions"] {
                if let Some(Value::Object(map)) = v.get(defs) {
                    for name in map.keys() {
                        characters.add(name.chars().count(), i, || {
                            super::walk_pointer(&v.key_pointer(defs), name)
                        });
                    }
                }
            }
            if let Some(Value::Array(values)) = v.get("enum") {
                for (k, value) in values.iter().enumerate() {
                    let at = || index_pointer(&v.key_pointer("enum"), k);
                    enums.add(1, i, at);
                    let n = match value {
                        Value::String(s) => s.chars().count(),
                        other => other.to_string().chars().count(),
                    };
                    characters.add(n, i, at);
                }
            }
        });
        let mut depth = 0;
        walk(&tool.parameters, &mut |v| depth = depth.max(v.object_depth));
        if let Some((_, pointer)) = deepest {
            push(
                finding(
                    &LIMIT_DEPTH,
                    tool,
                    &pointer,
                    format!(
                        "objects in `{}` nest {depth} levels deep; OpenAI strict mode allows {MAX_DEPTH}",
                        tool.name
                    ),
                )
                .with_help("flatten the nested objects (e.g. dotted property names) or send this tool without strict mode"),
                Fix::None,
            );
        }
    }
    let limits = [
        (&LIMIT_PROPERTIES, properties, "object properties"),
        (&LIMIT_ENUM, enums, "enum values"),
        (
            &LIMIT_CHARACTERS,
            characters,
            "characters of property names, definition names and enum values",
        ),
    ];
    for (rule, limit, what) in limits {
        let Some((i, pointer)) = limit.passed_at else {
            continue;
        };
        let Some(tool) = tools.get(i) else { continue };
        out.push(Check {
            finding: finding(
                rule,
                tool,
                &pointer,
                format!(
                    "this file's tools have {} {what} in total, over OpenAI strict mode's limit of {} per request (passed here)",
                    count(limit.total),
                    count(limit.limit)
                ),
            )
            .with_help("split the tools over several requests, or send some without strict mode"),
            tool: i,
            fix: Fix::None,
        });
    }
    out
}

/// The root: an object, without a combinator at the top.
fn root(tool: &Tool, push: &mut dyn FnMut(crate::Finding, Fix)) {
    let schema = &tool.parameters;
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        let found = schema
            .get("type")
            .map_or("no `type`".to_string(), |t| format!("`type: {}`", show(t)));
        push(
            finding(
                &ROOT,
                tool,
                if schema.get("type").is_some() { "/type" } else { "" },
                format!(
                    "OpenAI strict mode refuses the schema of `{}`: the root needs `type: \"object\"`, found {found}",
                    tool.name
                ),
            )
            .with_help("wrap the arguments in an object: {\"type\": \"object\", \"properties\": {…}}"),
            Fix::None,
        );
    }
    for key in ["oneOf", "anyOf", "allOf", "enum", "not"] {
        if schema.get(key).is_some() {
            push(
                finding(
                    &ROOT,
                    tool,
                    &format!("/{key}"),
                    format!(
                        "OpenAI strict mode refuses `{key}` at the top level of `{}`'s schema",
                        tool.name
                    ),
                )
                .with_help(
                    "move the alternatives into a property, or send this tool without strict mode",
                ),
                Fix::None,
            );
        }
    }
}

/// Everything strict mode checks on one node.
fn node(tool: &Tool, v: &Visit<'_>, push: &mut dyn FnMut(crate::Finding, Fix)) {
    let name = &tool.name;
    let Some(members) = v.value.as_object() else {
        // A boolean schema has no type.
        if !matches!(&v.via, Via::Keyword(k) if REFUSED.contains(&k.as_str())) {
            push(
                finding(
                    &TYPE_MISSING,
                    tool,
                    &v.pointer,
                    format!(
                        "OpenAI strict mode refuses the schema {} at `{}` in `{name}`: it has no `type`",
                        show(v.value),
                        display(&v.pointer)
                    ),
                )
                .with_help("write the schema out with a `type`"),
                Fix::None,
            );
        }
        return;
    };
    let is_root = v.via == Via::Root;
    // Objects.
    if v.is_object() {
        match members.get("additionalProperties") {
            Some(Value::Bool(false)) => {}
            Some(other) => push(
                finding(
                    &FREE_FORM,
                    tool,
                    &v.key_pointer("additionalProperties"),
                    format!(
                        "OpenAI strict mode needs `additionalProperties: false`, found {} at `{}` in `{name}`; closing this map would change what it accepts",
                        show(other),
                        display(&v.pointer)
                    ),
                )
                .with_help("list the keys as `properties`, or send this tool without strict mode"),
                Fix::None,
            ),
            // No properties, or `properties: {}`: a map whose keys are not listed.
            None if !is_root
                && members
                    .get("properties")
                    .is_none_or(|p| p.as_object().is_some_and(|p| p.is_empty())) =>
            {
                push(
                finding(
                    &FREE_FORM,
                    tool,
                    &v.pointer,
                    format!(
                        "OpenAI strict mode refuses the object at `{}` in `{name}`: it declares no properties (a free-form map), and closing it would accept only `{{}}`",
                        display(&v.pointer)
                    ),
                )
                .with_help("list the keys as `properties`, or send this tool without strict mode (`toolsmith export --strict` closes it, with a warning)"),
                    // `export --strict` closes it and reports `CLOSES_MAP` instead.
                    Fix::Strict,
                )
            }
            None => push(
                finding(
                    &ADDITIONAL_PROPERTIES,
                    tool,
                    &v.pointer,
                    format!(
                        "OpenAI strict mode needs `additionalProperties: false` on the object at `{}` in `{name}`",
                        display(&v.pointer)
                    ),
                )
                .with_help("add `\"additionalProperties\": false`, or export with `toolsmith export --strict`, which adds it"),
                Fix::Strict,
            ),
        }
        if is_root
            && members.get("properties").is_none()
            && members.get("additionalProperties").is_none()
        {
            push(
                finding(
                    &PROPERTIES_MISSING,
                    tool,
                    "",
                    format!("OpenAI strict mode refuses the schema of `{name}`: the object has no `properties`"),
                )
                .with_help("add `\"properties\": {}`, or export with `toolsmith export --strict`, which adds it"),
                Fix::Strict,
            );
        }
        if let Some(Value::Array(required)) = members.get("required") {
            let props = members.get("properties").and_then(Value::as_object);
            for (k, r) in required.iter().enumerate() {
                let Some(r) = r.as_str() else { continue };
                if !props.is_some_and(|p| p.contains_key(r)) {
                    push(
                        finding(
                            &REQUIRED_UNKNOWN,
                            tool,
                            &index_pointer(&v.key_pointer("required"), k),
                            format!(
                                "OpenAI strict mode refuses `required` entry `{r}` at `{}` in `{name}`: there is no such property",
                                display(&v.pointer)
                            ),
                        )
                        .with_help("remove it from `required`, or export with `toolsmith export --strict`, which sets `required` to the properties"),
                        Fix::Strict,
                    );
                }
            }
        }
    }
    if let Via::Property {
        name: prop,
        required: false,
    } = &v.via
    {
        push(
            finding(
                &OPTIONAL,
                tool,
                &v.pointer,
                format!(
                    "OpenAI strict mode needs every property in `required`; `{prop}` of `{name}` is optional"
                ),
            )
            .with_help("list it in `required` and make it nullable (`\"type\": [\"string\", \"null\"]`), or export with `toolsmith export --strict`, which does both"),
            Fix::Strict,
        );
    }
    // Arrays.
    if type_names(v.value).contains(&"array") {
        match members.get("items") {
            None => push(
                finding(
                    &ITEMS,
                    tool,
                    &v.pointer,
                    format!(
                        "OpenAI strict mode refuses the array at `{}` in `{name}`: it has no `items`",
                        display(&v.pointer)
                    ),
                )
                .with_help("add `\"items\"` with the elements' schema"),
                Fix::None,
            ),
            Some(Value::Array(_)) => push(
                finding(
                    &ITEMS,
                    tool,
                    &v.key_pointer("items"),
                    format!(
                        "OpenAI strict mode refuses tuple `items` at `{}` in `{name}`: `items` must be one schema",
                        display(&v.pointer)
                    ),
                )
                .with_help("describe the elements with one schema (an `anyOf` of the alternatives), or use an object with named properties"),
                Fix::None,
            ),
            Some(_) => {}
        }
    }
    if !is_typed(v.value)
        && !matches!(&v.via, Via::Keyword(k) if REFUSED.contains(&k.as_str()))
        && !REFUSED.iter().any(|k| members.contains_key(*k))
        && !is_root
    {
        push(
            finding(
                &TYPE_MISSING,
                tool,
                &v.pointer,
                format!(
                    "OpenAI strict mode refuses the schema at `{}` in `{name}`: it has no `type` (nor `anyOf`, `$ref`, `enum`, `const`)",
                    display(&v.pointer)
                ),
            )
            .with_help("add a `type`; an untyped node cannot be made strict"),
            Fix::None,
        );
    }
    for (key, value) in members {
        let pointer = v.key_pointer(key);
        if REFUSED.contains(&key.as_str()) {
            push(
                finding(
                    &KEYWORD,
                    tool,
                    &pointer,
                    format!(
                        "OpenAI strict mode refuses `{key}` (at `{}` in `{name}`): `'{key}' is not permitted`",
                        display(&v.pointer)
                    ),
                )
                .with_help(keyword_help(key)),
                Fix::None,
            );
        } else if key == "default" {
            push(
                finding(
                    &DEFAULT,
                    tool,
                    &pointer,
                    format!(
                        "`default` at `{}` in `{name}` was refused by OpenAI strict mode in 2025 (`'default' is not permitted`) and is still refused by some deployments",
                        display(&v.pointer)
                    ),
                )
                .with_help("drop it and say the default in the description (strict mode makes the property required anyway)"),
                Fix::None,
            );
        } else if key == "format" {
            if let Some(f) = value.as_str().filter(|f| !FORMATS.contains(f)) {
                push(
                    finding(
                        &UNVERIFIED_KEYWORD,
                        tool,
                        &pointer,
                        format!(
                            "`format: \"{f}\"` at `{}` in `{name}` is not among the formats OpenAI strict mode documents",
                            display(&v.pointer)
                        ),
                    )
                    .with_help(format!("strict mode documents {}; say the format in the description instead", FORMATS.join(", "))),
                    Fix::None,
                );
            }
        } else if !SUPPORTED.contains(&key.as_str()) {
            push(
                finding(
                    &UNVERIFIED_KEYWORD,
                    tool,
                    &pointer,
                    format!(
                        "`{key}` at `{}` in `{name}` is not in OpenAI strict mode's documented keywords; no refusal is on record",
                        display(&v.pointer)
                    ),
                )
                .with_help("drop it if OpenAI refuses the tool, and say the constraint in the description"),
                Fix::None,
            );
        }
    }
}

fn keyword_help(key: &str) -> &'static str {
    match key {
        "oneOf" => "write `anyOf` (strict mode supports it), or send this tool without strict mode",
        "allOf" => "merge the subschemas into one, or send this tool without strict mode",
        "patternProperties" | "propertyNames" => {
            "list the keys as `properties`, or send this tool without strict mode"
        }
        _ => {
            "drop the condition and check it when the call arrives, or send this tool without strict mode"
        }
    }
}

/// A pointer for messages (`/` for the schema itself).
pub(crate) fn display(pointer: &str) -> &str {
    if pointer.is_empty() { "/" } else { pointer }
}
